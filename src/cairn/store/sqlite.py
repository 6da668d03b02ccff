"""The embedded SQLite store: one file per index, WAL, FTS5 BM25.

Writers take a process-wide lock file (one indexer at a time); readers never block
thanks to WAL. Every ingest batch is one transaction, so a crash loses at most the
batch in flight and never leaves a half-written document.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cairn.errors import BusyError, ConflictError, NotFoundError, StoreError
from cairn.store.migrations import MIGRATIONS, SCHEMA_VERSION
from cairn.store.records import (
    CollectionRecord,
    DocumentRecord,
    DocumentWrite,
    KnownFile,
    PassageHit,
    SearchFilter,
    dumps_json,
    json_list,
)

#: BM25 column weights for (title, headings, body): titles and headings count more.
BM25_WEIGHTS = (4.0, 2.0, 1.0)


def utcnow() -> str:
    """Current time as an ISO-8601 UTC string with second precision."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _json_dict(value: dict[str, Any]) -> str:
    return dumps_json(value) if value else "{}"


def _chunks(values: Sequence[Any], size: int = 500) -> Iterator[list[Any]]:
    """``values`` in lists of at most ``size``: an ``IN (...)`` list stays under SQLite's
    bound-parameter limit."""
    for start in range(0, len(values), size):
        yield list(values[start : start + size])


def light_hit(passage_id: int, docid: str, score: float) -> PassageHit:
    """A candidate hit: passage id, docid and score only (metadata is filled in by
    :meth:`SQLiteStore.complete_hits` for the hits that are returned)."""
    return PassageHit(passage_id, docid, "", "", "", 0, 0, (), "", score)


