"""The embedded SQLite backend: one file per index, WAL, FTS5 BM25, vectors as blobs."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the hook's fast path imports this package
if TYPE_CHECKING:
    from typing import Any

    from cairn.store.sqlite.store import SQLiteStore, check_fts5

__all__ = ["SQLiteStore", "check_fts5"]


def __getattr__(name: str) -> Any:
    # Lazy: the hook's fast path (cairn.store.sqlite.events) must not load the whole store.
    if name in __all__:
        from cairn.store.sqlite import store

        return getattr(store, name)
    raise AttributeError(name)
