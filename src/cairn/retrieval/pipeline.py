"""The hybrid retrieval pipeline behind ``query``, capsules and ask.

Stages: BM25 and the vector search (overlapping: the vector stage runs on a helper
thread), an optional pseudo-relevance feedback round (``bm25x``, ``vectorx``), an optional
graph hop, reciprocal-rank fusion, sequence context for collections declared a sequence,
and an optional reranker. The pipeline owns no store, model or graph: each is a port
passed in (:class:`HybridPorts`), and every constant comes from one
:class:`~cairn.retrieval.hybrid.HybridSettings`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from cairn.errors import ModelUnavailable, ValidationError
from cairn.retrieval.hybrid import (
    COMPLETE_ANY_REASON,
    COMPLETE_RANK_REASON,
    COMPLETE_REASON,
    DEFAULT_SETTINGS,
    FeedbackExpander,
    Fused,
    FusionWeights,
    HybridSettings,
    Neighbours,
    Reranker,
    StageRank,
    adapt_weights,
    complete_match,
    fuse,
    holds_every_word,
    keep_ranks,
    query_stems,
    script_coverage,
    sequence_context,
    sibling_paths,
    strong_signal,
)
from cairn.store.records import PassageHit, SearchFilter, light_hit
from cairn.text.cjk import has_cjk
from cairn.text.query import parse_query

if TYPE_CHECKING:
    from cairn.contracts.graph import GraphExpansion
    from cairn.models.embedders import Embedder
    from cairn.retrieval.vector import SharedQueryVector, VectorMatrix

QueryMode = Literal["fast", "default", "thorough"]


class PassageSource(Protocol):
    """What the pipeline reads of the index besides rankings."""

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]: ...
    def passage_hits(self, scored: Sequence[tuple[int, float]]) -> list[PassageHit]: ...
    def complete_hits(self, hits: Sequence[PassageHit]) -> list[PassageHit]: ...
    def filtered_passage_ids(self, filters: SearchFilter) -> list[int]: ...
    def document_passage_ids(self, docid: str) -> list[int]: ...
    def has_sequence_collections(self) -> bool: ...
    def sequence_documents(self, docids: Sequence[str]) -> list[tuple[str, int, str]]: ...
    def documents_at(self, places: Sequence[tuple[int, str]]) -> dict[tuple[int, str], tuple[str, int]]: ...
    def passing_filters(self, passage_ids: Sequence[int], filters: SearchFilter) -> set[int]: ...


@dataclass(frozen=True, slots=True)
class VectorSide:
    """What the vector stages need: the embedder, its vector matrix and the rows a
    filtered search may return (None: all)."""

    embedder: Embedder
    matrix: VectorMatrix
    allowed: Any


@dataclass(frozen=True, slots=True)
class HybridPorts:
    """The pipeline's connections to the rest of cairn."""

    passages: PassageSource
    #: BM25 candidates (light hits) for a query text under filters, at most ``depth``.
    lexical: Callable[[str, SearchFilter, int], list[PassageHit]]
    #: The vector side for these filters; raises ModelUnavailable without model or vectors.
    vectors: Callable[[SearchFilter], VectorSide]
    #: One bounded link hop from seed docids (``per_seed``, ``max_total``).
    graph_expand: Callable[[list[str], int, int], GraphExpansion]
    #: Where the vector stage runs while BM25 runs on the caller's thread.
    background: Executor
    reranker: Reranker | None = None
    #: BM25 of a query text over the given passages only (the candidate pool), as the
    #: full query would score them; the feedback round's ``text-pool`` half.
    rescore: Callable[[str, Sequence[int]], list[PassageHit]] | None = None


@dataclass
class HybridRun:
    """Everything one hybrid query produced, for results, explain and diagnose.

    Ranked lists and fused units beyond the first ``limit`` hold light hits (passage id,
    docid and score only, :func:`cairn.store.records.light_hit`)."""

    depth: int
    rankings: dict[str, list[PassageHit]] = field(default_factory=dict)
    fused: list[Fused] = field(default_factory=list)
    stages_run: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    vectors: bool = False
    embedder: str | None = None
    via: dict[str, str] = field(default_factory=dict)
    #: The weights the final fusion used and why they differ from the mode's base weights.
    weights: FusionWeights | None = None


