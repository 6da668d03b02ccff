"""Per-file document preparation: document kinds, size limits, bytes to a DocumentWrite (decode or convert, parse, chunk), and reading one found file."""

from __future__ import annotations

import hashlib
import os
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cairn.code.scan import symbol_spans
from cairn.errors import IngestError
from cairn.ingest.chunker import chunk_code, chunk_markdown, chunk_plain
from cairn.ingest.converters import Converter, convert_bytes, converter_for
from cairn.ingest.markdown import parse_markdown
from cairn.ingest.text import decode_bytes, normalise_text
from cairn.ingest.walker import FoundFile
from cairn.store.records import (
    DocumentWrite,
    FileFailure,
    LinkRow,
    PassageRow,
    json_list,
)
from cairn.text.cjk import cjk_bigrams, has_cjk

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst", ".org", ".adoc"})
CONVERTER_VERSION = "1"
_TEXT_KINDS = frozenset({"markdown", "text", "code"})
TokenCounter = Callable[[str], int]
@dataclass(frozen=True, slots=True)
class IngestLimits:
    max_file_bytes: int
    chunk_max_tokens: int
    chunk_min_tokens: int
    batch_files: int


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_docid(collection: str, path: str, taken: Callable[[str], bool]) -> str:
    """Short stable id derived from where the document was first seen, lengthened on collision."""
    digest = hashlib.sha256(f"{collection}\x00{path}".encode("utf-8", "surrogatepass")).hexdigest()
    for length in range(8, 65, 2):
        candidate = digest[:length]
        if not taken(candidate):
            return candidate
    raise RuntimeError("docid space exhausted")  # pragma: no cover - 2^-256


def document_kind(path: str) -> str:
    """``markdown``, ``text``, a converter's id (``pdf``, ``docx``...) or ``code``."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in TEXT_SUFFIXES:
        return "text"
    converter = converter_for(path)
    if converter is not None:
        return converter.id
    return "code"


def size_limit(path: str, limits: IngestLimits) -> int:
    """The largest file accepted at ``path``: its converter's limit, else ``max_file_bytes``."""
    converter = converter_for(path)
    return converter.limits.max_bytes if converter is not None else limits.max_file_bytes


def document_warning(doc: DocumentWrite) -> tuple[str, str] | None:
    """(code, message) of what was ignored in an indexed document, recorded with the
    file errors (``status`` lists it) although the document itself is indexed."""
    date_error = doc.metadata.get("_date_error")
    if isinstance(date_error, str):
        return "bad_date", date_error
    return None


def file_title(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0] or os.path.basename(path)


