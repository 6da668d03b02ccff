"""Normalisation for claim accounting: dates to one form, CJK numerals to digits, quantities with units to a canonical key."""

from __future__ import annotations

import re
from fractions import Fraction

from cairn.text.numbers import MONTHS
from cairn.text.tokens import Token

# --------------------------------------------------------------------------- dates

_MONTH_NAMES = {k: v for k, v in MONTHS.items() if k not in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}  # fmt: skip
_MONTH_NUM = {
    name: i
    for i, name in enumerate(
        (
            "january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december",
        ),
        1,
    )
}  # fmt: skip
_MON = r"(?P<mon>" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
#: Ordinal day words ("the first of March 2026", "March twenty-first, 2026").
_DAY_WORDS = {
    w: i
    for i, w in enumerate(
        (
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
            "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
        ),
        1,
    )
}  # fmt: skip
_DAY_WORDS.update({f"twenty-{w}": 20 + i for w, i in _DAY_WORDS.items() if i < 10})
_DAY_WORDS.update({"thirtieth": 30, "thirty-first": 31})
_DAY_WORD = "|".join(sorted(_DAY_WORDS, key=len, reverse=True))
_DAY = r"(?P<d>\d{1,2}(?:st|nd|rd|th)?|" + _DAY_WORD + r")"
#: Before "of", a day is an ordinal ("the 1st of March", "the first of March"): "4.1 of
#: June 2025" is a version, not a date.
_DAY_OF = r"(?<![\d.,])(?P<d>\d{1,2}(?:st|nd|rd|th)|" + _DAY_WORD + r")"
_DATE_RES = (
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?!\d)"),
    re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MON + r",?\s+(?P<y>\d{4})\b", re.I),
    # A day word before the month only with "of" ("the first of March 2026"; "the second
    # March 2026 release" is no date).
    re.compile(r"\b" + _DAY_OF + r"\s+of\s+" + _MON + r",?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"\b" + _MON + r"\s+" + _DAY + r",?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"(?P<y>\d{4})\s?年\s?(?P<m>\d{1,2})\s?月\s?(?P<d>\d{1,2})\s?[日号]"),
    re.compile(r"(?P<y>\d{4})\s?년\s?(?P<m>\d{1,2})\s?월\s?(?P<d>\d{1,2})\s?일"),
    re.compile(r"(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})\b"),
    # Day first with dots, as Europe writes it ("30.4.2027"); no American form has dots.
    re.compile(r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>(?:19|20)\d{2})(?![\d.]*\d)"),
)
_MONTH_RES = (
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})\b(?!-\d)"),
    # A month and year with a slash ("03/2029"): a two-digit month, a year from 1900, so
    # "1/2000" (a dilution) is no month.
    re.compile(r"(?<![\d/.])(?P<m>0[1-9]|1[0-2])/(?P<y>(?:19|20)\d{2})(?![\d/])"),
    re.compile(r"\b" + _MON + r",?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"(?P<y>\d{4})\s?年\s?(?P<m>\d{1,2})\s?月(?!\s?\d)"),
    re.compile(r"(?P<y>\d{4})\s?년\s?(?P<m>\d{1,2})\s?월(?!\s?\d)"),
)


def _month(m: re.Match[str]) -> int | None:
    if "mon" in m.re.groupindex:
        raw = m.group("mon").lower()
        if raw == "may" and not m.group("mon")[0].isupper():
            return None
        return _MONTH_NUM[_MONTH_NAMES[raw]]
    return int(m.group("m"))


#: A full date with slashes and the year last: "18/07/2026" (day first, as Europe
#: writes it) or "07/18/2026" (month first, as America does).
_SLASHED_RE = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})/((?:19|20)\d{2})(?![\d/])")


#: A date written year first with dots, as Korea writes it ("2026.10.1.", "2026. 10. 1."):
#: a final dot or a CJK character right after, and no "version" before (2026.10.1 may be
#: a calendar version number).
_DOTTED_YMD_RE = re.compile(
    r"(?<![\d.])(?P<y>(?:19|20)\d{2})\.\s?(?P<m>\d{1,2})\.\s?(?P<d>\d{1,2})"
    r"(?:\.|(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]))"
)
_VERSION_BEFORE_RE = re.compile(r"(?:version|release|v)\s*$", re.IGNORECASE)
#: Two days of one month ("from 14 to 17 June 2027", "14–17 June 2027"): once the second
#: is a date token, the first day is one too.
_DAY_RANGE_RE = re.compile(
    r"(?<![\d.,:/])(?P<d1>\d{1,2})(?P<mid>\s*(?:to|-|–|and)\s*)d(?P<ym>\d{6})(?P<d2>\d{2})(?!\d)"
)


