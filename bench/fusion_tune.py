"""Adaptive fusion: choose ``fast_weights`` and ``decisive_vector`` on a tuning split, report them on the test split.

    .venv/bin/python -m bench.eval_retrieval --reuse --modes bm25,vector --no-write
    .venv/bin/python -m bench.fusion_tune [--collections ...] [--json out.json]

Reads the bm25 and vector document rankings that ``eval_retrieval.py`` saved
(``bench/.work/<collection>/runs.json``, with scores) and fuses them offline the way
``query --fast`` does: reciprocal rank, k = ``HybridSettings.rrf_k``, bm25 weight 1,
vector weight ``w``, times ``d`` when BM25 is decisive (its best document scores at least
``strong_signal_ratio`` times the second, :func:`cairn.retrieval.hybrid.strong_signal`).
No feedback round and no sequence context: this isolates the two constants.

Every (w, d) cell is scored on each collection's *tune* split (``EvalCollection.split``:
alternate judged queries; LoCoMo's first three dev conversations). The chosen cell
maximises the worst relative difference from bm25 over every collection and measure
(nDCG@10, R@5, MRR@10; LoCoMo R@5, R@10, MRR@10), then the mean; it is then reported on
the *test* split, which took no part in the choice.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import eval_retrieval as er
from cairn.retrieval.hybrid import DEFAULT_SETTINGS

WEIGHTS = (0.25, 0.5, 0.75, 1.0)
DECISIVE = (1.0, 0.5, 0.25, 0.0)


def fuse(bm25: er.Ranking, vector: er.Ranking, w: float, d: float) -> er.Ranking:
    k, ratio = DEFAULT_SETTINGS.rrf_k, DEFAULT_SETTINGS.strong_signal_ratio
    decisive = bool(bm25) and bm25[0][1] > 0 and (len(bm25) == 1 or bm25[0][1] >= ratio * max(bm25[1][1], 1e-9))
    weight = w * (d if decisive else 1.0)
    scores: dict[str, list[float]] = {}
    for order, (stage_w, ranking) in enumerate(((1.0, bm25), (weight, vector))):
        for rank, (doc, _) in enumerate(ranking, 1):
            entry = scores.setdefault(doc, [0.0, rank, order])
            entry[0] += stage_w / (k + rank)
            if rank < entry[1]:
                entry[1], entry[2] = rank, order
    ordered = sorted(scores, key=lambda doc: (-round(scores[doc][0], 8), scores[doc][1], scores[doc][2], doc))
    return [(doc, scores[doc][0]) for doc in ordered]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", default=["nfcorpus", "cranfield", "medline", "locomo"])
    parser.add_argument("--json", type=Path, help="also write every cell's figures here")
    args = parser.parse_args(argv)
    loaded = []
    for name in args.collections:
        collection = er.LOADERS[name](argparse.Namespace(no_titles=False, turn="full", no_sequence=False))
        runs = json.loads((er.WORK / name / "runs.json").read_text())
        if "vector" not in runs:
            print(f"{name}: no saved vector run, skipped", file=sys.stderr)
            continue
        bm25 = {q: [(d, float(s)) for d, s in r] for q, r in runs["bm25"].items()}
        vector = {q: [(d, float(s)) for d, s in r] for q, r in runs["vector"].items()}
        loaded.append((collection, bm25, vector, collection.split(), collection.per_query(bm25)))
    cells: dict[tuple[float, float], dict[str, dict[str, dict[str, float]]]] = {}
    for w in WEIGHTS:
        for d in DECISIVE:
            cell: dict[str, dict[str, dict[str, float]]] = {}
            for collection, bm25, vector, split, base in loaded:
                fused = {q: fuse(bm25.get(q, []), vector.get(q, []), w, d) for q in collection.queries}
                values = collection.per_query(fused)
                for part in ("tune", "test"):
                    qids = [q for q in split if split[q] == part]
                    cell.setdefault(part, {})[collection.name] = {
                        m: (sum(values[m][q] for q in qids) / len(qids), sum(base[m][q] for q in qids) / len(qids))
                        for m in (er.PAIRED_LOCOMO if collection.questions else er.PAIRED_IR)
                    }
            cells[(w, d)] = cell  # type: ignore[assignment]

    def objective(key: tuple[float, float]) -> tuple[float, float]:
        rel = [(fused - b) / max(b, 1e-9) for figures in cells[key]["tune"].values()
               for fused, b in figures.values()]  # type: ignore[misc]
        return min(rel), sum(rel) / len(rel)

    ranked = sorted(cells, key=lambda key: tuple(-x for x in objective(key)))
    chosen = ranked[0]
    names = [c.name for c, *_ in loaded]
    for part in ("tune", "test"):
        measures = [(n, m) for n in names for m in cells[chosen][part][n]]
        print(f"\n{part} split: fused − bm25 (relative worst, mean on tune; then each measure)\n")
        print("| w_vector | decisive × | worst | mean | " + " | ".join(f"{n} {m}" for n, m in measures) + " |")
        print("| ---: | ---: | ---: | ---: | " + " | ".join(["---:"] * len(measures)) + " |")
        base_row = [cells[chosen][part][n][m][1] for n, m in measures]
        print("| bm25 | — | — | — | " + " | ".join(f"{v:.4f}" if v < 1.5 else f"{v:.1f}" for v in base_row) + " |")
        for key in ranked:
            rel = [(f - b) / max(b, 1e-9) for n, m in measures for f, b in [cells[key][part][n][m]]]
            mark = " **(chosen)**" if key == chosen else ""
            print(f"| {key[0]:g}{mark} | {key[1]:g} | {min(rel):+.3f} | {sum(rel) / len(rel):+.3f} | "
                  + " | ".join(f"{cells[key][part][n][m][0]:.4f}" if cells[key][part][n][m][0] < 1.5
                               else f"{cells[key][part][n][m][0]:.1f}" for n, m in measures) + " |")
    if args.json:
        args.json.write_text(json.dumps({f"{w}/{d}": v for (w, d), v in cells.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
