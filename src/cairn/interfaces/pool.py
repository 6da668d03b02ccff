"""Run Workspace calls for the servers: one Workspace per worker thread.

A :class:`~cairn.workspace.Workspace` holds one SQLite connection. Sharing one behind a
lock would make every reader wait for every other; instead each worker thread opens its
own Workspace (its own connection), so readers run side by side (SQLite WAL; the GIL is
released inside SQLite and NumPy) and never block each other. Writes from this process
queue on one in-process lock, so two captures wait for each other rather than fail;
the index's writer lock (a file lock) still refuses a writer in another process
(``index_busy``). The factory gives every Workspace the same
:class:`~cairn.models.hub.ModelHub`, so the threads share one loaded embedding model and
one vector matrix cache.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from cairn.workspace import Workspace

T = TypeVar("T")

DEFAULT_WORKERS = 4


class WorkspacePool:
    """A fixed set of worker threads, each with its own Workspace from ``factory``."""

    def __init__(self, factory: Callable[[], Workspace], workers: int = DEFAULT_WORKERS) -> None:
        if workers < 1:
            raise ValueError("workers must be 1 or more")
        self._factory = factory
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cairn-worker")
        self._local = threading.local()
        self._opened: list[Workspace] = []
        self._opened_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self.workers = workers

    def _workspace(self) -> Workspace:
        ws: Workspace | None = getattr(self._local, "workspace", None)
        if ws is None:
            ws = self._factory()
            self._local.workspace = ws
            with self._opened_lock:
                self._opened.append(ws)
        return ws

    def _run_here(self, fn: Callable[[Workspace], T], write: bool) -> T:
        if write:
            with self._write_lock:
                return fn(self._workspace())
        return fn(self._workspace())

    def call(self, fn: Callable[[Workspace], T], *, write: bool = False) -> T:
        """Run ``fn(workspace)`` on a worker thread and wait for it (for synchronous callers)."""
        return self._executor.submit(self._run_here, fn, write).result()

    async def run(self, fn: Callable[[Workspace], T], *, write: bool = False) -> T:
        """Run ``fn(workspace)`` on a worker thread without blocking the event loop."""
        return await asyncio.wrap_future(self._executor.submit(self._run_here, fn, write))

    def close(self) -> None:
        """Stop the workers and close every Workspace they opened."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        with self._opened_lock:
            for ws in self._opened:
                ws.close()
            self._opened.clear()
