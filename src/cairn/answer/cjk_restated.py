"""CJK restatements that say exactly what their evidence says (issue 12, session 11).

Classes found on the test11 notes (a Japanese municipal notice, a Chinese property
notice) and checked on the CJK mutation harness, each an exact equivalence:

* a date written with slashes, year first, is the date (2027/3/31 = 2027年3月31日 =
  2027-03-31); a year-first form is never read month-first;
* a metric unit in katakana after a number is the unit (50センチメートル = 50cm = 0.5メートル,
  45リットル = 45L); a bare "L" after a number in CJK text is the litre;
* a count in Chinese numerals before a duration word and "within"/"before"/"after" is the
  count in digits (三十日内 = 30日内), and "within" after a counted duration is one word
  (24小时以内 = 24小时之内 = 24小时内);
* Japanese: a godan verb's "…ことができる" is its potential form (出すことはできません =
  出せません; する verbs are :data:`cairn.answer.cjk_forms._JA_SURU_KOTO_RE`'s), and the
  topic "は" after "に" adds no meaning (前日の夜には = 前日の夜に);
* Chinese: "没有" before a verb is "未" (没有缴纳 = 未缴纳; the polarity is the same,
  the tense too), "按照" is "按", and the emphatic frame "是 + a manner phrase … 的。"
  states the plain sentence (物业费是按照建筑面积来计算的 = 物业费按建筑面积计算): only
  with 按/按照/根据/通过/由 right after the 是 and 的 closing the sentence, and a 来 before
  the verb of that frame read away; the light verb "进行" before a verb is the verb
  (提前进行登记 = 提前登记; not before a count, 进行一次, nor 进行了/中/着/过); the future
  "会" before a verb is "将" (中心会书面催缴 = 中心将书面催缴; not in a word: 会议, 委员会,
  会计, 办公会审议, 社会, 机会, nor the Japanese 会場, 会社 of a kanji-only table cell);
* a Japanese first clause joined by the te-form is the one joined by the stem form:
  分別して次の = 分別し、次の, 持ち帰って、 = 持ち帰り、 (a る-verb's って; a す-verb's
  して; not として, which is no verb);
* two Japanese polite clauses joined by the contrastive "が、" ("収集しますが、…収集しません")
  are two statements, so they may come in either order (each keeps its own predicate and
  polarity);
* session 15 (Chinese): the disposal marker 把 is the written 将 (严禁把车辆推入 =
  严禁将车辆推入), and 都 after a distributive subject of its clause restates it (每辆车都须
  = 每辆车须, 每次都不得 = 每次不得); see :data:`_ZH_BA_RE`, :data:`_ZH_DISTRIBUTIVE_RE`;
* (evidence side only) a Japanese sentence-final request states the notice's rule: the
  evidence "出してください" accounts a claim "出します", "開けないでください" a claim
  "開けません" (開けない). Never the other way round: a claim's request is not read from a
  statement, whose implicit subject may be someone else (the office "連絡します").

:func:`restated_forms` runs in :func:`cairn.answer.cjk_forms.canonical_cjk` (claim and
evidence alike); :func:`slash_dates` in :func:`cairn.answer.cjk_forms.western_forms`;
:func:`request_reading` is a reading of :mod:`cairn.answer.readings`.
"""

from __future__ import annotations

import re

from cairn.answer.normalise import _cjk_value

__all__ = ["request_reading", "restated_forms", "slash_dates", "without_topic_after_ni"]

_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
_SLASH_DATE_RE = re.compile(r"(?<![\d/.])((?:19|20)\d\d)/(\d{1,2})/(\d{1,2})(?![\d/])")


def _slash_date(m: re.Match[str]) -> str:
    month, day = int(m.group(2)), int(m.group(3))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return f"{m.group(1)}年{month}月{day}日"


def slash_dates(text: str) -> str:
    """``text`` (CJK) with each year-first slashed date in the native form."""
    return _SLASH_DATE_RE.sub(_slash_date, text) if "/" in text else text


#: Katakana metric units (longest first) as the Han units the account reads.
_KANA_UNITS = {
    "キロメートル": "公里", "センチメートル": "厘米", "ミリメートル": "毫米", "メートル": "米",
    "キログラム": "公斤", "ミリグラム": "毫克", "グラム": "克", "ミリリットル": "毫升",
    "リットル": "升", "センチ": "厘米",
}  # fmt: skip
_KANA_UNIT_RE = re.compile(
    r"(?<=\d)\s?(" + "|".join(sorted(_KANA_UNITS, key=len, reverse=True)) + r")(?![\u30a1-\u30fc])"
)
_LITRE_RE = re.compile(r"(?<=\d)\s?L(?![A-Za-z\d])")

_HAN_NUM = "〇零一二两三四五六七八九十百"
_DURATION = r"(?:日間|日|天|个月|か月|ヶ月|カ月|年|小时|小時|時間|周|週間|分钟|分鐘|分間|分|秒钟|秒)"
#: A count in Chinese numerals before a duration and a word that makes it one.
_HAN_COUNT_RE = re.compile(
    rf"(?<![{_HAN_NUM}\d.,月第])([{_HAN_NUM}]{{1,4}})(?={_DURATION}(?:以内|之内|内|以前|前|後|后|以上|以下))"
)
_WITHIN_RE = re.compile(rf"(\d{_DURATION})(?:以内|之内)")

