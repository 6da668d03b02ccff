"""Session 12 generators of the verifier mutation harness (issue 12; registered by
:mod:`bench.verify_mutations`, kept here so that module does not grow).

The classes come from the supported claims of test11/test12 that the verifier marked
*contradicted* (a conflict detector fired on a restatement) and from the in-definition
near-verbatim misses. Each has a meaning-preserving generator (the verifier should say
``supported``, and must never say ``contradicted``) and meaning-changing ones next to it
(it must never say ``supported``):

* two coordinated passive clauses with their agents in the other order: "It was written
  by A and approved by B" → "It was approved by B and written by A"; changed: the agents
  swapped between the verbs ("written by B and approved by A");
* a condition clause moved: "S if C." → "If C, S." and back; changed: the clause moved
  and a number inside the moved clause changed, and "S only if C." fronted as "If C, S.";
* a full date written day first with slashes: "18 July 2026" → "18/07/2026" (only where
  the day is above 12, so the form reads one way); changed: another day ("19/07/2026"),
  and a day of 12 or less written so (“04/01/2026” for 4 January: it reads as 1 April too);
* a period said as a word: "every 3 months" → "quarterly", "30 minutes" → "half an
  hour" ("30-minute" → "half-hour"), "3 months" → "a quarter of a year"; changed: the
  word for another count ("every 6 months" → "quarterly", "20 minutes" → "half an hour");
* a day range of one month in ISO dates: "from 14 to 17 June 2027" → "from 2027-06-14 to
  2027-06-17"; changed: the end day;
* two alternatives with the unit said once: "4 hours or 6 hours" → "4 or 6 hours" and
  back; changed: the second number;
* Korean: a date with dots ("2026년 10월 1일" → "2026.10.1.") and a Sino-Korean numeral
  before a counter ("30분" → "삼십 분"); changed: another day, another number;
* an amount of millions with its scale word: "£5,000,000" → "£5 million"; changed:
  another scale ("£5 billion", "£5 thousand").
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["CHANGING_S12", "PRESERVING_S12"]

# --------------------------------------------------------------------------- passives

_PARTICIPLE = r"(?:[a-z]+(?:ed|en|wn|ten|ne|nt))"
_PASSIVE_PAIR = re.compile(
    rf"\b(?P<aux>is|are|was|were|has been|have been|will be) (?P<v1>{_PARTICIPLE})"
    rf"(?P<m1>(?: [a-z]+){{0,3}}) by (?P<a1>[^;.]+?),? and (?P<v2>{_PARTICIPLE})"
    rf"(?P<m2>(?: [a-z]+){{0,3}}) by (?P<a2>[^;]+?)(?P<end>[.;]?)$"
)


def _passive_pair(s: str) -> re.Match[str] | None:
    m = _PASSIVE_PAIR.search(s)
    if m is None or " by " in m.group("a1") or " by " in m.group("a2"):
        return None
    a1, a2 = m.group("a1").strip(), m.group("a2").strip()
    if a1.lower() == a2.lower() or m.group("v1") == m.group("v2"):
        return None
    return m


def _joined(m: re.Match[str], first: tuple[str, str, str], second: tuple[str, str, str]) -> str:
    s = m.string
    v1, m1, a1 = first
    v2, m2, a2 = second
    sep = ", and " if "," in a1 else " and "
    return (
        s[: m.start()]
        + f"{m.group('aux')} {v1}{m1} by {a1}{sep}{v2}{m2} by {a2}{m.group('end')}"
    )


def m_passive_pair_swap(s: str) -> str | None:
    """"was written by A and approved by B" → "was approved by B and written by A"."""
    m = _passive_pair(s)
    if m is None:
        return None
    one = (m.group("v1"), m.group("m1"), m.group("a1").strip())
    two = (m.group("v2"), m.group("m2"), m.group("a2").strip())
    return _joined(m, two, one)


def c_passive_agents_swapped(s: str) -> str | None:
    """"was written by A and approved by B" → "was written by B and approved by A"."""
    m = _passive_pair(s)
    if m is None:
        return None
    a1, a2 = m.group("a1").strip(), m.group("a2").strip()
    return _joined(m, (m.group("v1"), m.group("m1"), a2), (m.group("v2"), m.group("m2"), a1))


def c_passive_pair_swap_agents_swapped(s: str) -> str | None:
    """The clauses in the other order and the agents crossed: "approved by A and written
    by B" for "written by A and approved by B"."""
    m = _passive_pair(s)
    if m is None:
        return None
    a1, a2 = m.group("a1").strip(), m.group("a2").strip()
    return _joined(m, (m.group("v2"), m.group("m2"), a1), (m.group("v1"), m.group("m1"), a2))


