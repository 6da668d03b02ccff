"""Session 11 generators of the verifier mutation harness (issue 12; registered by
:mod:`bench.verify_mutations`, kept here so that module does not grow).

The classes come from test11's English misses; each has a meaning-preserving generator
(the verifier should say ``supported``) and meaning-changing ones next to it (it must
never say ``supported``):

* a simple past said in the present perfect: "The engineer cleaned the trap" → "The
  engineer has cleaned the trap"; changed: "has not cleaned", "will have cleaned";
* a subject pronoun a second conjunct repeats: "was tested and sounded" → "was tested and
  it sounded"; changed: "and it never sounded", "and it has not sounded";
* a range of small numbers said in words: "2 to 3 weeks" → "two to three weeks";
  changed: "two to four weeks", "one to three weeks";
* a pressure in another unit: "20.6 mbar" → "2.06 kPa", "1.5 bar" → "1,500 mbar";
  changed: the number kept with the other unit ("20.6 kPa"), the scale off by ten;
* a date with dots or a month with a slash: "30 April 2027" → "30.4.2027", "March 2029"
  → "03/2029"; changed: another month ("30.5.2027", "04/2029"), month and day swapped
  ("4.30.2027");
* a half or quarter of a measure, or a quarter more: "250 ml" → "a quarter of a litre",
  "500 g" → "half a kilogram", "25% extra" → "a quarter extra"; changed: the other
  part ("half a litre" for 250 ml, "a quarter of a litre" for 500 ml), a third;
* a rule's "is to be": "is reported" → "is to be reported"; changed: "was reported" →
  "is to be reported", "is reported" → "is not to be reported";
* a negative fronted with inversion: "The firm will not refund travel in any case" →
  "In no case will the firm refund travel"; changed: a positive sentence so inverted
  ("The firm will refund travel" → "In no case will the firm refund travel").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

__all__ = ["CHANGING_S11", "PRESERVING_S11"]

# Words after which an "-ed" word is no simple past of a subject (a participle, an
# adjective, a passive) or before which "has" reads wrongly.
_NOT_SUBJECT_END = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "and",
        "or",
        "but",
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "from",
        "not",
        "no",
        "its",
        "their",
        "his",
        "her",
        "this",
        "that",
        "these",
        "those",
        "all",
        "any",
        "each",
        "every",
        "also",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "shall",
        "once",
        "when",
        "if",
        "as",
        "than",
    ]
)
# A simple past of a regular verb after its subject's last word ("engineer cleaned").
_PAST = re.compile(r"\b([A-Za-z][a-z]+) ([a-z]{3,}ed)\b(?! by\b)")
# A second conjunct that starts with a regular simple past ("and sounded").
_AND_PAST = re.compile(r" and ([a-z]{3,}ed)\b(?! by\b)")
_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}
_RANGE = re.compile(r"\b([1-8]) to ([2-9]) (minutes|hours|days|weeks|months|years)\b")


def _past(s: str) -> re.Match[str] | None:
    for m in _PAST.finditer(s):
        if m.group(1).lower() not in _NOT_SUBJECT_END and not m.group(2).endswith("eed"):
            return m
    return None


def _aux(subject_word: str) -> str:
    return "have" if subject_word.endswith("s") and not subject_word.endswith("ss") else "has"


def m_present_perfect(s: str) -> str | None:
    """ "The engineer cleaned the trap" → "The engineer has cleaned the trap"."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + f"{_aux(m.group(1))} " + s[m.start(2) :]


def c_present_perfect_negated(s: str) -> str | None:
    """ "cleaned" → "has not cleaned": the negation is new."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + f"{_aux(m.group(1))} not " + s[m.start(2) :]


def c_future_perfect(s: str) -> str | None:
    """ "cleaned" → "will have cleaned": a done thing said as still to come."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + "will have " + s[m.start(2) :]


def _and_past(s: str) -> re.Match[str] | None:
    m = _AND_PAST.search(s)
    return m if m is not None and not s.startswith(("I ", "We ", "You ")) else None


def m_conjunct_pronoun(s: str) -> str | None:
    """ "was tested and sounded" → "was tested and it sounded"."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it " + s[m.start(1) :]


def c_conjunct_pronoun_never(s: str) -> str | None:
    """ "and sounded" → "and it never sounded": the pronoun with a negation."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it never " + s[m.start(1) :]


def c_conjunct_pronoun_not(s: str) -> str | None:
    """ "and sounded" → "and it has not sounded"."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it has not " + s[m.start(1) :]


def m_range_words(s: str) -> str | None:
    """ "2 to 3 weeks" → "two to three weeks"."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    return s[: m.start()] + f"{_WORDS[low]} to {_WORDS[high]} {m.group(3)}" + s[m.end() :]