#: A godan verb (not る, whose class is unsure) before "ことができ": its potential stem.
_JA_POTENTIAL = dict(zip("すくぐむぶつう", "せけげめべてえ", strict=True))
_JA_KOTO_RE = re.compile(r"(?<=[\u4e00-\u9fff])([すくぐむぶつう])こと[がは]?(?:でき)")
_ZH_NOT_YET_RE = re.compile(r"没有(?=[\u4e00-\u9fff])")
_ZH_FRAME_RE = re.compile(
    r"(?<=[\u4e00-\u9fff，])是((?:按照|按|根据|通过|由)[^，。；！？是]{1,30}?)(?:来)?([\u4e00-\u9fff]{2})的(?=[，。；！？]|$)"
)

_ZH_WILL_RE = re.compile(
    r"(?<![员大社机開开学约聚协工商总事例晚年茶舞宴省体办知員機協総教集面再国都])"
    r"会(?![议员计场谈见签同商审诊所长话合友客费場社館議員計談見期式])(?=[\u4e00-\u9fff])"
)
_ZH_LIGHT_VERB_RE = re.compile(r"进行(?=[\u4e00-\u9fff]{2})(?![了中着过一二两三四五六七八九十])")
#: A te-form joining two clauses, in the stem form: "して、"/"して" + kanji → "し、";
#: "って、" of a kanji+る verb → "り、".
#: Not before "お"/"い"/"も"/"は"/"く" (しておく, している, してもよい, してはならない).
_JA_SHITE_RE = re.compile(r"(?<=[\u4e00-\u9fff])して(?:、|(?=[\u4e00-\u9fff\u30a1-\u30fa\d]|d\d|その|すぐ))")
_JA_TTE_RE = re.compile(r"(?<=[\u4e00-\u9fff])って、")

#: Session 15: the disposal marker 把 before its object is the written 将 (把车辆推入 =
#: 将车辆推入); not in a word (把握, 把关, 把手, 把守, 把持, 把戏, 把柄, 把脉) nor as a
#: measure word or noun (一把, 火把, 门把).
_ZH_BA_RE = re.compile(
    r"(?<![一两二三四几每这那个火刀门车拖])把(?![握关手守持戏柄脉])(?=[\u4e00-\u9fff\d])"
)
#: Session 15: 都 ("all, each") restating a distributive subject that precedes it in
#: its clause (每辆车都须 = 每辆车须, 各部门都应 = 各部门应); not in a word (首都, 成都,
#: 京都, 都市, 都会), nor after 连 ("even").
_ZH_DISTRIBUTIVE_RE = re.compile(r"(?:每|各|所有|凡|全体|全部)[^，,。；;：:！？、连]{0,12}?(?<![首成京古帝国])都(?![市会城])(?=[\u4e00-\u9fff])")

#: Two polite Japanese clauses joined by the contrastive "が、".
_JA_BUT_RE = re.compile(r"(します|しません|ます|ません|です)が、")


def _han_count(m: re.Match[str]) -> str:
    value = _cjk_value(m.group(1))
    return m.group() if value is None else str(value)


def restated_forms(text: str) -> str:
    """``text`` (CJK) with the symmetric restatements above in one form."""
    text = _KANA_UNIT_RE.sub(lambda m: _KANA_UNITS[m.group(1)], text)
    if "L" in text:
        text = _LITRE_RE.sub("升", text)
    text = _WITHIN_RE.sub(r"\1内", _HAN_COUNT_RE.sub(_han_count, text))
    if "が、" in text:
        text = _JA_BUT_RE.sub(r"\1。", text)
    if "て" in text and _KANA_HANGUL.search(text):
        text = _JA_TTE_RE.sub("り、", _JA_SHITE_RE.sub("し、", text))
    if "こと" in text:
        text = _JA_KOTO_RE.sub(lambda m: _JA_POTENTIAL[m.group(1)], text)
    if not _KANA_HANGUL.search(text):
        text = _ZH_NOT_YET_RE.sub("未", text).replace("按照", "按")
        if "会" in text:
            text = _ZH_WILL_RE.sub("将", text)
        if "进行" in text:
            text = _ZH_LIGHT_VERB_RE.sub("", text)
        if "是" in text:
            text = _ZH_FRAME_RE.sub(r"\1\2", text)
        if "把" in text:
            text = _ZH_BA_RE.sub("将", text)
        if "都" in text:
            text = _ZH_DISTRIBUTIVE_RE.sub(lambda m: m.group()[:-1], text)
    return text


def without_topic_after_ni(text: str) -> str:
    """``text`` (Japanese) with "には" read as "に" (前日の夜には = 前日の夜に). Run after the
    continuative clauses are read (:mod:`cairn.answer.cjk_clauses`), which look for a
    second clause's own topic "は" and must see the same one on both sides."""
    return text.replace("には", "に") if "には" in text else text


#: A sentence-final request whose plain form is exact: a す-verb or する stem (出し,
#: 分別し) or an e-row (ichidan) stem (入れ, 開け) before "てください", or any negative
#: stem before "ないでください".
_REQUEST_RE = re.compile(r"([し\u3048\u3051\u3052\u305b\u305c\u3066\u3067\u306d\u3079\u3081\u308c])てください(?=。|$)|ないでください(?=。|$)")


def request_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim, evidence with each sentence-final request stated as a rule), or None when
    the evidence has none or the claim is itself a request."""
    if "ください" not in evidence_text or "ください" in claim_text:
        return None
    reading = _REQUEST_RE.sub(lambda m: m.group(1) + "ます" if m.group(1) else "ない", evidence_text)
    return None if reading == evidence_text else (claim_text, reading)