class HybridPipeline:
    """Runs hybrid queries through its ports with one set of tuning constants."""

    def __init__(self, ports: HybridPorts, settings: HybridSettings = DEFAULT_SETTINGS) -> None:
        self.ports = ports
        self.settings = settings

    def run(
        self, query: str, filters: SearchFilter, limit: int, *, mode: QueryMode, graph: bool,
        all_passages: bool, depth: int | None = None, shared: SharedQueryVector | None = None,
    ) -> HybridRun:
        """Rank passages for ``query``: the first ``limit`` fused units carry full hits.
        ``shared``: the query's embedding as another stage of the caller computes it too."""
        if mode not in ("fast", "default", "thorough"):
            raise ValidationError(f"unknown query mode {mode!r}: use fast, default or thorough")
        tuning, source = self.settings, self.ports.passages
        depth = depth or max(tuning.candidates, limit * 5)
        run = HybridRun(depth=depth)
        parse_query(query, strict=False)  # bad queries fail before any model work starts
        # The vector stage (embed the query, then search the matrix) runs on a helper
        # thread while BM25 runs here: onnxruntime, NumPy and SQLite release the GIL, so
        # the stages overlap. The helper touches no store: matrix and filter ids are read first.
        pending_vector = None
        side: VectorSide | None = None
        query_vector = None
        fast: Callable[[str], tuple[Any, str]] | None = None
        try:
            side = self.ports.vectors(filters)
            fast = (getattr(side.embedder, "embed_query_fast", None)
                    if mode == "fast" and tuning.fast_encoder != "exact" else None)
            if fast is not None and tuning.fast_encoder != "int8":
                fast = functools.partial(fast, encoder=tuning.fast_encoder)
            pending_vector = self.ports.background.submit(
                _vector_stage, fast, side.embedder, query, side.matrix, side.allowed, depth, shared)
        except ModelUnavailable as exc:
            run.hints.append(f"vector stage skipped, BM25 only: {exc.message}")
        bm25 = self.ports.lexical(query, filters, depth)
        run.rankings["bm25"] = bm25
        run.stages_run.append("bm25")
        strong = strong_signal(bm25, ratio=tuning.strong_signal_ratio)
        feedback = tuning.fast_feedback if mode == "fast" else ("text", "vector")
        if "text-early" in feedback and not strong and bm25:
            # The text half from BM25's own top units, run while the helper thread still
            # embeds the query: its second BM25 query costs no wall time of its own.
            top = fuse({"bm25": bm25}, per_document=not all_passages, k=tuning.rrf_k)
            self._text_feedback(run, query, filters, mode, [f.hit.passage_id for f in top])
        if pending_vector is not None and side is not None:
            try:
                run.rankings["vector"], query_vector, encoder = pending_vector.result()
                if "bm25x" in run.rankings:  # the early text half: stages in default's order
                    run.rankings["bm25x"] = run.rankings.pop("bm25x")
                run.stages_run.append("vector" if encoder == "exact" else f"vector:{encoder}")
                if fast is not None and encoder == "exact":
                    run.hints.append(_fast_encoder_hint(side.embedder, tuning.fast_encoder))
                run.vectors = True
                run.embedder = side.embedder.fingerprint
            except ModelUnavailable as exc:
                run.hints.append(f"vector stage skipped, BM25 only: {exc.message}")
        # Per-query weights: the vector side counts as far as the embedder knows the
        # query's script, and less when BM25 alone is decisive.
        coverage, missing = 1.0, list[str]()
        if run.vectors and side is not None:
            coverage, missing = script_coverage(query, _embedder_scripts(side.embedder))
        if missing and coverage < 1.0:
            run.hints.append(
                f"the embedding model does not cover this query's script ({', '.join(missing)}: "
                f"{1 - coverage:.0%} of its letters); results rely on BM25 "
                f"(vector weight x{coverage:.2g}). A multilingual embedder can be configured "
                "as an OpenAI-compatible endpoint ([embed] backend = \"openai\")")
        # Complete lexical matches: the vector top passage lacks a query word that BM25's
        # results hold (the query reads as a line of a BM25 page); by ``complete_matches``
        # (default ``any``) every complete match of BM25's top ``limit`` keeps its BM25
        # rank, or (``first``) BM25's top document goes first.
        floors = self._complete_floors(run, query, limit, all_passages)
        decisive = strong or bool(floors)
        # The feedback round: both halves in default and thorough; --fast runs the halves
        # of ``settings.fast_feedback`` (first round at the default weights, then
        # ``fast_feedback_weights``) or none (``fast_weights``).
        if strong and feedback:  # the shortcut only matters where there is something to skip
            run.stages_run.append("strong-signal")
        base = tuning.fast_weights if mode == "fast" and not feedback else tuning.weights
        adapted = adapt_weights(base, coverage=coverage, decisive=strong, settings=tuning)
        if feedback and not strong and bm25:
            adapted = self._feedback(run, query, filters, mode, all_passages, side, query_vector, adapted,
                                     coverage, feedback)
        run.weights = adapted
        if graph:
            self._graph_stage(run, filters)
        run.fused = fuse(run.rankings, per_document=not all_passages, k=tuning.rrf_k, weights=adapted.weights)
        run.stages_run.append("fuse")
        if run.fused and source.has_sequence_collections():
            self._sequence_stage(run, filters)
        if floors:
            run.fused = keep_ranks(run.fused, floors, per_document=not all_passages)
            stage, reason = {"first": ("complete-first", COMPLETE_REASON),
                             "any": ("complete-any", COMPLETE_ANY_REASON)}.get(
                tuning.complete_matches, ("complete-rank", COMPLETE_RANK_REASON))
            run.stages_run.append(stage)
            run.weights = adapted._replace(reasons=(*adapted.reasons, reason))
        if self.ports.reranker is not None and mode != "fast" and not decisive and run.fused:
            self._rerank(run, query, self.ports.reranker)
        # Candidates carry only passage id, docid and score; the units that can be returned
        # get their metadata now, in one query.
        head = run.fused[:limit]
        full = {hit.passage_id: hit for hit in source.complete_hits([f.hit for f in head])}
        run.fused[:limit] = [f._replace(hit=full[f.hit.passage_id]) for f in head if f.hit.passage_id in full]
        return run

    def _feedback(
        self, run: HybridRun, query: str, filters: SearchFilter, mode: QueryMode, all_passages: bool,
        side: VectorSide | None, query_vector: Any, adapted: FusionWeights, coverage: float,
        halves: Sequence[str] = ("text", "vector"),
    ) -> FusionWeights:
        """Pseudo-relevance feedback: the representative passages of the first fused units
        expand the BM25 query (``bm25x``, half ``text``) and shift the query vector towards
        them (``vectorx``, half ``vector``; not when the embedder does not cover the query;
        half ``pool``: the shifted vector ranks only the candidates the other stages found,
        one small product instead of a second pass over the matrix).
        Returns the fusion weights to use afterwards."""
        from cairn.retrieval.vector import feedback_query, nearest_candidates, pool_candidates

        tuning = self.settings
        depth_fb = max(tuning.feedback_text_passages, tuning.feedback_vector_passages)
        first = [f.hit.passage_id for f in fuse(run.rankings, per_document=not all_passages,
                                                   k=tuning.rrf_k, weights=adapted.weights)[:depth_fb]]
        if "text" in halves or "text-pool" in halves:
            self._text_feedback(run, query, filters, mode, first, pool="text-pool" in halves)
        vector_half = "vector" in halves or "pool" in halves
        if vector_half and side is not None and query_vector is not None and run.vectors and adapted.vector_factor > 0:
            shifted = feedback_query(side.matrix, query_vector, first[: tuning.feedback_vector_passages],
                                     tuning.rocchio_beta)
            if shifted is not None:
                if "vector" in halves:
                    run.rankings["vectorx"] = nearest_candidates(side.matrix, shifted, run.depth, side.allowed)
                    run.stages_run.append("vector-feedback")
                else:  # "pool": the shifted vector ranks only the candidates found so far
                    pool = [hit.passage_id for hits in run.rankings.values() for hit in hits]
                    run.rankings["vectorx"] = pool_candidates(side.matrix, shifted, pool)
                    run.stages_run.append("vector-feedback:pool")
                after = tuning.feedback_weights
                if mode == "fast" and tuning.fast_feedback_weights is not None:
                    after = tuning.fast_feedback_weights
                unsure = self._unsure_vectors(run) if mode == "fast" else None
                if unsure is not None:
                    after = tuning.fast_unsure_weights
                chosen = adapt_weights(after, coverage=coverage, settings=tuning)
                return chosen if unsure is None else chosen._replace(reasons=(*chosen.reasons, unsure))
        return adapted

    def _complete_floors(self, run: HybridRun, query: str, limit: int, all_passages: bool) -> dict[Any, int]:
        """The units (docids, or passage ids with ``all_passages``) that keep at least their
        BM25 rank (the value), by ``settings.complete_matches``: none unless BM25's top
        passage holds every query word and the vector list's top passage, another
        document's, does not (:func:`hybrid.complete_match`); then BM25's top unit
        (``first``) or every unit of BM25's top ``limit`` whose best passage holds every
        query word (``rank``). ``any``: the same units as ``rank`` whenever the vector top
        passage lacks a query word, whether BM25's top holds every one or not. One read of
        the two top passages' texts, and one of the others' when the rule fires."""
        rule = self.settings.complete_matches
        bm25, vector = run.rankings.get("bm25"), run.rankings.get("vector")
        if rule == "off" or not run.vectors or not bm25 or not vector:
            return {}
        if rule != "any" and bm25[0].docid == vector[0].docid:
            return {}
        best: dict[Any, int] = {}  # unit -> its best passage, in BM25's order
        for hit in bm25:
            best.setdefault(hit.passage_id if all_passages else hit.docid, hit.passage_id)
            if len(best) == (1 if rule == "first" else limit):
                break
        first, other = bm25[0].passage_id, vector[0].passage_id
        texts = self.ports.passages.passage_texts([first, other])
        stems = query_stems(query)
        if rule == "any":
            if holds_every_word(stems, texts.get(other, "")):
                return {}
        elif not complete_match(query, texts.get(first, ""), texts.get(other, "")):
            return {}
        texts.update(self.ports.passages.passage_texts([p for p in best.values() if p not in texts]))
        return {unit: rank for rank, (unit, passage) in enumerate(best.items(), 1)
                if holds_every_word(stems, texts.get(passage, ""))}

    def _unsure_vectors(self, run: HybridRun) -> str | None:
        """Why --fast's vector side is unsure for this query (its best cosine below
        ``fast_vector_confidence``), or None when it is not."""
        threshold = self.settings.fast_vector_confidence
        vector = run.rankings.get("vector")
        if threshold is None or not vector:
            return None
        top = max(hit.score for hit in vector)
        if top >= threshold:
            return None
        return f"vector list unsure (best cosine {top:.2f} < {threshold:g}): fast fuses at the unsure weights"

    def _text_feedback(self, run: HybridRun, query: str, filters: SearchFilter, mode: QueryMode,
                       first: Sequence[int], *, pool: bool = False) -> None:
        """The text half of the feedback round: expansion words from the passages ``first``
        (best first; the first ``feedback_text_passages`` are read) and a second BM25 query
        with them (``bm25x``). ``pool``: the expanded query re-scores only the candidates the
        other stages found (exact BM25, the index's statistics), instead of searching the
        index: the frequent expansion words' posting lists are listed but not scored."""
        tuning = self.settings
        if tuning.feedback_cjk == "off" and has_cjk(query):
            run.stages_run.append("no-expand:cjk")  # expansion words do not help on CJK
            return
        top = list(first[: tuning.feedback_text_passages])
        texts = self.ports.passages.passage_texts(top)
        expander = FeedbackExpander(terms=tuning.feedback_terms.get(mode, tuning.feedback_terms["default"]),
                                    cjk_words=tuning.feedback_cjk == "all")
        extra = expander.expand(query, [texts[pid] for pid in top if pid in texts])
        if extra and pool and self.ports.rescore is not None:
            candidates = [hit.passage_id for hits in run.rankings.values() for hit in hits]
            run.rankings["bm25x"] = self.ports.rescore(f"{query} {extra}", candidates)
            run.stages_run.append("expand:pool")
        elif extra:
            run.rankings["bm25x"] = self.ports.lexical(f"{query} {extra}", filters, run.depth)
            run.stages_run.append("expand")

    def _graph_stage(self, run: HybridRun, filters: SearchFilter) -> None:
        """One bounded hop along links from the best candidates: linked documents join the
        candidates (their first passage passing the filters) as the ``graph`` stage."""
        tuning, source = self.settings, self.ports.passages
        seeds: list[str] = []
        for hits in run.rankings.values():
            for hit in hits:
                if hit.docid not in seeds and len(seeds) < tuning.graph_seeds:
                    seeds.append(hit.docid)
        run.stages_run.append("graph")
        if not seeds:
            return
        expansion = self.ports.graph_expand(seeds, tuning.graph_per_seed, tuning.graph_max)
        allowed = set(source.filtered_passage_ids(filters)) if filters != SearchFilter() else None
        scored: list[tuple[int, float]] = []
        for rank, doc in enumerate(expansion.documents, 1):
            passages = [p for p in source.document_passage_ids(doc.docid) if allowed is None or p in allowed]
            if not passages:
                continue
            scored.append((passages[0], round(1.0 / rank, 6)))
            link = doc.via.link
            run.via.setdefault(doc.docid, f"graph: {link.raw} at {link.source_uri}:{link.line}")
        if expansion.truncated:
            run.hints.append("graph expansion truncated: " + ", ".join(c.name for c in expansion.caps if c.hit))
        run.rankings["graph"] = source.passage_hits(scored)

    def _sequence_stage(self, run: HybridRun, filters: SearchFilter) -> None:
        """Sequence context for the fused units of collections declared a sequence: each
        document shares its numbered neighbours' relevance (:func:`hybrid.sequence_context`);
        a neighbour that no stage found joins the candidates with its first passage."""
        source = self.ports.passages
        members = source.sequence_documents(list(dict.fromkeys(f.hit.docid for f in run.fused)))
        if not members:
            return
        run.stages_run.append("sequence")
        siblings = {docid: (cid, sibling_paths(path)) for docid, cid, path in members}
        found = source.documents_at([(cid, p) for cid, sides in siblings.values() for side in sides for p in side])
        if filters != SearchFilter():
            passing = source.passing_filters([pid for _, pid in found.values()], filters)
            found = {place: hit for place, hit in found.items() if hit[1] in passing}
        # Each candidate passes its score back to its previous document and forward to its
        # next one; a neighbour takes part only through a candidate.
        neighbours: dict[str, list[str | None]] = {}
        entries: dict[str, PassageHit] = {}
        for docid, (cid, sides) in siblings.items():
            for side, spellings in enumerate(sides):  # 0: previous, 1: next
                place = next((found[(cid, p)] for p in spellings if (cid, p) in found), None)
                if place is None:
                    continue
                other, pid = place
                neighbours.setdefault(docid, [None, None])[side] = other
                neighbours.setdefault(other, [None, None])[1 - side] = docid
                entries.setdefault(other, light_hit(pid, other, 0.0))
        paths = {docid: path for docid, _, path in members}
        run.fused = sequence_context(
            run.fused, {d: Neighbours(p, n) for d, (p, n) in neighbours.items()}, entries,
            previous_weight=self.settings.sequence_previous, next_weight=self.settings.sequence_next,
            capped=self.settings.sequence_cap,
        )
        for item in run.fused:
            if set(item.stages) == {"sequence"}:  # joined only through a neighbour
                previous, following = neighbours[item.hit.docid]
                if previous is not None and previous in paths:
                    run.via.setdefault(item.hit.docid, f"sequence: follows {paths[previous]}")
                elif following is not None and following in paths:
                    run.via.setdefault(item.hit.docid, f"sequence: precedes {paths[following]}")

    def _rerank(self, run: HybridRun, query: str, reranker: Reranker) -> None:
        """Re-score the first fused units with the configured reranker (``rerank`` stage)."""
        depth = self.settings.rerank_depth
        head = run.fused[:depth]
        texts = self.ports.passages.passage_texts([f.hit.passage_id for f in head])
        try:
            scores = reranker.rerank(query, [texts.get(f.hit.passage_id, "") for f in head])
        except ModelUnavailable as exc:
            run.hints.append(f"rerank skipped: {exc.message}")
            return
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        reranked = []
        for rank, i in enumerate(order, 1):
            item = head[i]
            stages = dict(item.stages)
            stages["rerank"] = StageRank(rank, round(scores[i], 6))
            reranked.append(item._replace(stages=stages))
        run.fused = reranked + run.fused[depth:]
        run.stages_run.append("rerank")


