"""The index worker processes: start method, initialiser, parent-death guard, preparing a chunk of files, and the marshal encoding of results across the process boundary."""

from __future__ import annotations

import contextlib
import dataclasses
import marshal
import multiprocessing as mp
import os
import pickle
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cairn.ingest.prepare import IngestLimits, Prepared, TokenCounter, prepare_file
from cairn.ingest.walker import FoundFile
from cairn.store.records import (
    DocumentWrite,
    FileFailure,
    LinkRow,
    PassageRow,
)

#: Added to the workers' nice value.
WORKER_NICENESS = 10

_worker_args: tuple[frozenset[str], IngestLimits, TokenCounter] | None = None
#: A file to prepare: what the walk found, the hash the store knows for its path, and
#: its recorded failure.
Job = tuple[FoundFile, str | None, FileFailure | None]
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


#: The error of a file whose conversion killed the worker process running it.
CRASHED = ("corrupt", "converting this file crashed the worker process (a segfault or abort in its library)")


def prepare_isolated(jobs: list[Job], start_pool: Callable[[int], ProcessPoolExecutor]) -> list[Prepared]:
    """Prepare ``jobs`` that were in flight when a worker died, in fresh one-worker pools,
    halving them until the file that kills its worker is alone: that file fails with
    :data:`CRASHED` (recorded like ``corrupt``, so the next run does not crash on it
    again); every other file is prepared as usual."""
    try:
        with start_pool(1) as pool:
            return _decode(pool.submit(_prepare_in_worker, jobs).result())
    except BrokenProcessPool:
        if len(jobs) == 1:
            return [Prepared(jobs[0][0], "", None, CRASHED)]
        half = len(jobs) // 2
        return prepare_isolated(jobs[:half], start_pool) + prepare_isolated(jobs[half:], start_pool)


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
