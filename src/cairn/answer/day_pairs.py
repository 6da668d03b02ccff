"""Two consecutive days joined by "and" read as the range of the two (issue 12, session 17).

"on 2027-04-24 and 2027-04-25" and "on 24–25 April 2027" name the same two calendar
days; the range's dash leaves no token, so the "and" between two date tokens is dropped
when the second day is the day after the first (computed on the calendar, across a
month or year end). Two days further apart keep their "and": "24 and 26 April" is not
"24–26 April", which holds the 25th too."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

__all__ = ["consecutive_day_pairs"]

_DATE_KEY_RE = re.compile(r"d(\d{4})(\d{2})(\d{2})")


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


T = TypeVar("T", bound=_Keyed)


def _day(key: str) -> dt.date | None:
    m = _DATE_KEY_RE.fullmatch(key)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def consecutive_day_pairs(toks: Sequence[T]) -> list[T]:
    """``toks`` without the "and" between a date token and the next calendar day's."""
    out: list[T] = []
    for i, t in enumerate(toks):
        if t.key == "and" and 0 < i < len(toks) - 1:
            a, b = _day(toks[i - 1].key), _day(toks[i + 1].key)
            if a is not None and b is not None and b - a == dt.timedelta(days=1):
                continue
        out.append(t)
    return out
