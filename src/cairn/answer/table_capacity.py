"""A capacity verb before "up to" reads a table's maximum (issue 12, session 19b).

A row of limits says "| Floor block stacking | 1,200 kg | 1.8 m |" under "| Location |
Maximum pallet weight | Maximum pallet height |"; a claim restates it with a verb of
capacity and the maximum as "up to": "Floor block stacking allows pallets of up to
1,200 kg", "The Midweek package takes up to 100 guests". In a table reading only, the
verb (takes, allows, accepts, holds, seats, fits, carries, admits) and its "up to" are
read from the row when the quantity right after "up to" stands in a cell whose header
says maximum ("Maximum …", "Max …") or which itself says "up to". The quantity is still
bound to its own cell and row by :func:`cairn.answer.table_rows._table_binding`; "at
least", a minimum column, or a verb without "up to" stay unaccounted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.answer.table_reading import read_row
from cairn.answer.tokens import AccountToken, _same, account_tokens

__all__ = ["capacity_words"]

_CAPACITY_VERBS = frozenset(
    ["take", "takes", "allow", "allows", "accept", "accepts", "hold", "holds", "seat", "seats",
     "fit", "fits", "carry", "carries", "admit", "admits"]
)  # fmt: skip
_MAXIMUM_HEAD_RE = re.compile(r"\bmax(?:imum|\.|\b)", re.IGNORECASE)
_UP_TO_CELL_RE = re.compile(r"\s*up to\b", re.IGNORECASE)
#: How far after the verb its "up to" may stand ("allows pallets of up to", "takes
#: vessels with a length of up to").
_REACH = 5


def _maximum_cells(reading: str) -> list[tuple[tuple[AccountToken, ...], bool]]:
    """The row's maximum cells, each with whether the cell itself says "up to"."""
    return [
        (account_tokens(c.cell), bool(_UP_TO_CELL_RE.match(c.cell)))
        for c in read_row(reading).columns
        if _MAXIMUM_HEAD_RE.search(c.header) or _UP_TO_CELL_RE.match(c.cell)
    ]


def capacity_words(claim: Sequence[AccountToken], reading: str) -> set[int]:
    """Positions of a capacity verb of the claim and of the "up to" after it, when the
    quantity after "up to" is in a maximum cell of the row ``reading``."""
    out: set[int] = set()
    maxima: list[tuple[tuple[AccountToken, ...], bool]] | None = None
    for i, t in enumerate(claim):
        if t.kind != "w" or t.key not in _CAPACITY_VERBS:
            continue
        for j in range(i + 1, min(i + 1 + _REACH, len(claim) - 2)):
            if not (claim[j].key == "up" and claim[j + 1].key == "to" and claim[j + 2].kind == "n"):
                continue
            if maxima is None:
                maxima = _maximum_cells(reading)
            for cell, up_to in maxima:
                if any(_same(claim[j + 2], e) for e in cell):
                    # A cell that says "up to" itself binds the claim's "up to" to it.
                    out |= {i} if up_to else {i, j, j + 1}
                    break
            break
    return out
