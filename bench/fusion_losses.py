"""Where hybrid ``query`` loses a relevant document from its top 5 that BM25 has there (issue
17 item 1): per query, the relevant documents' ranks in BM25, the vector list and the fused
list, and what BM25's top passages hold of the query. A diagnostic for a tuning split.

    PYTHONPATH=src:. python -m bench.fusion_losses --collections tldr-example-tune --variants default

For every query where BM25 has a relevant document in its top ``--cutoff`` and the variant
does not (a loss), or the other way round (a win), one block: the query, the relevant
document's ranks, and BM25's top ``--cutoff`` documents with ``C`` (its best passage holds
every query word, :func:`cairn.retrieval.hybrid.holds_every_word`) and their vector and fused
ranks; the vector top document with the same marks.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench import eval_retrieval as er
from bench.fusion_replay import LIMIT, VARIANTS, Replay, settings_of
from cairn.retrieval.hybrid import holds_every_word, query_stems
from cairn.retrieval.pipeline import HybridPipeline


def best_passages(hits: Sequence[Any], depth: int) -> dict[str, int]:
    """Document -> its best passage id, in the list's order, the first ``depth`` documents."""
    out: dict[str, int] = {}
    for hit in hits:
        out.setdefault(hit.docid, hit.passage_id)
        if len(out) == depth:
            break
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", required=True)
    parser.add_argument("--variants", nargs="+", default=["default"], choices=list(VARIANTS))
    parser.add_argument("--work", type=Path, default=er.WORK)
    parser.add_argument("--cutoff", type=int, default=5)
    parser.add_argument("--part", default="tune", choices=["tune", "test", "all"])
    args = parser.parse_args(argv)
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    k = args.cutoff
    for name in args.collections:
        collection = er.LOADERS[name](options)
        split = collection.split()
        replay = Replay(collection, args.work / collection.folder / "home")
        key = {d.docid: collection.key_of(d.uri) for d in replay.ws.ls().documents}
        for variant in args.variants:
            mode, changes = VARIANTS[variant]
            settings, exact = settings_of(changes)
            counts = {"loss": 0, "win": 0}
            for qid, text in collection.queries.items():
                if args.part != "all" and split.get(qid) != args.part:
                    continue
                relevant = {d for d, g in collection.qrels.get(qid, {}).items() if g > 0}
                store, filters, _ = replay.service.setup(LIMIT, [collection.query_part[qid]], (), (), None, None)
                run = HybridPipeline(replay.ports(store, exact), settings).run(
                    text, filters, LIMIT, mode=mode, graph=False, all_passages=False)
                bm25 = best_passages(run.rankings.get("bm25", []), 50)
                vector = best_passages(run.rankings.get("vector", []), 50)
                fused = [key[f.hit.docid] for f in run.fused[:50]]
                bm25_keys = [key[d] for d in bm25]
                vector_keys = [key[d] for d in vector]
                bm25_hit = bool(relevant & set(bm25_keys[:k]))
                fused_hit = bool(relevant & set(fused[:k]))
                if bm25_hit == fused_hit:
                    continue
                kind = "loss" if bm25_hit else "win"
                counts[kind] += 1
                stems = query_stems(text)
                shown = list(bm25.items())[:k]
                if vector:
                    shown.append(next(iter(vector.items())))
                texts = store.passage_texts([p for _, p in shown])

                def rank(keys: list[str], doc: str) -> str:
                    return str(keys.index(doc) + 1) if doc in keys else "-"

                print(f"[{name} {variant} {kind}] {qid}: {text!r}  stages={','.join(run.stages_run)}")
                for doc in sorted(relevant):
                    print(f"    relevant {doc}: bm25 {rank(bm25_keys, doc)} vector {rank(vector_keys, doc)} "
                          f"fused {rank(fused, doc)}")
                for i, (docid, pid) in enumerate(shown, 1):
                    doc = key[docid]
                    mark = "C" if holds_every_word(stems, texts.get(pid, "")) else " "
                    star = "*" if doc in relevant else " "
                    label = f"bm25 {i}" if i <= len(shown) - (1 if vector else 0) else "vector 1"
                    print(f"    {label:8} {mark}{star} {doc:40} vector {rank(vector_keys, doc):>2} "
                          f"fused {rank(fused, doc):>2}  {texts.get(pid, '')[:90]!r}")
            print(f"{name} {variant}: {counts['loss']} losses, {counts['win']} wins at {k} against BM25",
                  file=sys.stderr)
        replay.ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
