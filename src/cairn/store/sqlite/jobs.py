"""The resident runtime's state on SQLite: the durable job queue, the heartbeat and the
event log (migration 7).

The queue is written by one process at a time (the runtime holding it); every state
change is one transaction, so a job is either queued, running, done or failed, never
half-moved. A job left ``running`` by a process that died is put back by
:meth:`JobsMixin.requeue_running` when the next runtime starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from cairn.store.records import (
    EventRecord,
    HeartbeatRecord,
    JobKind,
    JobRecord,
    JobState,
    dumps_json,
)
from cairn.store.sqlite.base import Connected


def now_ms() -> str:
    """Current time as ISO-8601 UTC with millisecond precision (lag is measured in ms)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


_JOB_COLUMNS = "id, kind, key, payload, state, attempts, error, created_at, started_at, finished_at"


def _job(row: Sequence[Any]) -> JobRecord:
    return JobRecord(
        id=row[0], kind=cast(JobKind, row[1]), key=row[2], payload=json.loads(row[3]),
        state=cast(JobState, row[4]), attempts=row[5], error=row[6], created_at=row[7],
        started_at=row[8], finished_at=row[9],
    )


class JobsMixin(Connected):
    """:class:`~cairn.store.protocol.JobQueue`, :class:`~cairn.store.protocol.RuntimeBeat`
    and :class:`~cairn.store.protocol.EventLog` on SQLite."""

    # --- the job queue -----------------------------------------------------------------

    def enqueue_job(
        self, kind: JobKind, payload: dict[str, Any], *, key: str | None = None,
        merge: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None,
    ) -> int:
        with self.transaction():
            if key is not None:
                row = self.conn.execute(
                    "SELECT id, payload FROM jobs WHERE state = 'queued' AND kind = ? AND key = ?"
                    " ORDER BY id LIMIT 1", (kind, key),
                ).fetchone()
                if row is not None:
                    if merge is not None:
                        merged = merge(json.loads(row[1]), payload)
                        self.conn.execute("UPDATE jobs SET payload = ? WHERE id = ?", (dumps_json(merged), row[0]))
                    return int(row[0])
            cur = self.conn.execute(
                "INSERT INTO jobs(kind, key, payload, state, attempts, created_at) VALUES (?, ?, ?, 'queued', 0, ?)",
                (kind, key, dumps_json(payload), now_ms()),
            )
        return int(cur.lastrowid or 0)

    def claim_job(self) -> JobRecord | None:
        with self.transaction():
            row = self.conn.execute(
                f"SELECT {_JOB_COLUMNS} FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            started = now_ms()
            self.conn.execute(
                "UPDATE jobs SET state = 'running', attempts = attempts + 1, started_at = ? WHERE id = ?",
                (started, row[0]),
            )
        job = _job(row)
        return JobRecord(
            id=job.id, kind=job.kind, key=job.key, payload=job.payload, state="running",
            attempts=job.attempts + 1, error=job.error, created_at=job.created_at,
            started_at=started, finished_at=None,
        )

    def finish_job(self, job_id: int, *, error: str | None = None, retry: bool = False) -> None:
        with self.transaction():
            if error is not None and retry:
                self.conn.execute(
                    "UPDATE jobs SET state = 'queued', error = ?, started_at = NULL WHERE id = ?",
                    (error, job_id),
                )
            else:
                self.conn.execute(
                    "UPDATE jobs SET state = ?, error = ?, finished_at = ? WHERE id = ?",
                    ("failed" if error is not None else "done", error, now_ms(), job_id),
                )

    def requeue_job(self, job_id: int) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), started_at = NULL"
                " WHERE id = ? AND state = 'running'", (job_id,),
            )

    def requeue_running(self, max_attempts: int) -> tuple[int, int]:
        with self.transaction():
            failed = self.conn.execute(
                "UPDATE jobs SET state = 'failed', finished_at = ?,"
                " error = 'the runtime died during each of its ' || attempts || ' attempts'"
                " WHERE state = 'running' AND attempts >= ?", (now_ms(), max_attempts),
            ).rowcount
            requeued = self.conn.execute(
                "UPDATE jobs SET state = 'queued', started_at = NULL WHERE state = 'running'"
            ).rowcount
        return requeued, failed

    def jobs(self, state: JobState | None = None, limit: int = 100) -> list[JobRecord]:
        if state is None:
            rows = self.conn.execute(f"SELECT {_JOB_COLUMNS} FROM jobs ORDER BY id DESC LIMIT ?", (limit,))
        else:
            rows = self.conn.execute(
                f"SELECT {_JOB_COLUMNS} FROM jobs WHERE state = ? ORDER BY id LIMIT ?", (state, limit)
            )
        return [_job(row) for row in rows.fetchall()]

    def job_counts(self) -> dict[str, int]:
        counts = {"queued": 0, "running": 0, "done": 0, "failed": 0}
        for state, n in self.conn.execute("SELECT state, count(*) FROM jobs GROUP BY state"):
            counts[state] = n
        return counts

    def oldest_pending_at(self) -> str | None:
        row = self.conn.execute(
            "SELECT min(created_at) FROM jobs WHERE state IN ('queued', 'running')"
        ).fetchone()
        return row[0] if row else None

    def prune_jobs(self, keep: int) -> int:
        with self.transaction():
            return self.conn.execute(
                "DELETE FROM jobs WHERE state IN ('done', 'failed') AND id NOT IN"
                " (SELECT id FROM jobs WHERE state IN ('done', 'failed') ORDER BY id DESC LIMIT ?)",
                (keep,),
            ).rowcount

    # --- the heartbeat -----------------------------------------------------------------

    def beat(self, pid: int, started_at: str, lag_ms: int, last_error: str | None) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO runtime_heartbeat(id, pid, started_at, last_beat, lag_ms, last_error, stopped_at)"
                " VALUES (1, ?, ?, ?, ?, ?, NULL) ON CONFLICT(id) DO UPDATE SET pid = excluded.pid,"
                " started_at = excluded.started_at, last_beat = excluded.last_beat,"
                " lag_ms = excluded.lag_ms, last_error = excluded.last_error, stopped_at = NULL",
                (pid, started_at, now_ms(), lag_ms, last_error),
            )

    def mark_stopped(self, pid: int) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE runtime_heartbeat SET stopped_at = ? WHERE id = 1 AND pid = ?", (now_ms(), pid)
            )

    def heartbeat(self) -> HeartbeatRecord | None:
        row = self.conn.execute(
            "SELECT pid, started_at, last_beat, lag_ms, last_error, stopped_at FROM runtime_heartbeat WHERE id = 1"
        ).fetchone()
        return HeartbeatRecord(*row) if row else None

    # --- the event log -----------------------------------------------------------------

    def append_event(self, kind: str, data: dict[str, Any], *, keep: int) -> EventRecord:
        at = now_ms()
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO events(kind, data, at) VALUES (?, ?, ?)", (kind, dumps_json(data), at)
            )
            event_id = int(cur.lastrowid or 0)
            self.conn.execute("DELETE FROM events WHERE id <= ?", (event_id - keep,))
        return EventRecord(id=event_id, kind=kind, data=data, at=at)

    def events_after(self, after: int, limit: int = 1000) -> list[EventRecord]:
        rows = self.conn.execute(
            "SELECT id, kind, data, at FROM events WHERE id > ? ORDER BY id LIMIT ?", (after, limit)
        ).fetchall()
        return [EventRecord(id=r[0], kind=r[1], data=json.loads(r[2]), at=r[3]) for r in rows]

    def first_event_id(self) -> int:
        row = self.conn.execute("SELECT min(id) FROM events").fetchone()
        return int(row[0] or 0)

    def journal_position(self) -> int:
        row = self.conn.execute("SELECT max(seq) FROM changes").fetchone()
        return int(row[0] or 0)
