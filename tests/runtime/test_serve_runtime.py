"""``cairn serve`` runs the runtime (``--no-watch`` opts out): a real subprocess, its event
stream read over loopback, and ``cairn status`` telling a running from a stopped runtime."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import cairn
from tests.conftest import CAIRN_BIN, run_cli
from tests.runtime.test_daemon import wait_for
from tests.runtime.test_events_http import Listener


@contextmanager
def cairn_serve(*args: str) -> Iterator[str]:
    proc = subprocess.Popen([str(CAIRN_BIN), "serve", "--port", "0", "--no-mcp", *args],
                            env=dict(os.environ), stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        match = re.search(r"http://127\.0\.0\.1:(\d+)", proc.stderr.readline())
        assert match
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once shut down


def test_serve_runs_the_runtime_and_streams_its_events(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nalpha\n")
    with cairn.open() as ws:
        ws.add_collection(folder, name="notes")
        ws.index()
    with cairn_serve() as url:
        with cairn.open() as ws:
            wait_for(lambda: ws.runtime_status().state == "running", timeout=30)
        listener = Listener(url)
        (folder / "b.md").write_text("# B\n\nbilberry\n")
        wait_for(lambda: any(e["event"] == "index.changed" for e in listener.events), timeout=30)
        listener.close()
        with cairn.open() as ws:
            docid = ws.get("notes/b.md").docid
        assert docid in listener.events[0]["data"]["docids"]
        assert "runtime: running (pid" in run_cli("status").stdout
    assert re.search(r"runtime: stopped \(last beat \d+ s ago", run_cli("status").stdout)


@pytest.mark.slow
def test_serve_no_watch_runs_no_runtime(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nalpha\n")
    with cairn.open() as ws:
        ws.add_collection(folder, name="notes")
        ws.index()
    with cairn_serve("--no-watch"):
        (folder / "c.md").write_text("# C\n\ncloudberry\n")
        time.sleep(1.5)
        with cairn.open() as ws:
            assert not ws.search("cloudberry").results and ws.runtime_status().state == "never"
