"""Bounded load test of ``cairn serve``: N concurrent clients on loopback for a fixed time,
a mix of search / query / get, then p50/p95 per operation and the error count.

    python -m bench.load_bench                 # 50 clients x 30 s, writes bench/RESULTS.md
    python -m bench.load_bench --clients 10 --seconds 5 --no-write

The server is a real ``cairn serve`` subprocess over an index of examples/notes plus
generated notes (``--docs``); the clients are asyncio + httpx in this process. It stops by
itself: every client stops sending at the deadline, and each request has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.results_md import machine_note, stamp, update_section

REPO = Path(__file__).resolve().parent.parent
CAIRN = Path(sys.executable).parent / "cairn"
WORDS = ["backup", "snapshot", "retention", "release", "checklist", "map", "offline", "tile", "cache", "travel", "visa", "hotel", "train", "budget", "server", "deploy", "rollback", "database", "index", "query", "vector", "token", "search", "note"]
QUERIES = ["backup schedule", "snapshot retention", "offline maps", "release checklist", "beijing trip",
           "rollback plan", "database index", "train tickets", "3-2-1 rule", "tile cache"]


def make_corpus(root: Path, docs: int) -> Path:
    notes = root / "notes"
    shutil.copytree(REPO / "examples" / "notes", notes)
    rng = random.Random(7)
    for i in range(docs):
        folder = notes / "generated" / f"{i % 20:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        paras = ["\n".join(" ".join(rng.choices(WORDS, k=12)) for _ in range(4)) for _ in range(3)]
        body = "\n\n".join(f"## Part {n}\n\n{p}" for n, p in enumerate(paras, 1))
        (folder / f"note-{i:04d}.md").write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")
    return notes


def start_server(home: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([str(CAIRN), "--home", str(home), "serve", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        raise SystemExit(f"server did not start: {line}")
    return proc, f"http://127.0.0.1:{match.group(1)}"


async def client(url: str, refs: list[str], deadline: float, seed: int,
                 samples: dict[str, list[float]], errors: list[str]) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while time.monotonic() < deadline:
            roll = rng.random()
            if roll < 0.4:
                op, path, body = "search", "/v1/search", {"query": rng.choice(QUERIES), "limit": 10}
            elif roll < 0.7:
                op, path, body = "query", "/v1/query", {"query": rng.choice(QUERIES), "limit": 10}
            else:
                op, path, body = "get", "/v1/get", {"ref": rng.choice(refs)}
            started = time.perf_counter()
            try:
                response = await http.post(path, json=body)
                ok = response.status_code == 200
                if not ok:
                    errors.append(f"{op}: {response.status_code} {response.text[:200]}")
            except httpx.HTTPError as exc:
                ok = False
                errors.append(f"{op}: {type(exc).__name__}: {exc}")
            if ok:
                samples.setdefault(op, []).append((time.perf_counter() - started) * 1000)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--docs", type=int, default=2000, help="generated notes besides examples/notes")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    args = parser.parse_args()

    import cairn

    with tempfile.TemporaryDirectory(prefix="cairn-load-") as tmp:
        root = Path(tmp)
        notes = make_corpus(root, args.docs)
        home = root / "home"
        with cairn.open(home) as ws:
            ws.add_collection(notes, name="notes")
            summary = ws.index()
            refs = [d.uri for d in ws.ls("notes").documents]
        proc, url = start_server(home)
        try:
            samples: dict[str, list[float]] = {}
            errors: list[str] = []
            deadline = time.monotonic() + args.seconds

            async def run_all() -> None:
                await asyncio.gather(*(client(url, refs, deadline, i, samples, errors)
                                       for i in range(args.clients)))

            started = time.monotonic()
            asyncio.run(run_all())
            elapsed = time.monotonic() - started
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    total = sum(len(v) for v in samples.values())
    rows = []
    for op in ("search", "query", "get"):
        values = samples.get(op, [])
        if values:
            rows.append(f"| {op} | {len(values)} | {percentile(values, 50):.1f} ms | {percentile(values, 95):.1f} ms |")
    every = [x for v in samples.values() for x in v]
    rows.append(f"| **all** | {total} | {percentile(every, 50):.1f} ms | {percentile(every, 95):.1f} ms |")
    table = "\n".join(["| operation | requests | p50 | p95 |", "| --- | ---: | ---: | ---: |", *rows])
    body = (
        f"Command: `python -m bench.load_bench --clients {args.clients} --seconds {args.seconds:g} "
        f"--docs {args.docs}`  \nDate: {stamp()}  \nMachine: {machine_note()}\n\n{table}\n\n"
        f"{args.clients} concurrent HTTP clients (httpx, asyncio, one process) against one `cairn serve` "
        f"process on 127.0.0.1 (uvicorn, 4 worker threads, one index connection each) for "
        f"{elapsed:.1f} s: {total / elapsed:.0f} requests/s, **{len(errors)} errors**. Mix: 40% search, "
        f"30% query (BM25 only: no vectors), 30% get. Index: {summary.counts.added} documents, "
        f"{summary.passages_written} passages. Latency is measured by the clients and includes "
        "queueing: with 50 clients and 2 shared cores, requests wait for a worker."
    )
    print(table)
    print(f"{total} requests in {elapsed:.1f}s, {len(errors)} errors")
    for err in errors[:10]:
        print("  ", err)
    if not args.no_write:
        update_section("MCP/REST load test (cairn serve)", body)
    return 1 if errors else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
