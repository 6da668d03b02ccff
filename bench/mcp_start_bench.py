"""How soon ``cairn mcp`` answers ``initialize``, from launch and over HTTP, against the
interpreter's own start-up measured in the same run (timings live here, not in tests).

    .venv/bin/python -m bench.mcp_start_bench            # 10 launches, 10 HTTP calls
    .venv/bin/python -m bench.mcp_start_bench --runs 30

Printed: p50 and max of each in milliseconds and the ratio of p50s to a bare
``python -c pass`` launch (the floor any stdio server pays). The goal the MCP issue set:
``initialize`` answered within a second of launch on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

CAIRN = Path(sys.executable).with_name("cairn")
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}}


def launch_to_initialize(home: Path) -> float:
    """Seconds from starting ``cairn mcp`` to reading its ``initialize`` reply."""
    started = time.perf_counter()
    proc = subprocess.Popen([str(CAIRN), "--home", str(home), "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INIT) + "\n")
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.wait(timeout=30)
    if reply.get("result", {}).get("serverInfo", {}).get("name") != "cairn":
        raise SystemExit(f"unexpected initialize reply: {reply}")
    return elapsed


def bare_python() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def http_initialize(home: Path, runs: int) -> list[float]:
    """Seconds per ``initialize`` POST to a running ``cairn serve`` on loopback."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([str(CAIRN), "--home", str(home), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/health", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("cairn serve did not start within 60 s") from None
                time.sleep(0.2)
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            response = httpx.post(f"{url}/mcp", json=INIT, headers=headers, timeout=30)
            times.append(time.perf_counter() - started)
            response.raise_for_status()
        return times
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    home = Path(tempfile.mkdtemp(prefix="mcp-start-bench-"))
    launch, floor = [], []
    for _ in range(args.runs):  # interleaved, so load hits both alike
        floor.append(bare_python())
        launch.append(launch_to_initialize(home))
    http = http_initialize(home, args.runs)
    base = statistics.median(floor)
    print("| measure | p50 ms | max ms | p50 / python -c pass |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in (("python -c pass", floor), ("cairn mcp: launch → initialize reply", launch),
                         ("cairn serve: initialize over HTTP", http)):
        print(f"| {name} | {1000 * statistics.median(values):.1f} | {1000 * max(values):.1f} | "
              f"{statistics.median(values) / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
