"""A claim that names a column reads that column (issue 12, session 13).

A table row read as a sentence binds each value to its column by the header above it.
Before this, only a quantity was kept to its column, and only against another column of
the same dimension (``table_rows._other_column``): "The area of the quarter plot is £30"
was accounted by "| quarter plot | 60 m² | £30 |" under "| plot size | area | annual
rent |", every word of it being somewhere in the row. Now a claim that names a column
(every word of its header is in the claim) must also state something of that column's
cell; a value of another column said of it, or of another row, leaves the named column
unread and the claim is not accounted. What the cell states is its numbers when it has
any (a claim that names "Received" must give the received count), else its content
words, leaving out the words it shares with its header or the label. A header whose words all belong to the row's
label ("Office" under "Office") names the row, not a column. CJK claims keep their own
column reading (:func:`cairn.answer.cjk_table.cjk_named_columns`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.table_headers import abbreviations, derived_from
from cairn.answer.tokens import _QUALIFIERS, AccountToken, _same, account_tokens

__all__ = ["unread_column"]

#: Header words that name no column on their own ("Price per month": "price", "month").
_HEADER_FILLER = frozenset(
    {"the", "a", "an", "of", "and", "or", "for", "in", "on", "to", "with", "per", "&", "at", "by"}
)


#: A cell that only affirms what its column names (a negative cell keeps its polarity,
#: :mod:`cairn.answer.table_polarity`).
_AFFIRMATIVE = frozenset(
    {"yes", "y", "included", "✓", "✔", "available", "supported", "provided", "allowed"}
)


def _header_words(head: str) -> list[AccountToken]:
    """The words (and ordinals: "Second dose") by which a claim names a column."""
    return [t for t in account_tokens(head) if t.kind in ("w", "n") and t.key not in _HEADER_FILLER]


def _match(c: AccountToken, e: AccountToken) -> bool:
    return _same(c, e) or _as_written(c, e)


def _names(c: AccountToken, e: AccountToken, short: Sequence[str] = ()) -> bool:
    """The claim word ``c`` says the header word ``e``, or another form of it ("is
    inspected" for "Inspection", "arrives" for "arr.", see :mod:`cairn.answer.table_headers`)."""
    return (
        _match(c, e)
        or derived_from(c, e)
        or (e.key in short and c.kind == "w" and c.key.startswith(e.key) and len(c.key) > len(e.key))
    )


def unread_column(
    heads: Sequence[str], cells: Sequence[Sequence[AccountToken]], claim: Sequence[AccountToken]
) -> str | None:
    """The first column (not the row's label) that the claim names by its header but
    whose cell it says nothing of, as a reason; ``None`` when every named column is read."""
    if any(t.kind == "c" for t in claim) or len(heads) != len(cells) or not cells:
        return None
    label = [e for e in cells[0] if e.kind == "w"]
    words = {k: _header_words(heads[k]) for k in range(1, len(heads))}
    values = {k: _value(cells[k], [*words[k], *label]) for k in words}
    named = [
        k
        for k, ws in words.items()
        if ws
        and all(any(_names(c, e, abbreviations(heads[k])) for c in claim) for e in ws)
        and not all(any(_same(e, x) for x in label) for e in ws)  # the row's own name
    ]
    for k in named:
        # A header word the claim says only inside another named column's value names
        # nothing: "business" of "1 business day" under "Enterprise first response".
        others = [e for j in named if j != k for e in values[j]]
        free = [c for c in claim if not any(_match(c, o) for o in others)]
        if not all(any(_names(c, e, abbreviations(heads[k])) for c in free) for e in words[k]):
            continue
        moved = _copula_value_elsewhere(k, words[k], cells, claim, [*label, *_header_words(heads[0])], named)
        if moved:
            return f"the claim gives the column {heads[k].strip()!r} the value {moved!r} of another column"
        # The value is looked for outside the header's own words ("first" is no 1).
        said = {e.text.lower() for e in words[k]}
        spoken = [c for c in claim if c.text.lower() not in said]
        if all(e.text.lower() in _AFFIRMATIVE for e in values[k]):
            continue  # "Northwind has EU roaming" reads the cell "included" by its column
        numbers = [e for e in values[k] if e.kind == "n"]
        if values[k] and not any(_match(c, e) for c in spoken for e in numbers or values[k]):
            return f"the claim names the column {heads[k].strip()!r} but not its value"
    return None


_COPULAS = frozenset({"be:present", "be:past"})
_VALUE_STOPS = frozenset({"but", "while", "whereas"})


def _copula_value_elsewhere(
    k: int,
    header: Sequence[AccountToken],
    cells: Sequence[Sequence[AccountToken]],
    claim: Sequence[AccountToken],
    label: Sequence[AccountToken],
    named: Sequence[int],
) -> str | None:  # ``label``: the row's label words and its column's header words
    """Lead, session 13: "The launch cover of Yellow is senior crews" / "For POST, the
    path is Cancel an order" equate the named column with what follows the copula. A word
    of that value which the column's cell lacks and another cell of the row holds is that
    other column's value, however many words the two cells share."""
    body = [(i, c) for i, c in enumerate(claim) if c.kind == "p" or c.key not in _HEADER_FILLER]
    keys = [c for _, c in body]
    n = len(header)
    start = next(
        (s for s in range(len(keys) - n + 1) if all(_names(keys[s + m], header[m]) for m in range(n))),
        None,
    )
    if start is None:
        return None
    after = body[start + n - 1][0] + 1
    copula = next((i for i in range(after, len(claim)) if claim[i].key in _COPULAS), None)
    # Only "the H is V" / "the H of <the row> is V": between the header and the copula
    # nothing but filler and the row's own name, its label or the label column's header
    # ("of the large locker" for "large" under "locker size"; not "Fixed firmware 5.0.4 …
    # was released").
    # Session 19b: the label's own numbers name the row too ("weekly" of "weekly rover").
    named_by = [*label, *(e for e in cells[0] if e.kind != "p")]
    if copula is None or not all(
        c.kind == "p" or c.key in _HEADER_FILLER or any(_match(c, e) for e in named_by)
        for c in claim[after:copula]
    ):
        return None
    value: list[AccountToken] = []
    for c in claim[copula + 1:]:
        if c.kind == "p" or c.key in _COPULAS or (c.kind == "w" and c.key in _VALUE_STOPS):
            break  # a value's list goes on after "and"; a clause of its own does not
        if c.kind in ("w", "n") and c.key not in _HEADER_FILLER and c.key not in _QUALIFIERS:
            value.append(c)
    own = cells[k]
    # A value of a column the claim also names is not taken from a column it left out.
    others = [e for j in range(1, len(cells)) if j != k and j not in named for e in cells[j]]
    for c in value:
        if any(_match(c, e) for e in [*header, *label]) or any(_match(c, e) for e in own):
            continue
        if any(_match(c, e) for e in others):
            return c.text
    return _whole_cell_elsewhere(value, cells, k, named)


def _cell_words(cell: Sequence[AccountToken]) -> list[AccountToken]:
    return [e for e in cell if e.kind in ("w", "n", "c") and e.key not in _HEADER_FILLER and e.key not in _QUALIFIERS]


def _whole_cell_elsewhere(
    value: Sequence[AccountToken], cells: Sequence[Sequence[AccountToken]], k: int, named: Sequence[int]
) -> str | None:
    """Session 19b: the value is, word for word, another column's whole cell and leaves
    part of the named column's cell unsaid: "The path of POST is Cancel an order" gives
    the Path column the Purpose cell "Cancel an order", although "cancel" and "order" are
    also words of the path "/v2/orders/{id}/cancel"."""
    own = _cell_words(cells[k])
    if not value or all(any(_match(c, e) for c in value) for e in own):
        return None
    for j in range(1, len(cells)):
        theirs = _cell_words(cells[j])
        if j == k or j in named or not theirs:
            continue
        if all(any(_match(c, e) for e in theirs) for c in value) and all(
            any(_match(c, e) for c in value) for e in theirs
        ):
            return " ".join(c.text for c in value)
    return None


def _value(cell: Sequence[AccountToken], named: Sequence[AccountToken]) -> list[AccountToken]:
    """What a cell states: its numbers and content words, without the words it shares
    with its header or the row's label ("yellow flammables cabinet" under "cabinet" states
    "yellow flammables"), nor a quantifier ("every exit" and "every 6 months" share
    nothing) unless that is all the cell says ("planned", "any")."""
    own = [
        e
        for e in cell
        if e.kind != "p"
        and e.key not in _HEADER_FILLER
        and not any(_same(e, x) if x.kind == "w" else _as_written(e, x) for x in named)
    ]
    return [e for e in own if e.key not in _QUALIFIERS] or own


def _as_written(c: AccountToken, e: AccountToken) -> bool:
    """The same word read two ways: "second" alone is a word, in "the second floor" an
    ordinal."""
    return c.text.lower() == e.text.lower()
