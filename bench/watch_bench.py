"""The resident runtime: time from a write to searchable, and idle CPU (issue 16).

A real ``cairn daemon`` subprocess watches a collection of real notes (tldr pages from
``../shared/corpora/tldr``). The benchmark writes one change at a time (a new note, an
append to a note, an atomic save: temporary file renamed over the note) and polls
``search`` every 10 ms for the change's unique word: the time from the write to the first
hit. Baseline, same run, same kinds of change: the daemon stopped, the same write
followed at once by ``index(paths=[that file])`` in-process (the indexing cost alone,
without watching, debounce, queue or process hops). Then the daemon's CPU time over
``--idle`` seconds with nothing happening, as % of one core (psutil if installed, else
``/proc/PID/stat``).

    python -m bench.watch_bench [--notes 1000] [--changes 60] [--idle 30] [--debounce 1600] [--write]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TLDR = REPO / ".." / "shared" / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
CAIRN = Path(sys.executable).with_name("cairn")


def extract_notes(target: Path, count: int) -> None:
    with tarfile.open(TLDR) as archive:
        members = sorted((m for m in archive.getmembers() if m.isfile() and m.name.endswith(".md")
                          and "/pages/" in m.name), key=lambda m: m.name)[:count]
        for member in members:
            data = archive.extractfile(member)
            assert data is not None
            rel = Path(member.name).relative_to("./pages") if member.name.startswith("./") else Path(member.name)
            out = target / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data.read())


def cpu_seconds(pid: int) -> float:
    try:
        import psutil  # type: ignore[import-untyped]

        times = psutil.Process(pid).cpu_times()
        return float(times.user + times.system)
    except ImportError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_change(folder: Path, files: list[Path], n: int, rng: random.Random) -> tuple[str, Path]:
    """One write carrying the unique word ``zqx{n}w``; returns (kind, the file)."""
    word = f"zqx{n}w"
    kind = ("create", "append", "atomic")[n % 3]
    if kind == "create":
        path = folder / "bench" / f"new{n}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"# New {n}\n\n> A benchmark note.\n\n- The word {word} appears here.\n")
    elif kind == "append":
        path = rng.choice(files)
        with path.open("a") as handle:
            handle.write(f"\n- Appended: {word}\n")
    else:
        path = rng.choice(files)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(path.read_text() + f"\n- Saved atomically: {word}\n")
        os.replace(tmp, path)
    return kind, path


def until_found(ws: object, word: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    search: Callable[..., object] = ws.search  # type: ignore[attr-defined]
    while not search(word, limit=1).results:  # type: ignore[attr-defined]
        if time.monotonic() > deadline:
            raise RuntimeError(f"{word} not searchable after {timeout} s")
        time.sleep(0.01)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=60)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--debounce", type=int, default=1600)
    parser.add_argument("--write", action="store_true", help="Update bench/RESULTS.md.")
    args = parser.parse_args()

    sys.path.insert(0, str(REPO / "src"))
    import cairn

    work = Path(tempfile.mkdtemp(prefix="watch-bench-"))
    home, folder = work / "home", work / "notes"
    folder.mkdir()
    extract_notes(folder, args.notes)
    env = {**os.environ, "CAIRN_HOME": str(home), "PYTHONPATH": str(REPO / "src")}
    os.environ["CAIRN_HOME"] = str(home)
    with cairn.open(home) as ws:
        ws.add_collection(folder, name="notes")
        ws.index()
    files = sorted(folder.rglob("*.md"))
    rng = random.Random(16)

    daemon = subprocess.Popen([str(CAIRN), "daemon", "--debounce", str(args.debounce)], env=env,
                              stderr=subprocess.DEVNULL)
    latencies: dict[str, list[float]] = {"create": [], "append": [], "atomic": []}
    with cairn.open(home) as ws:
        deadline = time.monotonic() + 60
        while ws.runtime_status().state != "running":
            if time.monotonic() > deadline:
                raise RuntimeError("daemon did not start")
            time.sleep(0.05)
        for n in range(args.changes):
            started = time.monotonic()
            kind, _ = make_change(folder, files, n, rng)
            until_found(ws, f"zqx{n}w")
            latencies[kind].append(time.monotonic() - started)
            time.sleep(0.2)  # one change at a time
        # Idle: nothing changes; the daemon only beats its heartbeat and waits on inotify.
        time.sleep(3)
        before, clock = cpu_seconds(daemon.pid), time.monotonic()
        time.sleep(args.idle)
        idle_pct = 100 * (cpu_seconds(daemon.pid) - before) / (time.monotonic() - clock)
        status = ws.runtime_status()
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=30)

    baseline: list[float] = []
    with cairn.open(home) as ws:
        for n in range(args.changes, args.changes + max(15, args.changes // 2)):
            started = time.monotonic()
            _, path = make_change(folder, files, n, rng)
            ws.index("notes", paths=[path.relative_to(folder).as_posix()])
            until_found(ws, f"zqx{n}w")
            baseline.append(time.monotonic() - started)

    every = [v for values in latencies.values() for v in values]
    rows = [(kind, values) for kind, values in latencies.items()] + [("all", every)]
    load = os.getloadavg()[0]
    lines = [
        f"Command: `python -m bench.watch_bench --notes {args.notes} --changes {args.changes} "
        f"--idle {args.idle:g} --debounce {args.debounce}` ({_stamp()}, load average {load:.1f}, "
        f"{len(files)} tldr pages).",
        "",
        f"Debounce: a batch of changes is handed over once no change arrived for 50 ms (watchfiles "
        f"`step`), grouped for at most {args.debounce} ms (`--debounce`); one change at a time here.",
        "",
        "| change | n | median s | p95 s |",
        "|---|---|---|---|",
        *[f"| {kind} | {len(values)} | {statistics.median(values):.3f} | {pct(values, 0.95):.3f} |"
          for kind, values in rows if values],
        f"| baseline: write + in-process `index(paths=[file])`, no daemon | {len(baseline)} | "
        f"{statistics.median(baseline):.3f} | {pct(baseline, 0.95):.3f} |",
        "",
        f"Write to searchable through the daemon: median **{statistics.median(every):.3f} s** "
        f"(goal ≤ 2 s), {statistics.median(every) / statistics.median(baseline):.1f}x the baseline's "
        f"median. Idle CPU of the daemon over {args.idle:g} s: **{idle_pct:.2f}% of one core** "
        f"(goal ≤ 1%). Runtime at the end: {status.state}, {status.jobs['failed']} failed jobs, "
        f"lag {status.lag_ms} ms.",
    ]
    body = "\n".join(lines)
    print(body)
    if args.write:
        sys.path.insert(0, str(REPO))
        from bench.results_md import update_section

        update_section("Resident runtime: write to searchable, idle CPU (issue 16)", body)


def _stamp() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


if __name__ == "__main__":
    main()
