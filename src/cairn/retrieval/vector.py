"""Exact vector search over passage embeddings with NumPy.

Vectors live in the store (float32 blobs keyed by passage text hash and model
fingerprint). A search loads them into one matrix, cached per store and data version
(:class:`VectorCache`),
and takes an exact dot product with the query vector: no approximate index, so a filter
(applied as a mask over the allowed passages *before* the top-k cut) never loses recall.

Limits: memory is 4 × dims bytes per passage (1.5 KB for MiniLM: ~1.5 GB at one million
passages), and a query costs one matrix-vector product (~17 ms per 100k × 384 here), so
this store suits up to roughly a million passages on one machine; beyond that the
PostgreSQL backend with pgvector is the way.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cairn.blas import matvec
from cairn.store.protocol import Store
from cairn.store.records import PassageHit, SearchFilter, light_hit

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from cairn.models.embedders import Embedder


@dataclass(frozen=True, slots=True)
class VectorMatrix:
    ids: NDArray[np.int64]
    matrix: NDArray[np.float32]
    docids: tuple[str, ...] = ()  # docid of each row


class VectorCache:
    """Vector matrices of one process, one per (index file, model fingerprint), each kept
    until the index's data changes. Shared by every Workspace given the same
    :class:`~cairn.models.hub.ModelHub`, so server threads load a matrix once."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], tuple[tuple[int, int, int], VectorMatrix]] = {}
        self._lock = threading.Lock()

    def load(self, store: Store, fingerprint: str) -> VectorMatrix:
        """All vectors of active passages for ``fingerprint``, cached until the data changes."""
        import numpy as np

        key = (store.location, fingerprint)
        version = store.data_version()
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None and cached[0] == version:
                return cached[1]
        ids, docids, blobs = store.vector_rows(fingerprint)
        if blobs:
            matrix = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1)
        else:
            matrix = np.zeros((0, 0), dtype=np.float32)
        loaded = VectorMatrix(np.asarray(ids, dtype=np.int64), matrix, tuple(docids))
        with self._lock:
            self._entries[key] = (version, loaded)
        return loaded


class SharedQueryVector:
    """One text's query embedding, computed once for every stage that asks (thread-safe:
    a second asker waits for the first): a plan's memory recall and passage run embed
    their one task once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lock = threading.Lock()
        self._vectors: dict[str, NDArray[np.float32]] = {}

    def embed(self, embedder: Embedder) -> NDArray[np.float32]:
        """The text's query vector by ``embedder`` (computed on the first call per model)."""
        with self._lock:
            vector = self._vectors.get(embedder.fingerprint)
            if vector is None:
                vector = self._vectors[embedder.fingerprint] = embedder.embed([self.text], kind="query")[0]
            return vector


def top_rows(
    matrix: VectorMatrix, query: NDArray[np.float32], limit: int, allowed: NDArray[np.int64] | None
) -> list[tuple[int, float]]:
    """Exact top-``limit`` (matrix row, cosine rounded to 6 places) pairs, best first."""
    import numpy as np

    if matrix.matrix.shape[0] == 0:
        return []
    scores = matvec(matrix.matrix, query.astype(np.float32))
    if allowed is not None:
        mask = np.isin(matrix.ids, allowed, assume_unique=True)
        scores = np.where(mask, scores, -np.inf)
        available = int(mask.sum())
    else:
        available = scores.shape[0]
    k = min(limit, available)
    if k <= 0:
        return []
    part = np.argpartition(-scores, k - 1)[:k] if k < scores.shape[0] else np.arange(scores.shape[0])
    # Ties broken by passage id so the same index and query give the same order.
    order = part[np.lexsort((matrix.ids[part], -scores[part]))]
    return [(row, round(score, 6)) for row, score in zip(order.tolist(), scores[order].tolist(), strict=True)]


def vector_search(
    store: Store, matrix: VectorMatrix, embedder: Embedder, query: str, filters: SearchFilter,
    limit: int,
) -> list[PassageHit]:
    """Passages nearest to the query's embedding, filters applied before the cut."""
    query_vector = embedder.embed([query], kind="query")[0]
    return nearest(store, matrix, query_vector, filters, limit)


