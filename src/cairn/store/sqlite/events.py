"""Hook events on SQLite, the foreground path of ``cairn hook``: open the index file,
append one row. Imports nothing but the standard library, so a hook call costs a Python
start-up and one small transaction (``bench/hook_bench.py``)."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime

#: Connections :func:`append_event_fast` left open (``leave_open``): referenced here until
#: the process ends.
_LEFT_OPEN: list[sqlite3.Connection] = []

#: The migration that created ``memory_events`` (the hook falls back to a full store,
#: which migrates, when the index is older or missing).
EVENTS_SINCE = 6


def append_event(conn: sqlite3.Connection, event: str, session_id: str | None, cwd: str | None,
                 payload: dict[str, object]) -> int:
    """Append one hook event on ``conn`` (autocommit); returns its position."""
    at = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    cur = conn.execute(
        "INSERT INTO memory_events(at, event, session_id, cwd, payload) VALUES (?, ?, ?, ?, ?)",
        (at, event, session_id, cwd, json.dumps(payload, sort_keys=True, ensure_ascii=False)),
    )
    return int(cur.lastrowid or 0)


def append_event_fast(path: str | os.PathLike[str], event: str, session_id: str | None, cwd: str | None,
                      payload: dict[str, object], *, leave_open: bool = False) -> int | None:
    """Append one event to the index at ``path`` with a bare connection; None when the
    index does not exist yet or predates hook events (the caller opens a full store).

    ``leave_open``: after the commit, keep the connection open instead of closing it, for
    a process that ends at once with :func:`os._exit` (``cairn hook``). Closing the last
    connection to a WAL database checkpoints it (the WAL copied into the database, both
    synced, the WAL deleted): two or three fsyncs, most of a hook call's SQLite time. Left
    open, the committed row stays in the WAL (as after any commit with ``synchronous =
    NORMAL``); the next connection to close last, or the automatic checkpoint every 1,000
    WAL pages, carries it into the database file."""
    if not os.path.exists(path):
        return None
    conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    position: int | None = None
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA synchronous = NORMAL")  # as the store: WAL, no fsync per commit
        row = conn.execute("SELECT max(version) FROM migrations").fetchone()
        if row and (row[0] or 0) >= EVENTS_SINCE:
            position = append_event(conn, event, session_id, cwd, payload)
    except sqlite3.OperationalError:
        position = None
    if leave_open and position is not None:
        _LEFT_OPEN.append(conn)
    else:
        conn.close()
    return position
