"""CJK mutation harness for the claim verifier (issue 12, session 7; tuning material).

Real Chinese, Japanese and Korean sentences — every line of the zh/ja/ko notes of
``bench/verify_set`` (splits tune..test8) and the descriptions of the tldr pages in
``bench/cjk/{zh,ja,ko}`` (written by people outside this project) — are rewritten
mechanically, each claim verified against its source sentence alone (one evidence span):

* meaning-preserving (``keep``): the sentence itself; coordinated items swapped around
  和/与/及/、/と/와/과; two independent Chinese clauses swapped around ，/；; exact unit
  conversions (天→小时, 小时→分钟, 年→个月, 万/亿→digits, 公里→米, 公斤→克, 日間→時間,
  時間→分, 일→시간, 시간→분, 개월→년, 만 원→digits, 킬로미터→미터); Arabic ↔ CJK
  numerals before a counter (2起 ↔ 两起, 2번 ↔ 두 번); dates (2026年3月1日 ↔ 2026-03-01,
  2026년 3월 1일 → 2026-03-01); Korean topic → subject particle (은/는 → 이/가) and the
  plain → polite ending (-다 → -ㅂ니다) where exact.
* meaning-changing (``change``), the safety side: a number changed; a unit changed
  without conversion; negation added or dropped (不/没/未, ない, 안/않/없); modality
  (必须/须/应 ↔ 可以/可, なければならない ↔ てもよい, 해야 ↔ 할 수 있다); frequency
  (每天/每周/每月/每年, 毎日/毎週/毎月/毎年, 매일/매주/매월/매년); roles swapped around
  由 / が..を / 가..를; quantifier bounds (至少 ↔ 最多, 以上 ↔ 以下, 이상 ↔ 이하).

Session 8 families, each with a preserving and a changing generator: era years (2027年 =
令和9年), clock hours with and without their half of the day (15時 = 午後3時, 9時半),
Chinese 时 clocks, clock ranges (09:00~18:00 = 09:00부터 18:00까지), percentages (30% =
三割 = 三成 = 百分之30 = 30퍼센트), Korean weeks and Hangul metric units, hour+minute
compounds, 万/만 with 千/천, full-width digits, dotted dates, Japanese や coordination and
polite verb forms, Korean "-하고" clauses with their own subjects, and CJK table rows read
as sentences (``table_cases``: a numeric cell as "<row>의 <column>은 <cell>이다."; changed:
another row's or column's cell, the copula negated or past).

Session 10 families (test10 notes added to the sources), each preserving and changing: an
evening clock range with its part of the day said once (晚上10点至11点; changed: the
morning part), "自…起" around the date something takes effect (changed: the day after),
"，并" added between verb phrases (changed: 并不) and two "，并" verb phrases swapped
(changed: a frequency or number too), 在…后 (changed: 在…前), Korean amounts in words and
in 만 (changed: another amount), native counts (두 학기 = 2개 학기), three-noun lists
reordered (changed: one item replaced), and coordinated items with their parentheses
(changed: the parentheses swapped only).

Printed: per language and mutation, n and the verdicts; headline: support rate on the
keep side, keep claims marked contradicted (goal 0), false supports on the change side
(goal 0).

    PYTHONPATH=src python -m bench.verify_mutations_cjk
    PYTHONPATH=src python -m bench.verify_mutations_cjk --errors          # list the misses
    PYTHONPATH=src python -m bench.verify_mutations_cjk --lang ko --kind unit
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

from cairn.answer import Claim, EvidenceSpan, verify_claims

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "bench" / "verify_set"
TLDR = ROOT / "bench" / "cjk"
SPLITS = ("tune", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11")

Mutation = Callable[[str, str], Iterator[str]]


# --- sources -----------------------------------------------------------------------------------


def _lang(text: str) -> str | None:
    if re.search("[가-힣]", text):
        return "ko"
    if re.search("[\u3041-\u30ff]", text):
        return "ja"
    if re.search("[\u4e00-\u9fff]", text):
        return "zh"
    return None


def _sentences(line: str) -> Iterator[str]:
    # Korean ends a sentence with "." before a space (and Chinese/Japanese with 。！？).
    for m in re.finditer(r"(?:[^。！？.]|\.(?! ))+[。！？.]?", line):
        s = m.group().strip()
        if len(s) >= 6:
            yield s if s[-1] in "。！？." else s + ("." if _lang(s) == "ko" else "。")


def sources() -> list[tuple[str, str, str]]:
    """(origin, lang, sentence) for every usable CJK sentence."""
    notes = sorted({
        c["note"] for c in map(json.loads, (SET / "cases.jsonl").read_text(encoding="utf-8").splitlines())
        if c["split"] in SPLITS and c["note"][:3] in ("zh-", "ja-", "ko-")
    })
    out: list[tuple[str, str, str]] = []
    for note in notes:
        for line in (SET / "notes" / note).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line[0] in "#|`":
                continue
            for s in _sentences(re.sub(r"^(?:[-*]|\d+[.)、])\s*", "", line)):
                if (lang := _lang(s)) is not None:
                    out.append((note, lang, s))
    for lang in ("zh", "ja", "ko"):
        for page in sorted((TLDR / lang).glob("*.md")):
            for line in page.read_text(encoding="utf-8").splitlines():
                if line.startswith(("> ", "- ")) and "http" not in line and "`" not in line:
                    text = line[2:].strip().rstrip("：:")
                    for s in _sentences(text):
                        if _lang(s) == lang:
                            out.append((f"tldr/{lang}/{page.name}", lang, s))
    return out


# --- meaning-preserving mutations --------------------------------------------------------------

_ZH_ITEM = r"[\u4e00-\u9fffA-Za-z0-9]{2,6}"
_ZH_LEFT = "，。；：、（(由在对因是为将把向含括给从于及与和或"
_ZH_RIGHT = "，。；：、）)的等均都须必应可不负造进实办执提参使由在中外"


def _coord_swap(lang: str, s: str) -> Iterator[str]:
    if re.search("分别|各自|それぞれ|각각|respectively", s):
        return
    if lang == "zh":
        # Items bounded on both sides: after punctuation or a preposition, before a
        # particle, a modal or punctuation.
        for m in re.finditer(f"(?<=[{_ZH_LEFT}])({_ZH_ITEM})(和|与|及|、|或)({_ZH_ITEM}?)(?=[{_ZH_RIGHT}])", s):
            a, conj, b = m.groups()
            if conj == "或" and "不" in s[: m.start()]:
                continue  # "不…A或B" is not "不…B或A" only in scope; keep the harness clean
            yield s[: m.start()] + b + conj + a + s[m.end() :]
    elif lang == "ja":
        for m in re.finditer(r"(?:(?<=[、。はがをにでの\s])|^)([\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9]{1,8})(と|、|および|及び)([\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9]{1,8})(?=[はがをもにの])", s):
            a, conj, b = m.groups()
            if re.match("一緒|共に|同様|同じ", b):
                continue  # "保護者と一緒に" is "with" (session 8)
            yield s[: m.start()] + b + conj + a + s[m.end() :]
    else:
        if re.search("주고받|교환|비교|연결|함께|같이|대화|다르|같은|같다|통신|사이", s):
            return  # "A와 B를 주고받다": 와/과 is "with" here, not "and"
        for m in re.finditer(r"(?<![가-힣])([가-힣A-Za-z0-9]{1,8})(와|과) ([가-힣A-Za-z0-9]{1,8}?)(에게|에는|에서|에|을|를|은|는|이|가|의|도|만)(?=[\s.])", s):
            a, _, b, particle = m.groups()
            if particle in ("이", "가") and len(b) < 2:
                continue
            conj = "과" if _batchim(b) else "와"
            yield s[: m.start()] + b + conj + " " + a + _allomorph(particle, a) + s[m.end() :]
        for m in re.finditer(r"(?<![가-힣])([가-힣]{1,8}) 및 ([가-힣]{1,8}?)(에게|에는|에서|에|을|를|은|는|의)(?=\s)", s):
            a, b, particle = m.groups()
            yield s[: m.start()] + b + " 및 " + a + _allomorph(particle, a) + s[m.end() :]


def _allomorph(particle: str, word: str) -> str:
    """The particle's form after ``word`` (을/를, 이/가, 은/는 by its last syllable)."""
    pairs = {"을": "를", "를": "를", "이": "가", "가": "가", "은": "는", "는": "는"}
    if particle not in pairs:
        return particle
    vowel_form = pairs[particle]
    consonant_form = {"를": "을", "가": "이", "는": "은"}[vowel_form]
    return consonant_form if _batchim(word) else vowel_form


def _batchim(word: str) -> bool:
    code = ord(word[-1]) - 0xAC00
    return 0 <= code < 11172 and code % 28 != 0


_ZH_CONNECTIVE = "但并且则就才而所以因此也还再然后同时即否其该此每均需须应不可它他她及和或如若"
_ZH_CONDITION_END = "的时后前中下外内则"


def _clause_swap(lang: str, s: str) -> Iterator[str]:
    if lang != "zh":
        return
    body, end = s[:-1], s[-1]
    parts = re.split("[，；]", body)
    if len(parts) != 2 or any(len(p) < 6 for p in parts):
        return
    a, b = parts
    if (a[-1] in _ZH_CONDITION_END or b[0] in _ZH_CONNECTIVE
            or re.match("如果|若|因|由于|当|除|凡|对于|为了|只有|即使|虽然|一旦", a)
            or re.search("[它其该此]", b) or (re.search("\\d", a + b) and "至" in a + b)):
        return
    yield b + "，" + a + end