def _dotted_ymd(m: re.Match[str], keep_length: bool) -> str:
    if _VERSION_BEFORE_RE.search(m.string[: m.start()]):
        return m.group()
    y, mo, d = int(m.group("y")), int(m.group("m")), int(m.group("d"))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return m.group()
    token = f"d{y:04d}{mo:02d}{d:02d}"
    if len(token) >= len(m.group()):
        # A particle follows with no space ("2027.3.1.부터"): the token must not glue to it.
        return m.group() if keep_length else token + " "
    return _fitted(token, m.group(), keep_length)


def _day_range(m: re.Match[str]) -> str:
    d1, d2 = int(m.group("d1")), int(m.group("d2"))
    if not 1 <= d1 < d2:
        return m.group()
    return f"d{m.group('ym')}{d1:02d}{m.group('mid')}d{m.group('ym')}{m.group('d2')}"


#: A CJK range whose end leaves the year out ("2027年5月10日から6月30日"): the end is in
#: the start's year when it falls after the start in that year (session 17); an end on or
#: before the start (a range into the next year) stays as written.
_YEARLESS_END_RE = re.compile(
    r"d(?P<y>\d{4})(?P<m1>\d{2})(?P<d1>\d{2})(?P<mid>\s*(?:から|至|到|~|～|〜|-|–|—|부터)\s*)"
    r"(?P<m>\d{1,2})\s?[月월]\s?(?P<d>\d{1,2})\s?[日号일]"
)


def _yearless_end(m: re.Match[str]) -> str | None:
    mo, d = int(m.group("m")), int(m.group("d"))
    if not (1 <= mo <= 12 and 1 <= d <= 31) or (mo, d) <= (int(m.group("m1")), int(m.group("d1"))):
        return None
    return f"d{m.group('y')}{mo:02d}{d:02d}"


def _fill_yearless_end(m: re.Match[str]) -> str:
    token = _yearless_end(m)
    return m.group() if token is None else f"d{m.group('y')}{m.group('m1')}{m.group('d1')}{m.group('mid')}{token}"


def range_first_days(text: str) -> frozenset[str]:
    """The date tokens of the first days of the day ranges in ``text`` whose second day
    is already a date token ("24–d20270425": d20270424), and of the yearless ends of
    ranges ("d20270510から6月30日": d20270630), for text normalised to its own length,
    where the range cannot be written out in place."""
    if "d" not in text:
        return frozenset()
    out = set()
    for m in _DAY_RANGE_RE.finditer(text):
        d1, d2 = int(m.group("d1")), int(m.group("d2"))
        if 1 <= d1 < d2:
            out.add(f"d{m.group('ym')}{d1:02d}")
    for m in _YEARLESS_END_RE.finditer(text):
        token = _yearless_end(m)
        if token is not None:
            out.add(token)
    return frozenset(out)


def _fitted(token: str, raw: str, keep_length: bool) -> str:
    if len(token) <= len(raw):
        return token.ljust(len(raw))
    return raw if keep_length else token


def _slashed_date(m: re.Match[str], keep_length: bool) -> str:
    """The date token of a slashed date that reads one way only: a part above 12 is
    the day, and equal parts are the same date either way. "04/01/2026" (4 January or
    April 1) stays as written."""
    a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if a > 12 >= b or a == b:
        day, month = a, b
    elif b > 12 >= a:
        day, month = b, a
    else:
        return m.group()
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return _fitted(f"d{y:04d}{month:02d}{day:02d}", m.group(), keep_length)


