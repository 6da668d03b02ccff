"""A real ``cairn daemon`` subprocess on a temporary collection: edits, renames and atomic
saves while it runs end with an index equal to the files on disk; killed with SIGKILL in
the middle of a job, it resumes the queue at the next start and nothing is half-indexed."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import cairn
from tests.conftest import CAIRN_BIN
from tests.runtime.test_daemon import wait_for


def start_daemon(*args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([str(CAIRN_BIN), "daemon", *args], env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc


def stop_daemon(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def mismatches(folder: Path) -> list[str]:
    """How the index differs from the Markdown files on disk ([] when equal)."""
    on_disk = {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
               for p in folder.rglob("*.md") if not any(part.startswith(".") for part in p.relative_to(folder).parts)}
    with cairn.open() as ws:
        entries = ws.ls("notes").documents
        indexed = {e.path: ws.get(f"notes/{e.path}").source_hash for e in entries}
        docids = [e.docid for e in entries]
    problems = [f"duplicate docids {len(docids) - len(set(docids))}"] if len(docids) != len(set(docids)) else []
    problems += [f"missing {p}" for p in sorted(set(on_disk) - set(indexed))]
    problems += [f"stale entry {p}" for p in sorted(set(indexed) - set(on_disk))]
    problems += [f"old content {p}" for p in sorted(set(on_disk) & set(indexed)) if on_disk[p] != indexed[p]]
    return problems


def converge(folder: Path, timeout: float = 60.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while (problems := mismatches(folder)) and time.monotonic() < deadline:
        time.sleep(0.25)
    return problems


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "notes"
    root.mkdir()
    for n in range(10):
        (root / f"seed{n}.md").write_text(f"# Seed {n}\n\nseed note {n}\n")
    with cairn.open() as ws:
        ws.add_collection(root, name="notes")
        ws.index()
    yield root


def churn(folder: Path, ops: int, seconds: float, seed: int = 16) -> dict[str, int]:
    """``ops`` random edits, creates, deletes, renames and atomic saves over ``seconds``."""
    rng = random.Random(seed)
    done: dict[str, int] = {}
    (folder / "sub").mkdir(exist_ok=True)
    pause = seconds / ops
    for op in range(ops):
        files = sorted(p for p in folder.rglob("*.md"))
        kind = rng.choices(["create", "edit", "atomic", "rename", "delete"], [25, 30, 20, 15, 10])[0]
        if len(files) < 5:
            kind = "create"
        target = rng.choice(files)
        body = f"# Note {op}\n\nop {op} writes token w{op}x and {rng.random()}\n"
        if kind == "create":
            where = folder / "sub" if rng.random() < 0.3 else folder
            (where / f"new{op}.md").write_text(body)
        elif kind == "edit":
            with target.open("a") as handle:
                handle.write(f"\nappended by op {op}\n")
        elif kind == "atomic":  # write a temporary file, then rename it over the note
            tmp = target.with_name(f".{target.name}.tmp{op}")
            tmp.write_text(body)
            os.replace(tmp, target)
        elif kind == "rename":
            os.rename(target, target.with_name(f"renamed{op}.md"))
        else:
            target.unlink()
        done[kind] = done.get(kind, 0) + 1
        time.sleep(pause)
    return done


def _watch_run(folder: Path, ops: int, seconds: float) -> None:
    proc = start_daemon("--debounce", "400")
    try:
        with cairn.open() as ws:
            # The first heartbeat is written once the watcher is in place.
            wait_for(lambda: ws.runtime_status().state == "running", timeout=30)
        done = churn(folder, ops, seconds)
        assert set(done) == {"create", "edit", "atomic", "rename", "delete"}
        assert converge(folder) == []
        with cairn.open() as ws:
            status = ws.runtime_status()
        assert status.state == "running" and status.jobs["failed"] == 0 and status.last_error is None
    finally:
        stop_daemon(proc)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    with cairn.open() as ws:
        assert ws.runtime_status().state == "stopped"


def test_a_running_daemon_indexes_every_change(folder: Path) -> None:
    _watch_run(folder, ops=40, seconds=8)


@pytest.mark.slow
def test_a_running_daemon_indexes_200_changes_over_a_minute(folder: Path) -> None:
    _watch_run(folder, ops=200, seconds=60)


def test_killed_mid_job_the_daemon_resumes_and_nothing_is_half_indexed(tmp_path: Path) -> None:
    root = tmp_path / "bulk"
    root.mkdir()
    with cairn.open() as ws:
        ws.add_collection(root, name="notes")  # not indexed: the daemon's first job is long
    for n in range(1500):
        (root / f"n{n:04d}.md").write_text(f"# Note {n}\n\nbulk note {n} about item{n}\n\n" + "filler words " * 40)
    proc = start_daemon("--debounce", "200")
    try:
        with cairn.open() as ws:
            wait_for(lambda: ws.runtime_status().jobs["running"] == 1, timeout=60)
            wait_for(lambda: ws.status().documents > 0, timeout=60)
            partial = ws.status().documents
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert partial < 1500, "the job finished before the kill; make it longer"
    with cairn.open() as ws:
        assert ws.runtime_status().jobs["running"] == 1  # left running by the dead process
        assert ws.runtime_status().state in ("running", "stopped")
    proc = start_daemon("--debounce", "200")
    try:
        assert converge(root, timeout=120) == []
        with cairn.open() as ws:
            status = ws.runtime_status()
            assert status.jobs["running"] == 0 and status.jobs["queued"] == 0 and status.jobs["failed"] == 0
            assert ws.status().last_run.status == "completed"  # type: ignore[union-attr]
            assert ws.search("item1499").results
    finally:
        stop_daemon(proc)
