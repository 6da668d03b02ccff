"""The incremental indexer: walk → read → hash → decode → parse → chunk → write.

Work is done only for new, changed, renamed and deleted files. Files whose size and
mtime match the store are not even read; files whose bytes hash the same are not parsed.
Each batch of documents is written in one transaction.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import marshal
import multiprocessing as mp
import os
import pickle
import sys
import threading
import time
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cairn.errors import IngestError
from cairn.ingest.chunker import chunk_markdown, chunk_plain
from cairn.ingest.converters import Converter, convert_bytes, converter_for
from cairn.ingest.markdown import parse_markdown
from cairn.ingest.text import decode_bytes, normalise_text
from cairn.ingest.walker import FoundFile, walk_collection
from cairn.store.protocol import Store
from cairn.store.records import (
    CollectionRecord,
    DocumentWrite,
    FileFailure,
    KnownFile,
    LinkRow,
    PassageRow,
    json_list,
)
from cairn.text.cjk import cjk_bigrams, has_cjk

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
TEXT_SUFFIXES = frozenset({".txt", ".text", ".rst", ".org", ".adoc"})
CONVERTER_VERSION = "1"
_TEXT_KINDS = frozenset({"markdown", "text", "code"})
#: A batch is written once it holds this many bytes of source, whatever its file count.
BATCH_BYTES = 32 * 1024 * 1024
#: The first batch of a run holds at most this many files and each later one twice the
#: previous, up to ``batch_files``: the writer starts while most files are still parsing.
FIRST_BATCH_FILES = 250

#: ``progress(done, total)`` is called as files are examined.
Progress = Callable[[int, int], None]
TokenCounter = Callable[[str], int]


@dataclass(slots=True)
class RunCounts:
    """What one index run did: the per-document tallies (the public ``IndexCounts``, also
    stored with the run), passages written and the per-file errors."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    renamed: int = 0
    removed: int = 0
    reactivated: int = 0
    failed: int = 0
    parsed: int = 0
    passages: int = 0
    errors: list[tuple[str, str, str, str]] = field(default_factory=list)  # collection, path, code, msg

    def tallies(self) -> dict[str, int]:
        """The per-document counts, named as ``IndexCounts`` names them."""
        return {
            "added": self.added, "updated": self.updated, "unchanged": self.unchanged,
            "renamed": self.renamed, "removed": self.removed, "reactivated": self.reactivated,
            "failed": self.failed, "parsed": self.parsed,
        }


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


#: Below this many files to read, parsing in worker processes costs more than it saves.
PARALLEL_MIN_FILES = 400
PARALLEL_CHUNK = 64
#: Chunks in flight per worker: enough that workers never wait while this process writes.
PARALLEL_WINDOW = 8
#: Added to the workers' nice value.
WORKER_NICENESS = 10

_worker_args: tuple[frozenset[str], IngestLimits, TokenCounter] | None = None
#: A file to prepare: what the walk found, the hash the store knows for its path, and
#: its recorded failure.
Job = tuple[FoundFile, str | None, FileFailure | None]

#: Failures retried on every run: they say nothing about the file's bytes (a fixed
#: permission, a newly installed extra, a raised size limit change neither size nor
#: mtime), and finding them again costs no read or conversion.
RETRIED_CODES = frozenset({"unreadable", "missing_dependency", "too_large"})


def _init_worker(
    vanished: frozenset[str], limits: IngestLimits, count_tokens: TokenCounter, close_fds: tuple[int, ...]
) -> None:
    global _worker_args
    _worker_args = (vanished, limits, count_tokens)
    # A forked worker must neither keep the parent's writer lock alive nor outlive it:
    # after a SIGKILL of the indexer, the next run must find the index free.
    for fd in close_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    # The writer in the parent is the bottleneck of a full index; parsing runs ahead of it
    # (a window of chunks per worker), so workers yield the CPU to it when cores are short.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    _die_with_parent()


