"""Speed of ``plan`` against a plain hybrid ``query`` on the same store, in the same run.

    .venv/bin/python -m bench.plan_bench                  # 200 LoCoMo questions, budget 800
    .venv/bin/python -m bench.plan_bench --questions 400 --budget 1600

Store: the LoCoMo index of :mod:`bench.eval_memory` (``bench/.work/locomo``: 2,760 turns
of 5 conversations, embedded with MiniLM). Each question (every ``len/N``-th, so all five
conversations and all categories are sampled) runs, interleaved and after a warm-up of 10:

* ``query``: ``ws.query(question, collections=[conv])`` (limit 10, mode default);
* ``plan``: ``ws.plan(question, budget=B, project="locomo", collections=[conv])`` from a
  folder that is not a git repository (no git facts);
* ``plan+git``: the same from inside this git checkout (branch, status, 5 recent commits:
  four ``git`` subprocesses).

Printed: p50 and p95 of each in milliseconds and the ratio of p50s to ``query`` (goal
``plan`` ≤ 2x). The memory store is not on this branch, so the 50,000-observation scale
of issue 14 is not measured here: the memory side of a plan adds no candidates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import eval_locomo
from bench.eval_memory import WORK
from bench.eval_retrieval import EVAL, load_locomo, prepare

REPO = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--budget", type=int, default=800)
    args = parser.parse_args(argv)

    ws, _ = prepare(load_locomo(EVAL / "locomo"), WORK / "locomo", argparse.Namespace(chunk_max_tokens=None),
                    embed=True)
    data = eval_locomo.load_locomo(EVAL / "locomo" / "locomo-dev.json")
    step = max(1, len(data.questions) // args.questions)
    sample = data.questions[::step][: args.questions]
    outside = tempfile.mkdtemp(prefix="plan-bench-")

    def timed(fn: Callable[[], object]) -> float:
        started = time.perf_counter()
        fn()
        return 1000 * (time.perf_counter() - started)

    def run_query(q: eval_locomo.Question) -> float:
        return timed(lambda: ws.query(q.text, collections=[q.conversation]))

    def run_plan(q: eval_locomo.Question, where: str) -> float:
        os.chdir(where)
        return timed(lambda: ws.plan(q.text, budget=args.budget, project="locomo", collections=[q.conversation]))

    for q in sample[:10]:  # warm-up: models loaded, vectors cached, tokenizer built
        run_query(q), run_plan(q, outside), run_plan(q, str(REPO))
    times: dict[str, list[float]] = {"query": [], "plan": [], "plan+git": []}
    for q in sample:
        times["query"].append(run_query(q))
        times["plan"].append(run_plan(q, outside))
        times["plan+git"].append(run_plan(q, str(REPO)))
    base = statistics.median(times["query"])
    print(f"{len(sample)} questions, budget {args.budget}, store: {sum(map(len, data.turns.values()))} turns")
    print("| operation | p50 ms | p95 ms | p50 / query p50 |")
    print("| --- | --- | --- | --- |")
    for name, values in times.items():
        p50 = statistics.median(values)
        print(f"| {name} | {p50:.1f} | {percentile(values, 0.95):.1f} | {p50 / base:.2f}x |")
    ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
