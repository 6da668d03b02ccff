"""Hybrid ``query`` replayed with other :class:`HybridSettings`, on the stored evaluation indexes.

    .venv/bin/python -m bench.eval_retrieval --reuse --modes bm25,vector --no-write   # builds bench/.work
    .venv/bin/python -m bench.fusion_replay --variants default fast old-default old-fast --json out.json
    .venv/bin/python -m bench.fusion_replay --latency 60 --variants default fast
    .venv/bin/python -m bench.fusion_replay --stages 50 --variants default fast

Every variant is cairn's own :class:`~cairn.retrieval.pipeline.HybridPipeline` (the real
stages, fusion, sequence context and store) with a changed settings object, run per query
with ``limit`` 10 (the CLI's default: 50 candidates per stage). Only the expensive,
deterministic parts are remembered between variants: the query embeddings (exact and int8)
and BM25 rankings of the same text. BM25 (``search``) is the reference of every paired
comparison. Queries are split as in :mod:`bench.eval_retrieval` (``EvalCollection.split``:
alternate judged queries; LoCoMo's first three dev conversations tune, the last two test).

``--latency N`` instead times ``ws.query`` end to end (embedding included, nothing
remembered) for the first N queries of each collection, the variants interleaved per query;
it reports the median per variant and its ratios to ``search`` and to the first variant
(``--variants default fast``: fast's p50 as a ratio to default's in the same run).
``--stages N`` times every stage of the pipeline apart (:func:`stage_costs`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench import eval_retrieval as er
from cairn.retrieval.hybrid import DEFAULT_SETTINGS, HybridSettings
from cairn.retrieval.pipeline import HybridPipeline, HybridPorts, QueryMode

LIMIT = 10

#: The settings before issue 17's second round (fast without feedback, uncapped shares 0.5 / 0.2).
OLD = {"fast_feedback": (), "sequence_cap": False, "sequence_next": 0.2}
#: Shares as they were while the cap and the fast feedback halves were chosen.
SHARES_THEN = {"sequence_next": 0.2}
#: name -> (query mode, settings changes from the defaults)
VARIANTS: dict[str, tuple[QueryMode, dict[str, Any]]] = {
    "default": ("default", {}),
    # Session 9 diagnostic (tldr-example, issue 17 item 1): BM25-decisive queries with the
    # vector weights scaled (``decisive_vector``; 1.0 = off is the shipped setting).
    "decisive-0.5": ("default", {"decisive_vector": 0.5}),
    "decisive-0.25": ("default", {"decisive_vector": 0.25}),
    "fast": ("fast", {}),
    # session 10 (issue 17 item 1): a complete lexical match first (BM25's top passage holds
    # every query word and the vector top does not: its document ranks first; not shipped),
    # and explicitly off (no-complete, fast-no-complete: the default modes)
    "complete-first": ("default", {"complete_matches": "first"}),
    "fast-complete-first": ("fast", {"complete_matches": "first"}),
    "no-complete": ("default", {"complete_matches": "off"}),
    "fast-no-complete": ("fast", {"complete_matches": "off"}),
    # session 10b: every complete match among BM25's top 10 keeps at least its BM25 rank
    "complete-rank": ("default", {"complete_matches": "rank"}),
    "fast-complete-rank": ("fast", {"complete_matches": "rank"}),
    # session 11: as complete-rank, firing whenever the vector top passage lacks a query word
    # (BM25's top holding every word or not)
    "complete-any": ("default", {"complete_matches": "any"}),
    "fast-complete-any": ("fast", {"complete_matches": "any"}),
    # session 10b (issue 17 item 2): --fast with the pool vector half added to its text half
    # (the Rocchio vector ranks the candidate pool only; fused at default's feedback weights),
    # with complete matches kept at their BM25 rank (fast-rank-rp) or not (fast-int8-mid-rp)
    "fast-rank-rp": ("fast", {"complete_matches": "rank", "fast_feedback": ("text-pool", "pool"),
                              "fast_feedback_weights": None}),
    "old-default": ("default", OLD),
    "old-fast": ("fast", OLD),
    "default-noseq": ("default", {"sequence_previous": 0.0, "sequence_next": 0.0}),
    "fast-exact": ("fast", {"_exact": True}),
    # the sequence cap, chosen on the LoCoMo tuning conversations
    "cap-off": ("default", {**SHARES_THEN, "sequence_cap": False}),
    "cap-on": ("default", {**SHARES_THEN, "sequence_cap": True}),
    # which halves of the feedback round --fast runs (capped, shares then)
    "cand-default": ("default", SHARES_THEN),
    "cand-none": ("fast", {**SHARES_THEN, "fast_feedback": ()}),
    "cand-text": ("fast", {**SHARES_THEN, "fast_feedback": ("text",), "fast_feedback_weights": None}),
    "cand-vector": ("fast", {**SHARES_THEN, "fast_feedback": ("vector",), "fast_feedback_weights": None}),
    "cand-both": ("fast", {**SHARES_THEN, "fast_feedback": ("text", "vector"), "fast_feedback_weights": None}),
    # no feedback round, with the current shares (fast-nofb: fast_weights as they are, 1 : 2/3 since
    # the second round; it was 1 : 1 when these were measured), and the lexical : vector
    # balance default mode ends with (bm25 1 + bm25x 0.5 against vector 0.5 + vectorx 0.5)
    "fast-nofb": ("fast", {"fast_feedback": ()}),
    "fast-nofb-balanced": ("fast", {"fast_feedback": (), "fast_weights": {"bm25": 1.0, "vector": 2 / 3, "graph": 0.3}}),
    # session 6: --fast with the vector half of the feedback round only (the Rocchio vector
    # search: one more matrix product, no second BM25 query, no passage texts), fused at
    # default's weights (1 : 1/2 + 1/2) or at fast's balance (1 : 1/3 + 1/3)
    "fast-vfb": ("fast", {"fast_feedback": ("vector",), "fast_feedback_weights": None}),
    "fast-vfb-balanced": ("fast", {"fast_feedback": ("vector",), "fast_feedback_weights": {
        "bm25": 1.0, "vector": 1 / 3, "vectorx": 1 / 3, "graph": 0.3}}),
    # session 6b: --fast with the text half of the feedback round (the BM25 expansion) and
    # the int8 encoder, at the expansion words per query given (default mode: 6); fast-t4
    # was chosen (today's fast), fast-nofb is --fast before it
    "fast-t6": ("fast", {"fast_feedback": ("text",), "fast_feedback_weights": None,
                         "feedback_terms": {"default": 6, "thorough": 10, "fast": 6}}),
    "fast-t4": ("fast", {"fast_feedback": ("text",), "fast_feedback_weights": None,
                         "feedback_terms": {"default": 6, "thorough": 10, "fast": 4}}),
    "fast-t2": ("fast", {"fast_feedback": ("text",), "fast_feedback_weights": None,
                         "feedback_terms": {"default": 6, "thorough": 10, "fast": 2}}),
    # session 7: --fast with the text half and the vector half over the candidate pool only
    # (the Rocchio vector re-ranks the candidates BM25, the vector search and bm25x found:
    # no second pass over the matrix), fused as default fuses after feedback; and --fast
    # with the exact encoder (what the int8 encoder costs)
    "fast-pool": ("fast", {"fast_feedback": ("text", "pool"), "fast_feedback_weights": None}),
    "fast-pool-only": ("fast", {"fast_feedback": ("pool",), "fast_feedback_weights": None}),
    "fast-pool-only-balanced": ("fast", {"fast_feedback": ("pool",), "fast_feedback_weights": {
        "bm25": 1.0, "vector": 1 / 3, "vectorx": 1 / 3, "graph": 0.3}}),
    # session 7: the text half on CJK queries (bench.eval_cjk --variant): as on any text
    # (``all``, before), no expansion word with CJK letters (``spaced``), or no text half for
    # a query with CJK letters (``off``, chosen)
    "cjk-all": ("default", {"feedback_cjk": "all"}),
    "cjk-spaced": ("default", {"feedback_cjk": "spaced"}),
    "cjk-off": ("default", {"feedback_cjk": "off"}),
    # session 7: --fast with the pool vector half only, fused at 1 : 1/2 + 1/2 when the vector
    # list's best cosine reaches the threshold and at 1 : 1/3 + 1/3 below it
    **{f"fast-pool-c{round(t * 100)}": ("fast", {"fast_feedback": ("pool",), "fast_feedback_weights": None,
                                                "fast_vector_confidence": t}) for t in (0.55, 0.6, 0.65, 0.7)},
    # ... and the same with the text half kept (4 words), round 2
    **{f"fast-tpool-c{round(t * 100)}": ("fast", {"fast_feedback": ("text", "pool"), "fast_feedback_weights": None,
                                                 "fast_vector_confidence": t}) for t in (0.6, 0.65, 0.7)},
    # ... and with the exact encoder (round 2)
    "fast-pool-c60-exact": ("fast", {"fast_feedback": ("pool",), "fast_feedback_weights": None,
                                     "fast_vector_confidence": 0.6, "_exact": True}),
    "fast-pool-exact": ("fast", {"fast_feedback": ("text", "pool"), "fast_feedback_weights": None, "_exact": True}),
    # session 8 (after BLAS went to one thread): --fast with the encoder (int8 or exact) and
    # the halves of the feedback round given, fused as default fuses after feedback (t: the
    # text half at 4 words, t6: at 6 words, v: the vector half over the matrix, p: over the
    # candidate pool). fast-int8-t6v is default mode with the int8 encoder.
    **{f"fast-{encoder}-{name}": ("fast", {"fast_encoder": encoder, "fast_feedback": halves,
                                           "fast_feedback_weights": None, "feedback_terms": {
                                               "default": 6, "thorough": 10, "fast": terms}})
       for encoder in ("int8", "exact", "int8-mid")
       for name, halves, terms in (("none", (), 4), ("t", ("text",), 4), ("v", ("vector",), 4),
                                   ("p", ("pool",), 4), ("tv", ("text", "vector"), 4),
                                   ("t6v", ("text", "vector"), 6), ("tp", ("text", "pool"), 4),
                                   # round 2: the text half from BM25's own top, run while the
                                   # query is embedded (e), alone or with a vector half
                                   ("e", ("text-early",), 4), ("ev", ("text-early", "vector"), 4),
                                   ("ep", ("text-early", "pool"), 4), ("e6v", ("text-early", "vector"), 6),
                                   # session 9: the text half re-scoring the candidate pool (r)
                                   # instead of a second full-index BM25 query
                                   ("r", ("text-pool",), 4), ("rv", ("text-pool", "vector"), 4),
                                   ("rp", ("text-pool", "pool"), 4), ("r6v", ("text-pool", "vector"), 6),
                                   # session 10b: the pool text half at default's 6 words
                                   ("r6", ("text-pool",), 6), ("r6p", ("text-pool", "pool"), 6))},
}


class RememberingEmbedder:
    """The embedder with its query vectors remembered by text (exact and int8 apart)."""

    def __init__(self, inner: Any, exact_only: bool = False) -> None:
        self.inner = inner
        self.fingerprint = inner.fingerprint
        self.scripts = getattr(inner, "scripts", None)
        self.exact_only = exact_only
        self.memo: dict[tuple[str, str], Any] = {}

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> Any:
        if kind != "query" or len(texts) != 1:
            return self.inner.embed(texts, kind=kind)
        key = ("exact", texts[0])
        if key not in self.memo:
            self.memo[key] = self.inner.embed(texts, kind=kind)
        return self.memo[key]

    def embed_query_fast(self, text: str, encoder: str = "int8") -> tuple[Any, str]:
        if self.exact_only:
            return self.embed([text], kind="query")[0], "exact"
        key = (encoder, text)
        if key not in self.memo:
            self.memo[key] = self.inner.embed_query_fast(text, encoder)
        return self.memo[key]  # type: ignore[no-any-return]


class Replay:
    """One evaluation collection's workspace, with remembered ports."""

    def __init__(self, collection: er.EvalCollection, home: Path) -> None:
        import cairn

        self.collection = collection
        er.reroot(home / "indexes" / f"{collection.index_name}.sqlite", home.parent / "docs")
        self.ws = cairn.open(home=home, index=collection.index_name)
        # A partly embedded index would replay a vector stage that sees part of the corpus
        # (session 7: NFCorpus had 320 of 3,162 passages embedded, hybrid fell below BM25).
        pending = self.ws.status().vectors.pending_passages
        if pending:
            raise SystemExit(f"{collection.name}: {pending} passages have no vector yet; embed first "
                             f"(python -m bench.eval_retrieval --reuse --collections {collection.name})")
        self.service = self.ws._retrieval
        self.lexical_memo: dict[tuple[str, Any, int], Any] = {}
        self.side_memo: dict[Any, Any] = {}
        self.embedders: dict[bool, RememberingEmbedder] = {}
        self.bm25: er.Run = {}
        self.docmap = {d.docid: collection.key_of(d.uri) for d in self.ws.ls().documents}

    def ports(self, store: Any, exact_only: bool) -> HybridPorts:
        base = self.service.pipeline(store).ports

        def lexical(text: str, filters: Any, depth: int) -> Any:
            key = (text, filters, depth)
            if key not in self.lexical_memo:
                self.lexical_memo[key] = base.lexical(text, filters, depth)
            return self.lexical_memo[key]

        def vectors(filters: Any) -> Any:
            if filters not in self.side_memo:
                self.side_memo[filters] = base.vectors(filters)
            side = self.side_memo[filters]
            if exact_only not in self.embedders:
                self.embedders[exact_only] = RememberingEmbedder(side.embedder, exact_only)
            return dataclasses.replace(side, embedder=self.embedders[exact_only])

        return dataclasses.replace(base, lexical=lexical, vectors=vectors)

    def keys(self, hits: Sequence[Any]) -> er.Ranking:
        seen: dict[str, float] = {}
        for hit in hits:
            seen.setdefault(self.collection.key_of(hit.uri), float(hit.score))
        return list(seen.items())

    def units(self, fused: Sequence[Any]) -> er.Ranking:
        """Every fused unit (the first LIMIT are returned; the rest are kept for offline
        rescoring, e.g. :mod:`bench.locomo_sequence_grid`), with its fused score."""
        seen: dict[str, float] = {}
        for item in fused:
            seen.setdefault(self.docmap[item.hit.docid], float(item.score))
        return list(seen.items())

    def run(self, mode: QueryMode, settings: HybridSettings, exact_only: bool = False,
            depth: int | None = None) -> er.Run:
        """Every query with ``limit`` 10 and ``depth`` candidates per stage (None: the
        pipeline's own, 50 at limit 10)."""
        out: er.Run = {}
        for qid, text in self.collection.queries.items():
            store, filters, _ = self.service.setup(LIMIT, [self.collection.query_part[qid]], (), (), None, None)
            pipeline = HybridPipeline(self.ports(store, exact_only), settings)
            run = pipeline.run(text, filters, LIMIT, mode=mode, graph=False, all_passages=False, depth=depth)
            out[qid] = self.units(run.fused)
        return out

    def search(self) -> er.Run:
        if not self.bm25:
            for qid, text in self.collection.queries.items():
                # search returns passages: ask for enough to fill LIMIT documents.
                response = self.ws.search(text, limit=5 * LIMIT, collections=[self.collection.query_part[qid]])
                self.bm25[qid] = self.keys([_Hit(r.uri, r.score) for r in response.results])[:LIMIT]
        return self.bm25


