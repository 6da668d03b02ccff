"""Memory's BM25 inputs outside FTS5 (:class:`~cairn.store.protocol.MemoryTermIndex`).

FTS5's ``bm25()`` scores every row a query matches (2,000–16,000 of 50,000 records for a
typical task) through per-row auxiliary calls, which made the memory ranking the largest
part of a plan. BM25 is a sum over the query's phrases, so a caller can score a plain OR
query itself from, for each phrase, the rows holding it with their column-weighted
frequency, plus every row's length and the table's row count. This module keeps those
inputs exactly as FTS5 sees them:

* ``memory_terms(term, doc, freq)``: each token FTS5's tokenizer made of a record (the
  same ``porter unicode61 remove_diacritics 2``), with its occurrences weighted by
  :data:`MEMORY_BM25_WEIGHTS` summed (``doc`` is the record's
  ``memory_fts`` rowid); ``memory_lengths(doc, tokens)``: the record's token count.
  Both are written with the record, in its transaction, from the vocabulary of a scratch
  FTS5 table in memory holding just that record (so they are FTS5's own tokens, never a
  re-implementation).
* a phrase that is not a single token (``"adb logcat"``, a prefix ``word*``) is scored by
  FTS5 itself, alone: its BM25 share is exactly the one-phrase query's score.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cairn.errors import StoreError
from cairn.store.sqlite.base import Connected
from cairn.store.sqlite.fts import compile_fts5

if TYPE_CHECKING:
    from cairn.text.query import ParsedQuery

#: The tokenizer of ``memory_fts`` (migration 6).
MEMORY_TOKENIZER = "porter unicode61 remove_diacritics 2"
#: Columns of ``memory_fts``, in order.
MEMORY_COLUMNS = ("title", "narrative", "facts", "concepts")
#: BM25 column weights for (title, narrative, facts, concepts) (migration 11 applies them too).
MEMORY_BM25_WEIGHTS = (4.0, 1.0, 2.0, 2.0)
#: Whether every column weight is a whole number (then so is every weighted frequency).
WHOLE_WEIGHTS = all(float(w).is_integer() for w in MEMORY_BM25_WEIGHTS)


class _Scratch:
    """A contentless FTS5 table in memory with memory's tokenizer, holding one row at a
    time: its ``col`` vocabulary is the row's tokens with their count per column."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._phrases: dict[str, str | None] = {}

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.execute(f"CREATE VIRTUAL TABLE scratch USING fts5({', '.join(MEMORY_COLUMNS)},"
                         f" tokenize = '{MEMORY_TOKENIZER}', content = '')")
            conn.execute("CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, 'col')")
            self._conn = conn
        return self._conn

    def counts(self, columns: Sequence[str]) -> list[tuple[str, str, int]]:
        """(token, column, occurrences) of a row with these column texts."""
        with self._lock:
            conn = self._open()
            conn.execute(f"INSERT INTO scratch(rowid, {', '.join(MEMORY_COLUMNS)}) VALUES (1, ?, ?, ?, ?)",
                         tuple(columns))
            try:
                return [(str(t), str(c), int(n)) for t, c, n in conn.execute("SELECT term, col, cnt FROM scratch_terms")]
            finally:
                conn.execute("INSERT INTO scratch(scratch) VALUES ('delete-all')")

    def single_token(self, text: str) -> str | None:
        """The token of a phrase's text when it is exactly one token, else None (cached)."""
        if text not in self._phrases:
            found = self.counts((text, "", "", ""))
            if len(self._phrases) > 65_536:
                self._phrases.clear()
            self._phrases[text] = found[0][0] if len(found) == 1 and found[0][2] == 1 else None
        return self._phrases[text]


_SCRATCH = _Scratch()


