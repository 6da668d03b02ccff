"""The embedded SQLite backend: one file per index, WAL, FTS5 BM25, vectors as blobs."""

from cairn.store.sqlite.store import SQLiteStore, check_fts5

__all__ = ["SQLiteStore", "check_fts5"]
