"""A table cell that says "none" read as "no <column>" (issue 12, session 18b).

"| Advanced Open Water | 12 years | 0 | 5 |" under "| course | minimum age | pool
sessions | open-water dives |" says the course has no pool sessions; a claim that reads
the row says so with "no" before the column's name ("has no pool sessions", "with no
suspension", "needs no deposit"). Each row whose cells include such a value ("0", "none",
"nil", "no", a dash) is also read (a unit of its own, as the rate reading is) with that
cell written "no <header>" ("pool sessions : no pool sessions"). "n/a" is not read so (not
applicable is not none).

Pairing: a table is accounted as a set of words, so "5 pool sessions and no open-water
dives" would find every word in that reading. :func:`unpaired_none` refuses a claim whose
"no" is not right before the words of such a column's header, or that names such a column
without "no" before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.answer.table_reading import RowCell, read_row, write_row
from cairn.answer.tokens import AccountToken, _same, account_tokens

__all__ = ["none_reading", "unpaired_none"]

_NONE_CELL_RE = re.compile(r"\s*(?:0|none|nil|no|-|–|—)\s*", re.IGNORECASE)
_FILLER = frozenset({"the", "a", "an", "of", "and", "or", "for", "in", "on", "to", "with", "per", "&", "at", "by"})


def _restated(pair: RowCell) -> RowCell:
    head, cell = pair.header, pair.cell
    if pair.headed and head.strip() and _NONE_CELL_RE.fullmatch(cell) and re.search(r"[A-Za-z]", head):
        return RowCell(head, f"no {head.strip()}", True)
    return pair


def none_reading(reading: str) -> str:
    """The row reading ``"Header : cell ; ..."`` with each none cell (but the label's)
    written "no <header>"; ``reading`` itself when it has none."""
    pairs = read_row(reading).cells
    if len(pairs) < 2:
        return reading
    return write_row([pairs[0], *(_restated(p) for p in pairs[1:])])


def _words(head: str) -> list[AccountToken]:
    return [t for t in account_tokens(head) if t.kind == "w" and t.key not in _FILLER]


def unpaired_none(claim: Sequence[AccountToken], reading: str) -> str | None:
    """A reason when the claim's "no" and the none columns of ``reading`` (as
    :func:`none_reading` wrote them) are not paired word for word; else ``None``."""
    heads: list[list[AccountToken]] = []
    for pair in read_row(reading).columns:
        name, cell = pair.header, pair.cell
        if pair.headed and cell.strip() == f"no {name.strip()}":
            heads.append(_words(name))
    if not heads:
        return None
    words = [t for t in claim if t.kind != "p" and t.key not in _FILLER]
    nos = [i for i, t in enumerate(words) if t.key == "no"]
    for head in heads:
        if not head:
            continue
        starts = [
            i
            for i in range(len(words) - len(head) + 1)
            if all(_same(words[i + k], h) for k, h in enumerate(head))
        ]
        named = bool(starts) or all(any(_same(c, h) for c in words) for h in head)
        if named and not any(i - 1 in nos for i in starts):
            return f"the claim names {' '.join(h.text for h in head)!r} without its 'no'"
    for i in nos:
        after = words[i + 1 :]
        if not any(
            len(after) >= len(head) and all(_same(after[k], h) for k, h in enumerate(head))
            for head in heads
            if head
        ):
            return "its 'no' is before no column the row says none of"
    return None
