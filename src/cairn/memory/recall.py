"""Hybrid recall over memory: records ranked for a task as ``query`` ranks passages.

Two ranked lists of the records a caller may see: BM25 over the memory index, and the
cosine of the task's embedding with each record's (the embedding of :func:`embed_text`,
kept in the index's content-addressed vector table, so a record whose text is also a
passage is embedded once). They are fused by the reciprocal-rank fusion of ``query``
(:func:`cairn.retrieval.hybrid.fuse`: the same ``rrf_k`` and weights), with the feedback
round of ``query``'s default mode unless BM25 alone is decisive: the first fused records
expand the BM25 query (``bm25x``) and shift the task's vector towards theirs (``vectorx``).
The shifted vector ranks the candidate pool only (every record the ``bm25``, ``vector``
and ``bm25x`` lists hold, at most three lists' depth), as ``query --fast`` ranks passages,
instead of a second pass over every record's vector. The fused lists are then given
*session context* the way ``query``
gives sequence context to a collection declared a sequence
(:func:`cairn.retrieval.hybrid.sequence_context`, the same shares): records written one
after another in one session (the same project, owner and ``observed_at``, adjacent in
write order, as a conversation log imported in order is) lend a neighbour a share of
their fused score, so a reply that does not name its subject joins under the turn it
answers.

Without an embedder, or when no visible record has a vector yet, recall is BM25 (with
session context) alone: nothing waits for a model.
"""

from __future__ import annotations

import heapq
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cairn.blas import matvec
from cairn.errors import ModelUnavailable
from cairn.memory.bm25 import MemoryBM25
from cairn.memory.facts import TextFacts, TextFactsIndex
from cairn.memory.first_pass import Int8Matrix, certified_rows, exact_cosines, int8_matrix
from cairn.memory.records import Observation, Qualified, RecordKey
from cairn.memory.scope import Caller, visible
from cairn.memory.texts import embed_text, text_hash
from cairn.retrieval.hybrid import (
    DEFAULT_SETTINGS,
    FeedbackExpander,
    Fused,
    HybridSettings,
    Neighbours,
    adapt_weights,
    sequence_context,
    strong_signal,
)
from cairn.retrieval.vector import rocchio
from cairn.store.records import light_hit
from cairn.text.query import parse_query

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from cairn.memory.codec import MemoryRecord
    from cairn.memory.service import MemoryService
    from cairn.models.embedders import Embedder
    from cairn.retrieval.vector import SharedQueryVector
    from cairn.store.protocol import StoreOpener



#: Records a recall or an embedding pass reads (memory_list's default stops at 10,000).
ALL_RECORDS = 1_000_000_000

@dataclass(frozen=True, slots=True)
class Recalled:
    """A record recalled for a task, in fused order: the qualified record and the cosine
    of its embedding with the task's (None: no vector stage ran, or it has no vector)."""

    qualified: Qualified
    cosine: float | None = None


def _session(record: MemoryRecord | RecordKey) -> tuple[str, str | None, str] | None:
    if isinstance(record, RecordKey):
        return (record.project, record.owner, record.observed_at) if record.kind == "observation" and record.observed_at else None
    if isinstance(record, Observation) and record.observed_at:
        return (record.project, record.owner, record.observed_at)
    return None


def session_neighbours(records: Sequence[MemoryRecord | RecordKey]) -> dict[str, Neighbours]:
    """Record id -> its previous and next record of the same session, for ``records`` (or
    their keys) in write order (only records with a neighbour are listed)."""
    out: dict[str, Neighbours] = {}
    sessions = [_session(r) for r in records]
    for i, record in enumerate(records):
        here = sessions[i]
        if here is None:
            continue
        before = records[i - 1].id if i > 0 and sessions[i - 1] == here else None
        after = records[i + 1].id if i + 1 < len(records) and sessions[i + 1] == here else None
        if before or after:
            out[record.id] = Neighbours(before, after)
    return out


