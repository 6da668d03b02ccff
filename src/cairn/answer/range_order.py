"""A change stated with its two ends in the other order (issue 12).

"The band was extended to 7 hours from 5 hours" states what "The band was extended from
5 hours to 7 hours" states: each value keeps its own preposition ("from" the old one,
"to" the new one); only the two phrases trade places. :func:`from_first` gives the
claim with such a "to X from Y" pair written "from Y to X", which the strict account
then reads like any other claim (so "to 5 hours from 7 hours" still fails: the values
change prepositions). The values must be numbers or quantities (with an optional
"version" and a currency sign or unit), so no clause is ever moved.
"""

from __future__ import annotations

import re

__all__ = ["from_first"]

_VALUE = (
    r"(?:(?:version|v\.?)\s*)?[€£$¥]?\d(?:[\d.,:]*\d)?"
    r"(?:\s?(?!(?:from|to|after|before|in|on|at|by|and|or|for|of|per|with|than|the|a|an|is|are|was|were|then|while)\b)[A-Za-z°µ/%€£$]+(?:/[A-Za-z]+)?)?"
)
_TO_FROM_RE = re.compile(
    rf"\bto\s+(?P<new>{_VALUE})\s+from\s+(?P<old>{_VALUE})(?=[\s,;.!?)]|$)", re.IGNORECASE
)


def from_first(claim_text: str) -> str | None:
    """The claim with its "to X from Y" written "from Y to X", or None without one."""
    if not _TO_FROM_RE.search(claim_text):
        return None
    return _TO_FROM_RE.sub(lambda m: f"from {m.group('old')} to {m.group('new')}", claim_text)
