"""Per-query signals for the vector weight of hybrid ``query`` (issue 17 item 1), dumped with
each query's outcome at several vector-weight factors, for choosing a rule offline.

    PYTHONPATH=src:. python -m bench.fusion_signal --collections tldr-example-tune locomo \\
        --factors 1 0.5 0.25 0 --decisive 0.5 0.25 0 --json bench/.work/signal-tune.json
    PYTHONPATH=src:. python -m bench.fusion_signal --report --json bench/.work/signal-tune.json

Every run is cairn's own :class:`~cairn.retrieval.pipeline.HybridPipeline` replayed over the
stored indexes (:mod:`bench.fusion_replay`: query vectors and BM25 rankings remembered), with
the vector-side weights (``vector``, ``vectorx``) of every fusion of the query, the first
round's and the final one, multiplied by a factor (1 = today's default). The signals are
read from the first round's BM25 and vector lists, which no weight changes, so a rule "factor
f when the signal says so, else 1" is the per-query choice between two of these runs: every
threshold of every signal is evaluated offline from one dump, exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench import eval_retrieval as er
from bench.fusion_replay import LIMIT, Replay
from cairn.retrieval import pipeline as pipeline_module
from cairn.retrieval.hybrid import DEFAULT_SETTINGS, VECTOR_STAGES, FusionWeights
from cairn.retrieval.pipeline import HybridPipeline, QueryMode


@contextmanager
def vector_factor(factor: float, decisive: bool = False) -> Iterator[None]:
    """Every :func:`adapt_weights` of the pipeline with its vector-side weights times
    ``factor``; with ``decisive``, every query as if BM25 were decisive (no feedback round)."""
    original, strong = pipeline_module.adapt_weights, pipeline_module.strong_signal

    def scaled(*args: Any, **kwargs: Any) -> FusionWeights:
        chosen = original(*args, **kwargs)
        weights = {s: round(w * factor, 6) if s in VECTOR_STAGES else w for s, w in chosen.weights.items()}
        return FusionWeights(weights, round(chosen.vector_factor * factor, 6), chosen.reasons)

    pipeline_module.adapt_weights = scaled  # type: ignore[assignment]
    if decisive:
        pipeline_module.strong_signal = lambda *args, **kwargs: True  # type: ignore[assignment]
    try:
        yield
    finally:
        pipeline_module.adapt_weights, pipeline_module.strong_signal = original, strong


def documents(hits: Any, depth: int = 50) -> list[tuple[str, float]]:
    """A passage list collapsed to documents (best passage first), at most ``depth``."""
    seen: dict[str, float] = {}
    for hit in hits:
        seen.setdefault(hit.docid, float(hit.score))
        if len(seen) == depth:
            break
    return list(seen.items())


def stems(text: str) -> set[str]:
    """Porter stems of a text's words, as the index's tokenizer reads them."""
    from cairn.text.query import WORD
    from cairn.text.stem import porter_stem

    return {porter_stem(w.casefold()) for w in WORD.findall(text)}


class Coverage:
    """How much of a query a passage matches: its share of the query's word stems, plain
    and weighted by IDF (document frequencies from the index's FTS vocabulary)."""

    def __init__(self, index_file: Path) -> None:
        import sqlite3

        conn = sqlite3.connect(f"file:{index_file}?mode=ro", uri=True)
        conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, passages_fts, 'row')")
        self.df = dict(conn.execute("SELECT term, doc FROM temp.vocab"))
        self.n = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
        conn.close()

    def idf(self, stem: str) -> float:
        import math

        df = self.df.get(stem, 0)
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def of(self, query: str, text: str) -> tuple[float, float]:
        from cairn.text.query import parse_query
        from cairn.text.stem import porter_stem

        asked = {porter_stem(w.casefold()) for t in parse_query(query, strict=False).words for w in t.words}
        if not asked:
            return 1.0, 1.0
        have = stems(text) & asked
        total = sum(self.idf(s) for s in asked)
        return len(have) / len(asked), sum(self.idf(s) for s in have) / max(total, 1e-9)


def features(rankings: Mapping[str, Any], query: str = "", texts: Any = None,
             coverage: Coverage | None = None) -> dict[str, float]:
    """Candidate signals of one query from its first-round BM25 and vector lists."""
    bm25, vector = documents(rankings.get("bm25", [])), documents(rankings.get("vector", []))
    out: dict[str, float] = {"n_bm25": len(bm25), "n_vector": len(vector)}
    if coverage is not None and texts is not None:
        for name, hits in (("b", rankings.get("bm25", [])), ("v", rankings.get("vector", []))):
            if hits:
                text = texts([hits[0].passage_id]).get(hits[0].passage_id, "")
                out[f"cov_{name}"], out[f"idfcov_{name}"] = coverage.of(query, text)
    if bm25:
        scores = [s for _, s in bm25]
        tenth = scores[min(9, len(scores) - 1)]
        out["b1"] = scores[0]
        out["ratio12"] = scores[0] / max(scores[1], 1e-9) if len(scores) > 1 else 99.0
        out["gap_spread"] = (scores[0] - scores[1]) / (scores[0] - tenth) if len(scores) > 1 and scores[0] > tenth else 1.0
        out["gap_rel"] = (scores[0] - scores[1]) / scores[0] if len(scores) > 1 else 1.0
    if vector:
        cos = [s for _, s in vector]
        tenth = cos[min(9, len(cos) - 1)]
        out["c1"] = cos[0]
        out["vflat"] = cos[0] - tenth
        out["vgap"] = cos[0] - cos[1] if len(cos) > 1 else 1.0
        out["vgap_spread"] = (cos[0] - cos[1]) / (cos[0] - tenth) if len(cos) > 1 and cos[0] > tenth else 1.0
    if bm25 and vector:
        vrank = {d: i for i, (d, _) in enumerate(vector, 1)}
        brank = {d: i for i, (d, _) in enumerate(bm25, 1)}
        out["bm25_top_in_vector"] = vrank.get(bm25[0][0], 99)
        out["vector_top_in_bm25"] = brank.get(vector[0][0], 99)
        out["cos_of_bm25_top"] = dict(vector).get(bm25[0][0], float("nan"))
        out["top5_overlap"] = len({d for d, _ in bm25[:5]} & {d for d, _ in vector[:5]})
    return out


