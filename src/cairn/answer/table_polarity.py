"""The polarity of the table cells a claim reads (issue 12).

A table row is accounted cell by cell, and the glue of a row reading ("has", "is",
"with") may be added, so a claim can copy the words of a cell and leave out its "not"
("EU roaming is included with Tidewave" from "| Tidewave | not included |"), or read a
column by its header alone where the cell says the row lacks it ("Tidewave has EU
roaming" from "| EU roaming | – |"). Prose has gap checks for a dropped negation; a row
has none. So: every cell the claim reads, by a word of its value or by naming its
column, keeps its polarity. A cell that is negative (a negation word, or a value that
only says "no": "No", "none", "–", "✗", "n/a", "excluded") is read only by a claim that
is negated too.
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.table_reading import read_row
from cairn.answer.tokens import _NEGATIONS, AccountToken, _same, account_tokens

__all__ = ["negative_cell_read"]

#: Whole cell values that say the row lacks what its column names.
_NEGATIVE_VALUES = frozenset(
    {
        "no",
        "none",
        "nil",
        "n/a",
        "na",
        "false",
        "excluded",
        "unavailable",
        "not available",
        "not included",
        "not supported",
        "not allowed",
        "-",
        "–",
        "—",
        "✗",
        "✘",
        "×",
        "❌",
        "✕",
    }
)
#: Words of a column header a claim may leave out when it names the column.
_HEADER_FILLER = frozenset({"the", "a", "an", "of", "and", "for", "in", "on", "to", "with", "per"})
#: Claim words that negate besides :data:`_NEGATIONS` ("doesn't" is expanded to "not").
_CLAIM_NEGATIONS = _NEGATIONS | {"nothing", "nobody", "nowhere", "lack", "lacks", "lacking"}


def _negative(cell: str) -> bool:
    """The cell says "no": a negation word in it, or a whole value that means none."""
    value = " ".join(cell.lower().split()).strip(" .")
    if value in _NEGATIVE_VALUES:
        return True
    return any(t.kind == "w" and t.key in _NEGATIONS for t in account_tokens(cell))


def _names(header: str, claim: Sequence[AccountToken]) -> bool:
    """Every word of the column header is in the claim (header fillers aside)."""
    words = [t for t in account_tokens(header) if t.kind in ("w", "c") and t.key not in _HEADER_FILLER]
    return bool(words) and all(any(_same(c, e) for c in claim) for e in words)


def negative_cell_read(claim: Sequence[AccountToken], reading: str) -> str | None:
    """A reason when the claim, not negated, reads a negative cell of the row ``reading``
    ("Header : cell ; Header : cell", see ``evidence._table_reading``); else ``None``.

    A cell is read when a content word of its value is in the claim, or when the claim
    names its column and names no longer column that contains this one ("Roaming fee"
    read, not "Roaming")."""
    if any(t.kind == "w" and t.key in _CLAIM_NEGATIONS for t in claim):
        return None
    pairs = [(c.header, c.cell) for c in read_row(reading).cells]
    named = {at for at, (head, _cell) in enumerate(pairs) if at and _names(head, claim)}
    for at, (head, cell) in enumerate(pairs):
        if at == 0 or not _negative(cell):
            continue
        words = [
            t
            for t in account_tokens(cell)
            if t.kind in ("w", "c", "n") and t.key not in _NEGATIONS and t.key not in _HEADER_FILLER
        ]
        by_value = any(_same(c, e) for c in claim for e in words)
        longer = any(
            k != at and len(pairs[k][0]) > len(head) and set(head.lower().split()) <= set(pairs[k][0].lower().split())
            for k in named
        )
        if by_value or (at in named and not longer):
            return f"the {head.strip() or 'cell'} cell says {cell.strip()!r}"
    return None
