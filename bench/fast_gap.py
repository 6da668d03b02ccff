"""Where ``--fast`` and default ``query`` rank a query's first relevant document differently
(issue 17 item 2): per query, the rank of the relevant documents in every stage list of each
variant, and the fused head with each unit's stage ranks and fused score. A diagnostic.

    PYTHONPATH=src:. python -m bench.fast_gap --collections medline --variants default fast fast-exact-r

For every query where the first variant's reciprocal rank of the first relevant document
(MRR@10) differs from another variant's, one block per variant: the stages it ran, the fusion
weights, the best rank of a relevant document in each stage list (``bm25``, ``bm25x``,
``vector``, ``vectorx``: ranks among documents, a document's best passage), and the fused
head down to the first relevant document (``*`` relevant), each unit with its fused score
and its rank in every stage list (``-``: not in it). Ranks are over the candidate lists the
pipeline fused (50 per stage at limit 10).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench import eval_retrieval as er
from bench.fusion_replay import LIMIT, VARIANTS, Replay, settings_of
from cairn.retrieval.pipeline import HybridPipeline, HybridRun

STAGES = ("bm25", "bm25x", "vector", "vectorx")


def doc_ranks(hits: Sequence[Any]) -> dict[str, int]:
    """Docid -> its 1-based rank among the documents of a passage list (best passage)."""
    out: dict[str, int] = {}
    for hit in hits:
        if hit.docid not in out:
            out[hit.docid] = len(out) + 1
    return out


def first_relevant(ranks: Mapping[str, int], key: Mapping[str, str], relevant: set[str]) -> int | None:
    found = [r for d, r in ranks.items() if key[d] in relevant]
    return min(found) if found else None


def reciprocal(fused: Sequence[Any], key: Mapping[str, str], relevant: set[str]) -> float:
    docs = list(dict.fromkeys(key[f.hit.docid] for f in fused))[:LIMIT]
    return next((1.0 / i for i, d in enumerate(docs, 1) if d in relevant), 0.0)


def block(name: str, run: HybridRun, key: Mapping[str, str], relevant: set[str], head: int) -> list[str]:
    stage_ranks = {s: doc_ranks(run.rankings[s]) for s in STAGES if s in run.rankings}
    weights = run.weights.weights if run.weights is not None else {}
    lines = [f"  [{name}] stages={','.join(run.stages_run)} "
             f"weights=({', '.join(f'{s}={w:.3g}' for s, w in weights.items() if s != 'graph')})"]
    firsts = {s: first_relevant(r, key, relevant) for s, r in stage_ranks.items()}
    fused_docs = list(dict.fromkeys(f.hit.docid for f in run.fused))
    fused_first = first_relevant({d: i for i, d in enumerate(fused_docs, 1)}, key, relevant)
    lines.append("    first relevant: " + "  ".join(f"{s} {firsts[s] or '-'}" for s in stage_ranks)
                 + f"  fused {fused_first or '-'}")
    seen: set[str] = set()
    for item in run.fused:
        docid = item.hit.docid
        if docid in seen:
            continue
        seen.add(docid)
        star = "*" if key[docid] in relevant else " "
        cells = "  ".join(f"{s} {stage_ranks[s].get(docid, '-'):>2}" for s in stage_ranks)
        extra = "  complete" if "complete" in item.stages else ""
        lines.append(f"    {len(seen):>2} {star} {key[docid]:>10}  fused {item.score:.5f}  {cells}{extra}")
        if len(seen) >= head and (star == "*" or len(seen) >= LIMIT):
            break
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", required=True)
    parser.add_argument("--variants", nargs="+", default=["default", "fast"], choices=list(VARIANTS))
    parser.add_argument("--work", type=Path, default=er.WORK)
    parser.add_argument("--head", type=int, default=3, help="fused units shown at least")
    parser.add_argument("--all", action="store_true", help="every variant's block for every differing query")
    args = parser.parse_args(argv)
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    for name in args.collections:
        collection = er.LOADERS[name](options)
        split = collection.split()
        replay = Replay(collection, args.work / collection.folder / "home")
        key = {d.docid: collection.key_of(d.uri) for d in replay.ws.ls().documents}
        pipelines = {}
        for variant in args.variants:
            mode, changes = VARIANTS[variant]
            settings, exact = settings_of(changes)
            pipelines[variant] = (mode, settings, exact)
        totals = {v: 0.0 for v in args.variants}
        differing = 0
        for qid, text in collection.queries.items():
            relevant = {d for d, g in collection.qrels.get(qid, {}).items() if g > 0}
            if not relevant:
                continue
            store, filters, _ = replay.service.setup(LIMIT, [collection.query_part[qid]], (), (), None, None)
            runs = {}
            for variant, (mode, settings, exact) in pipelines.items():
                runs[variant] = HybridPipeline(replay.ports(store, exact), settings).run(
                    text, filters, LIMIT, mode=mode, graph=False, all_passages=False)
            rr = {v: reciprocal(r.fused, key, relevant) for v, r in runs.items()}
            for v, x in rr.items():
                totals[v] += x
            reference = args.variants[0]
            if all(x == rr[reference] for x in rr.values()):
                continue
            differing += 1
            print(f"[{name} {split.get(qid, '?')}] {qid}: {text[:110]!r}  ({len(relevant)} relevant)")
            print("  RR@10: " + "  ".join(f"{v} {x:.3f}" for v, x in rr.items()))
            for variant, run in runs.items():
                if args.all or variant == reference or rr[variant] != rr[reference]:
                    print("\n".join(block(variant, run, key, relevant, args.head)))
        n = sum(1 for q in collection.queries if any(g > 0 for g in collection.qrels.get(q, {}).values()))
        print(f"{name}: {differing} queries differ; MRR@10 " + "  ".join(
            f"{v} {totals[v] / n:.4f}" for v in args.variants), file=sys.stderr)
        replay.ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
