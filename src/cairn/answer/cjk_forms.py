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
  은/는/이/가), the object particle one form (을/를) — the case role stays distinct;
* session 8: a clock hour is one 24-hour time whether said with its half of the day or
  not (午後3時 = 15時 = 15:00, 9時半 = 9:30, 오후 3시 = 15시, 下午3点半 = 15:30); a
  percentage in tenths or words is the percentage (三割 = 3割 = 30%, 三成 = 百分之三十 =
  30%, 30퍼센트 = 30%); Korean metric units in Hangul are the units (10킬로미터 = 10 km);
  a Korean count of days before 뒤 or "이/가 지나" is a duration as before 후 (7일이 지나도
  = 1주가 지나도), and so is a ja/zh N日 before 前/後/以内; a counted period with its
  "for" is the period (1年間 = 1年, 3일간 = 3일); a clock range with its words is the
  range mark (09:00부터 18:00까지 = 9時から18時まで = 09:00~18:00); 1万2千 = 1만 2천 =
  12000; any Japanese verb's sentence-final polite form is its plain form (定めます =
  定める); two Korean "-하고" clauses with their own subjects take the final tense and
  may come in either order; full-width digits, Japanese era years and dotted dates are
  read in their Western form first (令和9年 = 2027年, see :func:`western_forms`);
* session 9: a fraction said in words is the percentage when that is exact (十分之一 =
  10%, 四分之一 = 25%, 4分の1 = 25%; 三分之一 stays as written); a Chinese date's 号
  is its 日 (7月1号 = 7月1日); "并" between two verb phrases of one clause coordinates
  them as 和 does for nouns (追回款项并给予处分 = 给予处分并追回款项; not 并不/并非/合并);
  a Japanese/Korean continuative first clause (開館し、, 500円で、, 시행하며,) is a clause
  of its own with the final tense (:mod:`cairn.answer.cjk_clauses`); a clock range's own
  length after it is the range (18時から19時までの1時間 = 18時から19時まで, 12時から13時までの60分);
  a count per period with or without "every" (毎月1回 = 月に1回 = 月1回, 매월 1회 = 월 1회);
  することができる = できる; 100元/天 = 每天100元.
* session 10: a part or half of the day before a clock range holds for both ends
  (晚上10点至11点 = 22:00~23:00, 下午3点至5点, 오후 2시부터 4시까지); "from" a date something takes effect is the date
  it takes effect (自2027年1月1日起施行 = 2027年1月1日施行); "，并" between two verb
  phrases of one subject coordinates them as "并" does; "在…后" is "…后" (在使用后 =
  使用后); Korean Sino-Korean number words before a counter are the number (사천오백 원 =
  4500원), a count in 만 is the number (148만 원 = 1480000원), a native count before a
  counted noun is the digit (두 학기 = 2개 학기 = 2 학기); a Korean list of three or more
  nouns is one set whatever its order (전기밥솥, 전기난로, 전기장판은 = 전기난로, 전기장판,
  전기밥솥은).
* session 14: the Korean locative 에/에는 after a time word is optional (월요일에 휴관 =
  월요일 휴관, 접종 후에는 = 접종 후).