def nearest(
    store: Store, matrix: VectorMatrix, query_vector: NDArray[np.float32], filters: SearchFilter,
    limit: int, exclude: frozenset[int] = frozenset(),
) -> list[PassageHit]:
    """Passages of ``matrix`` nearest to ``query_vector`` among those passing ``filters``."""
    rows = top_rows(matrix, query_vector, limit, allowed_ids(store, filters, exclude))
    return store.passage_hits([(int(matrix.ids[row]), score) for row, score in rows])


def allowed_ids(
    store: Store, filters: SearchFilter, exclude: frozenset[int] = frozenset()
) -> NDArray[np.int64] | None:
    """Sorted ids of the passages a filtered search may return; None when all may.

    A filter that names every collection of the index and nothing else passes every
    passage (passages of inactive documents are deleted with them), so it needs no id list:
    reading one was a plan's largest wait (≈ 8,000 ids; bench/RESULTS.md, "plan speed,
    tenth round"). The same results either way."""
    import numpy as np

    if not exclude and (filters == SearchFilter() or _names_every_collection(store, filters)):
        return None
    return np.asarray(sorted(set(store.filtered_passage_ids(filters)) - exclude), dtype=np.int64)


def _names_every_collection(store: Store, filters: SearchFilter) -> bool:
    if not filters.collections or filters != SearchFilter(collections=filters.collections):
        return False
    return set(filters.collections) >= {record.name for record in store.list_collections()}


def nearest_candidates(
    matrix: VectorMatrix, query_vector: NDArray[np.float32], limit: int, allowed: NDArray[np.int64] | None,
) -> list[PassageHit]:
    """Light hits (passage id, docid, score) nearest to ``query_vector``: no store access,
    so this can run off the thread that uses the store."""
    return [light_hit(int(matrix.ids[row]), matrix.docids[row], score)
            for row, score in top_rows(matrix, query_vector, limit, allowed)]


def feedback_query(
    matrix: VectorMatrix, query_vector: NDArray[np.float32], passage_ids: Sequence[int], beta: float,
) -> NDArray[np.float32] | None:
    """Rocchio pseudo-relevance feedback in embedding space: the unit vector of
    ``query + beta * mean(vectors of passage_ids)``; None when none of them has a vector."""
    import numpy as np

    if not passage_ids or matrix.matrix.shape[0] == 0:
        return None
    wanted = np.asarray(passage_ids, dtype=np.int64)
    rows = np.searchsorted(matrix.ids, wanted)  # ids are sorted (loaded ORDER BY id)
    rows = rows[(rows < matrix.ids.shape[0])]
    rows = rows[np.isin(matrix.ids[rows], wanted)]
    if rows.shape[0] == 0:
        return None
    return rocchio(query_vector, matrix.matrix[rows], beta)


def rocchio(query_vector: NDArray[np.float32], vectors: NDArray[np.float32], beta: float) -> NDArray[np.float32] | None:
    """The unit vector of ``query + beta * mean(vectors)`` (``vectors``: at least one row);
    None when that sum is zero."""
    import numpy as np

    shifted = query_vector.astype(np.float32) + np.float32(beta) * vectors.mean(axis=0)
    norm = float(np.linalg.norm(shifted))
    return (shifted / norm).astype(np.float32) if norm > 0 else None


def pool_candidates(
    matrix: VectorMatrix, query_vector: NDArray[np.float32], passage_ids: Sequence[int],
) -> list[PassageHit]:
    """Light hits of the passages ``passage_ids`` that have a vector, ranked by their cosine
    to ``query_vector`` (ties by passage id): a vector ranking of a candidate pool, at the
    cost of one small product instead of a pass over the whole matrix. The pool's passages
    already passed the query's filters (they came from filtered stages)."""
    import numpy as np

    if not passage_ids or matrix.matrix.shape[0] == 0:
        return []
    wanted = np.unique(np.asarray(passage_ids, dtype=np.int64))
    rows = np.searchsorted(matrix.ids, wanted)  # ids are sorted (loaded ORDER BY id)
    inside = rows < matrix.ids.shape[0]
    rows, wanted = rows[inside], wanted[inside]
    rows = rows[matrix.ids[rows] == wanted]  # an id without a vector lands on another row
    if rows.shape[0] == 0:
        return []
    scores = matrix.matrix[rows] @ query_vector.astype(np.float32)
    order = np.lexsort((matrix.ids[rows], -scores))
    return [light_hit(int(matrix.ids[rows[i]]), matrix.docids[rows[i]], round(float(scores[i]), 6))
            for i in order.tolist()]
