"""The incremental indexer: walk → read → hash → decode → parse → chunk → write.

Work is done only for new, changed, renamed and deleted files. Files whose size and
mtime match the store are not even read; files whose bytes hash the same are not parsed.
Each batch of documents is written in one transaction.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from cairn.ingest.markdown import parse_markdown
from cairn.ingest.prepare import (
    IngestLimits,
    Prepared,
    TokenCounter,
    document_warning,
    file_title,
    make_docid,
    prepare_file,
)
from cairn.ingest.structure import keep_old_revisions
from cairn.ingest.walker import FoundFile, walk_collection
from cairn.ingest.workers import (
    Job,
    _decode,
    _init_worker,
    _prepare_in_worker,
    _start_method,
    prepare_isolated,
)
from cairn.store.protocol import Store
from cairn.store.records import (
    CollectionRecord,
    DocumentWrite,
    FileFailure,
    KnownFile,
)

#: A batch is written once it holds this many bytes of source, whatever its file count.
BATCH_BYTES = 32 * 1024 * 1024
#: The first batch of a run holds at most this many files and each later one twice the
#: previous, up to ``batch_files``: the writer starts while most files are still parsing.
FIRST_BATCH_FILES = 250

#: ``progress(done, total)`` is called as files are examined.
Progress = Callable[[int, int], None]


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


#: Below this many files to read, parsing in worker processes costs more than it saves.
PARALLEL_MIN_FILES = 400
PARALLEL_CHUNK = 64
#: Chunks in flight per worker: enough that workers never wait while this process writes.
PARALLEL_WINDOW = 8

#: Failures retried on every run: they say nothing about the file's bytes (a fixed
#: permission, a newly installed extra, a raised size limit change neither size nor
#: mtime), and finding them again costs no read or conversion. ``too_large`` only when
#: the file was refused unread: a conversion over its limits (cells, characters, memory)
#: is the bytes' own, recorded with their hash like ``corrupt``, and not redone each run.
RETRIED_CODES = frozenset({"unreadable", "missing_dependency", "too_large"})




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
            if code in RETRIED_CODES and not (code == "too_large" and p.source_hash):
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
                    self._write_batch, collection, run_id, batch, touches, errors, cleared
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
        keep_old_revisions(self.store, missing.values())
        counts.removed += self.store.deactivate_documents(collection, run_id, missing.values())
        keep = present | {p for p, _, _ in refused}
        if scope is not None:  # errors of files outside a partial walk stay as they are
            keep |= {p for name, p, *_ in self.store.file_errors(limit=1 << 62) if name == collection.name and not scope(p)}
        self.store.clear_errors_except(collection.id, keep)

    def _write_batch(
        self, collection: CollectionRecord, run_id: int, batch: list[tuple[DocumentWrite, KnownFile | None, str]],
        touches: list[tuple[int, int, int]], errors: list[FileFailure], cleared: list[str],
    ) -> int:
        """Write one batch (in the writer thread); first keep the structure of the revisions
        it replaces, for ``cairn diff``."""
        keep_old_revisions(self.store, [known for _, known, _ in batch if known is not None])
        return self.store.write_documents(collection, run_id, batch, touches, errors, cleared)

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

        def start_pool(max_workers: int) -> ProcessPoolExecutor:
            return ProcessPoolExecutor(
                max_workers=max_workers, mp_context=mp.get_context(method), initializer=_init_worker,
                # Only a forked worker inherits this process's descriptors (the writer lock).
                initargs=(vanished, self.limits, self.count_tokens,
                          self.store.held_fds() if method == "fork" else ()),
            )

        done = 0  # chunks yielded
        while done < len(chunks):
            try:
                with start_pool(workers) as pool:
                    # A bounded window of chunks in flight keeps memory flat however large the corpus.
                    window: deque[Future[bytes]] = deque()
                    for chunk in chunks[done:]:
                        window.append(pool.submit(_prepare_in_worker, chunk))
                        if len(window) > PARALLEL_WINDOW * workers:
                            prepared = _decode(window.popleft().result())
                            done += 1
                            yield from prepared
                    while window:
                        prepared = _decode(window.popleft().result())
                        done += 1
                        yield from prepared
            except BrokenProcessPool:
                # A library killed its worker (a segfault, an abort): the pool is gone with
                # every chunk in flight. The first of them is redone apart to find the file,
                # the rest in a new pool (which isolates the next chunk if it crashes again).
                yield from prepare_isolated(chunks[done], start_pool)
                done += 1

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
