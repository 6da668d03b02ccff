"""CJK surface forms that state the same thing, rewritten to one form before a claim
and its evidence are accounted character by character (:mod:`cairn.answer.tokens`).

Only exact equivalences, applied to claim and evidence alike:

* spelling variants of one word: 必须 = 须, 应当 = 应, 可以 = 可, 每个月 = 每月, 星期三 = 周三,
  하여야 = 해야, 되어 = 돼, 매달 = 매월, 又は = または, 出来る = できる;

* a digit count before a Chinese/Japanese multiplier is the number itself: 45万元 is
  450000元, 1.2亿 is 120000000 (before, "45万" was read as 450);
* a Korean count of days before a duration word (7일 이내, 3일 동안, 2일 전) is a
  duration, as 天 is (168시간 이내 = 7일 이내); a date's day (25일까지) is not;
* the Korean polite declarative ending is the plain one: 적용합니다 = 적용한다,
  있습니다 = 있다, 입니다 = 이다 (only the sentence-final predicate; tense kept: 했다
  stays apart from 한다);
* "half" in a duration is .5 (1个半小时 = 1時間半 = 1시간 반 = 1.5 hours; 半年 = 0.5年);
* the Japanese polite sentence-final forms are the plain ones (します = する, できません =
  できない, です = である = だ);
* a Korean topic or subject particle on a word is one marker (관리비는 = 관리비가;
  은/는/이/가), the object particle one form (을/를) — the case role stays distinct.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["canonical_cjk"]

_HANGUL = re.compile("[\uac00-\ud7a3]")

#: A digit count before 万/亿 (and 千 before a counter): the number itself.
_HAN_MULT = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "千": 10**3}
_HAN_MULT_RE = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:(万|萬|亿|億)|(千)(?=[元円人名个次件台位张份本册]))"
)


def _han_multiplier(m: re.Match[str]) -> str:
    value = Fraction(m.group(1).replace(",", "") + (m.group(2) or "")) * _HAN_MULT[m.group(3) or m.group(4)]
    if value.denominator != 1:
        return m.group()
    return str(value.numerator)


#: "N일" before a word that makes it a span of days, read as N天 (a duration unit).
_KO_DAYS_RE = re.compile(r"(?<![\d.,])(\d+)일(?=\s?(?:이내|동안|간|전|후|마다|이상|이하|미만|초과|내에|안에|연장))")

_SENTENCE_END = r"(?=\s*[.!?。」』)\]]*\s*(?:$|\n)|[.!?。](?:\s|$))"
_POLITE_RE = re.compile(r"([\uac00-\ud7a3])(습니다|니다|는다|다)" + _SENTENCE_END)


def _final(ch: str) -> int:
    """The final consonant index of a Hangul syllable (0: none)."""
    return (ord(ch) - 0xAC00) % 28


def _without_final(ch: str) -> str:
    return chr(ord(ch) - _final(ch))


def _plain_ending(m: re.Match[str]) -> str:
    """The sentence-final predicate as its stem + 다: 합니다/한다 → 하다, 있습니다 → 있다,
    받는다 → 받다, 입니다 → 이다, 됩니다/된다 → 되다."""
    syl, ending = m.group(1), m.group(2)
    if ending in ("습니다", "는다"):
        return syl + "다"
    if ending == "니다":
        return (_without_final(syl) if _final(syl) == 17 else syl + "니") + "다"  # ㅂ니다
    return (_without_final(syl) if _final(syl) == 4 else syl) + "다"  # ㄴ다


#: Words ending in a particle-like syllable that are not a noun + particle.
_NOT_PARTICLE = frozenset(["없이", "같이", "많이", "깊이", "높이", "길이", "굳이", "같은", "작은", "많은", "좋은", "높은", "낮은"])
#: Topic/subject particles (one marker) and the object particle (one form).
_PARTICLE_RE = re.compile(r"(?<![\uac00-\ud7a3])([\uac00-\ud7a3]*?)([\uac00-\ud7a3])(은|는|이|가|을|를)(?=[\s,.!?)]|$)")


def _particle(m: re.Match[str]) -> str:
    head, syl, p = m.groups()
    word = head + syl + p
    if word in _NOT_PARTICLE:
        return word
    batchim = _final(syl) != 0
    if p in ("은", "이", "을") and not batchim:
        return word  # 이/은/을 after a vowel is part of the word (나이, 아이)
    if p in ("는", "가", "를") and batchim:
        return word
    if p == "는" and syl in "하되있없않":
        return word  # an adnominal verb form (이용하는, 있는), not a particle
    return head + syl + ("를" if p in ("을", "를") else "는")


#: "Half" in a duration: 1个半小时 / 1時間半 / 1시간 반 = 1.5 h, 半小时 = 0.5 h, 2年半 = 2.5年.
_HALF_UNITS = "小时|小時|時間|天|日間|年|个月|か月|ヶ月|カ月|週間|周"
_HALF_AFTER_RE = re.compile(r"(?<![\d.,])(\d+)(" + _HALF_UNITS + r"|시간|년|개월) ?(?:半|반(?![가-힣]))")
_HALF_COUNTER_RE = re.compile(r"(?<![\d.,])(\d+)个半(小时|月)")
_HALF_ALONE_RE = re.compile(r"(?<![\d个一二三四五六七八九十两上下前后多大小])半(?:个)?(小时|天|年|个月)")


def _halves(text: str) -> str:
    text = _HALF_COUNTER_RE.sub(lambda m: m.group(1) + ".5" + ("小时" if m.group(2) == "小时" else "个月"), text)
    text = _HALF_AFTER_RE.sub(lambda m: m.group(1) + ".5" + m.group(2), text)
    return _HALF_ALONE_RE.sub(lambda m: "0.5" + m.group(1), text)


#: Japanese polite (です/ます) and plain sentence-final forms: できません = できない,
#: します = する, です = である = だ; tense and negation are kept.
_JA_ENDINGS = (
    ("ではありません", "ではない"), ("ありません", "ない"), ("できません", "できない"),
    ("しません", "しない"), ("できました", "できた"), ("しました", "した"), ("できます", "できる"),
    ("します", "する"), ("でした", "だった"), ("であった", "だった"), ("です", "だ"), ("である", "だ"),
)  # fmt: skip
_JA_ENDING_RE = re.compile(
    "(" + "|".join(a for a, _ in _JA_ENDINGS) + r")(?=[。．.!！?？」』）)]*\s*$|[。．!！?？])", re.MULTILINE
)
_KANA = re.compile("[\u3041-\u30ff]")


#: Spelling variants of one word (longest first): 必须 = 须, 可以 = 可, 每个月 = 每月,
#: 星期三 = 周三, 하여야 = 해야, 매달 = 매월, 又は = または, 出来る = できる.
_VARIANTS = (
    ("必须", "须"), ("应当", "应"), ("应该", "应"), ("可以", "可"), ("每一个", "每"), ("每个", "每"),
    ("每一", "每"), ("每日", "每天"), ("星期天", "周日"), ("星期日", "周日"), ("星期", "周"),
    ("之内", "以内"), ("之前", "以前"), ("之后", "以后"),
    ("하였", "했"), ("하여", "해"), ("되었", "됐"), ("되어", "돼"), ("매달", "매월"), ("매해", "매년"),
    ("又は", "または"), ("若しくは", "もしくは"), ("出来る", "できる"), ("出来な", "できな"),
    ("出来ま", "できま"), ("出来た", "できた"), ("下さい", "ください"),
)  # fmt: skip
_VARIANT_RE = re.compile("|".join(a for a, _ in _VARIANTS))
_VARIANT_OF = dict(_VARIANTS)


#: A Korean count of years (3년이 지나면, 2년 동안) is a duration, as 年 is (36개월 = 3년);
#: a calendar year (2027년, 2027년 3월) has more digits and is not.
_KO_YEARS_RE = re.compile(r"(?<![\d.,])(\d{1,2}(?:\.\d+)?)년(?!\s?\d+\s?월)")
#: A clock time said with its half of the day (오후 4시, 下午4点, 午後4時30分) is the 24-hour
#: time (16:00, 16:30); a duration (4時間, 4시간) is not a clock time.
_HALF_DAY_RE = re.compile(
    r"(오전|오후|上午|下午|午前|午後)\s?(\d{1,2})\s?(?:시(?!간)|点|點|時(?!間))(?:\s?(\d{1,2})\s?(?:분|分))?"
)


def _clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group(2)), int(m.group(3) or 0)
    if hour > 12 or minute > 59:
        return m.group()
    hour = hour % 12 + (12 if m.group(1) in ("오후", "下午", "午後") else 0)
    return f"{hour:02d}:{minute:02d}"


#: Session 7b: a Korean count of weeks (1주일 = 1주) and of times (한 번 = 1번 = 1회,
#: 두 번 = 2회; not 번역, 번호, 번째, 번지).
_KO_WEEKS_RE = re.compile(r"(?<![\d.,])(\d+)\s?주일")
_KO_TIMES = {"한": "1", "두": "2", "세": "3", "네": "4"}
_KO_COUNT_RE = re.compile(r"(?<![\d.,제])(\d+)\s?회(?![의차])")
_KO_TIMES_RE = re.compile(r"(?<![가-힣])(한|두|세|네) ?번(?![역호째지])")


#: Session 7b: the Chinese "和"/"以及" between two nouns is the enumeration comma (中考和高考 =
#: 中考、高考); not inside a word (和平, 温和, 缓和, 总和, 和谐, ...).
_ZH_AND_RE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?<![温缓柔附暖随调总谦祥平饱])(?:以及|和)(?![平谐睦善蔼煦解气约好])(?=[\u4e00-\u9fff])"
)


#: Korean "or" between two nouns (영상이나 사진을) is the enumeration comma, as 과/와 is
#: (the particle stays on the last item); two 하-verbs joined by "or" (분실하거나 훼손한 =
#: 훼손하거나 분실한) are written in one order. Not in words ending in 나 (하나, 누구나).
_KO_OR_RE = re.compile(r"(?<=[가-힣])(?<![하누언어그아])(?:이나|나)(?= [가-힣])")
_KO_OR_VERBS_RE = re.compile(
    r"(?<![가-힣])([가-힣]{1,6})하거나 ([가-힣]{1,6}?)(한다|하는|하면|하여|한|할|해)(?=[\s.,]|$)"
)


def _or_verbs(m: re.Match[str]) -> str:
    a, b = sorted((m.group(1), m.group(2)))
    return f"{a}하거나 {b}{m.group(3)}"


def canonical_cjk(text: str) -> str:
    """``text`` with the exact CJK equivalences above written in one form."""
    text = _VARIANT_RE.sub(lambda m: _VARIANT_OF[m.group()], text)
    text = _halves(_HAN_MULT_RE.sub(_han_multiplier, text))
    text = _HALF_DAY_RE.sub(_clock, text)
    if ("和" in text or "以及" in text) and not _KANA.search(text) and not _HANGUL.search(text):
        text = _ZH_AND_RE.sub("、", text)
    if _KANA.search(text):
        endings = dict(_JA_ENDINGS)
        text = _JA_ENDING_RE.sub(lambda m: endings[m.group(1)], text)
    if _HANGUL.search(text):
        text = _KO_DAYS_RE.sub(r"\1天", text)
        text = _KO_WEEKS_RE.sub(r"\1주", text)
        text = _KO_OR_VERBS_RE.sub(_or_verbs, _KO_OR_RE.sub("、", text))
        text = _KO_TIMES_RE.sub(lambda m: _KO_TIMES[m.group(1)] + "번", text)
        text = _KO_COUNT_RE.sub(r"\1번", text)
        text = _POLITE_RE.sub(_plain_ending, text)
        text = _PARTICLE_RE.sub(_particle, text)
        text = _KO_YEARS_RE.sub(r"\1年", text)  # after the particles: 3년이 = 3년가 = 3年가
    return text