def _vector_stage(
    fast: Callable[[str], tuple[Any, str]] | None, embedder: Embedder, query: str, matrix: VectorMatrix,
    allowed: Any, depth: int, shared: SharedQueryVector | None = None,
) -> tuple[list[PassageHit], Any, str]:
    """Embed the query (the int8 encoder when ``fast`` is given; through ``shared`` when
    given) and take its nearest passages as light hits; returns them, the query vector and
    the encoder used."""
    from cairn.retrieval.vector import nearest_candidates

    if fast is not None:
        vector, encoder = fast(query)
    else:
        exact = shared.embed(embedder) if shared is not None else embedder.embed([query], kind="query")[0]
        vector, encoder = exact, "exact"
    return nearest_candidates(matrix, vector, depth, allowed), vector, encoder


def _fast_encoder_hint(embedder: Embedder, encoder: str) -> str:
    """Why ``--fast`` embedded the query with the exact model (its derived encoder is
    unavailable, e.g. ``onnx`` is not installed): the ranking is right, only slower."""
    prepare = getattr(embedder, "prepare_fast_query", None)
    why = prepare(encoder) if prepare is not None else None
    return (f"--fast: the {encoder} query encoder is unavailable ({why or 'not derived'}); "
            "the query was embedded with the exact model")


def _embedder_scripts(embedder: Embedder) -> frozenset[str] | None:
    """The scripts an embedder was trained on (its ``scripts`` attribute), None: any."""
    scripts = getattr(embedder, "scripts", None)
    return frozenset(scripts) if scripts is not None else None
