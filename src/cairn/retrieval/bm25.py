"""Lexical retrieval: BM25 over the store's word index and CJK bigram index, and snippets."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.store.protocol import LexicalIndex
from cairn.store.records import PassageHit, SearchFilter
from cairn.text.cjk import cjk_bigrams, has_cjk
from cairn.text.query import parse_query

SNIPPET_CHARS = 240


def bm25_search(
    store: LexicalIndex, query: str, filters: SearchFilter, limit: int, *, candidates: bool = False,
    strict: bool = True, only: Sequence[int] | None = None,
) -> list[PassageHit]:
    """Rank passages by BM25; filters are applied inside the index query, before the cut.

    ``strict``: the query language of ``search`` (required phrases, exclusions); not
    strict, the lexical side of ``query``, where nothing filters (see
    :func:`~cairn.text.query.parse_query`).

    Snippets are cut around the first query term. ``candidates=True`` returns light hits
    (passage id, docid, score: lists that are fused, then cut, then completed by
    :meth:`~cairn.store.protocol.DocumentStore.complete_hits`).

    ``only``: rank just these (already filtered) passages, scored as the full query scores
    them; the feedback round's pool re-scoring.
    """
    parsed = parse_query(query, strict=strict)
    ranked = store.search_lexical(parsed, filters, limit, with_text=not candidates, light=candidates, only=only)
    if candidates:
        return [hit for hit, _ in ranked]
    finder = term_finder(parsed.terms)
    return [hit._replace(snippet=make_snippet(text, finder)) for hit, text in ranked]


def term_finder(terms: Sequence[str]) -> re.Pattern[str] | None:
    """One regex finding any query term, case-insensitively, on a word prefix (a cheap
    stand-in for stemming: "render" finds "renders"); CJK terms match by any of their
    bigrams, since a CJK run typed without spaces is searched by its parts."""
    parts = []
    for term in terms:
        words = term.lower().split()
        if not words:
            continue
        needle = words[0]
        if needle.isascii():
            parts.append(r"\b" + re.escape(needle[: max(4, len(needle) - 2)]))
        elif has_cjk(needle):
            parts.extend(re.escape(b) for b in cjk_bigrams(needle).split())
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