_ZH_COUNTERS = "个次起名人条项份台张件位年种家所本"
_ZH_NUMS = dict(enumerate("零一两三四五六七八九十"))
_KO_NATIVE = {1: "한", 2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯", 7: "일곱", 8: "여덟", 9: "아홉", 10: "열"}
_KO_COUNTERS = "번|대|명|개|가지|곳|장|권|벌|살|잔|켤레"
_JA_COUNTERS = "回|人|個|台|件|枚|冊|本|つ"
_JA_NUMS = dict(enumerate("〇一二三四五六七八九十"))


def _numerals(lang: str, s: str) -> Iterator[str]:
    if lang == "zh":
        for m in re.finditer(f"(?<![\\d.,年月])([1-9]|10)([{_ZH_COUNTERS}])", s):
            if m.group(2) == "年":
                continue
            yield s[: m.start()] + _ZH_NUMS[int(m.group(1))] + m.group(2) + s[m.end() :]
        rev = {v: k for k, v in _ZH_NUMS.items()} | {"二": 2}
        for m in re.finditer(f"(?<![一二三四五六七八九十百千万两第])([一二两三四五六七八九十])([{_ZH_COUNTERS}])", s):
            if m.group(2) == "年" or (m.group(1) == "一" and m.group(2) in "个次种"):
                continue  # 一个/一次 also mean "a"
            yield s[: m.start()] + str(rev[m.group(1)]) + m.group(2) + s[m.end() :]
    elif lang == "ko":
        for m in re.finditer(f"(?<![\\d.,])([1-9]|10) ?({_KO_COUNTERS})(?![가-힣])", s):
            yield s[: m.start()] + _KO_NATIVE[int(m.group(1))] + " " + m.group(2) + s[m.end() :]
        rev = {v: k for k, v in _KO_NATIVE.items()}
        names = "|".join(sorted(rev, key=len, reverse=True))
        for m in re.finditer(f"(?<![가-힣])({names}) ({_KO_COUNTERS})(?![가-힣])", s):
            yield s[: m.start()] + str(rev[m.group(1)]) + m.group(2) + s[m.end() :]
    else:
        for m in re.finditer(f"(?<![\\d.,])([1-9]|10)({_JA_COUNTERS})", s):
            yield s[: m.start()] + _JA_NUMS[int(m.group(1))] + m.group(2) + s[m.end() :]


def _fmt(value: Fraction, commas: bool = False) -> str | None:
    if value.denominator != 1:
        return None
    return f"{value.numerator:,}" if commas else str(value.numerator)


#: (pattern for a number with its unit, target unit, factor) — exact conversions.
_NUM = r"(?<![\d.,])(\d+(?:\.\d+)?)"
_UNIT_RULES: dict[str, list[tuple[str, str, Fraction]]] = {
    "zh": [
        (_NUM + "天", "小时", Fraction(24)),
        (_NUM + "(?:个)?小时", "分钟", Fraction(60)),
        (_NUM + "年(?=[内以来期])", "个月", Fraction(12)),
        (_NUM + "个月", "年", Fraction(1, 12)),
        (_NUM + "分钟", "小时", Fraction(1, 60)),
        (_NUM + "万(?=元|人|次|个|台)", "", Fraction(10000)),
        (_NUM + "亿(?=元|人|次|个|台)", "", Fraction(10**8)),
        (_NUM + "(?:公里|千米)", "米", Fraction(1000)),
        (_NUM + "(?:公斤|千克)", "克", Fraction(1000)),
        (_NUM + "升", "毫升", Fraction(1000)),
    ],
    "ja": [
        (_NUM + "日間", "時間", Fraction(24)),
        (_NUM + "日(?=以内|前|後|以上)", "時間", Fraction(24)),
        (_NUM + "時間", "分", Fraction(60)),
        (_NUM + "分(?![の間])", "時間", Fraction(1, 60)),
        (_NUM + "(?:か|ヶ|カ)月", "年", Fraction(1, 12)),
        (_NUM + "年(?=間|以内)", "か月", Fraction(12)),
        (_NUM + "万(?=円|人)", "", Fraction(10000)),
    ],
    "ko": [
        (_NUM + "일(?= ?(?:이내|동안|간|전|후|마다|이상|이하|미만|초과|안에|내에))", "시간", Fraction(24)),
        (_NUM + "시간", "분", Fraction(60)),
        (_NUM + "분(?![의기])", "시간", Fraction(1, 60)),
        (_NUM + "개월", "년", Fraction(1, 12)),
        (_NUM + "년(?= ?(?:간|동안|이내|마다)|이 지나|가 지나)", "개월", Fraction(12)),
        (_NUM + "만 ?(?=원)", "", Fraction(10000)),
        (_NUM + "킬로미터", "미터", Fraction(1000)),
        (_NUM + "km", "m", Fraction(1000)),
    ],
}


def _units(lang: str, s: str) -> Iterator[str]:
    for pattern, target, factor in _UNIT_RULES[lang]:
        for m in re.finditer(pattern, s):
            if re.match(r"\s?\d", s[m.end() :]):
                continue  # a compound ("3小时20分钟"): converting one part is not the whole
            value = Fraction(m.group(1)) * factor
            text = _fmt(value, commas=target == "" and value >= 10000)
            if text is not None and value > 0:
                yield s[: m.start()] + text + target + s[m.end() :]


def _dates(lang: str, s: str) -> Iterator[str]:
    for m in re.finditer(r"(\d{4}) ?[年년] ?(\d{1,2}) ?[月월] ?(\d{1,2}) ?[日일]", s):
        y, mo, d = m.groups()
        yield s[: m.start()] + f"{y}-{int(mo):02d}-{int(d):02d}" + s[m.end() :]
    for m in re.finditer(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", s):
        y, mo, d = m.groups()
        native = f"{y}년 {int(mo)}월 {int(d)}일" if lang == "ko" else f"{y}年{int(mo)}月{int(d)}日"
        yield s[: m.start()] + native + s[m.end() :]


_KO_POLITE = (("않는다.", "않습니다."), ("한다.", "합니다."), ("이다.", "입니다."), ("있다.", "있습니다."),
              ("없다.", "없습니다."), ("된다.", "됩니다."), ("는다.", "습니다."), ("않다.", "않습니다."),
              ("했다.", "했습니다."), ("였다.", "였습니다."), ("준다.", "줍니다."), ("낸다.", "냅니다."),
              ("쓴다.", "씁니다."), ("보인다.", "보입니다."), ("만든다.", "만듭니다."))


def _ko_endings(lang: str, s: str) -> Iterator[str]:
    if lang != "ko":
        return
    for plain, polite in _KO_POLITE:
        if s.endswith(plain):
            yield s[: -len(plain)] + polite
            break
    m = re.match(r"([가-힣]{2,})(은|는) ", s)
    if m and not re.search("(에|에서|으로|로|까지|부터|에게)$", m.group(1)):
        yield m.group(1) + ("이" if m.group(2) == "은" else "가") + s[m.end() - 1 :]


_JA_POLITE = (("できない。", "できません。"), ("しない。", "しません。"), ("ではない。", "ではありません。"),
              ("した。", "しました。"), ("できる。", "できます。"), ("する。", "します。"), ("である。", "です。"))


def _ja_endings(lang: str, s: str) -> Iterator[str]:
    """Plain ↔ polite sentence-final forms where exact (する ↔ します, である ↔ です, ...)."""
    if lang != "ja":
        return
    for plain, polite in _JA_POLITE:
        if s.endswith(polite):
            yield s[: -len(polite)] + plain
            return
    for plain, polite in _JA_POLITE:
        if s.endswith(plain):
            yield s[: -len(plain)] + polite
            return


def _halves(lang: str, s: str) -> Iterator[str]:
    """Minutes as hours and a half (90分钟 = 1个半小时 = 1時間半 = 1시간 반), 30分钟 = 半小时,
    6个月 = 半年, and back."""
    minute = {"zh": "分钟", "ja": "分", "ko": "분"}[lang]
    for m in re.finditer(_NUM + minute, s):
        n = Fraction(m.group(1))
        if n.denominator == 1 and n % 60 == 30 and not re.match(r"\s?\d", s[m.end() :]):
            h = int(n // 60)
            if h == 0:
                half = {"zh": "半小时", "ja": "30分", "ko": "30분"}[lang]
            else:
                half = {"zh": f"{h}个半小时", "ja": f"{h}時間半", "ko": f"{h}시간 반"}[lang]
            if half != m.group():
                yield s[: m.start()] + half + s[m.end() :]
    if lang == "zh":
        for m in re.finditer(_NUM + "个月", s):
            if m.group(1) == "6":
                yield s[: m.start()] + "半年" + s[m.end() :]
        for m in re.finditer("(?<![上下前后多大小一二三四五六七八九十两个\\d])半(小时|年)", s):
            yield s[: m.start()] + ("30分钟" if m.group(1) == "小时" else "6个月") + s[m.end() :]


#: (pattern, replacement) spelling variants of one word, each way.
_VARIANT_RULES = {
    "zh": [("(?<![必无毋莫])须(?![知要])", "必须"), ("必须", "须"), ("(?<![相对供反答])应(?![当该用对急聘付收答])", "应当"),
           ("应当|应该", "应"), ("可以", "可"), ("每月", "每个月"), ("每个月", "每月"), ("每周", "每星期"),
           ("(?<!每)周([一二三四五六日])", "星期\\1"), ("星期([一二三四五六日天])", "周\\1"), ("每天", "每日")],
    "ja": [("または", "又は"), ("できる", "出来る"), ("ください", "下さい")],
    "ko": [("해야", "하여야"), ("하여야", "해야"), ("했다", "하였다"), ("돼야", "되어야"), ("매월", "매달")],
}


def _variants(lang: str, s: str) -> Iterator[str]:
    for pattern, repl in _VARIANT_RULES[lang]:
        m = re.search(pattern, s)
        if m:
            yield s[: m.start()] + m.expand(repl) + s[m.end() :]


#: A 24-hour clock time said with its half of the day (session 7b): 16:00 = 오후 4시 =
#: 下午4点 = 午後4時; 09:30 = 오전 9시 30분.
_CLOCK_RE = re.compile(r"(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_HALF_DAY = {"ko": ("오전 ", "오후 ", "시", "분"), "zh": ("上午", "下午", "点", "分"), "ja": ("午前", "午後", "時", "分")}


def _half_day(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    m = _CLOCK_RE.search(s)
    if not m or re.search(r"[-~–〜～至到]\s*$", s[: m.start()]) or re.match(r"\s*[-~–〜～至到]", s[m.end() :]):
        return  # one end of a range: its other end stays 24-hour
    hour, minute = int(m.group(1)), int(m.group(2))
    if hour in (0, 12):
        return
    am, pm, hr, mn = _HALF_DAY[lang]
    half = (hour >= 12) != wrong
    text = (pm if half else am) + str(hour % 12) + hr + (f" {minute}{mn}" if lang == "ko" and minute else f"{minute}{mn}" if minute else "")
    yield s[: m.start()] + text + s[m.end() :]


def _half_day_wrong(lang: str, s: str) -> Iterator[str]:
    return _half_day(lang, s, wrong=True)


# --- session 8: CJK near-verbatim by mechanism (issue 12) --------------------------------------
#
# Each family has a preserving generator (KEEP) and a changing one (CHANGE): era years, clock
# hours with and without their half of the day, percentages as 割/成/퍼센트/百分之, Korean
# weeks and metric units, Japanese "や" coordination, Korean table rows read as sentences.

_ERA_BASE = {"令和": 2018, "平成": 1988}
_YEAR_RE = re.compile(r"(?<!\d)(20[2-4]\d|19(?:89|9\d)|200\d|201\d)年")


def _era(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Western year as its Japanese era year (2027年 = 令和9年, 2019年 = 令和元年 or
    平成31年) and back; ``wrong``: off by one, or the other era's number."""
    if lang != "ja":
        return
    for m in _YEAR_RE.finditer(s):
        year = int(m.group(1))
        era = "令和" if year >= 2019 else "平成"
        n = year - _ERA_BASE[era] + (1 if wrong else 0)
        yield s[: m.start()] + era + ("元" if n == 1 else str(n)) + "年" + s[m.end() :]
        if wrong and era == "令和":
            yield s[: m.start()] + "平成" + str(year - 2018) + "年" + s[m.end() :]
        return
    for m in re.finditer(r"(令和|平成)(元|\d{1,2})年", s):
        n = 1 if m.group(2) == "元" else int(m.group(2))
        year = _ERA_BASE[m.group(1)] + n + (1 if wrong else 0)
        yield s[: m.start()] + f"{year}年" + s[m.end() :]
        return


def _era_wrong(lang: str, s: str) -> Iterator[str]:
    return _era(lang, s, wrong=True)


_HOUR_WORD = {"ja": "時", "ko": "시", "zh": "点"}
_AM_PM = {"ja": ("午前", "午後"), "ko": ("오전 ", "오후 "), "zh": ("上午", "下午")}


def _clock_hours(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A 24-hour clock hour said with its half of the day and back: 15時 = 午後3時,
    7時 = 午前7時, 9時30分 = 9時半, 오후 3시 = 15시, 9시 30분 = 9시 반, 下午3点半 = 15:30;
    ``wrong``: the other half of the day, or the next hour."""
    word = _HOUR_WORD[lang]
    am, pm = _AM_PM[lang]
    if lang == "zh":
        rx = re.compile(r"(?<![\d.:上下午 ])(\d{1,2})点(半|\d{1,2}分)?")
    else:
        rx = re.compile(r"(?<![\d.:])(\d{1,2}) ?" + word + (r"(?!간|행|각|기|점)" if lang == "ko" else r"(?![間限点期刻])")
                        + r"( ?반(?![가-힣])|半| ?\d{1,2} ?[分분])?")
    parts = ("午前", "午後", "오전", "오후", "上午", "下午", "夜", "朝", "晩", "夕方", "밤", "아침", "저녁", "새벽", "晚上", "早上")
    if re.search(r"(?:夜|朝|晩|夕方|밤|아침|저녁|새벽|晚上|早上|凌晨|深夜) ?\d", s):
        return  # a part of the day says the half already
    for m in rx.finditer(s):
        if s[max(0, m.start() - 3) : m.start()].strip().endswith(parts):
            continue  # already said with its half of the day
        if lang == "zh" and not m.group(2):
            continue  # "3点" may be three points
        hour, rest = int(m.group(1)), m.group(2) or ""
        if not 1 <= hour <= 23 or hour == 12:
            continue
        half = hour >= 12
        said = hour % 12
        if wrong:
            yield s[: m.start()] + (am if half else pm) + str(said) + word + rest + s[m.end() :]
            yield s[: m.start()] + str(hour + 1 if hour < 23 else hour - 1) + word + rest + s[m.end() :]
        else:
            yield s[: m.start()] + (pm if half else am) + str(said) + word + rest + s[m.end() :]
            if rest.strip() in ("半", "반"):
                yield s[: m.start()] + m.group(1) + word + (" 30분" if lang == "ko" else "30分") + s[m.end() :]
            elif re.fullmatch(r" ?30 ?[分분]", rest):
                yield s[: m.start()] + m.group(1) + word + (" 반" if lang == "ko" else "半") + s[m.end() :]
        return
    rx_said = re.compile("(" + am.strip() + "|" + pm.strip() + r") ?(\d{1,2}) ?" + word + ("(?!간)" if lang == "ko" else "(?!間)"))
    for m in rx_said.finditer(s):
        hour = int(m.group(2))
        if not 1 <= hour <= 11 or re.match(r"\s*(?:至|到|~|～|-|〜|から)", s[m.end() :]):
            continue  # a range's end keeps the half of its start
        is_pm = m.group(1) == pm.strip()
        if wrong:
            yield s[: m.start()] + (am if is_pm else pm) + str(hour) + word + s[m.end() :]
        elif lang != "zh":  # a bare Chinese "10点" may be ten points: no 24-hour reading
            yield s[: m.start()] + str(hour + 12 if is_pm else hour) + word + s[m.end() :]
        return


def _clock_hours_wrong(lang: str, s: str) -> Iterator[str]:
    return _clock_hours(lang, s, wrong=True)


_JA_TENTHS = dict(enumerate("〇一二三四五六七八九十"))


def _percent(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A percentage in tenths or words: 30% = 三割 = 3割 (ja), 三成 / 百分之三十 (zh),
    30퍼센트 (ko), and back; ``wrong``: 3割 for 3%, 三割 for 40%, 30퍼센트 for 3%."""
    for m in re.finditer(r"(?<![\d.,])(\d{1,3})%", s):
        n = int(m.group(1))
        head, tail = s[: m.start()], s[m.end() :]
        if lang == "ko":
            yield head + (f"{n + 10}퍼센트" if wrong else f"{n}퍼센트") + tail
        elif lang == "zh":
            if n % 10 == 0 and 10 <= n <= 90:
                yield head + _ZH_NUMS[n // 10 + (1 if wrong else 0)] + "成" + tail
            if not wrong:
                yield head + "百分之" + str(n) + tail
        elif n % 10 == 0 and 10 <= n <= 90:
            yield head + _JA_TENTHS[n // 10 + (1 if wrong else 0)] + "割" + tail
            yield head + str(n // 10 + (1 if wrong else 0)) + "割" + tail
        elif wrong and n < 10:
            yield head + f"{n}割" + tail
        return
    if lang == "ja":
        for m in re.finditer(r"(?<![\d.,])(\d)割(?![合])", s):
            n = int(m.group(1)) * 10
            yield s[: m.start()] + (f"{n // 10}%" if wrong else f"{n}%") + s[m.end() :]
            return


def _percent_wrong(lang: str, s: str) -> Iterator[str]:
    return _percent(lang, s, wrong=True)


_KO_METRIC = {"km": "킬로미터", "m": "미터", "kg": "킬로그램", "g": "그램", "L": "리터", "ml": "밀리리터"}
_KO_DURATION_AFTER = r"(?= ?(?:이내|동안|간|전|후|뒤|마다|이상|이하|미만|초과|안에|내에)|(?:이|가) 지나)"


def _ko_weeks_units(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Korean days as weeks (7일 이내 = 1주 이내, 14일이 지나면 = 2주가 지나면) and metric
    units in Hangul (10km = 10킬로미터, 2 kg = 2킬로그램); ``wrong``: 7일 as 7주, a unit in
    Hangul for another ("10km" → "10미터")."""
    if lang != "ko":
        return
    for m in re.finditer(r"(?<![\d.,])(\d+)일" + _KO_DURATION_AFTER, s):
        n = int(m.group(1))
        if wrong:
            yield s[: m.start()] + f"{n}주" + s[m.end() :]
        elif n % 7 == 0:
            tail = s[m.end() :]
            if tail.startswith("이 "):
                tail = "가" + tail[1:]  # 14일이 → 2주가
            yield s[: m.start()] + f"{n // 7}주" + tail
        return
    for m in re.finditer(r"(?<![\d.,])(\d+(?:\.\d+)?) ?(km|kg|ml|m|g|L)(?![A-Za-z])", s):
        unit = m.group(2)
        if wrong:
            other = {"km": "미터", "m": "킬로미터", "kg": "그램", "g": "킬로그램", "L": "밀리리터", "ml": "리터"}[unit]
            yield s[: m.start()] + m.group(1) + other + s[m.end() :]
        else:
            yield s[: m.start()] + m.group(1) + _KO_METRIC[unit] + s[m.end() :]
        return


def _ko_weeks_units_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_weeks_units(lang, s, wrong=True)


def _ja_ya_swap(lang: str, s: str) -> Iterator[str]:
    """Japanese nouns coordinated by "や" (or "と" after a topic/subject/object particle)
    swapped: "客室や廊下で" = "廊下や客室で", "規則は本館と別館の" = "規則は別館と本館の"."""
    if lang != "ja":
        return
    for m in re.finditer(r"(?<=[、。はがをにでの\s])([\u4e00-\u9fff\u30a0-\u30ff]{1,8})(や|と)"
                         r"([\u4e00-\u9fff\u30a0-\u30ff]{1,8})(?=[はがをもにでの])", s):
        a, conj, b = m.groups()
        if re.match("一緒|共に|同様|同じ", b) or "以外" in a + b:
            continue  # "保護者と一緒に" is "with", "AやB以外の" scopes B alone
        yield s[: m.start()] + b + conj + a + s[m.end() :]


_KO_ROW_HEAD_RE = re.compile(r"^\|(.+)\|\s*$")


def table_rows() -> list[tuple[str, str, str, list[str], list[str]]]:
    """(origin, lang, header line, header cells, row cells) for each CJK table row."""
    out: list[tuple[str, str, str, list[str], list[str]]] = []
    notes = sorted({o for o, _, _ in sources() if not o.startswith("tldr/")})
    for note in notes:
        lines = (SET / "notes" / note).read_text(encoding="utf-8").splitlines()
        for i in range(len(lines) - 2):
            if not (_KO_ROW_HEAD_RE.match(lines[i]) and re.match(r"^\|[-:| ]+\|\s*$", lines[i + 1])):
                continue
            head = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            for row in lines[i + 2 :]:
                if not _KO_ROW_HEAD_RE.match(row):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                lang = _lang(row)
                if len(cells) == len(head) and lang is not None:
                    out.append((note, lang, lines[i] + "\n" + lines[i + 1] + "\n" + row, head, cells))
    return out


def _row_sentence(lang: str, label: str, head: str | None, value: str) -> str | None:
    """The row read as a sentence; ``head`` None for a two-column key/value table, whose
    value column ("参数", "값") is no attribute of the key."""
    if head is None:
        return {"ko": f"{label}{'은' if _batchim(label) else '는'} {value}이다.", "ja": f"{label}は{value}です。",
                "zh": f"{label}为{value}。"}[lang]
    if lang == "ko":
        topic = "은" if _batchim(head) else "는"
        return f"{label}의 {head}{topic} {value}이다."
    if lang == "ja":
        return f"{label}の{head}は{value}です。"
    return f"{label}的{head}为{value}。"


def table_cases() -> list[dict[str, str]]:
    """Table rows read as sentences: each numeric cell as "<row>의 <column>은 <cell>이다."
    (ja "<row>の<column>は<cell>です。", zh "<row>的<column>为<cell>。"), kept; the same
    sentence with the cell of another row in that column, or of another column, changed."""
    out: list[dict[str, str]] = []
    rows = table_rows()
    for origin, lang, evidence, head, cells in rows:
        label = cells[0]
        for k in range(1, len(cells)):
            if lang == "ko" and head[k] in ("위치", "장소"):
                # "<row>는 <place>에 있다" reads the place cell; another row's place is wrong.
                topic = "은" if _batchim(label) else "는"
                out.append({"origin": origin, "lang": lang, "side": "keep", "kind": "table-row",
                            "evidence": evidence, "claim": f"{label}{topic} {cells[k]}에 있다."})
                for o, _, _, h, c in rows:
                    if o == origin and h == head and c[k] != cells[k]:
                        out.append({"origin": origin, "lang": lang, "side": "change", "kind": "table-row-wrong",
                                    "evidence": evidence, "claim": f"{label}{topic} {c[k]}에 있다."})
                        break
        for k in range(1, len(cells)):
            value = cells[k]
            if not re.fullmatch(r"[\d,.]+ ?[^\s\d|()（）、，~～-]{1,4}", value):
                continue  # one quantity per cell: "2시간", "10,000원", "50kW"
            keep = _row_sentence(lang, label, head[k] if len(head) > 2 else None, value)
            if keep:
                out.append({"origin": origin, "lang": lang, "side": "keep", "kind": "table-row",
                            "evidence": evidence, "claim": keep})
                # the copula negated or put in the past: no longer what the row says
                for a, b in {"ko": [("이다.", "이 아니다."), ("이다.", "이었다.")],
                             "ja": [("です。", "ではありません。"), ("です。", "でした。")],
                             "zh": [("为", "不为")]}[lang]:
                    if a in keep:
                        out.append({"origin": origin, "lang": lang, "side": "change", "kind": "table-row-wrong",
                                    "evidence": evidence, "claim": keep.replace(a, b, 1)})
            others = [c for o, _, ev, h, c in rows if o == origin and h == head and c[0] != label and c[k] != value]
            others += [[*cells[:k], cells[j], *cells[k + 1 :]] for j in range(1, len(cells))
                       if j != k and cells[j] != value]
            for other in others[:2]:
                changed = _row_sentence(lang, label, head[k] if len(head) > 2 else None, other[k])
                if changed:
                    out.append({"origin": origin, "lang": lang, "side": "change", "kind": "table-row-wrong",
                                "evidence": evidence, "claim": changed})
    return out + _two_clause_row_cases(rows) + _elided_head_cases(rows)


def _elided_sentence(lang: str, label: str, p1: str, suffix: str, v1: str, p2: str, v2: str) -> str:
    """Two cells of a row, the second clause naming its column by the part that sets it
    apart ("员工午餐价格为12元，访客为25元")."""
    if lang == "ko":
        return f"{label}의 {p1}{suffix}{'은' if _batchim(suffix) else '는'} {v1}이고, {p2}{'은' if _batchim(p2) else '는'} {v2}이다."
    if lang == "ja":
        return f"{label}の{p1}{suffix}は{v1}で、{p2}は{v2}です。"
    return f"{p1}{label}{suffix}为{v1}，{p2}为{v2}。"


def _elided_head_cases(rows: list[tuple[str, str, str, list[str], list[str]]]) -> list[dict[str, str]]:
    """Session 10: two numeric cells whose headers share an ending (员工价格, 访客价格) read
    as two clauses, the second naming only the part that differs, kept; changed: the two
    values swapped, or the second from another row."""
    out: list[dict[str, str]] = []
    numeric = r"[\d,.]+ ?[^\s\d|()（）、，~～-]{1,4}"
    for origin, lang, evidence, head, cells in rows:
        for k1 in range(1, len(cells)):
            for k2 in range(1, len(cells)):
                h1, h2, v1, v2 = head[k1], head[k2], cells[k1], cells[k2]
                if k1 == k2 or v1 == v2 or not (re.fullmatch(numeric, v1) and re.fullmatch(numeric, v2)):
                    continue
                n = 0
                while n < min(len(h1), len(h2)) - 1 and h1[-1 - n] == h2[-1 - n]:
                    n += 1
                if n < 2 or " " in h1[: len(h1) - n].strip() + h2[: len(h2) - n].strip():
                    continue
                suffix, p1, p2 = h1[len(h1) - n :].strip(), h1[: len(h1) - n].strip(), h2[: len(h2) - n].strip()
                if not (p1 and p2 and suffix):
                    continue
                case = {"origin": origin, "lang": lang, "evidence": evidence}
                out.append(case | {"side": "keep", "kind": "table-elided-head",
                                   "claim": _elided_sentence(lang, cells[0], p1, suffix, v1, p2, v2)})
                wrong = [_elided_sentence(lang, cells[0], p1, suffix, v2, p2, v1)]
                wrong += [_elided_sentence(lang, cells[0], p1, suffix, v1, p2, c[k2]) for o, _, _, h, c in rows
                          if o == origin and h == head and c[0] != cells[0] and c[k2] != v2][:1]
                out += [case | {"side": "change", "kind": "table-elided-head-wrong", "claim": w} for w in wrong]
    return out


def _two_clause_sentence(lang: str, label: str, first: str, head: str, value: str) -> str:
    """A row read as two clauses: the first names no column, the second names ``head``."""
    if lang == "ko":
        return f"{label}{'은' if _batchim(label) else '는'} {first}이고, {head}{'은' if _batchim(head) else '는'} {value}이다."
    if lang == "ja":
        return f"{label}は{first}で、{head}は{value}です。"
    return f"{label}为{first}，{head}为{value}。"


def _two_clause_row_cases(rows: list[tuple[str, str, str, list[str], list[str]]]) -> list[dict[str, str]]:
    """Session 9: a row of three or more columns read as two clauses ("りす組は1歳児で、定員は
    12名です"), kept; changed: the second clause's value from another column of the row or
    the same column of another row, the first clause's value from another row, or a
    number of a cell that says more read without its neighbours there ("6名" of
    "子ども6名に1名")."""
    out: list[dict[str, str]] = []
    for origin, lang, evidence, head, cells in rows:
        if len(cells) < 3:
            continue
        label = cells[0]
        for k in range(1, len(cells)):
            value = cells[k]
            if not re.fullmatch(r"[\d,.]+ ?[^\s\d|()（）、，~～-]{1,4}", value):
                continue
            for j in range(1, len(cells)):
                if j == k or len(cells[j]) > 12:
                    continue
                case = {"origin": origin, "lang": lang, "evidence": evidence}
                out.append(case | {"side": "keep", "kind": "table-two-clause",
                                   "claim": _two_clause_sentence(lang, label, cells[j], head[k], value)})
                wrong = [_two_clause_sentence(lang, label, cells[j], head[k], cells[m])
                         for m in range(1, len(cells)) if m != k and re.search(r"\d", cells[m]) and cells[m] != value]
                for o, _, _, h, c in rows:
                    if o == origin and h == head and c[0] != label:
                        if c[k] != value:
                            wrong.append(_two_clause_sentence(lang, label, cells[j], head[k], c[k]))
                        if c[j] != cells[j] and re.search(r"\d", c[j]):
                            wrong.append(_two_clause_sentence(lang, label, c[j], head[k], value))
                for m in range(1, len(cells)):
                    for n in re.finditer(r"\d+[^\d\s]", cells[m]):
                        if n.group() != cells[m] and m != k:
                            wrong.append(_two_clause_sentence(lang, label, n.group(), head[k], value))
                out += [case | {"side": "change", "kind": "table-two-clause-wrong", "claim": w} for w in wrong[:4]]
    return out


#: Two Korean clauses, each with its own subject, joined by "-하고" and sharing the final
#: predicate's tense: "A가 X하고 B가 Y하였다" = "B가 Y하고 A가 X하였다".
_KO_TWO_CLAUSES_RE = re.compile(
    r"^(?P<topic>(?:(?:이|그|본|각) )?(?:[가-힣A-Za-z0-9]+[은는] )?)(?P<s1>[^,.]*?[가-힣](?:이|가)) (?P<v1>[가-힣]{1,6})하고 "
    r"(?P<s2>[^,.]*?[가-힣](?:이|가)) (?P<v2>[가-힣]{1,6})(?P<end>하였다|했다|한다|합니다|하였습니다|했습니다)\.$"
)


def _ko_clauses(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """The two subject-verb clauses of a "-하고" sentence swapped (``wrong``: their verbs
    swapped, so each subject does the other's act)."""
    if lang != "ko":
        return
    m = _KO_TWO_CLAUSES_RE.match(s)
    if not m or m["v1"] == m["v2"]:
        return
    if wrong:
        yield f"{m['topic']}{m['s1']} {m['v2']}하고 {m['s2']} {m['v1']}{m['end']}."
    else:
        yield f"{m['topic']}{m['s2']} {m['v2']}하고 {m['s1']} {m['v1']}{m['end']}."


def _ko_clauses_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_clauses(lang, s, wrong=True)


_TO_FULL = {chr(c): chr(c + 0xFEE0) for c in range(0x30, 0x3A)} | {"%": "％"}


def _full_width(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Digits and % in their full-width forms (30% = ３０％); ``wrong``: one digit changed."""
    if lang == "ko" or not re.search(r"\d", s):
        return
    if wrong:
        m = re.search(r"\d", s)
        if m:
            yield s[: m.start()] + chr(0xFF10 + (int(m.group()) + 1) % 10) + s[m.end() :]
        return
    yield "".join(_TO_FULL.get(ch, ch) for ch in s)


def _full_width_wrong(lang: str, s: str) -> Iterator[str]:
    return _full_width(lang, s, wrong=True)


_MINUTE = {"ko": ("시간", "분", " "), "ja": ("時間", "分", ""), "zh": ("小时", "分钟", "")}


def _compound_duration(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Minutes over an hour as hours and minutes (90분 = 1시간 30분, 100分 = 1時間40分);
    ``wrong``: ten minutes fewer."""
    hour, minute, gap = _MINUTE[lang]
    for m in re.finditer(r"(?<![\d.,])(\d+)" + minute + ("(?![의기])" if lang == "ko" else "(?![の間])"), s):
        n = int(m.group(1))
        if n > 60 and n % 60 and not re.match(r"\s?\d", s[m.end() :]):
            mins = n % 60 - (10 if wrong else 0)
            if mins > 0:
                yield s[: m.start()] + f"{n // 60}{hour}{gap}{mins}{minute}" + s[m.end() :]
        return


def _compound_duration_wrong(lang: str, s: str) -> Iterator[str]:
    return _compound_duration(lang, s, wrong=True)


def _dotted_dates(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A date written with dots (2027. 3. 1. in Korean, 2027.03.01 in Chinese/Japanese);
    ``wrong``: the next day."""
    rx = r"(\d{4}) ?[年년] ?(\d{1,2}) ?[月월] ?(\d{1,2}) ?[日일号]|(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)"
    for m in re.finditer(rx, s):
        y, mo, d = (int(g) for g in (m.groups()[:3] if m.group(1) else m.groups()[3:]))
        d += 1 if wrong else 0
        if d > 28:
            return
        text = f"{y}. {mo}. {d}" if lang == "ko" else f"{y}.{mo:02d}.{d:02d}"
        if lang == "ko" and not s[m.end() :].startswith("."):
            text += "."
        yield s[: m.start()] + text + s[m.end() :]
        return


def _dotted_dates_wrong(lang: str, s: str) -> Iterator[str]:
    return _dotted_dates(lang, s, wrong=True)


# "ている" before "う": しています is している, not "してう" (session 9).
_JA_MASU = (("ている。", "ています。"), ("める。", "めます。"), ("れる。", "れます。"), ("ける。", "けます。"), ("える。", "えます。"),
            ("べる。", "べます。"), ("ある。", "あります。"), ("なる。", "なります。"), ("う。", "います。"),
            ("く。", "きます。"), ("む。", "みます。"), ("つ。", "ちます。"))


def _ja_masu(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Any verb's plain and polite sentence-final forms (定める = 定めます, ある = あります,
    使う = 使います, している = しています); ``wrong``: the polite form negated or past."""
    if lang != "ja":
        return
    for plain, polite in _JA_MASU:
        for a, b in ((plain, polite), (polite, plain)):
            if s.endswith(a) and not s.endswith(("する。", "します。", "できる。", "できます。")):
                if wrong:
                    stem = s[: -len(a)] + polite[:-3]
                    yield stem + "ません。"
                    yield stem + "ました。"
                else:
                    yield s[: -len(a)] + b
                return


def _ja_masu_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_masu(lang, s, wrong=True)


def _zh_clock(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Chinese 24-hour time with 时 (15:30 = 15时30分 = 下午3时30分); ``wrong``: 上午."""
    if lang != "zh":
        return
    m = _CLOCK_RE.search(s)
    if not m or re.search(r"[-~–〜～至到]\s*$", s[: m.start()]) or re.match(r"\s*[-~–〜～至到]", s[m.end() :]):
        return
    hour, minute = int(m.group(1)), int(m.group(2))
    mins = f"{minute}分" if minute else ""
    if wrong:
        if 13 <= hour <= 23:
            yield s[: m.start()] + f"上午{hour - 12}时{mins}" + s[m.end() :]
        return
    yield s[: m.start()] + f"{hour}时{mins}" + s[m.end() :]
    if 13 <= hour <= 23:
        yield s[: m.start()] + f"下午{hour - 12}时{mins}" + s[m.end() :]


def _zh_clock_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_clock(lang, s, wrong=True)


_RANGE_WORDS = {"ko": ("부터 ", "까지"), "ja": ("から", "まで"), "zh": ("至", "")}
_CLOCK_PAIR_RE = re.compile(r"(?<![\d:])(\d{1,2}:\d{2}) ?[~〜～\-–] ?(\d{1,2}:\d{2})(?![\d:])")


def _clock_range(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A clock range with its words (09:00~18:00 = 09:00부터 18:00까지 = 9:00から18:00まで
    = 9:00至18:00) and back; ``wrong``: the ends swapped, or the end moved an hour."""
    start, end = _RANGE_WORDS[lang]
    m = _CLOCK_PAIR_RE.search(s)
    if m:
        a, b = m.groups()
        if wrong:
            yield s[: m.start()] + f"{b}{start}{a}{end}" + s[m.end() :]
            h, mm = b.split(":")
            yield s[: m.start()] + f"{a}{start}{(int(h) + 1) % 24:02d}:{mm}{end}" + s[m.end() :]
        else:
            yield s[: m.start()] + f"{a}{start}{b}{end}" + s[m.end() :]
        return
    rx = re.compile(r"(\d{1,2}:\d{2}) ?" + re.escape(start.strip()) + r" ?(\d{1,2}:\d{2})" + re.escape(end))
    m = rx.search(s)
    if m:
        a, b = m.group(1), m.group(2)
        yield s[: m.start()] + (f"{b}~{a}" if wrong else f"{a}~{b}") + s[m.end() :]


def _clock_range_wrong(lang: str, s: str) -> Iterator[str]:
    return _clock_range(lang, s, wrong=True)


def _man_cheon(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A count in 万/만 and 千/천 (12,000円 = 1万2千円, 12,000원 = 1만 2천 원); ``wrong``:
    the thousands changed."""
    for m in re.finditer(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{4,7})(?=\s?(?:元|円|원))", s):
        v = int(m.group(1).replace(",", ""))
        man, cheon = v // 10000, (v // 1000) % 10
        if v % 1000 or man == 0 or cheon == 0:
            continue
        cheon += 1 if wrong and cheon < 9 else -1 if wrong else 0
        text = f"{man}만 {cheon}천 " if lang == "ko" else f"{man}万{cheon}千"
        yield s[: m.start()] + text + s[m.end() :].lstrip()
        return


def _man_cheon_wrong(lang: str, s: str) -> Iterator[str]:
    return _man_cheon(lang, s, wrong=True)


def _half_day_digital(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A 24-hour time as a digital clock with its half of the day (17:30 = 下午5:30 =
    오후 5:30 = 午後5:30); ``wrong``: the other half."""
    m = _CLOCK_RE.search(s)
    if not m:
        return
    hour, minute = int(m.group(1)), m.group(2)
    if hour in (0, 12):
        return
    am, pm = _AM_PM[lang]
    half = (hour >= 12) != wrong
    yield s[: m.start()] + (pm if half else am) + f"{hour % 12}:{minute}" + s[m.end() :]


def _half_day_digital_wrong(lang: str, s: str) -> Iterator[str]:
    return _half_day_digital(lang, s, wrong=True)


_SPAN = {"ko": ("일간", "시간", 24), "ja": ("年間", "か月", 12), "zh": ("", "", 0)}


def _period_span(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A counted period with its "for" (3일간 = 72시간, 2年間 = 24か月) read as the
    period; ``wrong``: one unit more."""
    suffix, unit, factor = _SPAN[lang]
    if not suffix:
        return
    for m in re.finditer(r"(?<![\d.,])(\d+)" + suffix, s):
        n = int(m.group(1)) * factor + (factor if wrong else 0)
        yield s[: m.start()] + f"{n}{unit}" + s[m.end() :]
        return


def _period_span_wrong(lang: str, s: str) -> Iterator[str]:
    return _period_span(lang, s, wrong=True)


# --- session 9 families ------------------------------------------------------------------------

#: Exact fractions of a percentage: (numerator, denominator) in words.
_FRACTIONS = {5: (1, 20), 10: (1, 10), 20: (1, 5), 25: (1, 4), 50: (1, 2), 75: (3, 4)}
_ZH_SMALL = dict(enumerate("零一二三四五六七八九十"))


def _zh_count(n: int) -> str:
    return _ZH_SMALL[n] if n <= 10 else ("二十" if n == 20 else str(n))


def _fractions(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A percentage said as a fraction in words (10% = 十分之一 = 10分の1); ``wrong``:
    the numerator one more."""
    if lang == "ko":
        return
    for m in re.finditer(r"(?<![\d.,])(\d+)%", s):
        frac = _FRACTIONS.get(int(m.group(1)))
        if frac is None:
            continue
        num, den = frac[0] + (1 if wrong else 0), frac[1]
        words = f"{_zh_count(den)}分之{_zh_count(num)}" if lang == "zh" else f"{den}分の{num}"
        yield s[: m.start()] + words + s[m.end() :]
        return


def _fractions_wrong(lang: str, s: str) -> Iterator[str]:
    return _fractions(lang, s, wrong=True)


def _hao_date(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Chinese date's 日 said as 号 (7月1日 = 7月1号); ``wrong``: the next day."""
    if lang != "zh":
        return
    for m in re.finditer(r"(\d{1,2})月(\d{1,2})日", s):
        day = int(m.group(2))
        if wrong and day >= 28:
            continue
        yield s[: m.start()] + f"{m.group(1)}月{day + (1 if wrong else 0)}号" + s[m.end() :]
        return


def _hao_date_wrong(lang: str, s: str) -> Iterator[str]:
    return _hao_date(lang, s, wrong=True)


_ZH_MODALS = "须应可必将"


def _semicolon_comma(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Two Chinese clauses of a "；" joined by "，" instead; ``wrong``: the second clause's
    modal negated (须 → 不须, 可 → 不可)."""
    if lang != "zh" or s.count("；") != 1:
        return
    a, b = s.split("；")
    if wrong:
        m = re.search(f"[{_ZH_MODALS}]", b)
        if m is None or b[max(m.start() - 1, 0)] in "不未无没":
            return
        b = b[: m.start()] + "不" + b[m.start() :]
    yield a + "，" + b


def _semicolon_comma_wrong(lang: str, s: str) -> Iterator[str]:
    return _semicolon_comma(lang, s, wrong=True)


#: "[modal] X并Y[punct]": two verb phrases after a modal or adverb, joined by 并.
_VP_AND_RE = re.compile(r"([将须应可会要均])([\u4e00-\u9fff]{2,10})并(?![不非没未无且列行存重入购发用称排])([\u4e00-\u9fff]{2,10})(?=[，。；])")


def _vp_and_swap(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Two Chinese verb phrases joined by 并 in the other order (追回款项并给予处分 =
    给予处分并追回款项); ``wrong``: and the first of them negated."""
    if lang != "zh":
        return
    for m in _VP_AND_RE.finditer(s):
        lead, x, y = m.groups()
        yield s[: m.start()] + lead + ("不" if wrong else "") + y + "并" + x + s[m.end() :]
        return


def _vp_and_swap_wrong(lang: str, s: str) -> Iterator[str]:
    return _vp_and_swap(lang, s, wrong=True)


#: A noun and a noun after it, between which an attributive 的 may stand.
_NOUN_NOUN_RE = re.compile(
    r"(公司|部门|员工|本办法|学校|车站|单位|企业|医院|工厂|项目|合同|全厂|本市|小区|设备|财务部)"
    r"(全体|所有|员工|经理|名称|地址|标准|规定|负责人|人员|费用|日期|职工|安全|车辆|资料)"
)


def _attributive(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """An attributive 的 between two nouns (公司全体 = 公司的全体); ``wrong``: the two
    nouns also swapped (全体的公司)."""
    if lang != "zh":
        return
    for m in _NOUN_NOUN_RE.finditer(s):
        a, b = m.groups()
        yield s[: m.start()] + ((b + "的" + a) if wrong else (a + "的" + b)) + s[m.end() :]
        return


def _attributive_wrong(lang: str, s: str) -> Iterator[str]:
    return _attributive(lang, s, wrong=True)



_EDITION_RE = re.compile(r"为第(\d+)版，")


def _edition(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """An edition named by a copula clause of its own read into what follows
    (本办法为第3版，自…起施行 = 本办法第3版自…起施行); ``wrong``: another edition."""
    if lang != "zh":
        return
    m = _EDITION_RE.search(s)
    if m:
        n = int(m.group(1)) + (1 if wrong else 0)
        yield s[: m.start()] + f"第{n}版" + s[m.end() :]
        if s[m.end() : m.end() + 1] not in tuple("自于从在由将已"):  # 的 only before a noun
            yield s[: m.start()] + f"第{n}版的" + s[m.end() :]


def _edition_wrong(lang: str, s: str) -> Iterator[str]:
    return _edition(lang, s, wrong=True)



_JA_CONT_RE = re.compile(r"^(?P<c1>[^、。]*[\u4e00-\u9fff])し、(?P<c2>[^。]*?)(?P<end>します|しました|する|した|です|でした|だ|ください|しなければなりません|できます)。$")
_KO_CONT_RE = re.compile(r"^(?P<c1>[^,.]*[가-힣])(?P<form>하며|이며), (?P<c2>[^.]*?)(?P<end>한다|했다|합니다|했습니다|된다|이다|해야 한다|할 수 있다|하지 않는다)\.$")
_PLAIN = ("します", "しました", "する", "した", "です", "でした", "だ", "한다", "했다", "합니다", "했습니다", "된다", "이다")
_PAST = ("しました", "した", "でした", "했다", "했습니다")


def _continuative(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A continuative first clause (開館し、…, 시행하며, …) said as a sentence with the
    final tense, and the two clauses swapped (Japanese with a subject in each);
    ``wrong``: the first clause in the other tense, or said as a plain statement where the
    final predicate is a request, a modal or a negation."""
    if lang == "ja":
        m = _JA_CONT_RE.match(s)
        if not m:
            return
        c1, c2, end = m["c1"], m["c2"], m["end"]
        plain = end in _PLAIN
        past = end in _PAST
        if wrong:
            yield c1 + ("します。" if past or not plain else "しました。")
            if end in ("します", "する") and not re.search("[はが]", c2) and re.search("[\u4e00-\u9fff]$", c2):
                yield c2 + "し、" + c1 + end + "。"  # two acts of one subject in the other order
            return
        if not plain:
            return
        yield c1 + ("しました。" if past else "します。")
        if end in ("します", "しました") and re.search("[はが]", c1) and re.search("[はが]", c2) and c2.endswith(tuple("\u4e00-\u9fff")) is False:
            pass
        if end in ("します", "しました") and re.search("[はが]", c1) and re.search("[はが]", c2):
            yield c2 + "し、" + c1 + end + "。"
    elif lang == "ko":
        m = _KO_CONT_RE.match(s)
        if not m:
            return
        c1, form, c2, end = m["c1"], m["form"], m["c2"], m["end"]
        plain = end in _PLAIN
        past = end in _PAST
        verb = {"하며": ("한다.", "했다."), "이며": ("이다.", "이었다.")}[form]
        if wrong:
            yield c1 + (verb[0] if past or not plain else verb[1])
            return
        if not plain:
            return
        yield c1 + verb[1 if past else 0]
        if form == "하며" and end in ("한다", "했다"):
            yield c2 + "하며, " + c1 + end + "."


def _continuative_wrong(lang: str, s: str) -> Iterator[str]:
    return _continuative(lang, s, wrong=True)



_SPAN_RANGE = {
    "ja": (re.compile(r"(?<!\d)(\d{1,2})時から(\d{1,2})時まで"), "の{n}時間"),
    "zh": (re.compile(r"(?<!\d)(\d{1,2})点至(\d{1,2})点"), "，共{n}小时"),
    "ko": (re.compile(r"(?<!\d)(\d{1,2})시부터 (\d{1,2})시까지"), " {n}시간"),
}


def _range_span(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A clock range followed by its own length (18時から19時までの1時間); ``wrong``: a
    length one hour more."""
    rx, tail = _SPAN_RANGE[lang]
    m = rx.search(s)
    if not m:
        return
    n = (int(m.group(2)) - int(m.group(1))) % 24 + (1 if wrong else 0)
    yield s[: m.end()] + tail.format(n=n) + s[m.end() :]


def _range_span_wrong(lang: str, s: str) -> Iterator[str]:
    return _range_span(lang, s, wrong=True)



_PER_PERIOD = {
    "ja": (re.compile(r"(?<!毎)(?<![月年週日])(月|年|週)(\d+)(回)"), "毎{p}{n}{c}", {"月": "年", "年": "月", "週": "月"}),
    "ko": (re.compile(r"(?<![가-힣])(월|연|주) ?(\d+)(회|번)"), "매{p} {n}{c}", {"월": "주", "연": "월", "주": "월"}),
}


def _per_period(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A count per period said with "every" (月1回 = 毎月1回, 월 1회 = 매월 1회) and back;
    ``wrong``: another period (毎年1回)."""
    if lang == "zh":
        return
    rx, form, other = _PER_PERIOD[lang]
    for m in rx.finditer(s):
        p = other[m.group(1)] if wrong else m.group(1)
        p = "년" if p == "연" else p
        yield s[: m.start()] + form.format(p=p, n=m.group(2), c=m.group(3)) + s[m.end() :]
        return
    back = re.search(r"毎(月|年|週)(\d+)回" if lang == "ja" else r"매(월|년|주) ?(\d+)(?:회|번)", s)
    if back:
        p = {"月": "年", "年": "月", "週": "月", "월": "주", "년": "월", "주": "월"}[back.group(1)] if wrong else back.group(1)
        yield s[: back.start()] + (f"{p}に{back.group(2)}回" if lang == "ja" else f"{p} {back.group(2)}회") + s[back.end() :]


def _per_period_wrong(lang: str, s: str) -> Iterator[str]:
    return _per_period(lang, s, wrong=True)


_JA_DEKIRU_RE = re.compile(r"([\u4e00-\u9fff\u30a0-\u30ff])(でき(?:ます|る|ません|ない))")


def _suru_koto(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Sino-Japanese verb's potential said as "することができる" (利用できます =
    利用することができます); ``wrong``: the potential dropped (利用します)."""
    if lang != "ja":
        return
    m = _JA_DEKIRU_RE.search(s)
    if m:
        tail = m.group(2)
        if wrong:
            plain = {"できます": "します", "できる": "する", "できません": "しません", "できない": "しない"}[tail]
            yield s[: m.start(2)] + plain + s[m.end() :]
        else:
            yield s[: m.start(2)] + "することが" + tail + s[m.end() :]


def _suru_koto_wrong(lang: str, s: str) -> Iterator[str]:
    return _suru_koto(lang, s, wrong=True)


_ZH_PER_RE = re.compile(r"每(天|晚|月|年|人|次)(\d[\d,]*)元")


def _zh_per_slash(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Chinese amount per period with a slash (每天100元 = 100元/天); ``wrong``: another
    period (100元/月)."""
    if lang != "zh":
        return
    m = _ZH_PER_RE.search(s)
    if m:
        p = {"天": "月", "晚": "天", "月": "年", "年": "月", "人": "天", "次": "天"}[m.group(1)] if wrong else m.group(1)
        yield s[: m.start()] + f"{m.group(2)}元/{p}" + s[m.end() :]


def _zh_per_slash_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_per_slash(lang, s, wrong=True)


# --- session 10 families (each with a preserving and a changing generator) --------------------

_PM_RANGE_RE = re.compile(r"(?<![\d:])(1[3-9]|2[0-3]):00 ?[~〜～\-–] ?(1[4-9]|2[0-3]):00(?![\d:])")
_PART_WORDS = {"zh": ("晚上", "点", "至", "", "早上"), "ja": ("夜", "時", "から", "まで", "朝"),
               "ko": ("저녁 ", "시", "부터 ", "까지", "아침 ")}
_HALF_WORDS = {"zh": ("下午", "上午"), "ja": ("午後", "午前"), "ko": ("오후 ", "오전 ")}


def _part_range(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """An afternoon or evening clock range said with its half or part of the day once
    (15:00–17:00 = 下午3点至5点 = 午後3時から5時まで = 오후 3시부터 5시까지; 22:00–23:00 =
    晚上10点至11点); ``wrong``: the morning half or part."""
    m = _PM_RANGE_RE.search(s)
    if m and int(m.group(2)) > int(m.group(1)):
        part, hour, to, until, morning = _PART_WORDS[lang]
        pm, am = _HALF_WORDS[lang]
        h1, h2 = int(m.group(1)) - 12, int(m.group(2)) - 12
        words = [(am, pm)] + ([(morning, part)] if h1 >= 5 else [])
        for wrong_word, right_word in words:
            said = f"{wrong_word if wrong else right_word}{h1}{hour}{to}{h2}{hour}{until}"
            yield s[: m.start()] + said + s[m.end() :]


def _part_range_wrong(lang: str, s: str) -> Iterator[str]:
    return _part_range(lang, s, wrong=True)


_ZH_DATE_RE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
_TAKES_EFFECT_RE = re.compile(r"(自)?(\d{4})年(\d{1,2})月(\d{1,2})日(起)?(?=施行|生效|实施)")


def _from_date(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """The date something takes effect with or without "自…起" (自2027年1月1日起施行 =
    自2027-01-01施行 = 2027-01-01起施行); ``wrong``: the day after."""
    if lang != "zh":
        return
    m = _TAKES_EFFECT_RE.search(s)
    if m:
        y, mo, d = int(m.group(2)), int(m.group(3)), int(m.group(4)) + (1 if wrong else 0)
        iso = f"{y}-{mo:02d}-{d:02d}"
        for form in ((f"自{iso}" if m.group(1) is None else iso) + ("" if m.group(5) else "起"),
                     f"自{iso}" if m.group(5) else f"{iso}起"):
            yield s[: m.start()] + form + s[m.end() :]


def _from_date_wrong(lang: str, s: str) -> Iterator[str]:
    return _from_date(lang, s, wrong=True)


_COMMA_AND_RE = re.compile(r"^(?P<subj>[^，。；]*?(?:必须|须|应|可以|可))(?P<a>[^，。；并]{2,14})，并(?![不非没未无且])(?P<b>[^，。；]{2,14})。$")


def _comma_and_swap(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Two verb phrases of one subject and modal around "，并" in the other order
    (必须持有健康证，并每年体检一次 = 必须每年体检一次，并持有健康证); ``wrong``: with a
    number or frequency changed too."""
    if lang != "zh":
        return
    m = _COMMA_AND_RE.match(s)
    if m:
        out = f"{m.group('subj')}{m.group('b')}，并{m.group('a')}。"
        if wrong:
            changed = re.sub(r"每年|每月|每周|每天", lambda w: {"每年": "每月", "每月": "每周", "每周": "每天", "每天": "每周"}[w.group()], out, count=1)
            if changed == out:
                changed = re.sub(r"(?<![\d.,])\d+", lambda n: str(int(n.group()) + 1), out, count=1)
            out = changed
        if out != s and (not wrong or out != f"{m.group('subj')}{m.group('b')}，并{m.group('a')}。"):
            yield out


def _comma_and_swap_wrong(lang: str, s: str) -> Iterator[str]:
    return _comma_and_swap(lang, s, wrong=True)


_COMMA_VP_RE = re.compile(r"(?<=[\u4e00-\u9fff])，(?=(?:自|经|须|应|不得|每|可)[\u4e00-\u9fff\d])")


def _comma_and_added(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """"，并" where the sentence has "，" before a verb phrase (…批准，自… = …批准，并自…);
    ``wrong``: "，并不" (negated)."""
    if lang != "zh" or "并" in s:
        return
    m = _COMMA_VP_RE.search(s)
    if m:
        yield s[: m.end()] + ("并不" if wrong else "并") + s[m.end() :]


def _comma_and_added_wrong(lang: str, s: str) -> Iterator[str]:
    return _comma_and_added(lang, s, wrong=True)


_VP_AFTER_RE = re.compile(r"(?<=[\u4e00-\u9fff])(?<![在于])([\u4e00-\u9fff]{2})(后)(?=[\u4e00-\u9fff]{2})")


def _at_after(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """"在" around "…后" (餐具使用后 = 餐具在使用后); ``wrong``: 在…前."""
    if lang != "zh" or "在" in s:
        return
    m = _VP_AFTER_RE.search(s)
    if m:
        yield s[: m.start()] + "在" + m.group(1) + ("前" if wrong else "后") + s[m.end() :]


def _at_after_wrong(lang: str, s: str) -> Iterator[str]:
    return _at_after(lang, s, wrong=True)


_SINO_DIGITS = "일이삼사오육칠팔구"


def _sino_korean(n: int) -> str:
    out = ""
    for value, word in ((10000, "만"), (1000, "천"), (100, "백"), (10, "십")):
        q, n = divmod(n, value)
        if q:
            out += ("" if q == 1 else _sino_korean(q)) + word
    return out + (_SINO_DIGITS[n - 1] if n else "")


def _ko_number_words(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Korean amount in Sino-Korean words (4,500원 = 사천오백 원); ``wrong``: 100 more."""
    if lang != "ko":
        return
    m = re.search(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{3,})원", s)
    if m:
        n = int(m.group(1).replace(",", "")) + (100 if wrong else 0)
        if n < 100000000:
            yield s[: m.start()] + _sino_korean(n) + " 원" + s[m.end() :]


def _ko_number_words_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_number_words(lang, s, wrong=True)


def _ko_man(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Korean amount in 만 (1,480,000원 = 148만 원); ``wrong``: one 만 more."""
    if lang != "ko":
        return
    m = re.search(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d{5,})원", s)
    if m:
        n = int(m.group(1).replace(",", ""))
        if n % 10000 == 0:
            yield s[: m.start()] + f"{n // 10000 + (1 if wrong else 0)}만 원" + s[m.end() :]


def _ko_man_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_man(lang, s, wrong=True)


_KO_NATIVE_COUNT = {"한": 1, "두": 2, "세": 3, "네": 4}
_KO_COUNT_NOUN_RE = re.compile(r"(?<![가-힣])(한|두|세|네) (학기|과목|차례|가지)")


def _ko_native_count(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A native Korean count as "N개" (두 학기 = 2개 학기); ``wrong``: one more."""
    if lang != "ko":
        return
    m = _KO_COUNT_NOUN_RE.search(s)
    if m:
        yield s[: m.start()] + f"{_KO_NATIVE_COUNT[m.group(1)] + (1 if wrong else 0)}개 {m.group(2)}" + s[m.end() :]


def _ko_native_count_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_native_count(lang, s, wrong=True)


_KO_LIST3_RE = re.compile(r"(?<![가-힣])((?:[가-힣]{2,8}, ){2,}[가-힣]{2,8}?)(은|는|이|가|을|를)(?= )")


def _ko_list_order(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Korean list of three or more nouns in another order, the particle on the new last
    item (전기난로, 전기장판, 전기밥솥은 = 전기밥솥, 전기난로, 전기장판은); ``wrong``: one
    item replaced by another noun."""
    if lang != "ko":
        return
    m = _KO_LIST3_RE.search(s)
    if m and not any(i.endswith(tuple("며고면서나지어아해여")) for i in m.group(1).split(", ")):
        items = m.group(1).split(", ")
        items = items[-1:] + items[:-1]
        if wrong:
            items[0] = "전자레인지" if items[0] != "전자레인지" else "냉장고"
        last = items[-1]
        particle = m.group(2)
        if particle in "은는":
            particle = "은" if (ord(last[-1]) - 0xAC00) % 28 else "는"
        elif particle in "이가":
            particle = "이" if (ord(last[-1]) - 0xAC00) % 28 else "가"
        elif particle in "을를":
            particle = "을" if (ord(last[-1]) - 0xAC00) % 28 else "를"
        yield s[: m.start()] + ", ".join(items) + particle + s[m.end() :]


def _ko_list_order_wrong(lang: str, s: str) -> Iterator[str]:
    return _ko_list_order(lang, s, wrong=True)


_PAREN_ITEMS_RE = re.compile(r"(?<![가-힣])([가-힣]{1,8})\(([^()]{1,8})\)(과|와) ([가-힣]{1,8})\(([^()]{1,8})\)")


def _paren_items(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Two coordinated Korean items with their parentheses in the other order (남학생동(A동)과
    여학생동(B동) = 여학생동(B동)과 남학생동(A동)); ``wrong``: the parentheses swapped only."""
    if lang != "ko":
        return
    m = _PAREN_ITEMS_RE.search(s)
    if m:
        a, pa, conj, b, pb = m.groups()
        if pa == pb:
            return
        first, second = ((a, pb), (b, pa)) if wrong else ((b, pb), (a, pa))
        conj = "과" if (ord(first[1][-1]) - 0xAC00) % 28 and 0xAC00 <= ord(first[1][-1]) <= 0xD7A3 else "와"
        if not 0xAC00 <= ord(first[1][-1]) <= 0xD7A3:
            conj = m.group(3)
        yield s[: m.start()] + f"{first[0]}({first[1]}){conj} {second[0]}({second[1]})" + s[m.end() :]


def _paren_items_wrong(lang: str, s: str) -> Iterator[str]:
    return _paren_items(lang, s, wrong=True)


# --- session 11 families (test11 classes), each preserving and changing -------------------------

_JA_KANA_UNITS = {"cm": ("センチメートル", Fraction(1, 100)), "m": ("メートル", Fraction(1)),
                  "km": ("キロメートル", Fraction(1000)), "mm": ("ミリメートル", Fraction(1, 1000)),
                  "kg": ("キログラム", Fraction(1000)), "g": ("グラム", Fraction(1)),
                  "L": ("リットル", Fraction(1)), "mL": ("ミリリットル", Fraction(1, 1000))}
_JA_KANA_DIM = {"cm": "m", "m": "m", "km": "m", "mm": "m", "kg": "g", "g": "g", "L": "L", "mL": "L"}
_JA_UNIT_RE = re.compile(
    _NUM + r"\s?(" + "|".join(sorted((*_JA_KANA_UNITS, *(v for v, _ in _JA_KANA_UNITS.values())), key=len, reverse=True))
    + r")(?![A-Za-z])"
)
_JA_KANA_OF = {v: k for k, (v, _) in _JA_KANA_UNITS.items()}


def _ja_kana_unit(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A metric unit in katakana or Latin letters (50センチメートル = 50cm = 0.5メートル);
    changed: the number kept and the unit changed (50センチメートル → 50ミリメートル)."""
    if lang != "ja":
        return
    for m in _JA_UNIT_RE.finditer(s):
        unit = _JA_KANA_OF.get(m.group(2), m.group(2))
        value, factor = Fraction(m.group(1)), _JA_KANA_UNITS[unit][1]
        for other, (kana, f) in _JA_KANA_UNITS.items():
            if _JA_KANA_DIM[other] != _JA_KANA_DIM[unit]:
                continue
            if wrong:
                if f != factor:
                    yield s[: m.start()] + m.group(1) + kana + s[m.end() :]
                continue
            text = _fmt(value * factor / f)
            if text is not None and (other != unit or m.group(2) != unit):
                yield s[: m.start()] + text + (other if other == unit else kana) + s[m.end() :]


def _ja_kana_unit_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_kana_unit(lang, s, wrong=True)


_NATIVE_DATE_RE = re.compile(r"(?<!\d)(20\d\d)年(\d{1,2})月(\d{1,2})日")


def _slash_date(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A date with slashes (2027/3/31 = 2027年3月31日); changed: another day."""
    if lang == "ko":
        return
    for m in _NATIVE_DATE_RE.finditer(s):
        y, mo, d = (int(g) for g in m.groups())
        if wrong:
            d = d + 1 if d < 28 else d - 1
        yield s[: m.start()] + f"{y}/{mo}/{d}" + s[m.end() :]


def _slash_date_wrong(lang: str, s: str) -> Iterator[str]:
    return _slash_date(lang, s, wrong=True)


_HAN_NUMERAL = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十",
                12: "十二", 14: "十四", 15: "十五", 20: "二十", 24: "二十四", 30: "三十", 31: "三十一",
                60: "六十", 90: "九十"}
_WITHIN_RE = re.compile(r"(?<![\d.,月])(\d+)(日|天|个月|か月|年|小时|時間|周|週間)(以内|之内|内)")


def _within_words(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A count "within" a duration in numerals and with 以内/之内/内 (30日内 = 三十日以内);
    changed: another count, or 以内 → 以上."""
    if lang == "ko":
        return
    for m in _WITHIN_RE.finditer(s):
        n = int(m.group(1))
        if wrong:
            yield s[: m.start()] + f"{n + 1}{m.group(2)}{m.group(3)}" + s[m.end() :]
            yield s[: m.start()] + f"{m.group(1)}{m.group(2)}以上" + s[m.end() :]
            continue
        within = {"以内": "内", "之内": "以内", "内": "以内"}[m.group(3)] if lang == "zh" else m.group(3)
        if n in _HAN_NUMERAL:
            yield s[: m.start()] + f"{_HAN_NUMERAL[n]}{m.group(2)}{m.group(3)}" + s[m.end() :]
        if within != m.group(3):
            yield s[: m.start()] + f"{m.group(1)}{m.group(2)}{within}" + s[m.end() :]


def _within_words_wrong(lang: str, s: str) -> Iterator[str]:
    return _within_words(lang, s, wrong=True)


def _ja_request(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Japanese notice's request stated as its rule (出してください = 出します, 開けないで
    ください = 開けません); changed: the request as a permission (出せます) or negated."""
    if lang != "ja" or not s.endswith(("てください。", "ないでください。")):
        return
    if s.endswith("ないでください。"):
        stem = s[: -len("ないでください。")]
        yield stem + ("る。" if wrong else "ない。")  # 開けないでください → 開けない (changed: 開ける)
        return
    stem = s[: -len("てください。")]
    if stem.endswith(("っ", "ん", "い")) or not stem:
        return  # 使って / 読んで: the plain form is not the stem + ます
    if stem.endswith("し") and wrong:
        yield stem[:-1] + "せます。"  # 出してください → 出せます (may), not a request
    yield stem + ("ません。" if wrong else "ます。")


def _ja_request_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_request(lang, s, wrong=True)


_JA_GA_RE = re.compile(r"^(.{4,}?(?:します|しません|ます|ません|です))が、(.{4,}?(?:します|しません|ます|ません|です))。$")


def _ja_ga_swap(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """Two Japanese clauses joined by "…が、" swapped (AますがBません = BませんがAます);
    changed: swapped with the polarity of the predicates exchanged."""
    if lang != "ja" or (m := _JA_GA_RE.match(s)) is None:
        return
    a, b = m.group(1), m.group(2)
    if wrong:
        flip = {"ません": "ます", "ます": "ません"}
        ea = "ません" if a.endswith("ません") else "ます" if a.endswith("ます") else None
        eb = "ません" if b.endswith("ません") else "ます" if b.endswith("ます") else None
        if ea is None or eb is None or ea != eb:
            return
        a, b = a[: -len(ea)] + flip[ea], b[: -len(eb)] + flip[eb]
    yield f"{b}が、{a}。"


def _ja_ga_swap_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_ga_swap(lang, s, wrong=True)


_JA_KOTO_SRC_RE = re.compile(r"(?<=[\u4e00-\u9fff])([すくぐむぶつう])こと[がは]?でき(ます|ません|る|ない)")
_JA_POTENTIAL = dict(zip("すくぐむぶつう", "せけげめべてえ", strict=True))
_JA_I_ROW = dict(zip("すくぐむぶつう", "しきぎみびちい", strict=True))


def _ja_potential(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A godan verb's "…ことができる" as its potential form (出すことはできません = 出せません);
    changed: the plain (not the potential) verb, the polarity kept (出しません)."""
    if lang != "ja":
        return
    for m in _JA_KOTO_SRC_RE.finditer(s):
        end = {"ます": "ます", "ません": "ません", "る": "る", "ない": "ない"}[m.group(2)]
        if wrong:
            stem = _JA_I_ROW[m.group(1)]
            verb = stem + end if end in ("ます", "ません") else m.group(1) if end == "る" else None
            if verb is None:
                continue
        else:
            verb = _JA_POTENTIAL[m.group(1)] + end
        yield s[: m.start()] + verb + s[m.end() :]


def _ja_potential_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_potential(lang, s, wrong=True)


def _ja_niwa(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """The topic "は" after "に" added or dropped (夜に = 夜には); changed: "には" → "では"."""
    if lang != "ja":
        return
    i = s.find("には")
    if i >= 0:
        yield s[:i] + ("では" if wrong else "に") + s[i + 2 :]
    elif not wrong and (m := re.search(r"(?<=[\u4e00-\u9fff])に(?=[\u4e00-\u9fff])", s)):
        yield s[: m.start()] + "には" + s[m.end() :]


def _ja_niwa_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_niwa(lang, s, wrong=True)


def _zh_not_yet(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """"未" before a verb said "没有" (未缴纳 = 没有缴纳); changed: 未 → 已."""
    if lang != "zh":
        return
    for m in re.finditer(r"(?<![尚从])未(?=[\u4e00-\u9fff]{2})(?!来|满|成年|经|知)", s):
        yield s[: m.start()] + ("已" if wrong else "没有") + s[m.end() :]


def _zh_not_yet_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_not_yet(lang, s, wrong=True)


def _zh_anzhao(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """"按" said "按照" (按面积计算 = 按照面积计算); changed: "不按"."""
    if lang != "zh":
        return
    for m in re.finditer(r"(?<![\u4e00-\u9fff]按)按(?![照时期钮键下住])", s):
        yield s[: m.start()] + ("不按" if wrong else "按照") + s[m.end() :]


def _zh_anzhao_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_anzhao(lang, s, wrong=True)


_ZH_MANNER_RE = re.compile(r"^([\u4e00-\u9fff]{2,8})((?:按|根据|通过|由)[^，。；！？是]{1,20}?)([\u4e00-\u9fff]{2})。$")


def _zh_frame(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A sentence "S + manner phrase + V。" in the emphatic frame "S是…来V的。"; changed:
    the frame negated ("S不是…来V的。")."""
    if lang != "zh" or (m := _ZH_MANNER_RE.match(s)) is None:
        return
    yield f"{m.group(1)}{'不是' if wrong else '是'}{m.group(2)}{'' if wrong else '来'}{m.group(3)}的。"


def _zh_frame_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_frame(lang, s, wrong=True)


def _zh_light_verb(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """The light verb "进行" added before a two-character verb (提前登记 = 提前进行登记) or
    dropped; changed: "暂停" (suspend) in its place."""
    if lang != "zh":
        return
    m = re.search(r"进行(?=[\u4e00-\u9fff]{2})(?![了中着过一二两三四五六七八九十])", s)
    if m:
        yield s[: m.start()] + ("暂停" if wrong else "") + s[m.end() :]
        return
    m = re.search(r"(?<=[须应可将由前后时])(登记|审核|检查|维修|处理|备案|审批|清理|核实)", s)
    if m:
        yield s[: m.start()] + ("暂停" if wrong else "进行") + s[m.start() :]


def _zh_light_verb_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_light_verb(lang, s, wrong=True)


def _ja_te_stem(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """A Japanese first clause joined by the te-form instead of the stem form (分別し、 =
    分別して, 持ち帰り、 = 持ち帰って、); changed: the first act negated (分別せず、)."""
    if lang != "ja":
        return
    for m in re.finditer(r"(?<=[\u4e00-\u9fff])(し|り)、", s):
        if wrong:
            if m.group(1) == "し":
                yield s[: m.start()] + "せず、" + s[m.end() :]
            continue
        yield s[: m.start()] + ("して" if m.group(1) == "し" else "って、") + s[m.end() :]


def _ja_te_stem_wrong(lang: str, s: str) -> Iterator[str]:
    return _ja_te_stem(lang, s, wrong=True)


def _zh_will(lang: str, s: str, wrong: bool = False) -> Iterator[str]:
    """The future "将" before a verb said "会" (将书面催缴 = 会书面催缴); changed: "已"."""
    if lang != "zh":
        return
    for m in re.finditer(r"(?<=[\u4e00-\u9fff])将(?=[追出书另给予进停收处退提依于])", s):
        yield s[: m.start()] + ("已" if wrong else "会") + s[m.end() :]


def _zh_will_wrong(lang: str, s: str) -> Iterator[str]:
    return _zh_will(lang, s, wrong=True)



KEEP: dict[str, Mutation] = {
    "ja-kana-unit": _ja_kana_unit,
    "slash-date": _slash_date,
    "within-words": _within_words,
    "ja-request": _ja_request,
    "ja-ga-swap": _ja_ga_swap,
    "zh-will": _zh_will,
    "zh-light-verb": _zh_light_verb,
    "ja-te-stem": _ja_te_stem,
    "ja-potential": _ja_potential,
    "ja-niwa": _ja_niwa,
    "zh-not-yet": _zh_not_yet,
    "zh-anzhao": _zh_anzhao,
    "zh-frame": _zh_frame,
    "variant": _variants,
    "ja-ending": _ja_endings,
    "half": _halves,
    "verbatim": lambda lang, s: iter([s]),
    "coord-swap": _coord_swap,
    "clause-swap": _clause_swap,
    "unit": _units,
    "numeral": _numerals,
    "date": _dates,
    "ko-ending": _ko_endings,
    "half-day-clock": _half_day,
    "era": _era,
    "clock-hours": _clock_hours,
    "percent": _percent,
    "ko-weeks-units": _ko_weeks_units,
    "ja-ya-swap": _ja_ya_swap,
    "ko-clauses": _ko_clauses,
    "full-width": _full_width,
    "compound-duration": _compound_duration,
    "dotted-date": _dotted_dates,
    "ja-masu": _ja_masu,
    "zh-clock": _zh_clock,
    "clock-range": _clock_range,
    "man-cheon": _man_cheon,
    "half-day-digital": _half_day_digital,
    "period-span": _period_span,
    "fraction": _fractions,
    "hao-date": _hao_date,
    "semicolon-comma": _semicolon_comma,
    "vp-and-swap": _vp_and_swap,
    "attributive": _attributive,
    "edition": _edition,
    "continuative": _continuative,
    "range-span": _range_span,
    "per-period": _per_period,
    "suru-koto": _suru_koto,
    "zh-per-slash": _zh_per_slash,
    "part-range": _part_range,
    "from-date": _from_date,
    "comma-and-swap": _comma_and_swap,
    "comma-and-added": _comma_and_added,
    "at-after": _at_after,
    "ko-number-words": _ko_number_words,
    "ko-man": _ko_man,
    "ko-native-count": _ko_native_count,
    "ko-list-order": _ko_list_order,
    "paren-items": _paren_items,
}


# --- meaning-changing mutations ----------------------------------------------------------------


def _number(lang: str, s: str) -> Iterator[str]:
    for m in re.finditer(r"(?<![\d.,])\d+(?![\d.,])", s):
        yield s[: m.start()] + str(int(m.group()) + 1) + s[m.end() :]
        break


_UNIT_SWAPS = {
    "zh": [("天", "小时"), ("小时", "天"), ("分钟", "小时"), ("个月", "年"), ("万元", "千元"), ("公里", "米")],
    "ja": [("日間", "時間"), ("時間", "分"), ("分", "時間"), ("か月", "年"), ("万円", "千円")],
    "ko": [("시간", "분"), ("분", "시간"), ("개월", "년"), ("만 원", "천 원"), ("일 이내", "주 이내")],
}


def _unit_changed(lang: str, s: str) -> Iterator[str]:
    for src, dst in _UNIT_SWAPS[lang]:
        m = re.search(r"(?<=\d)" + re.escape(src), s)
        if m:
            yield s[: m.start()] + dst + s[m.end() :]


_NEGATION = {
    "zh": [("不得", "可以"), ("不能", "能"), ("不可", "可"), ("不收取", "收取"), ("不予", "予以"), ("未", ""),
           ("没有", "有"), ("无需", "需要"), ("可以", "不可以"), ("可", "不可"), ("须", "无须"), ("是", "不是"),
           ("应", "不应")],
    "ja": [("できない", "できる"), ("できます", "できません"), ("できる", "できない"), ("しない", "する"),
           ("ません", "ます"), ("ではない", "である"), ("てはならない", "てもよい"), ("ない", "る")],
    "ko": [("수 없다", "수 있다"), ("수 있다", "수 없다"), ("지 않는다", "ㄴ다"), ("않는다", "한다"),
           ("한다.", "하지 않는다."), ("이다.", "이 아니다."), ("없다", "있다"), ("있다", "없다")],
}
_MODALITY = {
    "zh": [("必须", "可以"), ("只能", "可以"), ("须", "可"), ("应当", "可以"), ("应", "可"), ("可以", "必须"),
           ("可", "须")],
    "ja": [("なければならない", "てもよい"), ("なければなりません", "てもかまいません"), ("ことができる", "なければならない"),
           ("できます", "しなければなりません")],
    "ko": [("해야 한다", "할 수 있다"), ("해야 합니다", "할 수 있습니다"), ("할 수 있다", "해야 한다"),
           ("수 있다", "야 한다"), ("반드시 ", "")],
}
_FREQUENCY = {
    "zh": [("每天", "每周"), ("每日", "每周"), ("每周", "每月"), ("每月", "每年"), ("每季度", "每月"), ("每年", "每月")],
    "ja": [("毎日", "毎週"), ("毎週", "毎月"), ("毎月", "毎年"), ("毎年", "毎月"), ("週", "月")],
    "ko": [("매일", "매주"), ("매주", "매월"), ("매월", "매년"), ("매년", "매월"), ("마다", "마다 두 번씩")],
}
_QUANTIFIER = {
    "zh": [("至少", "最多"), ("最多", "至少"), ("以上", "以下"), ("以下", "以上"), ("以内", "以上"), ("超过", "不足"),
           ("不足", "超过"), ("不超过", "超过")],
    "ja": [("以上", "以下"), ("以下", "以上"), ("以内", "以上"), ("まで", "から"), ("最大", "最低")],
    "ko": [("이상", "이하"), ("이하", "이상"), ("이내", "이후"), ("최대", "최소"), ("까지", "부터")],
}


def _replacer(table: dict[str, list[tuple[str, str]]]) -> Mutation:
    def mutate(lang: str, s: str) -> Iterator[str]:
        for src, dst in table[lang]:
            i = s.find(src)
            if i >= 0:
                yield s[:i] + dst + s[i + len(src) :]
                return
    return mutate


def _roles(lang: str, s: str) -> Iterator[str]:
    if lang == "zh":
        m = re.search(f"(?<=[{_ZH_LEFT}])({_ZH_ITEM})由({_ZH_ITEM})(?=负责|提出|批准|审批|保管|执行|承担|组织)", s)
        if m:
            yield s[: m.start()] + m.group(2) + "由" + m.group(1) + s[m.end() :]
    elif lang == "ja":
        m = re.search(r"([\u4e00-\u9fff\u30a0-\u30ff]{2,8})が([\u4e00-\u9fff\u30a0-\u30ff]{2,8})を", s)
        if m:
            yield s[: m.start()] + m.group(2) + "が" + m.group(1) + "を" + s[m.end() :]
    else:
        m = re.search(r"(?:^|(?<= ))([가-힣]{2,8})(이|가|은|는) ([가-힣]{2,8})(을|를) ", s)
        if m and (re.search("(에|에서|까지|부터|에게|으로|로)$", m.group(1))
                  or (m.group(2) in "은는" and m.start() > 0)):
            m = None  # an adverbial topic ("6시까지는") or an adnominal verb ("나오는"), not an agent
        if m:
            a, b = m.group(1), m.group(3)
            yield (s[: m.start()] + b + ("이" if _batchim(b) else "가") + " " + a
                   + ("을" if _batchim(a) else "를") + " " + s[m.end() :])


def _tense(lang: str, s: str) -> Iterator[str]:
    """Present stated as past (or done): 한다 → 했다, 합니다 → 했습니다, 执行 → 已执行,
    する → した."""
    if lang == "ko":
        for present, past in (("한다.", "했다."), ("합니다.", "했습니다."), ("된다.", "됐다."),
                              ("이다.", "이었다."), ("는다.", "었다."), ("있다.", "있었다.")):
            if s.endswith(present):
                yield s[: -len(present)] + past
                return
    elif lang == "ja":
        for present, past in (("する。", "した。"), ("します。", "しました。"), ("できる。", "できた。"),
                              ("である。", "であった。"), ("です。", "でした。")):
            if s.endswith(present):
                yield s[: -len(present)] + past
                return
    else:
        m = re.search("(负责|进行|执行|实施|收取|办理)", s)
        if m and "已" not in s:
            yield s[: m.start()] + "已经" + m.group() + "了" + s[m.end() :]


def _multiplier(lang: str, s: str) -> Iterator[str]:
    """A multiplier changed or dropped: 45万元 → 45千元 / 45元; 6만 원 → 6천 원."""
    for m in re.finditer(r"(?<![\d.,])(\d+(?:\.\d+)?) ?(万|萬|亿|만)", s):
        other = {"万": "千", "萬": "千", "亿": "万", "만": "천"}[m.group(2)]
        yield s[: m.start()] + m.group(1) + other + s[m.end() :]
        yield s[: m.start()] + m.group(1) + s[m.end() :].lstrip()
        return


def _ko_days(lang: str, s: str) -> Iterator[str]:
    """Korean days as hours without conversion: 7일 이내 → 7시간 이내; a date's day as a
    duration: 25일까지 → 600시간까지."""
    if lang != "ko":
        return
    for m in re.finditer(r"(?<![\d.,])(\d+)일", s):
        yield s[: m.start()] + m.group(1) + "시간" + s[m.end() :]
        if not re.match(r" ?(?:이내|동안|간|전|후|뒤|마다|이상|이하|미만|초과|안에|내에|연장)|[이가] (?:지나|경과)", s[m.end() :]):
            yield s[: m.start()] + str(int(m.group(1)) * 24) + "시간" + s[m.end() :]
        return


#: Person names, read from the notes after a title (组长陈刚, 팀장 이서연, 課長の田中).
_TITLE_NAME_RES = (
    re.compile("(?:组长|经理|主任|管理员|厂长|主管|总监|专员|工程师|部长|科长|班长|主席|书记)([\u4e00-\u9fff]{2,3})(?=[，。、和与提批负审同主记签组保（(）)]|$)"),
    re.compile("(?:회장|소장|팀장|센터장|대표|과장|부장|실장|관리인) ([가-힣]{3})(?![가-힣])"),
    re.compile("(?:部長|課長|社長|主任|係長|室長|担当)の?([\u4e00-\u9fff]{2,4})(?=[がはをにと、。（(])"),
)


_ZH_BEFORE_VERB_RE = re.compile("(?:^|(?<=[，。、由和与：]))([\u4e00-\u9fff]{2,3})(?=提出|批准|负责|主持|审批|签发|记录|附议)")
_ZH_SURNAMES = frozenset("李王张刘陈杨赵黄周吴徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范金石廖贾夏方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔汤")


@functools.cache
def _names() -> frozenset[str]:
    text = "\n".join(s for _, _, s in sources())
    found = {m.group(1) for rx in (*_TITLE_NAME_RES, _ZH_BEFORE_VERB_RE) for m in rx.finditer(text)}
    # a Han name starts with a common surname (书面, 办公会 are not names)
    return frozenset(n for n in found if not re.match("[\u4e00-\u9fff]", n) or n[0] in _ZH_SURNAMES)


def _name_swap(lang: str, s: str) -> Iterator[str]:
    """Two people of one sentence swapped: "周涛提出，李建国批准" → "李建国提出，周涛批准"."""
    found = sorted({n for n in _names() if n in s}, key=s.index)
    if len(found) >= 2:
        a, b = found[0], found[1]
        yield s.replace(a, "\0").replace(b, a).replace("\0", b)


CHANGE: dict[str, Mutation] = {
    "ja-kana-unit-wrong": _ja_kana_unit_wrong,
    "slash-date-wrong": _slash_date_wrong,
    "within-words-wrong": _within_words_wrong,
    "ja-request-wrong": _ja_request_wrong,
    "ja-ga-swap-wrong": _ja_ga_swap_wrong,
    "zh-will-wrong": _zh_will_wrong,
    "zh-light-verb-wrong": _zh_light_verb_wrong,
    "ja-te-stem-wrong": _ja_te_stem_wrong,
    "ja-potential-wrong": _ja_potential_wrong,
    "ja-niwa-wrong": _ja_niwa_wrong,
    "zh-not-yet-wrong": _zh_not_yet_wrong,
    "zh-anzhao-wrong": _zh_anzhao_wrong,
    "zh-frame-wrong": _zh_frame_wrong,
    "name-swap": _name_swap,
    "tense": _tense,
    "multiplier": _multiplier,
    "ko-days": _ko_days,
    "number": _number,
    "unit-changed": _unit_changed,
    "negation": _replacer(_NEGATION),
    "modality": _replacer(_MODALITY),
    "frequency": _replacer(_FREQUENCY),
    "roles": _roles,
    "quantifier": _replacer(_QUANTIFIER),
    "half-day-wrong": _half_day_wrong,
    "era-wrong": _era_wrong,
    "clock-hours-wrong": _clock_hours_wrong,
    "percent-wrong": _percent_wrong,
    "ko-weeks-units-wrong": _ko_weeks_units_wrong,
    "ko-clauses-wrong": _ko_clauses_wrong,
    "full-width-wrong": _full_width_wrong,
    "compound-duration-wrong": _compound_duration_wrong,
    "dotted-date-wrong": _dotted_dates_wrong,
    "ja-masu-wrong": _ja_masu_wrong,
    "zh-clock-wrong": _zh_clock_wrong,
    "clock-range-wrong": _clock_range_wrong,
    "man-cheon-wrong": _man_cheon_wrong,
    "half-day-digital-wrong": _half_day_digital_wrong,
    "period-span-wrong": _period_span_wrong,
    "fraction-wrong": _fractions_wrong,
    "hao-date-wrong": _hao_date_wrong,
    "semicolon-comma-wrong": _semicolon_comma_wrong,
    "vp-and-swap-wrong": _vp_and_swap_wrong,
    "attributive-wrong": _attributive_wrong,
    "edition-wrong": _edition_wrong,
    "continuative-wrong": _continuative_wrong,
    "range-span-wrong": _range_span_wrong,
    "per-period-wrong": _per_period_wrong,
    "suru-koto-wrong": _suru_koto_wrong,
    "zh-per-slash-wrong": _zh_per_slash_wrong,
    "part-range-wrong": _part_range_wrong,
    "from-date-wrong": _from_date_wrong,
    "comma-and-swap-wrong": _comma_and_swap_wrong,
    "comma-and-added-wrong": _comma_and_added_wrong,
    "at-after-wrong": _at_after_wrong,
    "ko-number-words-wrong": _ko_number_words_wrong,
    "ko-man-wrong": _ko_man_wrong,
    "ko-native-count-wrong": _ko_native_count_wrong,
    "ko-list-order-wrong": _ko_list_order_wrong,
    "paren-items-wrong": _paren_items_wrong,
}


# --- evaluation --------------------------------------------------------------------------------


def cases(langs: set[str], kinds: set[str] | None) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for origin, lang, s in sources():
        if lang not in langs:
            continue
        for side, table in (("keep", KEEP), ("change", CHANGE)):
            for kind, mutate in table.items():
                if kinds and kind not in kinds:
                    continue
                for claim in mutate(lang, s):
                    if (claim == s and kind != "verbatim") or (s, claim) in seen:
                        continue
                    seen.add((s, claim))
                    out.append({"origin": origin, "lang": lang, "side": side, "kind": kind,
                                "evidence": s, "claim": claim})
    for case in table_cases():
        if case["lang"] in langs and (not kinds or case["kind"] in kinds):
            out.append(case)
    return out


def verdict_of(case: dict[str, str]) -> tuple[str, str]:
    span = EvidenceSpan("E1", case["evidence"], "mutation.md", 1, 1)
    claim = Claim(id="C1", text=case["claim"], cited=(), substantive=True)
    v = verify_claims([claim], [span])[0]
    return v.verdict, f"{v.reason}: {v.detail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", default="zh,ja,ko")
    parser.add_argument("--kind", default="", help="comma-separated mutation kinds (default: all)")
    parser.add_argument("--errors", action="store_true", help="list keep claims not supported and change claims supported")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = cases(set(args.lang.split(",")), set(args.kind.split(",")) - {""} or None)
    tally: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    errors: list[str] = []
    for case in rows:
        verdict, reason = verdict_of(case)
        case["verdict"] = verdict
        tally[(case["side"], case["kind"], case["lang"])][verdict] += 1
        bad = (case["side"] == "keep") != (verdict == "supported") or (case["side"] == "keep" and verdict == "contradicted")
        if bad:
            errors.append(f"[{case['side']}/{case['kind']}/{case['lang']}] {verdict} ({reason})\n"
                          f"    C: {case['claim']}\n    E: {case['evidence']}")
    keep = [r for r in rows if r["side"] == "keep"]
    change = [r for r in rows if r["side"] == "change"]
    summary = {
        "keep": len(keep),
        "keep_supported": sum(r["verdict"] == "supported" for r in keep),
        "keep_contradicted": sum(r["verdict"] == "contradicted" for r in keep),
        "change": len(change),
        "change_supported": sum(r["verdict"] == "supported" for r in change),
    }
    if args.json:
        print(json.dumps({"summary": summary, "tally": {"/".join(k): dict(v) for k, v in sorted(tally.items())}},
                         ensure_ascii=False, indent=2))
        return 0
    print("| side | kind | lang | n | supported | contradicted | insufficient |")
    print("|---|---|---|---:|---:|---:|---:|")
    for (side, kind, lang), c in sorted(tally.items()):
        print(f"| {side} | {kind} | {lang} | {sum(c.values())} | {c['supported']} | {c['contradicted']} | {c['insufficient'] + c['uncertain']} |")
    k, ch = summary["keep"], summary["change"]
    print(f"\nkeep (meaning-preserving) marked supported: {summary['keep_supported']}/{k}"
          f" ({100 * summary['keep_supported'] / max(k, 1):.1f}%); marked contradicted: {summary['keep_contradicted']}")
    print(f"change (meaning-changing) marked supported (false supports): {summary['change_supported']}/{ch}")
    if args.errors:
        print("\n" + "\n".join(errors))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
