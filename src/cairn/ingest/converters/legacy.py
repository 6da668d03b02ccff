"""Legacy binary Office files (OLE2 containers): Word 97-2003, PowerPoint 97-2003, Excel 97-2003.

Excel goes through xlrd. For Word and PowerPoint no maintained pure-Python reader
exists, so the text is read here from the OLE streams (olefile) following the published
formats [MS-DOC] and [MS-PPT]: Word's piece table (the Clx in the table stream) gives the
document's characters; PowerPoint's text atoms are grouped by slide through the
SlideListWithText container and each slide's drawing. Formatting is not read.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Iterator
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
    clean_text,
    import_library,
    unreadable,
)

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_ERRORS = (OSError, ValueError, IndexError, KeyError, TypeError, struct.error, EOFError,
               AttributeError, RecursionError, UnicodeDecodeError, AssertionError)


def check_ole(data: bytes, what: str, zip_name: str) -> None:
    """``corrupt`` unless ``data`` is an OLE2 container; a zip is named as the newer format
    (``zip_name``) given an old suffix."""
    if not data.startswith(OLE_MAGIC):
        kind = f"a zip ({zip_name}) file" if data.startswith(b"PK\x03\x04") else "not an OLE2 file"
        raise IngestError(f"not a legacy {what} file ({kind})", code="corrupt")


def open_ole(data: bytes, what: str) -> Any:
    """An ``olefile.OleFileIO`` over ``data``; ``corrupt`` when it is not an OLE2 file."""
    olefile = import_library("olefile", "olefile")
    check_ole(data, what, "Office Open XML")
    try:
        return olefile.OleFileIO(io.BytesIO(data))
    except _OLE_ERRORS as exc:
        raise IngestError(f"unreadable {what} file ({type(exc).__name__}: {exc})", code="corrupt") from exc
    except Exception as exc:  # olefile raises its own (non-exported) error classes too
        raise IngestError(f"unreadable {what} file ({type(exc).__name__}: {exc})", code="corrupt") from exc


def _ole_title(ole: Any) -> str | None:
    try:
        raw = ole.get_metadata().title
    except Exception:
        return None
    if isinstance(raw, bytes):
        raw = raw.decode("cp1252", "replace")
    title = " ".join(clean_text(raw or "").split())
    return title or None


# --- Word 97-2003 -------------------------------------------------------------------------

_FIELD = re.compile("\x13[^\x13\x14\x15]*(?:\x14([^\x13\x14\x15]*))?\x15")


class DocConverter:
    """Word 97-2003 (.doc): the main document text from the piece table."""

    id = "doc"
    version = "1"
    suffixes: tuple[str, ...] = (".doc", ".dot")
    limits = ConvertLimits(max_bytes=50 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        ole = open_ole(data, "Word")
        with closing(ole), unreadable("Word document", _OLE_ERRORS):
            if not ole.exists("WordDocument"):
                raise IngestError("not a Word document (no WordDocument stream)", code="corrupt")
            word = ole.openstream("WordDocument").read()
            ident, flags = struct.unpack_from("<H8xH", word, 0)
            if ident != 0xA5EC:
                raise IngestError("not a Word 97-2003 document (bad FIB signature)", code="corrupt")
            if flags & 0x0100:
                raise IngestError("encrypted Word document (password protected)", code="encrypted")
            table_name = "1Table" if flags & 0x0200 else "0Table"
            if not ole.exists(table_name):
                raise IngestError(f"Word document lacks its {table_name} stream", code="corrupt")
            table = ole.openstream(table_name).read()
            text = _word_text(word, table)
            title = _ole_title(ole)
        out = TextBuilder(limits)
        if title:
            out.add(f"# {title}")
        for paragraph in text.split("\n"):
            paragraph = paragraph.strip()
            if paragraph:
                out.add(paragraph)
        return out.result(title)


def _word_text(word: bytes, table: bytes) -> str:
    """The main-document characters of a Word 97+ file, special characters resolved."""
    pos = 32
    (csw,) = struct.unpack_from("<H", word, pos)
    pos += 2 + csw * 2
    (cslw,) = struct.unpack_from("<H", word, pos)
    rg_lw = pos + 2
    (ccp_text,) = struct.unpack_from("<i", word, rg_lw + 3 * 4)
    pos = rg_lw + cslw * 4
    (cb_rg_fc_lcb,) = struct.unpack_from("<H", word, pos)
    if cb_rg_fc_lcb < 68:
        raise IngestError("Word document older than Word 97 (not supported)", code="unsupported")
    fc_clx, lcb_clx = struct.unpack_from("<II", word, pos + 2 + 66 * 4)
    clx = table[fc_clx : fc_clx + lcb_clx]
    if len(clx) != lcb_clx or not lcb_clx:
        raise IngestError("Word document's piece table is missing", code="corrupt")
    i = 0
    while i < len(clx) and clx[i] == 0x01:  # Prc: property modifiers, skipped
        (cb,) = struct.unpack_from("<h", clx, i + 1)
        i += 3 + max(cb, 0)
    if i >= len(clx) or clx[i] != 0x02:
        raise IngestError("Word document's piece table is malformed", code="corrupt")
    (lcb,) = struct.unpack_from("<I", clx, i + 1)
    plc = clx[i + 5 : i + 5 + lcb]
    n = (len(plc) - 4) // 12
    if n <= 0:
        raise IngestError("Word document's piece table is empty", code="corrupt")
    cps = struct.unpack_from(f"<{n + 1}I", plc, 0)
    parts: list[str] = []
    remaining = ccp_text if ccp_text > 0 else cps[-1]
    for k in range(n):
        if remaining <= 0:
            break
        check_deadline()
        count = min(cps[k + 1] - cps[k], remaining)
        if count <= 0:
            continue
        (fc,) = struct.unpack_from("<I", plc, 4 * (n + 1) + 8 * k + 2)
        if fc & 0x40000000:
            start = (fc & 0x3FFFFFFF) // 2
            parts.append(word[start : start + count].decode("cp1252", "replace"))
        else:
            start = fc & 0x3FFFFFFF
            parts.append(word[start : start + 2 * count].decode("utf-16-le", "replace"))
        remaining -= count
    text = "".join(parts)
    # Fields: keep the displayed result, drop the instruction (innermost first).
    for _ in range(16):
        replaced = _FIELD.sub(lambda m: m.group(1) or "", text)
        if replaced == text:
            break
        text = replaced
    text = text.replace("\x07\x07", "\n").replace("\x07", " | ")  # table cell/row marks
    text = text.replace("\r", "\n").replace("\x0b", "\n").replace("\x0c", "\n")
    text = text.replace("\x1e", "-").replace("\x1f", "").replace("\xa0", " ")
    return clean_text(text, collapse=True)


# --- PowerPoint 97-2003 -------------------------------------------------------------------

_CONTAINER = 0xF
_SLIDE_LIST_WITH_TEXT = 0x0FF0
_SLIDE_PERSIST_ATOM = 0x03F3
_TEXT_HEADER_ATOM = 0x0F9F
_TEXT_CHARS_ATOM = 0x0FA0
_TEXT_BYTES_ATOM = 0x0FA8
_PERSIST_DIRECTORY_ATOM = 0x1772
_SLIDE_CONTAINER = 0x03EE
_TITLE_TYPES = frozenset({0, 6})  # TextHeaderAtom: title, center title


def _records(buf: bytes, start: int, end: int, depth: int = 0) -> Iterator[tuple[int, int, int, int, int]]:
    """Atoms under ``buf[start:end]``: (type, instance, body start, body end, depth)."""
    pos = start
    while pos + 8 <= end:
        ver_inst, rec_type, length = struct.unpack_from("<HHI", buf, pos)
        body = pos + 8
        stop = min(body + length, end)
        yield rec_type, ver_inst >> 4, body, stop, depth
        if ver_inst & 0xF == _CONTAINER and depth < 32:
            yield from _records(buf, body, stop, depth + 1)
        pos = body + length


def _atom_text(buf: bytes, rec_type: int, a: int, b: int) -> str:
    raw = buf[a:b]
    text = raw.decode("utf-16-le", "replace") if rec_type == _TEXT_CHARS_ATOM else raw.decode("cp1252", "replace")
    return clean_text(text.replace("\r", "\n").replace("\x0b", "\n"))


class PptConverter:
    """PowerPoint 97-2003 (.ppt): the text of each slide, ``## Slide N: Title`` sections."""

    id = "ppt"
    version = "1"
    suffixes: tuple[str, ...] = (".ppt", ".pps", ".pot")
    limits = ConvertLimits(max_bytes=100 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        ole = open_ole(data, "PowerPoint")
        with closing(ole), unreadable("PowerPoint file", _OLE_ERRORS):
            if ole.exists("EncryptedSummary"):
                raise IngestError("encrypted PowerPoint file (password protected)", code="encrypted")
            if not ole.exists("PowerPoint Document"):
                raise IngestError("not a PowerPoint file (no 'PowerPoint Document' stream)", code="corrupt")
            buf = ole.openstream("PowerPoint Document").read()
            title = _ole_title(ole)
        with unreadable("PowerPoint file", _OLE_ERRORS):
            slides = _ppt_slides(buf)
        out = TextBuilder(limits)
        first_title: str | None = None
        for number, (slide_title, texts) in enumerate(slides, 1):
            first_title = first_title or slide_title or None
            out.page(number, f"Slide {number}: {slide_title}" if slide_title else f"Slide {number}")
            for text in texts:
                out.add(text)
        return out.result(title or first_title, {"slides": len(slides)})


def _ppt_slides(buf: bytes) -> list[tuple[str, list[str]]]:
    """(title, texts) per slide in presentation order."""
    offsets: dict[int, int] = {}
    order: list[int] = []
    slide_text: dict[int, list[tuple[int, str]]] = {}
    in_slide_list = False
    list_depth = 0
    current: int | None = None
    text_type = 1
    for n, (rec_type, instance, a, b, depth) in enumerate(_records(buf, 0, len(buf))):
        if n % 4096 == 0:
            check_deadline()
        if in_slide_list and depth <= list_depth:
            in_slide_list = False
        if rec_type == _PERSIST_DIRECTORY_ATOM:
            pos = a
            while pos + 4 <= b:
                (head,) = struct.unpack_from("<I", buf, pos)
                first, count = head & 0xFFFFF, head >> 20
                pos += 4
                for k in range(count):
                    if pos + 4 > b:
                        break
                    offsets[first + k] = struct.unpack_from("<I", buf, pos)[0]
                    pos += 4
        elif rec_type == _SLIDE_LIST_WITH_TEXT:
            in_slide_list = instance == 0
            list_depth = depth
            current = None
        elif in_slide_list and rec_type == _SLIDE_PERSIST_ATOM:
            (current,) = struct.unpack_from("<I", buf, a)
            if current not in slide_text:
                order.append(current)
                slide_text[current] = []
        elif in_slide_list and current is not None and rec_type == _TEXT_HEADER_ATOM and b - a >= 4:
            (text_type,) = struct.unpack_from("<I", buf, a)
        elif in_slide_list and current is not None and rec_type in (_TEXT_CHARS_ATOM, _TEXT_BYTES_ATOM):
            slide_text[current].append((text_type, _atom_text(buf, rec_type, a, b)))
    slides: list[tuple[str, list[str]]] = []
    for persist_id in order:
        entries = slide_text[persist_id]
        title = next((" ".join(t.split()) for kind, t in entries if kind in _TITLE_TYPES and t.strip()), "")
        texts = [t.strip("\n") for kind, t in entries if t.strip() and not (kind in _TITLE_TYPES and " ".join(t.split()) == title)]
        # Text boxes (not placeholders) keep their text in the slide's own drawing.
        offset = offsets.get(persist_id)
        if offset is not None and offset + 8 <= len(buf):
            _, rec_type, length = struct.unpack_from("<HHI", buf, offset)
            if rec_type == _SLIDE_CONTAINER:
                for t_type, _, a, b, _ in _records(buf, offset + 8, min(offset + 8 + length, len(buf))):
                    if t_type in (_TEXT_CHARS_ATOM, _TEXT_BYTES_ATOM):
                        text = _atom_text(buf, t_type, a, b).strip("\n")
                        if text.strip() and text not in texts and " ".join(text.split()) != title:
                            texts.append(text)
        slides.append((title, texts))
    return slides


# --- Excel 97-2003 ------------------------------------------------------------------------


class XlsConverter:
    """Excel 97-2003 (.xls) through xlrd: one ``## Sheet: Name`` pipe table per sheet."""

    id = "xls"
    version = "1"
    suffixes: tuple[str, ...] = (".xls", ".xlt")
    limits = ConvertLimits(max_bytes=50 * MB, seconds=60.0, max_cells=2_000_000)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        xlrd = import_library("xlrd", "xlrd")
        check_ole(data, "Excel", "xlsx")
        try:
            book = xlrd.open_workbook(file_contents=data, on_demand=True, logfile=io.StringIO())
        except xlrd.XLRDError as exc:
            code = "encrypted" if "encrypt" in str(exc).lower() else "corrupt"
            raise IngestError(f"unreadable Excel file: {exc}", code=code) from exc
        except _OLE_ERRORS as exc:
            raise IngestError(f"unreadable Excel file ({type(exc).__name__}: {exc})", code="corrupt") from exc
        try:
            with unreadable("Excel file", (xlrd.XLRDError, *_OLE_ERRORS)):
                out = TextBuilder(limits)
                cells = 0
                for number in range(1, book.nsheets + 1):
                    check_deadline()
                    sheet = book.sheet_by_index(number - 1)
                    cells += sheet.nrows * sheet.ncols
                    check_cells(cells, limits)
                    rows = [[_xls_value(xlrd, book, sheet.cell(r, c)) for c in range(sheet.ncols)]
                            for r in range(sheet.nrows)]
                    out.sheet(number, sheet.name, rows)
                    book.unload_sheet(number - 1)
        finally:
            book.release_resources()
        return out.result(None, {"sheets": len(out.pages)})


def _xls_value(xlrd: Any, book: Any, cell: Any) -> object:
    if cell.ctype == xlrd.XL_CELL_DATE:
        try:
            value = xlrd.xldate.xldate_as_datetime(cell.value, book.datemode)
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return cell.value
        return value.date().isoformat() if value.hour == value.minute == value.second == 0 else value.isoformat()
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return bool(cell.value)
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(cell.value, "#ERR")
    return cell.value
