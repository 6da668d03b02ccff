"""A count of times per period read as an interval (issue 12, session 18b).

"once a week" = "every week" (= "every 7 days"), "twice a year" = "every 6 months",
"four times a year" = "every 3 months" (as "quarterly" already reads), "twice an hour" =
"every 30 minutes". Applied to claim and evidence alike, after :mod:`cairn.answer.spoken`
has written "once"/"twice"/"thrice" as "one time"/"two times"/"three times".

Exact arithmetic only: the period is divided into whole units of the next smaller
calendar unit (a year into 12 months, an hour into 60 minutes, a week into 7 days), and
a count that does not divide it stays as written ("twice a week" is no whole number of
days; "twice a month" no whole number of anything). Not the day: "three times a day" is
not "every 8 hours" (a dose taken with meals is not an 8-hour interval, pharmacy tells
"t.d.s." from "q8h"), and "once a day" is left too: a dose ("2 tablets once daily") read
as "2 tablets every day" is a rate, which a table row giving the dose and the frequency in
two cells does not state as one. Nothing is read after
"at least", "at most", "up to" or "no more than" ("at least once a week" is no
interval, and "every week" after "at least" would say something else).
"""

from __future__ import annotations

import re

__all__ = ["frequency_intervals"]

_COUNTS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
#: Per period: its smaller unit and how many of them it holds (None: only once).
_SPLIT: dict[str, tuple[str, int] | None] = {
    "year": ("months", 12),
    "hour": ("minutes", 60),
    "week": ("days", 7),
    "day": None,
    "month": None,
}
_ADVERB_PERIOD = {
    "yearly": "year", "annually": "year", "monthly": "month", "weekly": "week",
    "daily": "day", "hourly": "hour",
}  # fmt: skip
_TIMES_RE = re.compile(
    r"(?<![\w-])(?P<n>\d{1,2}|" + "|".join(_COUNTS) + r")\s+times?\s+"
    r"(?:(?:a|an|per|each|every)\s+(?P<period>year|month|week|day|hour)\b(?!s)"
    r"|(?P<adverb>" + "|".join(_ADVERB_PERIOD) + r")\b)",
    re.IGNORECASE,
)
_BOUND_RE = re.compile(r"(?:at\s+least|at\s+most|up\s+to|no\s+more\s+than|no\s+fewer\s+than|more\s+than|fewer\s+than|less\s+than)\s+$", re.IGNORECASE)


def _interval(m: re.Match[str]) -> str:
    if _BOUND_RE.search(m.string[: m.start()]):
        return m.group(0)
    raw = m.group("n").lower()
    n = int(raw) if raw.isdigit() else _COUNTS[raw]
    period = (m.group("period") or _ADVERB_PERIOD[m.group("adverb").lower()]).lower()
    if period == "day":
        return m.group(0)
    if n == 1:
        return f"every {period}"
    split = _SPLIT[period]
    if split is None or n < 1 or split[1] % n:
        return m.group(0)
    unit, size = split
    return f"every {size // n} {unit}"


def frequency_intervals(text: str) -> str:
    """``text`` with each count of times per period that divides it exactly read as
    "every <interval>"."""
    if "time" not in text.lower():
        return text
    return _TIMES_RE.sub(_interval, text)