def replay(rep: Replay, mode: QueryMode, factor: float, signals: dict[str, dict[str, float]] | None,
           decisive: bool = False) -> er.Run:
    """Every query of the collection at ``factor`` (``decisive``: no feedback round);
    ``signals`` (when given) gets each query's features."""
    out: er.Run = {}
    with vector_factor(factor, decisive):
        for qid, text in rep.collection.queries.items():
            store, filters, _ = rep.service.setup(LIMIT, [rep.collection.query_part[qid]], (), (), None, None)
            pipeline = HybridPipeline(rep.ports(store, False), DEFAULT_SETTINGS)
            run = pipeline.run(text, filters, LIMIT, mode=mode, graph=False, all_passages=False)
            out[qid] = rep.units(run.fused)
            if signals is not None:
                signals[qid] = features(run.rankings, text, store.passage_texts, rep.coverage)
    return out


def complete(signals: Mapping[str, float]) -> bool:
    """The session 10 rule: BM25's top passage holds every query word, the vector top does not."""
    return signals.get("cov_b", 0.0) >= 1.0 and signals.get("cov_v", 1.0) < 1.0


def report(dump: Mapping[str, Any]) -> list[str]:
    """Per set of the dump: how often :func:`complete` fires, and the mean of each measure
    minus BM25's (and minus the factor-1 run's) when the queries it fires on take run
    ``d<f>`` (no feedback round, vector weights x f) and the others run ``1``."""
    lines = ["| set | fires | run when it fires | measure | − bm25 | − default (x1) |", "| --- | ---: | --- | --- | ---: | ---: |"]
    for name, queries in dump.items():
        fired = {q for q, v in queries.items() if complete(v["features"])}
        runs = [r for r in next(iter(queries.values())) if r.startswith("d")]
        measures = [m for m in next(iter(queries.values()))["bm25"] if m in er.PAIRED_IR]
        for run in runs:
            for m in measures:
                chosen = [v[run if q in fired else "1"][m] for q, v in queries.items()]
                bm25 = [v["bm25"][m] for v in queries.values()]
                base = [v["1"][m] for v in queries.values()]
                n = len(chosen)
                lines.append(f"| {name} | {len(fired)}/{n} | {run} | {m} | {(sum(chosen) - sum(bm25)) / n:+.4f} | "
                             f"{(sum(chosen) - sum(base)) / n:+.4f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", default=[])
    parser.add_argument("--report", action="store_true", help="print the rule's table from --json instead")
    parser.add_argument("--work", type=Path, default=er.WORK)
    parser.add_argument("--factors", nargs="+", type=float, default=[1.0, 0.5, 0.25, 0.0])
    parser.add_argument("--decisive", nargs="*", type=float, default=[],
                        help="factors also run with every query as if BM25 were decisive (runs 'd<factor>')")
    parser.add_argument("--mode", default="default", choices=["default", "fast"])
    parser.add_argument("--part", default="tune", choices=["tune", "test", "all"], help="queries kept in the dump")
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args(argv)
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    dump: dict[str, Any] = json.loads(args.json.read_text()) if args.json.exists() else {}
    if args.report:
        print("\n".join(report(dump)))
        return 0
    dump = {k: v for k, v in dump.items() if not k.startswith(tuple(f"{c}:" for c in args.collections))}
    for name in args.collections:
        collection = er.LOADERS[name](options)
        split = collection.split()
        keep = {q for q, part in split.items() if args.part in ("all", part)}
        collection.queries = {q: t for q, t in collection.queries.items() if q in keep}
        rep = Replay(collection, args.work / collection.folder / "home")
        rep.coverage = Coverage(args.work / collection.folder / "home" / "indexes" / f"{collection.index_name}.sqlite")  # type: ignore[attr-defined]
        signals: dict[str, dict[str, float]] = {}
        per_factor = {"bm25": collection.per_query(rep.search())}
        for factor in args.factors:
            run = replay(rep, args.mode, factor, signals if factor == args.factors[0] else None)
            per_factor[f"{factor:g}"] = collection.per_query(run)
            print(f"  {name} x{factor:g}: done", file=sys.stderr)
        for factor in args.decisive:
            per_factor[f"d{factor:g}"] = collection.per_query(replay(rep, args.mode, factor, None, True))
        rep.ws.close()
        measures = list(per_factor["bm25"])
        dump[f"{name}:{args.mode}"] = {
            q: {"features": signals.get(q, {}), **{
                run: {m: values[m][q] for m in measures} for run, values in per_factor.items()}}
            for q in keep if q in signals}
        args.json.write_text(json.dumps(dump))
    return 0


if __name__ == "__main__":
    sys.exit(main())
