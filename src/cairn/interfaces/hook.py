"""``cairn hook EVENT``: what a coding agent's hook runs, on the foreground path.

It reads the hook's JSON payload on stdin (Claude Code's shape: ``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name``, and per event ``prompt``, or
``tool_name`` + ``tool_input`` for a PostToolUse edit), keeps a compact, redacted summary
and appends ONE row to the index's ``memory_events`` table. No scan, no model, no
Workspace: the console script (:mod:`cairn.interfaces.entry`) dispatches here before
importing the CLI, so a call costs a Python start-up and one small transaction
(``python -m bench.hook_bench``).

Malformed input (not JSON, not an object, a field of the wrong type) prints an
``invalid_input`` error on stderr and exits 2, writing nothing.
"""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False  # not typing's (nor pathlib): every import here is start-up time of a hook call
if TYPE_CHECKING:
    from typing import Any

HOOK_EVENTS = ("session-start", "prompt", "post-edit", "stop")
#: Largest payload read from stdin, and longest prompt kept.
MAX_PAYLOAD = 1_000_000
MAX_PROMPT = 4000
EXIT_INVALID = 2


class HookInputError(ValueError):
    """The hook payload is not usable (``invalid_input``)."""


def _text(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise HookInputError(f"{key}: expected a string, got {type(value).__name__}")
    return value


def summarise(event: str, raw: str) -> tuple[str | None, str | None, dict[str, object]]:
    """(session id, cwd, compact payload) of a hook's stdin; :class:`HookInputError` if bad."""
    if len(raw) > MAX_PAYLOAD:
        raise HookInputError(f"payload over {MAX_PAYLOAD} bytes")
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise HookInputError(f"hook payload is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(payload, dict):
        raise HookInputError("hook payload must be a JSON object")
    session, cwd = _text(payload, "session_id"), _text(payload, "cwd")
    summary: dict[str, object] = {}
    for key in ("hook_event_name", "transcript_path", "source", "reason"):
        value = _text(payload, key)
        if value is not None:
            summary[key] = value
    if event == "prompt":
        prompt = _text(payload, "prompt")
        if prompt is not None:
            from cairn.memory.secrets import redact

            summary["prompt"], _ = redact(prompt[:MAX_PROMPT])
    if event == "post-edit":
        tool = _text(payload, "tool_name")
        if tool is not None:
            summary["tool_name"] = tool
        tool_input = payload.get("tool_input")
        if tool_input is not None and not isinstance(tool_input, dict):
            raise HookInputError("tool_input: expected an object")
        path = (tool_input or {}).get("file_path") or (tool_input or {}).get("notebook_path")
        if isinstance(path, str):
            summary["file_path"] = path
    return session, cwd, summary


def run_hook(event: str, raw: str, home: str | None, index: str, *, exiting: bool = False) -> int:
    """Append one event; the exit code (0, or 2 for invalid input). ``exiting``: the
    process ends with :func:`os._exit` right after (the console script's fast path), so
    the index connection is left open and SQLite's checkpoint on close is skipped
    (:func:`cairn.store.sqlite.events.append_event_fast`)."""
    if event not in HOOK_EVENTS:
        print(f"error: invalid_input: unknown hook event {event!r} (one of {', '.join(HOOK_EVENTS)})",
              file=sys.stderr)
        return EXIT_INVALID
    try:
        session, cwd, summary = summarise(event, raw)
    except HookInputError as exc:
        print(f"error: invalid_input: {exc}", file=sys.stderr)
        return EXIT_INVALID
    from cairn.errors import CairnError

    try:
        path = _index_file(home, index)
        from cairn.store import append_hook_event

        if append_hook_event(path, event, session, cwd, summary, leave_open=exiting) is None:
            # No index yet, or one from before hook events: open it for real (migrates).
            from pathlib import Path

            from cairn.store import open_store

            store = open_store(Path(path), create=True)
            try:
                store.append_hook_event(event, session, cwd, summary)
            finally:
                store.close()
    except CairnError as exc:
        print(f"error: {exc.code}: {exc.message}", file=sys.stderr)
        return exc.exit_code
    return 0


def _index_file(home: str | None, index: str) -> str:
    """The index file, by the rule of :func:`cairn.config.resolve_paths`; its dataclasses
    and pathlib are imported only without an explicit home (the platform's data folder)."""
    from cairn.locations import chosen_home, index_file

    chosen = chosen_home(home, os.environ)
    if chosen is not None:
        return index_file(chosen, index)
    from cairn.config import resolve_paths

    return str(resolve_paths(None, os.environ).index_file(index))