# --------------------------------------------------------------------------- conditions

_FINAL_IF = re.compile(r"^(?P<s>[A-Z][^;:]*?[a-z0-9)%]) if (?P<c>[^,;:]+?)\.$")
_FRONT_IF = re.compile(r"^If (?P<c>[^,;:]+), (?P<s>[a-z][^;:]*?)\.$")


def _lower_first(s: str) -> str | None:
    words = s.split()
    if len(words) < 2 or not words[0][:1].isupper() or not words[0][1:].islower():
        return None
    if words[1][:1].isupper() or words[0] in ("I",):
        return None  # a name ("Ms Carla Hughes must ...") keeps its capital
    return s[0].lower() + s[1:]


def _moved(s: str) -> tuple[str, str] | None:
    """(the sentence with its condition moved, the condition as it reads there)."""
    m = _FINAL_IF.match(s)
    if (
        m is not None
        and " if " not in m.group("s")
        and len(m.group("s").split()) >= 3
        and m.group("s").split()[-1].lower() not in ("only", "even", "as", "and", "or")
    ):
        head = _lower_first(m.group("s"))
        if head is None:
            return None
        return f"If {m.group('c')}, {head}.", m.group("c")
    m = _FRONT_IF.match(s)
    if m is not None and len(m.group("s").split()) >= 3:
        return f"{m.group('s')[0].upper()}{m.group('s')[1:]} if {m.group('c')}.", m.group("c")
    return None


def m_condition_moved(s: str) -> str | None:
    """"S if C." → "If C, S." and "If C, S." → "S if C."."""
    found = _moved(s)
    return None if found is None else found[0]


_DIGITS = re.compile(r"(?<![\d.,:/])(\d+)(?:\.(\d+))?(?![\d:/]|\.\d)")


def c_condition_moved_number(s: str) -> str | None:
    """The condition moved and a number inside it changed: "if EC rises above 4.5" →
    "If EC rises above 5.5, ..."."""
    found = _moved(s)
    if found is None:
        return None
    moved, cond = found
    m = _DIGITS.search(cond)
    if m is None:
        return None
    new_cond = cond[: m.start(1)] + str(int(m.group(1)) + 1) + cond[m.end(1) :]
    return moved.replace(cond, new_cond, 1)


_ONLY_IF = re.compile(r"^(?P<s>[A-Z][^;:,]*?[a-z0-9)%]) only if (?P<c>[^,;:]+?)\.$")


def c_only_if_fronted(s: str) -> str | None:
    """"S only if C." → "If C, S.": the condition no longer restricts."""
    m = _ONLY_IF.match(s)
    if m is None:
        return None
    head = _lower_first(m.group("s"))
    return None if head is None else f"If {m.group('c')}, {head}."


# --------------------------------------------------------------------------- dates

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]  # fmt: skip
_DMY = re.compile(r"\b(\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4})\b")


def _slashed(s: str, day_shift: int, want_unambiguous: bool) -> str | None:
    m = _DMY.search(s)
    if m is None:
        return None
    day, month = int(m.group(1)) + day_shift, _MONTHS.index(m.group(2)) + 1
    if not 1 <= day <= 28 or (day > 12 or day == month) != want_unambiguous:
        return None
    return s[: m.start()] + f"{day:02d}/{month:02d}/{m.group(3)}" + s[m.end() :]


def m_date_slashed(s: str) -> str | None:
    """"18 July 2026" → "18/07/2026" (a day above 12: the form reads one way only)."""
    return _slashed(s, 0, True)


def c_date_slashed_day(s: str) -> str | None:
    """"18 July 2026" → "19/07/2026"."""
    return _slashed(s, 1, True)


