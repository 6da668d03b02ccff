"""Documents and passages: the ingest writes (one transaction per batch) and the reads
of hits, texts, hashes and filters."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from cairn.store.records import (
    CollectionRecord,
    DocumentRecord,
    DocumentWrite,
    FileFailure,
    KnownFile,
    PassageHit,
    SearchFilter,
    json_list,
)
from cairn.store.sqlite.base import (
    Connected,
    chunks,
    document_row,
    filter_sql,
    json_dict,
    placeholders,
    utcnow,
)
from cairn.store.sqlite.text_facts import passage_fact_texts, write_text_facts


class DocumentsMixin(Connected):
    """:class:`~cairn.store.protocol.DocumentStore` on SQLite."""

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

    def write_documents(
        self,
        collection: CollectionRecord,
        run_id: int,
        writes: Sequence[tuple[DocumentWrite, KnownFile | None, str]],
        touches: Sequence[tuple[int, int, int]],
        errors: Sequence[FileFailure],
        cleared: Sequence[str],
    ) -> int:
        """Write one batch atomically; returns the number of passages written.

        ``writes`` holds (document, what the store knew of its path or None, docid for a new row);
        ``touches`` (id, size, mtime_ns) refreshes stat data of unchanged files; ``errors``
        records failed files (with their state when the content failed); ``cleared`` paths no
        longer fail.
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
                    json_dict(doc.metadata), json_list(doc.tags), json_list(doc.aliases),
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
            write_text_facts(conn, [t for row in fts for t in passage_fact_texts(row[3])])
            conn.executemany("INSERT INTO passages_cjk(rowid, body) VALUES (?, ?)", cjk)
            conn.executemany(
                "INSERT INTO changes(run_id, kind, docid, collection, old_path, new_path, old_source_hash,"
                " new_source_hash, old_text_hash, new_text_hash, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                journal,
            )
            if errors:
                self._journal_failures(collection, run_id, writes, errors, now)
            if touches:
                conn.executemany(
                    "UPDATE documents SET size = ?, mtime_ns = ? WHERE id = ?",
                    [(size, mtime, doc_id) for doc_id, size, mtime in touches],
                )
            if errors:
                conn.executemany(
                    "INSERT OR REPLACE INTO file_errors(collection_id, path, code, message, seen_at,"
                    " size, mtime_ns, source_hash) VALUES (?,?,?,?,?,?,?,?)",
                    [(collection.id, e.path, e.code, e.message, now, e.size, e.mtime_ns, e.source_hash)
                     for e in map(FileFailure._make, errors)],
                )
            if cleared:
                conn.executemany(
                    "DELETE FROM file_errors WHERE collection_id = ? AND path = ?",
                    [(collection.id, path) for path in cleared],
                )
        return len(passages)

    def _journal_failures(
        self, collection: CollectionRecord, run_id: int,
        writes: Sequence[tuple[DocumentWrite, KnownFile | None, str]], errors: Sequence[FileFailure], now: str,
    ) -> None:
        """Journal each file that newly fails (inside the batch's transaction, before its
        error is recorded): once per failure, not on every run that finds it failing still
        (a new code or new bytes is a new failure). A warning of a document written in this
        batch is not a failure."""
        written = {doc.path for doc, _, _ in writes}
        for failure in map(FileFailure._make, errors):
            if failure.path in written:
                continue
            recorded = self.conn.execute(
                "SELECT code, source_hash FROM file_errors WHERE collection_id = ? AND path = ?",
                (collection.id, failure.path),
            ).fetchone()
            if recorded is not None and recorded[0] == failure.code and recorded[1] == failure.source_hash:
                continue
            doc = self.conn.execute(
                "SELECT docid, source_hash, text_hash FROM documents WHERE collection_id = ? AND path = ?"
                " AND active = 1",
                (collection.id, failure.path),
            ).fetchone()
            docid, source_hash, text_hash = doc if doc is not None else ("", None, None)
            self.conn.execute(
                "INSERT INTO changes(run_id, kind, docid, collection, old_path, new_path, old_source_hash,"
                " new_source_hash, old_text_hash, new_text_hash, at, detail)"
                " VALUES (?, 'fail', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, docid, collection.name, failure.path if doc is not None else None, failure.path,
                 source_hash, failure.source_hash, text_hash, None, now, failure.code),
            )

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
                self.delete_passages_where("d.id = ?", (item.id,))
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

    def failed_files(self, collection_id: int) -> dict[str, FileFailure]:
        """Files of a collection whose content failed, with their state then, by path."""
        return {
            row[0]: FileFailure._make(row)
            for row in self.conn.execute(
                "SELECT path, code, message, size, mtime_ns, source_hash FROM file_errors"
                " WHERE collection_id = ? AND size IS NOT NULL",
                (collection_id,),
            )
        }

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
        self.delete_passage_ids(ids)


    # --- reads -----------------------------------------------------------------------------

    def filtered_passage_ids(self, filters: SearchFilter) -> list[int]:
        """Ids of active passages that pass ``filters`` (for filtering inside vector search),
        in no particular order.

        Read as one ``group_concat`` row, not row by row: the sqlite3 module releases the
        GIL around every row's step, so while another thread runs Python (a plan's memory
        recall) each of ~8,000 rows waited for a GIL switch (5 ms each at worst): measured
        against a busy thread, 16 ms for one row against 56 s row by row; alone, 4.4 vs
        5.4 ms (issue 14, session 9: bench/RESULTS.md, "plan speed on an idle machine after the eighth round")."""
        where, params = filter_sql(filters)
        row = self.conn.execute(
            "SELECT group_concat(p.id) FROM passages p JOIN documents d ON d.id = p.document_id"
            f" JOIN collections c ON c.id = d.collection_id WHERE d.active = 1{where}",
            params,
        ).fetchone()
        return list(map(int, row[0].split(","))) if row and row[0] else []

    def passing_filters(self, passage_ids: Sequence[int], filters: SearchFilter) -> set[int]:
        """Those of ``passage_ids`` that are active and pass ``filters`` (for a few ids,
        where :meth:`filtered_passage_ids` would list a whole collection)."""
        where, params = filter_sql(filters)
        passing: set[int] = set()
        for chunk in chunks(passage_ids):
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
        for chunk in chunks(docids):
            marks = ",".join("?" * len(chunk))
            found += [(row[0], row[1], row[2]) for row in self.conn.execute(
                "SELECT d.docid, d.collection_id, d.path FROM documents d"
                " JOIN collections c ON c.id = d.collection_id"
                f" WHERE c.sequence = 1 AND d.active = 1 AND d.docid IN ({marks})",
                chunk,
            )]
        return found

    def documents_at(self, places: Sequence[tuple[int, str]]) -> dict[tuple[int, str], tuple[str, int]]:
        """Active documents at (collection id, path): their docid and first passage id
        (documents without passages are left out)."""
        found: dict[tuple[int, str], tuple[str, int]] = {}
        by_collection: dict[int, list[str]] = {}
        for cid, path in places:
            by_collection.setdefault(cid, []).append(path)
        for cid, paths in by_collection.items():
            for chunk in chunks(paths):
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
        return document_row(row), row[14]

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
        return [document_row(row) for row in self.conn.execute(sql, params)]

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


    def document_text_hashes(self, docids: Sequence[str]) -> dict[str, str]:
        """The text hash of each active document with a text among ``docids`` (others left
        out): :func:`cairn.memory.evidence.documents_lines` reads a text only when this changed."""
        found: dict[str, str] = {}
        for chunk in chunks(docids):
            found.update(self.conn.execute(
                "SELECT d.docid, d.text_hash FROM documents d WHERE d.active = 1"
                f" AND d.docid IN ({placeholders(chunk)})"
                " AND EXISTS (SELECT 1 FROM document_text t WHERE t.document_id = d.id)", chunk).fetchall())
        return found

    def docid_texts(self, docids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """(text hash, text) of each active document with a text among ``docids`` (others
        left out); the text as :meth:`find_document` gives it."""
        found: dict[str, tuple[str, str]] = {}
        for chunk in chunks(docids):
            for docid, text_hash, text in self.conn.execute(
                "SELECT d.docid, d.text_hash, t.text FROM documents d"
                " JOIN document_text t ON t.document_id = d.id"
                f" WHERE d.active = 1 AND d.docid IN ({placeholders(chunk)})", chunk):
                found[docid] = (text_hash, text)
        return found

    def passage_hashes(self, passage_ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
        """(passage_hash, source_hash, text_hash) of passages by id."""
        found: dict[int, tuple[str, str, str]] = {}
        for chunk in chunks(passage_ids):
            for pid, ph, sh, th in self.conn.execute(
                "SELECT p.id, p.passage_hash, d.source_hash, d.text_hash FROM passages p"
                f" JOIN documents d ON d.id = p.document_id WHERE p.id IN ({placeholders(chunk)})",
                chunk,
            ):
                found[pid] = (ph, sh, th)
        return found

    def document_states(self, collections: Sequence[str]) -> list[tuple[str, str, int]]:
        """(docid, text_hash, passages) of the active documents of ``collections`` (all
        if empty), by docid."""
        where, params = "", list(collections)
        if collections:
            where = f" AND c.name IN ({placeholders(collections)})"
        return [(docid, th, n) for docid, th, n in self.conn.execute(
            "SELECT d.docid, d.text_hash, (SELECT count(*) FROM passages p WHERE p.document_id = d.id)"
            " FROM documents d JOIN collections c ON c.id = d.collection_id"
            f" WHERE d.active = 1{where} ORDER BY d.docid",
            params,
        )]
