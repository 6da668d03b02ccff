"""Where the feedback round's second BM25 query spends its time, on the stored indexes.

    PYTHONPATH=src python -m bench.bm25x_cost --collections cranfield nfcorpus locomo --count 50

For the first ``--count`` queries of each collection, the expanded query of default mode's
text half (the query + 6 expansion words from the fused top 5, as
:meth:`~cairn.retrieval.pipeline.HybridPipeline._text_feedback` builds it) is run on the
index as SQL, each form timed in the same loop (median of 5 runs per query, then p50 over
queries): ``current`` (the store's statement: the FTS5 matches joined to their passage,
document and collection, filtered, ranked by ``bm25()``, cut), ``restrict first`` (the
collection's passage ids materialised first, the matches tested against them before any
join; its ranking must equal ``current``'s), ``no filter`` (``bm25()`` over every match of
the index), ``matches only`` (the FTS5 matches listed, nothing scored) and ``pool`` (the
expanded query's ``bm25()`` evaluated for the candidate pool only: BM25's and the vector
search's 50 each; the ``text-pool`` half).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from bench import eval_retrieval as er
from bench.fusion_replay import LIMIT, Replay
from cairn.retrieval.hybrid import DEFAULT_SETTINGS, FeedbackExpander, fuse
from cairn.retrieval.vector import nearest_candidates
from cairn.store.sqlite.fts import BM25_WEIGHTS, compile_query

RANK = "bm25(passages_fts, {}, {}, {})".format(*BM25_WEIGHTS)
JOINED = ("FROM passages_fts f JOIN passages p ON p.id = f.rowid JOIN documents d ON d.id = p.document_id"
          " JOIN collections c ON c.id = d.collection_id")
FORMS = {
    "current": f"SELECT f.rowid, {RANK} AS r {JOINED} WHERE passages_fts MATCH ? AND d.active = 1"
               " AND c.name = ? ORDER BY r, f.rowid LIMIT ?",
    "restrict first": "WITH allowed AS MATERIALIZED (SELECT p.id FROM passages p JOIN documents d ON d.id ="
                      " p.document_id JOIN collections c ON c.id = d.collection_id WHERE d.active = 1 AND"
                      f" c.name = ?) SELECT f.rowid, {RANK} AS r FROM passages_fts f WHERE passages_fts MATCH ?"
                      " AND +f.rowid IN allowed ORDER BY r, f.rowid LIMIT ?",
    "no filter": f"SELECT rowid, {RANK} AS r FROM passages_fts WHERE passages_fts MATCH ? ORDER BY r, rowid LIMIT ?",
    "matches only": "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?",
}


def median_ms(conn: Any, sql: str, params: tuple[Any, ...], repeat: int = 5) -> tuple[float, list[Any]]:
    times, rows = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        rows = conn.execute(sql, params).fetchall()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times), rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections", nargs="+", default=["cranfield", "nfcorpus", "locomo"])
    parser.add_argument("--count", type=int, default=50)
    args = parser.parse_args(argv)
    options = argparse.Namespace(no_titles=False, turn="full", no_sequence=False)
    samples: dict[str, list[float]] = {name: [] for name in [*FORMS, "pool"]}
    matches: list[int] = []
    differ = 0
    depth = max(DEFAULT_SETTINGS.candidates, LIMIT * 5)
    for name in args.collections:
        replay = Replay(er.LOADERS[name](options), er.WORK / name / "home")
        for qid, text in list(replay.collection.queries.items())[: args.count]:
            collection = replay.collection.query_part[qid]
            store, filters, _ = replay.service.setup(LIMIT, [collection], (), (), None, None)
            ports = replay.service.pipeline(store).ports
            side = ports.vectors(filters)
            bm25 = ports.lexical(text, filters, depth)
            near = nearest_candidates(side.matrix, side.embedder.embed([text], kind="query")[0], depth, side.allowed)
            first = [f.hit.passage_id for f in fuse({"bm25": bm25, "vector": near}, k=DEFAULT_SETTINGS.rrf_k,
                                                    weights=DEFAULT_SETTINGS.weights)[:5]]
            texts = store.passage_texts(first)
            extra = FeedbackExpander(terms=6).expand(text, [texts[p] for p in first if p in texts])
            match = compile_query(f"{text} {extra or ''}", strict=False).main
            if match is None:
                continue
            conn = store.conn
            current, ranked = median_ms(conn, FORMS["current"], (match, collection, depth))
            samples["current"].append(current)
            first_ms, restricted = median_ms(conn, FORMS["restrict first"], (collection, match, depth))
            samples["restrict first"].append(first_ms)
            differ += restricted != ranked
            samples["no filter"].append(median_ms(conn, FORMS["no filter"], (match, depth))[0])
            listed_ms, listed = median_ms(conn, FORMS["matches only"], (match,))
            samples["matches only"].append(listed_ms)
            matches.append(len(listed))
            pool = list(dict.fromkeys(hit.passage_id for hit in (*bm25, *near)))
            started = time.perf_counter()
            for _ in range(5):
                ports.rescore(f"{text} {extra or ''}", pool)
            samples["pool"].append(1000 * (time.perf_counter() - started) / 5)
        replay.ws.close()
    base = statistics.median(samples["current"])
    print(f"n = {len(samples['current'])} expanded queries; FTS5 matches per query p50 "
          f"{statistics.median(matches):.0f}; rankings of 'restrict first' differing from 'current': {differ}")
    print("| form | p50 ms | ÷ current |")
    print("| --- | ---: | ---: |")
    for name, values in samples.items():
        p50 = statistics.median(values)
        print(f"| {name} | {p50:.2f} | {p50 / base:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
