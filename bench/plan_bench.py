"""Speed of ``plan`` against a plain hybrid ``query`` on the same store, in the same run.

    .venv/bin/python -m bench.plan_bench                  # 200 LoCoMo questions, budget 800
    .venv/bin/python -m bench.plan_bench --questions 400 --budget 1600
    .venv/bin/python -m bench.plan_bench --observations 50000 --tasks 100   # the memory store at scale

Store: the LoCoMo index of :mod:`bench.eval_memory` (``bench/.work/locomo``: 2,760 turns
of 5 conversations, embedded with MiniLM). Each question (every ``len/N``-th, so all five
conversations and all categories are sampled) runs, interleaved and after a warm-up of 10:

* ``query``: ``ws.query(question, collections=[conv])`` (limit 10, mode default);
* ``plan``: ``ws.plan(question, budget=B, project="locomo", collections=[conv])`` from a
  folder that is not a git repository (no git facts);
* ``plan+git``: the same from inside this git checkout (branch, status, 5 recent commits:
  four ``git`` subprocesses).

Printed: p50 and p95 of each in milliseconds and the ratio of p50s to ``query`` (goal
``plan`` ≤ 2x). On LoCoMo the memory store is empty: a plan reads passages and git only.

``--observations N``: the store of :mod:`bench.plan_scale` instead (the 7,425 tldr pages
as collection ``tldr``, embedded, and N real-text observations in the memory store; built
once under ``bench/.work/plan-scale``, rebuilt when stale). Tasks: ``--tasks`` example
descriptions of pages sampled evenly (``"<what the example does> with <command>"``).
First a fresh process (``python -m bench.plan_scale``, run three times: plan first, plan
first, query first) imports the SDK, opens the workspace and times its first ``plan`` and
``query`` against warm ones, and lists any file of the home
that changed across opening and those calls (nothing may be rebuilt or written at
start-up). Then, in this process from a folder that is not a git checkout, after 5
warm-up tasks, each task runs interleaved ``ws.query(task, collections=["tldr"])`` and
``ws.plan(task, budget=B, project=<the store's project>, collections=["tldr"])``.
``--memory-vectors source`` gives the memory records vectors by :mod:`bench.plan_scale`'s
cheaper route instead of embedding them (the line "memory records with a vector" says how
many have one: a plan's recall runs its vector passes only over those).
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
    parser.add_argument("--observations", type=int, default=0,
                        help="Measure on the scale store with this many observations (e.g. 50000).")
    parser.add_argument("--tasks", type=int, default=100, help="Tasks of the scale run.")
    parser.add_argument("--embed-minutes", type=float, default=None,
                        help="Scale run: stop embedding the store after this long (0: embed nothing more).")
    parser.add_argument("--memory-vectors", choices=("embed", "source"), default="embed",
                        help="Scale run: how memory records get their vectors: embedded by the model, or "
                             "'source' (bench.plan_scale: the source passage's vector, else a seeded one).")
    args = parser.parse_args(argv)
    if args.observations:
        return scale(args)

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


def scale(args: argparse.Namespace) -> int:
    """The scale run (``--observations N``): see the module docstring."""
    import json
    import subprocess

    from bench import plan_scale

    ws = plan_scale.open_store(args.observations, embed_minutes=args.embed_minutes,
                               memory_vectors=args.memory_vectors)
    tasks = scale_tasks(args.tasks)
    with_vector, records = plan_scale.memory_vector_count(ws)
    counts = ws._open_store(False).memory_counts()
    passages = sum(c.passages for c in ws.list_collections().collections)
    fingerprint = ws.models.embedder().fingerprint
    vectors = ws._open_store(False).vector_counts().get(fingerprint, 0)
    unembedded = ws._open_store(False).count_pending(fingerprint)
    ws.close()
    outside = tempfile.mkdtemp(prefix="plan-bench-")
    # As installed: bytecode cached (the first probe writes it, outside the source tree).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
           "PYTHONPYCACHEPREFIX": os.path.join(outside, "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    probes = []
    for first in ("plan", "plan", "query"):  # the first run also writes the bytecode cache
        done = subprocess.run([sys.executable, "-m", "bench.plan_scale", tasks[0], str(args.budget), outside, first],
                              capture_output=True, text=True, env=env, cwd=REPO, timeout=600, check=True)
        probes.append(json.loads(done.stdout.strip().splitlines()[-1]))
    ws = plan_scale.open_store(args.observations, embed_minutes=args.embed_minutes,
                               memory_vectors=args.memory_vectors)
    os.chdir(outside)

    def timed(fn: Callable[[], object]) -> tuple[float, object]:
        started = time.perf_counter()
        out = fn()
        return 1000 * (time.perf_counter() - started), out

    def run_plan(task: str) -> tuple[float, object]:
        return timed(lambda: ws.plan(task, budget=args.budget, project=plan_scale.PROJECT, collections=["tldr"]))

    def run_query(task: str) -> tuple[float, object]:
        return timed(lambda: ws.query(task, collections=["tldr"]))

    for task in tasks[:5]:
        run_query(task), run_plan(task)
    times: dict[str, list[float]] = {"query": [], "plan": []}
    considered, handed = [], []
    for task in tasks:
        times["query"].append(run_query(task)[0])
        elapsed, plan = run_plan(task)
        times["plan"].append(elapsed)
        memory = [i for i in plan.items if i.kind in ("observation", "claim")]  # type: ignore[attr-defined]
        considered.append(len(memory))
        handed.append(sum(i.disposition in ("include", "compact") for i in memory))
    ws.close()
    print(f"store: {counts.get('observation_active', 0)} active observations, {passages} passages "
          f"(collection tldr, {unembedded} without a vector); {vectors} vectors (passages and memory records); "
          f"{len(tasks)} tasks, budget {args.budget}; load average {os.getloadavg()[0]:.1f}")
    print(f"memory records with a vector: {with_vector} of {records} active")
    print(f"memory records per plan: {statistics.mean(considered):.1f} considered, "
          f"{statistics.mean(handed):.1f} handed over (include or compact), mean")
    print("| fresh process | import ms | open ms | first plan ms | first query ms | warm plan ms | warm query ms |"
          " database file unchanged | WAL bytes before → after | files touched |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n, p in enumerate(probes, 1):
        print(f"| run {n}, {p['first']} first | {p['import_ms']:.0f} | {p['open_ms']:.1f} | {p['first_plan_ms']:.0f} | "
              f"{p['first_query_ms']:.0f} | {p['warm_plan_ms']:.0f} | {p['warm_query_ms']:.0f} | "
              f"{'yes' if p['database_unchanged'] else 'NO'} | {p['wal_bytes'][0]} → {p['wal_bytes'][1]} | "
              f"{', '.join(c.rsplit('/', 1)[-1] for c in p['changed_files']) or 'none'} |")
    base = statistics.median(times["query"])
    print("| operation | p50 ms | p95 ms | p50 / query p50 | p95 / query p95 |")
    print("| --- | --- | --- | --- | --- |")
    for name, values in times.items():
        p50, p95 = statistics.median(values), percentile(values, 0.95)
        print(f"| {name} | {p50:.1f} | {p95:.1f} | {p50 / base:.2f}x | {p95 / percentile(times['query'], 0.95):.2f}x |")
    return 0


def scale_tasks(n: int) -> list[str]:
    """``n`` tasks from the tldr pages (every len/n-th page's second example, else its first)."""
    from bench import plan_scale

    pages = sorted((plan_scale.WORK / "tldr" / "pages").rglob("*.md"))
    step = max(1, len(pages) // n)
    tasks = []
    for page in pages[::step]:
        lines = page.read_text(encoding="utf-8").splitlines()
        examples = [ln[2:].rstrip(":") for ln in lines if ln.startswith("- ")]
        if examples:
            tasks.append(f"{examples[min(1, len(examples) - 1)]} with {page.stem}")
    return tasks[:n]


if __name__ == "__main__":
    sys.exit(main())