def c_date_slashed_ambiguous(s: str) -> str | None:
    """"4 January 2026" → "04/01/2026": also 1 April 2026 as America writes it."""
    return _slashed(s, 0, False)


# --------------------------------------------------------------------------- scales

_BIG = re.compile(r"(?<![\d.,])([€$£]?)(\d{1,3})((?:,000){2})(?![\d,.])")


def m_scale_word(s: str) -> str | None:
    """"£5,000,000" → "£5 million"."""
    m = _BIG.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)}{m.group(2)} million" + s[m.end() :]


def c_scale_word_other(s: str) -> str | None:
    """"£5,000,000" → "£5 billion"."""
    m = _BIG.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)}{m.group(2)} billion" + s[m.end() :]


def c_scale_word_dropped(s: str) -> str | None:
    """"£5,000,000" → "£5 thousand"."""
    m = _BIG.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)}{m.group(2)} thousand" + s[m.end() :]


# --------------------------------------------------------------------------- periods

_EVERY_MONTHS = re.compile(r"\bevery (\d+) months\b")


def _quarterly(s: str, keep: bool) -> str | None:
    m = _EVERY_MONTHS.search(s)
    if m is None or (m.group(1) == "3") != keep:
        return None
    return s[: m.start()] + "quarterly" + s[m.end() :]


def m_quarterly(s: str) -> str | None:
    """"every 3 months" → "quarterly"."""
    return _quarterly(s, True)


def c_quarterly_other(s: str) -> str | None:
    """"every 6 months" → "quarterly"."""
    return _quarterly(s, False)


_MINUTES = re.compile(r"\b(\d+)( minutes|-minute)\b")


def _half_hour(s: str, keep: bool) -> str | None:
    m = _MINUTES.search(s)
    if m is None or (m.group(1) == "30") != keep:
        return None
    return s[: m.start()] + ("half an hour" if m.group(2) == " minutes" else "half-hour") + s[m.end() :]


def m_half_hour(s: str) -> str | None:
    """"30 minutes" → "half an hour", "a 30-minute visit" → "a half-hour visit"."""
    return _half_hour(s, True)


def c_half_hour_other(s: str) -> str | None:
    """"20 minutes" → "half an hour"."""
    return _half_hour(s, False)


_MONTHS_N = re.compile(r"\b(\d+) months\b")


def _quarter_year(s: str, keep: bool) -> str | None:
    m = _MONTHS_N.search(s)
    if m is None or (m.group(1) == "3") != keep or s[: m.start()].endswith("every "):
        return None
    return s[: m.start()] + "a quarter of a year" + s[m.end() :]


def m_quarter_year(s: str) -> str | None:
    """"up to 3 months" → "up to a quarter of a year"."""
    return _quarter_year(s, True)


def c_quarter_year_other(s: str) -> str | None:
    """"up to 6 months" → "up to a quarter of a year"."""
    return _quarter_year(s, False)


_DAY_RANGE = re.compile(r"\b(\d{1,2}) to (\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4})\b")


def _iso_range(s: str, shift: int) -> str | None:
    m = _DAY_RANGE.search(s)
    if m is None:
        return None
    y, mo = m.group(4), _MONTHS.index(m.group(3)) + 1
    d1, d2 = int(m.group(1)), int(m.group(2)) + shift
    if not 1 <= d1 < d2 <= 28:
        return None
    return s[: m.start()] + f"{y}-{mo:02d}-{d1:02d} to {y}-{mo:02d}-{d2:02d}" + s[m.end() :]


def m_day_range_iso(s: str) -> str | None:
    """"from 14 to 17 June 2027" → "from 2027-06-14 to 2027-06-17"."""
    return _iso_range(s, 0)


def c_day_range_iso_end(s: str) -> str | None:
    """"from 14 to 17 June 2027" → "from 2027-06-14 to 2027-06-18"."""
    return _iso_range(s, 1)


_ALTERNATIVES = re.compile(
    r"\b(\d+) (hours|minutes|days|weeks|months|years|kg|km|litres) or (\d+) \2\b"
    r"|\b(\d+) or (\d+) (hours|minutes|days|weeks|months|years|kg|km|litres)\b"
)