def _start_method() -> str:
    """``fork`` (fast: nothing to import) unless this process runs other threads or has
    loaded a library with its own native thread pool: a child forked while one of them
    holds a lock (malloc's, say) can hang forever. Then ``forkserver`` (a clean process
    forks the workers). ``cairn index`` from the CLI forks; a server or an SDK process
    that has embedded text does not."""
    native_pools = ("onnxruntime", "xllamacpp", "torch")
    if threading.active_count() == 1 and not any(name in sys.modules for name in native_pools):
        return "fork"
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def _prepare_in_worker(jobs: list[Job]) -> bytes:
    assert _worker_args is not None
    vanished, limits, count_tokens = _worker_args
    return _encode([
        prepare_file(found, known_hash, vanished, limits, count_tokens, failed)
        for found, known_hash, failed in jobs
    ])


# Results cross the process boundary as marshal bytes of plain tuples: decoding them is
# several times cheaper than unpickling dataclasses, and decoding runs in the process
# that also writes SQLite, the bottleneck of a full index. Anything marshal cannot
# carry (an exotic metadata value) falls back to pickle for that chunk.
_MARSHAL, _PICKLE = b"M", b"P"


def _encode(prepared: list[Prepared]) -> bytes:
    rows = [
        (
            (p.found.path, p.found.abs_path, p.found.size, p.found.mtime_ns), p.source_hash,
            None if p.doc is None else tuple(
                [*(getattr(p.doc, name) for name in _DOC_FIELDS[:-2]),
                 tuple(tuple(link) for link in p.doc.links), tuple(tuple(row) for row in p.doc.passages)]
            ),
            p.error,
        )
        for p in prepared
    ]
    try:
        return _MARSHAL + marshal.dumps(rows)
    except ValueError:
        return _PICKLE + pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)


def _decode(blob: bytes) -> list[Prepared]:
    if blob[:1] == _PICKLE:
        decoded: list[Prepared] = pickle.loads(blob[1:])
        return decoded
    out = []
    for found, source_hash, doc, error in marshal.loads(blob[1:]):
        write = None
        if doc is not None:
            links = tuple(LinkRow._make(r) for r in doc[-2])
            passages = tuple(PassageRow._make(r) for r in doc[-1])
            write = DocumentWrite(*[*doc[:-2], links, passages])
        out.append(Prepared(FoundFile(*found), source_hash, write, error))
    return out


_DOC_FIELDS = tuple(f.name for f in dataclasses.fields(DocumentWrite))
assert _DOC_FIELDS[-2:] == ("links", "passages")