def fused_order(
    rankings: Mapping[str, Sequence[tuple[str, float]]], records: Sequence[MemoryRecord | RecordKey], limit: int,
    weights: Mapping[str, float] | None = None, settings: HybridSettings = DEFAULT_SETTINGS, *,
    ordinal: Mapping[str, int] | None = None, near: Mapping[str, Neighbours] | None = None,
) -> list[str]:
    """Record ids best first: the ranked lists (stage -> (id, score) best first) fused as
    ``query`` fuses them (``weights``: default, ``settings.weights``), with session context
    over ``records`` (every record the caller may see, in write order); the first ``limit``.
    ``ordinal`` (id -> write position) and ``near`` (:func:`session_neighbours`) of
    ``records`` may be given when already known (recall keeps them with its cache)."""
    ordinal = {r.id: n for n, r in enumerate(records)} if ordinal is None else ordinal
    near = session_neighbours(records) if near is None else near
    # The records a unit lends to are its own neighbours (neighbours are mutual).
    lenders = [near[u] for u in _ranked_ids(rankings) if u in near] if near else []
    lending = {rid: near[rid] for n in lenders for rid in (n.previous, n.next) if rid is not None}
    if not lending:  # nothing moves: the first ``limit`` alone, no unit objects for the rest
        return [rid for rid, _ in _fused_scores(rankings, ordinal, weights, settings, max(limit, 0))]
    fused = _units(_fused_scores(rankings, ordinal, weights, settings), ordinal)
    entries = {rid: light_hit(ordinal[rid], rid, 0.0) for rid in lending}
    fused = sequence_context(fused, lending, entries, previous_weight=settings.sequence_previous,
                             next_weight=settings.sequence_next, capped=settings.sequence_cap)
    return [f.hit.docid for f in fused[:limit]]


def _fuse(rankings: Mapping[str, Sequence[tuple[str, float]]], ordinal: Mapping[str, int],
          weights: Mapping[str, float] | None, settings: HybridSettings) -> list[Fused]:
    """The units of :func:`cairn.retrieval.hybrid.fuse` over the records' ranked lists, in
    its order and with its scores, without what recall does not read (each unit's per-stage
    ranks, its hit's score): the same sums in the same order, the same tie-breaks (best
    rank, then stage order, then write position)."""
    return _units(_fused_scores(rankings, ordinal, weights, settings), ordinal)


def _ranked_ids(rankings: Mapping[str, Sequence[tuple[str, float]]]) -> set[str]:
    """The ids of every ranked list (the units fusion makes)."""
    return {rid for ranked in rankings.values() for rid, _ in ranked}


def _units(scored: Sequence[tuple[str, float]], ordinal: Mapping[str, int]) -> list[Fused]:
    """:func:`_fuse`'s units of :func:`_fused_scores`' (id, score) list."""
    return [Fused(light_hit(ordinal[rid], rid, 0.0), round(score, 8), {}) for rid, score in scored]


def _fused_ids(rankings: Mapping[str, Sequence[tuple[str, float]]], ordinal: Mapping[str, int],
               weights: Mapping[str, float] | None, settings: HybridSettings, first: int | None = None) -> list[str]:
    """The ids of :func:`_fuse`'s units, in its order (the feedback round reads no more);
    the ``first`` alone when given."""
    return [rid for rid, _ in _fused_scores(rankings, ordinal, weights, settings, first)]


