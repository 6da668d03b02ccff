"""Publishing with a frozen SSE client: ``Runtime.publish`` latency while a client that
stopped reading is connected to ``GET /api/events``, against the same publishing with
only a reading client (the baseline), interleaved in one run.

    .venv/bin/python -m bench.events_bench                  # 5 rounds of 300 events each
    .venv/bin/python -m bench.events_bench --rounds 9 --events 500

One uvicorn server on loopback serves the runtime's bus (as ``cairn serve`` does). Each
round publishes ``--events`` events of 16 kB (2 ms apart, as a busy indexer would), either
with a *frozen* client (a raw socket with a 4 kB receive buffer that sends its request and
never reads) plus a reading client, or with the reading client alone. A publish appends
the event to the index's log (its own commit) and offers it to the subscribers; it must
never wait for a client, so the frozen rounds' latencies should match the baseline's.
Printed: p50 / p95 / max per kind, the ratios frozen / baseline, and whether every frozen
client was dropped and every event reached the reading client in order.

This replaces a timed assertion the test suite used to carry
(``tests/runtime/test_events_http.py`` checks the behaviour: the reading client gets
every event once, in order, and the frozen one is dropped and cut off).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx


def _wait(cond: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise SystemExit("timed out waiting for the server")
        time.sleep(0.01)


class _Reader:
    """A client in a thread that reads the stream and counts the events it gets."""

    def __init__(self, url: str, after: int) -> None:
        self.numbers: list[int] = []
        self._url, self.after = url, after
        self._stop = threading.Event()
        self._client = httpx.Client(timeout=30)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with self._client.stream("GET", f"{self._url}/api/events?after={self.after}") as response:
                    event = ""
                    for line in response.iter_lines():
                        if line.startswith("event:"):
                            event = line.split(":", 1)[1].strip()
                        elif line.startswith("id:"):
                            self.after = int(line.split(":", 1)[1])
                        elif line.startswith("data:") and event == "index.changed":
                            self.numbers.append(json.loads(line[5:])["n"])
                        if self._stop.is_set():
                            return
            except Exception:  # the stream ended (dropped: resume) or the client closed
                time.sleep(0.05)

    def close(self) -> None:
        self._stop.set()
        self._client.close()
        self._thread.join(timeout=20)


def _frozen(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    return sock


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))], ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each kind, interleaved")
    parser.add_argument("--events", type=int, default=300, help="events published per round")
    args = parser.parse_args()
    if args.rounds < 1 or args.events < 20:
        parser.error("--rounds must be at least 1 and --events at least 20")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CAIRN_HOME"] = str(Path(tmp) / "home")
        _run(Path(tmp), args.rounds, args.events)


def _run(tmp: Path, rounds: int, events: int) -> None:
    import uvicorn

    import cairn
    from cairn.interfaces.http import ServeSettings, create_app
    from cairn.interfaces.http.wire import uvicorn_config
    from cairn.runtime.daemon import RuntimeSettings
    from cairn.runtime.events import EventBus

    notes = tmp / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nalpha\n")
    with cairn.open() as ws:
        ws.add_collection(notes, name="notes")
        ws.index()
    bus = EventBus(capacity=16)
    worker = cairn.open()
    runtime = worker.runtime(settings=RuntimeSettings(heartbeat_s=60), bus=bus)  # publish only
    settings = ServeSettings(mcp=False, events_heartbeat_s=0.3, events_send_timeout_s=1.0)
    app = create_app(cairn.open, settings, bus=bus)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn_config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    _wait(lambda: server.started)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    padding = "x" * 16_000
    latencies: dict[str, list[float]] = {"baseline": [], "frozen": []}
    dropped = complete = 0
    last_id = 0
    try:
        for n in range(2 * rounds):
            kind = "frozen" if n % 2 else "baseline"
            frozen = _frozen(url) if kind == "frozen" else None
            reader = _Reader(url, last_id)
            want = 2 if frozen else 1
            _wait(lambda: bus.subscribers == want)  # noqa: B023 (called at once)
            for i in range(events):
                before = time.perf_counter()
                runtime.publish("index.changed", {"n": i, "padding": padding})
                latencies[kind].append((time.perf_counter() - before) * 1000)
                time.sleep(0.002)
            _wait(lambda: len(reader.numbers) >= events, timeout=60)  # noqa: B023 (called at once)
            last_id = reader.after
            complete += reader.numbers[-events:] == list(range(events))
            if frozen is not None:
                _wait(lambda: bus.subscribers == 1, timeout=10)
                dropped += 1
                frozen.close()
            reader.close()
            _wait(lambda: bus.subscribers == 0, timeout=10)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        listener.close()
        worker.close()
    print(f"{rounds} rounds of each kind, {events} events of 16 kB per round, load {os.getloadavg()[0]:.2f}")
    figures: dict[str, Any] = {}
    for kind in ("baseline", "frozen"):
        p50, p95, top = _quantiles(latencies[kind])
        figures[kind] = (p50, p95, top)
        print(f"  publish {kind:>8}: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {top:.1f} ms")
    ratios = [f / b if b else float("nan") for f, b in zip(figures["frozen"], figures["baseline"], strict=True)]
    print(f"  frozen / baseline: p50 {ratios[0]:.2f}x, p95 {ratios[1]:.2f}x, max {ratios[2]:.2f}x")
    print(f"  frozen clients dropped: {dropped}/{rounds}; rounds with every event in order: {complete}/{2 * rounds}")


if __name__ == "__main__":
    main()
