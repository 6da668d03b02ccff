"""Memory BM25: FTS5's ``bm25()`` against the scorer over stored postings, same store, same run.

    CAIRN_PLAN_SCALE_WORK=... PYTHONPATH=src:. python -m bench.memory_bm25 --tasks 100

On the scale store of :mod:`bench.plan_scale` (50,000 observations), for each task (the
tasks of :mod:`bench.plan_bench`) and its feedback-style expansion (the task plus six
words of its best record): the store's FTS5 ranking (``memory_search``, the best 250 of
the caller's records) and :class:`cairn.memory.bm25.MemoryBM25` asked for the same 250,
*cold* (a new scorer per query: no phrase shares kept, only the index statistics) and
*warm* (one scorer for the whole run, as a long-lived process keeps it). Prints p50/p95
per query and whether every ranking is identical (ids, order and float scores).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.plan_bench import percentile, scale_tasks

DEPTH = 250


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=100)
    args = parser.parse_args(argv)
    import cairn
    from bench import plan_scale
    from cairn.memory.bm25 import MemoryBM25
    from cairn.memory.recall import embed_text
    from cairn.text.query import parse_query

    ws = cairn.open(home=plan_scale.WORK / "home", index=plan_scale.INDEX)
    store = ws._open_store(False)
    allowed = {r.id: r for r in store.memory_list([plan_scale.PROJECT], limit=1_000_000_000)}
    version = store.memory_version()
    warm = MemoryBM25()
    MemoryBM25().rank(store, version, parse_query("warm up", strict=False), allowed, DEPTH)  # page cache
    times: dict[str, list[float]] = {"fts5": [], "cold": [], "warm": []}
    same = total = 0
    for task in scale_tasks(args.tasks):
        first = store.memory_search(parse_query(task, strict=False), [plan_scale.PROJECT], 1)
        extra = " ".join(embed_text(allowed[first[0][0]]).split()[:6]) if first else ""
        for text in (task, f"{task} {extra}"):
            parsed = parse_query(text, strict=False)
            started = time.perf_counter()
            expected = [(rid, s) for rid, s in store.memory_search(parsed, [plan_scale.PROJECT], DEPTH)
                        if rid in allowed]
            times["fts5"].append(1000 * (time.perf_counter() - started))
            cold = MemoryBM25()
            cold.rank(store, version, parse_query("x", strict=False), allowed, 1, key=allowed)  # statistics only
            started = time.perf_counter()
            got_cold = cold.rank(store, version, parsed, allowed, DEPTH, key=allowed)
            times["cold"].append(1000 * (time.perf_counter() - started))
            started = time.perf_counter()
            got_warm = warm.rank(store, version, parsed, allowed, DEPTH, key=allowed)
            times["warm"].append(1000 * (time.perf_counter() - started))
            total += 1
            same += got_cold == expected and got_warm == expected
    ws.close()
    print(f"{total} queries ({args.tasks} tasks and their expansions), best {DEPTH} of "
          f"{len(allowed)} records; identical rankings (ids, order, float scores): {same} of {total}")
    print("| memory BM25 | p50 ms | p95 ms |")
    print("| --- | --- | --- |")
    for name, label in (("fts5", "FTS5 bm25() (memory_search)"), ("cold", "postings, cold scorer"),
                        ("warm", "postings, warm scorer")):
        print(f"| {label} | {statistics.median(times[name]):.1f} | {percentile(times[name], 0.95):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
