"""Quantities said in words, written as numbers before a text is tokenised (issue 12).

Exact equivalences only, applied to claim and evidence alike:

* a fraction of a time unit: "half an hour" = "a half hour" = "a half-hour" = 30
  minutes, "a quarter of an hour" = "a quarter-hour" = 15 minutes, "three quarters of an
  hour" = 45 minutes, "half a day" = 12 hours, "half a year" = 6 months, "a quarter of a
  year" = 3 months, "2 and a half hours" = 2.5 hours ("two and a half hours" and "an hour
  and a half" too, session 18b);
* a count of times: "once a day" = "one time a day", "twice" = "two times", "thrice" =
  "three times" ("once" alone is also the conjunction, "once the form is signed": only
  before a period or "more"); and a count that divides its period exactly as an interval
  (session 18b, :mod:`cairn.answer.frequencies`): "once a week" = "every week", "twice a
  year" = "every 6 months";
* a clock time written with a dot and am/pm: "5.30 pm" = 17:30;
* a fortnight: "every fortnight" = "fortnightly" = every 2 weeks, "a fortnight" = 2
  weeks, "3 fortnights" = 6 weeks (session 8);
* a half or quarter of a measure (session 11): "a quarter of a litre" = 0.25 litres =
  250 ml, "half a kilogram" = 0.5 kilograms, "three quarters of a mile" = 0.75 miles;
  and a quarter or half more of something: "a quarter extra time" = "25% extra time",
  "half more" = "50% more". No thirds: a third has no exact decimal;
* noon as a clock time (session 17): "at noon" = "at 12 noon" = "at midday" = "at 12:00"
  after a preposition of time ("by", "until", "from" ...); "midnight" is left alone (00:00
  or 24:00);
* a quarter of a whole as a percentage (session 17): "three-quarters of each plot" =
  "75% of each plot", "a quarter of all sites" = "25% of all sites" ("a quarter of an
  hour" is a duration, above). Not "half": "half the rent" and "half rent" (an article
  dropped) must stay alike, and "half" before a bare noun is no share of a whole.
"""

from __future__ import annotations

import re

from cairn.answer.frequencies import frequency_intervals

__all__ = ["spoken_quantities"]

