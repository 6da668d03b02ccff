"""The half of the day said once for a clock range written with minutes (issue 12,
session 17).

"下午4:00至4:30" is 16:00–16:30, as "下午3点至5点" is 15:00–17:00 (session 10, in
:mod:`cairn.answer.cjk_forms`): the half of the day before the first time holds for the
second when the second is later in the same half (its hour below 12, its time after the
first). "下午4:00至3:30" and "下午4:00至12:30" stay as written."""

from __future__ import annotations

import re

__all__ = ["half_day_minute_ranges"]

_HALVES = "오전|오후|上午|下午|午前|午後"
_RANGE_RE = re.compile(
    rf"({_HALVES})\s?(\d{{1,2}}):(\d{{2}})(\s?(?:至|到|~|～|-|–|—|から|부터 ?)\s?)(\d{{1,2}}):(\d{{2}})(?![\d:])"
)


def _range(m: re.Match[str]) -> str:
    h1, m1, h2, m2 = int(m.group(2)), int(m.group(3)), int(m.group(5)), int(m.group(6))
    if not (h2 < 12 and (h1, m1) < (h2, m2)):
        return m.group()
    return f"{m.group(1)}{m.group(2)}:{m.group(3)}{m.group(4)}{m.group(1)}{m.group(5)}:{m.group(6)}"


def half_day_minute_ranges(text: str) -> str:
    """``text`` with the half of the day repeated before the second time of a range."""
    return _RANGE_RE.sub(_range, text) if ":" in text else text