class _Hit:
    def __init__(self, uri: str, score: float) -> None:
        self.uri, self.score = uri, score


def settings_of(changes: Mapping[str, Any]) -> tuple[HybridSettings, bool]:
    changes = dict(changes)
    exact = bool(changes.pop("_exact", False))
    return dataclasses.replace(DEFAULT_SETTINGS, **changes), exact


def paired_rows(collection: er.EvalCollection, runs: Mapping[str, er.Run], reference: str,
                names: Sequence[str], tune: Mapping[str, int | None] | None = None) -> list[str]:
    values = {name: collection.per_query(run) for name, run in runs.items()}
    split = collection.split(tune)
    locomo = bool(collection.questions)
    measures = er.PAIRED_LOCOMO if locomo else er.PAIRED_IR
    rows = []
    for part in ("tune", "test", "all"):
        qids = [q for q in split if part == "all" or split[q] == part]
        if not qids or (part != "all" and len(qids) == len(split)):
            continue  # a set wholly on one side: its "all" row says it
        for measure in measures:
            percent = locomo and measure != "MRR@10"
            ref = [values[reference][measure][q] for q in qids]
            cells = []
            for name in names:
                vec = [values[name][measure][q] for q in qids]
                mean = sum(vec) / max(len(vec), 1)
                if name == reference:
                    cells.append(er.fmt_paired(mean, percent))
                    continue
                diff, lo, hi = er.paired_bootstrap(vec, ref)
                flag = " ▼" if hi < 0 else (" ▲" if lo > 0 else "")
                cells.append(f"{er.fmt_paired(mean, percent)} ({er.fmt_delta(diff, percent)} "
                             f"[{er.fmt_delta(lo, percent)}, {er.fmt_delta(hi, percent)}]{flag})")
            rows.append(f"| {collection.name} | {part} | {len(qids)} | {measure} | " + " | ".join(cells) + " |")
    return rows


