"""The token counts and word stems of the texts a plan hands over, stored when a memory
record is written or a passage indexed (:mod:`cairn.memory.facts`; table ``text_facts``,
migration 13). Rows are content-addressed (the sha256 of the exact text) and, like
vectors, kept when the text's record or passage changes: the same text has the same facts.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from cairn.memory.facts import TextFacts, facts_rows, passage_forms, record_forms
from cairn.store.sqlite.base import Connected, chunks, placeholders

if TYPE_CHECKING:
    from cairn.memory.codec import MemoryRecord

#: Texts counted and stemmed per batch by migration 13.
FILL_BATCH = 2_000


def write_text_facts(conn: sqlite3.Connection, texts: Iterable[str]) -> None:
    """Store the facts of ``texts`` by the budget's token counter (inside the caller's
    transaction; a text stored before gets this counter's facts)."""
    from cairn.models.tokens import budget_token_counter

    counter = budget_token_counter()
    distinct = list(dict.fromkeys(texts))
    if not distinct:
        return
    conn.executemany("INSERT OR REPLACE INTO text_facts(hash, counter, tokens, stems) VALUES (?, ?, ?, ?)",
                     facts_rows(distinct, counter))


def record_fact_texts(record: MemoryRecord) -> tuple[str, str]:
    """The texts of a record whose facts a plan reads: its full text and compact form."""
    _, text, short = record_forms(record)
    return text, short


def passage_fact_texts(body: str) -> tuple[str, str]:
    """The texts of a passage whose facts a plan reads: its stripped text and compact form."""
    return passage_forms(body)


def fill_text_facts(conn: sqlite3.Connection) -> None:
    """Migration 13's fill: the facts of every memory record's and passage's texts."""
    from cairn.memory.codec import record_from_json

    def batches(sql: str) -> Iterable[list[str]]:
        cursor = conn.execute(sql)
        while rows := cursor.fetchmany(FILL_BATCH):
            yield [row[0] for row in rows]

    for bodies in batches("SELECT body FROM memory_records ORDER BY rowid"):
        write_text_facts(conn, [t for body in bodies for t in record_fact_texts(record_from_json(body))])
    for bodies in batches("SELECT body FROM passages_fts ORDER BY rowid"):
        write_text_facts(conn, [t for body in bodies for t in passage_fact_texts(body)])


class TextFactsMixin(Connected):
    """:class:`~cairn.memory.facts.TextFactsIndex` on SQLite."""

    def text_facts(self, hashes: Sequence[str]) -> dict[str, TextFacts]:
        """The stored facts of the texts with these hashes (unknown ones left out)."""
        found: dict[str, TextFacts] = {}
        for part in chunks(list(dict.fromkeys(hashes))):
            for digest, counter, tokens, stems in self.conn.execute(
                f"SELECT hash, counter, tokens, stems FROM text_facts WHERE hash IN ({placeholders(part)})", part,
            ):
                found[digest] = TextFacts(counter, int(tokens), stems)
        return found
