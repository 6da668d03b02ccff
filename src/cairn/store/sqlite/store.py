"""The embedded SQLite store: one file per index, WAL, FTS5 BM25.

Writers take a process-wide lock file (one indexer at a time); readers never block
thanks to WAL. Every ingest batch is one transaction, so a crash loses at most the
batch in flight and never leaves a half-written document.

The store is composed of one mixin per concern of :mod:`cairn.store.protocol`
(collections, documents, lexical search, vectors, links, runs and journal); this module
holds the connection's lifecycle, the migrations and the writer lock.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from cairn.errors import BusyError, NotFoundError, StoreError
from cairn.store.sqlite.base import utcnow
from cairn.store.sqlite.code import CodeMixin
from cairn.store.sqlite.collections import CollectionsMixin
from cairn.store.sqlite.delta import DeltaMixin
from cairn.store.sqlite.documents import DocumentsMixin
from cairn.store.sqlite.fts import LexicalMixin
from cairn.store.sqlite.jobs import JobsMixin  # the resident runtime (issue 16)
from cairn.store.sqlite.links import LinksMixin
from cairn.store.sqlite.memory import MemoryMixin, body_embed_hash  # agent memory (issue 14)
from cairn.store.sqlite.memory_terms import MemoryTermsMixin  # plan speed (issue 14)
from cairn.store.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION
from cairn.store.sqlite.runs import RunsMixin
from cairn.store.sqlite.text_facts import TextFactsMixin
from cairn.store.sqlite.vectors import VectorsMixin


def check_fts5() -> tuple[bool, str]:
    """Whether this Python's SQLite has FTS5, with a line for ``doctor``."""
    try:
        probe = sqlite3.connect(":memory:")
        probe.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
        probe.close()
        return True, f"SQLite {sqlite3.sqlite_version} with FTS5"
    except sqlite3.Error as exc:
        return False, f"SQLite {sqlite3.sqlite_version}: FTS5 unavailable ({exc})"


class SQLiteStore(
    CollectionsMixin, DocumentsMixin, LexicalMixin, VectorsMixin, LinksMixin, RunsMixin,
    MemoryMixin,  # agent memory (issue 14)
    JobsMixin,  # the resident runtime (issue 16)
    DeltaMixin,  # knowledge delta (issue 16)
    CodeMixin,
    MemoryTermsMixin,  # plan speed (issue 14): memory's BM25 outside FTS5
    TextFactsMixin,  # plan speed (issue 14): token counts and stems stored with each text
):
    """All persistent state of one index, in one SQLite file: the
    :class:`~cairn.store.protocol.Store` protocol, one mixin per concern."""

    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        """Open (``create``: or create) the index at ``path`` and migrate it; ``read_only``:
        a connection that only reads an index opened before (see :meth:`reader`)."""
        self.path = path
        self._lock_fd: int | None = None
        self._reader: SQLiteStore | None = None
        self._reader_lock = threading.Lock()
        if not create and not path.exists():
            raise NotFoundError(f"index file {path} does not exist")
        try:
            if read_only:
                self.conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                            check_same_thread=False)
                self.conn.execute("PRAGMA busy_timeout = 10000")
                self.conn.execute("PRAGMA cache_size = -32000")
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA cache_size = -32000")
            # Migration 12 fills memory records' text addresses with it.
            self.conn.create_function("cairn_embed_hash", 1, body_embed_hash, deterministic=True)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open index {path}: {exc}") from exc

    # --- lifecycle -----------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (and release the writer lock if held), and the reader's."""
        with self._reader_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
        self.release_writer()
        self.conn.close()

    def _migrate(self) -> None:
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        applied = {row[0] for row in self.conn.execute("SELECT version FROM migrations")}
        if applied and max(applied) > SCHEMA_VERSION:
            raise StoreError(
                f"index {self.path} has schema version {max(applied)}, newer than this cairn "
                f"({SCHEMA_VERSION}); upgrade cairn"
            )
        for migration in MIGRATIONS:
            if migration.version in applied:
                continue
            with self.transaction():
                for statement in _split_sql(migration.sql):
                    self.conn.execute(statement)
                if migration.fill is not None:
                    migration.fill(self.conn)
                self.conn.execute(
                    "INSERT INTO migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, utcnow()),
                )

    def reader(self) -> SQLiteStore:
        """A second, read-only connection to this index, opened on first use and closed
        with this store: a plan recalls memory on a helper thread while this connection
        runs the passages' search, and SQLite runs one statement per connection at a time."""
        with self._reader_lock:
            if self._reader is None:
                self._reader = SQLiteStore(self.path, create=False, read_only=True)
            return self._reader

    @property
    def schema_version(self) -> int:
        row = self.conn.execute("SELECT max(version) FROM migrations").fetchone()
        return int(row[0] or 0)

    @property
    def location(self) -> str:
        """The index file (a cache key for what is loaded from it)."""
        return str(self.path)

    @contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """A run of several write transactions: the WAL is checkpointed once, at the end,
        instead of after every commit that pushed it past SQLite's 1000-page threshold."""
        self.conn.execute("PRAGMA wal_autocheckpoint = 0")
        try:
            yield
        finally:
            self.conn.execute("PRAGMA wal_autocheckpoint = 1000")
            # A busy reader may refuse: the next commit past the threshold checkpoints instead.
            with suppress(sqlite3.OperationalError):
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def acquire_writer(self) -> None:
        """Take the index's writer lock, or fail at once if another process holds it."""
        if self._lock_fd is not None:
            return
        fd = os.open(str(self.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise BusyError(
                f"another cairn process is writing index {self.path.name}; try again when it ends"
            ) from None
        self._lock_fd = fd

    def held_fds(self) -> tuple[int, ...]:
        """File descriptors a forked helper process must close (the writer lock)."""
        return () if self._lock_fd is None else (self._lock_fd,)

    def release_writer(self) -> None:
        """Release the writer lock if this store holds it."""
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    def writer_lock_held(self) -> bool:
        """Whether some process (this one included) currently holds the writer lock."""
        if self._lock_fd is not None:
            return True
        try:
            fd = os.open(str(self.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    # --- health ----------------------------------------------------------------------

    def size_bytes(self) -> int:
        """Bytes on disk: the index file and its write-ahead log."""
        total = 0
        for suffix in ("", "-wal"):
            with suppress(FileNotFoundError):
                total += os.stat(str(self.path) + suffix).st_size
        return total

    def quick_check(self) -> str:
        """SQLite's ``PRAGMA quick_check``: "ok" or the first problems found."""
        return str(self.conn.execute("PRAGMA quick_check").fetchone()[0])


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (our migrations hold no ';' inside literals)."""
    statements, buffer = [], []
    for line in script.splitlines():
        stripped = line.split("--", 1)[0]
        buffer.append(stripped)
        if stripped.rstrip().endswith(";"):
            statements.append("\n".join(buffer).strip())
            buffer = []
    tail = "\n".join(buffer).strip()
    if tail:
        statements.append(tail)
    return [s for s in statements if s and s != ";"]

