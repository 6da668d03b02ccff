"""``GET /api/events`` over real HTTP on loopback (uvicorn in a thread, httpx streaming):
events arrive in order after their commits, a reconnect with Last-Event-ID loses
nothing, and a client that stops reading is dropped without blocking anyone."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import cairn
from cairn.runtime.daemon import Runtime, RuntimeSettings
from cairn.runtime.events import EventBus
from tests.runtime.test_daemon import FAST, wait_for


@contextmanager
def serve_with(bus: EventBus | None, **settings: Any) -> Iterator[str]:
    import uvicorn

    from cairn.interfaces.http import ServeSettings, create_app
    from cairn.interfaces.http.wire import uvicorn_config

    app = create_app(cairn.open, ServeSettings(mcp=False, **settings), bus=bus)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn_config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_for(lambda: server.started, timeout=30)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def sse(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """Parse an SSE stream into {id, event, data} dicts (comments and pings skipped)."""
    current: dict[str, Any] = {}
    for line in lines:
        if not line:
            if "data" in current:
                yield {"id": current.get("id"), "event": current.get("event", "message"),
                       "data": json.loads(current["data"])}
            current = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            current[field] = value[1:] if value.startswith(" ") else value


class Listener:
    """A client in a thread that collects events, resuming with Last-Event-ID whenever the
    server ends its stream (as an EventSource does), until told to stop."""

    def __init__(self, url: str, *, last_id: str | None = None, check: Any = None) -> None:
        self.url, self.last_id, self.check = url, last_id, check
        self.events: list[dict[str, Any]] = []
        self.connects = 0
        self.stop = threading.Event()
        self.client = httpx.Client(timeout=30)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            headers = {"last-event-id": self.last_id} if self.last_id else {}
            try:
                with self.client.stream("GET", f"{self.url}/api/events", headers=headers) as response:
                    assert response.status_code == 200
                    self.connects += 1
                    for event in sse(response.iter_lines()):
                        if self.stop.is_set():
                            return
                        if event["id"] is not None:
                            if self.check is not None:
                                self.check(event)
                            self.events.append(event)
                            self.last_id = event["id"]
                        if self.stop.is_set():
                            return
            except Exception:  # the server ended the stream, or close() closed the client
                time.sleep(0.05)

    def ids(self) -> list[int]:
        return [int(e["id"]) for e in self.events]

    def close(self) -> None:
        self.stop.set()
        self.client.close()
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nalpha\n")
    with cairn.open() as ws:
        ws.add_collection(root, name="notes")
        ws.index()
    return root


def test_events_arrive_in_order_after_their_commits_and_resume_without_loss(folder: Path) -> None:
    bus = EventBus()
    worker, reader = cairn.open(), cairn.open()
    runtime = worker.runtime(settings=FAST, bus=bus)
    runtime.start()
    committed: list[bool] = []

    def check(event: dict[str, Any]) -> None:  # the commit it describes is visible already
        if event["event"] == "index.changed":
            with cairn.open() as ws:
                found = {d.docid for d in ws.ls("notes").documents}
            committed.append(set(event["data"]["docids"]) <= found | set(_removed(event)))

    try:
        assert runtime.wait_idle()
        with serve_with(bus, events_heartbeat_s=0.5) as url:
            first = Listener(url, check=check)
            wait_for(lambda: bus.subscribers == 1)
            for n in range(3):
                (folder / f"n{n}.md").write_text(f"# N{n}\n\nnote number {n} mentions walrus{n}\n")
                wait_for(lambda n=n: bool(reader.search(f"walrus{n}").results))
            wait_for(lambda: len([e for e in first.events if e["event"] == "index.changed"]) >= 3)
            first.close()
            resume_from = first.last_id
            # Changes while no client listens: kept in the log.
            for n in range(3, 6):
                (folder / f"n{n}.md").write_text(f"# N{n}\n\nnote number {n} mentions walrus{n}\n")
                wait_for(lambda n=n: bool(reader.search(f"walrus{n}").results))
            (folder / "n0.md").unlink()
            wait_for(lambda: not reader.search("walrus0").results)
            assert runtime.wait_idle()
            logged = [e.id for e in reader.runtime_events(after=0, limit=1000).events]
            second = Listener(url, last_id=resume_from, check=check)
            wait_for(lambda: second.ids()[-1:] == logged[-1:])
            second.close()
            assert first.ids() + second.ids() == logged  # nothing lost, nothing twice, in order
            assert first.ids() == sorted(first.ids()) and second.ids() == sorted(second.ids())
            assert committed and all(committed)
            # A heartbeat notice (no id) comes when nothing happens.
            with httpx.stream("GET", f"{url}/api/events?after={logged[-1]}", timeout=10) as response:
                beat = next(sse(response.iter_lines()))
            assert beat["event"] == "heartbeat" and beat["id"] is None and beat["data"]["state"] == "running"
            bad = httpx.get(f"{url}/api/events", headers={"last-event-id": "yesterday"}, timeout=10)
            assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
    finally:
        runtime.stop()
        worker.close()
        reader.close()


def _removed(event: dict[str, Any]) -> list[str]:
    return event["data"]["docids"] if event["data"]["counts"]["removed"] else []


def test_a_client_that_stops_reading_is_dropped_without_blocking_others(folder: Path) -> None:
    bus = EventBus(capacity=16)
    worker = cairn.open()
    runtime: Runtime = worker.runtime(settings=RuntimeSettings(heartbeat_s=60), bus=bus)  # not started: publish only
    padding = "x" * 16_000
    total = 300
    try:
        with serve_with(bus, events_heartbeat_s=0.3, events_send_timeout_s=1.0) as url:
            frozen = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            frozen.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            host, port = url.removeprefix("http://").split(":")
            frozen.connect((host, int(port)))
            frozen.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            live = Listener(url)
            wait_for(lambda: bus.subscribers == 2)
            for n in range(total):  # publishing's latency with a frozen client: bench/events_bench.py
                runtime.publish("index.changed", {"n": n, "padding": padding})
                time.sleep(0.002)
            wait_for(lambda: len(live.events) == total, timeout=60)
            # The live client got every event once, in order (resuming if it fell behind).
            assert [e["data"]["n"] for e in live.events] == list(range(total))
            # The frozen client was dropped: it is no longer a subscriber, and the server
            # cut its connection (reading it now ends, short of the last event).
            wait_for(lambda: bus.subscribers == 1, timeout=10)  # the live client only
            live.close()
            frozen.settimeout(10)
            received = b""
            while chunk := frozen.recv(1 << 16):
                received += chunk
            frozen.close()
            assert received.count(b"event: index.changed") < total
    finally:
        runtime.stop()
        worker.close()
