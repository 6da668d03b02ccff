"""Register cairn's MCP server in the config file of an AI client, without clobbering it.

Each client keeps its servers in its own file and format:

| target | file | shape |
| --- | --- | --- |
| claude-desktop | ``<config>/Claude/claude_desktop_config.json`` | ``{"mcpServers": {name: {command, args}}}`` |
| claude-code | ``~/.claude.json`` (user scope) | ``{"mcpServers": {name: {type: "stdio", command, args, env}}}`` |
| cursor | ``~/.cursor/mcp.json`` | ``{"mcpServers": {name: {command, args}}}`` |
| vscode | ``<config>/Code/User/mcp.json`` | ``{"servers": {name: {type: "stdio", command, args}}}`` |
| codex | ``~/.codex/config.toml`` | ``[mcp_servers.<name>]`` with ``command`` and ``args`` |

Only the entry called ``name`` is added or replaced; every other key and server stays as
it was. A file that cannot be parsed is refused, never overwritten. An existing file is
copied to ``<file>.cairn-backup-<UTC time>`` before it is changed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_args

from cairn.contracts.mcp import (
    McpClientEntry,
    McpInstallResult,
    McpStatus,
    McpTarget,
    McpTargetStatus,
)
from cairn.errors import ValidationError

TARGETS: tuple[McpTarget, ...] = get_args(McpTarget)
SERVER_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def config_path(target: McpTarget, home: Path, platform: str) -> Path:
    """The user-level config file of ``target`` on ``platform`` (``sys.platform``)."""
    if platform == "darwin":
        app_config = home / "Library" / "Application Support"
    elif platform.startswith("win"):
        app_config = home / "AppData" / "Roaming"
    else:
        app_config = home / ".config"
    match target:
        case "claude-desktop":
            return app_config / "Claude" / "claude_desktop_config.json"
        case "claude-code":
            return home / ".claude.json"
        case "cursor":
            return home / ".cursor" / "mcp.json"
        case "vscode":
            return app_config / "Code" / "User" / "mcp.json"
        case "codex":
            return home / ".codex" / "config.toml"
    raise ValidationError(f"unknown target {target!r}: use one of {', '.join(TARGETS)}")


def _server_entry(target: McpTarget, entry: McpClientEntry) -> dict[str, Any]:
    match target:
        case "claude-code":
            return {"type": "stdio", "command": entry.command, "args": list(entry.args), "env": {}}
        case "vscode":
            return {"type": "stdio", "command": entry.command, "args": list(entry.args)}
        case _:
            return {"command": entry.command, "args": list(entry.args)}


def _servers_key(target: McpTarget) -> str:
    return "servers" if target == "vscode" else "mcpServers"


def install(
    target: McpTarget, entry: McpClientEntry, *, home: Path, platform: str, name: str = "cairn",
    dry_run: bool = False, now: datetime | None = None,
) -> McpInstallResult:
    """Add or update the ``name`` server entry of ``target``'s config file."""
    if not SERVER_NAME.match(name):
        raise ValidationError(f"invalid server name {name!r}: letters, digits, '_' or '-'")
    if not Path(entry.command).is_absolute():
        raise ValidationError(f"the command must be an absolute path, not {entry.command!r}")
    path = config_path(target, home, platform)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if target == "codex":
        new = _codex_content(old, name, entry, path)
    else:
        new = _json_content(old, target, name, entry, path)
    action, backup = write_config(path, old, new, dry_run=dry_run, now=now)
    return McpInstallResult(target=target, path=str(path), server_name=name, action=action, dry_run=dry_run,
                            backup=backup, entry=entry, content=new)


def status(entry: McpClientEntry, *, home: Path, platform: str, name: str = "cairn") -> McpStatus:
    """Where the ``name`` server is configured, and whether each entry is current."""
    rows: list[McpTargetStatus] = []
    for target in TARGETS:
        path = config_path(target, home, platform)
        if not path.exists():
            rows.append(McpTargetStatus(target=target, path=str(path), file_exists=False, installed=False))
            continue
        try:
            found = _installed_entry(target, path, name)
        except ValidationError as exc:
            rows.append(McpTargetStatus(target=target, path=str(path), file_exists=True, installed=False,
                                        error=exc.message))
            continue
        if found is None:
            rows.append(McpTargetStatus(target=target, path=str(path), file_exists=True, installed=False))
            continue
        command, args = found.get("command"), found.get("args", [])
        installed = None
        if isinstance(command, str) and isinstance(args, list) and all(isinstance(a, str) for a in args):
            installed = McpClientEntry(command=command, args=args)
        rows.append(McpTargetStatus(target=target, path=str(path), file_exists=True, installed=True,
                                    entry=installed, current=_same_server(installed, entry)))
    return McpStatus(server_name=name, expected=entry, targets=rows)


