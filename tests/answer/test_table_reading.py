"""The one row reader of the table modules (issue 12, session 19b)."""

from __future__ import annotations

from cairn.answer.table_reading import RowCell, read_row, write_row


def test_read_row_splits_and_writes_back() -> None:
    reading = "Item : Dry suit ; Hire price : £35 ; Note : ratio 1 : 2"
    row = read_row(reading)
    assert row.label == "Dry suit"
    assert row.heads == ["Item", "Hire price", "Note"]
    assert row.values == ["Dry suit", "£35", "ratio 1 : 2"]
    assert [c.header for c in row.columns] == ["Hire price", "Note"]
    assert row.text == reading


def test_a_row_read_without_its_header() -> None:
    row = read_row("Dry suit ; £35")
    assert row.heads == ["", ""]
    assert row.label == "Dry suit"
    assert not any(c.headed for c in row.cells)
    assert row.text == "Dry suit ; £35"


def test_write_row() -> None:
    assert write_row([RowCell("", "a", False), RowCell("H", "b", True)]) == "a ; H : b"
