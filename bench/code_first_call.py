"""The first ``code impact`` call of a fresh process, as a user meets it (issue 15).

    .venv/bin/python -m bench.code_first_call --home DIR --rounds 10
    .venv/bin/python -m bench.code_first_call --rounds 10 --write-results   # builds the repository
    .venv/bin/python -m bench.code_first_call --home DIR --baseline OTHER/src   # two trees, same rounds

The repository is :mod:`bench.code_bench`'s (~1,000 real Python files), indexed once into
``--home`` (kept when given, so reruns skip the refresh). Each round runs, in fresh
processes, one after the other:

- ``cairn --version`` and ``cairn --home H code impact stdlib/__future__.py --depth 5``
  (text output, to /dev/null): the command's own cost is the difference of the two, wall
  and CPU (user + system of the child), taken per round since the machine's load moves;
- a Python process that times ``cairn.open(H)``, then the first
  ``ws.code_impact("stdlib/__future__.py", depth=5)``, then 20 more calls (warm: p50).

``__future__`` is the most imported module of the repository (339 importers). The CLI runs
with its defaults (``--max-nodes 200``); the SDK process also asks with
``max_nodes=100_000`` (the walk of :mod:`bench.code_bench`: 684 nodes).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cairn
from bench.code_bench import build_repo
from bench.results_md import machine_note, stamp, update_section

TARGET = "stdlib/__future__.py"

_SDK = r"""
import json, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
import cairn
ws = cairn.open(sys.argv[1])
t1 = time.perf_counter(); c1 = time.process_time()
r = ws.code_impact(sys.argv[2], depth=5, max_nodes=int(sys.argv[3]))
t2 = time.perf_counter(); c2 = time.process_time()
warm = []
for _ in range(20):
    s = time.perf_counter(); ws.code_impact(sys.argv[2], depth=5, max_nodes=int(sys.argv[3]))
    warm.append(time.perf_counter() - s)
warm.sort()
print(json.dumps({"open": t1 - t0, "open_cpu": c1 - c0, "first": t2 - t1, "first_cpu": c2 - c1,
                  "warm": warm[len(warm) // 2], "nodes": len(r.nodes)}))
"""


def _child(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run a process to the end: (wall, CPU of the child) in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _sdk(home: Path, max_nodes: int, env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _SDK, str(home), TARGET, str(max_nodes)],
                         check=True, capture_output=True, text=True, env=env).stdout
    return dict(json.loads(out))


def _round(home: Path, env: dict[str, str]) -> dict[str, float]:
    """One round of fresh processes for one source tree."""
    cli = str(Path(sys.executable).with_name("cairn"))
    v = _child([cli, "--version"], env)
    c = _child([cli, "--home", str(home), "code", "impact", TARGET, "--depth", "5"], env)
    small, wide = _sdk(home, 200, env), _sdk(home, 100_000, env)
    return {"version": v[0], "command": c[0], "diff": c[0] - v[0], "diff_cpu": c[1] - v[1],
            "open": small["open"], "first": small["first"], "first_cpu": small["first_cpu"],
            "sum": small["open"] + small["first"], "warm": small["warm"], "wide_first": wide["first"],
            "wide_cpu": wide["first_cpu"], "wide_warm": wide["warm"], "nodes": wide["nodes"]}


ROWS = (
    ("version", "`cairn --version`, wall"),
    ("command", f"`cairn code impact {TARGET} --depth 5`, wall"),
    ("diff", "**the command's own cost** (impact − version, same round), wall"),
    ("diff_cpu", "the same, CPU (user + system)"),
    ("open", "SDK: `cairn.open(home)` (imports included), wall"),
    ("first", "SDK: **first `ws.code_impact(…, depth=5)`** (max_nodes 200), wall"),
    ("first_cpu", "the same, CPU"),
    ("sum", "SDK: open + first call, wall"),
    ("warm", "SDK: warm call (p50 of 20 in the process), wall"),
    ("wide_first", "SDK, max_nodes 100000 (NODES nodes): **first call**, wall"),
    ("wide_cpu", "the same, CPU"),
    ("wide_warm", "the same, warm call (p50 of 20), wall"),
)


def measure(home: Path, rounds: int, trees: dict[str, str]) -> str:
    """``trees``: label -> PYTHONPATH of a cairn source tree; the trees take turns in
    every round (the machine's load moves by the minute)."""
    envs = {label: {**os.environ, "PYTHONPATH": path} for label, path in trees.items()}
    for env in envs.values():  # the first run of a fresh checkout writes bytecode: not measured
        _round(home, env)
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in envs}
    for _ in range(rounds):
        for label, env in envs.items():
            runs[label].append(_round(home, env))
    nodes = int(next(iter(runs.values()))[0]["nodes"])
    head = " | ".join(f"{label}: p50 | {label}: max" for label in runs)
    lines = [f"| measurement (ms) | {head} |", "| --- |" + " ---: |" * (2 * len(runs))]
    for key, name in ROWS:
        cells = " | ".join(f"{statistics.median(r[key] for r in rs) * 1000:.0f} | {max(r[key] for r in rs) * 1000:.0f}"
                           for rs in runs.values())
        lines.append(f"| {name.replace('NODES', str(nodes))} | {cells} |")
    baseline = " --baseline SRC" if len(trees) > 1 else ""
    return "\n".join([
        f"Command: `python -m bench.code_first_call --rounds {rounds}{baseline} --write-results`  ",
        f"Date: {stamp()}  ",
        machine_note() + f"; 1-minute load average at the end: {os.getloadavg()[0]:.1f}",
        "",
        f"{rounds} rounds of fresh processes; in each round every source tree takes its turn. "
        "p50 and max over the rounds:",
        "",
        *lines,
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, default=None, help="index folder to reuse (built when missing)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--baseline", default=None, metavar="SRC",
                        help="another cairn source tree (its src/ folder), measured in the same rounds")
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    here = os.pathsep.join([str(Path(cairn.__file__).parents[1]), str(Path(__file__).parents[1])])
    trees = {"this tree": here}
    if args.baseline:
        trees = {"baseline": args.baseline, **trees}
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp) / "home"
        if not (home / "repo").is_dir():
            build_repo(home / "repo")
            with cairn.open(home) as ws:
                ws.code_refresh(str(home / "repo"))
        body = measure(home, args.rounds, trees)
    print(body)
    if args.write_results:
        update_section("Code graph: the first impact call of a process (issue 15)", body)


if __name__ == "__main__":
    main()
