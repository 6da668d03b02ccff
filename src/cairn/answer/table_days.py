"""A weekday in the plural for a table's weekday cell (issue 12, session 18b).

A timetable or price list says "| Saturday | 08:30, 13:15 |" or "| Barn Classic |
Saturday | £8,900 |": the row holds for every Saturday, and a claim says so in the plural
("On Saturdays the ferry leaves at 08:30", "is for Saturdays"). In a table reading only,
the claim's plural weekday is read as the singular when a cell of the row names that
weekday and holds no number (no date: "| Wednesday 13 October 2027 |" is one day, and
"on Wednesdays" is not read from it). Prose keeps the plural as written.
"""

from __future__ import annotations

import re

from cairn.answer.table_reading import read_row

__all__ = ["weekday_singulars"]

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_PLURAL_RE = re.compile(r"\b(" + "|".join(_DAYS) + r")s\b", re.IGNORECASE)
_DAY_RE = re.compile(r"\b(" + "|".join(_DAYS) + r")\b", re.IGNORECASE)


def _undated_days(reading: str) -> set[str]:
    out: set[str] = set()
    for cell in read_row(reading).values:
        if any(ch.isdigit() for ch in cell):
            continue
        out.update(m.group(1).lower() for m in _DAY_RE.finditer(cell))
    return out


def weekday_singulars(claim_text: str, reading: str) -> str:
    """``claim_text`` with each plural weekday that an undated cell of the row ``reading``
    names written in the singular."""
    if not reading or _PLURAL_RE.search(claim_text) is None:
        return claim_text
    days = _undated_days(reading)
    return _PLURAL_RE.sub(lambda m: m.group(1) if m.group(1).lower() in days else m.group(0), claim_text)