_HALF_OF = {
    "minute": "30 seconds",
    "hour": "30 minutes",
    "day": "12 hours",
    "year": "6 months",
}
_HALF_RE = re.compile(
    r"\b(?:(?:a|one)\s+)?half(?:\s+|-)(?:(?:an?)\s+)?(minute|hour|day|year)\b(?!s)", re.IGNORECASE
)
_QUARTER_RE = re.compile(
    r"\b(?:(a|one|three)\s+)?quarters?(?:\s+of\s+an?\s+|-)(hour|day|year)\b(?!s)", re.IGNORECASE
)
#: A quarter and three quarters of a time unit (session 12: "a quarter of a year").
_QUARTER_OF = {
    "hour": ("15 minutes", "45 minutes"),
    "day": ("6 hours", "18 hours"),
    "year": ("3 months", "9 months"),
}
_AND_A_HALF_RE = re.compile(
    r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+and\s+a\s+half\s+"
    r"(minutes|hours|days|weeks|months|years)\b",
    re.IGNORECASE,
)
_WORD_COUNTS = {w: str(i) for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"])}
#: Session 18b: "an hour and a half" = "1.5 hours", "a day and a half" = "1.5 days".
_UNIT_AND_A_HALF_RE = re.compile(
    r"\b(?:an?|one)\s+(minute|hour|day|week|month|year)\s+and\s+a\s+half\b", re.IGNORECASE
)


def _and_a_half(m: re.Match[str]) -> str:
    n = m.group(1).lower()
    return f"{_WORD_COUNTS.get(n, n)}.5 {m.group(2)}"
_MEASURES = r"(litre|liter|metre|meter|kilogram|kilometre|kilometer|gram|tonne|mile)"
_PART_OF_RE = re.compile(
    r"\b(?:(a|one|three)\s+quarters?\s+of|(?:(?:a|one)\s+)?half(?:\s+of)?)\s+an?\s+" + _MEASURES + r"\b(?!s)",
    re.IGNORECASE,
)
_PART_MORE_RE = re.compile(r"\b(?:(a|one|three)\s+quarters?|half)\s+(extra|more)\b", re.IGNORECASE)
_TIMES = {"twice": "two times", "thrice": "three times"}
_TIMES_RE = re.compile(r"\b(twice|thrice)\b", re.IGNORECASE)
_ONCE_RE = re.compile(
    r"\bonce(?=\s+(?:a|an|per|every|each|more|daily|weekly|monthly|yearly|annually)\b)",
    re.IGNORECASE,
)
_DOT_CLOCK_RE = re.compile(r"\b(1[0-2]|0?[1-9])\.([0-5]\d)(\s?[ap]\.?m\.?)(?![a-z])", re.IGNORECASE)


_NOON_RE = re.compile(
    r"\b(at|by|until|till|before|after|from|to|between|and)\s+(?:12\s+)?(?:noon|midday)\b(?!-)",
    re.IGNORECASE,
)
_SHARE_RE = re.compile(r"\b(a|one|three)[\s-]quarters?\s+of\s+(?!an?\b)", re.IGNORECASE)


def _share(m: re.Match[str]) -> str:
    return f"{int(float(_part(m)) * 100)}% of "


_FORTNIGHTLY_RE = re.compile(r"\bfortnightly\b", re.IGNORECASE)
_FORTNIGHTS_RE = re.compile(r"\b(\d+)\s+fortnights\b", re.IGNORECASE)
_FORTNIGHT_RE = re.compile(r"\b(?:(?:a|one)\s+)?fortnight\b(?!s)", re.IGNORECASE)


def _fortnights(text: str) -> str:
    text = _FORTNIGHTLY_RE.sub("every 2 weeks", text)
    text = _FORTNIGHTS_RE.sub(lambda m: f"{2 * int(m.group(1))} weeks", text)
    return _FORTNIGHT_RE.sub("2 weeks", text)


def _quarter(m: re.Match[str]) -> str:
    one, three = _QUARTER_OF[m.group(2).lower()]
    return three if (m.group(1) or "").lower() == "three" else one


def _part(m: re.Match[str]) -> str:
    """0.25, 0.75 or 0.5: "a quarter", "three quarters" or "half" of what follows."""
    if m.group(1) is None:
        return "0.5"
    return "0.75" if m.group(1).lower() == "three" else "0.25"


def _part_of(m: re.Match[str]) -> str:
    return f"{_part(m)} {m.group(2)}s"


def _part_more(m: re.Match[str]) -> str:
    return f"{int(float(_part(m)) * 100)}% {m.group(2)}"


def spoken_quantities(text: str) -> str:
    """``text`` with the spoken quantities above written as numbers."""
    low = text.lower()
    if "half" in low:
        text = _AND_A_HALF_RE.sub(_and_a_half, text)
        text = _UNIT_AND_A_HALF_RE.sub(lambda m: f"1.5 {m.group(1)}s", text)
        text = _HALF_RE.sub(lambda m: _HALF_OF[m.group(1).lower()], text)
    if "quarter" in low:
        text = _QUARTER_RE.sub(_quarter, text)
    if "quarter" in low or "half" in low:
        text = _PART_MORE_RE.sub(_part_more, _PART_OF_RE.sub(_part_of, text))
    if "quarter" in low:
        text = _SHARE_RE.sub(_share, text)
    if "noon" in low or "midday" in low:
        text = _NOON_RE.sub(r"\1 12:00", text)
    if "twice" in low or "thrice" in low:
        text = _TIMES_RE.sub(lambda m: _TIMES[m.group(1).lower()], text)
    if "once" in low:
        text = _ONCE_RE.sub("one time", text)
    if "once" in low or "twice" in low or "thrice" in low or "times" in low:
        text = frequency_intervals(text)  # session 18b: "twice a year" = "every 6 months"
    if "fortnight" in low:
        text = _fortnights(text)
    if "m" in low and "." in text:
        text = _DOT_CLOCK_RE.sub(r"\1:\2\3", text)
    return text