def c_range_words_high(s: str) -> str | None:
    """ "2 to 3 weeks" → "two to four weeks": the upper end changed."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    return (
        s[: m.start()]
        + f"{_WORDS[low]} to {_WORDS[high + 1 if high < 9 else high - 1]} {m.group(3)}"
        + s[m.end() :]
    )


def c_range_words_low(s: str) -> str | None:
    """ "2 to 3 weeks" → "one to three weeks" (or "three to three"): the lower end changed."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    other = low - 1 if low > 1 else low + 1
    if other == high:
        return None
    return s[: m.start()] + f"{_WORDS[other]} to {_WORDS[high]} {m.group(3)}" + s[m.end() :]


_PRESSURE = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?) (mbar|bar|kPa)\b")
_PASCALS = {"mbar": Decimal(100), "bar": Decimal(100000), "kPa": Decimal(1000)}
_OTHER_PRESSURE = {"mbar": "kPa", "bar": "mbar", "kPa": "mbar"}
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4})\b")
_MONTH_YEAR = re.compile(r"(?<!\d )\b(" + "|".join(_MONTHS) + r") (\d{4})\b")


def _number(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    whole, _, frac = text.partition(".")
    whole = f"{int(whole):,}"
    return f"{whole}.{frac}" if frac else whole


def _pressure(s: str, scale: Decimal, same_number: bool) -> str | None:
    m = _PRESSURE.search(s)
    if m is None:
        return None
    unit = m.group(2)
    other = _OTHER_PRESSURE[unit]
    value = Decimal(m.group(1)) * _PASCALS[unit] / _PASCALS[other] * scale
    number = m.group(1) if same_number else _number(value)
    return s[: m.start()] + f"{number} {other}" + s[m.end() :]


def m_pressure_unit(s: str) -> str | None:
    """ "20.6 mbar" → "2.06 kPa"; "1.5 bar" → "1,500 mbar"."""
    return _pressure(s, Decimal(1), same_number=False)


def c_pressure_unit_unconverted(s: str) -> str | None:
    """ "20.6 mbar" → "20.6 kPa": the number kept with the other unit."""
    return _pressure(s, Decimal(1), same_number=True)


def c_pressure_scale(s: str) -> str | None:
    """ "20.6 mbar" → "20.6 kPa" ÷ … → "0.206 kPa": the conversion off by ten."""
    return _pressure(s, Decimal("0.1"), same_number=False)


def m_date_dots(s: str) -> str | None:
    """ "30 April 2027" → "30.4.2027"; else "March 2029" → "03/2029"."""
    m = _DAY_MONTH_YEAR.search(s)
    if m is not None:
        month = _MONTHS.index(m.group(2)) + 1
        return s[: m.start()] + f"{int(m.group(1))}.{month}.{m.group(3)}" + s[m.end() :]
    m = _MONTH_YEAR.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{_MONTHS.index(m.group(1)) + 1:02d}/{m.group(2)}" + s[m.end() :]


def c_date_dots_month(s: str) -> str | None:
    """ "30 April 2027" → "30.5.2027"; "March 2029" → "04/2029": another month."""
    m = _DAY_MONTH_YEAR.search(s)
    if m is not None:
        month = _MONTHS.index(m.group(2)) + 2 if _MONTHS.index(m.group(2)) < 11 else 1
        return s[: m.start()] + f"{int(m.group(1))}.{month}.{m.group(3)}" + s[m.end() :]
    m = _MONTH_YEAR.search(s)
    if m is None:
        return None
    month = _MONTHS.index(m.group(1)) + 2 if _MONTHS.index(m.group(1)) < 11 else 1
    return s[: m.start()] + f"{month:02d}/{m.group(2)}" + s[m.end() :]


def c_date_dots_swapped(s: str) -> str | None:
    """ "30 April 2027" → "4.30.2027": month first, as America orders it (no such date
    in the dotted, day-first form; "4.3.2027" for 3 April would be 4 March)."""
    m = _DAY_MONTH_YEAR.search(s)
    if m is None:
        return None
    day, month = int(m.group(1)), _MONTHS.index(m.group(2)) + 1
    if day == month:
        return None
    return s[: m.start()] + f"{month}.{day}.{m.group(3)}" + s[m.end() :]


_PART_AMOUNT = re.compile(r"(?<![\d.,])(250|500|750) ?(ml|g|m)\b")
_PART_PERCENT = re.compile(r"(?<![\d.,])(25|50|75) ?% (extra|more)\b")
_PART_WORDS = {
    250: "a quarter of",
    500: "half",
    750: "three quarters of",
    25: "a quarter",
    50: "half",
    75: "three quarters",
}
_WHOLE = {"ml": "a litre", "g": "a kilogram", "m": "a kilometre"}


def _parts(s: str, pick: Callable[[int], str | None]) -> str | None:
    m = _PART_AMOUNT.search(s)
    if m is not None:
        words = pick(int(m.group(1)))
        return (
            None
            if words is None
            else s[: m.start()] + f"{words} {_WHOLE[m.group(2)]}" + s[m.end() :]
        )
    m = _PART_PERCENT.search(s)
    if m is None:
        return None
    words = pick(int(m.group(1)))
    return (
        None
        if words is None or words.endswith(" of")
        else s[: m.start()] + f"{words} {m.group(2)}" + s[m.end() :]
    )


def m_part_of_measure(s: str) -> str | None:
    """ "250 ml" → "a quarter of a litre"; "500 g" → "half a kilogram"; "25% extra" → "a quarter extra"."""
    return _parts(s, lambda n: _PART_WORDS[n])


def c_part_of_measure_other(s: str) -> str | None:
    """ "250 ml" → "half a litre"; "500 ml" → "a quarter of a litre": the other part."""
    other = {250: 500, 500: 250, 750: 500, 25: 50, 50: 25, 75: 25}
    return _parts(s, lambda n: _PART_WORDS[other[n]])


def c_part_of_measure_third(s: str) -> str | None:
    """ "250 ml" → "a third of a litre": no such equality."""
    return _parts(s, lambda n: "a third of" if n >= 250 else "a third")


_SUBJECT_AUX = re.compile(
    r"^(?P<s>(?:The|This|That|These|Those|Each|Every|All|Any|No) [a-z][\w-]*(?: [a-z][\w-]*)?) (?P<aux>will|may|can|must|should|is|are|does|do)"
    r"(?P<neg> not)? (?P<rest>[a-z].*?)(?P<any> in any case| under any circumstances| at any time)?(?P<end>[.!]?)$"
)
_NO = {
    " in any case": "In no case",
    " under any circumstances": "Under no circumstances",
    " at any time": "At no time",
}


def m_inverted_negative(s: str) -> str | None:
    """ "The firm will not refund travel in any case" → "In no case will the firm refund travel"."""
    m = _SUBJECT_AUX.match(s)
    if m is None or not m.group("neg") or not m.group("any"):
        return None
    subject = m.group("s")[0].lower() + m.group("s")[1:]
    return f"{_NO[m.group('any')]} {m.group('aux')} {subject} {m.group('rest')}{m.group('end')}"


def c_inverted_positive(s: str) -> str | None:
    """ "The firm will refund travel" → "In no case will the firm refund travel": negated."""
    m = _SUBJECT_AUX.match(s)
    if m is None or m.group("neg") or m.group("rest").startswith(("not ", "never ", "no ")):
        return None
    subject = m.group("s")[0].lower() + m.group("s")[1:]
    return f"In no case {m.group('aux')} {subject} {m.group('rest')}{m.group('any') or ''}{m.group('end')}"


_PASSIVE = re.compile(r"\b(is|are|was|were) ([a-z]{3,}ed)\b")


def m_is_to_be(s: str) -> str | None:
    """ "is reported" → "is to be reported"."""
    m = _PASSIVE.search(s)
    if m is None or m.group(1) not in ("is", "are"):
        return None
    return s[: m.start()] + f"{m.group(1)} to be {m.group(2)}" + s[m.end() :]


def c_was_to_be(s: str) -> str | None:
    """ "was reported" → "is to be reported": a done thing said as a rule to come."""
    m = _PASSIVE.search(s)
    if m is None or m.group(1) not in ("was", "were"):
        return None
    return (
        s[: m.start()]
        + f"{'is' if m.group(1) == 'was' else 'are'} to be {m.group(2)}"
        + s[m.end() :]
    )


def c_is_not_to_be(s: str) -> str | None:
    """ "is reported" → "is not to be reported": negated."""
    m = _PASSIVE.search(s)
    if m is None or m.group(1) not in ("is", "are"):
        return None
    return s[: m.start()] + f"{m.group(1)} not to be {m.group(2)}" + s[m.end() :]


PRESERVING_S11: dict[str, Callable[[str], str | None]] = {
    "present-perfect": m_present_perfect,
    "conjunct-pronoun": m_conjunct_pronoun,
    "range-in-words": m_range_words,
    "pressure-unit": m_pressure_unit,
    "date-dots-or-slash": m_date_dots,
    "part-of-measure": m_part_of_measure,
    "inverted-negative": m_inverted_negative,
    "is-to-be": m_is_to_be,
}
CHANGING_S11: dict[str, Callable[[str], str | None]] = {
    "present-perfect-negated": c_present_perfect_negated,
    "future-perfect": c_future_perfect,
    "conjunct-pronoun-never": c_conjunct_pronoun_never,
    "conjunct-pronoun-not": c_conjunct_pronoun_not,
    "range-words-high-changed": c_range_words_high,
    "range-words-low-changed": c_range_words_low,
    "pressure-unit-unconverted": c_pressure_unit_unconverted,
    "pressure-scale-off": c_pressure_scale,
    "date-dots-month-changed": c_date_dots_month,
    "date-dots-day-month-swapped": c_date_dots_swapped,
    "part-of-measure-other": c_part_of_measure_other,
    "part-of-measure-third": c_part_of_measure_third,
    "inverted-positive": c_inverted_positive,
    "was-to-be": c_was_to_be,
    "is-not-to-be": c_is_not_to_be,
}