def neighbour_of(turn: str, evidence: frozenset[str]) -> bool:
    """Whether LoCoMo turn ``D<s>:<n>`` is next to an evidence turn of the same session."""
    session, _, number = turn.removeprefix("D").partition(":")
    if not number.isdigit():
        return False
    return f"D{session}:{int(number) - 1}" in evidence or f"D{session}:{int(number) + 1}" in evidence


def wins_rows(collection: er.EvalCollection, runs: Mapping[str, er.Run], names: Sequence[str]) -> list[str]:
    """LoCoMo, per question: is each variant's first evidence turn in the top 10 better or
    worse placed than BM25's, and when worse, is a neighbour of an evidence turn above it?"""
    rows = ["| variant | better than bm25 | worse | worse, an evidence turn's neighbour above the first "
            "evidence turn | … at rank 1 | same |", "| --- | ---: | ---: | ---: | ---: | ---: |"]

    def first(docs: Sequence[str], evidence: frozenset[str]) -> float:
        return next((1.0 / i for i, d in enumerate(docs[:10], 1) if d in evidence), 0.0)

    for name in names:
        better = worse = above = top = same = 0
        for q in collection.questions:
            if not q.evidence:
                continue
            mine = [d for d, _ in runs[name].get(q.qid, [])]
            ours, base = first(mine, q.evidence), first([d for d, _ in runs["bm25"].get(q.qid, [])], q.evidence)
            if ours > base:
                better += 1
            elif ours < base:
                worse += 1
                ahead = mine[: round(1 / ours) - 1] if ours else mine[:10]
                above += any(neighbour_of(d, q.evidence) for d in ahead)
                top += bool(ahead) and neighbour_of(ahead[0], q.evidence)
            else:
                same += 1
        rows.append(f"| {name} | {better} | {worse} | {above} | {top} | {same} |")
    return rows


