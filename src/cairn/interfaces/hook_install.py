"""Wire ``cairn hook`` into Claude Code's hooks (``~/.claude/settings.json``), without
clobbering the file.

Claude Code runs a hook's command with the event's JSON on stdin. cairn adds one entry per
event it records: ``SessionStart`` → ``hook session-start``, ``UserPromptSubmit`` →
``hook prompt``, ``PostToolUse`` on edits (``Edit|MultiEdit|Write|NotebookEdit``) → ``hook
post-edit``, ``Stop`` → ``hook stop``. Entries cairn added before (their command runs
``... hook <event>`` of a cairn) are replaced; every other key and hook stays as it was. A
file that cannot be parsed is refused, never overwritten; an existing file is copied to
``<file>.cairn-backup-<UTC time>`` first.
"""

from __future__ import annotations

import json
import shlex
from datetime import datetime
from pathlib import Path
from typing import Any

from cairn.contracts.memory import HookInstallResult
from cairn.errors import ValidationError
from cairn.interfaces.mcp_install import write_config

#: The MCP clients whose hooks cairn can configure (``cairn mcp install --hooks``).
HOOK_TARGETS = ("claude-code",)
#: Claude Code event -> (cairn hook event, matcher or None).
CLAUDE_EVENTS: dict[str, tuple[str, str | None]] = {
    "SessionStart": ("session-start", None),
    "UserPromptSubmit": ("prompt", None),
    "PostToolUse": ("post-edit", "Edit|MultiEdit|Write|NotebookEdit"),
    "Stop": ("stop", None),
}


def hook_command(executable: Path, data_dir: Path, index: str) -> list[str]:
    """The command line a hook runs: this installation's ``cairn`` console script next to
    ``executable`` (else ``executable -c`` its entry), with the home and index."""
    script = executable.parent / "cairn"
    command = [str(script.absolute())] if script.exists() else [
        str(executable.absolute()), "-c", "from cairn.interfaces.entry import main; main()"]
    command += ["--home", str(data_dir)]
    return command + (["--index", index] if index != "default" else [])


def settings_path(home: Path) -> Path:
    """Claude Code's user settings file."""
    return home / ".claude" / "settings.json"


def _ours(group: Any, event: str) -> bool:
    """Whether a hook group holds a cairn ``hook <event>`` command."""
    if not isinstance(group, dict):
        return False
    return any(isinstance(h, dict) and isinstance(h.get("command"), str)
               and h["command"].rstrip().endswith(f" hook {event}") and "cairn" in h["command"]
               for h in group.get("hooks", []) or [])


def hooks_content(old: str | None, command: list[str], path: Path) -> str:
    """The settings text with cairn's hook entries added or replaced."""
    try:
        data = json.loads(old) if old and old.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path} is not valid JSON ({exc}); fix or move it, nothing was changed") from None
    if not isinstance(data, dict):
        raise ValidationError(f"{path}: expected a JSON object at the top; nothing was changed")
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError(f"{path}: 'hooks' is not an object; nothing was changed")
    prefix = " ".join(shlex.quote(part) for part in command)
    for claude_event, (event, matcher) in CLAUDE_EVENTS.items():
        groups = hooks.setdefault(claude_event, [])
        if not isinstance(groups, list):
            raise ValidationError(f"{path}: hooks.{claude_event} is not a list; nothing was changed")
        kept = [g for g in groups if not _ours(g, event)]
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": f"{prefix} hook {event}"}]}
        if matcher:
            group = {"matcher": matcher, **group}
        hooks[claude_event] = [*kept, group]
    new = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if old is not None and json.loads(old or "{}") == data:
        return old
    return new


def install_hooks(command: list[str], *, home: Path, dry_run: bool = False,
                  now: datetime | None = None) -> HookInstallResult:
    """Add or update cairn's hooks in Claude Code's user settings."""
    if not command or not Path(command[0]).is_absolute():
        raise ValidationError("the hook command must start with an absolute path")
    path = settings_path(home)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    new = hooks_content(old, command, path)
    action, backup = write_config(path, old, new, dry_run=dry_run, now=now)
    return HookInstallResult(path=str(path), action=action, dry_run=dry_run, backup=backup,
                             events=list(CLAUDE_EVENTS), content=new)
