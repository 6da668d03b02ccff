"""Committed events, fanned out to live subscribers and resumable from the store.

The runtime appends an event to the store's event log *after* the commit it describes,
then hands it to the :class:`EventBus`. The bus never blocks: each subscriber has a
bounded buffer, and a subscriber that falls behind (its buffer is full) is dropped; it
resumes from the log with the last id it saw (SSE ``Last-Event-ID``), so nothing is lost.

:func:`event_stream` is what one client reads: the events after its resume point from
the log, then live events from the bus (gaps filled from the log), with a heartbeat when
nothing happened for a while. Without a bus (the runtime runs in another process) it
reads the log at every heartbeat instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from cairn.store.records import EventRecord

#: Events a live subscriber may have unread before it is dropped.
DEFAULT_CAPACITY = 256


class Subscription:
    """One live subscriber: a bounded buffer filled from any thread, read in its event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, capacity: int) -> None:
        self._loop = loop
        self._capacity = capacity
        self._items: deque[EventRecord] = deque()
        self._lock = threading.Lock()
        self._wake = asyncio.Event()
        self.dropped = False

    def offer(self, event: EventRecord) -> bool:
        """Buffer ``event`` (never blocks); False once this subscriber is dropped."""
        with self._lock:
            if self.dropped:
                return False
            if len(self._items) >= self._capacity:
                self.dropped = True
                self._items.clear()
            else:
                self._items.append(event)
        try:
            self._loop.call_soon_threadsafe(self._wake.set)
        except RuntimeError:  # its event loop is closed: the client is gone
            self.dropped = True
        return not self.dropped

    async def next_batch(self, timeout: float) -> list[EventRecord]:
        """The buffered events, waiting at most ``timeout`` seconds for one ([] then)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)
        self._wake.clear()
        with self._lock:
            items = list(self._items)
            self._items.clear()
        return items


class EventBus:
    """Fan-out of committed events to live subscribers; :meth:`publish` never blocks."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self._subscribers: list[Subscription] = []
        self._lock = threading.Lock()

    def subscribe(self) -> Subscription:
        """A new subscriber in the running event loop."""
        sub = Subscription(asyncio.get_running_loop(), self.capacity)
        with self._lock:
            self._subscribers.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    def publish(self, event: EventRecord) -> None:
        """Offer a committed event to every subscriber; drop those that fell behind."""
        with self._lock:
            subscribers = list(self._subscribers)
        gone = [sub for sub in subscribers if not sub.offer(event)]
        if gone:
            with self._lock:
                self._subscribers = [s for s in self._subscribers if s not in gone]

    @property
    def subscribers(self) -> int:
        """How many live subscribers there are."""
        with self._lock:
            return len(self._subscribers)


@dataclass(frozen=True, slots=True)
class StreamItem:
    """What a client is sent: a logged event (with its id), or an id-less notice."""

    kind: str
    data: dict[str, Any]
    id: int | None = None


#: Reads the log: events after an id (oldest first, at most ``limit``) and the oldest id kept.
ReadEvents = Callable[[int], Awaitable[tuple[list[EventRecord], int]]]
#: The runtime's heartbeat as data (``runtime_status``).
ReadBeat = Callable[[], Awaitable[dict[str, Any]]]


def _item(event: EventRecord) -> StreamItem:
    return StreamItem(kind=event.kind, data={**event.data, "at": event.at}, id=event.id)


async def event_stream(
    read: ReadEvents, beat: ReadBeat, bus: EventBus | None, after: int, *, heartbeat_s: float = 5.0,
) -> AsyncIterator[StreamItem]:
    """One client's stream: the logged events after ``after``, then live ones, in id order,
    each once; ``heartbeat`` notices between them. Ends when the client is dropped by the
    bus (it resumes with the last id it received)."""
    sub = bus.subscribe() if bus is not None else None  # before reading the log: no gap
    last = after

    async def from_log() -> AsyncIterator[StreamItem]:
        nonlocal last
        while True:
            events, _ = await read(last)
            fresh = [e for e in events if e.id > last]
            if not fresh:
                return
            for event in fresh:
                last = event.id
                yield _item(event)

    try:
        _, first_kept = await read(last) if after else ([], 0)
        if after and first_kept and after < first_kept - 1:
            # The log no longer holds everything after the resume point: say so, never a silent gap.
            yield StreamItem("events.expired", {"after": after, "first_kept": first_kept})
        async for item in from_log():
            yield item
        while True:
            if sub is not None:
                batch = [e for e in await sub.next_batch(heartbeat_s) if e.id > last]
                if sub.dropped:
                    yield StreamItem("stream.dropped", {"last_event_id": last,
                                                        "hint": "reconnect with Last-Event-ID"})
                    return
            else:
                await asyncio.sleep(heartbeat_s)
                batch = []
            if batch and batch[0].id == last + 1 and all(
                b.id == a.id + 1 for a, b in itertools.pairwise(batch)
            ):
                for event in batch:  # contiguous with what was sent: no need to read the log
                    last = event.id
                    yield _item(event)
                continue
            sent = last
            async for item in from_log():  # a gap, or a runtime in another process
                yield item
            if not batch and last == sent:
                yield StreamItem("heartbeat", await beat())
    finally:
        if sub is not None and bus is not None:
            bus.unsubscribe(sub)