class SQLiteStore:
    """All persistent state of one index, in one SQLite file."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if not create and not path.exists():
            raise NotFoundError(f"index file {path} does not exist")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA cache_size = -32000")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open index {path}: {exc}") from exc
        self._lock_fd: int | None = None

    # --- lifecycle -----------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (and release the writer lock if held)."""
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
                self.conn.execute(
                    "INSERT INTO migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, utcnow()),
                )

    @property
    def schema_version(self) -> int:
        row = self.conn.execute("SELECT max(version) FROM migrations").fetchone()
        return int(row[0] or 0)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on error)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

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
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    # --- collections -----------------------------------------------------------------

    def add_collection(
        self, name: str, root: str, include: Sequence[str], exclude: Sequence[str], context: str | None,
        *, sequence: bool = False,
    ) -> CollectionRecord:
        with self.transaction():
            if self.conn.execute("SELECT 1 FROM collections WHERE name = ?", (name,)).fetchone():
                raise ConflictError(f"collection {name!r} already exists")
            self.conn.execute(
                "INSERT INTO collections(name, root, include_globs, exclude_globs, context, created_at, sequence)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, root, dumps_json(list(include)), dumps_json(list(exclude)), context, utcnow(), int(sequence)),
            )
        return self.get_collection(name)

    def configure_collection(
        self, name: str, *, sequence: bool | None = None, context: str | None = None,
    ) -> CollectionRecord:
        """Change a collection's settings; ``None`` leaves a setting as it is."""
        collection = self.get_collection(name)
        with self.transaction():
            if sequence is not None:
                self.conn.execute("UPDATE collections SET sequence = ? WHERE id = ?", (int(sequence), collection.id))
            if context is not None:
                self.conn.execute("UPDATE collections SET context = ? WHERE id = ?", (context or None, collection.id))
        return self.get_collection(name)

    def remove_collection(self, name: str) -> int:
        """Delete a collection and everything derived from it; returns documents removed."""
        collection = self.get_collection(name)
        with self.transaction():
            count = self.conn.execute(
                "SELECT count(*) FROM documents WHERE collection_id = ?", (collection.id,)
            ).fetchone()[0]
            self._delete_passages_where("d.collection_id = ?", (collection.id,))
            self.conn.execute("DELETE FROM documents WHERE collection_id = ?", (collection.id,))
            self.conn.execute("DELETE FROM collections WHERE id = ?", (collection.id,))
        return int(count)

    def list_collections(self) -> list[CollectionRecord]:
        rows = self.conn.execute(
            "SELECT id, name, root, include_globs, exclude_globs, context, created_at, last_indexed_at, sequence"
            " FROM collections ORDER BY name"
        ).fetchall()
        return [_collection(row) for row in rows]

    def get_collection(self, name: str) -> CollectionRecord:
        row = self.conn.execute(
            "SELECT id, name, root, include_globs, exclude_globs, context, created_at, last_indexed_at, sequence"
            " FROM collections WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no collection named {name!r}")
        return _collection(row)

    def collection_counts(self) -> dict[int, tuple[int, int]]:
        """Active documents and passages per collection id."""
        counts: dict[int, tuple[int, int]] = {}
        for cid, docs in self.conn.execute(
            "SELECT collection_id, count(*) FROM documents WHERE active = 1 GROUP BY collection_id"
        ):
            counts[cid] = (docs, 0)
        for cid, passages in self.conn.execute(
            "SELECT d.collection_id, count(*) FROM passages p JOIN documents d ON d.id = p.document_id"
            " GROUP BY d.collection_id"
        ):
            counts[cid] = (counts.get(cid, (0, 0))[0], passages)
        return counts

    # --- ingest ------------------------------------------------------------------------

    def known_files(self, collection_id: int) -> dict[str, KnownFile]:
        """Everything the store remembers of a collection's paths (active or not)."""
        rows = self.conn.execute(
            "SELECT id, docid, path, size, mtime_ns, source_hash, text_hash, active"
            " FROM documents WHERE collection_id = ?",
            (collection_id,),
        )
        return {
            row[2]: KnownFile(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]))
            for row in rows
        }

    def all_docids(self) -> set[str]:
        """Every docid ever assigned in this index (docids are never reused)."""
        return {row[0] for row in self.conn.execute("SELECT docid FROM documents")}

    def start_run(self, collections: Sequence[str]) -> int:
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO index_runs(started_at, status, collections) VALUES (?, 'running', ?)",
                (utcnow(), dumps_json(list(collections))),
            )
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, counts: dict[str, int], collection_ids: Sequence[int]) -> None:
        now = utcnow()
        with self.transaction():
            self.conn.execute(
                "UPDATE index_runs SET finished_at = ?, status = 'completed', counts = ? WHERE id = ?",
                (now, dumps_json(counts), run_id),
            )
            self.conn.executemany(
                "UPDATE collections SET last_indexed_at = ? WHERE id = ?",
                [(now, cid) for cid in collection_ids],
            )

    def write_documents(
        self,
        collection: CollectionRecord,
        run_id: int,
        writes: Sequence[tuple[DocumentWrite, KnownFile | None, str]],
        touches: Sequence[tuple[int, int, int]],
        errors: Sequence[tuple[str, str, str]],
        cleared: Sequence[str],
    ) -> int:
        """Write one batch atomically; returns the number of passages written.

        ``writes`` holds (document, what the store knew of its path or None, docid for a new row);
        ``touches`` (id, size, mtime_ns) refreshes stat data of unchanged files; ``errors``
        (path, code, message) records failed files; ``cleared`` paths no longer fail.
        Rows are gathered first and written with one ``executemany`` per table: the batch
        allocates its own row ids so nothing waits for ``lastrowid``.
        """
        now = utcnow()
        conn = self.conn
        with self.transaction():
            next_doc = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM documents").fetchone()[0])
            next_passage = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM passages").fetchone()[0])
            new_docs: list[tuple[Any, ...]] = []
            changed_docs: list[tuple[Any, ...]] = []
            replaced: list[tuple[int]] = []
            texts: list[tuple[int, str]] = []
            headings: list[tuple[int, int, int, str, int]] = []
            tags: list[tuple[int, str]] = []
            links: list[tuple[Any, ...]] = []
            passages: list[tuple[Any, ...]] = []
            fts: list[tuple[int, str, str, str]] = []
            cjk: list[tuple[int, str]] = []
            journal: list[tuple[Any, ...]] = []
            for doc, known, docid in writes:
                common = (
                    doc.title, doc.kind, doc.converter, doc.converter_version, doc.size,
                    doc.mtime_ns, doc.source_hash, doc.text_hash, doc.encoding, doc.line_count,
                    _json_dict(doc.metadata), json_list(doc.tags), json_list(doc.aliases),
                    doc.doc_date, doc.author, now,
                )
                if known is None:
                    doc_id = next_doc
                    next_doc += 1
                    new_docs.append((doc_id, docid, collection.id, doc.path, *common, now))
                    journal.append((run_id, "create", docid, collection.name, None, doc.path, None,
                                    doc.source_hash, None, doc.text_hash, now))
                else:
                    doc_id = known.id
                    replaced.append((doc_id,))
                    changed_docs.append((doc.path, *common, doc_id))
                    kind = "update" if known.active else "reactivate"
                    journal.append((run_id, kind, known.docid, collection.name, known.path, doc.path,
                                    known.source_hash, doc.source_hash, known.text_hash,
                                    doc.text_hash, now))
                texts.append((doc_id, doc.text))
                headings += [(doc_id, i, lvl, text, line) for i, (lvl, text, line) in enumerate(doc.headings)]
                tags += [(doc_id, tag) for tag in doc.tags]
                links += [
                    (doc_id, i, ln.kind, ln.target, ln.anchor, ln.alias, int(ln.embed), ln.line,
                     ln.column, ln.raw)
                    for i, ln in enumerate(doc.links)
                ]
                for passage in doc.passages:
                    pid = next_passage
                    next_passage += 1
                    path_json = passage.heading_json or json_list(passage.heading_path)
                    passages.append((pid, doc_id, passage.seq, passage.start_line, passage.end_line,
                                     path_json, passage.passage_hash, passage.token_count,
                                     passage.page))
                    fts.append((pid, doc.title, " / ".join(passage.heading_path), passage.text))
                    if passage.cjk_text:
                        cjk.append((pid, passage.cjk_text))
            if replaced:
                ids = [doc_id for (doc_id,) in replaced]
                self._delete_passages_of(ids)
                for table in ("headings", "document_tags", "links", "document_text"):
                    conn.executemany(f"DELETE FROM {table} WHERE document_id = ?", replaced)
                conn.executemany(
                    "UPDATE documents SET path=?, title=?, kind=?, converter=?, converter_version=?,"
                    " size=?, mtime_ns=?, source_hash=?, text_hash=?, encoding=?, line_count=?,"
                    " metadata=?, tags=?, aliases=?, doc_date=?, author=?, indexed_at=?, active=1"
                    " WHERE id = ?",
                    changed_docs,
                )
            conn.executemany(
                "INSERT INTO documents(id, docid, collection_id, path, title, kind, converter,"
                " converter_version, size, mtime_ns, source_hash, text_hash, encoding, line_count,"
                " metadata, tags, aliases, doc_date, author, indexed_at, first_seen_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                new_docs,
            )
            conn.executemany("INSERT INTO document_text(document_id, text) VALUES (?, ?)", texts)
            conn.executemany(
                "INSERT INTO headings(document_id, seq, level, text, line) VALUES (?,?,?,?,?)", headings
            )
            conn.executemany("INSERT OR IGNORE INTO document_tags(document_id, tag) VALUES (?, ?)", tags)
            conn.executemany(
                "INSERT INTO links(document_id, seq, kind, target, anchor, alias, embed, line, col, raw)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)",
                links,
            )
            conn.executemany(
                "INSERT INTO passages(id, document_id, seq, start_line, end_line, heading_path,"
                " passage_hash, token_count, page) VALUES (?,?,?,?,?,?,?,?,?)",
                passages,
            )
            conn.executemany("INSERT INTO passages_fts(rowid, title, headings, body) VALUES (?,?,?,?)", fts)
            conn.executemany("INSERT INTO passages_cjk(rowid, body) VALUES (?, ?)", cjk)
            conn.executemany(
                "INSERT INTO changes(run_id, kind, docid, collection, old_path, new_path, old_source_hash,"
                " new_source_hash, old_text_hash, new_text_hash, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                journal,
            )
            if touches:
                conn.executemany(
                    "UPDATE documents SET size = ?, mtime_ns = ? WHERE id = ?",
                    [(size, mtime, doc_id) for doc_id, size, mtime in touches],
                )
            if errors:
                conn.executemany(
                    "INSERT OR REPLACE INTO file_errors(collection_id, path, code, message, seen_at)"
                    " VALUES (?,?,?,?,?)",
                    [(collection.id, path, code, msg, now) for path, code, msg in errors],
                )
            if cleared:
                conn.executemany(
                    "DELETE FROM file_errors WHERE collection_id = ? AND path = ?",
                    [(collection.id, path) for path in cleared],
                )
        return len(passages)

    def rename_document(
        self, collection: CollectionRecord, run_id: int, known: KnownFile, new_path: str,
        title: str, size: int, mtime_ns: int,
    ) -> None:
        """Move a document to a new path, keeping its docid, text and passages."""
        with self.transaction():
            # A stale inactive row may still occupy the new path; the renamed document wins.
            self.conn.execute(
                "DELETE FROM documents WHERE collection_id = ? AND path = ? AND active = 0",
                (collection.id, new_path),
            )
            self.conn.execute(
                "UPDATE documents SET path = ?, title = ?, size = ?, mtime_ns = ?, active = 1,"
                " indexed_at = ? WHERE id = ?",
                (new_path, title, size, mtime_ns, utcnow(), known.id),
            )
            self.conn.execute(
                "UPDATE passages_fts SET title = ? WHERE rowid IN"
                " (SELECT id FROM passages WHERE document_id = ?)",
                (title, known.id),
            )
            self.conn.execute(
                "INSERT INTO changes(run_id, kind, docid, collection, old_path, new_path,"
                " old_source_hash, new_source_hash, old_text_hash, new_text_hash, at)"
                " VALUES (?, 'rename', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, known.docid, collection.name, known.path, new_path, known.source_hash,
                 known.source_hash, known.text_hash, known.text_hash, utcnow()),
            )

    def deactivate_documents(
        self, collection: CollectionRecord, run_id: int, known: Iterable[KnownFile]
    ) -> int:
        """Mark documents whose files are gone as inactive; their text leaves the search index."""
        rows = list(known)
        if not rows:
            return 0
        with self.transaction():
            for item in rows:
                self._delete_passages_where("d.id = ?", (item.id,))
                for table in ("headings", "document_tags", "links", "document_text"):
                    self.conn.execute(f"DELETE FROM {table} WHERE document_id = ?", (item.id,))
                self.conn.execute(
                    "UPDATE documents SET active = 0, indexed_at = ? WHERE id = ?", (utcnow(), item.id)
                )
                self.conn.execute(
                    "INSERT INTO changes(run_id, kind, docid, collection, old_path, new_path,"
                    " old_source_hash, old_text_hash, at) VALUES (?, 'delete', ?, ?, ?, NULL, ?, ?, ?)",
                    (run_id, item.docid, collection.name, item.path, item.source_hash,
                     item.text_hash, utcnow()),
                )
                self.conn.execute(
                    "DELETE FROM file_errors WHERE collection_id = ? AND path = ?",
                    (collection.id, item.path),
                )
        return len(rows)

    def clear_errors_except(self, collection_id: int, present: set[str]) -> None:
        """Forget recorded errors of files that no longer exist."""
        rows = self.conn.execute(
            "SELECT path FROM file_errors WHERE collection_id = ?", (collection_id,)
        ).fetchall()
        gone = [(collection_id, path) for (path,) in rows if path not in present]
        if gone:
            with self.transaction():
                self.conn.executemany(
                    "DELETE FROM file_errors WHERE collection_id = ? AND path = ?", gone
                )

    def _delete_passages_of(self, doc_ids: Sequence[int]) -> None:
        ids = [
            (pid,)
            for doc_id in doc_ids
            for (pid,) in self.conn.execute("SELECT id FROM passages WHERE document_id = ?", (doc_id,))
        ]
        self._delete_passage_ids(ids)

    def _delete_passage_ids(self, ids: list[tuple[int]]) -> None:
        if ids:
            self.conn.executemany("DELETE FROM passages_fts WHERE rowid = ?", ids)
            self.conn.executemany("DELETE FROM passages_cjk WHERE rowid = ?", ids)
            self.conn.executemany("DELETE FROM passages WHERE id = ?", ids)

    def _delete_passages_where(self, where: str, params: tuple[Any, ...]) -> None:
        ids = [
            (row[0],)
            for row in self.conn.execute(
                f"SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id WHERE {where}",
                params,
            )
        ]
        self._delete_passage_ids(ids)

    # --- reads -----------------------------------------------------------------------------

    def search_fts(
        self, table: str, match: str, filters: SearchFilter, limit: int, *, with_text: bool = False,
        light: bool = False,
    ) -> list[tuple[PassageHit, str]]:
        """BM25-ranked passages matching an FTS5 expression, with filters applied inside the query.

        One statement: the ranking runs first and alone as a materialised subquery (joined
        with the filter tables only when there are filters), then metadata, and with
        ``with_text`` the passage text, are joined to its top ``limit`` rows only. Returns
        (hit without snippet, text or "") pairs in rank order. ``light`` hits carry only the
        passage id, docid and score (candidate lists; see :func:`light_hit`).
        """
        if table == "passages_fts":
            rank = "bm25(passages_fts, {}, {}, {})".format(*BM25_WEIGHTS)
        elif table == "passages_cjk":
            rank = "bm25(passages_cjk)"
        else:  # pragma: no cover - programming error
            raise ValueError(table)
        where, params = _filter_sql(filters)
        if where:
            ranking = (
                f"SELECT f.rowid AS id, {rank} AS r FROM {table} f JOIN passages p ON p.id = f.rowid"
                f" JOIN documents d ON d.id = p.document_id JOIN collections c ON c.id = d.collection_id"
                f" WHERE {table} MATCH ? AND d.active = 1{where} ORDER BY r, f.rowid LIMIT ?"
            )
        else:
            ranking = f"SELECT rowid AS id, {rank} AS r FROM {table} WHERE {table} MATCH ? ORDER BY r, rowid LIMIT ?"
        if light:
            columns, joins = "top.id, top.r, d.docid", ""
        else:
            text, joins = ("t.body", " JOIN passages_fts t ON t.rowid = top.id") if with_text else ("''", "")
            columns = ("top.id, top.r, d.docid, c.name, d.path, d.title, p.start_line, p.end_line,"
                       f" p.heading_path, {text}")
            joins = " JOIN collections c ON c.id = d.collection_id" + joins
        sql = (
            f"WITH top AS MATERIALIZED ({ranking}) SELECT {columns} FROM top"
            f" JOIN passages p ON p.id = top.id JOIN documents d ON d.id = p.document_id{joins}"
            " ORDER BY top.r, top.id"
        )
        try:
            rows = self.conn.execute(sql, (match, *params, limit)).fetchall()
        except sqlite3.OperationalError as exc:
            raise StoreError(f"search failed: {exc}") from exc
        if light:
            return [(light_hit(pid, docid, -float(score)), "") for pid, score, docid in rows]
        return [
            (PassageHit(
                passage_id=pid, docid=docid, collection=coll, path=path, title=title,
                start_line=start, end_line=end, heading_path=tuple(json.loads(headings)),
                snippet="", score=-float(score),
            ), body)
            for pid, score, docid, coll, path, title, start, end, headings, body in rows
        ]

    # --- vectors ---------------------------------------------------------------------------

    def pending_passages(
        self, fingerprint: str, collection_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[str, str]]:
        """Distinct (passage_hash, text) of active passages with no vector for ``fingerprint``."""
        where, params = "", []
        if collection_ids is not None:
            where = f" AND d.collection_id IN ({','.join('?' * len(collection_ids))})"
            params = list(collection_ids)
        rows = self.conn.execute(
            "SELECT p.passage_hash, min(p.id) FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.passage_hash = p.passage_hash"
            f" AND v.fingerprint = ?){where} GROUP BY p.passage_hash ORDER BY min(p.id) LIMIT ?",
            (fingerprint, *params, limit),
        ).fetchall()
        texts = self.passage_texts([pid for _, pid in rows])
        return [(passage_hash, texts[pid]) for passage_hash, pid in rows]

    def count_pending(self, fingerprint: str, collection_ids: Sequence[int] | None = None) -> int:
        where, params = "", []
        if collection_ids is not None:
            where = f" AND d.collection_id IN ({','.join('?' * len(collection_ids))})"
            params = list(collection_ids)
        return int(self.conn.execute(
            "SELECT count(DISTINCT p.passage_hash) FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.passage_hash = p.passage_hash"
            f" AND v.fingerprint = ?){where}",
            (fingerprint, *params),
        ).fetchone()[0])

    def write_vectors(self, fingerprint: str, rows: Sequence[tuple[str, bytes, int, int]]) -> None:
        """Store (passage_hash, float32 blob, dims, exact token count) rows in one transaction,
        and record the exact token counts on the passages."""
        now = utcnow()
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO vectors(passage_hash, fingerprint, dims, vector, token_count,"
                " embedded_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(h, fingerprint, dims, blob, tokens, now) for h, blob, dims, tokens in rows],
            )
            self.conn.executemany(
                "UPDATE passages SET token_count = ? WHERE passage_hash = ?",
                [(tokens, h) for h, _, _, tokens in rows],
            )

    def vector_rows(self, fingerprint: str) -> tuple[list[int], list[str], list[bytes]]:
        """(passage ids, their docids, vector blobs) of every passage that has a vector for
        ``fingerprint``."""
        ids: list[int] = []
        docids: list[str] = []
        blobs: list[bytes] = []
        for pid, docid, blob in self.conn.execute(
            "SELECT p.id, d.docid, v.vector FROM passages p JOIN documents d ON d.id = p.document_id"
            " JOIN vectors v ON v.passage_hash = p.passage_hash AND v.fingerprint = ? ORDER BY p.id",
            (fingerprint,),
        ):
            ids.append(pid)
            docids.append(docid)
            blobs.append(blob)
        return ids, docids, blobs

    def filtered_passage_ids(self, filters: SearchFilter) -> list[int]:
        """Ids of active passages that pass ``filters`` (for filtering inside vector search)."""
        where, params = _filter_sql(filters)
        return [row[0] for row in self.conn.execute(
            "SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id"
            f" JOIN collections c ON c.id = d.collection_id WHERE d.active = 1{where}",
            params,
        )]

    def passing_filters(self, passage_ids: Sequence[int], filters: SearchFilter) -> set[int]:
        """Those of ``passage_ids`` that are active and pass ``filters`` (for a few ids,
        where :meth:`filtered_passage_ids` would list a whole collection)."""
        where, params = _filter_sql(filters)
        passing: set[int] = set()
        for chunk in _chunks(passage_ids):
            marks = ",".join("?" * len(chunk))
            passing.update(row[0] for row in self.conn.execute(
                "SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id"
                f" JOIN collections c ON c.id = d.collection_id WHERE d.active = 1 AND p.id IN ({marks}){where}",
                [*chunk, *params],
            ))
        return passing

    def complete_hits(self, hits: Sequence[PassageHit]) -> list[PassageHit]:
        """Full hits (metadata, no snippet) for possibly light ones, same order and scores."""
        return self.passage_hits([(h.passage_id, h.score) for h in hits])

    def passage_hits(self, scored: Sequence[tuple[int, float]]) -> list[PassageHit]:
        """PassageHits (without snippets) for (passage id, score) pairs, in the given order."""
        if not scored:
            return []
        marks = ",".join("?" * len(scored))
        meta = {
            row[0]: row
            for row in self.conn.execute(
                "SELECT p.id, d.docid, c.name, d.path, d.title, p.start_line, p.end_line, p.heading_path"
                " FROM passages p JOIN documents d ON d.id = p.document_id"
                f" JOIN collections c ON c.id = d.collection_id WHERE p.id IN ({marks})",
                [pid for pid, _ in scored],
            )
        }
        return [
            PassageHit(
                passage_id=pid, docid=meta[pid][1], collection=meta[pid][2], path=meta[pid][3],
                title=meta[pid][4], start_line=meta[pid][5], end_line=meta[pid][6],
                heading_path=tuple(json.loads(meta[pid][7])), snippet="", score=score,
            )
            for pid, score in scored
            if pid in meta
        ]

    def sequence_documents(self, docids: Sequence[str]) -> list[tuple[str, int, str]]:
        """(docid, collection id, path) of those active ``docids`` whose collection is
        declared a sequence."""
        found: list[tuple[str, int, str]] = []
        for chunk in _chunks(docids):
            marks = ",".join("?" * len(chunk))
            found += [(row[0], row[1], row[2]) for row in self.conn.execute(
                "SELECT d.docid, d.collection_id, d.path FROM documents d"
                " JOIN collections c ON c.id = d.collection_id"
                f" WHERE c.sequence = 1 AND d.active = 1 AND d.docid IN ({marks})",
                chunk,
            )]
        return found

    def has_sequence_collections(self) -> bool:
        return self.conn.execute("SELECT 1 FROM collections WHERE sequence = 1 LIMIT 1").fetchone() is not None

    def documents_at(self, places: Sequence[tuple[int, str]]) -> dict[tuple[int, str], tuple[str, int]]:
        """Active documents at (collection id, path): their docid and first passage id
        (documents without passages are left out)."""
        found: dict[tuple[int, str], tuple[str, int]] = {}
        by_collection: dict[int, list[str]] = {}
        for cid, path in places:
            by_collection.setdefault(cid, []).append(path)
        for cid, paths in by_collection.items():
            for chunk in _chunks(paths):
                marks = ",".join("?" * len(chunk))
                for docid, path, pid in self.conn.execute(
                    "SELECT d.docid, d.path, (SELECT p.id FROM passages p WHERE p.document_id = d.id"
                    " ORDER BY p.seq LIMIT 1) FROM documents d"
                    f" WHERE d.collection_id = ? AND d.active = 1 AND d.path IN ({marks})",
                    [cid, *chunk],
                ):
                    if pid is not None:
                        found[(cid, path)] = (docid, pid)
        return found

    def document_passage_ids(self, docid: str) -> list[int]:
        return [row[0] for row in self.conn.execute(
            "SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id"
            " WHERE d.docid = ? ORDER BY p.seq", (docid,)
        )]

    def has_vectors(self, fingerprint: str) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM vectors WHERE fingerprint = ? LIMIT 1", (fingerprint,)
        ).fetchone() is not None

    def vector_counts(self) -> dict[str, int]:
        """Vectors per model fingerprint."""
        return dict(self.conn.execute("SELECT fingerprint, count(*) FROM vectors GROUP BY fingerprint").fetchall())

    def data_version(self) -> tuple[int, int, int]:
        """Changes whenever passages or vectors change (cache key for in-memory vector matrices)."""
        row = self.conn.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM passages), (SELECT count(*) FROM passages),"
            " (SELECT count(*) FROM vectors INDEXED BY vectors_fingerprint)"
        ).fetchone()
        return (int(row[0]), int(row[1]), int(row[2]))

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The exact text of passages by id."""
        if not passage_ids:
            return {}
        marks = ",".join("?" * len(passage_ids))
        return dict(self.conn.execute(
            f"SELECT rowid, body FROM passages_fts WHERE rowid IN ({marks})", list(passage_ids)
        ).fetchall())

    def find_document(self, *, docid: str | None = None, collection: str | None = None,
                      path: str | None = None) -> tuple[DocumentRecord, str | None] | None:
        """A document by docid or by (collection, path), with its text (None when inactive)."""
        base = (
            "SELECT d.id, d.docid, c.name, d.path, d.title, d.kind, d.size, d.source_hash,"
            " d.text_hash, d.line_count, d.tags, d.active, d.indexed_at,"
            " (SELECT count(*) FROM passages p WHERE p.document_id = d.id), t.text"
            " FROM documents d JOIN collections c ON c.id = d.collection_id"
            " LEFT JOIN document_text t ON t.document_id = d.id"
        )
        if docid is not None:
            row = self.conn.execute(base + " WHERE d.docid = ?", (docid,)).fetchone()
        else:
            row = self.conn.execute(base + " WHERE c.name = ? AND d.path = ?", (collection, path)).fetchone()
        if row is None:
            return None
        return _document(row), row[14]

    def list_documents(self, collection: str | None, path_prefix: str | None,
                       limit: int) -> list[DocumentRecord]:
        sql = (
            "SELECT d.id, d.docid, c.name, d.path, d.title, d.kind, d.size, d.source_hash,"
            " d.text_hash, d.line_count, d.tags, d.active, d.indexed_at,"
            " (SELECT count(*) FROM passages p WHERE p.document_id = d.id)"
            " FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.active = 1"
        )
        params: list[Any] = []
        if collection is not None:
            sql += " AND c.name = ?"
            params.append(collection)
        if path_prefix:
            sql += " AND substr(d.path, 1, ?) = ?"
            params += [len(path_prefix), path_prefix]
        sql += " ORDER BY c.name, d.path LIMIT ?"
        params.append(limit)
        return [_document(row) for row in self.conn.execute(sql, params)]

    def counts(self) -> dict[str, int]:
        one = self.conn.execute
        return {
            "documents": one("SELECT count(*) FROM documents WHERE active = 1").fetchone()[0],
            "inactive_documents": one("SELECT count(*) FROM documents WHERE active = 0").fetchone()[0],
            "passages": one("SELECT count(*) FROM passages").fetchone()[0],
        }

    def file_errors(self, limit: int = 200) -> list[tuple[str, str, str, str, str]]:
        return self.conn.execute(
            "SELECT c.name, e.path, e.code, e.message, e.seen_at FROM file_errors e"
            " JOIN collections c ON c.id = e.collection_id ORDER BY c.name, e.path LIMIT ?",
            (limit,),
        ).fetchall()

    def last_run(self) -> tuple[int, str, str | None, str, str | None] | None:
        row = self.conn.execute(
            "SELECT id, started_at, finished_at, status, counts FROM index_runs ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return (row[0], row[1], row[2], row[3], row[4]) if row else None

    def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            with suppress(FileNotFoundError):
                total += os.stat(str(self.path) + suffix).st_size
        return total

    def quick_check(self) -> str:
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


def _collection(row: Sequence[Any]) -> CollectionRecord:
    return CollectionRecord(
        id=row[0], name=row[1], root=row[2], include=tuple(json.loads(row[3])),
        exclude=tuple(json.loads(row[4])), context=row[5], created_at=row[6], last_indexed_at=row[7],
        sequence=bool(row[8]),
    )


def _document(row: Sequence[Any]) -> DocumentRecord:
    return DocumentRecord(
        id=row[0], docid=row[1], collection=row[2], path=row[3], title=row[4], kind=row[5],
        size=row[6], source_hash=row[7], text_hash=row[8], line_count=row[9],
        tags=tuple(json.loads(row[10])), active=bool(row[11]), indexed_at=row[12], passages=row[13],
    )


def _filter_sql(filters: SearchFilter) -> tuple[str, list[Any]]:
    """SQL conditions for search filters; tags match hierarchically (``a`` matches ``a/b``)."""
    clauses: list[str] = []
    params: list[Any] = []
    if filters.collections:
        clauses.append(f"c.name IN ({','.join('?' * len(filters.collections))})")
        params += list(filters.collections)
    tag_match = (
        "EXISTS (SELECT 1 FROM document_tags t WHERE t.document_id = d.id"
        " AND (t.tag = ? OR substr(t.tag, 1, ?) = ?))"
    )
    if filters.tags_any:
        clauses.append("(" + " OR ".join([tag_match] * len(filters.tags_any)) + ")")
        for tag in filters.tags_any:
            params += [tag, len(tag) + 1, tag + "/"]
    for tag in filters.tags_all:
        clauses.append(tag_match)
        params += [tag, len(tag) + 1, tag + "/"]
    if filters.since:
        clauses.append("d.doc_date >= ?")
        params.append(filters.since)
    if filters.until:
        clauses.append("d.doc_date <= ?")
        params.append(filters.until)
    return ("".join(" AND " + c for c in clauses), params)
