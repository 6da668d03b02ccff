"""The knowledge delta on SQLite: reading and pruning the change journal, revision
structures, saved capsules and their reverification receipts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cairn.errors import NotFoundError
from cairn.store.records import ChangeRecord, JournalState, ReceiptRecord, SavedCapsuleRecord
from cairn.store.sqlite.base import Connected, chunks, placeholders, utcnow

_CHANGE_COLUMNS = (
    "seq, run_id, kind, docid, collection, old_path, new_path, old_source_hash, new_source_hash,"
    " old_text_hash, new_text_hash, at, detail"
)


class DeltaMixin(Connected):
    """:class:`~cairn.store.protocol.DeltaJournal` and
    :class:`~cairn.store.protocol.SavedCapsuleStore` on SQLite."""

    # --- the journal ---------------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def journal_state(self) -> JournalState:
        """The journal's epoch, last position and retention marks."""
        last = self.conn.execute("SELECT coalesce(max(seq), 0), min(at) FROM changes").fetchone()
        # AUTOINCREMENT never reuses a position, even when the newest entries were pruned.
        seq_row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'changes'").fetchone()
        return JournalState(
            epoch=self._meta("journal_epoch") or "",
            last_seq=max(int(last[0]), int(seq_row[0]) if seq_row else 0),
            pruned_through=int(self._meta("journal_pruned_through") or 0),
            pruned_until=self._meta("journal_pruned_until"),
            oldest_at=last[1],
        )

    def journal_entries(
        self, *, after: int = 0, through: int | None = None, since_at: str | None = None,
        collection: str | None = None, docid: str | None = None, limit: int = 1000,
    ) -> list[ChangeRecord]:
        """Entries after position ``after`` up to ``through`` (inclusive), at or after
        ``since_at``, of one collection or document, oldest first."""
        where: list[str] = ["seq > ?"]
        params: list[Any] = [after]
        if through is not None:
            where.append("seq <= ?")
            params.append(through)
        if since_at is not None:
            where.append("at >= ?")
            params.append(since_at)
        if collection is not None:
            where.append("collection = ?")
            params.append(collection)
        if docid is not None:
            where.append("docid = ?")
            params.append(docid)
        rows = self.conn.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE {' AND '.join(where)} ORDER BY seq LIMIT ?",
            [*params, limit],
        ).fetchall()
        return [ChangeRecord(*row) for row in rows]

    def last_document_change(self, docid: str) -> ChangeRecord | None:
        """The latest entry of ``docid`` that changed its text or presence (create,
        update, reactivate, delete)."""
        row = self.conn.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE docid = ?"
            " AND kind IN ('create', 'update', 'reactivate', 'delete')"
            " AND (kind != 'update' OR old_text_hash IS NOT new_text_hash) ORDER BY seq DESC LIMIT 1",
            (docid,),
        ).fetchone()
        return None if row is None else ChangeRecord(*row)

    def prune_journal(self, max_age_days: int, max_entries: int) -> int:
        """Drop entries older than ``max_age_days`` or beyond the newest ``max_entries``,
        remember how far pruning went, and drop the revision structures nothing refers
        to any more (neither a document's current text nor a kept entry). Returns the
        entries dropped."""
        with self.transaction():
            cutoff = self.conn.execute(
                "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?)", (f"-{int(max_age_days)} days",)
            ).fetchone()[0]
            last = int(self.conn.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0])
            floor = self.conn.execute(
                "SELECT max(seq), max(at) FROM changes WHERE at < ? OR seq <= ?",
                (cutoff, last - max_entries),
            ).fetchone()
            if floor[0] is None:
                return 0
            through, until = int(floor[0]), str(floor[1])
            dropped = self.conn.execute("DELETE FROM changes WHERE seq <= ?", (through,)).rowcount
            for key, value in (("journal_pruned_through", str(through)), ("journal_pruned_until", until)):
                self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
            self.conn.execute(
                "DELETE FROM revisions WHERE NOT EXISTS (SELECT 1 FROM documents d"
                " WHERE d.docid = revisions.docid AND d.text_hash = revisions.text_hash)"
                " AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.docid = revisions.docid"
                " AND (c.old_text_hash = revisions.text_hash OR c.new_text_hash = revisions.text_hash))"
            )
        return int(dropped)

    def revision_structure(self, docid: str, text_hash: str) -> bytes | None:
        """The structure snapshot of one revision of a document, if kept."""
        row = self.conn.execute(
            "SELECT structure FROM revisions WHERE docid = ? AND text_hash = ?", (docid, text_hash)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def keep_revisions(self, rows: Sequence[tuple[str, str, bytes]]) -> None:
        """Keep (docid, text_hash, snapshot) of revisions about to be replaced or deleted."""
        now = utcnow()
        with self.transaction():
            self.conn.executemany(
                "INSERT OR IGNORE INTO revisions(docid, text_hash, seen_at, structure) VALUES (?,?,?,?)",
                [(docid, text_hash, now, blob) for docid, text_hash, blob in rows],
            )

    # --- saved capsules ------------------------------------------------------------------

    def save_capsule(self, record: SavedCapsuleRecord, *, replace: bool) -> None:
        """Store a capsule under its name (a ConflictError-free upsert when ``replace``)."""
        from cairn.errors import ConflictError

        with self.transaction():
            exists = self.conn.execute(
                "SELECT 1 FROM saved_capsules WHERE name = ?", (record.name,)
            ).fetchone()
            if exists and not replace:
                raise ConflictError(f"a capsule named {record.name!r} is already saved (use replace)")
            self.conn.execute("DELETE FROM saved_capsules WHERE name = ?", (record.name,))
            self.conn.execute(
                "INSERT INTO saved_capsules(name, capsule_id, goal, capsule, saved_at) VALUES (?,?,?,?,?)",
                (record.name, record.capsule_id, record.goal, record.capsule, record.saved_at),
            )
            self.conn.executemany(
                "INSERT OR IGNORE INTO saved_capsule_sources(name, docid) VALUES (?, ?)",
                [(record.name, docid) for docid in record.docids],
            )

    def delete_capsule(self, name: str) -> None:
        """Forget a saved capsule and its receipts; NotFoundError if unknown."""
        with self.transaction():
            if not self.conn.execute("DELETE FROM saved_capsules WHERE name = ?", (name,)).rowcount:
                raise NotFoundError(f"no saved capsule named {name!r}")

    def saved_capsules(self, names: Sequence[str] | None = None) -> list[SavedCapsuleRecord]:
        """Saved capsules by name (all when ``names`` is None); NotFoundError for an unknown name."""
        sql = "SELECT name, capsule_id, goal, capsule, saved_at FROM saved_capsules"
        params: list[Any] = []
        if names is not None:
            if not names:
                return []
            sql += f" WHERE name IN ({placeholders(names)})"
            params = list(names)
        rows = self.conn.execute(sql + " ORDER BY name", params).fetchall()
        if names is not None:
            missing = sorted(set(names) - {row[0] for row in rows})
            if missing:
                raise NotFoundError(f"no saved capsule named {missing[0]!r}")
        sources: dict[str, list[str]] = {}
        for name, docid in self.conn.execute(
            "SELECT name, docid FROM saved_capsule_sources ORDER BY name, docid"
        ):
            sources.setdefault(name, []).append(docid)
        return [SavedCapsuleRecord(row[0], row[1], row[2], row[3], row[4], tuple(sources.get(row[0], ())))
                for row in rows]

    def capsules_citing(self, docids: Sequence[str]) -> dict[str, list[str]]:
        """Names of the saved capsules citing each of ``docids`` (those cited by none left out)."""
        found: dict[str, list[str]] = {}
        for chunk in chunks(list(docids)):
            for name, docid in self.conn.execute(
                f"SELECT name, docid FROM saved_capsule_sources WHERE docid IN ({placeholders(chunk)})"
                " ORDER BY name",
                chunk,
            ):
                found.setdefault(docid, []).append(name)
        return found

    def add_receipt(self, name: str, capsule_id: str, status: str, stale: str) -> ReceiptRecord:
        """Record one reverification of a saved capsule."""
        now = utcnow()
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO capsule_receipts(name, capsule_id, status, stale, checked_at) VALUES (?,?,?,?,?)",
                (name, capsule_id, status, stale, now),
            )
        return ReceiptRecord(int(cur.lastrowid or 0), name, capsule_id, status, stale, now)

    def receipts(self, names: Sequence[str] | None = None, *, after: int = 0, limit: int = 100,
                 latest: bool = False) -> list[ReceiptRecord]:
        """Receipts after id ``after`` (oldest first) of some or all saved capsules; with
        ``latest`` only the newest receipt of each capsule."""
        where: list[str] = ["id > ?"]
        params: list[Any] = [after]
        if names is not None:
            if not names:
                return []
            where.append(f"name IN ({placeholders(names)})")
            params += list(names)
        if latest:
            where.append("id IN (SELECT max(id) FROM capsule_receipts GROUP BY name)")
        rows = self.conn.execute(
            "SELECT id, name, capsule_id, status, stale, checked_at FROM capsule_receipts"
            f" WHERE {' AND '.join(where)} ORDER BY id LIMIT ?",
            [*params, limit],
        ).fetchall()
        return [ReceiptRecord(*row) for row in rows]
