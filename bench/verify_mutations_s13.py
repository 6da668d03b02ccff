"""Session 13 generators of the verifier mutation harness (issue 12; registered by
:mod:`bench.verify_mutations`, kept here so that module does not grow): table cells
restated as sentences.

Every body row of every note's tables (the harness hands a table generator its header
line and the row) is restated by naming the row (its first cell) and one column (its
header) with that column's value; the column is chosen per row by a seeded draw, so every
column kind (amounts, durations, dates, names, yes/no cells) comes up across the notes.

* preserving (the verifier should say ``supported``): "The <header> of <label> is
  <value>." and "For <label>, the <header> is <value>.";
* changing (it must never say ``supported``): the same sentences with the value of a
  neighbour row in that column (the row above, else the row below: ``table-wrong-row``),
  and with the value of another column of the same row (``table-wrong-column``). A
  changing variant is made only when the substituted value differs from the right one and
  is not written anywhere in the row itself (then it would not be wrong), and the
  neighbour row has another name (two rows "Office block" make either value true).

Columns whose header holds a parenthesis ("Price (€)"), empty or dash cells and cells of
more than eight words are left out: their restatement is not a plain reading of the cell.
The neighbour rows are found by reading the notes once (the generator only gets one row).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

__all__ = ["CHANGING_S13", "PRESERVING_S13"]

_NOTES = Path(__file__).resolve().parent / "verify_set" / "notes"
_RULE = re.compile(r"\s*\|[\s|:-]+\|\s*")
_EMPTY = frozenset(["", "-", "–", "—", "n/a", "?"])


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


@lru_cache(maxsize=1)
def _tables() -> dict[str, list[list[str]]]:
    """Per "header\\nrow" key, the body rows (as cells) of the table it belongs to."""
    out: dict[str, list[list[str]]] = {}
    for path in sorted(_NOTES.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i in range(1, len(lines) - 1):
            if not (_RULE.fullmatch(lines[i]) and lines[i - 1].lstrip().startswith("|")):
                continue
            j = i + 1
            body = []
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                body.append(lines[j])
                j += 1
            rows = [_cells(r) for r in body]
            for r in body:
                out[f"{lines[i - 1]}\n{r}"] = rows
    return out


def _usable(head: str, cell: str) -> bool:
    return (
        bool(head)
        and "(" not in head
        and cell.lower() not in _EMPTY
        and len(cell.split()) <= 8
        and "|" not in cell
    )


def _pick(s: str) -> tuple[str, str, str, int, list[str], list[list[str]]] | None:
    """(label, header, value, column, row cells, table rows) for one seeded column."""
    if "\n" not in s:
        return None
    head_line, row_line = s.split("\n", 1)
    heads, row = _cells(head_line), _cells(row_line)
    rows = _tables().get(s)
    if rows is None or len(heads) != len(row) or len(heads) < 2 or not row[0]:
        return None
    cols = [k for k in range(1, len(heads)) if _usable(heads[k], row[k])]
    if not cols:
        return None
    k = random.Random(s).choice(cols)
    return row[0], heads[k], row[k], k, row, rows


def _the(head: str) -> str:
    return head[:1].lower() + head[1:] if head[:1].isupper() and not head[1:2].isupper() else head


def _of_form(label: str, head: str, value: str) -> str:
    return f"The {_the(head)} of {label} is {value}."


def _for_form(label: str, head: str, value: str) -> str:
    return f"For {label}, the {_the(head)} is {value}."


def _in_row(value: str, row: list[str]) -> bool:
    low = value.lower()
    return any(low in c.lower() or c.lower() in low for c in row if c)


def _neighbour_row_value(s: str) -> tuple[str, str, str] | None:
    found = _pick(s)
    if found is None:
        return None
    label, head, value, k, row, rows = found
    at = next((i for i, r in enumerate(rows) if r == row), None)
    if at is None:
        return None
    for j in (at - 1, at + 1):
        if 0 <= j < len(rows) and len(rows[j]) == len(row):
            other = rows[j][k]
            if rows[j][0].lower() == label.lower():
                continue  # two rows of one name ("Office block", first and second floor)
            if other.lower() not in _EMPTY and other != value and not _in_row(other, row):
                return label, head, other
    return None


def _neighbour_column_value(s: str) -> tuple[str, str, str] | None:
    found = _pick(s)
    if found is None:
        return None
    label, head, value, k, row, _rows = found
    for j in (k + 1, k - 1):
        if 1 <= j < len(row):
            other = row[j]
            if (
                other.lower() not in _EMPTY
                and other.lower() not in value.lower()
                and value.lower() not in other.lower()
            ):
                return label, head, other
    return None


def m_table_of(s: str) -> str | None:
    """"| Vega Book Air | ... | €1,150 |" under "Price" → "The price of Vega Book Air is €1,150."."""
    found = _pick(s)
    return None if found is None else _of_form(found[0], found[1], found[2])


def m_table_for(s: str) -> str | None:
    """→ "For Vega Book Air, the price is €1,150."."""
    found = _pick(s)
    return None if found is None else _for_form(found[0], found[1], found[2])


def c_table_wrong_row_of(s: str) -> str | None:
    """The value of the row above (or below) in that column: "The price of Vega Book Air is €1,490."."""
    found = _neighbour_row_value(s)
    return None if found is None else _of_form(*found)


def c_table_wrong_row_for(s: str) -> str | None:
    found = _neighbour_row_value(s)
    return None if found is None else _for_form(*found)


def c_table_wrong_column_of(s: str) -> str | None:
    """The value of the next (or previous) column of the same row under this header."""
    found = _neighbour_column_value(s)
    return None if found is None else _of_form(*found)


def c_table_wrong_column_for(s: str) -> str | None:
    found = _neighbour_column_value(s)
    return None if found is None else _for_form(*found)


_ION = re.compile(r"^(?:[A-Za-z]+ )*([A-Za-z]{4,})ion$")


def _participle(head: str) -> str | None:
    """"Inspection" → "inspected", "Brake inspection" → "inspected": the verb a claim
    makes of an "-ion" header (session 13, ``answer.table_headers``)."""
    m = _ION.match(head.strip())
    if m is None:
        return None
    stem = m.group(1).lower()
    return stem + "ed" if stem.endswith(("spect", "lect", "rect", "tect")) else None


def _verb_form(found: tuple[str, str, str] | None) -> str | None:
    if found is None:
        return None
    label, head, value = found
    verb = _participle(head)
    if verb is None or not re.match(r"(?:every|once|twice|daily|weekly|monthly|yearly|annually|on|at|in|by)\b", value, re.I):
        return None
    return f"{label} is {verb} {value}."


def m_table_derived_verb(s: str) -> str | None:
    """"| Sprinkler system | ... | every 3 months |" under "Inspection" → "Sprinkler
    system is inspected every 3 months." (only for a value read as a time: "every …")."""
    found = _pick(s)
    return None if found is None else _verb_form(found[:3])


def c_table_derived_verb_wrong_column(s: str) -> str | None:
    """The "-ion" column's verb with another column's value: "… is inspected every 10 years"."""
    found = _pick(s)
    other = _neighbour_column_value(s)
    if found is None or other is None:
        return None
    return _verb_form((found[0], found[1], other[2]))


def c_table_derived_verb_wrong_row(s: str) -> str | None:
    return _verb_form(_neighbour_row_value(s))


PRESERVING_S13: dict[str, Callable[[str], str | None]] = {
    "table-cell-of": m_table_of,
    "table-cell-for": m_table_for,
    "table-cell-derived-verb": m_table_derived_verb,
}
CHANGING_S13: dict[str, Callable[[str], str | None]] = {
    "table-wrong-row-of": c_table_wrong_row_of,
    "table-wrong-row-for": c_table_wrong_row_for,
    "table-wrong-column-of": c_table_wrong_column_of,
    "table-wrong-column-for": c_table_wrong_column_for,
    "table-derived-verb-wrong-column": c_table_derived_verb_wrong_column,
    "table-derived-verb-wrong-row": c_table_derived_verb_wrong_row,
}
