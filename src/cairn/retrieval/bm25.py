"""Lexical retrieval: BM25 over the stemmed FTS5 index and the CJK bigram index."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.retrieval.query import compile_query
from cairn.store.records import PassageHit, SearchFilter
from cairn.store.sqlite import SQLiteStore

SNIPPET_CHARS = 240


def bm25_search(
    store: SQLiteStore, query: str, filters: SearchFilter, limit: int, *, candidates: bool = False,
) -> list[PassageHit]:
    """Rank passages by BM25; filters are applied inside the FTS query, before the cut.

    A query with both CJK and other text is run on both indexes and the scores of a
    passage found by both are added. Snippets are cut around the first query term.
    ``candidates=True`` returns light hits (passage id, docid, score: lists that are
    fused, then cut, then completed by :meth:`SQLiteStore.complete_hits`).
    """
    compiled = compile_query(query)
    hits: dict[int, PassageHit] = {}
    texts: dict[int, str] = {}
    if compiled.main:
        for hit, text in store.search_fts("passages_fts", compiled.main, filters, limit,
                                          with_text=not candidates, light=candidates):
            hits[hit.passage_id] = hit
            texts[hit.passage_id] = text
    if compiled.cjk:
        for hit, text in store.search_fts("passages_cjk", compiled.cjk, filters, limit,
                                          with_text=not candidates, light=candidates):
            previous = hits.get(hit.passage_id)
            hits[hit.passage_id] = hit if previous is None else previous._replace(score=previous.score + hit.score)
            texts[hit.passage_id] = text
    ranked = sorted(hits.values(), key=lambda h: (-h.score, h.passage_id))[:limit]
    if candidates:
        return ranked
    finder = term_finder(compiled.terms)
    return [h._replace(snippet=make_snippet(texts[h.passage_id], finder)) for h in ranked]


def term_finder(terms: Sequence[str]) -> re.Pattern[str] | None:
    """One regex finding any query term, case-insensitively, on a word prefix (a cheap
    stand-in for stemming: "render" finds "renders"); CJK terms match as substrings."""
    parts = []
    for term in terms:
        words = term.lower().split()
        if not words:
            continue
        needle = words[0]
        if needle.isascii():
            parts.append(r"\b" + re.escape(needle[: max(4, len(needle) - 2)]))
        else:
            parts.append(re.escape(needle))
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def make_snippet(text: str, finder: re.Pattern[str] | None, width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` on one line, around the first query term."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    match = finder.search(flat) if finder is not None else None
    if match is None:
        return flat[: width - 1] + "…"
    start = match.start()
    begin = max(0, start - width // 4)
    if begin > 0:
        space = flat.find(" ", begin)
        begin = space + 1 if 0 <= space < start else begin
    end = min(len(flat), begin + width)
    piece = flat[begin:end]
    return ("…" if begin > 0 else "") + piece + ("…" if end < len(flat) else "")