def ingest_bytes(
    path: str, data: bytes, *, size: int, mtime_ns: int, source_hash: str,
    limits: IngestLimits, count_tokens: TokenCounter,
) -> DocumentWrite:
    """Turn one file's bytes into a :class:`DocumentWrite` (pure apart from the clock-free inputs)."""
    kind = document_kind(path)
    if kind not in _TEXT_KINDS:
        converter = converter_for(path)
        if converter is not None:
            return ingest_converted(
                converter, path, data, size=size, mtime_ns=mtime_ns, source_hash=source_hash,
                limits=limits, count_tokens=count_tokens,
            )
    raw, encoding = decode_bytes(data)
    text = normalise_text(raw)
    text_hash = sha256_hex(text.encode("utf-8"))
    metadata: dict[str, Any] = {}
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    author: str | None = None
    date: str | None = None
    headings: tuple[tuple[int, str, int], ...] = ()
    links: tuple[LinkRow, ...] = ()
    if kind == "markdown":
        parsed = parse_markdown(text)
        metadata = dict(parsed.frontmatter)
        if parsed.frontmatter_error:
            metadata["_frontmatter_error"] = parsed.frontmatter_error
        if parsed.date_error:
            metadata["_date_error"] = parsed.date_error
        title = parsed.title or file_title(path)
        tags, aliases, author, date = parsed.tags, parsed.aliases, parsed.author, parsed.date
        headings = tuple((h.level, h.text, h.line) for h in parsed.headings)
        links = tuple(
            LinkRow(ln.kind, ln.target, ln.anchor, ln.alias, ln.embed, ln.line, ln.column, ln.raw)
            for ln in parsed.links
        )
        chunks = chunk_markdown(
            text, parsed.headings, body_start_line=parsed.body_start_line,
            max_tokens=limits.chunk_max_tokens, min_tokens=limits.chunk_min_tokens,
            count_tokens=count_tokens,
        )
    else:
        title = file_title(path)
        # Code a provider reads is cut at symbol boundaries (the code graph, issue 15).
        spans = symbol_spans(path, text.encode("utf-8")) if kind == "code" else None
        if spans:
            chunks = chunk_code(
                text, spans, max_tokens=limits.chunk_max_tokens, min_tokens=limits.chunk_min_tokens,
                count_tokens=count_tokens,
            )
        else:
            chunks = chunk_plain(
                text, max_tokens=limits.chunk_max_tokens, min_tokens=limits.chunk_min_tokens,
                count_tokens=count_tokens,
            )
    passages = tuple(
        PassageRow(
            seq=i, start_line=c.start_line, end_line=c.end_line, heading_path=c.heading_path,
            text=c.text, passage_hash=sha256_hex(c.text.encode("utf-8")), token_count=c.token_count,
            cjk_text=cjk_bigrams(c.text) if has_cjk(c.text) else "", heading_json=json_list(c.heading_path),
        )
        for i, c in enumerate(chunks)
    )
    doc_date = date or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(mtime_ns // 1_000_000_000))
    return DocumentWrite(
        path=path, title=title, kind=kind, converter=kind, converter_version=CONVERTER_VERSION,
        size=size, mtime_ns=mtime_ns, source_hash=source_hash, text_hash=text_hash,
        encoding=encoding, text=text, line_count=text.count("\n") + (0 if text.endswith("\n") or not text else 1),
        metadata=metadata, tags=tags, aliases=aliases, doc_date=doc_date, author=author,
        headings=headings, links=links, passages=passages,
    )


def ingest_converted(
    converter: Converter, path: str, data: bytes, *, size: int, mtime_ns: int, source_hash: str,
    limits: IngestLimits, count_tokens: TokenCounter,
) -> DocumentWrite:
    """Convert an office/PDF/HTML/... file, then index its text as Markdown.

    Each passage carries the page (slide, sheet) its first line is on. A failed
    conversion raises :class:`IngestError`: nothing of the file is written.
    """
    converted = convert_bytes(converter, data, path)
    text = normalise_text(converted.text)
    parsed = parse_markdown(text)
    chunks = chunk_markdown(
        text, parsed.headings, body_start_line=parsed.body_start_line,
        max_tokens=limits.chunk_max_tokens, min_tokens=limits.chunk_min_tokens,
        count_tokens=count_tokens,
    )
    starts = [line for line, _ in converted.pages]
    numbers = [number for _, number in converted.pages]

    def page_of(line: int) -> int | None:
        i = bisect_right(starts, line)
        return numbers[i - 1] if i else None

    passages = tuple(
        PassageRow(
            seq=i, start_line=c.start_line, end_line=c.end_line, heading_path=c.heading_path,
            text=c.text, passage_hash=sha256_hex(c.text.encode("utf-8")), token_count=c.token_count,
            cjk_text=cjk_bigrams(c.text) if has_cjk(c.text) else "", page=page_of(c.start_line),
            heading_json=json_list(c.heading_path),
        )
        for i, c in enumerate(chunks)
    )
    metadata: dict[str, Any] = dict(converted.metadata)
    return DocumentWrite(
        path=path, title=converted.title or parsed.title or file_title(path), kind=converter.id,
        converter=converter.id, converter_version=converter.version, size=size, mtime_ns=mtime_ns,
        source_hash=source_hash, text_hash=sha256_hex(text.encode("utf-8")), encoding="utf-8",
        text=text, line_count=text.count("\n") + (0 if text.endswith("\n") or not text else 1),
        metadata=metadata, tags=(), aliases=(), author=None,
        doc_date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(mtime_ns // 1_000_000_000)),
        headings=tuple((h.level, h.text, h.line) for h in parsed.headings),
        links=tuple(
            LinkRow(ln.kind, ln.target, ln.anchor, ln.alias, ln.embed, ln.line, ln.column, ln.raw)
            for ln in parsed.links
        ),
        passages=passages,
    )


@dataclass(frozen=True, slots=True)
class Prepared:
    """A candidate file after reading, hashing and (when its content is new) ingesting."""

    found: FoundFile
    source_hash: str
    doc: DocumentWrite | None
    error: tuple[str, str] | None  # (code, message)


def _read_upto(handle: Any, size: int) -> bytes:
    """Up to ``size`` bytes (fewer only at the end of the file)."""
    parts: list[bytes] = []
    while size > 0:
        part = handle.read(size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def prepare_file(
    found: FoundFile, known_hash: str | None, vanished: frozenset[str],
    limits: IngestLimits, count_tokens: TokenCounter, failed: FileFailure | None = None,
) -> Prepared:
    """Read and hash one file; ingest it unless its bytes are known (unchanged or renamed)
    or are the very bytes that failed before (``failed``: that error again, not re-run)."""
    source_hash = ""
    try:
        max_bytes = size_limit(found.path, limits)
        if found.size > max_bytes:
            raise IngestError(
                f"file is {found.size} bytes, over the {max_bytes}-byte limit", code="too_large"
            )
        try:
            with open(found.abs_path, "rb", buffering=0) as handle:
                # Ask for the size the walk saw (+1): reading with the 20 MB cap as the size
                # would allocate that much for every small file. A file that grew since the
                # walk is read on, up to the cap.
                limit = max_bytes + 1
                data = _read_upto(handle, min(found.size + 1, limit))
                if found.size < len(data) < limit:
                    data += _read_upto(handle, limit - len(data))
        except OSError as exc:
            raise IngestError(f"cannot read file: {exc.strerror or exc}", code="unreadable") from exc
        if len(data) > max_bytes:
            raise IngestError("file grew over the size limit while reading", code="too_large")
        source_hash = sha256_hex(data)
        if source_hash == known_hash or (known_hash is None and source_hash in vanished):
            return Prepared(found, source_hash, None, None)
        if failed is not None and failed.source_hash == source_hash:
            return Prepared(found, source_hash, None, (failed.code, failed.message))
        doc = ingest_bytes(
            found.path, data, size=len(data), mtime_ns=found.mtime_ns, source_hash=source_hash,
            limits=limits, count_tokens=count_tokens,
        )
        return Prepared(found, source_hash, doc, None)
    except IngestError as exc:
        return Prepared(found, source_hash, None, (exc.code, exc.message))
    except Exception as exc:  # a parser bug must cost one file, never the run
        return Prepared(found, source_hash, None, ("internal", f"{type(exc).__name__}: {exc}"))
