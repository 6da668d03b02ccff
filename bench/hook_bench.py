"""Hook call latency: ``cairn hook prompt`` as a coding agent runs it, against ``cairn
--version`` measured in the same run (interleaved).

    .venv/bin/python -m bench.hook_bench                 # 60 calls of each
    .venv/bin/python -m bench.hook_bench --calls 200 --events 50000

A temporary cairn home gets an index with ``--events`` hook events already in it (the
table an agent fills over weeks), then each round runs, as separate subprocesses of this
Python, the console script's entry (:mod:`cairn.interfaces.entry`, what ``cairn`` runs
once installed from this checkout) with a realistic UserPromptSubmit payload on stdin,
and ``--version`` (the cost of starting the CLI at all), and ``python -c pass`` (the floor:
starting Python). Wall-clock p50/p95/max of each, the ratios of the hook's p50 and
p95 to bare Python's, the ratio hook p95 / version p95, and the goal (hook p95 ≤ 100 ms)
are printed.

Bytecode: an installed cairn has its ``.pyc`` files (pip compiles them); a checkout run
with ``PYTHONDONTWRITEBYTECODE`` (as in these worktrees) recompiles every module from
source at each start. The subprocesses therefore run with ``PYTHONDONTWRITEBYTECODE``
removed and ``PYTHONPYCACHEPREFIX`` in the temporary folder (the source tree is not
written; the warm-up call writes the cache); ``--source-only`` measures the other way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cairn

ENTRY = [sys.executable, "-c", "from cairn.interfaces.entry import main; main()"]
PAYLOAD = json.dumps({
    "session_id": "4f1c2a9e-0b7d-4d3e-9a51-2f6b8c1d0e77",
    "transcript_path": "/home/dev/.claude/projects/app/4f1c2a9e.jsonl",
    "cwd": "/home/dev/src/app", "hook_event_name": "UserPromptSubmit",
    "prompt": "The nightly backup job fails since the retention change; find where the snapshot "
              "schedule is configured and why old snapshots are not pruned.",
})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(argv: list[str], env: dict[str, str], stdin: str | None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, timeout=60)
    elapsed = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed: {proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=60)
    parser.add_argument("--events", type=int, default=10_000, help="Events already in the index.")
    parser.add_argument("--source-only", action="store_true",
                        help="Keep PYTHONDONTWRITEBYTECODE: every call compiles cairn from source.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        with cairn.open(home) as ws:
            store = ws._open_store(True)
            for i in range(args.events):
                store.append_hook_event("prompt", f"s{i % 50}", "/home/dev/src/app", {"prompt": f"earlier prompt {i}"})
        env = {**os.environ, "CAIRN_HOME": str(home)}
        if not args.source_only:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        hook = [*ENTRY, "hook", "prompt"]
        version = [*ENTRY, "--version"]
        bare = [sys.executable, "-c", "pass"]
        timed(hook, env, PAYLOAD), timed(version, env, None)  # warm the OS caches
        hooks, versions, pythons = [], [], []
        for _ in range(args.calls):
            hooks.append(timed(hook, env, PAYLOAD))
            versions.append(timed(version, env, None))
            pythons.append(timed(bare, env, None))
        with cairn.open(home) as ws:
            written = len(ws._open_store(True).events(after=args.events, limit=10 * args.calls))
    load = os.getloadavg()[0]
    print(f"hook calls: {args.calls}, events before: {args.events}, events written: {written}, "
          f"load average: {load:.1f}, bytecode: {'none (source only)' if args.source_only else 'cached'}")
    print("| command | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    for name, values in (("cairn hook prompt", hooks), ("cairn --version", versions), ("python -c pass", pythons)):
        print(f"| {name} | {statistics.median(values):.1f} | {percentile(values, 0.95):.1f} | {max(values):.1f} |")
    ratio = percentile(hooks, 0.95) / percentile(versions, 0.95)
    print(f"hook / python -c pass: p50 {statistics.median(hooks) / statistics.median(pythons):.2f}x, "
          f"p95 {percentile(hooks, 0.95) / percentile(pythons, 0.95):.2f}x; hook p50 above python p50: "
          f"{statistics.median(hooks) - statistics.median(pythons):.1f} ms")
    print(f"hook p95 / --version p95: {ratio:.2f}; goal hook p95 <= 100 ms: "
          f"{'met' if percentile(hooks, 0.95) <= 100 else 'NOT met'}")


if __name__ == "__main__":
    main()
