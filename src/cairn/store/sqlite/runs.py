"""Index runs and the change journal (the journal rows are written with the documents,
in the same transaction: see :meth:`DocumentsMixin.write_documents`)."""

from __future__ import annotations

from collections.abc import Sequence

from cairn.store.records import ChangeRecord, dumps_json
from cairn.store.sqlite.base import Connected, utcnow


class RunsMixin(Connected):
    """:class:`~cairn.store.protocol.RunJournal` on SQLite."""

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


    def last_run(self) -> tuple[int, str, str | None, str, str | None] | None:
        row = self.conn.execute(
            "SELECT id, started_at, finished_at, status, counts FROM index_runs ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return (row[0], row[1], row[2], row[3], row[4]) if row else None


    def changes(self, after: int = 0, limit: int = 1000) -> list[ChangeRecord]:
        """Journal entries after position ``after`` (0: from the start), oldest first."""
        rows = self.conn.execute(
            "SELECT seq, run_id, kind, docid, collection, old_path, new_path, old_source_hash,"
            " new_source_hash, old_text_hash, new_text_hash, at, detail FROM changes WHERE seq > ?"
            " ORDER BY seq LIMIT ?",
            (after, limit),
        ).fetchall()
        return [ChangeRecord(*row) for row in rows]