def _fused_scores(rankings: Mapping[str, Sequence[tuple[str, float]]], ordinal: Mapping[str, int],
                  weights: Mapping[str, float] | None, settings: HybridSettings,
                  first: int | None = None) -> list[tuple[str, float]]:
    """(id, unrounded fused score) in :func:`_fuse`'s order; the ``first`` alone when given
    (a partial selection: a recall reads 3 to 50 of some 600 units)."""
    weights = settings.weights if weights is None else weights
    k = settings.rrf_k
    units: dict[str, list[Any]] = {}  # id -> [score, best rank, stage order of that rank]
    for order, (stage, ranked) in enumerate((s, r) for s, r in rankings.items() if r):
        weight = weights.get(stage, 1.0)
        ids = [rid for rid, _ in ranked]
        if len(set(ids)) < len(ids):  # a repeated id counts at its first rank only
            ids = list(dict.fromkeys(ids))
        for rank, rid in enumerate(ids, 1):
            entry = units.get(rid)
            if entry is None:
                units[rid] = [weight / (k + rank), rank, order]
                continue
            entry[0] += weight / (k + rank)
            if rank < entry[1]:
                entry[1], entry[2] = rank, order
    scored: Iterable[tuple[str, list[Any]]] = units.items()
    if first is not None and first < len(units):
        if first <= 0:
            return []
        # Only a unit within rounding distance (5e-9) of the first-th best unrounded score
        # can be among the first: the others round strictly lower.
        cut = heapq.nlargest(first, [e[0] for e in units.values()])[-1] - 2e-8
        scored = [(rid, e) for rid, e in scored if e[0] >= cut]
    # The write position is unique: no two keys tie, and id and score are never compared.
    keyed = [(-round(e[0], 8), e[1], e[2], ordinal[rid], rid, e[0]) for rid, e in scored]
    ordered = heapq.nsmallest(first, keyed) if first is not None and first < len(keyed) else sorted(keyed)
    return [(key[4], key[5]) for key in ordered]


def cosines(matrix: NDArray[np.float32], query: NDArray[np.float32]) -> NDArray[np.float64]:
    """Cosine of ``query`` with each row (both L2-normalised), rounded to 6 places (the
    same rounding as the passages' vector stage, so ties break the same way)."""
    import numpy as np

    scores = matvec(matrix, query.astype(np.float32)).astype(np.float64)
    return np.round(scores, 6).astype(np.float64)


@dataclass(slots=True)
class _VectorCopy:
    """The int8 copy of one matrix, built on the second recall over it (None: unavailable)."""

    recalls: int = 0
    built: bool = False
    copy: Int8Matrix | None = None


@dataclass(frozen=True, slots=True)
class _Visible:
    """What a caller may see of memory, cached until memory or the vectors change: every
    visible record's key (read from the store's columns), and the records decoded so far
    (only those a recall returned or read the text of: a fresh process does not decode
    50,000 records for its first plan)."""

    keys: list[RecordKey]  # active, visible, in write order
    ordinal: dict[str, int]  # id -> position in ``keys``
    near: dict[str, Neighbours]  # session_neighbours(keys)
    rows: list[str]  # ids of the records with a vector, in matrix order
    matrix: Any  # float32 (len(rows), dims), or None
    version: object = None  # memory's version when read
    row_of: dict[str, int] = field(default_factory=dict)  # id -> its row in ``matrix``
    decoded: dict[str, MemoryRecord] = field(default_factory=dict)  # id -> record, as read
    vector_copy: _VectorCopy = field(default_factory=lambda: _VectorCopy())  # the matrix's int8 copy

    def records(self, store: Any, ids: Sequence[str]) -> list[MemoryRecord]:
        """The records of ``ids`` (visible ones), decoding those not read before."""
        missing = [rid for rid in ids if rid not in self.decoded]
        if missing:
            self.decoded.update(store.memory_records(missing))
        return [self.decoded[rid] for rid in ids]