def normalise_dates(text: str, *, keep_length: bool = True) -> str:
    """``text`` with every full date as ``dYYYYMMDD`` and every month of a year as
    ``mYYYYMM``, padded with spaces to the original length, so offsets keep. A date
    written shorter than its token ("1.3.2027", "1/3/2027") is kept as written, unless
    ``keep_length`` is false (a claim, or text whose offsets nobody reads)."""

    def repl_date(m: re.Match[str]) -> str:
        mo = _month(m)
        raw_d = m.group("d").lower()
        d = _DAY_WORDS[raw_d] if raw_d in _DAY_WORDS else int(raw_d.rstrip("stndrh"))
        if mo is None or not (1 <= mo <= 12 and 1 <= d <= 31):
            return m.group()
        token = f"d{int(m.group('y')):04d}{mo:02d}{d:02d}"
        return _fitted(token, m.group(), keep_length)

    def repl_month(m: re.Match[str]) -> str:
        mo = _month(m)
        if mo is None or not 1 <= mo <= 12:
            return m.group()
        token = f"m{int(m.group('y')):04d}{mo:02d}"
        return _fitted(token, m.group(), keep_length)

    if not any(c.isdigit() for c in text):
        return text
    text = _SLASHED_RE.sub(lambda m: _slashed_date(m, keep_length), text)
    text = _DOTTED_YMD_RE.sub(lambda m: _dotted_ymd(m, keep_length), text)
    for rx in _DATE_RES:
        text = rx.sub(repl_date, text)
    for rx in _MONTH_RES:
        text = rx.sub(repl_month, text)
    if not keep_length:
        text = _DAY_RANGE_RE.sub(_day_range, text)  # longer than written: claims only
        if "d" in text:
            text = _YEARLESS_END_RE.sub(_fill_yearless_end, text)
    return text


# --------------------------------------------------------------------------- CJK numerals

_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
_CJK_MULT = {"十": 10, "百": 100, "千": 1000, "万": 10000, "萬": 10000}
_CJK_NUM_RE = re.compile("[零〇一二两兩三四五六七八九十百千万萬]+")


def _cjk_value(run: str) -> int | None:
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in _CJK_DIGITS:
            if digit is not None:
                return None  # "一二" is not a number
            digit = _CJK_DIGITS[ch]
        else:
            mult = _CJK_MULT[ch]
            if mult == 10000:
                total = (total + section + (digit or 0)) * mult
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * mult
                digit = None
    return total + section + (digit or 0)


def _cjk_numerals(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        value = _cjk_value(m.group())
        return m.group() if value is None else str(value)

    text = _KO_NATIVE_RE.sub(lambda m: str(_KO_NATIVE[m.group(1)]) + m.group(2), text)
    text = _KO_SINO_RE.sub(lambda m: str(_ko_sino_value(m.group(1))) + m.group(2), text)
    text = _HANGUL_MULT_RE.sub(
        lambda m: str(Fraction(m.group(1).replace(",", "")) * _HANGUL_MULT[m.group(2)]), text
    )
    # 千克 and 千米 are units (kg, km), not the numeral 千 before 克/米.
    text = text.replace("千克", "公斤").replace("千米", "公里")
    return _CJK_NUM_RE.sub(repl, text)


#: Korean native numerals before a counter: "두 번" is 2번, "한 대" 1대, "세 명" 3명.
#: Only as a word of their own, a space before the counter word ("한 후", "셋째",
#: "세대" (household) and "네" as "yes" stay as they are).
_KO_NATIVE = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8,
    "아홉": 9, "열": 10, "스무": 20,
}  # fmt: skip
# Session 17: the teens and twenties ("열두 시간" is 12시간, "스물세 명" 23명).
_KO_NATIVE.update({"열" + w: 10 + v for w, v in list(_KO_NATIVE.items()) if v < 10})
_KO_NATIVE.update({"스물" + w: 20 + v for w, v in list(_KO_NATIVE.items()) if v < 10})
_KO_COUNTERS = (
    "번", "대", "명", "개", "가지", "곳", "장", "권", "잔", "마리", "달", "살", "시간",
    "차례", "회", "벌", "병", "통", "주", "부",
)  # fmt: skip
_KO_NATIVE_RE = re.compile(
    r"(?<![가-힣\d])("
    + "|".join(sorted(_KO_NATIVE, key=len, reverse=True))
    + r") ("
    + "|".join(sorted(_KO_COUNTERS, key=len, reverse=True))
    + r")(?![가-힣]{3})"
)

