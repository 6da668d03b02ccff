"""Memory's BM25 scored from the store's postings, identical to FTS5's ``bm25()``.

FTS5 scores every row a query matches with per-row auxiliary calls (a plan's two memory
queries matched 2,000–37,000 of 50,000 records and took most of its time). BM25 is a sum
over the query's phrases, each share depending only on the phrase, the row and the
index's statistics, so for a plain OR query (what recall builds) the ranking is computed
here with numpy from :class:`~cairn.store.protocol.MemoryTermIndex`:

    share(p, d) = idf(p) * f(p, d) * (k1 + 1) / (f(p, d) + k1 * (1 - b + b * |d| / avgdl))
    idf(p) = ln((N - n(p) + 0.5) / (n(p) + 0.5)), or 1e-6 when that is not positive

with FTS5's constants (k1 = 1.2, b = 0.75), its operation order and its summation order
(phrase by phrase, from 0.0), so the scores are the same floating-point numbers as
``bm25()``'s and the order (score, then rowid) the same list; a phrase of several tokens
or a prefix takes FTS5's own score of that phrase alone. Each phrase's shares are kept
until memory changes: the feedback query of a recall re-uses its task's, and a
long-lived process its earlier tasks' common words.

Without numpy (the base install) :meth:`MemoryBM25.rank` answers None and recall asks
FTS5 as before.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cairn.store.protocol import MemoryTermIndex
    from cairn.text.query import ParsedQuery

#: FTS5's BM25 constants (``fts5_aux.c``).
K1, B = 1.2, 0.75
#: Postings kept in memory (doc, share pairs) before the cache starts over.
MAX_CACHED = 4_000_000


@dataclass(frozen=True, slots=True)
class _Index:
    """The index statistics of one memory version."""

    version: object
    rows: int  # FTS5's row count
    avgdl: float
    lengths: Any  # float64 token count by doc
    ids: list[str | None]  # record id by doc


class MemoryBM25:
    """Ranks records for a parsed query as the store's memory BM25 does (see the module)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._index: _Index | None = None
        self._shares: dict[str, tuple[Any, Any]] = {}
        self._cached = 0
        self._allowed: tuple[object, Any] | None = None

    def rank(self, store: MemoryTermIndex, version: object, query: ParsedQuery, allowed: Collection[str],
             depth: int, *, key: object = None) -> list[tuple[str, float]] | None:
        """(id, score) of the best ``depth`` records among ``allowed`` (ids) matching
        ``query``, best first, ties by write order; None when this query is left to FTS5
        (not a plain OR of phrases, or numpy missing). ``version`` changes whenever memory
        does; ``key`` identifies ``allowed`` (the same key: the same ids)."""
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - the base install
            return None
        phrases = store.memory_query_phrases(query)
        if phrases is None:
            return None
        index = self._state(store, version)
        mask = self._mask(index, allowed, key)
        scores = np.zeros(len(index.ids), dtype=np.float64)
        matched = np.zeros(len(index.ids), dtype=bool)
        for phrase, token in phrases:
            docs, share = self._share(store, index, phrase, token)
            if docs.size:
                scores[docs] += share  # a phrase's docs are distinct: one addition each
                matched[docs] = True
        found = np.flatnonzero(matched & mask)
        if found.size > depth > 0:
            kth = np.partition(-scores[found], depth - 1)[depth - 1]
            found = found[-scores[found] <= kth]
        order = found[np.lexsort((found, -scores[found]))][:depth]
        return [(str(index.ids[d]), float(scores[d])) for d in order.tolist()]

    def _state(self, store: MemoryTermIndex, version: object) -> _Index:
        import numpy as np

        with self._lock:
            if self._index is not None and self._index.version == version:
                return self._index
            rows, docs = store.memory_term_rows()
            size = (docs[-1][0] + 1) if docs else 1
            lengths = np.zeros(size, dtype=np.float64)
            ids: list[str | None] = [None] * size
            for doc, rid, tokens in docs:
                lengths[doc] = tokens
                ids[doc] = rid
            total = int(sum(t for _, _, t in docs))
            self._index = _Index(version, rows, total / rows if rows else 0.0, lengths, ids)
            self._shares, self._cached, self._allowed = {}, 0, None
            return self._index

    def _mask(self, index: _Index, allowed: Collection[str], key: object) -> Any:
        import numpy as np

        cached = self._allowed
        if key is not None and cached is not None and cached[0] is key:
            return cached[1]
        mask = np.fromiter((rid is not None and rid in allowed for rid in index.ids), dtype=bool, count=len(index.ids))
        if key is not None:
            self._allowed = (key, mask)
        return mask

    def _share(self, store: MemoryTermIndex, index: _Index, phrase: str, token: str | None) -> tuple[Any, Any]:
        import numpy as np

        name = phrase if token is None else f"\x00{token}"
        found = self._shares.get(name)
        if found is not None:
            return found
        if token is None:  # several tokens or a prefix: FTS5's own score of the phrase alone
            docs, scores = store.memory_phrase_scores(phrase)
            result = (np.asarray(docs, dtype=np.int64), np.asarray(scores, dtype=np.float64))
        else:
            held, weighted = store.memory_postings(token)  # decimal text, parsed in C (exact)
            d = np.fromstring(held, dtype=np.int64, sep=",") if held else np.zeros(0, dtype=np.int64)
            f = np.fromstring(weighted, dtype=np.float64, sep=",") if weighted else np.zeros(0, dtype=np.float64)
            if d.shape != f.shape:
                raise ValueError(f"memory postings of {token!r}: {d.size} docs, {f.size} frequencies")
            idf = math.log((index.rows - d.size + 0.5) / (d.size + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            # fts5Bm25Function's expression, in its order (the same doubles).
            share = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * index.lengths[d] / index.avgdl)))
            result = (d, share)
        with self._lock:
            if self._index is index:
                if self._cached + result[0].size > MAX_CACHED:
                    self._shares, self._cached = {}, 0
                self._shares[name] = result
                self._cached += int(result[0].size)
        return result
