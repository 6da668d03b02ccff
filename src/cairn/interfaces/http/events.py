"""``GET /api/events``: the runtime's committed events as Server-Sent Events (issue 16).

Each event carries its log id as the SSE ``id``, its kind as ``event`` and its data as
JSON. A client resumes with the ``Last-Event-ID`` header (or ``?after=ID``) and misses
nothing the log still holds; a resume point older than the log gets an explicit
``events.expired`` notice first. ``heartbeat`` notices (the runtime's status, no id)
come when nothing happened for a while. A client that falls behind is dropped (it gets
``stream.dropped`` if it still reads, then the stream ends) and may resume at once; a
client that stops reading entirely is cut off after ``send_timeout_s``. Neither slows
the runtime or other clients.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.sse import SendTimeoutError
from starlette.types import Receive, Scope, Send

from cairn.errors import ValidationError
from cairn.runtime.events import EventBus, event_stream
from cairn.store.records import EventRecord

if TYPE_CHECKING:
    from cairn.interfaces.pool import WorkspacePool

EVENTS_PATH = "/api/events"

log = logging.getLogger("cairn.http")


class EventStream(EventSourceResponse):
    """An SSE response that ends quietly when its client stopped reading."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except SendTimeoutError:
            log.info("dropped an event stream client that stopped reading")


def _resume_point(request: Request, after: int | None) -> int:
    raw = request.headers.get("last-event-id")
    if raw is None or raw.strip() == "":
        value = after or 0
    else:
        try:
            value = int(raw.strip())
        except ValueError:
            raise ValidationError(f"Last-Event-ID must be an event id (an integer), not {raw[:40]!r}") from None
    if value < 0:
        raise ValidationError("the resume point must be 0 or more")
    return value


def add_event_route(app: FastAPI, pool: WorkspacePool, bus: EventBus | None, *,
                    heartbeat_s: float, send_timeout_s: float) -> None:
    """Mount ``GET /api/events`` on ``app``: live events from ``bus`` (the runtime in this
    process), the rest read from the index's event log through ``pool``."""

    async def read(after: int) -> tuple[list[EventRecord], int]:
        result = await pool.run(lambda ws: ws.runtime_events(after=after, limit=1000))
        return [EventRecord(id=e.id, kind=e.kind, data=dict(e.data), at=e.at) for e in result.events], result.first_kept

    async def beat() -> dict[str, Any]:
        status = await pool.run(lambda ws: ws.runtime_status())
        return status.model_dump(mode="json", exclude={"failed_jobs"})

    @app.get(EVENTS_PATH, tags=["read"], summary="Server-Sent Events of the runtime (resumable)",
             response_class=EventStream,
             description="index.changed, capsule.reverified, job.failed (ids: resume with Last-Event-ID), "
                         "and heartbeat notices.")
    async def events(request: Request, after: int | None = None) -> EventStream:
        start = _resume_point(request, after)

        async def stream() -> AsyncIterator[ServerSentEvent]:
            async for item in event_stream(read, beat, bus, start, heartbeat_s=heartbeat_s):
                yield ServerSentEvent(
                    data=json.dumps(item.data, ensure_ascii=False, separators=(",", ":")),
                    event=item.kind, id=None if item.id is None else str(item.id),
                )

        return EventStream(stream(), send_timeout=send_timeout_s, ping=15)