def query_time(replay: Replay, text: str, part: list[str], name: str) -> float:
    """Wall time of one ``ws.query`` (embedding included, nothing remembered) with the
    settings and mode of variant ``name``."""
    from cairn.retrieval import service as service_module

    original = service_module.RetrievalService.pipeline
    mode, changes = VARIANTS[name]
    settings, _ = settings_of(changes)

    def pipeline(self: Any, store: Any) -> HybridPipeline:
        return HybridPipeline(original(self, store).ports, settings)

    service_module.RetrievalService.pipeline = pipeline  # type: ignore[method-assign]
    try:
        started = time.perf_counter()
        replay.ws.query(text, limit=LIMIT, mode=mode, collections=part)
        return time.perf_counter() - started
    finally:
        service_module.RetrievalService.pipeline = original  # type: ignore[method-assign]


def latency(replays: Sequence[Replay], names: Sequence[str], count: int) -> list[str]:
    """Median wall time of ``ws.query`` per variant (and ``ws.search``), interleaved per
    query, and its ratio to ``search``'s and to the first variant's (e.g. ``default``)."""

    samples: dict[str, list[float]] = {name: [] for name in ["search", *names]}
    for replay in replays:
        items = list(replay.collection.queries.items())[:count]
        for name in names:  # models loaded (and derived) before timing
            query_time(replay, items[0][1], [replay.collection.query_part[items[0][0]]], name)
        for qid, text in items:
            part = [replay.collection.query_part[qid]]
            started = time.perf_counter()
            replay.ws.search(text, limit=LIMIT, collections=part)
            samples["search"].append(time.perf_counter() - started)
            for name in names:
                samples[name].append(query_time(replay, text, part, name))
    base = statistics.median(samples["search"])
    first = statistics.median(samples[names[0]]) if names else base
    lines = [f"n = {len(samples['search'])} queries",
             f"| variant | p50 ms | ratio to search p50 | ratio to {names[0] if names else 'search'} p50 |",
             "| --- | ---: | ---: | ---: |"]
    for name, values in samples.items():
        p50 = statistics.median(values)
        lines.append(f"| {name} | {1000 * p50:.2f} | {p50 / base:.2f}× | {p50 / first:.2f}× |")
    return lines


