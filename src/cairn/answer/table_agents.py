""""by" and "from" before the value of a table's supplier or maker column (issue 12,
session 19b).

A row of ingredients or objects names who supplied or made each in a column of its own:
"| Wheat malt | Dunmore Grain | 18 kg |" under "| Ingredient | Supplier | Amount |",
"| The Pier at Night | Jonas Brekke | 1903 |" under "| object | artist | date |". A claim
restates the column with a preposition: "The wheat malt was supplied by Dunmore Grain",
"380 kg of pale malt from Fenwick Maltings", "an oil on panel by Jonas Brekke". In a
table reading only, "by" or "from" is read from the row when the word right after it
stands in the cell of a column whose header names a supplier or maker (the roles
below); anywhere else, or before another column's value ("supplied by wheat malt"), the
preposition stays unaccounted. Route columns (origin, destination) keep their own
reading (``table_rows._route_words``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.table_reading import read_row
from cairn.answer.tokens import AccountToken, _same, account_tokens

__all__ = ["agent_words"]

#: Headers of who supplied or made a row's thing: "from" and "by" both say it.
_SUPPLIERS = frozenset(
    ["supplier", "suppliers", "vendor", "vendors", "maker", "makers", "manufacturer",
     "manufacturers", "producer", "producers", "provider", "providers", "donor", "lender"]
)  # fmt: skip
#: Headers of who made or wrote it: "by" says it, "from" does not ("a painting from
#: Jonas Brekke" is no restatement of the artist column).
_MAKERS = frozenset(["artist", "artists", "author", "authors", "composer", "designer", "architect"])
_HEADS = {"from": _SUPPLIERS, "by": _SUPPLIERS | _MAKERS}


def agent_words(claim: Sequence[AccountToken], reading: str) -> set[int]:
    """Positions of the claim's "by"/"from" right before a word of a supplier or maker
    cell of the row ``reading``."""
    wanted = [
        i
        for i in range(len(claim) - 1)
        if claim[i].kind == "w" and claim[i].key in _HEADS and claim[i + 1].kind != "p"
    ]
    if not wanted:
        return set()
    columns = [
        ({t.key for t in account_tokens(c.header) if t.kind == "w"}, account_tokens(c.cell))
        for c in read_row(reading).columns
    ]
    return {
        i
        for i in wanted
        if any(
            head & _HEADS[claim[i].key] and any(_same(claim[i + 1], e) for e in cell)
            for head, cell in columns
        )
    }
