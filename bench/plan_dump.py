"""Plans and query results of the 100 scale tasks as canonical JSON (issue 14): ``plan`` at
budgets 400, 800 and 1,600, each with and without ``explain``, and ``query`` with
``explain=True``. Writes one file a group (``OUTDIR/TAG-GROUP.jsonl``) and prints each
group's sha256 and one over all; two codes on the same store give the same plans when every
hash is equal.

usage (from the root of the code to run, ``$CAIRN_PLAN_SCALE_WORK`` set):
python /path/to/bench/plan_dump.py TAG [OUTDIR]
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from typing import Any

sys.path[:0] = [os.path.join(os.getcwd(), "src"), os.getcwd()]

from bench import plan_scale  # noqa: E402
from bench.plan_bench import scale_tasks  # noqa: E402


def main() -> None:
    tag = sys.argv[1]
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "/tmp")
    ws = plan_scale.open_store(50000, embed_minutes=0)
    os.chdir(tempfile.mkdtemp())
    groups: dict[str, list[str]] = {}

    def put(group: str, obj: Any) -> None:
        raw = json.dumps(obj.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        groups.setdefault(group, []).append(raw)

    for task in scale_tasks(100):
        put("query", ws.query(task, collections=["tldr"], explain=True))
        for budget in (400, 800, 1600):
            for explain in (True, False):
                put(f"plan-{budget}-{'e' if explain else 'n'}",
                    ws.plan(task, budget=budget, project=plan_scale.PROJECT, collections=["tldr"], explain=explain))
    every = hashlib.sha256()
    for group, lines in sorted(groups.items()):
        text = "\n".join(lines) + "\n"
        with open(f"{out}/{tag}-{group}.jsonl", "w", encoding="utf-8") as f:
            f.write(text)
        every.update(text.encode())
        print(group, hashlib.sha256(text.encode()).hexdigest()[:16])
    print("all", every.hexdigest())
    ws.close()


if __name__ == "__main__":
    main()
