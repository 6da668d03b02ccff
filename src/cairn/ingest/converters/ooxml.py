"""Office Open XML: Word (python-docx), PowerPoint (python-pptx) and Excel (openpyxl).

Each container's zip directory is checked before a library opens it (zip bombs), and an
encrypted Office file (an OLE container holding ``EncryptedPackage``) is named as such.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable
from contextlib import closing
from typing import Any

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    MB,
    Converted,
    ConvertLimits,
    TextBuilder,
    check_cells,
    check_deadline,
    check_zip,
    clean_text,
    import_library,
    pipe_table,
    unreadable,
)

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.I)
_LIBRARY_ERRORS = (
    KeyError, ValueError, TypeError, AttributeError, IndexError, zipfile.BadZipFile,
    EOFError, OSError, AssertionError, RecursionError, ZeroDivisionError,
)


def open_ooxml(data: bytes, limits: ConvertLimits, what: str) -> zipfile.ZipFile:
    """Check an OOXML container; raise ``encrypted`` for a password-protected file."""
    if data.startswith(OLE_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise IngestError(f"encrypted {what} file (password protected)", code="encrypted")
        raise IngestError(f"not a {what} file (an old binary Office file with a new suffix?)", code="corrupt")
    return check_zip(data, limits, what)


def _line(text: str) -> str:
    return " ".join(clean_text(text).split())


class DocxConverter:
    """Word paragraphs and tables in document order; heading styles become ``#`` headings."""

    id = "docx"
    version = "1"
    suffixes: tuple[str, ...] = (".docx", ".docm")
    limits = ConvertLimits(max_bytes=50 * MB, seconds=60.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        docx = import_library("docx", "python-docx")
        from docx.table import Table
        open_ooxml(data, limits, "Word").close()
        with unreadable("Word file", _LIBRARY_ERRORS):
            document = docx.Document(io.BytesIO(data))
            out = TextBuilder(limits)
            title = _line(document.core_properties.title or "")
            first_heading: str | None = None
            for block in document.iter_inner_content():
                check_deadline()
                if isinstance(block, Table):
                    out.add("\n".join(pipe_table(_docx_rows(block))))
                    continue
                text = _line(block.text)
                if not text:
                    continue
                style = (block.style.name if block.style is not None else "") or ""
                level = _heading_level(style)
                if level:
                    first_heading = first_heading or text
                    out.add(f"{'#' * level} {text}")
                elif style.lower().startswith("list") or (block._p.pPr is not None and block._p.pPr.numPr is not None):
                    out.extend([f"* {text}"])
                else:
                    out.add(text)
        return out.result(title or first_heading)


def _heading_level(style: str) -> int:
    if style.lower() == "title":
        return 1
    m = _HEADING_STYLE.match(style.strip())
    return min(int(m.group(1)), 6) if m else 0


def _docx_rows(table: Any) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.rows:
        check_deadline()
        cells: list[str] = []
        last: Any = None
        for cell in row.cells:
            # A merged cell is returned once per grid column it spans: keep it once.
            if last is not None and cell._tc is last:
                cells.append("")
                continue
            last = cell._tc
            cells.append(_line(cell.text))
        rows.append(cells)
    return rows


class PptxConverter:
    """One ``## Slide N: Title`` section per slide: text frames, tables, alt text, notes."""

    id = "pptx"
    version = "1"
    suffixes: tuple[str, ...] = (".pptx", ".pptm")
    limits = ConvertLimits(max_bytes=100 * MB, seconds=60.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        pptx = import_library("pptx", "python-pptx")
        open_ooxml(data, limits, "PowerPoint").close()
        with unreadable("PowerPoint file", _LIBRARY_ERRORS):
            deck = pptx.Presentation(io.BytesIO(data))
            out = TextBuilder(limits)
            title = _line(deck.core_properties.title or "")
            first_title: str | None = None
            for number, slide in enumerate(deck.slides, 1):
                check_deadline()
                title_shape = slide.shapes.title
                slide_title = _line(title_shape.text_frame.text) if title_shape is not None and title_shape.has_text_frame else ""
                first_title = first_title or slide_title or None
                out.page(number, f"Slide {number}: {slide_title}" if slide_title else f"Slide {number}")
                for shape in _shapes(slide.shapes):
                    if title_shape is not None and shape.shape_id == title_shape.shape_id:
                        continue
                    _pptx_shape(shape, out)
                if slide.has_notes_slide:
                    notes = slide.notes_slide.notes_text_frame
                    text = clean_text(notes.text).strip() if notes is not None else ""
                    if text:
                        out.add("### Notes")
                        out.add(text)
        return out.result(title or first_title, {"slides": len(out.pages)})


def _shapes(shapes: Iterable[Any]) -> Iterable[Any]:
    """Shapes in reading order (top to bottom, left to right), groups flattened."""
    def key(shape: Any) -> tuple[int, int]:
        return (shape.top if shape.top is not None else 0, shape.left if shape.left is not None else 0)

    for shape in sorted(shapes, key=key):
        if getattr(shape, "shape_type", None) == 6:  # MSO_SHAPE_TYPE.GROUP
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _pptx_shape(shape: Any, out: TextBuilder) -> None:
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
        out.add("\n".join(pipe_table(rows)))
    elif getattr(shape, "has_chart", False) and shape.has_chart:
        chart = shape.chart
        lines: list[str] = []
        if chart.has_title and chart.chart_title.has_text_frame:
            lines.append(f"### Chart: {_line(chart.chart_title.text_frame.text)}")
        try:
            categories = [str(c) for c in chart.plots[0].categories] if chart.plots else []
            series = [(s.name, list(s.values)) for plot in chart.plots for s in plot.series]
        except _LIBRARY_ERRORS:
            categories, series = [], []
        if series:
            header = ["", *categories] if categories else [""] * (1 + max(len(v) for _, v in series))
            lines += pipe_table([header, *[[name, *values] for name, values in series]])
        if lines:
            out.add("\n".join(lines))
    elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        text = "\n".join(_line(p.text) for p in shape.text_frame.paragraphs)
        text = text.strip("\n")
        if text:
            out.add(text)
    alt = _alt_text(shape)
    if alt:
        out.add(f"[Image: {alt}]")


def _alt_text(shape: Any) -> str:
    if getattr(shape, "shape_type", None) != 13:  # MSO_SHAPE_TYPE.PICTURE
        return ""
    try:
        descr = shape._element.nvPicPr.cNvPr.get("descr") or ""
    except AttributeError:
        return ""
    return _line(descr)


class XlsxConverter:
    """One ``## Sheet: Name`` section per worksheet, its used range as a pipe table."""

    id = "xlsx"
    version = "1"
    suffixes: tuple[str, ...] = (".xlsx", ".xlsm")
    limits = ConvertLimits(max_bytes=50 * MB, seconds=60.0, max_cells=2_000_000)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        openpyxl = import_library("openpyxl", "openpyxl")
        open_ooxml(data, limits, "Excel").close()
        with unreadable("Excel file", _LIBRARY_ERRORS):
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        with closing(book), unreadable("Excel file", _LIBRARY_ERRORS):
            out = TextBuilder(limits)
            cells = 0
            for number, sheet in enumerate(book.worksheets, 1):
                rows: list[list[object]] = []
                for row in sheet.iter_rows(values_only=True):
                    cells += len(row)
                    check_cells(cells, limits)
                    if len(rows) % 256 == 0:
                        check_deadline()
                    rows.append([_cell(v) for v in row])
                out.sheet(number, sheet.title, rows)
            title = _line(book.properties.title or "") if book.properties is not None else ""
        return out.result(title or None, {"sheets": len(out.pages)})


def _cell(value: object) -> object:
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return value
