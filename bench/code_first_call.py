"""The first ``code impact`` call of a fresh process, as a user meets it (issue 15).

    .venv/bin/python -m bench.code_first_call --home DIR --rounds 10
    .venv/bin/python -m bench.code_first_call --rounds 10 --write-results   # builds the repository

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


def _child(args: list[str]) -> tuple[float, float]:
    """Run a process to the end: (wall, CPU of the child) in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _sdk(home: Path, max_nodes: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _SDK, str(home), TARGET, str(max_nodes)],
                         check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out))


def _row(name: str, values: list[float], unit: float = 1000.0) -> str:
    return f"| {name} | {statistics.median(values) * unit:.0f} | {max(values) * unit:.0f} |"


def pick(rows: list[dict[str, float]], key: str) -> list[float]:
    return [r[key] for r in rows]


def measure(home: Path, rounds: int) -> str:
    cli = str(Path(sys.executable).with_name("cairn"))
    _child([cli, "--version"])  # the first run of a fresh checkout writes bytecode: not measured
    _child([cli, "--home", str(home), "code", "impact", TARGET, "--depth", "5"])
    version, command, diff, diff_cpu, sdk, sdk_all = [], [], [], [], [], []
    for _ in range(rounds):
        v = _child([cli, "--version"])
        c = _child([cli, "--home", str(home), "code", "impact", TARGET, "--depth", "5"])
        version.append(v[0])
        command.append(c[0])
        diff.append(c[0] - v[0])
        diff_cpu.append(c[1] - v[1])
        sdk.append(_sdk(home, 200))
        sdk_all.append(_sdk(home, 100_000))
    return "\n".join([
        f"Command: `python -m bench.code_first_call --rounds {rounds}`  ",
        f"Date: {stamp()}  ",
        machine_note() + f"; 1-minute load average at the end: {os.getloadavg()[0]:.1f}",
        "",
        f"{rounds} rounds, each of fresh processes (ms; p50 and max over the rounds):",
        "",
        "| measurement | p50 | max |",
        "| --- | ---: | ---: |",
        _row("`cairn --version`, wall", version),
        _row(f"`cairn code impact {TARGET} --depth 5`, wall", command),
        _row("**the command's own cost** (impact − version, same round), wall", diff),
        _row("the same, CPU (user + system)", diff_cpu),
        _row("SDK: `cairn.open(home)` (imports included), wall", pick(sdk, "open")),
        _row("SDK: **first `ws.code_impact(…, depth=5)`** (max_nodes 200), wall", pick(sdk, "first")),
        _row("the same, CPU", pick(sdk, "first_cpu")),
        _row("SDK: open + first call, wall", [r["open"] + r["first"] for r in sdk]),
        _row("SDK: warm call (p50 of 20 in the process), wall", pick(sdk, "warm")),
        _row(f"SDK, max_nodes 100000 ({int(sdk_all[0]['nodes'])} nodes): first call, wall", pick(sdk_all, "first")),
        _row("the same, CPU", pick(sdk_all, "first_cpu")),
        _row("the same, warm call (p50 of 20), wall", pick(sdk_all, "warm")),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, default=None, help="index folder to reuse (built when missing)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = args.home or Path(tmp) / "home"
        if not (home / "repo").is_dir():
            build_repo(home / "repo")
            with cairn.open(home) as ws:
                ws.code_refresh(str(home / "repo"))
        body = measure(home, args.rounds)
    print(body)
    if args.write_results:
        update_section("Code graph: the first impact call of a process (issue 15)", body)


if __name__ == "__main__":
    main()
