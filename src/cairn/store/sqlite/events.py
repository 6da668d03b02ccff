"""Hook events on SQLite, the foreground path of ``cairn hook``: open the index file,
append one row, close. Imports nothing but the standard library, so a hook call costs a
Python start-up and one small transaction (``bench/hook_bench.py``)."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

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


def append_event_fast(path: Path, event: str, session_id: str | None, cwd: str | None,
                      payload: dict[str, object]) -> int | None:
    """Append one event to the index at ``path`` with a bare connection; None when the
    index does not exist yet or predates hook events (the caller opens a full store)."""
    if not path.exists():
        return None
    conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA synchronous = NORMAL")  # as the store: WAL, no fsync per commit
        row = conn.execute("SELECT max(version) FROM migrations").fetchone()
        if not row or (row[0] or 0) < EVENTS_SINCE:
            return None
        return append_event(conn, event, session_id, cwd, payload)
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()
