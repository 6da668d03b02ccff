"""In-process A/B of plan speed (issue 14, thirteenth and fourteenth rounds).

Each task's ``query`` and ``plan`` by this code (A) and by a base commit's (B:
``HybridRecall.recall``, the SQLite store's ``data_version`` and ``MemoryBM25.rank`` loaded
from a ``git archive`` of the base at ``$PLAN_AB_BASE``, default ``/tmp/p19/main``), the two codes in
alternating order per task; one store (``$CAIRN_PLAN_SCALE_WORK``) and one process. Prints
wall and process-CPU medians, how many tasks A was faster in, and whether the two plans
were byte-identical.

usage (from the worktree root): python bench/plan_ab.py N [BUDGET]
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
import time
from types import ModuleType
from typing import Any

sys.path[:0] = [os.path.join(os.getcwd(), "src"), os.getcwd()]

from bench import plan_scale  # noqa: E402
from bench.plan_bench import scale_tasks  # noqa: E402
from cairn.memory.bm25 import MemoryBM25  # noqa: E402
from cairn.memory.recall import HybridRecall, Recalled  # noqa: E402
from cairn.store.sqlite.vectors import VectorsMixin  # noqa: E402

BASE = os.environ.get("PLAN_AB_BASE", "/tmp/p19/main") + "/src/cairn"


def load(name: str, rel: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, f"{BASE}/{rel}")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


_base_recall = load("base_recall", "memory/recall.py")
_base_recall.Recalled = Recalled  # the records it returns must be this code's class (isinstance checks)
BASE_SWAPS = [(HybridRecall, "recall", _base_recall.HybridRecall.recall),
              (VectorsMixin, "data_version", load("base_vectors", "store/sqlite/vectors.py").VectorsMixin.data_version),
              (MemoryBM25, "rank", load("base_bm25", "memory/bm25.py").MemoryBM25.rank)]
MINE = [(o, a, getattr(o, a)) for o, a, _ in BASE_SWAPS]


def use(which: str) -> None:
    for owner, attr, func in MINE if which == "A" else BASE_SWAPS:
        setattr(owner, attr, func)


def main() -> None:
    n = int(sys.argv[1])
    budget = int(sys.argv[2]) if len(sys.argv) > 2 else 800
    ws = plan_scale.open_store(50000, embed_minutes=0)
    os.chdir(tempfile.mkdtemp())
    tasks = scale_tasks(100)
    cpu: dict[str, list[float]] = {"A": [], "B": [], "QA": [], "QB": []}

    def plan(task: str, which: str | None = None) -> tuple[float, Any]:
        c, a = time.process_time(), time.perf_counter()
        out = ws.plan(task, budget=budget, project=plan_scale.PROJECT, collections=["tldr"])
        wall = 1000 * (time.perf_counter() - a)
        if which:
            cpu[which].append(1000 * (time.process_time() - c))
        return wall, out

    for task in tasks[:5]:  # warm-up
        ws.query(task, collections=["tldr"])
        use("A")
        plan(task)
        use("B")
        plan(task)
    wall: dict[str, list[float]] = {"A": [], "B": [], "QA": [], "QB": []}
    same = 0
    loads = [os.getloadavg()[0]]
    for i, task in enumerate(tasks[5 : 5 + n]):
        res = {}
        for which in ("A", "B") if i % 2 == 0 else ("B", "A"):
            use(which)
            c, a = time.process_time(), time.perf_counter()
            ws.query(task, collections=["tldr"])
            wall["Q" + which].append(1000 * (time.perf_counter() - a))
            cpu["Q" + which].append(1000 * (time.process_time() - c))
            res[which] = plan(task, which)
            wall[which].append(res[which][0])
        same += res["A"][1].model_dump_json() == res["B"][1].model_dump_json()
    loads.append(os.getloadavg()[0])
    use("A")
    med = statistics.median
    qa, qb = med(wall["QA"]), med(wall["QB"])
    a_p, b_p = med(wall["A"]), med(wall["B"])
    faster = sum(x < y for x, y in zip(wall["A"], wall["B"], strict=True))
    cfaster = sum(x < y for x, y in zip(cpu["A"], cpu["B"], strict=True))
    print(f"load {loads[0]:.2f}-{loads[1]:.2f}  n={n}  query p50 A {qa:.1f} / B {qb:.1f} ms  "
          f"plan p50 A(branch) {a_p:.1f} ({a_p / qa:.2f}x)  B(base) {b_p:.1f} ({b_p / qb:.2f}x)  A faster {faster}/{n}  "
          f"median B-A {med(y - x for x, y in zip(wall['A'], wall['B'], strict=True)):.1f} ms  same plans {same}/{n}")
    qac, qbc, ac, bc = med(cpu["QA"]), med(cpu["QB"]), med(cpu["A"]), med(cpu["B"])
    print(f"process CPU ms p50: query A {qac:.1f} / B {qbc:.1f}  plan A(branch) {ac:.1f}  B(base) {bc:.1f}  "
          f"A lower plan CPU in {cfaster}/{n}, "
          f"median B-A {med(y - x for x, y in zip(cpu['A'], cpu['B'], strict=True)):.1f} ms;  "
          f"plan/query CPU: A {ac / qac:.2f}x  B {bc / qbc:.2f}x")
    print(f"memory matrices: {[seen.matrix.shape for _, seen in ws._recall._cache.values() if seen.matrix is not None]}")
    ws.close()


if __name__ == "__main__":
    main()
