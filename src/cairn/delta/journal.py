"""Journal cursors and ``since`` points: pure functions over the journal's state.

A cursor is opaque to its reader: ``c1.`` and the URL-safe base64 of
``<journal epoch>:<position>``. The epoch is a random id of the index's journal, so a
cursor of another index (or of an index deleted and rebuilt) is recognised; the position
is the last journal entry the reader has seen. Cursors are plain data: they survive
restarts of anything. A cursor (or a date) older than what retention kept raises
``cursor_expired``: the entries after it are partly gone, and a silent gap would let a
reader believe it saw everything.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, date, datetime

from cairn.errors import CursorExpiredError, ValidationError
from cairn.store.records import JournalState

CURSOR_PREFIX = "c1."
#: Retention defaults (``[journal] max_age_days`` / ``max_entries`` in config.toml).
DEFAULT_MAX_AGE_DAYS = 90
DEFAULT_MAX_ENTRIES = 100_000


@dataclass(frozen=True, slots=True)
class JournalRetention:
    """How long and how much of the change journal is kept."""

    max_age_days: int = DEFAULT_MAX_AGE_DAYS
    max_entries: int = DEFAULT_MAX_ENTRIES


@dataclass(frozen=True, slots=True)
class Since:
    """A point in the journal: after position ``after`` and/or from time ``at``."""

    after: int = 0
    at: str | None = None


def encode_cursor(epoch: str, seq: int) -> str:
    """The opaque cursor of journal position ``seq``."""
    raw = f"{epoch}:{seq}".encode("ascii")
    return CURSOR_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, int]:
    """(epoch, position) of a cursor; ``invalid_input`` if it is not one."""
    if not cursor.startswith(CURSOR_PREFIX):
        raise ValidationError(f"not a journal cursor or a date: {cursor[:80]!r}")
    body = cursor[len(CURSOR_PREFIX):]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("ascii")
        epoch, _, seq = raw.partition(":")
        position = int(seq)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValidationError(f"not a journal cursor: {cursor[:80]!r}") from None
    if not epoch or position < 0:
        raise ValidationError(f"not a journal cursor: {cursor[:80]!r}")
    return epoch, position


def journal_time(value: str) -> str:
    """An ISO date or datetime as the journal writes times (UTC, ``...Z``, seconds)."""
    text = value.strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text).isoformat() + "T00:00:00Z"
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"since must be a journal cursor or an ISO date/datetime, not {value[:80]!r}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def resolve_since(since: str | None, state: JournalState) -> Since:
    """Where ``since`` (a cursor, a date or None: the start) points in the journal, or
    ``cursor_expired`` when entries after it were pruned or it belongs to another index."""
    if since is None or not since.strip():
        return Since()
    text = since.strip()
    if text.startswith(CURSOR_PREFIX):
        epoch, seq = decode_cursor(text)
        if epoch != state.epoch:
            raise CursorExpiredError(
                "this cursor belongs to another index (or one since rebuilt); start again without a cursor"
            )
        if seq > state.last_seq:
            raise ValidationError("this cursor points past the end of the journal")
        if seq < state.pruned_through:
            raise CursorExpiredError(
                f"entries after this cursor were pruned by retention (kept: after {state.pruned_until}); "
                "start again without a cursor"
            )
        return Since(after=seq)
    at = journal_time(text)
    if state.pruned_until is not None and at <= state.pruned_until:
        raise CursorExpiredError(
            f"entries since {text} were pruned by retention (kept: after {state.pruned_until}); "
            "ask from a later date or start again without one"
        )
    return Since(at=at)


def retention_from_config(section: object) -> JournalRetention:
    """The ``[journal]`` table of config.toml (``max_age_days``, ``max_entries``)."""
    if section is None:
        return JournalRetention()
    if not isinstance(section, dict):
        raise ValidationError("config: [journal] must be a table")
    values: dict[str, int] = {}
    for key, default in (("max_age_days", DEFAULT_MAX_AGE_DAYS), ("max_entries", DEFAULT_MAX_ENTRIES)):
        value = section.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValidationError(f"config: journal.{key} must be a positive integer")
        values[key] = value
    return JournalRetention(**values)
