"""The resident runtime: watch the collections, keep the index current, say so.

Three threads and one writer:

- the **watcher** blocks in :func:`watchfiles.watch` (inotify/FSEvents; no polling of the
  files) and turns each settled batch of changes into an ``index`` job per collection;
- the **worker** is the only thread that runs jobs, one at a time, oldest first: ``index``
  (only the changed paths), then ``embed`` (new passages, when the index has vectors) and
  ``reverify`` (saved capsules citing the changed documents, through a port);
- the **heartbeat** records pid, lag and last error every few seconds.

Every event (``index.changed``, ``capsule.reverified``, ``job.failed``) is appended to the
store's event log after the commit it describes, then offered to the
:class:`~cairn.runtime.events.EventBus`. Jobs are durable: a job that was running when
the process died is queued again at the next start (re-indexing paths is idempotent);
on SIGINT/SIGTERM an index job is finished, an embed job stops after its current batch
(committed) and goes back to the queue.

Debounce: :func:`watchfiles.watch` hands over a batch once no new change arrived for
``step_ms`` (50 ms), and groups changes for at most ``debounce_ms`` (1600 ms).
"""

from __future__ import annotations

import fcntl
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from cairn import contracts as c
from cairn.errors import BusyError, CairnError
from cairn.runtime.events import EventBus
from cairn.runtime.service import parse_time
from cairn.runtime.watch import WHOLE, WatchedRoot, affected_paths, merge_paths, watched_roots
from cairn.store.protocol import (
    CollectionStore,
    EventLog,
    JobQueue,
    RunJournal,
    RuntimeBeat,
    StoreLifecycle,
)
from cairn.store.records import JobRecord

log = logging.getLogger("cairn.runtime")

#: ``progress(done, total)``: called by index and embed as they go (the runtime stops there).
Progress = Callable[[int, int], None]


class RuntimeStore(JobQueue, RuntimeBeat, EventLog, CollectionStore, RunJournal, StoreLifecycle, Protocol):
    """What the runtime keeps in the index: its queue, heartbeat and events; it reads the
    collections and the change journal."""



def require_watchfiles() -> None:
    """ValidationError with the install hint when ``watchfiles`` is missing (a base
    install): a runtime must not start with a watcher that cannot run."""
    import importlib.util

    if importlib.util.find_spec("watchfiles") is None:
        from cairn.errors import ValidationError

        raise ValidationError("watchfiles is not installed (the runtime watches files with it): "
                              "pip install 'cairn[runtime]'")

@dataclass(frozen=True, slots=True)
class RuntimeSettings:
    """How the runtime runs (``cairn daemon`` / ``cairn serve`` options)."""

    #: watchfiles: a batch is handed over after ``step_ms`` without a new change, or after
    #: ``debounce_ms`` at most while changes keep coming.
    debounce_ms: int = 1600
    step_ms: int = 50
    heartbeat_s: float = 5.0
    #: A job that fails (or kills the process) this many times is failed for good.
    max_attempts: int = 3
    #: Seconds before the first retry of a failed job (doubled at each attempt, at most 30).
    retry_backoff_s: float = 2.0
    keep_events: int = 10_000
    keep_jobs: int = 1_000
    #: Embed new passages after indexing: True, False, or None (when the index has vectors).
    embed: bool | None = None
    watch: bool = True
    #: Reconcile every collection at start (changes made while no runtime ran).
    catch_up: bool = True


@dataclass(frozen=True, slots=True)
class RuntimePorts:
    """What the runtime drives, wired by the composition root (the Workspace's methods)."""

    #: ``index(collection, paths or None for all, progress)``.
    index: Callable[[str, Sequence[str] | None, Progress], c.IndexSummary]
    #: ``embed(collection, progress)``; None: never embed.
    embed: Callable[[str, Progress], c.EmbedSummary] | None = None
    #: Whether the index has vectors (``embed=None`` embeds only then).
    has_vectors: Callable[[], bool] = lambda: False
    #: ``reverify(docids)``: re-check saved capsules citing these documents; one receipt
    #: (a pydantic model or a dict) per capsule reverified. None: no saved capsules yet.
    reverify: Callable[[Sequence[str]], Sequence[BaseModel | dict[str, Any]]] | None = None
    #: ``cursor(journal_seq)``: the opaque change-journal cursor of a position (what
    #: ``changes --since`` takes), sent in ``index.changed``; None: the position only.
    cursor: Callable[[int], str] | None = None


