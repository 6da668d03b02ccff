"""Agent memory on SQLite (:class:`~cairn.store.protocol.MemoryStore`): records, their
evidence refs, the append-only signals and history, hook events and BM25 over memory.

A record is one row of ``memory_records`` (its JSON in ``body``, the keys the store looks
up in columns), its current evidence refs in ``memory_evidence`` and its searchable text
in ``memory_fts`` (rowid = the record's rowid). Every write of a record appends a
``memory_history`` row with the record before and after, in the same transaction as the
write and any signals that go with it. Nothing is ever deleted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cairn.errors import StoreError
from cairn.memory.codec import MemoryRecord, record_from_json, record_json
from cairn.memory.records import Claim, HistoryEntry, Observation, RecordKey, Signal
from cairn.memory.texts import embed_hash
from cairn.store.records import ChangeRecord
from cairn.store.sqlite.base import Connected, chunks, placeholders, utcnow
from cairn.store.sqlite.events import append_event
from cairn.store.sqlite.fts import compile_fts5
from cairn.store.sqlite.memory_terms import MEMORY_BM25_WEIGHTS, index_terms
from cairn.store.sqlite.text_facts import record_fact_texts, write_text_facts

if TYPE_CHECKING:
    from cairn.text.query import ParsedQuery



def body_embed_hash(body: str) -> str:
    """:func:`~cairn.memory.texts.embed_hash` of a record's stored JSON (migration 12
    calls it as the SQL function ``cairn_embed_hash``)."""
    return embed_hash(record_from_json(body))


def _fts_columns(record: MemoryRecord) -> tuple[str, str, str, str]:
    if isinstance(record, Observation):
        return record.title, record.narrative, "\n".join(record.facts), " ".join(record.concepts)
    return f"{record.subject} {record.predicate} {record.object}", "", "", ""


class MemoryMixin(Connected):
    """:class:`~cairn.store.protocol.MemoryStore` on SQLite."""

    def memory_write(
        self, writes: Sequence[tuple[MemoryRecord, str]],
        signals: Sequence[tuple[str, str, str | None]] = (), *, actor: str | None = None,
    ) -> None:
        """Write record states and append signals in ONE transaction; each write appends a
        history row ``action`` with the record before (None if new) and after."""
        now = utcnow()
        with self.transaction():
            for record, action in writes:
                self._put_record(record, action, actor, now)
            self.conn.executemany(
                "INSERT INTO memory_signals(record_id, kind, note, at, actor) VALUES (?, ?, ?, ?, ?)",
                [(rid, kind, note, now, actor) for rid, kind, note in signals],
            )

    def _put_record(self, record: MemoryRecord, action: str, actor: str | None, now: str) -> None:
        body = record_json(record)
        kind = "observation" if isinstance(record, Observation) else "claim"
        row = self.conn.execute("SELECT rowid, body FROM memory_records WHERE id = ?", (record.id,)).fetchone()
        values = (
            record.project, record.owner, record.visibility, record.status,
            record.topic_key if isinstance(record, Observation) else None,
            record.conflict_key if isinstance(record, Claim) else None,
            record.revision if isinstance(record, Observation) else 1,
            record.created_at, record.updated_at, body, embed_hash(record),
            record.observed_at if isinstance(record, Observation) else None,
        )
        if row is None:
            cur = self.conn.execute(
                "INSERT INTO memory_records(id, kind, project, owner, visibility, status, topic_key,"
                " conflict_key, revision, created_at, updated_at, body, embed_hash, observed_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (record.id, kind, *values),
            )
            rowid, before = int(cur.lastrowid or 0), None
        else:
            rowid, before = int(row[0]), str(row[1])
            self.conn.execute(
                "UPDATE memory_records SET project = ?, owner = ?, visibility = ?, status = ?, topic_key = ?,"
                " conflict_key = ?, revision = ?, created_at = ?, updated_at = ?, body = ?, embed_hash = ?,"
                " observed_at = ? WHERE rowid = ?",
                (*values, rowid),
            )
            self.conn.execute("DELETE FROM memory_fts WHERE rowid = ?", (rowid,))
            self.conn.execute("DELETE FROM memory_evidence WHERE record_id = ?", (record.id,))
        columns = _fts_columns(record)
        self.conn.execute(
            "INSERT INTO memory_fts(rowid, title, narrative, facts, concepts) VALUES (?, ?, ?, ?, ?)",
            (rowid, *columns),
        )
        index_terms(self.conn, rowid, columns, MEMORY_BM25_WEIGHTS, replacing=row is not None)
        write_text_facts(self.conn, record_fact_texts(record))
        self.conn.executemany(
            "INSERT INTO memory_evidence(record_id, seq, kind, target, hash, start_line, end_line, relation)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(record.id, seq, e.kind, e.target, e.hash, e.start, e.end, e.relation)
             for seq, e in enumerate(record.evidence)],
        )
        self.conn.execute(
            "INSERT INTO memory_history(record_id, action, before, after, at, actor) VALUES (?, ?, ?, ?, ?, ?)",
            (record.id, action, before, body, now, actor),
        )

    def memory_records(self, ids: Sequence[str]) -> dict[str, MemoryRecord]:
        """The records with these ids (any status), by id; unknown ids are left out."""
        found: dict[str, MemoryRecord] = {}
        for part in chunks(list(dict.fromkeys(ids))):
            for rid, body in self.conn.execute(
                f"SELECT id, body FROM memory_records WHERE id IN ({placeholders(part)})", part
            ):
                found[rid] = record_from_json(body)
        return found

    def memory_topic(self, project: str, topic_key: str) -> list[Observation]:
        """The observations of ``project`` with this ``topic_key`` (any status; one per
        owner of personal memory), oldest first."""
        rows = self.conn.execute(
            "SELECT body FROM memory_records WHERE project = ? AND topic_key = ? AND kind = 'observation'"
            " ORDER BY rowid", (project, topic_key),
        ).fetchall()
        return [r for r in (record_from_json(row[0]) for row in rows) if isinstance(r, Observation)]

    def memory_competing(self, project: str, conflict_key: str) -> list[Claim]:
        """Every claim of ``project`` with this ``conflict_key`` (any status), oldest first."""
        rows = self.conn.execute(
            "SELECT body FROM memory_records WHERE project = ? AND conflict_key = ? AND kind = 'claim'"
            " ORDER BY rowid", (project, conflict_key),
        ).fetchall()
        return [r for r in (record_from_json(row[0]) for row in rows) if isinstance(r, Claim)]

    def memory_search(
        self, query: ParsedQuery, projects: Sequence[str], limit: int, *, include_archived: bool = False,
    ) -> list[tuple[str, float]]:
        """(id, BM25 score) of the best records of ``projects`` (and team records of any
        project), best first, ties by age."""
        match = compile_fts5(query).main
        if not match:
            return []
        rank = "bm25(memory_fts, {}, {}, {}, {})".format(*MEMORY_BM25_WEIGHTS)
        where = "" if include_archived else " AND r.status = 'active'"
        # The ranking runs alone first (a record's visibility is checked on its best rows
        # only), widening until enough rows pass or the matches are exhausted.
        sql = (
            f"WITH top AS MATERIALIZED (SELECT rowid AS id, {rank} AS s FROM memory_fts WHERE memory_fts MATCH ?"
            " ORDER BY s, rowid LIMIT ?)"
            " SELECT r.id, top.s, (SELECT count(*) FROM top) FROM top JOIN memory_records r ON r.rowid = top.id"
            f" WHERE (r.project IN ({placeholders(projects) or 'NULL'}) OR r.visibility = 'team'){where}"
            " ORDER BY top.s, top.id LIMIT ?"
        )
        ranked = max(limit * 4, 64)
        while True:
            try:
                rows = self.conn.execute(sql, (match, ranked, *projects, limit)).fetchall()
            except sqlite3.OperationalError as exc:
                raise StoreError(f"memory search failed: {exc}") from exc
            if len(rows) >= limit or (not rows and self._fts_matches(match) < ranked) or (rows and rows[0][2] < ranked):
                break
            ranked *= 8
        rows = [(rid, score) for rid, score, _ in rows]
        return [(rid, -float(score)) for rid, score in rows]

    def _fts_matches(self, match: str) -> int:
        return int(self.conn.execute("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", (match,)).fetchone()[0])

    def memory_list(
        self, projects: Sequence[str] | None, *, include_archived: bool = False, limit: int = 10_000,
    ) -> list[MemoryRecord]:
        """Records of ``projects`` (None: every project; team records always), oldest first."""
        clauses, params = [], []
        if projects is not None:
            clauses.append(f"(project IN ({placeholders(projects) or 'NULL'}) OR visibility = 'team')")
            params += list(projects)
        if not include_archived:
            clauses.append("status = 'active'")
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        rows = self.conn.execute(
            f"SELECT body FROM memory_records{where} ORDER BY rowid LIMIT ?", (*params, limit)
        ).fetchall()
        return [record_from_json(row[0]) for row in rows]

    def memory_keys(self, projects: Sequence[str]) -> list[RecordKey]:
        """The keys of the active records of ``projects`` (and team records of any
        project), oldest first, read from columns: no record is decoded."""
        rows = self.conn.execute(
            "SELECT id, kind, project, owner, visibility, observed_at, embed_hash"
            " FROM memory_records INDEXED BY memory_records_keys"
            f" WHERE (project IN ({placeholders(projects) or 'NULL'}) OR visibility = 'team') AND status = 'active'"
            " ORDER BY rowid", list(projects),
        ).fetchall()
        return list(map(RecordKey._make, rows))

    def memory_signals(self, ids: Sequence[str]) -> dict[str, list[Signal]]:
        """The signals of each record, in order (a record with none is absent)."""
        found: dict[str, list[Signal]] = {}
        for part in chunks(list(dict.fromkeys(ids))):
            for seq, rid, kind, note, at, actor in self.conn.execute(
                "SELECT seq, record_id, kind, note, at, actor FROM memory_signals"
                f" WHERE record_id IN ({placeholders(part)}) ORDER BY seq", part,
            ):
                found.setdefault(rid, []).append(Signal(seq=seq, record_id=rid, kind=kind, note=note,
                                                        at=at, actor=actor))
        return found

    def memory_history(self, record_id: str) -> list[HistoryEntry]:
        """Every transition of a record, oldest first."""
        rows = self.conn.execute(
            "SELECT seq, record_id, action, before, after, at, actor FROM memory_history"
            " WHERE record_id = ? ORDER BY seq", (record_id,),
        ).fetchall()
        return [HistoryEntry(*row) for row in rows]

    def memory_citing(self, kind: str, targets: Sequence[str]) -> dict[str, list[str]]:
        """Ids of the records whose current evidence cites each target (a docid, a file
        path), by target; one indexed lookup per target."""
        found: dict[str, list[str]] = {}
        for target in dict.fromkeys(targets):
            ids = [row[0] for row in self.conn.execute(
                "SELECT DISTINCT record_id FROM memory_evidence WHERE kind = ? AND target = ? ORDER BY record_id",
                (kind, target),
            )]
            if ids:
                found[target] = ids
        return found

    def memory_counts(self) -> dict[str, int]:
        """Records by kind and status, signals, history rows and hook events."""
        counts = {f"{kind}_{status}": n for kind, status, n in self.conn.execute(
            "SELECT kind, status, count(*) FROM memory_records GROUP BY kind, status")}
        for table in ("memory_signals", "memory_history", "memory_events"):
            counts[table.removeprefix("memory_")] = int(
                self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        return counts

    def memory_version(self) -> int:
        """Grows with every record write (the last history position; 0 when none)."""
        return int(self.conn.execute("SELECT coalesce(max(seq), 0) FROM memory_history").fetchone()[0])

    def append_hook_event(self, event: str, session_id: str | None, cwd: str | None, payload: dict[str, object]) -> int:
        """Append one hook event; returns its position."""
        return append_event(self.conn, event, session_id, cwd, payload)

    def events(self, after: int = 0, limit: int = 1000) -> list[tuple[int, str, str, str | None, str | None, str]]:
        """(seq, at, event, session id, cwd, payload JSON) of hook events after ``after``."""
        return [tuple(row) for row in self.conn.execute(
            "SELECT seq, at, event, session_id, cwd, payload FROM memory_events WHERE seq > ?"
            " ORDER BY seq LIMIT ?", (after, limit))]

    def run_changes(self, run_id: int) -> list[ChangeRecord]:
        """The change journal entries of one index run, oldest first."""
        rows = self.conn.execute(
            "SELECT seq, run_id, kind, docid, collection, old_path, new_path, old_source_hash,"
            " new_source_hash, old_text_hash, new_text_hash, at FROM changes WHERE run_id = ? ORDER BY seq",
            (run_id,),
        ).fetchall()
        return [ChangeRecord(*row) for row in rows]

