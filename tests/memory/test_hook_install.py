"""``cairn hook install``: Claude Code's settings get cairn's hooks, nothing else changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn.errors import ValidationError
from cairn.interfaces.hook_install import install_hooks, settings_path
from tests.conftest import run_cli

CMD = ["/opt/cairn/bin/cairn", "--home", "/data/cairn"]


def test_existing_settings_and_hooks_are_kept(tmp_path: Path) -> None:
    path = settings_path(tmp_path)
    path.parent.mkdir()
    other = {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/audit"}]}
    path.write_text(json.dumps({"model": "opus", "hooks": {"PostToolUse": [other]}}))
    result = install_hooks(CMD, home=tmp_path)
    assert result.action == "updated" and result.backup and Path(result.backup).exists()
    data = json.loads(path.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["PostToolUse"][0] == other
    assert data["hooks"]["PostToolUse"][1] == {
        "matcher": "Edit|MultiEdit|Write|NotebookEdit",
        "hooks": [{"type": "command", "command": "/opt/cairn/bin/cairn --home /data/cairn hook post-edit"}]}
    assert data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"].endswith(" hook prompt")
    assert set(data["hooks"]) == {"PostToolUse", "SessionStart", "UserPromptSubmit", "Stop"}
    again = install_hooks(CMD, home=tmp_path)
    assert again.action == "unchanged"
    moved = install_hooks(["/new/cairn"], home=tmp_path)
    assert moved.action == "updated"
    assert [g["hooks"][0]["command"] for g in json.loads(path.read_text())["hooks"]["Stop"]] == [
        "/new/cairn hook stop"]


def test_a_broken_file_is_refused(tmp_path: Path) -> None:
    path = settings_path(tmp_path)
    path.parent.mkdir()
    path.write_text("{not json")
    with pytest.raises(ValidationError):
        install_hooks(CMD, home=tmp_path)
    assert path.read_text() == "{not json"
    with pytest.raises(ValidationError):
        install_hooks(["relative/cairn"], home=tmp_path)


def test_cli_dry_run_writes_nothing(tmp_path: Path) -> None:
    import os

    home = Path(os.environ["HOME"])
    result = json.loads(run_cli("hook", "install", "--dry-run", "--json").stdout)
    assert result["action"] == "created" and result["dry_run"]
    assert not settings_path(home).exists()
    assert " hook session-start" in result["content"]