def _same_server(installed: McpClientEntry | None, expected: McpClientEntry) -> bool:
    """Same command and arguments, whether or not writes were enabled."""
    if installed is None:
        return False
    args = [a for a in installed.args if a != "--enable-write"]
    return installed.command == expected.command and args == list(expected.args)


# --- JSON clients -----------------------------------------------------------------------


def _load_json(text: str, path: Path) -> dict[str, Any]:
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path} is not valid JSON ({exc}); fix or move it, nothing was changed") from None
    if not isinstance(data, dict):
        raise ValidationError(f"{path}: expected a JSON object at the top; nothing was changed")
    return data


def _json_content(old: str | None, target: McpTarget, name: str, entry: McpClientEntry, path: Path) -> str:
    data = _load_json(old, path) if old is not None else {}
    key = _servers_key(target)
    servers = data.setdefault(key, {})
    if not isinstance(servers, dict):
        raise ValidationError(f"{path}: {key!r} is not an object; nothing was changed")
    wanted = _server_entry(target, entry)
    if servers.get(name) == wanted and old is not None:
        return old
    servers[name] = wanted
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _installed_entry(target: McpTarget, path: Path, name: str) -> dict[str, Any] | None:
    text = path.read_text(encoding="utf-8")
    if target == "codex":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValidationError(f"{path} is not valid TOML ({exc})") from None
        servers = data.get("mcp_servers", {})
    else:
        servers = _load_json(text, path).get(_servers_key(target), {})
    found = servers.get(name) if isinstance(servers, dict) else None
    return found if isinstance(found, dict) else None


# --- codex (TOML) -------------------------------------------------------------------------


def _codex_block(name: str, entry: McpClientEntry) -> str:
    # A JSON string is a valid TOML basic string (same escapes).
    args = ", ".join(json.dumps(a, ensure_ascii=False) for a in entry.args)
    return (f"[mcp_servers.{name}]\ncommand = {json.dumps(entry.command, ensure_ascii=False)}\n"
            f"args = [{args}]\n")


def _codex_content(old: str | None, name: str, entry: McpClientEntry, path: Path) -> str:
    """Replace (or append) the ``[mcp_servers.<name>]`` table, leaving all other text as is."""
    text = old or ""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError(f"{path} is not valid TOML ({exc}); fix or move it, nothing was changed") from None
    servers = before.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise ValidationError(f"{path}: mcp_servers is not a table; nothing was changed")
    wanted = {"command": entry.command, "args": list(entry.args)}
    if servers.get(name) == wanted and old is not None:
        return old
    lines = text.splitlines(keepends=True)
    own = re.compile(rf'^\s*\[\s*mcp_servers\s*\.\s*(?:{re.escape(name)}|"{re.escape(name)}")\s*(\]|\.)')
    header = re.compile(r"^\s*\[")
    kept: list[str] = []
    skipping = False
    for line in lines:
        if header.match(line):
            skipping = bool(own.match(line))
        if not skipping:
            kept.append(line)
    body = "".join(kept)
    if body and not body.endswith("\n"):
        body += "\n"
    new = body + ("\n" if body.strip() else "") + _codex_block(name, entry)
    try:
        after: Any = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        after = None
    expected = dict(before)
    expected_servers = dict(servers)
    expected_servers[name] = wanted
    expected["mcp_servers"] = expected_servers
    if after != expected:
        # e.g. the entry was written inline (mcp_servers = { ... }): never guess, never clobber.
        raise ValidationError(f"{path}: cannot update mcp_servers.{name} safely (edit it by hand); "
                              "nothing was changed")
    return new


def write_config(path: Path, old: str | None, new: str, *, dry_run: bool,
                 now: datetime | None = None) -> tuple[str, str | None]:
    """Write a client's config file: ``created``, ``unchanged`` or ``updated`` (the old file
    backed up first, the new one written atomically); returns the action and the backup."""
    action = "created" if old is None else "unchanged" if new == old else "updated"
    backup: str | None = None
    if not dry_run and action != "unchanged":
        path.parent.mkdir(parents=True, exist_ok=True)
        if old is not None:
            stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
            backup_path = path.with_name(f"{path.name}.cairn-backup-{stamp}")
            shutil.copy2(path, backup_path)
            backup = str(backup_path)
        _write_atomic(path, new)
    return action, backup


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.cairn-{os.getpid()}.tmp")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