def index_terms(conn: sqlite3.Connection, doc: int, columns: Sequence[str], weights: Sequence[float], *,
                replacing: bool) -> None:
    """Write a record's tokens and length (``doc``: its ``memory_fts`` rowid; inside the
    record's write transaction). ``replacing``: the record had a row before."""
    if replacing:
        conn.execute("DELETE FROM memory_terms WHERE doc = ?", (doc,))
    counts = _SCRATCH.counts(columns)
    weight = dict(zip(MEMORY_COLUMNS, weights, strict=True))
    freq: dict[str, float] = {}
    for token, column, n in counts:  # small whole numbers: exact in any order
        freq[token] = freq.get(token, 0.0) + weight[column] * n
    conn.executemany("INSERT INTO memory_terms(term, doc, freq) VALUES (?, ?, ?)",
                     [(term, doc, float(f)) for term, f in freq.items()])
    conn.execute("INSERT OR REPLACE INTO memory_lengths(doc, tokens) VALUES (?, ?)",
                 (doc, sum(n for _, _, n in counts)))


def or_phrases(query: ParsedQuery) -> list[str] | None:
    """The phrases of the memory MATCH expression in FTS5's order when it is a plain OR of
    phrases (the only shape scored outside FTS5), else None."""
    if query.phrases or query.excluded:
        return None
    main = compile_fts5(query).main
    if not main:
        return []
    # The compiler quotes every phrase and puts only letters and digits inside.
    parts = main.split(" OR ")
    if any(not (p.startswith('"') and p.endswith(('"', '"*'))) for p in parts):
        return None
    return parts


class MemoryTermsMixin(Connected):
    """:class:`~cairn.store.protocol.MemoryTermIndex` on SQLite."""

    def memory_term_rows(self) -> tuple[int, list[tuple[int, str, int]]]:
        """FTS5's row count of the memory index, and (doc, record id, token count) of every
        record (any status), in doc order."""
        # The keys index holds id and rowid: read alone, not the rows with their bodies.
        rows: list[tuple[int, str, int]] = self.conn.execute(
            "SELECT r.rowid, r.id, coalesce(l.tokens, 0) FROM memory_records r INDEXED BY memory_records_keys"
            " LEFT JOIN memory_lengths l ON l.doc = r.rowid ORDER BY r.rowid").fetchall()
        return len(rows), rows

    def memory_query_phrases(self, query: ParsedQuery) -> list[tuple[str, str | None]] | None:
        """The phrases of ``query``'s memory MATCH expression in FTS5's order, each with
        its one token (None: several tokens or a prefix, scored by :meth:`memory_phrase_scores`);
        None when the expression is not a plain OR of phrases."""
        phrases = or_phrases(query)
        if phrases is None:
            return None
        out: list[tuple[str, str | None]] = []
        for phrase in phrases:
            out.append((phrase, None if phrase.endswith("*") else _SCRATCH.single_token(phrase[1:-1])))
        return out

    def memory_postings(self, token: str) -> tuple[str, str]:
        """The docs holding ``token`` and its column-weighted frequency in each, as two
        comma-separated lists of decimals in the same order ("" when none). With whole
        column weights every frequency is a whole number (whole occurrences times whole
        weights), read as integer text by SQLite in one row: half the CPU of a Python
        tuple a posting (a common word has 10,000 of 50,000 records). Otherwise each
        frequency's shortest round-trip repr."""
        if WHOLE_WEIGHTS:
            docs, freqs = self.conn.execute(
                "SELECT group_concat(doc), group_concat(CAST(freq AS INTEGER)) FROM memory_terms WHERE term = ?",
                (token,)).fetchone()
            return docs or "", freqs or ""
        rows = self.conn.execute("SELECT doc, freq FROM memory_terms WHERE term = ?", (token,)).fetchall()
        return ",".join(str(int(r[0])) for r in rows), ",".join(repr(float(r[1])) for r in rows)

    def memory_phrase_scores(self, phrase: str) -> tuple[list[int], list[float]]:
        """The docs matching one FTS5 phrase and its BM25 share in each (FTS5's own score
        of that phrase alone), by doc."""
        rank = "bm25(memory_fts, {})".format(", ".join(str(w) for w in MEMORY_BM25_WEIGHTS))
        try:
            rows = self.conn.execute(f"SELECT rowid, -{rank} FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid",
                                     (phrase,)).fetchall()
        except sqlite3.OperationalError as exc:
            raise StoreError(f"memory search failed: {exc}") from exc
        return [int(r[0]) for r in rows], [float(r[1]) for r in rows]