"""

from __future__ import annotations

import re
from fractions import Fraction

from cairn.answer.cjk_clauses import continuative_clauses
from cairn.answer.cjk_durations import duration_words
from cairn.answer.cjk_function_words import function_word_forms
from cairn.answer.cjk_numerals import mixed_numerals
from cairn.answer.cjk_restated import restated_forms, slash_dates, without_topic_after_ni
from cairn.answer.clock_ranges import half_day_minute_ranges
from cairn.answer.normalise import _cjk_value

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
_KO_DAYS_RE = re.compile(
    r"(?<![\d.,])(\d+)일(?=\s?(?:이내|동안|간|전|후|뒤|마다|이상|이하|미만|초과|내에|안에|연장)|[이가]\s지나|[이가]\s경과)"
)

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

#: Session 8: the sentence-final polite form of any verb is its plain form: an e-row
#: stem or a kanji stem takes る (定めます = 定める, 見ます = 見る), an i-row stem the
#: u-row (あります = ある, なります = なる, 使います = 使う; しています = している);
#: ません is ない on the a-row (使いません = 使わない; ありません is :data:`_JA_ENDINGS`'s).
#: A verb read into the wrong class becomes no verb at all, never another one.
_I_TO_U = dict(zip("きぎちにびみりい", "くぐつぬぶむるう", strict=True))
_I_TO_A = dict(zip("きぎちにびみりい", "かがたなばまらわ", strict=True))
_E_ROW = "えけげせぜてでねへべぺめれ"
_JA_MASU_RE = re.compile(
    "([" + _E_ROW + "\u4e00-\u9fff]|[きぎちにびみりい])(ます|ません)(?=[。．.!！?？」』）)]*\\s*$|[。．!！?？])", re.MULTILINE
)


def _plain_verb(m: re.Match[str]) -> str:
    stem, polite = m.group(1), m.group(2)
    before = m.string[m.start() - 1] if m.start() else ""
    if stem in _I_TO_U and not (stem == "い" and before in "てで"):  # している is いる
        return _I_TO_U[stem] if polite == "ます" else _I_TO_A[stem] + "ない"
    return stem + ("る" if polite == "ます" else "ない")


#: Spelling variants of one word (longest first): 必须 = 须, 可以 = 可, 每个月 = 每月,
#: 星期三 = 周三, 하여야 = 해야, 매달 = 매월, 又は = または, 出来る = できる.
_VARIANTS = (
    ("必须", "须"), ("应当", "应"), ("应该", "应"), ("可以", "可"), ("每一个", "每"), ("每个", "每"),
    ("每一", "每"), ("每日", "每天"), ("星期天", "周日"), ("星期日", "周日"), ("星期", "周"),
    ("之内", "以内"), ("之前", "以前"), ("之后", "以后"),
    ("하였", "했"), ("하여", "해"), ("되었", "됐"), ("되어", "돼"), ("매달", "매월"), ("매해", "매년"),
    ("又は", "または"), ("若しくは", "もしくは"), ("出来る", "できる"), ("出来な", "できな"),
    ("出来ま", "できま"), ("出来た", "できた"), ("下さい", "ください"),
    ("如果", "如"), ("曜日", "曜"), ("ヵ月", "か月"), ("ケ月", "か月"), ("箇月", "か月"),
    # session 16b: the spoken prohibition is the written one (走ってはいけません = 走ってはならない)
    ("てはいけません", "てはならない"), ("てはいけない", "てはならない"),
    ("ではいけません", "ではならない"), ("ではいけない", "ではならない"),
)  # fmt: skip
_VARIANT_RE = re.compile("|".join(a for a, _ in _VARIANTS))
_VARIANT_OF = dict(_VARIANTS)


#: A Korean count of years (3년이 지나면, 2년 동안) is a duration, as 年 is (36개월 = 3년);
#: a calendar year (2027년, 2027년 3월) has more digits and is not.
_KO_YEARS_RE = re.compile(r"(?<![\d.,])(\d{1,2}(?:\.\d+)?)년(?!\s?\d+\s?월)")
#: A clock time said with its half of the day (오후 4시, 下午4点, 午後4時30分) is the 24-hour
#: time (16:00, 16:30); a duration (4時間, 4시간) is not a clock time.
_HALF_DAY_RE = re.compile(
    r"(오전|오후|上午|下午|午前|午後)\s?(\d{1,2})\s?(?:시(?!간)|点|點|時(?!間)|时(?!间))(?:\s?(\d{1,2})\s?(?:분|分))?"
    r"|(오전|오후|上午|下午|午前|午後)\s?(\d{1,2}):(\d{2})(?![\d:])"  # 下午5:30 = 17:30 (session 8)
)


def _clock(m: re.Match[str]) -> str:
    half, hour_s, minute_s = (m.group(1), m.group(2), m.group(3)) if m.group(1) else m.group(4, 5, 6)
    hour, minute = int(hour_s), int(minute_s or 0)
    if hour > 12 or minute > 59:
        return m.group()
    hour = hour % 12 + (12 if half in ("오후", "下午", "午後") else 0)
    return f"{hour:02d}:{minute:02d}"


#: Session 7b: a Korean count of weeks (1주일 = 1주) and of times (한 번 = 1번 = 1회,
#: 두 번 = 2회; not 번역, 번호, 번째, 번지).
_KO_WEEKS_RE = re.compile(r"(?<![\d.,])(\d+)\s?주일")
_KO_TIMES = {"한": "1", "두": "2", "세": "3", "네": "4"}
_KO_COUNT_RE = re.compile(r"(?<![\d.,제])(\d+)\s?회(?![의차])")
_KO_TIMES_RE = re.compile(r"(?<![가-힣])(한|두|세|네) ?번(?![역호째지])")


#: Session 7b: the Chinese "和"/"以及" between two nouns is the enumeration comma (中考和高考 =
#: 中考、高考); not inside a word (和平, 温和, 缓和, 总和, 和谐, ...). Session 16b: also
#: before a noun that opens with a Latin code or digits (行驶证和3C认证标志).
_ZH_AND_RE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?<![温缓柔附暖随调总谦祥平饱])(?:以及|和)(?![平谐睦善蔼煦解气约好])(?=[\u4e00-\u9fff]|[A-Za-z\d]+[\u4e00-\u9fff])"
)


#: Korean "or" between two nouns (영상이나 사진을) is the enumeration comma, as 과/와 is
#: (the particle stays on the last item); two 하-verbs joined by "or" (분실하거나 훼손한 =
#: 훼손하거나 분실한) are written in one order. Not in words ending in 나 (하나, 누구나),
#: nor the verbs' 거나 (session 8: the sorted verb pair is read whole).
_KO_OR_RE = re.compile(r"(?<=[가-힣])(?<![하누언어그아거])(?:이나|나)(?= [가-힣])")
#: Session 16b: the instrumental 으로 after a final consonant is the particle 로 (전화나
#: 앱으로 = 앱이나 전화로 once the items are one list); 으로서/으로써 too.
_KO_WITH_RE = re.compile(r"(?<=[가-힣])으로(?=[\s,.]|$|서|써|는|도|만)")
_KO_OR_VERBS_RE = re.compile(
    r"(?<![가-힣])([가-힣]{1,6})하거나 ([가-힣]{1,6}?)(한다|하는|하면|하여|한|할|해)(?=[\s.,]|$)"
)


def _or_verbs(m: re.Match[str]) -> str:
    a, b = sorted((m.group(1), m.group(2)))
    return f"{a}하거나 {b}{m.group(3)}"


#: Session 8: a Japanese or Chinese count of days before 前/後/以内 (7日前 = 168時間前,
#: 3日以内) is a duration, as 天 is; a date's day (3月7日前, 25日前後) is not.
#: Session 16b: so is N日 as what passes or is exceeded (14日を過ぎても = 2週間を過ぎても,
#: 30日が経過した, 7日を超える, 14日先まで) and N日 of a repeat (7日ごと = 1週間ごと); a date's day
#: after 月 (毎月14日を過ぎても) still is not.
_HAN_DAYS_RE = re.compile(
    r"(?<![\d.,月])(?<!月 )(\d+)日(?=前(?!後)|後|后|以内|以上|以下|未満|内|先|[をが](?:過ぎ|経過|超え|越え|経っ)|経過|ごと|おき)"
)


#: Session 8: a Japanese era year (令和9年, 平成31年, 令和元年) is the Western year.
_ERA_BASE = {"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911}
_ERA_RE = re.compile(r"(令和|平成|昭和|大正)\s?(元|\d{1,2})\s?年")


#: Full-width digits, Latin letters and the percent sign (３０％, ＰＣ) are their ASCII
#: forms; a full-width point between digits (３．５) the decimal point.
_FULL_WIDTH = {c: chr(c - 0xFEE0) for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B), 0xFF05)}
_FULL_POINT_RE = re.compile(r"(?<=\d)．(?=\d)")
#: A dotted date in CJK text (2027. 3. 1., 2027.03.01) is the date: 2027年3月1日.
_DOTTED_DATE_RE = re.compile(r"(?<![\d.])((?:19|20)\d\d)\.\s?(\d{1,2})\.\s?(\d{1,2})(?:\.(?!\d))?(?![\d.])")


def _dotted_date(m: re.Match[str]) -> str:
    month, day = int(m.group(2)), int(m.group(3))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return f"{m.group(1)}年{month}月{day}日"


def western_forms(text: str) -> str:
    """``text`` (CJK) with full-width digits and signs in ASCII, each Japanese era year as
    its Western year (令和9年4月1日 → 2027年4月1日) and each dotted date in the native
    form (2027. 3. 1. → 2027年3月1日), so that these dates are the same calendar date as
    their other forms. Called before dates are normalised
    (:func:`cairn.answer.tokens.account_tokens`)."""
    text = _FULL_POINT_RE.sub(".", text.translate(_FULL_WIDTH))
    if "号" in text:
        text = _HAO_DATE_RE.sub(r"\1日", text)
    if "年" in text:
        text = _ERA_RE.sub(lambda m: f"{_ERA_BASE[m.group(1)] + (1 if m.group(2) == '元' else int(m.group(2)))}年", text)
    text = slash_dates(text)  # session 11: 2027/3/31
    return _DOTTED_DATE_RE.sub(_dotted_date, text) if "." in text else text


#: Session 8: "N時半" / "N点半" / "N시 반" is N:30 on the clock (a duration's half,
#: 1時間半, is :data:`_HALF_AFTER_RE`'s).
_CLOCK_HALF_RE = re.compile(r"(?<![\d.,:])(\d{1,2})\s?(時(?!間)|点|點|시(?!간))\s?(?:半|반(?![가-힣]))")
#: The half of the day also said by a part of the day: 夜7時 / 저녁 7시 / 晚上7点 are
#: 19:00, 朝7時 / 아침 7시 / 早上7点 07:00 (only hours where the part of the day is sure).
_PARTS = "夕方|夜|晩|저녁|밤|晚上|傍晚|朝|아침|早上|早晨|凌晨|새벽|深夜|未明"
_PART_OF_DAY_RE = re.compile(
    rf"({_PARTS})\s?(\d{{1,2}})\s?(?:시(?!간)|点|點|時(?!間)|时(?!间))(?:\s?(\d{{1,2}})\s?(?:분|分))?"
    rf"|({_PARTS})\s?(\d{{1,2}}):(\d{{2}})(?![\d:])"
)
_PM_PARTS = frozenset(["夕方", "夜", "晩", "저녁", "밤", "晚上", "傍晚"])
_SMALL_HOURS = frozenset(["凌晨", "새벽", "深夜", "未明"])  # 0-5 o'clock only


def _part_of_day(m: re.Match[str]) -> str:
    part, hour_s, minute_s = (m.group(1), m.group(2), m.group(3)) if m.group(1) else m.group(4, 5, 6)
    hour, minute = int(hour_s), int(minute_s or 0)
    pm = part in _PM_PARTS
    low, high = (0, 5) if part in _SMALL_HOURS else (5, 11) if pm else (4, 11)
    if not low <= hour <= high or minute > 59:
        return m.group()
    return f"{hour + (12 if pm else 0):02d}:{minute:02d}"


#: A bare clock hour (15時, 15时, 7時30分, 15시, 9시 30분; Chinese 点 only with its minutes
#: or as a range's or a time's end, 9点至18点, 8点前: "3点" may be three points) is the
#: 24-hour time; a duration (時間, 시간) or 時限/時点 is not.
_BARE_CLOCK_RE = re.compile(
    r"(?<![\d.,:])(\d{1,2})\s?(?:時(?![間限点期刻])|时(?![间候期段限刻代效长])|시(?![간행각기점])"
    r"|(?:点|點)(?=\s?\d{1,2}\s?分|\s?(?:至(?!关)|到|前|后|以前|以后|起|开始|整))"
    r"|(?:(?<=[至到]\d)|(?<=[至到]\d\d)|(?<=次日\d)|(?<=次日\d\d))(?:点|點))"
    r"(?:\s?(\d{1,2})\s?(?:분|分))?"
)


def _bare_clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if hour > 24 or minute > 59:
        return m.group()
    return f"{hour:02d}:{minute:02d}"


#: Session 8: percentages in tenths and words. Japanese 割 (三割 = 3割 = 30%, 3割5分 =
#: 35%; not 割合), Chinese 成 (三成 = 30%; not 一成不变, 八成是) and 百分之 (百分之三十 =
#: 30%), Korean 퍼센트/프로 (30퍼센트 = 30%).
_TENTH_DIGITS = "一二三四五六七八九"
_WARI_RE = re.compile(
    r"(?<![\d.,〇一二三四五六七八九十百千])(\d|[一二三四五六七八九]|十)割(?:(\d|[一二三四五六七八九])分)?(?!合)"
)
_CHENG_RE = re.compile(r"(?<![\d.,〇一二三四五六七八九十百千])([1-9]|[一二两三四五六七八九]|十)成(?![为了功立绩本年员品型熟长就交果不是])")
_ZH_PERCENT_RE = re.compile(r"百分之([\d.]+|[零〇一二两三四五六七八九十百]+)")
_KO_PERCENT_RE = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)\s?(?:퍼센트|프로(?![가-힣]))")


def _tenths(ch: str) -> int:
    return 10 if ch == "十" else 2 if ch == "两" else int(ch) if ch.isdigit() else _TENTH_DIGITS.index(ch) + 1


def _percentages(text: str) -> str:
    if "割" in text:
        text = _WARI_RE.sub(lambda m: f"{_tenths(m.group(1)) * 10 + (_tenths(m.group(2)) if m.group(2) else 0)}%", text)
    if "成" in text and not _KANA.search(text) and not _HANGUL.search(text):
        text = _CHENG_RE.sub(lambda m: f"{_tenths(m.group(1)) * 10}%", text)
    if "百分之" in text:
        text = _ZH_PERCENT_RE.sub(_zh_percent, text)
    return _KO_PERCENT_RE.sub(r"\1%", text)


def _zh_percent(m: re.Match[str]) -> str:
    raw = m.group(1)
    if raw[0].isdigit():
        return raw + "%"
    value = _cjk_value(raw)
    return m.group() if value is None else f"{value}%"


#: Session 8: Korean metric units in Hangul after a number are the units (10킬로미터 =
#: 10公里 = 10 km, 2킬로그램 = 2 kg); the Han unit is the one the account reads.
_KO_METRIC = {
    "킬로미터": "公里", "센티미터": "厘米", "밀리미터": "毫米", "미터": "米", "킬로그램": "公斤",
    "밀리그램": "毫克", "그램": "克", "밀리리터": "毫升", "리터": "升",
}  # fmt: skip
_KO_METRIC_RE = re.compile(r"(?<=\d)\s?(" + "|".join(sorted(_KO_METRIC, key=len, reverse=True)) + ")")


#: Session 8: a Korean sentence of two clauses, each with its own subject, joined by a
#: 하-verb's "-하고" ("A가 승인하고 B가 작성했다"): the first clause takes the final
#: predicate's tense and ends as a clause of its own ("A가 승인했다，B가 작성했다"), so the
#: clauses may come in either order but each keeps its subject and verb
#: (:mod:`cairn.answer.cjk_order`). One subject doing two acts in sequence ("확인하고
#: 제출한다") has no second subject and stays one clause.
_KO_CLAUSES_RE = re.compile(
    r"(?P<c1>[^，,.。]*?[가-힣](?:이|가) [가-힣]{1,6})(?P<j>하고|했고) (?P<c2>[^，,.。]*?[가-힣](?:이|가) [가-힣]{1,6})"
    r"(?P<end>했다|하다)" + _SENTENCE_END
)


def _ko_clauses(text: str) -> str:
    """Session 16b: the first clause may carry the past itself (승인했고 … 작성했다)."""

    def split(m: re.Match[str]) -> str:
        if m["j"] == "했고" and m["end"] != "했다":
            return m.group()
        return f"{m['c1']}{m['end']}，{m['c2']}{m['end']}"

    return _KO_CLAUSES_RE.sub(split, text)


#: Session 16b: "-는 경우(에는)" ("in case it …") is the conditional "-(으)면" of the same
#: verb (있는 경우에는 = 있으면, 하는 경우 = 하면); only after the verb's adnominal 는.
_KO_CASE_RE = re.compile(r"([가-힣])는 경우(?:에는|에)?(?=[\s,])")


def _ko_case(m: re.Match[str]) -> str:
    return m.group(1) + ("으면" if _final(m.group(1)) else "면")


#: Session 8: a range of clock times said with its words is the range mark: "09:00부터
#: 18:00까지" = "9時から18時まで" = "9点至18点" (once clocks are read) = "09:00~18:00"
#: (not "까지는"/"までに", a deadline).
_CLOCK = r"\d{1,2}:\d{2}"
_CLOCK_RANGE_RE = re.compile(
    rf"(?:从\s?)?({_CLOCK})\s?(?:부터|から|至|到|起至)\s?({_CLOCK})(?:\s?(?:까지(?!는)|まで(?!に)))?"
    rf"|({_CLOCK})\s?[~〜～\-–]\s?({_CLOCK})"
)


def _clock_range(m: re.Match[str]) -> str:
    a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return f"{a}~{b}"


#: Session 8: a count in 万 and 千 (1万2千円, 1만 2천 원) is one number: 12000.
_MAN_CHEON_RE = re.compile(
    r"(?<![\d.,])(\d+)\s?(万|萬|만)\s?(\d)\s?(千|천)(?:\s?(\d)\s?(?:百|백))?(?=\s?[元円원人名명个次件台대位张份本册개])"
)


def _man_cheon(m: re.Match[str]) -> str:
    return str(int(m.group(1)) * 10000 + int(m.group(3)) * 1000 + int(m.group(5) or 0) * 100)


#: Session 8: "for" of a counted period is the period (1年間 = 1年, 3か月間 = 3か月,
#: 3일간 = 3일, 2년간 = 2년); 週間/日間 are units already.
_PERIOD_SPAN_RE = re.compile(r"(?<=[\d一二三四五六七八九十百两])(年|か月|ヶ月|カ月)間(?!隔)")
_KO_PERIOD_SPAN_RE = re.compile(r"(?<=\d)(天|년|개월|주)간(?!격)")  # after 일 is read as 天


#: Session 9: a fraction in words (十分之一, 4分の1) is the percentage when it is exact
#: to two decimals (十分之一 = 10%, 八分之一 = 12.5%); 三分之一 (33.3...%) is left as it is.
_FRACTION_RE = re.compile(
    r"(?<![\d.,〇零一二两三四五六七八九十百千])(\d+|[一二两三四五六七八九十百]+)(?:分之|分の)(\d+|[一二两三四五六七八九十]+)"
    r"(?![\d.,〇零一二两三四五六七八九十百千万时時秒钟鐘日天年月间間])"
)


def _fraction(m: re.Match[str]) -> str:
    whole, part = (int(g) if g.isdigit() else _cjk_value(g) for g in m.groups())
    if not whole or part is None or part > whole:
        return m.group()
    percent = Fraction(100 * part, whole)
    if (percent * 100).denominator != 1:
        return m.group()
    return f"{float(percent):g}%"


#: Session 9: a Chinese date's day said with 号 (2027年7月1号) is the day with 日.
_HAO_DATE_RE = re.compile(r"(?<=月)(\d{1,2}|[一二三四五六七八九十]{1,3})号")

#: Session 9: "并" joining two verb phrases of one clause (追回款项并给予处分) coordinates
#: them; not 并不/并非/并没 (emphatic negation), 并且 (a clause's "and also"), 合并/兼并/
#: 吞并 (merge) or 并列/并行/并存/并重/并入/并购/并发/并用/并称.
_ZH_VP_AND_RE = re.compile(
    r"(?<=[\u4e00-\u9fff])(?<![合兼吞归])并(?![不非没未无且列行存重入购发用称排])(?=[\u4e00-\u9fff])"
)


#: Session 9: a clock range followed by its own length (18時から19時までの1時間, 9点至11点，
#: 共2小时, 09:00~18:00의 9시간) says nothing the range does not: the length is dropped when
#: it is exactly the range's span (overnight ranges wrap); any other length stays.
_RANGE_SPAN_RE = re.compile(
    r"(\d\d):(\d\d)~(\d\d):(\d\d)(?:の|의 ?|的|，共|，计|、計| )\s?(\d+(?:\.\d+)?)\s?(時間|小时|小時|시간|分钟|分間|分|분)(?!\d)"
)


def _range_span(m: re.Match[str]) -> str:
    h1, m1, h2, m2 = (int(g) for g in m.group(1, 2, 3, 4))
    minutes = Fraction((h2 * 60 + m2 - h1 * 60 - m1) % (24 * 60))
    length = Fraction(m.group(5)) * (1 if m.group(6) in ("分钟", "分間", "分", "분") else 60)
    if length != minutes:
        return m.group()
    return f"{m.group(1)}:{m.group(2)}~{m.group(3)}:{m.group(4)}"


#: Session 9: a count per calendar period said with or without "every" is one form:
#: 毎月1回 = 月に1回 = 月1回, 매월 1회 = 월 1회 (the period is kept: 月 is never 年).
_JA_PER_PERIOD_RE = re.compile(r"(?:毎(月|年|週|日)|(月|年|週|日)に)(?=\s?[\d一二三四五六七八九十]+\s?(?:回|度))")
_KO_PER_PERIOD_RE = re.compile(r"(?<![가-힣])매(월|년|주|일)(?=\s?\d+\s?(?:회|번))")
#: Session 9: "…することができる" is "…できる" (a Sino-Japanese verb's potential), also
#: with "は" (することはできない = できない).
_JA_SURU_KOTO_RE = re.compile(r"(?<=[\u4e00-\u9fff\u30a0-\u30ff])すること[がは](?=でき)")
#: Session 9: a Chinese amount per period written with a slash is the amount "每" period:
#: 100元/天 = 每天100元, 350元/晚 = 每晚350元.
_ZH_PER_SLASH_RE = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)(元|块)\s?/\s?(天|日|晚|月|年|人|次|小时)")


#: Session 10: a part or half of the day before a clock range holds for its second hour
#: too, when that hour is later in the same half (晚上10点至11点 = 晚上10点至晚上11点,
#: 下午3点至5点, 오후 2시부터 4시까지, 午後2時から4時まで; not up to 12).
_PART_RANGE_RE = re.compile(
    rf"({_PARTS}|오전|오후|上午|下午|午前|午後)\s?(\d{{1,2}})\s?(点|點|時(?!間)|时(?!间)|시(?!간))\s?(至|到|~|～|-|–|から|부터 ?)\s?(\d{{1,2}})(?=\s?(?:点|點|時(?!間)|时(?!间)|시(?!간)))"
)


def _part_range(m: re.Match[str]) -> str:
    if not int(m.group(2)) < int(m.group(5)) < 12:
        return m.group()
    return f"{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)}{m.group(1)}{m.group(5)}"


#: Session 10: "from" the date something takes effect (自/从 … 起) is that date.
_DATE = r"\d{4}\s?年\s?\d{1,2}\s?月\s?\d{1,2}\s?[日号]|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|d\d{8}(?!\d)"
_FROM_DATE_RE = re.compile(rf"(?:自|从)\s?({_DATE})\s?起?(?=\s?(?:施行|生效|实施|执行))|({_DATE})\s?起(?=\s?(?:施行|生效|实施|执行))")
#: Session 10: "，并" before a verb phrase of the same subject (not 并不/并非/并且/...).
_ZH_COMMA_AND_RE = re.compile(r"[，,]\s?并(?!不(?!得)|[非没未无且列行存重入购发用称排])(?=[\u4e00-\u9fff])")
#: Session 10: "在 … 后" around a short verb phrase is "… 后" (not 存在/现在/实在/正在/所在).
_ZH_AT_AFTER_RE = re.compile(r"(?<![存现实正所好])在(?=[\u4e00-\u9fff]{2,4}(?:之后|以后|后))")
#: Session 10: Sino-Korean number words (two syllables or more, with a multiplier; one
#: multiplier alone before " 원") before a counter: 사천오백 원 = 4500원, 삼십 명 = 30명, 천 원.
_KO_SINO = "일이삼사오육칠팔구"
_KO_SINO_RE = re.compile(
    r"(?<![가-힣\d.,])([일이삼사오육칠팔구십백천만]{2,8}|[십백천만](?= 원))\s?(?=원|명|개|권|회|번|점|층|시간|개월)"
)
#: Session 10: a count in 만 (억) before 원/명 is the number: 148만 원 = 1480000원.
_KO_MAN_RE = re.compile(r"(?<![\d.,])(\d+)(?:\.(\d+))?\s?(만|억)\s?(?=원|명)")
#: Session 10: a native Korean count before a counted noun is the digit, and "N개 <noun>"
#: the same count: 두 학기 = 2개 학기 = 2 학기.
_KO_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6}
_KO_COUNTED = "학기|과목|달|해|차례|가지"
_KO_NATIVE_RE = re.compile(rf"(?<![가-힣])(한|두|세|네|다섯|여섯) (?=(?:{_KO_COUNTED})(?![가-힣]))")
_KO_N_GAE_RE = re.compile(rf"(?<![\d.,])(\d+)개 (?=(?:{_KO_COUNTED})(?![가-힣]))")
#: Session 10: a Korean list of three or more single nouns, the last with its particle.
_KO_LIST_RE = re.compile(
    r"(?<![가-힣])((?:[가-힣]{1,8}, ){2,}[가-힣]{1,8}?)(은|는|이|가|을|를|도)(?= )"
)
_KO_VERB_ENDS = tuple("며고면서나지어아해여")


def _ko_sino(m: re.Match[str]) -> str:
    word = m.group(1)
    if not any(ch in word for ch in "십백천만"):
        return m.group()
    total, section, digit = 0, 0, 0
    for ch in word:
        if ch in _KO_SINO:
            digit = _KO_SINO.index(ch) + 1
        elif ch == "만":
            total += (section + digit or 1) * 10000
            section = digit = 0
        else:
            section += (digit or 1) * {"십": 10, "백": 100, "천": 1000}[ch]
            digit = 0
    return str(total + section + digit)


def _ko_man(m: re.Match[str]) -> str:
    whole, frac, mult = m.group(1), m.group(2) or "", m.group(3)
    value = Fraction(f"{whole}.{frac}" if frac else whole) * (10**4 if mult == "만" else 10**8)
    return str(value.numerator) if value.denominator == 1 else m.group()


def _ko_list(m: re.Match[str]) -> str:
    items = m.group(1).split(", ")
    if any(item.endswith(_KO_VERB_ENDS) for item in items[:-1]):
        return m.group()
    return ", ".join(sorted(items)) + m.group(2)


#: Session 14: the locative 에 (with a topic 는: 에는, 엔) after a time word is optional
#: (월요일에 휴관 = 월요일 휴관, 접종 후에는 = 접종 후, 10:00에 = 10:00): a weekday, 주말,
#: a kind of day (공휴일, 평일, 근무일), 후/전/뒤 of an event, 때, a clock time or an
#: hour/minute count.
_KO_TIME_AT_RE = re.compile(
    r"(요일|주말|휴일|평일|근무일|영업일|[\s\d](?:후|전|뒤|때)|\d:\d\d|\d[시분])(?:에는|에|엔)(?=\s)"
)


def canonical_cjk(text: str) -> str:
    """``text`` with the exact CJK equivalences above written in one form."""
    text = restated_forms(_VARIANT_RE.sub(lambda m: _VARIANT_OF[m.group()], text))  # session 11
    text = function_word_forms(text)  # session 18c: 以后 = 后, 的时候 = 时, 계약할 때 = 계약 시
    text = duration_words(mixed_numerals(text))  # session 16b: 2千5百円 = 2500円, 이틀 = 2天
    text = _halves(_HAN_MULT_RE.sub(_han_multiplier, _MAN_CHEON_RE.sub(_man_cheon, text)))
    text = _CLOCK_HALF_RE.sub(lambda m: m.group(1) + m.group(2) + ("30분" if m.group(2) == "시" else "30分"), text)
    text = _HALF_DAY_RE.sub(_clock, half_day_minute_ranges(_PART_RANGE_RE.sub(_part_range, text)))
    text = _BARE_CLOCK_RE.sub(_bare_clock, _PART_OF_DAY_RE.sub(_part_of_day, text))
    text = _CLOCK_RANGE_RE.sub(_clock_range, text)
    if "~" in text:
        text = _RANGE_SPAN_RE.sub(_range_span, text)
    if "分之" in text or "分の" in text:
        text = _FRACTION_RE.sub(_fraction, text)
    text = _PERIOD_SPAN_RE.sub(r"\1", _percentages(text))
    if ("和" in text or "以及" in text) and not _KANA.search(text) and not _HANGUL.search(text):
        text = _ZH_AND_RE.sub("、", text)
    if not _KANA.search(text) and not _HANGUL.search(text):
        text = _FROM_DATE_RE.sub(lambda m: m.group(1) or m.group(2), text)
        text = _ZH_AT_AFTER_RE.sub("", text)
    if "并" in text and not _KANA.search(text) and not _HANGUL.search(text):
        text = _ZH_VP_AND_RE.sub("、", _ZH_COMMA_AND_RE.sub("并", text))
    if "/" in text and not _KANA.search(text) and not _HANGUL.search(text):
        text = _ZH_PER_SLASH_RE.sub(lambda m: f"每{'天' if m.group(3) == '日' else m.group(3)}{m.group(1)}{m.group(2)}", text)
    if _KANA.search(text):
        text = _JA_SURU_KOTO_RE.sub("", _JA_PER_PERIOD_RE.sub(lambda m: m.group(1) or m.group(2), text))
        endings = dict(_JA_ENDINGS)
        text = _JA_MASU_RE.sub(_plain_verb, _JA_ENDING_RE.sub(lambda m: endings[m.group(1)], text))
        text = without_topic_after_ni(continuative_clauses(text))  # session 9: 開館し、… = 開館する，…
    if _HANGUL.search(text):
        text = _KO_MAN_RE.sub(_ko_man, _KO_SINO_RE.sub(_ko_sino, text))
        text = _KO_N_GAE_RE.sub(r"\1 ", _KO_NATIVE_RE.sub(lambda m: f"{_KO_NATIVE[m.group(1)]} ", text))
        if "각각" not in text:  # "A, B, C는 각각 …" pairs its items in order
            text = _KO_LIST_RE.sub(_ko_list, text)
        text = _KO_DAYS_RE.sub(r"\1天", _KO_METRIC_RE.sub(lambda m: _KO_METRIC[m.group(1)], text))
        text = _KO_PERIOD_SPAN_RE.sub(r"\1", text.replace("天이 ", "天는 ").replace("天가 ", "天는 "))
        text = _KO_WEEKS_RE.sub(r"\1주", text)
        text = _KO_OR_VERBS_RE.sub(_or_verbs, _KO_OR_RE.sub("或", text.replace(" 또는 ", "或 ")))
        text = _KO_WITH_RE.sub("로", text)  # session 16b: 앱으로 = 앱로, one instrumental
        text = _KO_TIMES_RE.sub(lambda m: _KO_TIMES[m.group(1)] + "번", text)
        text = _KO_PER_PERIOD_RE.sub(r"\1 ", _KO_COUNT_RE.sub(r"\1번", text))
        text = _KO_CASE_RE.sub(_ko_case, text) if "경우" in text else text
        text = continuative_clauses(_ko_clauses(_POLITE_RE.sub(_plain_ending, text)))
        text = _PARTICLE_RE.sub(_particle, _KO_TIME_AT_RE.sub(r"\1", text))
        text = _KO_YEARS_RE.sub(r"\1年", text)  # after the particles: 3년이 = 3년가 = 3年가
    else:
        text = _HAN_DAYS_RE.sub(r"\1天", text)
    return text
