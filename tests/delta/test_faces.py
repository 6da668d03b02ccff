"""The knowledge delta through every face: context_reverify (which records a receipt on
every call, so answers differ only by receipt id and time) and cursor_expired."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import cairn
from cairn.interfaces.operations import operation
from tests.conftest import run_cli
from tests.servers import build_index, serve, with_mcp


def _mcp(url: str, name: str, args: dict[str, Any]) -> tuple[bool, Any]:
    async def work(client: Any) -> tuple[bool, Any]:
        result = await client.call_tool(name, args)
        return result.is_error, result.structured_content

    return with_mcp(f"{url}/mcp", work)


def _without_clock(receipts: Any) -> list[Any]:
    return [{k: v for k, v in r.items() if k not in ("id", "checked_at")} for r in receipts["receipts"]]


def test_reverify_and_cursor_expired_on_every_face(tmp_path: Path) -> None:
    home = build_index(tmp_path)
    (home / "config.toml").write_text("[journal]\nmax_entries = 2\n", encoding="utf-8")
    with cairn.open(home) as ws:
        ws.context_save("backups", ws.context_build("how are backups scheduled", budget_tokens=300))
        expected = ws.context_reverify().model_dump(mode="json")
        old = ws.changes(limit=1).changes[0].id
        ws.index()  # applies retention: the journal keeps 2 entries
    assert [r["status"] for r in expected["receipts"]] == ["fresh"]
    proc = run_cli("--home", str(home), "context", "reverify", "backups", "--json")
    cli = json.loads(proc.stdout)
    with serve(home) as url:
        rest = httpx.post(f"{url}/v1/context/reverify", json={"names": ["backups"]}, timeout=60).json()
        err, mcp = _mcp(url, "context_reverify", {})
        assert not err
        for answer in (cli, rest, mcp):
            assert _without_clock(answer) == _without_clock(expected)
        ids = [a["receipts"][0]["id"] for a in (expected, cli, rest, mcp)]
        assert ids == sorted(set(ids))  # each call recorded its own receipt
        listed = httpx.post(f"{url}/v1/context/list", json={}, timeout=60).json()
        assert listed["capsules"][0]["last_receipt"]["id"] == ids[-1]

        # An expired cursor: the same code on every face (HTTP 410 Gone).
        response = httpx.post(f"{url}/v1/changes", json={"since": old}, timeout=60)
        assert response.status_code == 410 and response.json()["error"]["code"] == "cursor_expired"
        err, body = _mcp(url, "changes", {"since": old})
        assert err and body["error"]["code"] == "cursor_expired"
    proc = run_cli("--home", str(home), "changes", "--since", old, "--json", check=False)
    assert proc.returncode == 1 and json.loads(proc.stdout)["error"]["code"] == "cursor_expired"
    with cairn.open(home) as ws, pytest.raises(cairn.errors.CursorExpiredError):
        ws.changes(old)
    assert operation("context_reverify").read_only and not operation("context_reverify").write


def test_context_watch_prints_new_receipts(tmp_path: Path) -> None:
    import subprocess
    import time

    from tests.conftest import CAIRN_BIN

    home = build_index(tmp_path)
    with cairn.open(home) as ws:
        ws.context_save("backups", ws.context_build("how are backups scheduled", budget_tokens=300))
        ws.context_reverify()
    watcher = subprocess.Popen(
        [str(CAIRN_BIN), "--home", str(home), "context", "watch", "backups", "--interval", "0.1",
         "--count", "2", "--timeout", "60", "--json"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert watcher.stdout is not None
        first = json.loads(watcher.stdout.readline())  # the latest receipt, at once
        assert first["status"] == "fresh"
        backups = next((tmp_path / "notes").rglob("backups.md"))
        backups.write_text(backups.read_text(encoding="utf-8").replace("a", "A"), encoding="utf-8")
        time.sleep(0.3)
        with cairn.open(home) as ws:
            ws.index()
            ws.reverify_changed([c.docid for c in ws.changes().changes if c.docid])
        second = json.loads(watcher.stdout.readline())
        assert second["status"] == "stale" and second["id"] > first["id"]
        assert watcher.wait(timeout=30) == 0
    finally:
        watcher.kill()
