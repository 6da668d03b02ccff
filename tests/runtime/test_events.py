"""The event bus and one client's stream, without HTTP (asyncio, a list as the log)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from cairn.runtime.events import EventBus, StreamItem, event_stream
from cairn.runtime.service import runtime_state
from cairn.store.records import EventRecord, HeartbeatRecord


class Log:
    def __init__(self, keep: int = 1000) -> None:
        self.events: list[EventRecord] = []
        self.keep = keep
        self.reads = 0

    def append(self, kind: str = "index.changed", **data: Any) -> EventRecord:
        event = EventRecord(id=len(self.events) + 1 if not self.events else self.events[-1].id + 1,
                            kind=kind, data=data, at="2026-12-01T00:00:00.000Z")
        self.events = [*self.events, event][-self.keep:]
        return event

    async def read(self, after: int) -> tuple[list[EventRecord], int]:
        self.reads += 1
        return [e for e in self.events if e.id > after][:2], (self.events[0].id if self.events else 0)


async def beat() -> dict[str, Any]:
    return {"state": "running"}


async def take(stream: Any, n: int, timeout: float = 5.0) -> list[StreamItem]:
    items: list[StreamItem] = []
    async with asyncio.timeout(timeout):
        async for item in stream:
            items.append(item)
            if len(items) == n:
                break
    return items


def test_replay_then_live_events_in_order_each_once() -> None:
    async def main() -> None:
        log, bus = Log(), EventBus()
        for n in range(5):
            log.append(n=n)
        stream = event_stream(log.read, beat, bus, 2, heartbeat_s=5)
        first = await take(stream, 3)  # replayed from the log in pages of 2
        assert [i.id for i in first] == [3, 4, 5]
        pending = asyncio.ensure_future(take(stream, 3))
        await asyncio.sleep(0.05)  # the replay is over: the stream waits for live events
        reads = log.reads
        for n in range(5, 8):
            bus.publish(log.append(n=n))
        live = await pending
        assert [i.id for i in live] == [6, 7, 8] and log.reads == reads  # contiguous: no log read
        log.append(n=8)  # committed but not offered live (another process): read at the next wake
        bus.publish(log.append(n=9))
        gap = await take(stream, 2)
        assert [i.id for i in gap] == [9, 10]
        await stream.aclose()
        assert bus.subscribers == 0

    asyncio.run(main())


def test_a_resume_point_older_than_the_log_is_said_and_idle_streams_get_heartbeats() -> None:
    async def main() -> None:
        log = Log(keep=3)
        for n in range(6):
            log.append(n=n)
        stream = event_stream(log.read, beat, None, 1, heartbeat_s=0.05)
        items = await take(stream, 5)
        assert items[0].kind == "events.expired" and items[0].id is None
        assert items[0].data == {"after": 1, "first_kept": 4}
        assert [i.id for i in items[1:4]] == [4, 5, 6]
        assert items[4].kind == "heartbeat" and items[4].data == {"state": "running"}
        await stream.aclose()

    asyncio.run(main())


def test_a_subscriber_that_falls_behind_is_dropped_and_publish_never_blocks() -> None:
    async def main() -> None:
        log, bus = Log(), EventBus(capacity=4)
        stream = event_stream(log.read, beat, bus, 0, heartbeat_s=5)
        reader = asyncio.ensure_future(take(stream, 1, timeout=2))
        await asyncio.sleep(0.05)  # subscribed, waiting
        for n in range(10):  # offered faster than this subscriber reads: it overflows
            bus.publish(log.append(n=n))
        assert bus.subscribers == 0
        got = await reader
        assert got[0].kind == "stream.dropped" and got[0].data["last_event_id"] == 0

    asyncio.run(main())


def test_a_stale_heartbeat_is_a_stopped_runtime() -> None:
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def beat_at(seconds_ago: float, stopped: bool = False) -> HeartbeatRecord:
        at = (now - timedelta(seconds=seconds_ago)).isoformat().replace("+00:00", "Z")
        return HeartbeatRecord(pid=1, started_at=at, last_beat=at, lag_ms=0, last_error=None,
                               stopped_at=at if stopped else None)

    assert runtime_state(None, 15, now) == ("never", None)
    assert runtime_state(beat_at(4), 15, now) == ("running", 4.0)
    assert runtime_state(beat_at(40), 15, now) == ("stopped", 40.0)  # died without a word
    assert runtime_state(beat_at(1, stopped=True), 15, now) == ("stopped", 1.0)