class HybridRecall:
    """Recall over the memory store (BM25 + vectors + session context) and the embedding
    of memory records; the embedder is only asked for when some record has a vector."""

    def __init__(self, open_store: StoreOpener, memory: MemoryService,
                 embedder: Callable[[], Embedder] | None = None,
                 settings: HybridSettings = DEFAULT_SETTINGS) -> None:
        self._open_store = open_store
        self._memory = memory
        self._embedder = embedder
        self._settings = settings
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str | None, str | None], tuple[object, _Visible]] = {}
        self._copying = threading.Lock()
        self._lexical = MemoryBM25()

    def _fingerprint(self) -> tuple[Embedder | None, str | None]:
        if self._embedder is None:
            return None, None
        try:
            embedder = self._embedder()
            return embedder, embedder.fingerprint
        except ModelUnavailable:
            return None, None

    def memory_embed(self, *, batch: int = 64) -> int:
        """Embed every active memory record whose text has no vector for the configured
        embedder (content-addressed: a text embedded once, as a record or as a passage, is
        never embedded again). Returns how many texts were embedded."""
        embedder, fingerprint = self._fingerprint()
        if embedder is None or fingerprint is None:
            raise ModelUnavailable("no embedder is configured or its model is not installed")
        store = self._open_store(True)
        texts = {text_hash(t): t for t in (embed_text(r) for r in store.memory_list(None, limit=ALL_RECORDS))}
        have = store.vectors_for(fingerprint, list(texts))
        pending = [(h, t) for h, t in texts.items() if h not in have]
        for start in range(0, len(pending), batch):
            part = pending[start:start + batch]
            vectors = embedder.embed([t for _, t in part], kind="passage")
            counts = embedder.count_tokens([t for _, t in part])
            store.write_vectors(fingerprint, [(h, vectors[i].astype("<f4").tobytes(), int(vectors.shape[1]), counts[i])
                                              for i, (h, _) in enumerate(part)])
        return len(pending)

    def _visible(self, store: Any, caller: Caller, fingerprint: str | None) -> _Visible:
        key = (caller.project, caller.user, fingerprint)
        version = (store.memory_version(), store.data_version())
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]
        keys = [k for k in store.memory_keys([caller.project]) if visible(k, caller)]
        rows: list[str] = []
        matrix = None
        vector_copy = _VectorCopy()
        if fingerprint is not None:
            # Vectors are content-addressed and never rewritten or deleted, so the vectors
            # of the last matrix are still the store's: only texts it did not hold are read
            # (a write of one record re-read all 50,000 vectors, ≈ 5 s). Should the store hold
            # fewer vectors than then (rows deleted by hand), everything is read again.
            held = _held_rows(cached[1]) if cached is not None and _no_fewer_vectors(cached[0], version) else {}
            blobs = store.vectors_for(fingerprint, [k.embed_hash for k in keys if k.embed_hash not in held])
            found = [k for k in keys if k.embed_hash in held or k.embed_hash in blobs]
            rows = [k.id for k in found]
            if held and cached is not None and not blobs and [k.embed_hash for k in found] == _row_texts(cached[1]):
                # The same texts' vectors in the same rows (a write of records without one
                # yet): the same matrix, and its int8 copy, are kept.
                matrix, vector_copy = cached[1].matrix, cached[1].vector_copy
            elif rows:  # numpy only where vectors exist (the base install has none)
                matrix = _matrix(found, blobs, held, cached[1].matrix if held and cached is not None else None)
        seen = _Visible(keys, {k.id: n for n, k in enumerate(keys)}, session_neighbours(keys), rows, matrix,
                        version[0], {rid: n for n, rid in enumerate(rows)}, vector_copy=vector_copy)
        with self._lock:
            self._cache = {k: v for k, v in self._cache.items() if k[:2] != key[:2]}
            self._cache[key] = (version, seen)
        return seen

    def recall(self, text: str, caller: Caller, limit: int, *, shared: SharedQueryVector | None = None) -> list[Recalled]:
        """The ``limit`` active records ``caller`` may see that best match ``text``, fused
        best first, each qualified, with its cosine to ``text`` (when vectors ran; the
        embedding of ``text`` through ``shared`` when given)."""
        store = _reads(self._open_store(True))
        embedder, fingerprint = self._fingerprint()
        seen = self._visible(store, caller, fingerprint)
        if not seen.keys:
            return []
        # Each ranked list as deep as ``query``'s for ``limit`` results.
        depth = max(self._settings.candidates, limit * 5)
        tuning = self._settings
        rankings: dict[str, list[tuple[str, float]]] = {"bm25": self._bm25(store, text, caller, seen, depth)}
        near: _TaskCosines | None = None  # the matrix rows' cosines to ``text``
        query = None
        if embedder is not None and seen.matrix is not None:
            try:
                query = shared.embed(embedder) if shared is not None else embedder.embed([text], kind="query")[0]
            except ModelUnavailable:  # vectors without a working model: BM25 (and sessions) only
                embedder = None
        if embedder is not None and query is not None and seen.matrix is not None:
            near = self._first_pass(seen, query, depth)
            rankings["vector"] = [(seen.rows[row], score) for row, score in near.best]
        # The feedback round of ``query``'s default mode: the first fused records expand
        # the BM25 query (bm25x) and shift the query vector towards them (vectorx).
        strong = strong_signal([light_hit(0, rid, score) for rid, score in rankings["bm25"]],
                               ratio=tuning.strong_signal_ratio)
        weights = adapt_weights(tuning.weights, decisive=strong, settings=tuning).weights
        if not strong and rankings["bm25"]:
            first = _fused_ids(rankings, seen.ordinal, weights, tuning,
                               max(tuning.feedback_text_passages, tuning.feedback_vector_passages))
            shifted = self._shifted(seen, query, first[:tuning.feedback_vector_passages])
            top = [embed_text(r) for r in seen.records(store, first[:tuning.feedback_text_passages])]
            extra = FeedbackExpander(terms=tuning.feedback_terms["default"]).expand(text, top)
            if extra:
                rankings["bm25x"] = self._bm25(store, f"{text} {extra}", caller, seen, depth)
            if shifted is not None:  # after bm25x: the stages fuse in this order
                # The shifted vector ranks the candidate pool only (the records the other
                # rankings hold), as ``query --fast`` ranks passages: one small product
                # instead of a second pass over every record's vector.
                rankings["vectorx"] = _pool_nearest(seen, shifted, rankings.values(), depth)
                weights = adapt_weights(tuning.feedback_weights, settings=tuning).weights
        ids = fused_order(rankings, seen.keys, limit, weights, tuning, ordinal=seen.ordinal, near=seen.near)
        qualified = self._memory.qualified(seen.records(store, ids), caller, store=store)
        cosine = near.of([seen.row_of[rid] for rid in ids if rid in seen.row_of]) if near is not None else {}
        return [Recalled(q, cosine.get(seen.row_of.get(q.record.id, -1))) for q in qualified]

    def text_facts(self, hashes: Sequence[str]) -> dict[str, TextFacts]:
        """The stored token counts and stems of texts by hash (:mod:`cairn.memory.facts`),
        read where recall reads; none when the backend keeps none."""
        store = _reads(self._open_store(True))
        return store.text_facts(hashes) if isinstance(store, TextFactsIndex) else {}

    def _bm25(self, store: Any, text: str, caller: Caller, seen: _Visible, depth: int) -> list[tuple[str, float]]:
        """(id, BM25 score) of the best ``depth`` records ``caller`` may see."""
        parsed = parse_query(text, strict=False)
        # Scored from the postings (the same scores and order as FTS5's), else by FTS5.
        ranked = self._lexical.rank(store, seen.version, parsed, seen.ordinal, depth, key=seen)
        if ranked is not None:
            return ranked
        # The best ``depth`` alone first (scoring is the same, sorting and reading 4x
        # less): when the caller may see all of them, they are the answer.
        scored = store.memory_search(parsed, [caller.project], depth)
        if all(rid in seen.ordinal for rid, _ in scored):
            return list(scored)
        fetch = depth * 4
        while True:
            scored = store.memory_search(parsed, [caller.project], fetch)
            hits = [(rid, score) for rid, score in scored if rid in seen.ordinal][:depth]
            if len(hits) >= depth or len(scored) < fetch:
                return hits
            fetch *= 4

    def _first_pass(self, seen: _Visible, query: NDArray[np.float32], depth: int) -> _TaskCosines:
        """The task vector's ``depth`` nearest rows (:func:`nearest`) and their cosines: by
        the int8 copy of the matrix (:mod:`cairn.memory.first_pass`) when it has one, else
        by the exact pass. The copy is built on the second recall over a matrix: a process
        that recalls once (``cairn plan``) does not pay for it."""
        state = seen.vector_copy
        if not state.built:
            with self._copying:
                state.recalls += 1
                if not state.built and state.recalls > 1:
                    state.copy, state.built = int8_matrix(seen.matrix), True
        copy = state.copy
        if copy is None:
            every = cosines(seen.matrix, query)
            best = nearest(every, depth)
            return _TaskCosines(seen.matrix, query, [(row, float(every[row])) for row in best.tolist()], every)
        rows, exact = certified_rows(copy, seen.matrix, query, depth)
        best = nearest(exact, depth)
        known = dict(zip(rows.tolist(), exact.tolist(), strict=True))
        return _TaskCosines(seen.matrix, query, [(int(rows[n]), float(exact[n])) for n in best.tolist()], known)

    def _shifted(self, seen: _Visible, query: Any, first: Sequence[str]) -> Any:
        """Rocchio feedback, as the passages' vector stage does it (``retrieval.vector.rocchio``)."""
        if query is None or seen.matrix is None:
            return None
        rows = [seen.row_of[rid] for rid in first if rid in seen.row_of]
        if not rows:
            return None
        return rocchio(query, seen.matrix[rows], self._settings.rocchio_beta)


