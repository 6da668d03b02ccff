"""Numbers glued to letters, for the claim account (issue 12, session 7).

The shared tokenizer (:mod:`cairn.text.tokens`) reads a number glued to letters whole and
then the letters ("12kg" → 12, kg), but it knows neither units nor identifiers: "Unit 4B",
"4G", "5xx" would be a number and a word, matched apart. (Before session 7 it dropped the
number altogether, or kept a wrong one: "10km" read as 1.) Here such a token is read as
what it is before the account is cut:

* a number glued to a unit of :mod:`cairn.answer.normalise` ("10km", "200ml", "2GB",
  "1.5h", "30s") is spaced ("10 km"), so it is the same quantity as "10 km" or
  "0.01 km"... compared after exact conversion;
* anything else ("4B", "4G/LTE", "5xx", "6in", "10degree", "1e-9", "2FA", "3D", a decade
  "1990s") is one identifier, matched only as written (case aside).

Ordinals ("3rd", "21st") are left to the tokenizer, which reads them as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cairn.answer.normalise import _DATA_UNITS, _RATE_UNITS, _UNIT_TABLE

__all__ = ["glued_pieces"]

_GLUED_RE = re.compile(
    r"(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<tail>[A-Za-zµμ][\w]*)(?![\w])"
)
_ORDINAL_TAILS = frozenset(["st", "nd", "rd", "th"])
#: Glued tails that are no unit although a table lists them: "4B" is a unit or a flat
#: number more often than 4 bytes, "4G" a network generation.
_NOT_GLUED_UNITS = frozenset(["B", "b", "G", "g", "T", "t", "W", "w", "m", "M", "l", "L", "s"])


def _unit(tail: str, num: str) -> bool:
    if tail in _NOT_GLUED_UNITS:
        # "30s" is 30 seconds, but "1990s" a decade and "4B" no quantity: a bare one-letter
        # tail is a unit only for seconds after a short number ("30s", "2.5s").
        return tail == "s" and len(num.split(".")[0]) <= 3 and "," not in num
    return tail in _DATA_UNITS or tail in _RATE_UNITS or tail.lower() in _UNIT_TABLE


def glued_pieces(text: str) -> Iterator[tuple[str, bool]]:
    """``text`` cut into (piece, is_identifier): plain pieces (with glued units spaced)
    and identifiers such as "4B" or "5xx", in order."""
    pos = 0
    plain: list[str] = []
    for m in _GLUED_RE.finditer(text):
        tail, num = m.group("tail"), m.group("num")
        if tail.lower() in _ORDINAL_TAILS:
            continue
        plain.append(text[pos : m.start()])
        pos = m.end()
        if _unit(tail, num):
            plain.append(f"{num} {tail}")
            continue
        if plain:
            yield "".join(plain), False
            plain = []
        yield m.group(), True
    plain.append(text[pos:])
    yield "".join(plain), False
