"""In-process A/B of plan speed (issue 14, thirteenth round).

Each task's plan by this code (A) and by a base commit's (B: ``MemoryService.qualified``
loaded from a ``git archive`` of the base at ``$PLAN_AB_BASE``, default ``/tmp/p18/main``),
in alternating order per task, after one ``query`` of the task; one store
(``$CAIRN_PLAN_SCALE_WORK``) and one process. Prints wall and process-CPU medians, how many
tasks A was faster in, and whether the two plans were byte-identical.

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
from cairn.memory.service import MemoryService  # noqa: E402

BASE = os.environ.get("PLAN_AB_BASE", "/tmp/p18/main") + "/src/cairn"


def load(name: str, rel: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, f"{BASE}/{rel}")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


BASE_SWAPS = [(MemoryService, "qualified", load("base_service", "memory/service.py").MemoryService.qualified)]
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
    cpu: dict[str, list[float]] = {"A": [], "B": [], "Q": []}

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
    q: list[float] = []
    wall: dict[str, list[float]] = {"A": [], "B": []}
    same = 0
    loads = [os.getloadavg()[0]]
    for i, task in enumerate(tasks[5 : 5 + n]):
        c, a = time.process_time(), time.perf_counter()
        ws.query(task, collections=["tldr"])
        q.append(1000 * (time.perf_counter() - a))
        cpu["Q"].append(1000 * (time.process_time() - c))
        res = {}
        for which in ("A", "B") if i % 2 == 0 else ("B", "A"):
            use(which)
            res[which] = plan(task, which)
            wall[which].append(res[which][0])
        same += res["A"][1].model_dump_json() == res["B"][1].model_dump_json()
    loads.append(os.getloadavg()[0])
    use("A")
    med = statistics.median
    qp = med(q)
    a_p, b_p = med(wall["A"]), med(wall["B"])
    faster = sum(x < y for x, y in zip(wall["A"], wall["B"], strict=True))
    cfaster = sum(x < y for x, y in zip(cpu["A"], cpu["B"], strict=True))
    print(f"load {loads[0]:.2f}-{loads[1]:.2f}  n={n}  query p50 {qp:.1f} ms  A(branch) p50 {a_p:.1f} ({a_p / qp:.2f}x)  "
          f"B(base) p50 {b_p:.1f} ({b_p / qp:.2f}x)  A faster {faster}/{n}  "
          f"median B-A {med(y - x for x, y in zip(wall['A'], wall['B'], strict=True)):.1f} ms  same plans {same}/{n}")
    qc, ac, bc = med(cpu["Q"]), med(cpu["A"]), med(cpu["B"])
    print(f"process CPU ms p50: query {qc:.1f}  A(branch) {ac:.1f}  B(base) {bc:.1f}  A lower CPU in {cfaster}/{n}, "
          f"median B-A {med(y - x for x, y in zip(cpu['A'], cpu['B'], strict=True)):.1f} ms;  "
          f"plan/query CPU: A {ac / qc:.2f}x  B {bc / qc:.2f}x")
    ws.close()


if __name__ == "__main__":
    main()