def _no_fewer_vectors(before: object, now: tuple[int, tuple[int, int, int]]) -> bool:
    """Whether the store holds no fewer vectors than at ``before`` (a cache version)."""
    return isinstance(before, tuple) and before[1][2] <= now[1][2]


def _row_texts(seen: _Visible) -> list[str]:
    """The text address of each row of ``seen``'s matrix, in row order."""
    return [k.embed_hash for k in seen.keys if k.id in seen.row_of]


def _held_rows(seen: _Visible) -> dict[str, int]:
    """Text address -> its row in ``seen``'s matrix."""
    if seen.matrix is None:
        return {}
    return {k.embed_hash: seen.row_of[k.id] for k in seen.keys if k.id in seen.row_of}


def _matrix(found: Sequence[RecordKey], blobs: Mapping[str, bytes], held: Mapping[str, int], previous: Any) -> Any:
    """The float32 matrix of ``found``'s vectors in order: rows of ``previous`` for the
    texts in ``held``, the others from ``blobs``. Built as a full read builds it (one
    bytes object, read by ``np.frombuffer``), so the products see the same memory layout."""
    import numpy as np

    if not held:
        return np.frombuffer(b"".join(blobs[k.embed_hash] for k in found), dtype="<f4").reshape(len(found), -1)
    out = np.empty((len(found), previous.shape[1]), dtype="<f4")
    old = np.fromiter((n for n, k in enumerate(found) if k.embed_hash in held), dtype=np.intp)
    rows = np.fromiter((held[found[n].embed_hash] for n in old.tolist()), dtype=np.intp, count=old.size)
    if old.size and old[-1] == old.size - 1:  # the kept rows come first (records are appended)
        np.take(previous, rows, axis=0, out=out[:old.size])
    else:
        out[old] = previous[rows]
    new = [n for n, k in enumerate(found) if k.embed_hash not in held]
    if new:
        out[new] = np.frombuffer(b"".join(blobs[found[n].embed_hash] for n in new), dtype="<f4").reshape(len(new), -1)
    return np.frombuffer(out.tobytes(), dtype="<f4").reshape(out.shape)


