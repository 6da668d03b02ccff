"""Converters: office documents, PDF, HTML, EPUB, notebooks and e-mail to canonical text.

A registry of :class:`Converter` objects, consulted in registration order: the first
whose suffixes match a file wins. The built-ins are registered through the same
:func:`register_converter` a third party would call. Importing this package imports no
document library: each converter imports its own when it first converts something.
"""

from __future__ import annotations

import os
import warnings

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    Converted,
    Converter,
    ConvertLimits,
    check_deadline,
    corrupt_error,
    time_limit,
)
from cairn.ingest.converters.legacy import DocConverter, PptConverter, XlsConverter
from cairn.ingest.converters.mail import EmlConverter, MsgConverter
from cairn.ingest.converters.notebook import NotebookConverter
from cairn.ingest.converters.ooxml import DocxConverter, PptxConverter, XlsxConverter
from cairn.ingest.converters.pdf import PdfConverter
from cairn.ingest.converters.web import EpubConverter, HtmlConverter

__all__ = [
    "ConvertLimits",
    "Converted",
    "Converter",
    "check_deadline",
    "convert_bytes",
    "converter_for",
    "converter_suffixes",
    "register_converter",
]

_registry: list[Converter] = []
_by_suffix: dict[str, Converter] = {}


def register_converter(converter: Converter, *, first: bool = False) -> None:
    """Add a converter; ``first=True`` puts it ahead of those already registered."""
    if first:
        _registry.insert(0, converter)
    else:
        _registry.append(converter)
    _by_suffix.clear()
    for conv in reversed(_registry):  # first match wins
        for suffix in conv.suffixes:
            _by_suffix[suffix.lower()] = conv


def converter_for(path: str, head_bytes: bytes = b"") -> Converter | None:
    """The converter for ``path`` (matched on its suffix), or None for text files."""
    suffix = os.path.splitext(path)[1].lower()
    return _by_suffix.get(suffix) if suffix else None


def converter_suffixes() -> tuple[str, ...]:
    """Every suffix some converter handles, in registration order."""
    return tuple(dict.fromkeys(s for conv in _registry for s in conv.suffixes))


def convert_bytes(converter: Converter, data: bytes, path: str, limits: ConvertLimits | None = None) -> Converted:
    """Run ``converter`` on ``data`` under its size and time limits.

    Raises :class:`IngestError` (``too_large``, ``timeout``, ``corrupt``, ``encrypted``,
    ``zip_bomb``, ``missing_dependency``...). Never returns a partial conversion.

    This is the converter boundary: whatever else a converter or its library raises on a
    file's bytes (``zlib.error``, ``NotImplementedError``, xlrd's ``CompDocError``...) is
    the file's fault as far as the index can tell, so it becomes ``corrupt`` with the
    library's message (``MemoryError`` is ``too_large``). Only ``KeyboardInterrupt`` and
    ``SystemExit`` pass through.
    """
    limits = limits or converter.limits
    if len(data) > limits.max_bytes:
        raise IngestError(
            f"{converter.id} file is {len(data)} bytes, over the {limits.max_bytes}-byte limit",
            code="too_large",
        )
    with time_limit(limits.seconds), warnings.catch_warnings():
        # Libraries warn about recoverable oddities (unknown extensions, bad styles).
        warnings.simplefilter("ignore")
        try:
            result = converter.convert(data, path, limits)
        except IngestError:
            raise
        except MemoryError as exc:
            raise IngestError(f"{converter.id} conversion ran out of memory", code="too_large") from exc
        except Exception as exc:  # a library failing on these bytes costs this file, never the run
            raise corrupt_error(f"{converter.id} file", exc) from exc
    return result


for _builtin in (
    PdfConverter(), DocxConverter(), PptxConverter(), XlsxConverter(), DocConverter(),
    PptConverter(), XlsConverter(), HtmlConverter(), EpubConverter(), NotebookConverter(),
    EmlConverter(), MsgConverter(),
):
    register_converter(_builtin)