def stage_costs(replays: Sequence[Replay], count: int, variants: Sequence[str] = ("default", "fast")) -> list[str]:
    """Median wall time of each stage of the hybrid pipeline, run one after the other on
    the real ports (nothing remembered), for the first ``count`` queries of each
    collection: the query embedding (exact, int8), BM25, the vector search, the first
    fusion (it picks the feedback passages), the two halves of the feedback round (text:
    passage texts + expansion words, then the second BM25 query at 6 and 4 words; vector:
    the Rocchio vector and its search over the matrix, or over the candidate pool only),
    the final fusion, sequence context (collections declared a sequence) and the results
    (full hits, passage texts, snippets). In ``query`` the vector stage overlaps BM25 on a
    helper thread, so stage times do not add up to a query's time; ``ws.query`` end to end
    for each of ``variants`` and ``search`` are timed in the same loop."""
    from cairn.retrieval.bm25 import make_snippet, term_finder
    from cairn.retrieval.hybrid import FeedbackExpander, fuse
    from cairn.retrieval.pipeline import HybridRun
    from cairn.retrieval.vector import feedback_query, nearest_candidates, pool_candidates
    from cairn.text.query import parse_query

    tuning = DEFAULT_SETTINGS
    names = ["search", *(f"query {v}" for v in variants), "embed exact", "embed int8", "embed int8-mid", "bm25", "vector",
             "first fusion", "text half: passage texts + words", "text half: bm25x (6 words)",
             "text half: bm25x (4 words)", "text half: pool re-scoring (4 words)", "vector half: Rocchio + matrix search", "vector half: Rocchio + pool",
             "final fusion", "sequence", "results: full hits + snippets"]
    samples: dict[str, list[float]] = {name: [] for name in names}

    def timed(name: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        out = call(*args, **kwargs)
        samples[name].append(time.perf_counter() - started)
        return out

    def words(store: Any, first: list[int], text: str) -> list[str]:
        texts = store.passage_texts(first)
        extra = FeedbackExpander(terms=6).expand(text, [texts[p] for p in first if p in texts])
        return (extra or "").split()

    def vector_half(side: Any, vector: Any, first: list[int], depth: int) -> Any:
        shifted = feedback_query(side.matrix, vector, first[:3], tuning.rocchio_beta)
        return [] if shifted is None else nearest_candidates(side.matrix, shifted, depth, side.allowed)

    def pool_half(side: Any, vector: Any, first: list[int], rankings: Mapping[str, Any]) -> Any:
        shifted = feedback_query(side.matrix, vector, first[:3], tuning.rocchio_beta)
        pool = [hit.passage_id for hits in rankings.values() for hit in hits]
        return [] if shifted is None else pool_candidates(side.matrix, shifted, pool)

    def first_units(bm25: Any, near: Any) -> list[int]:
        fused = fuse({"bm25": bm25, "vector": near}, k=tuning.rrf_k, weights=tuning.weights)
        return [f.hit.passage_id for f in fused[:5]]

    def sequence(pipeline: HybridPipeline, run: HybridRun, filters: Any) -> None:
        if run.fused and pipeline.ports.passages.has_sequence_collections():
            pipeline._sequence_stage(run, filters)

    def results(store: Any, run: HybridRun, text: str) -> list[Any]:
        head = run.fused[:LIMIT]
        full = store.complete_hits([f.hit for f in head])
        texts = store.passage_texts([h.passage_id for h in full])
        finder = term_finder(parse_query(text, strict=False).terms)
        return [h._replace(snippet=make_snippet(texts.get(h.passage_id, ""), finder)) for h in full]

    depth = max(tuning.candidates, LIMIT * 5)
    for replay in replays:
        ws = replay.ws
        warm = next(iter(replay.collection.queries.items()))  # models loaded before timing
        for variant in variants:
            query_time(replay, warm[1], [replay.collection.query_part[warm[0]]], variant)
        for qid, text in list(replay.collection.queries.items())[:count]:
            part = [replay.collection.query_part[qid]]
            timed("search", ws.search, text, limit=LIMIT, collections=part)
            for variant in variants:
                samples[f"query {variant}"].append(query_time(replay, text, part, variant))
            store, filters, _ = replay.service.setup(LIMIT, part, (), (), None, None)
            pipeline = replay.service.pipeline(store)
            ports = pipeline.ports
            side = ports.vectors(filters)
            vector = timed("embed exact", side.embedder.embed, [text], kind="query")[0]
            timed("embed int8", side.embedder.embed_query_fast, text)
            timed("embed int8-mid", side.embedder.embed_query_fast, text, "int8-mid")
            bm25 = timed("bm25", ports.lexical, text, filters, depth)
            near = timed("vector", nearest_candidates, side.matrix, vector, depth, side.allowed)
            first = timed("first fusion", first_units, bm25, near)
            extra = timed("text half: passage texts + words", words, store, first, text)
            bm25x = timed("text half: bm25x (6 words)", ports.lexical, f"{text} {' '.join(extra[:6])}",
                          filters, depth)
            timed("text half: bm25x (4 words)", ports.lexical, f"{text} {' '.join(extra[:4])}", filters, depth)
            pool = [hit.passage_id for hits in (bm25, near) for hit in hits]
            timed("text half: pool re-scoring (4 words)", ports.rescore, f"{text} {' '.join(extra[:4])}", pool)
            vectorx = timed("vector half: Rocchio + matrix search", vector_half, side, vector, first, depth)
            rankings = {"bm25": bm25, "vector": near, "bm25x": bm25x}
            timed("vector half: Rocchio + pool", pool_half, side, vector, first, rankings)
            run = HybridRun(depth=depth, rankings={**rankings, "vectorx": vectorx})
            run.fused = timed("final fusion", fuse, run.rankings, k=tuning.rrf_k, weights=tuning.feedback_weights)
            timed("sequence", sequence, pipeline, run, filters)
            timed("results: full hits + snippets", results, store, run, text)
    base = statistics.median(samples["search"])
    default = statistics.median(samples[f"query {variants[0]}"])
    lines = [f"n = {len(samples['search'])} queries",
             f"| stage | p50 ms | mean ms | × search p50 | share of {variants[0]} p50 |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, values in samples.items():
        p50 = statistics.median(values)
        lines.append(f"| {name} | {1000 * p50:.2f} | {1000 * statistics.fmean(values):.2f} | "
                     f"{p50 / base:.2f}× | {p50 / default:.0%} |")
    return lines


def compare_saved(path: Path, names: Sequence[str], reference: str, variants: Sequence[str],
                  options: argparse.Namespace) -> int:
    """Paired rows of ``variants`` against ``reference`` from the runs a ``--json`` file
    saved (any two saved runs, e.g. a new default against the old one), nothing re-run."""
    saved = json.loads(path.read_text())
    columns = [reference, *(v for v in variants if v != reference)]
    lines = ["| collection | split | n | measure | " + " | ".join(
        n if n == reference else f"{n} (− {reference} [95% CI])" for n in columns) + " |",
        "| --- | --- | ---: | --- | " + " | ".join("---" for _ in columns) + " |"]
    for name in names:
        runs = {k: {q: [(d, float(x)) for d, x in r] for q, r in v.items()} for k, v in saved[name].items()}
        lines += paired_rows(er.LOADERS[name](options), runs, reference, columns)
    print("\n".join(lines))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", default=["cranfield", "medline", "locomo"])
    parser.add_argument("--work", type=Path, default=er.WORK)
    parser.add_argument("--variants", nargs="+", default=["default", "fast"], choices=[*VARIANTS, "bm25"])
    parser.add_argument("--reference", default="bm25", help="bm25 or a variant name")
    parser.add_argument("--latency", type=int, default=0, help="time N queries per collection instead")
    parser.add_argument("--stages", type=int, default=0, help="time each stage on N queries per collection instead")
    parser.add_argument("--json", type=Path, help="write every run's rankings here")
    parser.add_argument("--depth", type=int, help="candidates per stage (default: the pipeline's, 50 at limit 10)")
    parser.add_argument("--tune", nargs="+", metavar="SET[:N]",
                        help="named tuning split, as in bench.eval_retrieval (default: its alternate split)")
    parser.add_argument("--from-json", type=Path, help="compare the runs a --json file saved instead of running")
    args = parser.parse_args(argv)
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    if args.from_json:
        return compare_saved(args.from_json, args.collections, args.reference, args.variants, options)
    collections = [er.LOADERS[name](options) for name in args.collections]
    replays = [Replay(c, args.work / c.folder / "home") for c in collections]
    if args.stages:
        print("\n".join(stage_costs(replays, args.stages, args.variants)))
        return 0
    if args.latency:
        print("\n".join(latency(replays, args.variants, args.latency)))
        return 0
    names = ["bm25", *args.variants]
    header = ("| collection | split | n | measure | " + " | ".join(
        n if n == args.reference else f"{n} (− {args.reference} [95% CI])" for n in names) + " |")
    lines = [header, "| --- | --- | ---: | --- | " + " | ".join("---" for _ in names) + " |"]
    saved: dict[str, dict[str, er.Run]] = {}
    wins: list[str] = []
    for replay in replays:
        runs: dict[str, er.Run] = {"bm25": replay.search()}
        for name in args.variants:
            mode, changes = VARIANTS[name]
            settings, exact = settings_of(changes)
            started = time.perf_counter()
            runs[name] = replay.run(mode, settings, exact, args.depth)
            print(f"  {replay.collection.name} {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
        lines += paired_rows(replay.collection, runs, args.reference, names, er.parse_tune(args.tune))
        if replay.collection.questions:
            wins += ["", *wins_rows(replay.collection, runs, args.variants)]
        saved[replay.collection.name] = runs
        replay.ws.close()
    print("\n".join(lines + wins))
    if args.json:
        args.json.write_text(json.dumps(saved))
    return 0


if __name__ == "__main__":
    sys.exit(main())
