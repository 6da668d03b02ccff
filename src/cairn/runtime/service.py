"""``runtime_status`` and ``runtime_events``: what the faces read of the runtime's state."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from cairn import contracts as c
from cairn.errors import NotFoundError, ValidationError
from cairn.store.protocol import StoreOpener
from cairn.store.records import HeartbeatRecord, JobRecord

#: A heartbeat older than this many heartbeat intervals means the runtime is gone.
STALE_BEATS = 3


def parse_time(stamp: str) -> datetime:
    """An ISO-8601 UTC stamp of the store as an aware datetime."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def job_info(job: JobRecord) -> c.JobInfo:
    return c.JobInfo(
        id=job.id, kind=job.kind, state=job.state, attempts=job.attempts, error=job.error,
        payload=job.payload, created_at=job.created_at, finished_at=job.finished_at,
    )


def runtime_state(
    beat: HeartbeatRecord | None, stale_after_s: float, now: datetime,
) -> tuple[Literal["running", "stopped", "never"], float | None]:
    """(running | stopped | never, seconds since the last beat) of a heartbeat."""
    if beat is None:
        return "never", None
    age = max(0.0, (now - parse_time(beat.last_beat)).total_seconds())
    if beat.stopped_at is not None or age > stale_after_s:
        return "stopped", round(age, 1)
    return "running", round(age, 1)


class RuntimeStatusService:
    """Reads the runtime's heartbeat, queue and event log of one index."""

    def __init__(self, open_store: StoreOpener, heartbeat_s: float) -> None:
        self._open_store = open_store
        self._stale_after_s = heartbeat_s * STALE_BEATS

    def runtime_status(self) -> c.RuntimeStatus:
        """Whether a runtime keeps the index current (its heartbeat is fresh), its lag
        (age of the oldest change not yet processed), last error and job counts. A
        runtime that stopped or died shows as ``stopped`` with the age of its last beat."""
        empty = {"queued": 0, "running": 0, "done": 0, "failed": 0}
        try:
            store = self._open_store(False)
        except NotFoundError:
            return c.RuntimeStatus(state="never", stale_after_s=self._stale_after_s, jobs=empty)
        beat = store.heartbeat()
        state, age = runtime_state(beat, self._stale_after_s, datetime.now(UTC))
        failed = [job_info(j) for j in store.jobs("failed", limit=1_000_000)[-10:]][::-1]
        return c.RuntimeStatus(
            state=state,
            pid=beat.pid if beat else None, started_at=beat.started_at if beat else None,
            last_beat=beat.last_beat if beat else None, beat_age_s=age,
            lag_ms=beat.lag_ms if beat else None, last_error=beat.last_error if beat else None,
            stale_after_s=self._stale_after_s, jobs=store.job_counts(), failed_jobs=failed,
        )

    def runtime_events(self, after: int = 0, limit: int = 100) -> c.RuntimeEvents:
        """Committed runtime events with an id above ``after``, oldest first (what the SSE
        stream at ``/api/events`` sends; poll with the last id you saw)."""
        if after < 0 or not 1 <= limit <= 1000:
            raise ValidationError("after must be >= 0 and limit between 1 and 1000")
        try:
            store = self._open_store(False)
        except NotFoundError:
            return c.RuntimeEvents(events=[], first_kept=0)
        events = store.events_after(after, limit)
        return c.RuntimeEvents(
            events=[c.RuntimeEvent(id=e.id, kind=e.kind, data=e.data, at=e.at) for e in events],
            first_kept=store.first_event_id(),
        )
