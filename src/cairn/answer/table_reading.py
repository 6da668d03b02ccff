"""One table row as the verifier reads it (issue 12, session 19b).

:mod:`cairn.answer.evidence` reads a table row with its header as one line, "Header : cell ;
Header : cell" (the first cell is the row's label); a row whose cell count differs from its
header's is read as its cells alone, "cell ; cell". The table modules of
:mod:`cairn.answer` (row binding, columns, none cells, polarity, costs, weekdays, conflicts)
each read that line back into cells; this is the one place that writes and splits it, so
that a change of the format changes one module.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RowCell", "RowReading", "read_row", "write_row"]

_CELL_SEP = " ; "
_HEAD_SEP = " : "


@dataclass(frozen=True)
class RowCell:
    """One cell of a row reading: ``header`` is the text before the first " : " (``""``
    when the cell was read without a header), ``cell`` the rest, both as written."""

    header: str
    cell: str
    headed: bool

    @property
    def text(self) -> str:
        """The cell as the row reading writes it."""
        return f"{self.header}{_HEAD_SEP}{self.cell}" if self.headed else self.cell


@dataclass(frozen=True)
class RowReading:
    """A row reading split into its cells, the label first."""

    cells: tuple[RowCell, ...]

    @property
    def label(self) -> str:
        """The first cell's text: what the row is about."""
        return self.cells[0].cell if self.cells else ""

    @property
    def heads(self) -> list[str]:
        """Each cell's header (``""`` for a cell read without one)."""
        return [c.header for c in self.cells]

    @property
    def values(self) -> list[str]:
        """Each cell's text without its header."""
        return [c.cell for c in self.cells]

    @property
    def columns(self) -> tuple[RowCell, ...]:
        """The cells after the label."""
        return self.cells[1:]

    @property
    def text(self) -> str:
        """The row reading as written."""
        return write_row(self.cells)


def _cell(part: str) -> RowCell:
    head, sep, cell = part.partition(_HEAD_SEP)
    return RowCell(head, cell, True) if sep else RowCell("", part, False)


def read_row(reading: str) -> RowReading:
    """The cells of a row reading ``"Header : cell ; Header : cell"``."""
    return RowReading(tuple(_cell(part) for part in reading.split(_CELL_SEP)))


def write_row(cells: tuple[RowCell, ...] | list[RowCell]) -> str:
    """The row reading of ``cells`` (the inverse of :func:`read_row`)."""
    return _CELL_SEP.join(c.text for c in cells)
