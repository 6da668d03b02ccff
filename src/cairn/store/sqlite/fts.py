"""SQLite FTS5: the query compiler (a parsed query to MATCH expressions) and BM25 search.

The index has two FTS5 tables: the main one (``porter unicode61 remove_diacritics 2``)
and a CJK one whose single column holds :func:`~cairn.text.cjk.cjk_bigrams` of
the passage, because unicode61 would make a whole run of Han/Kana/Hangul one giant token.

The compiled form of :class:`~cairn.text.query.ParsedQuery`: plain words are
OR-ed, and so is each bigram of a plain word's CJK runs (``如何解压缩`` -> ``"如何" OR "何解"
OR "解压" OR "压缩"``: BM25 over the bigram table ranks by how many and how rare); required
phrases (a CJK run in one is a phrase of its bigrams) come first, with the plain words
still taking part in ranking: ``"p" AND ("p" OR "w1" OR "w2")``; boosts are more optional
terms, ``"w1" OR "w2" OR "w1 w2"``; exclusions become ``NOT (...)``; ``word*`` is a
prefix query. Every token emitted is a double-quoted FTS5 string made of letters and
digits only, so any parsed query compiles to an expression FTS5 accepts.

Each expression applies to its own table: a CJK exclusion cannot filter the main
table's results and vice versa (:meth:`LexicalMixin.search_lexical` fuses the two
result lists).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cairn.errors import StoreError
from cairn.store.records import PassageHit, SearchFilter, light_hit
from cairn.store.sqlite.base import Connected, filter_sql

if TYPE_CHECKING:  # the query toolkit is imported by the first search, not with the store
    from cairn.text.query import ParsedQuery, QueryTerm

__all__ = ["BM25_WEIGHTS", "CompiledQuery", "LexicalMixin", "compile_fts5", "compile_query"]

#: BM25 column weights for (title, headings, body): titles and headings count more.
BM25_WEIGHTS = (4.0, 2.0, 1.0)


@dataclass(frozen=True, slots=True)
class CompiledQuery:
    """MATCH expressions for the main and CJK tables, and the positive terms."""

    main: str | None
    cjk: str | None
    terms: tuple[str, ...]


@functools.lru_cache(maxsize=256)
def compile_fts5(parsed: ParsedQuery) -> CompiledQuery:
    """The FTS5 MATCH expressions of a parsed query (see the module docstring)."""
    from cairn.text.query import MAX_TERMS

    main = _expression(
        [m for m in map(_main, (*parsed.words, *parsed.boosts)) if m],
        [m for m in map(_main, parsed.phrases) if m],
        [m for m in map(_main, parsed.excluded) if m],
    )
    # A long CJK paste has as many bigrams as characters: keep the first MAX_TERMS.
    parts = list(dict.fromkeys(c for w in parsed.words for c in _cjk_parts(w)))[:MAX_TERMS]
    cjk = _expression(
        [*parts, *(c for b in parsed.boosts for c in _cjk(b))],
        [c for p in parsed.phrases for c in _cjk(p)],
        [c for x in parsed.excluded for c in _cjk(x)],
    )
    return CompiledQuery(main=main, cjk=cjk, terms=parsed.terms)


@functools.lru_cache(maxsize=256)
def compile_query(query: str, *, strict: bool = True) -> CompiledQuery:
    """Parse and compile user search text; raises :class:`~cairn.errors.ValidationError`
    as :func:`~cairn.text.query.parse_query` does. Cached: pure."""
    from cairn.text.query import parse_query

    return compile_fts5(parse_query(query, strict=strict))


def _main(term: QueryTerm) -> str:
    """The term's words as one quoted FTS5 phrase for the main table; "" if none."""
    if not term.words:
        return ""
    return _quote(" ".join(term.words)) + ("*" if term.prefix else "")


def _cjk(term: QueryTerm) -> list[str]:
    """Quoted bigram phrases of the term's CJK runs for the CJK table."""
    from cairn.text.cjk import cjk_bigrams

    # A single character is a prefix of the bigrams that start with it.
    return [_quote(run) + "*" if len(run) == 1 else _quote(cjk_bigrams(run)) for run in term.cjk_runs]