#: Sino-Korean numerals with a tens, hundreds or thousands syllable before a counter
#: (session 12): "삼십 분" is 30분, "이백 원" 200원. A run without one ("이 분": "this
#: person", "일 년") stays as it is: the syllables are ordinary words too.
_KO_SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_KO_SINO_MULT = {"십": 10, "백": 100, "천": 1000}
_KO_SINO_RE = re.compile(
    r"(?<![가-힣\d])((?:[이삼사오육칠팔구]?[십백천])+[일이삼사오육칠팔구]?) ?"
    r"(분|초|시간|일|주|개월|년|원|명|회|번|층|세)(?![가-힣]{3})"
)


def _ko_sino_value(run: str) -> int:
    total, digit = 0, 0
    for ch in run:
        if ch in _KO_SINO_MULT:
            total += (digit or 1) * _KO_SINO_MULT[ch]
            digit = 0
        else:
            digit = _KO_SINO_DIGITS[ch]
    return total + digit


#: Korean multipliers after digits: "6만 원" is 60,000 won, "3천" 3,000.
_HANGUL_MULT = {"만": 10000, "천": 1000}
_HANGUL_MULT_RE = re.compile(r"(\d[\d,]*)\s?(만|천)(?![가-힣]{2})")


# --------------------------------------------------------------------------- quantities

