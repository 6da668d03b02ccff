"""What every part of the SQLite store shares: the connection, write transactions,
row converters and the SQL of search filters."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from cairn.store.records import CollectionRecord, DocumentRecord, SearchFilter, dumps_json


def utcnow() -> str:
    """Current time as an ISO-8601 UTC string with second precision."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def json_dict(value: dict[str, Any]) -> str:
    return dumps_json(value) if value else "{}"


def chunks(values: Sequence[Any], size: int = 500) -> Iterator[list[Any]]:
    """``values`` in lists of at most ``size``: an ``IN (...)`` list stays under SQLite's
    bound-parameter limit."""
    for start in range(0, len(values), size):
        yield list(values[start : start + size])


def placeholders(values: Sequence[Any]) -> str:
    """``?,?,...``: one placeholder per value of an ``IN (...)`` list."""
    return ",".join("?" * len(values))


class Connected:
    """The connection every part of :class:`~cairn.store.sqlite.SQLiteStore` works on."""

    conn: sqlite3.Connection

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

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The exact text of passages by id."""
        if not passage_ids:
            return {}
        marks = ",".join("?" * len(passage_ids))
        return dict(self.conn.execute(
            f"SELECT rowid, body FROM passages_fts WHERE rowid IN ({marks})", list(passage_ids)
        ).fetchall())

    def delete_passage_ids(self, ids: list[tuple[int]]) -> None:
        """Delete passages and their two FTS5 rows (inside a transaction)."""
        if ids:
            self.conn.executemany("DELETE FROM passages_fts WHERE rowid = ?", ids)
            self.conn.executemany("DELETE FROM passages_cjk WHERE rowid = ?", ids)
            self.conn.executemany("DELETE FROM passages WHERE id = ?", ids)

    def delete_passages_where(self, where: str, params: tuple[Any, ...]) -> None:
        """Delete the passages of the documents ``d`` matching ``where``."""
        ids = [
            (row[0],)
            for row in self.conn.execute(
                f"SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id WHERE {where}",
                params,
            )
        ]
        self.delete_passage_ids(ids)


def collection_row(row: Sequence[Any]) -> CollectionRecord:
    return CollectionRecord(
        id=row[0], name=row[1], root=row[2], include=tuple(json.loads(row[3])),
        exclude=tuple(json.loads(row[4])), context=row[5], created_at=row[6], last_indexed_at=row[7],
        sequence=bool(row[8]),
    )


def document_row(row: Sequence[Any]) -> DocumentRecord:
    return DocumentRecord(
        id=row[0], docid=row[1], collection=row[2], path=row[3], title=row[4], kind=row[5],
        size=row[6], source_hash=row[7], text_hash=row[8], line_count=row[9],
        tags=tuple(json.loads(row[10])), active=bool(row[11]), indexed_at=row[12], passages=row[13],
    )


def filter_sql(filters: SearchFilter) -> tuple[str, list[Any]]:
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

