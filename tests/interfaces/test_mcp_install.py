"""``cairn mcp install`` / ``status``: each client's file format, backups, no clobbering."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cairn.contracts.mcp import McpClientEntry
from cairn.errors import ValidationError
from cairn.interfaces.mcp_install import TARGETS, config_path, install, status
from tests.conftest import CAIRN_BIN, cli_json, run_cli

ENTRY = McpClientEntry(command="/opt/cairn/bin/cairn", args=["--home", "/data/cairn", "mcp"])


def _servers(target: str, path: Path) -> dict[str, dict[str, object]]:
    if target == "codex":
        return tomllib.loads(path.read_text())["mcp_servers"]  # type: ignore[no-any-return]
    data = json.loads(path.read_text())
    return data["servers" if target == "vscode" else "mcpServers"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("target", TARGETS)
def test_formats_backup_and_no_clobbering(target: str, tmp_path: Path) -> None:
    path = config_path(target, tmp_path, "linux")  # type: ignore[arg-type]
    created = install(target, ENTRY, home=tmp_path, platform="linux")  # type: ignore[arg-type]
    assert created.action == "created" and created.backup is None and path.exists()
    ours = _servers(target, path)["cairn"]
    assert ours["command"] == ENTRY.command and ours["args"] == ENTRY.args
    if target in ("claude-code", "vscode"):
        assert ours["type"] == "stdio"
    # another server and other settings are kept; the old file is backed up
    if target == "codex":
        path.write_text('model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\nargs = []\n\n'
                        + path.read_text().replace(ENTRY.command, "/old/cairn"))
    else:
        data = json.loads(path.read_text())
        key = "servers" if target == "vscode" else "mcpServers"
        data[key]["other"] = {"command": "other", "args": ["x"]}
        data[key]["cairn"]["command"] = "/old/cairn"
        data["theme"] = "dark"
        path.write_text(json.dumps(data))
    before = path.read_text()
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    updated = install(target, ENTRY, home=tmp_path, platform="linux", now=now)  # type: ignore[arg-type]
    assert updated.action == "updated"
    assert updated.backup is not None and Path(updated.backup).read_text() == before
    assert updated.backup.endswith(".cairn-backup-20260102T030405Z")
    servers = _servers(target, path)
    assert servers["other"]["command"] == "other" and servers["cairn"]["command"] == ENTRY.command
    if target == "codex":
        assert tomllib.loads(path.read_text())["model"] == "o3"
    else:
        assert json.loads(path.read_text())["theme"] == "dark"
    assert install(target, ENTRY, home=tmp_path, platform="linux").action == "unchanged"  # type: ignore[arg-type]


def test_dry_run_and_unparseable_files(tmp_path: Path) -> None:
    result = install("cursor", ENTRY, home=tmp_path, platform="linux", dry_run=True)
    assert result.dry_run and result.action == "created" and not Path(result.path).exists()
    assert json.loads(result.content)["mcpServers"]["cairn"]["command"] == ENTRY.command
    path = config_path("cursor", tmp_path, "linux")
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json")
    with pytest.raises(ValidationError, match="not valid JSON"):
        install("cursor", ENTRY, home=tmp_path, platform="linux")
    assert path.read_text() == "{ this is not json"
    codex = config_path("codex", tmp_path, "linux")
    codex.parent.mkdir(parents=True)
    codex.write_text('mcp_servers = { cairn = { command = "x" } }\n')  # inline: never guessed at
    with pytest.raises(ValidationError):
        install("codex", ENTRY, home=tmp_path, platform="linux")
    assert codex.read_text() == 'mcp_servers = { cairn = { command = "x" } }\n'


def test_platform_paths(tmp_path: Path) -> None:
    assert config_path("claude-desktop", tmp_path, "darwin") == (
        tmp_path / "Library/Application Support/Claude/claude_desktop_config.json")
    assert config_path("vscode", tmp_path, "linux") == tmp_path / ".config/Code/User/mcp.json"
    assert config_path("claude-code", tmp_path, "win32") == tmp_path / ".claude.json"


def test_cli_install_and_status(cairn_home: Path) -> None:
    home = Path.home()  # the autouse fixture points HOME at a temp folder
    dry = run_cli("mcp", "install", "--target", "claude-desktop", "--dry-run").stdout
    assert "dry run" in dry and str(CAIRN_BIN) in dry
    assert not (home / ".config/Claude/claude_desktop_config.json").exists()
    result = cli_json("mcp", "install", "--target", "claude-code")
    assert result["action"] == "created" and result["path"] == str(home / ".claude.json")
    assert Path(result["entry"]["command"]).is_absolute()
    assert result["entry"]["args"] == ["--home", str(cairn_home), "mcp"]
    rows = {row["target"]: row for row in cli_json("mcp", "status")["targets"]}
    assert rows["claude-code"]["installed"] and rows["claude-code"]["current"]
    assert not rows["cursor"]["installed"] and not rows["cursor"]["file_exists"]
    assert "installed" in run_cli("mcp", "status").stdout
    status_direct = status(McpClientEntry(command="/x", args=[]), home=home, platform="linux")
    assert [r.target for r in status_direct.targets] == list(TARGETS)


def test_cli_install_with_hooks(cairn_home: Path) -> None:
    """``--hooks`` (claude-code): the MCP entry and the agent hooks in one command;
    idempotent, backed up, refused for clients without hooks and before any write when
    the settings file is broken."""
    home = Path.home()  # the autouse fixture points HOME at a temp folder
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"model": "opus"}))
    result = cli_json("mcp", "install", "--target", "claude-code", "--hooks")
    assert result["action"] == "created" and result["hooks"]["action"] == "updated"
    assert Path(result["hooks"]["backup"]).read_text() == json.dumps({"model": "opus"})
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert set(data["hooks"]) == {"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"}
    prompt = data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert prompt.endswith(f"--home {cairn_home} hook prompt") and Path(prompt.split()[0]).is_absolute()
    backups = sorted(p.name for p in home.rglob("*.cairn-backup-*"))
    again = cli_json("mcp", "install", "--target", "claude-code", "--hooks")
    assert again["action"] == "unchanged" and again["hooks"]["action"] == "unchanged"
    assert sorted(p.name for p in home.rglob("*.cairn-backup-*")) == backups  # nothing rewritten
    assert "hooks for SessionStart" in run_cli("mcp", "install", "--target", "claude-code", "--hooks").stdout
    assert cli_json("mcp", "install", "--target", "claude-code")["hooks"] is None  # without the flag: untouched

    refused = run_cli("mcp", "install", "--target", "cursor", "--hooks", "--json", check=False)
    assert refused.returncode == 1 and "invalid_input" in refused.stderr + refused.stdout
    assert "--hooks" in refused.stderr + refused.stdout
    assert not (home / ".cursor" / "mcp.json").exists()
    (home / ".claude.json").unlink()
    settings.write_text("{broken")
    broken = run_cli("mcp", "install", "--target", "claude-code", "--hooks", "--json", check=False)
    assert broken.returncode == 1 and "invalid_input" in broken.stderr + broken.stdout
    assert not (home / ".claude.json").exists() and settings.read_text() == "{broken"
