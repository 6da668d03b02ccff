"""Contracts of ``cairn mcp install`` and ``cairn mcp status`` (client setup)."""

from __future__ import annotations

from typing import Literal

from cairn.contracts import Contract
from cairn.contracts.memory import HookInstallResult

McpTarget = Literal["claude-desktop", "claude-code", "cursor", "vscode", "codex"]


class McpClientEntry(Contract):
    """How a client launches cairn's MCP server (stdio)."""

    command: str
    args: list[str]


class McpInstallResult(Contract):
    """What ``cairn mcp install`` wrote (or, with ``--dry-run``, would write)."""

    target: McpTarget
    path: str
    server_name: str
    action: Literal["created", "updated", "unchanged"]
    dry_run: bool
    #: Copy of the previous file, made before it was changed.
    backup: str | None
    entry: McpClientEntry
    #: The whole new file.
    content: str
    #: The client's hooks (``--hooks``, claude-code): what ``cairn hook install`` wrote.
    hooks: HookInstallResult | None = None


class McpTargetStatus(Contract):
    target: McpTarget
    path: str
    file_exists: bool
    installed: bool
    entry: McpClientEntry | None = None
    #: Whether the installed entry is what ``install`` would write now.
    current: bool = False
    error: str | None = None


class McpStatus(Contract):
    """Where cairn's MCP server is configured, per client."""

    server_name: str
    expected: McpClientEntry
    targets: list[McpTargetStatus]