def _alternatives(s: str, shift: int) -> str | None:
    m = _ALTERNATIVES.search(s)
    if m is None:
        return None
    if m.group(1) is not None:
        a, b, unit = m.group(1), int(m.group(3)) + shift, m.group(2)
        return s[: m.start()] + f"{a} or {b} {unit}" + s[m.end() :]
    a, b, unit = m.group(4), int(m.group(5)) + shift, m.group(6)
    return s[: m.start()] + f"{a} {unit} or {b} {unit}" + s[m.end() :]


def m_alternatives_unit_once(s: str) -> str | None:
    """"4 hours or 6 hours" → "4 or 6 hours", and back."""
    return _alternatives(s, 0)


def c_alternatives_other(s: str) -> str | None:
    """"4 hours or 6 hours" → "4 or 7 hours"."""
    return _alternatives(s, 1)


# --------------------------------------------------------------------------- Korean

_KO_DATE = re.compile(r"(\d{4})년 (\d{1,2})월 (\d{1,2})일")


def _ko_dots(s: str, shift: int) -> str | None:
    m = _KO_DATE.search(s)
    if m is None or not 1 <= int(m.group(3)) + shift <= 28:
        return None
    dot = "" if s[m.end() : m.end() + 1] == "." else "."
    return s[: m.start()] + f"{m.group(1)}.{int(m.group(2))}.{int(m.group(3)) + shift}{dot}" + s[m.end() :]


def m_ko_date_dots(s: str) -> str | None:
    """"2026년 10월 1일" → "2026.10.1."."""
    return _ko_dots(s, 0)


def c_ko_date_dots_day(s: str) -> str | None:
    """"2026년 10월 1일" → "2026.10.2."."""
    return _ko_dots(s, 1)


_KO_COUNT = re.compile(r"(?<![\d,.])([1-9]\d)(분|시간|원|명|개월)")
_SINO = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]


def _sino(n: int) -> str:
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _SINO[tens]) + "십" + _SINO[ones]


def _ko_sino(s: str, shift: int) -> str | None:
    m = _KO_COUNT.search(s)
    if m is None or int(m.group(1)) + shift > 99:
        return None
    return s[: m.start()] + f"{_sino(int(m.group(1)) + shift)} {m.group(2)}" + s[m.end() :]


def m_ko_sino_numeral(s: str) -> str | None:
    """"30분" → "삼십 분"."""
    return _ko_sino(s, 0)


def c_ko_sino_numeral_other(s: str) -> str | None:
    """"30분" → "사십 분"."""
    return _ko_sino(s, 10)


PRESERVING_S12: dict[str, Callable[[str], str | None]] = {
    "passive-pair-reordered": m_passive_pair_swap,
    "condition-moved": m_condition_moved,
    "date-slashed-day-first": m_date_slashed,
    "scale-word": m_scale_word,
    "quarterly": m_quarterly,
    "half-hour": m_half_hour,
    "quarter-of-a-year": m_quarter_year,
    "day-range-iso": m_day_range_iso,
    "alternatives-unit-once": m_alternatives_unit_once,
    "cjk-ko-date-dots": m_ko_date_dots,
    "cjk-ko-sino-numeral": m_ko_sino_numeral,
}
CHANGING_S12: dict[str, Callable[[str], str | None]] = {
    "passive-agents-swapped": c_passive_agents_swapped,
    "passive-reordered-agents-crossed": c_passive_pair_swap_agents_swapped,
    "condition-moved-number-changed": c_condition_moved_number,
    "only-if-fronted": c_only_if_fronted,
    "date-slashed-day-changed": c_date_slashed_day,
    "date-slashed-ambiguous": c_date_slashed_ambiguous,
    "scale-word-other": c_scale_word_other,
    "scale-word-thousand": c_scale_word_dropped,
    "quarterly-other-period": c_quarterly_other,
    "half-hour-other-minutes": c_half_hour_other,
    "quarter-of-a-year-other-months": c_quarter_year_other,
    "day-range-iso-end-changed": c_day_range_iso_end,
    "alternatives-other-number": c_alternatives_other,
    "cjk-ko-date-dots-day-changed": c_ko_date_dots_day,
    "cjk-ko-sino-numeral-other": c_ko_sino_numeral_other,
}