def _cjk_parts(term: QueryTerm) -> list[str]:
    """Each bigram of the term's CJK runs, quoted, for OR-ing on the CJK table."""
    from cairn.text.cjk import cjk_bigrams

    # A single character is a prefix of the bigrams that start with it.
    return [_quote(run) + "*" if len(run) == 1 else _quote(bigram)
            for run in term.cjk_runs for bigram in ([run] if len(run) == 1 else cjk_bigrams(run).split())]


def _quote(text: str) -> str:
    """An FTS5 string literal: the text in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def _expression(optional: list[str], required: list[str], excluded: list[str]) -> str | None:
    """``required AND (required OR optional...) NOT (excluded...)``; None if no positive."""
    optional = list(dict.fromkeys(optional))
    required = list(dict.fromkeys(required))
    excluded = list(dict.fromkeys(excluded))
    if not optional and not required:
        return None
    if required:
        positive = " AND ".join(required)
        if optional:
            # Optional words still count in BM25 without being required.
            positive = f"{positive} AND ({' OR '.join([*required, *optional])})"
    else:
        positive = " OR ".join(optional)
    if not excluded:
        return positive
    return f"({positive}) NOT ({' OR '.join(excluded)})"


class LexicalMixin(Connected):
    """:class:`~cairn.store.protocol.LexicalIndex` on SQLite FTS5."""

    def search_lexical(
        self, query: ParsedQuery, filters: SearchFilter, limit: int, *, with_text: bool = False,
        light: bool = False, only: Sequence[int] | None = None,
    ) -> list[tuple[PassageHit, str]]:
        """The ``limit`` best passages by BM25, best first (ties by passage id), filters
        applied before the cut, as (hit without snippet, text or "") pairs. ``only``: score
        just these passages (taken as already filtered: ``filters`` is not applied).

        A query with both CJK and other text is run on both FTS5 tables and the scores of
        a passage found by both are added. ``light`` hits carry only the passage id,
        docid and score (see :func:`~cairn.store.records.light_hit`).
        """
        compiled = compile_fts5(query)
        hits: dict[int, PassageHit] = {}
        texts: dict[int, str] = {}
        if compiled.main:
            for hit, text in self.search_fts("passages_fts", compiled.main, filters, limit,
                                             with_text=with_text, light=light, only=only):
                hits[hit.passage_id] = hit
                texts[hit.passage_id] = text
        if compiled.cjk:
            for hit, text in self.search_fts("passages_cjk", compiled.cjk, filters, limit,
                                             with_text=with_text, light=light, only=only):
                previous = hits.get(hit.passage_id)
                hits[hit.passage_id] = hit if previous is None else previous._replace(score=previous.score + hit.score)
                texts[hit.passage_id] = text
        ranked = sorted(hits.values(), key=lambda h: (-h.score, h.passage_id))[:limit]
        return [(hit, texts[hit.passage_id]) for hit in ranked]

    def search_fts(
        self, table: str, match: str, filters: SearchFilter, limit: int, *, with_text: bool = False,
        light: bool = False, only: Sequence[int] | None = None,
    ) -> list[tuple[PassageHit, str]]:
        """BM25-ranked passages matching an FTS5 expression, with filters applied inside the query.

        One statement: the ranking runs first and alone as a materialised subquery (joined
        with the filter tables only when there are filters), then metadata, and with
        ``with_text`` the passage text, are joined to its top ``limit`` rows only. Returns
        (hit without snippet, text or "") pairs in rank order. ``light`` hits carry only the
        passage id, docid and score (candidate lists; see :func:`light_hit`).

        ``only``: BM25 of just these passages, with the index's own statistics (the scores
        are those the full query gives them). The ``+`` keeps SQLite from handing the rowid
        list to FTS5 (which would run the query, document frequencies included, once per
        id): FTS5 lists the matches, which is cheap, and ``bm25()`` is evaluated for the
        listed passages only, where a full query spends its time.
        """
        if table == "passages_fts":
            rank = "bm25(passages_fts, {}, {}, {})".format(*BM25_WEIGHTS)
        elif table == "passages_cjk":
            rank = "bm25(passages_cjk)"
        else:  # pragma: no cover - programming error
            raise ValueError(table)
        where, params = filter_sql(filters)
        if only is not None:
            params = list(only)
            ranking = (f"SELECT rowid AS id, {rank} AS r FROM {table} WHERE {table} MATCH ?"
                       f" AND +rowid IN ({','.join('?' * len(params))}) ORDER BY r, rowid LIMIT ?")
        elif where:
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

