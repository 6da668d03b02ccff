"""Claim words that restate a table's header or heading in another word form (issue 12,
session 13).

A claim that reads a row as a sentence often turns the column's noun into the verb it
names: "The sprinkler system is inspected every 3 months" for the Inspection cell, "is
insured for €650,000" for "insurance value", "arrives at Lindenfield at 08:55" for
"Lindenfield arr.", "recycling is collected on Friday" under "## Collection days by
zone". Such a word is accounted by the header (or the heading above the table) when both
are forms of one word: their light stems agree on at least five letters, or the shorter
stem of four letters or more is a prefix of the other, or the header word is an
abbreviation with a full stop ("arr.", "dep.") that the claim word begins with. Nothing
else of a row is read this way, and the value the word introduces is still bound to the
column that header names (:func:`cairn.answer.table_columns.unread_column` counts a
derived word as naming its column).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.answer.table_reading import read_row
from cairn.answer.tokens import _EXACT_ONLY, AccountToken, _same, account_tokens

__all__ = ["abbreviations", "derived_from", "header_derived"]

_ABBREVIATION_RE = re.compile(r"\b([A-Za-z]{3,5})\.(?=\s|$)")


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def derived_from(word: AccountToken, header: AccountToken) -> bool:
    """``word`` and ``header`` are forms of one word ("inspected", "Inspection")."""
    if word.kind != "w" or header.kind != "w" or word.key in _EXACT_ONLY:
        return False
    a, b = word.stem, header.stem
    if not (a.isalpha() and b.isalpha()):
        return False
    n = _common(a, b)
    return n >= 5 or (n >= 4 and n == min(len(a), len(b)))


def abbreviations(text: str) -> list[str]:
    """The abbreviated words of a header, without their full stop: "arr" of "Lindenfield arr."."""
    return [m.group(1).lower() for m in _ABBREVIATION_RE.finditer(text)]


def header_derived(claim: Sequence[AccountToken], reading: str, heading: str) -> set[int]:
    """Positions of the claim words not in the row reading that are another form of a
    word of one column's header, when the claim states that column's value (numbers when
    the cell has any: "Minibus is inspected every 8,000 km" is not read from the cell
    under "Brake inspection"), or of the heading above the table, when the claim names a
    column by its whole header (its value is then bound by ``unread_column``)."""
    pairs = [(c.header, c.cell) for c in read_row(reading).cells if c.headed]
    if not pairs:
        return set()
    said = {x for t in account_tokens(reading) for x in (t.key, t.stem)}
    columns = [(account_tokens(h), account_tokens(c)) for h, c in pairs[1:]]
    titled = [t for t in account_tokens(heading) if t.kind == "w"]
    names_column = any(_whole_header(head, claim) for head, _cell in columns)
    out = set()
    for i, t in enumerate(claim):
        if t.kind != "w" or t.key in said or t.stem in said or not t.text.isalpha():
            continue
        rest = [c for j, c in enumerate(claim) if j != i]
        from_columns = [
            (head, cell)
            for (head, cell), (h_text, _c) in zip(columns, pairs[1:], strict=True)
            if any(derived_from(t, h) for h in head) or _abbreviated(t, h_text)
        ]
        if len(from_columns) > 1:
            # "arrives" is a form of every "<stop> arr." header: the claim's stop says which.
            from_columns = [(h, c) for h, c in from_columns if _whole_header(h, claim, but=t)]
        if any(_states(rest, cell) for _head, cell in from_columns) or (
            names_column and any(derived_from(t, h) for h in titled)
        ):
            out.add(i)
    return out


def _abbreviated(t: AccountToken, head: str) -> bool:
    return any(t.key.startswith(a) and len(t.key) > len(a) for a in abbreviations(head))


def _states(claim: Sequence[AccountToken], cell: Sequence[AccountToken]) -> bool:
    """The claim gives the cell's number (or, in a cell without one, one of its words)."""
    own = [e for e in cell if e.kind != "p"]
    numbers = [e for e in own if e.kind == "n"]
    return any(_same(c, e) for c in claim for e in numbers or own)


_FILLER = frozenset({"the", "a", "an", "of", "and", "or", "for", "in", "on", "to", "with", "per", "&"})


def _whole_header(
    head: Sequence[AccountToken], claim: Sequence[AccountToken], but: AccountToken | None = None
) -> bool:
    """Every word of the header is in the claim (``but`` the words ``but`` is a form of)."""
    words = [
        e
        for e in head
        if e.kind == "w"
        and e.key not in _FILLER
        and not (but is not None and (derived_from(but, e) or but.key.startswith(e.key)))
    ]
    return bool(words) and all(any(_same(c, e) for c in claim) for e in words)