_U = Fraction
# (dimension, factor to the base unit); temperatures are handled on their own.
_UNIT_TABLE: dict[str, tuple[str, Fraction]] = {
    "ms": ("time", _U(1, 1000)), "millisecond": ("time", _U(1, 1000)),
    "milliseconds": ("time", _U(1, 1000)), "s": ("time", _U(1)), "sec": ("time", _U(1)),
    "secs": ("time", _U(1)), "second": ("time", _U(1)), "seconds": ("time", _U(1)),
    "min": ("time", _U(60)), "mins": ("time", _U(60)), "minute": ("time", _U(60)),
    "minutes": ("time", _U(60)), "h": ("time", _U(3600)), "hr": ("time", _U(3600)),
    "hrs": ("time", _U(3600)), "hour": ("time", _U(3600)), "hours": ("time", _U(3600)),
    "day": ("time", _U(86400)), "days": ("time", _U(86400)),
    "week": ("time", _U(604800)), "weeks": ("time", _U(604800)),
    "month": ("months", _U(1)), "months": ("months", _U(1)), "year": ("months", _U(12)),
    "years": ("months", _U(12)), "yr": ("months", _U(12)), "yrs": ("months", _U(12)),
    "mm": ("length", _U(1, 1000)), "cm": ("length", _U(1, 100)), "m": ("length", _U(1)),
    "metre": ("length", _U(1)), "metres": ("length", _U(1)), "meter": ("length", _U(1)),
    "meters": ("length", _U(1)), "km": ("length", _U(1000)), "kilometre": ("length", _U(1000)),
    "kilometres": ("length", _U(1000)), "kilometer": ("length", _U(1000)),
    "kilometers": ("length", _U(1000)), "inch": ("length", _U(254, 10000)),
    "inches": ("length", _U(254, 10000)), "ft": ("length", _U(3048, 10000)),
    "feet": ("length", _U(3048, 10000)), "mile": ("length", _U(1609344, 1000)),
    "miles": ("length", _U(1609344, 1000)),
    "millimetre": ("length", _U(1, 1000)), "millimetres": ("length", _U(1, 1000)),
    "millimeter": ("length", _U(1, 1000)), "millimeters": ("length", _U(1, 1000)),
    "centimetre": ("length", _U(1, 100)), "centimetres": ("length", _U(1, 100)),
    "centimeter": ("length", _U(1, 100)), "centimeters": ("length", _U(1, 100)),
    "yd": ("length", _U(9144, 10000)), "yard": ("length", _U(9144, 10000)),
    "yards": ("length", _U(9144, 10000)), "foot": ("length", _U(3048, 10000)),
    "µg": ("mass", _U(1, 10**6)), "ug": ("mass", _U(1, 10**6)), "mcg": ("mass", _U(1, 10**6)),
    "mg": ("mass", _U(1, 1000)), "g": ("mass", _U(1)), "gram": ("mass", _U(1)),
    "grams": ("mass", _U(1)), "kg": ("mass", _U(1000)), "kilogram": ("mass", _U(1000)),
    "kilograms": ("mass", _U(1000)), "lb": ("mass", _U(45359237, 100000)),
    "lbs": ("mass", _U(45359237, 100000)),
    "milligram": ("mass", _U(1, 1000)), "milligrams": ("mass", _U(1, 1000)),
    "microgram": ("mass", _U(1, 10**6)), "micrograms": ("mass", _U(1, 10**6)),
    # Metric tonnes only ("ton" alone may be a short or long ton: not converted).
    "t": ("mass", _U(10**6)), "tonne": ("mass", _U(10**6)), "tonnes": ("mass", _U(10**6)),
    "oz": ("mass", _U(28349523125, 10**9)), "ounce": ("mass", _U(28349523125, 10**9)),
    "ounces": ("mass", _U(28349523125, 10**9)), "pound": ("mass", _U(45359237, 100000)),
    "pounds": ("mass", _U(45359237, 100000)),
    "µl": ("volume", _U(1, 10**6)), "ul": ("volume", _U(1, 10**6)),
    "μl": ("volume", _U(1, 10**6)), "ml": ("volume", _U(1, 1000)), "l": ("volume", _U(1)),
    "litre": ("volume", _U(1)), "litres": ("volume", _U(1)), "liter": ("volume", _U(1)),
    "liters": ("volume", _U(1)),
    "millilitre": ("volume", _U(1, 1000)), "millilitres": ("volume", _U(1, 1000)),
    "milliliter": ("volume", _U(1, 1000)), "milliliters": ("volume", _U(1, 1000)),
    "microlitre": ("volume", _U(1, 10**6)), "microlitres": ("volume", _U(1, 10**6)),
    "microliter": ("volume", _U(1, 10**6)), "microliters": ("volume", _U(1, 10**6)),
    "cl": ("volume", _U(1, 100)), "dl": ("volume", _U(1, 10)),
    # Session 18b: hectolitres ("20 hectolitres" = "2,000 litres").
    "hl": ("volume", _U(100)), "hectolitre": ("volume", _U(100)),
    "hectolitres": ("volume", _U(100)), "hectoliter": ("volume", _U(100)),
    "hectoliters": ("volume", _U(100)),
    "m3": ("volume", _U(1000)), "m³": ("volume", _U(1000)),
    # Pressure in pascals (session 11: "2.06 kPa" = "20.6 mbar"); no bare "pa" ("£30k pa"
    # is per annum), no "MPa" (lower-cased it is "mpa", a millipascal's spelling too).
    "mbar": ("pressure", _U(100)), "millibar": ("pressure", _U(100)),
    "millibars": ("pressure", _U(100)), "bar": ("pressure", _U(10**5)),
    "hpa": ("pressure", _U(100)), "kpa": ("pressure", _U(1000)),
    "kw": ("power", _U(1000)), "w": ("power", _U(1)),
    "watt": ("power", _U(1)), "watts": ("power", _U(1)), "kilowatt": ("power", _U(1000)),
    "kilowatts": ("power", _U(1000)),
    # Session 18b: megawatts ("1.2 MW" = "1,200 kW"; lower-cased like "mwh" below, so a
    # milliwatt "mW" reads as a megawatt as it already read as the same word), and peak
    # power of a solar array in its own dimension ("5.16 kWp" = "5,160 Wp", never "kW").
    "mw": ("power", _U(10**6)), "megawatt": ("power", _U(10**6)),
    "megawatts": ("power", _U(10**6)), "wp": ("peakpower", _U(1)),
    "kwp": ("peakpower", _U(1000)), "mwp": ("peakpower", _U(10**6)), "wh": ("energy", _U(1)), "kwh": ("energy", _U(1000)),
    "mwh": ("energy", _U(10**6)), "gwh": ("energy", _U(10**9)),  # session 7b
    "hz": ("frequency", _U(1)), "khz": ("frequency", _U(1000)),
    "mhz": ("frequency", _U(10**6)), "ghz": ("frequency", _U(10**9)),
    "%": ("percent", _U(1)), "percent": ("percent", _U(1)),
    # Session 19 (lead): areas (written "m²" by cairn.answer.areas: "square metres",
    # "sq m", "m2"), exact factors only; "ft²" from the foot's exact 0.3048 m.
    "m²": ("area", _U(1)), "km²": ("area", _U(10**6)), "cm²": ("area", _U(1, 10**4)),
    "mm²": ("area", _U(1, 10**6)), "ft²": ("area", _U(9290304, 10**8)),
    "ha": ("area", _U(10**4)), "hectare": ("area", _U(10**4)), "hectares": ("area", _U(10**4)),
    "kib": ("bits", _U(8 * 1024)), "mib": ("bits", _U(8 * 1024**2)),
    "gib": ("bits", _U(8 * 1024**3)),
}  # fmt: skip
# Data sizes are case-sensitive: "MB" is a megabyte, "Mb"/"Mbit" a megabit.
_DATA_UNITS: dict[str, Fraction] = {
    "bit": _U(1), "bits": _U(1), "kbit": _U(10**3), "Kbit": _U(10**3), "Mbit": _U(10**6),
    "Gbit": _U(10**9), "Tbit": _U(10**12), "kb": _U(10**3), "Kb": _U(10**3), "Mb": _U(10**6),
    "Gb": _U(10**9), "Tb": _U(10**12), "B": _U(8), "byte": _U(8), "bytes": _U(8),
    "kB": _U(8 * 10**3), "KB": _U(8 * 10**3), "MB": _U(8 * 10**6), "GB": _U(8 * 10**9),
    "TB": _U(8 * 10**12),
}  # fmt: skip
_RATE_UNITS: dict[str, Fraction] = {
    "bps": _U(1), "kbps": _U(10**3), "Kbps": _U(10**3), "Mbps": _U(10**6), "Gbps": _U(10**9),
    "Tbps": _U(10**12),
}  # fmt: skip
_CJK_UNITS: dict[str, tuple[str, Fraction]] = {
    "毫秒": ("time", _U(1, 1000)), "秒钟": ("time", _U(1)), "秒": ("time", _U(1)),
    "分钟": ("time", _U(60)), "分鐘": ("time", _U(60)), "分間": ("time", _U(60)),
    "分": ("time", _U(60)),  # after a number: minutes (12時から13時までの60分)
    "小时": ("time", _U(3600)), "小時": ("time", _U(3600)), "時間": ("time", _U(3600)),
    "个月": ("months", _U(1)), "ヶ月": ("months", _U(1)), "か月": ("months", _U(1)),
    "カ月": ("months", _U(1)), "天": ("time", _U(86400)), "日間": ("time", _U(86400)),
    "年": ("months", _U(12)), "周": ("time", _U(604800)), "週間": ("time", _U(604800)),
    # Korean (after a number): 시간 hours, 분 minutes, 초 seconds, 개월 months, 주 weeks.
    "시간": ("time", _U(3600)), "분": ("time", _U(60)), "초": ("time", _U(1)),
    "개월": ("months", _U(1)), "주": ("time", _U(604800)),
    # Chinese metric units (after a number): 30厘米 = 0.3米, 8.5公斤 = 8,500克.
    "毫米": ("length", _U(1, 1000)), "厘米": ("length", _U(1, 100)),
    "公分": ("length", _U(1, 100)), "米": ("length", _U(1)), "公里": ("length", _U(1000)),
    "千米": ("length", _U(1000)), "毫克": ("mass", _U(1, 1000)), "克": ("mass", _U(1)),
    "千克": ("mass", _U(1000)), "公斤": ("mass", _U(1000)), "毫升": ("volume", _U(1, 1000)),
    "升": ("volume", _U(1)),
}  # fmt: skip
_CJK_UNIT_RE = re.compile(
    r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(" + "|".join(sorted(_CJK_UNITS, key=len, reverse=True)) + ")"
)
_CURRENCY = "€$£¥"


def quantity_key(dim: str, value: Fraction) -> str:
    """The comparison key of a quantity in its dimension's base unit."""
    return f"q:{dim}:{value.numerator}/{value.denominator}"


def _fraction(tok: Token) -> Fraction | None:
    if tok.value is None:
        return None
    if tok.written:
        return Fraction(tok.value).limit_denominator(1000)
    try:
        return Fraction(tok.raw.replace(",", ""))
    except ValueError:
        return None