class _Stopping(Exception):
    """Raised from a progress callback: the runtime is shutting down."""


class _Either:
    """``is_set`` of two events (watchfiles checks its stop event at every step)."""

    def __init__(self, *events: threading.Event) -> None:
        self._events = events

    def is_set(self) -> bool:
        return any(e.is_set() for e in self._events)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Runtime:
    """The resident runtime of one index (see the module docstring)."""

    def __init__(
        self, state: RuntimeStore, ports: RuntimePorts, settings: RuntimeSettings | None = None, *,
        bus: EventBus | None = None, lock_path: Path | None = None,
    ) -> None:
        """``state`` is a store connection of the runtime's own (used under one lock,
        closed by :meth:`stop`);
        ``lock_path`` makes this the only runtime of the index."""
        self.settings = settings or RuntimeSettings()
        self.bus = bus
        self._state = state
        self._ports = ports
        self._lock_path = lock_path
        self._lock_fd: int | None = None
        self._state_lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._rewatch = threading.Event()
        self._idle = threading.Event()
        self._threads: list[threading.Thread] = []
        self._roots: tuple[WatchedRoot, ...] = ()
        self._watching = threading.Event()
        self._started_at = _now()
        self._last_error: str | None = None
        self.pid = os.getpid()

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Take the index's runtime lock, resume the queue, start the threads."""
        self._take_lock()
        with self._state_lock:
            requeued, failed = self._state.requeue_running(self.settings.max_attempts)
            self._roots = watched_roots(self._state.list_collections())
        if requeued or failed:
            log.info("resumed %d job(s) left running; %d failed after repeated crashes", requeued, failed)
        if self.settings.watch:
            # Watch first, then catch up: a change made while the catch-up walks is seen
            # by the watcher; one made before it is seen by the walk.
            self._spawn(self._watch_loop)
            if not self._watching.wait(30.0):
                self._last_error = f"{_now()} watcher: not ready after 30 s"
        if self.settings.catch_up:
            for root in self._roots:
                self._enqueue_index(root.name, WHOLE)
        self._beat()
        self._spawn(self._work_loop)
        self._spawn(self._beat_loop)

    def _spawn(self, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=f"cairn-{target.__name__.strip('_')}", daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self, timeout: float = 30.0) -> None:
        """Stop: the current job finishes (index) or goes back to the queue at its next
        batch (embed); record the stop. A job still running after ``timeout`` stays
        ``running`` in the queue and is resumed by the next runtime."""
        self._stop.set()
        self._wake.set()
        self._rewatch.set()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(t.is_alive() for t in self._threads):
            log.warning("a job is still running after %.0f s; the next runtime resumes it", timeout)
            self._release_lock()
            return
        self._threads = []
        with self._state_lock:
            self._state.mark_stopped(self.pid)
            self._state.close()
        self._release_lock()

    def run_forever(self) -> None:
        """Start, then block until SIGINT or SIGTERM (main thread only), then stop."""
        def on_signal(signum: int, frame: object) -> None:
            self._stop.set()
            self._wake.set()
            self._rewatch.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.start()
            while not self._stop.wait(3600):
                pass
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    @property
    def watched(self) -> tuple[WatchedRoot, ...]:
        """The collections' folders being watched."""
        return self._roots

    def wait_watching(self, timeout: float = 10.0) -> bool:
        """Block until the watcher is set up (tests, benchmarks)."""
        return self._watching.wait(timeout)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until no job is queued or running (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._state_lock:
                counts = self._state.job_counts()
            if counts["queued"] == 0 and counts["running"] == 0:
                return True
            self._idle.wait(0.05)
            self._idle.clear()
        return False

    def _take_lock(self) -> None:
        if self._lock_path is None:
            return
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise BusyError("a runtime is already attached to this index (cairn daemon or cairn serve); "
                            "see: cairn status") from None
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    # --- changes in, jobs queued ---------------------------------------------------------

    def enqueue_changes(self, changed: Iterable[str]) -> dict[str, list[str] | None]:
        """Queue an index job per collection for these changed absolute paths (those the
        collections' rules could index); returns what was queued."""
        affected = affected_paths(self._roots, changed)
        for name, paths in affected.items():
            self._enqueue_index(name, paths)
        return affected

    def _enqueue_index(self, collection: str, paths: list[str] | None) -> None:
        with self._state_lock:
            self._state.enqueue_job("index", {"collection": collection, "paths": paths},
                                    key=collection, merge=merge_paths)
        self._wake.set()

    # --- the worker: the one writer ------------------------------------------------------

    def _work_loop(self) -> None:
        while not self._stop.is_set():
            with self._state_lock:
                job = self._state.claim_job()
            if job is None:
                self._idle.set()
                self._wake.wait()
                self._wake.clear()
                continue
            self._run(job)
            self._idle.set()

    def _progress(self, done: int, total: int) -> None:
        if self._stop.is_set():
            raise _Stopping

    def _run(self, job: JobRecord) -> None:
        try:
            follow_ups = self._execute(job)
        except _Stopping:
            with self._state_lock:
                self._state.requeue_job(job.id)
            return
        except BusyError as exc:  # another process is writing the index: later
            with self._state_lock:
                self._state.finish_job(job.id, error=exc.message, retry=True)
            self._stop.wait(1.0)
            return
        except Exception as exc:
            message = exc.message if isinstance(exc, CairnError) else f"{type(exc).__name__}: {exc}"
            retry = not isinstance(exc, CairnError) and job.attempts < self.settings.max_attempts
            log.warning("job %d (%s) failed: %s", job.id, job.kind, message)
            with self._state_lock:
                self._state.finish_job(job.id, error=message, retry=retry)
            if retry:
                self._stop.wait(min(30.0, self.settings.retry_backoff_s * 2 ** (job.attempts - 1)))
                return
            self._last_error = f"{_now()} job {job.id} ({job.kind}) failed: {message}"
            self.publish("job.failed", {"job_id": job.id, "kind": job.kind, "payload": job.payload,
                                         "attempts": job.attempts, "error": message})
            return
        with self._state_lock:
            self._state.finish_job(job.id)
        for publish in follow_ups:
            publish()

    def _execute(self, job: JobRecord) -> list[Callable[[], None]]:
        """Run one job; returns what to do after it is recorded done (events, new jobs)."""
        match job.kind:
            case "index":
                return self._index(job)
            case "embed":
                if self._ports.embed is not None:
                    self._ports.embed(str(job.payload["collection"]), self._progress)
                return []
            case "reverify":
                return self._reverify(job)

    def _index(self, job: JobRecord) -> list[Callable[[], None]]:
        collection = str(job.payload["collection"])
        paths = job.payload.get("paths")
        with self._state_lock:
            before = self._state.journal_position()
        # Not interrupted (index only the changed paths is short; a batch in flight is
        # written on another thread): a SIGTERM waits for it, a SIGKILL resumes it.
        summary = self._ports.index(collection, paths, _no_progress)
        with self._state_lock:
            changes = []
            after = before
            while batch := self._state.changes(after, 1000):
                changes += [ch for ch in batch if ch.run_id == summary.run_id]
                after = batch[-1].seq
        if not changes:
            return []
        docids = sorted({ch.docid for ch in changes})
        seq = changes[-1].seq
        event = {"collection": collection, "run_id": summary.run_id, "docids": docids,
                 "counts": summary.counts.model_dump(), "journal_seq": seq,
                 "cursor": self._ports.cursor(seq) if self._ports.cursor is not None else None,
                 "paths": paths}

        def follow_up() -> None:
            self.publish("index.changed", event)
            embed = self.settings.embed
            if self._ports.embed is not None and (embed or (embed is None and self._ports.has_vectors())):
                with self._state_lock:
                    self._state.enqueue_job("embed", {"collection": collection}, key=collection)
            if self._ports.reverify is not None:
                with self._state_lock:
                    self._state.enqueue_job("reverify", {"docids": docids}, key="reverify", merge=_union_docids)
            self._wake.set()

        return [follow_up]

    def _reverify(self, job: JobRecord) -> list[Callable[[], None]]:
        if self._ports.reverify is None:
            return []
        receipts = self._ports.reverify([str(d) for d in job.payload.get("docids", [])])
        data = [r.model_dump(mode="json") if isinstance(r, BaseModel) else dict(r) for r in receipts]
        return [partial(self.publish, "capsule.reverified", receipt) for receipt in data]

    def publish(self, kind: str, data: dict[str, Any]) -> None:
        """Append an event to the log (its own commit), then offer it to live subscribers
        (under the lock, so they get events in id order; offering never blocks)."""
        with self._state_lock:
            event = self._state.append_event(kind, data, keep=self.settings.keep_events)
            if self.bus is not None:
                self.bus.publish(event)

    # --- the heartbeat ---------------------------------------------------------------------

    def _beat(self) -> None:
        with self._state_lock:
            oldest = self._state.oldest_pending_at()
            lag_ms = 0
            if oldest is not None:
                lag_ms = max(0, int((datetime.now(UTC) - parse_time(oldest)).total_seconds() * 1000))
            self._state.beat(self.pid, self._started_at, lag_ms, self._last_error)

    def _beat_loop(self) -> None:
        beats = 0
        while not self._stop.wait(self.settings.heartbeat_s):
            try:
                self._beat()
                beats += 1
                with self._state_lock:
                    roots = watched_roots(self._state.list_collections())
                    if beats % 100 == 0:
                        self._state.prune_jobs(self.settings.keep_jobs)
                if roots != self._roots:  # a collection was added, removed or moved
                    self._roots = roots
                    self._rewatch.set()
                    for root in roots:
                        self._enqueue_index(root.name, WHOLE)
            except Exception as exc:  # keep beating: a stale heartbeat would say "stopped"
                self._last_error = f"{_now()} heartbeat: {type(exc).__name__}: {exc}"
                log.warning("heartbeat failed: %s", exc)

    # --- the watcher -------------------------------------------------------------------------

    def _watch_loop(self) -> None:
        import watchfiles

        while not self._stop.is_set():
            roots = self._roots
            self._rewatch.clear()
            folders = [r.root for r in roots if os.path.isdir(r.root)]
            if not folders:
                self._watching.set()
                self._rewatch.wait(self.settings.heartbeat_s)  # nothing to watch until a collection appears
                continue
            try:
                # yield_on_timeout: the first (possibly empty) batch proves the OS watch is
                # in place; afterwards an idle watcher wakes once a second, nothing more.
                watcher = watchfiles.watch(
                    *folders, debounce=self.settings.debounce_ms, step=self.settings.step_ms,
                    stop_event=_Either(self._stop, self._rewatch), raise_interrupt=False,
                    ignore_permission_denied=True, rust_timeout=1000, yield_on_timeout=True,
                )
                for changes in watcher:
                    self._watching.set()
                    if changes:
                        self.enqueue_changes(path for _, path in changes)
            except Exception as exc:  # a folder vanished, too many watches: visible, retried
                self._last_error = f"{_now()} watcher: {type(exc).__name__}: {exc}"
                log.warning("watcher failed: %s", exc)
                self._stop.wait(self.settings.heartbeat_s)


def _no_progress(done: int, total: int) -> None:
    pass


def _union_docids(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {"docids": sorted(set(old.get("docids", [])) | set(new.get("docids", [])))}
