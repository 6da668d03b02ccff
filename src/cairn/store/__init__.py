"""Storage backends behind the :class:`~cairn.store.protocol.Store` protocol.

:func:`open_store` is the one place a backend is chosen; everything else types against
the protocols of :mod:`cairn.store.protocol`.
"""

from __future__ import annotations

from pathlib import Path

from cairn.store.protocol import Store

__all__ = ["Store", "check_backend", "open_store"]


def open_store(path: Path, *, create: bool = True) -> Store:
    """Open (or create) the index at ``path`` with the embedded SQLite backend."""
    from cairn.store.sqlite import SQLiteStore

    return SQLiteStore(path, create=create)


def check_backend() -> tuple[bool, str]:
    """Whether the default backend can run here, with a line for ``doctor``."""
    from cairn.store.sqlite import check_fts5

    return check_fts5()