class Indexer:
    """Brings a store up to date with the files of its collections."""

    def __init__(self, store: Store, limits: IngestLimits, count_tokens: TokenCounter) -> None:
        self.store = store
        self.limits = limits
        self.count_tokens = count_tokens

    def run(
        self, collections: Sequence[CollectionRecord], progress: Progress | None = None,
        only: Sequence[str] | None = None, *, retry_failed: bool = False,
    ) -> tuple[int, RunCounts, int]:
        """Index the given collections; returns (run id, counts, elapsed ms).

        ``only`` reconciles just these relative paths of each collection (files, or
        folders and what lies under them) instead of walking it whole: new, changed,
        renamed and deleted files among them are handled exactly as a full run would.

        A file whose content failed before is not read again while its size and mtime
        are those it failed with, nor converted again while its bytes are: it counts as
        ``failed`` and its recorded error is reported again. ``retry_failed`` reads and
        converts every failed file anyway."""
        started = time.perf_counter()
        counts = RunCounts()
        run_id = self.store.start_run([c.name for c in collections])
        walks = [(c, walk_collection(Path(c.root), c.include, c.exclude, only)) for c in collections]
        total = sum(len(w.files) for _, w in walks)
        done = [0]

        def tick(n: int = 1) -> None:
            done[0] += n
            if progress is not None:
                progress(done[0], total)

        with self.store.bulk_writes():
            for collection, walk in walks:
                self._index_collection(collection, run_id, walk.files, walk.refused, counts, tick,
                                       None if only is None else _within(only), retry_failed)
        self.store.finish_run(run_id, counts.tallies(), [c.id for c in collections])
        return run_id, counts, int((time.perf_counter() - started) * 1000)

    def _index_collection(
        self, collection: CollectionRecord, run_id: int, files: list[FoundFile],
        refused: list[tuple[str, str, str]], counts: RunCounts, tick: Callable[[int], None],
        scope: Callable[[str], bool] | None = None, retry_failed: bool = False,
    ) -> None:
        """Reconcile ``files`` (the walk) with what the index knows; ``scope`` limits
        deletions and error clean-up to the paths a partial walk covered."""
        known = self.store.known_files(collection.id)
        present = {f.path for f in files}
        missing = {p: k for p, k in known.items()
                   if k.active and p not in present and (scope is None or scope(p))}
        by_hash: dict[str, list[KnownFile]] = {}
        for item in missing.values():
            by_hash.setdefault(item.source_hash, []).append(item)

        failed = {} if retry_failed else self.store.failed_files(collection.id)
        candidates: list[FoundFile] = []
        for found in files:
            k = known.get(found.path)
            if k is not None and k.active and k.size == found.size and k.mtime_ns == found.mtime_ns:
                counts.unchanged += 1
                continue
            f = failed.get(found.path)
            if f is not None and f.size == found.size and f.mtime_ns == found.mtime_ns:
                counts.failed += 1  # still failing, as recorded: not read again
                counts.errors.append((collection.name, found.path, f.code, f.message))
                continue
            candidates.append(found)
        tick(len(files) - len(candidates))

        errors: list[FileFailure] = [FileFailure(*r) for r in refused]
        for path, code, message in refused:
            counts.failed += 1
            counts.errors.append((collection.name, path, code, message))
        batch: list[tuple[DocumentWrite, KnownFile | None, str]] = []
        touches: list[tuple[int, int, int]] = []

        def failure(p: Prepared) -> FileFailure:
            code, message = p.error or ("internal", "file could not be prepared")
            if code in RETRIED_CODES:
                return FileFailure(p.found.path, code, message)
            return FileFailure(p.found.path, code, message, p.found.size, p.found.mtime_ns, p.source_hash or None)

        cleared: list[str] = []
        batch_bytes = 0
        docids = self.store.all_docids()
        # One writer thread: SQLite releases the GIL while it tokenises and writes, so
        # batch N is written while batch N+1 is parsed. At most one batch is in flight,
        # and the main thread touches the store only after waiting for it.
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-writer")
        pending: Future[int] | None = None
        batch_limit = min(FIRST_BATCH_FILES, self.limits.batch_files)

        def settle() -> None:
            nonlocal pending
            if pending is not None:
                counts.passages += pending.result()
                pending = None

        def flush() -> None:
            nonlocal batch, touches, errors, cleared, batch_bytes, pending, batch_limit
            settle()
            if batch or touches or errors or cleared:
                pending = writer.submit(
                    self.store.write_documents, collection, run_id, batch, touches, errors, cleared
                )
                batch_limit = min(batch_limit * 2, self.limits.batch_files)
            batch, touches, errors, cleared = [], [], [], []
            batch_bytes = 0

        known_hashes = {p: k.source_hash for p, k in known.items() if k.active}
        jobs: list[Job] = [(found, known_hashes.get(found.path), failed.get(found.path)) for found in candidates]
        try:
            for prepared in self._prepare_all(jobs, frozenset(by_hash)):
                found = prepared.found
                k = known.get(found.path)
                tick(1)
                if prepared.error is not None:
                    code, message = prepared.error
                    counts.failed += 1
                    counts.errors.append((collection.name, found.path, code, message))
                    errors.append(failure(prepared))
                    continue
                source_hash = prepared.source_hash
                if k is not None and k.active and k.source_hash == source_hash:
                    touches.append((k.id, found.size, found.mtime_ns))
                    counts.unchanged += 1
                    cleared.append(found.path)
                    continue
                if k is None and by_hash.get(source_hash):
                    old = by_hash[source_hash].pop(0)
                    missing.pop(old.path, None)
                    flush()
                    settle()
                    title = self._renamed_title(old, found.path)
                    self.store.rename_document(
                        collection, run_id, old, found.path, title, found.size, found.mtime_ns
                    )
                    counts.renamed += 1
                    continue
                if prepared.doc is None:
                    # Its hash matched a vanished file that another path claimed first: ingest it.
                    prepared = prepare_file(found, None, frozenset(), self.limits, self.count_tokens)
                    if prepared.doc is None:
                        code, message = prepared.error or ("internal", "file could not be prepared")
                        counts.failed += 1
                        counts.errors.append((collection.name, found.path, code, message))
                        errors.append(failure(prepared))
                        continue
                doc = prepared.doc
                counts.parsed += 1
                if k is None:
                    docid = make_docid(collection.name, found.path, docids.__contains__)
                    docids.add(docid)
                    counts.added += 1
                else:
                    docid = k.docid
                    if k.active:
                        counts.updated += 1
                    else:
                        counts.reactivated += 1
                batch.append((doc, k, docid))
                batch_bytes += doc.size
                warning = document_warning(doc)
                if warning is None:
                    cleared.append(found.path)
                else:  # indexed, and listed with the file errors until the file is fixed
                    counts.errors.append((collection.name, found.path, *warning))
                    errors.append(FileFailure(found.path, *warning))
                if len(batch) >= batch_limit or batch_bytes >= BATCH_BYTES:
                    flush()
            flush()
            settle()
        finally:
            writer.shutdown(wait=True)
        counts.removed += self.store.deactivate_documents(collection, run_id, missing.values())
        keep = present | {p for p, _, _ in refused}
        if scope is not None:  # errors of files outside a partial walk stay as they are
            keep |= {p for name, p, *_ in self.store.file_errors(limit=1 << 62) if name == collection.name and not scope(p)}
        self.store.clear_errors_except(collection.id, keep)

    def _prepare_all(self, jobs: list[Job], vanished: frozenset[str]) -> Iterator[Prepared]:
        """Prepare files in order; large runs fan out to one worker process per core.

        Workers are forked before any writer thread exists and only read files and
        parse; all store access stays in this process.
        """
        # One worker per core (measured: on 2 cores, 2 workers beat 1 although this process
        # also needs CPU for SQLite).
        workers = os.cpu_count() or 1
        if len(jobs) < PARALLEL_MIN_FILES or workers < 2 or "fork" not in mp.get_all_start_methods():
            for found, known_hash, failed in jobs:
                yield prepare_file(found, known_hash, vanished, self.limits, self.count_tokens, failed)
            return
        chunks = [jobs[i : i + PARALLEL_CHUNK] for i in range(0, len(jobs), PARALLEL_CHUNK)]
        method = _start_method()
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=mp.get_context(method), initializer=_init_worker,
            # Only a forked worker inherits this process's descriptors (the writer lock).
            initargs=(vanished, self.limits, self.count_tokens,
                      self.store.held_fds() if method == "fork" else ()),
        ) as pool:
            # A bounded window of chunks in flight keeps memory flat however large the corpus.
            window: deque[Future[bytes]] = deque()
            for chunk in chunks:
                window.append(pool.submit(_prepare_in_worker, chunk))
                if len(window) > PARALLEL_WINDOW * workers:
                    yield from _decode(window.popleft().result())
            while window:
                yield from _decode(window.popleft().result())

    def _renamed_title(self, old: KnownFile, new_path: str) -> str:
        """The title a fresh index of ``new_path`` would give (its bytes are unchanged)."""
        found = self.store.find_document(docid=old.docid)
        if found is None:
            return file_title(new_path)
        record, text = found
        parsed_title = parse_markdown(text).title if text is not None and record.kind not in ("text", "code") else None
        if record.kind == "markdown" and text is not None:
            return parsed_title or file_title(new_path)
        # A converted file's own title (document properties) is not stored: a title other
        # than the old file name, or equal to the text's heading, is a real title and stays.
        if record.title != file_title(old.path) or record.title == parsed_title:
            return record.title
        return file_title(new_path)


def _within(only: Sequence[str]) -> Callable[[str], bool]:
    """Whether a relative path is one of ``only`` or lies under one of them."""
    targets = tuple(t.strip("/") for t in only if t.strip("/"))
    return lambda path: any(path == t or path.startswith(t + "/") for t in targets)
