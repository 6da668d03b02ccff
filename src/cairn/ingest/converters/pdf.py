"""PDF through pypdf (pure Python): one ``## Page N`` section per page, no OCR."""

from __future__ import annotations

import logging
from typing import Any

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    MB,
    Converted,
    ConvertLimits,
    TextBuilder,
    check_deadline,
    clean_text,
    import_library,
)


class PdfConverter:
    """Text of each page in reading order as pypdf extracts it."""

    id = "pdf"
    version = "1"
    suffixes: tuple[str, ...] = (".pdf",)
    limits = ConvertLimits(max_bytes=100 * MB, seconds=120.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        pypdf = import_library("pypdf", "pypdf")
        from pypdf.errors import PdfReadError
        if not data.lstrip()[:1024].startswith(b"%PDF") and b"%PDF-" not in data[:1024]:
            raise IngestError("not a PDF file (no %PDF header)", code="corrupt")
        if b"%%EOF" not in data[-4096:]:
            # pypdf would rebuild a cut file's cross-reference table and return the pages
            # it still finds: a partial document. A complete PDF ends with %%EOF.
            raise IngestError("truncated PDF (no %%EOF marker at the end)", code="corrupt")
        # pypdf reports recoverable damage as log warnings; the result is what counts.
        logging.getLogger("pypdf").setLevel(logging.ERROR)
        try:
            reader = pypdf.PdfReader(_stream(data), strict=False)
            if reader.is_encrypted:
                # An owner-password-only PDF opens with the empty user password.
                try:
                    opened = reader.decrypt("")
                except Exception as exc:
                    raise IngestError(f"encrypted PDF cannot be opened: {exc}", code="encrypted") from exc
                if not opened:
                    raise IngestError("encrypted PDF (a password is needed)", code="encrypted")
            pages = reader.pages
            count = len(pages)
            out = TextBuilder(limits)
            title = _title(reader.metadata)
            if title:
                out.add(f"# {title}")
            for number in range(1, count + 1):
                check_deadline()
                text = clean_text(pages[number - 1].extract_text() or "", collapse=True)
                out.page(number, f"Page {number}")
                out.add(text.strip("\n"))
        except IngestError:
            raise
        except PdfReadError as exc:
            raise IngestError(f"unreadable PDF: {exc}", code="corrupt") from exc
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError,
                RecursionError, OSError, EOFError, ZeroDivisionError) as exc:
            raise IngestError(f"unreadable PDF ({type(exc).__name__}: {exc})", code="corrupt") from exc
        if count == 0:
            raise IngestError("PDF has no pages", code="corrupt")
        return out.result(title, {"pages": count})


def _stream(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


def _title(meta: Any) -> str | None:
    try:
        raw = meta.title if meta is not None else None
    except Exception:
        return None
    if not isinstance(raw, str):
        return None
    title = " ".join(clean_text(raw).split())
    return title if title and title.lower() not in {"untitled", "(anonymous)"} else None
