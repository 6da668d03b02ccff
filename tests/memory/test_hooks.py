"""``cairn hook EVENT``: one event row per call, no heavy imports, and malformed input is
an invalid_input error (exit 2) with nothing written. Real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cairn
from tests.conftest import run_cli

#: The console script as installed from this checkout's pyproject (cairn.interfaces.entry).
ENTRY = [sys.executable, "-c", "from cairn.interfaces.entry import main; main()"]


def _hook(home: Path, event: str, payload: str, *, via_cli: bool = False) -> subprocess.CompletedProcess[str]:
    if via_cli:
        return run_cli("--home", str(home), "hook", event, input=payload, check=False)
    return subprocess.run([*ENTRY, "--home", str(home), "hook", event], input=payload, capture_output=True,
                          text=True, env=dict(os.environ), timeout=60)


def _events(home: Path) -> list[tuple[Any, ...]]:
    with cairn.open(home) as ws:
        return list(ws._open_store(True).events())


PROMPT = {"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/work/app",
          "hook_event_name": "UserPromptSubmit", "prompt": "why does api_key=sk_live_51Habc fail?"}
EDIT = {"session_id": "abc", "cwd": "/work/app", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "/work/app/src/main.py", "old_string": "a", "new_string": "b"},
        "tool_response": {"success": True}}


@pytest.mark.parametrize("via_cli", [False, True])
def test_each_event_appends_one_row(tmp_path: Path, via_cli: bool) -> None:
    home = tmp_path / "home"
    calls = [("session-start", {"session_id": "abc", "cwd": "/work/app", "hook_event_name": "SessionStart",
                                "source": "startup"}),
             ("prompt", PROMPT), ("post-edit", EDIT),
             ("stop", {"session_id": "abc", "hook_event_name": "Stop", "stop_hook_active": False})]
    for event, payload in calls:
        proc = _hook(home, event, json.dumps(payload), via_cli=via_cli)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == ""
    rows = _events(home)
    assert [(r[0], r[2], r[3]) for r in rows] == [(1, "session-start", "abc"), (2, "prompt", "abc"),
                                                  (3, "post-edit", "abc"), (4, "stop", "abc")]
    prompt = json.loads(rows[1][5])
    assert "sk_live_51Habc" not in prompt["prompt"] and "[REDACTED:assignment]" in prompt["prompt"]
    assert json.loads(rows[2][5]) == {"file_path": "/work/app/src/main.py", "hook_event_name": "PostToolUse",
                                      "tool_name": "Edit"}
    assert rows[0][4] == "/work/app"


@pytest.mark.parametrize("payload", ["{not json", "[1, 2]", '"text"', "", '{"session_id": 7}',
                                     '{"tool_input": "x"}'])
@pytest.mark.parametrize("via_cli", [False, True])
def test_malformed_payload_writes_nothing(tmp_path: Path, payload: str, via_cli: bool) -> None:
    home = tmp_path / "home"
    assert _hook(home, "stop", "{}").returncode == 0
    proc = _hook(home, "post-edit", payload, via_cli=via_cli)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: invalid_input: ") and proc.stdout == ""
    assert len(_events(home)) == 1


def test_the_fast_path_imports_no_framework(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert _hook(home, "stop", "{}").returncode == 0  # the index exists: the fast path applies
    proc = subprocess.run([sys.executable, "-X", "importtime", *ENTRY[1:], "--home", str(home), "hook", "prompt"],
                          input=json.dumps(PROMPT), capture_output=True, text=True, env=dict(os.environ), timeout=60)
    assert proc.returncode == 0, proc.stderr
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    for heavy in ("click", "pydantic", "numpy", "cairn.workspace", "cairn.interfaces.cli", "cairn.store.protocol",
                  "cairn.store.sqlite.store",
                  # each a few ms of a hook call's start-up (issue 14: hook p95 <= 100 ms)
                  "typing", "pathlib", "dataclasses", "inspect", "cairn.config"):
        assert heavy not in imported, heavy
    assert "cairn.store.sqlite.events" in imported


def test_an_unknown_event_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run([*ENTRY, "--home", str(tmp_path), "hook", "lunch"], input="{}", capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0 and "lunch" in (proc.stderr + proc.stdout)


def test_calls_that_skip_the_checkpoint_lose_nothing(tmp_path: Path) -> None:
    """The fast path ends with os._exit and leaves its connection open (no checkpoint on
    close): every committed row is still read back, in order, by a full store."""
    home = tmp_path / "home"
    assert _hook(home, "stop", "{}").returncode == 0  # creates the index (full store)
    for n in range(12):
        proc = _hook(home, "prompt", json.dumps({"session_id": f"s{n}", "prompt": f"step {n}"}))
        assert proc.returncode == 0, proc.stderr
    rows = _events(home)
    assert [r[3] for r in rows[1:]] == [f"s{n}" for n in range(12)]
    assert [json.loads(r[5])["prompt"] for r in rows[1:]] == [f"step {n}" for n in range(12)]
