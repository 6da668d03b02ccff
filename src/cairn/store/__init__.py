"""Storage backends behind the :class:`~cairn.store.protocol.Store` protocol.

:func:`open_store` is the one place a backend is chosen; everything else types against
the protocols of :mod:`cairn.store.protocol`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's (nor pathlib): the hook's fast path imports this package
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from cairn.store.protocol import Store

__all__ = ["Store", "append_hook_event", "check_backend", "open_store"]


def __getattr__(name: str) -> Any:
    # Lazy: the hook's fast path (cairn.store.sqlite.events) must not load the protocols.
    if name == "Store":
        from cairn.store.protocol import Store

        return Store
    raise AttributeError(name)


def open_store(path: Path, *, create: bool = True) -> Store:
    """Open (or create) the index at ``path`` with the embedded SQLite backend."""
    from cairn.store.sqlite import SQLiteStore

    return SQLiteStore(path, create=create)


def append_hook_event(path: str | Path, event: str, session_id: str | None, cwd: str | None,
                      payload: dict[str, object], *, leave_open: bool = False) -> int | None:
    """Append one hook event to the index at ``path`` with the standard library only (the
    foreground path of ``cairn hook``); None when the index is missing or older than hook
    events (then open it with :func:`open_store`, which migrates, and append there).
    ``leave_open``: for a process about to end with :func:`os._exit` (see
    :func:`cairn.store.sqlite.events.append_event_fast`)."""
    from cairn.store.sqlite.events import append_event_fast

    return append_event_fast(path, event, session_id, cwd, payload, leave_open=leave_open)


def check_backend() -> tuple[bool, str]:
    """Whether the default backend can run here, with a line for ``doctor``."""
    from cairn.store.sqlite import check_fts5

    return check_fts5()