@runtime_checkable
class _SecondReader(Protocol):
    """A backend that offers a second connection for reads (:meth:`SQLiteStore.reader`)."""

    def reader(self) -> Any:
        """The backend's read-only second connection."""
        ...


def _reads(store: Any) -> Any:
    """Where a recall reads: the backend's second connection when it has one (a plan's
    recall runs on a helper thread beside the passages' search on the first)."""
    return store.reader() if isinstance(store, _SecondReader) else store


def _pool_nearest(seen: _Visible, vector: NDArray[np.float32], rankings: Iterable[Sequence[tuple[str, float]]],
                  depth: int) -> list[tuple[str, float]]:
    """The ``depth`` best (id, cosine to ``vector``) of the records the ``rankings`` hold
    that have a vector, best first, ties by write position. Each row's dot product is a
    float64 sum over that row alone, so a record's score does not depend on which other
    records are in the pool or where (a BLAS product's bits can: OpenBLAS computes rows in
    groups of four); rounded to 6 places as :func:`cosines` rounds."""
    import numpy as np

    wanted = sorted({seen.row_of[rid] for ranked in rankings for rid, _ in ranked if rid in seen.row_of})
    if not wanted:
        return []
    rows = np.asarray(wanted, dtype=np.intp)
    scores = np.round((seen.matrix[rows].astype(np.float64) * vector.astype(np.float64)).sum(axis=1), 6)
    return _nearest([seen.rows[n] for n in wanted], scores, depth)


