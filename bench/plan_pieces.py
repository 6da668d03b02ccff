"""Thread CPU of each plan-only piece (issue 14), first-seen per task as in the bench: 5
warm-up tasks, then for each task its query, then its pieces run in series on this thread
(recall, memory candidates, the passage run, passage candidates, the governor), then a whole
plan (process CPU). Medians in ms. ``PROF=file``: a cProfile of the plan-only pieces.

usage (from the root of the code to measure, ``$CAIRN_PLAN_SCALE_WORK`` set):
python bench/plan_pieces.py [N]
"""

from __future__ import annotations

import cProfile
import os
import statistics
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.getcwd(), "src"), os.getcwd()]

from bench import plan_scale  # noqa: E402
from bench.plan_bench import scale_tasks  # noqa: E402
from cairn.memory import candidates as cd  # noqa: E402
from cairn.memory.governor import plan as govern  # noqa: E402
from cairn.models.tokens import budget_token_counter  # noqa: E402


def main() -> None:
    ws = plan_scale.open_store(50000, embed_minutes=0)
    os.chdir(tempfile.mkdtemp())
    svc = ws._plans
    mem = svc._memory()
    caller = svc._caller(plan_scale.PROJECT)
    counter = budget_token_counter()
    tasks = scale_tasks(100)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 95
    times: dict[str, list[float]] = {k: [] for k in ("query", "plan", "recall", "memcand", "passrun", "passcand", "govern")}
    prof = cProfile.Profile() if os.environ.get("PROF") else None
    facts = {"facts": mem.text_facts} if hasattr(mem, "text_facts") else {}
    for i, task in enumerate(tasks[: 5 + n]):
        c = time.process_time()
        ws.query(task, collections=["tldr"])
        q = time.process_time() - c
        store, filters, _ = svc._retrieval.setup(50, ["tldr"], (), (), None, None)
        c = time.thread_time()
        run = svc._retrieval.pipeline(store).run(task, filters, 50, mode="default", graph=False,
                                                 all_passages=True, depth=60)
        pr = time.thread_time() - c
        if prof and i >= 5:
            prof.enable()
        c = time.thread_time()
        recs = mem.recall(task, project=caller.project, user=caller.user, limit=50)
        r = time.thread_time() - c
        c = time.thread_time()
        mc = cd.memory_candidates(recs, task, counter, **facts)
        m = time.thread_time() - c
        c = time.thread_time()
        pc = cd.passage_candidates(store, run, task, caller, counter, 50).candidates
        p = time.thread_time() - c
        c = time.thread_time()
        govern(task, mc + pc, caller, 800, svc.settings, token_counter=counter.name, explain=False)
        g = time.thread_time() - c
        if prof and i >= 5:
            prof.disable()
        c = time.process_time()
        ws.plan(task, budget=800, project=plan_scale.PROJECT, collections=["tldr"])
        pl = time.process_time() - c
        if i >= 5:
            for k, v in zip(times, (q, pl, r, m, pr, p, g), strict=True):
                times[k].append(1000 * v)
    print(f"load {os.getloadavg()[0]:.2f}  n={n}  "
          + "  ".join(f"{k} {statistics.median(v):.2f}" for k, v in times.items()))
    if prof:
        prof.dump_stats(os.environ["PROF"])
    ws.close()


if __name__ == "__main__":
    main()