class _TaskCosines:
    """A task vector's cosines with the matrix rows: the ``best`` (row, cosine) list of
    the first pass, and every row's cosine (``known``: an array of all, or a mapping of
    the rows the certified pass scored; the others are computed when asked)."""

    def __init__(self, matrix: NDArray[np.float32], query: NDArray[np.float32], best: list[tuple[int, float]],
                 known: Any) -> None:
        self._matrix, self._query, self.best, self._known = matrix, query, best, known

    def of(self, rows: Sequence[int]) -> dict[int, float]:
        """Row -> its cosine, for ``rows``."""
        import numpy as np

        if not isinstance(self._known, dict):
            return {row: float(self._known[row]) for row in rows}
        missing = sorted({row for row in rows if row not in self._known})
        if missing:
            wanted = np.asarray(missing, dtype=np.intp)
            self._known.update(zip(missing, exact_cosines(self._matrix, self._query, wanted).tolist(), strict=True))
        return {row: float(self._known[row]) for row in rows}


def nearest(scores: NDArray[np.float64], depth: int) -> NDArray[np.intp]:
    """The positions of the ``depth`` best ``scores``, best first, ties by position, at
    the ``depth``-th place too (which of several tied rows enters the list is the one
    written first: the certified first pass can then give the exact pass's list)."""
    import numpy as np

    n = scores.shape[0]
    k = min(depth, n)
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    if k < n:
        kth = np.partition(scores, n - k)[n - k]
        above = np.flatnonzero(scores > kth)
        part = np.concatenate([above, np.flatnonzero(scores == kth)[: k - above.size]])
    else:
        part = np.arange(n)
    return part[np.lexsort((part, -scores[part]))]


def _nearest(ids: Sequence[str], scores: NDArray[np.float64], depth: int) -> list[tuple[str, float]]:
    """The ``depth`` best (id, score), best first, ties by position."""
    import numpy as np

    k = min(depth, scores.shape[0])
    part = np.argpartition(-scores, k - 1)[:k] if 0 < k < scores.shape[0] else np.arange(scores.shape[0])
    order = part[np.lexsort((part, -scores[part]))]
    return [(ids[i], float(scores[i])) for i in order.tolist()]
