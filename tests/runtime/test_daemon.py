"""The resident runtime in-process: real watcher (inotify), real index, real store."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import BusyError
from cairn.runtime.daemon import Runtime, RuntimeSettings
from cairn.runtime.events import EventBus

FAST = RuntimeSettings(heartbeat_s=0.3, step_ms=50, debounce_ms=400, retry_backoff_s=0.05)


def wait_for(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "alpha.md").write_text("# Alpha\n\nThe first note mentions zeppelins.\n")
    with cairn.open() as ws:
        ws.add_collection(root, name="notes")
        ws.index()
    return root


@pytest.fixture
def running(folder: Path) -> Iterator[tuple[Runtime, Any]]:
    """A started runtime (its own Workspace) and a second Workspace to read with."""
    worker, reader = cairn.open(), cairn.open()
    runtime = worker.runtime(settings=FAST, bus=EventBus())
    runtime.start()
    assert runtime.wait_watching() and runtime.wait_idle()
    try:
        yield runtime, reader
    finally:
        runtime.stop()
        worker.close()
        reader.close()


def paths(reader: Any) -> list[str]:
    return sorted(d.path for d in reader.ls("notes").documents)


def test_a_saved_file_becomes_searchable_and_an_event_follows_the_commit(
    running: tuple[Runtime, Any], folder: Path,
) -> None:
    _, reader = running
    (folder / "beta.md").write_text("# Beta\n\nA note about gyroscopes.\n")
    wait_for(lambda: bool(reader.search("gyroscopes").results))
    # Atomic save: a temporary file renamed over the note.
    tmp = folder / ".alpha.md.tmp"
    tmp.write_text("# Alpha\n\nNow about dirigibles.\n")
    os.replace(tmp, folder / "alpha.md")
    wait_for(lambda: bool(reader.search("dirigibles").results))
    assert not reader.search("zeppelins").results
    assert paths(reader) == ["alpha.md", "beta.md"]

    def announced() -> set[str]:  # the event follows the commit: it may come a moment later
        return {d for e in reader.runtime_events().events if e.kind == "index.changed"
                for d in e.data["docids"]}  # type: ignore[attr-defined]

    wait_for(lambda: {d.docid for d in reader.ls("notes").documents} <= announced())
    events = reader.runtime_events().events
    assert all(e.data["collection"] == "notes" for e in events if e.kind == "index.changed")
    assert [e.id for e in events] == sorted(e.id for e in events)


def test_renames_and_folder_deletes_are_reconciled(running: tuple[Runtime, Any], folder: Path) -> None:
    runtime, reader = running
    sub = folder / "sub"
    sub.mkdir()
    (sub / "one.md").write_text("# One\n\nkumquat\n")
    (sub / "two.md").write_text("# Two\n\nloquat\n")
    wait_for(lambda: paths(reader) == ["alpha.md", "sub/one.md", "sub/two.md"])
    docid = reader.get("notes/sub/one.md").docid
    os.rename(sub / "one.md", folder / "uno.md")
    wait_for(lambda: paths(reader) == ["alpha.md", "sub/two.md", "uno.md"])
    assert reader.get("notes/uno.md").docid == docid  # a rename keeps the docid
    os.rename(sub, folder.parent / "outside")  # a whole folder moves away
    wait_for(lambda: paths(reader) == ["alpha.md", "uno.md"])
    (folder / "ignored.tmp").write_text("not indexed")
    time.sleep(0.3)
    assert runtime.wait_idle() and paths(reader) == ["alpha.md", "uno.md"]


def test_status_shows_the_runtime_and_a_stopped_one(folder: Path) -> None:
    worker, reader = cairn.open(), cairn.open()
    try:
        assert reader.status().runtime.state == "never"  # type: ignore[union-attr]
        runtime = worker.runtime(settings=FAST)
        runtime.start()
        status = reader.runtime_status()
        assert status.state == "running" and status.pid == os.getpid() and status.lag_ms is not None
        with pytest.raises(BusyError):  # one runtime per index
            cairn.open().runtime(settings=FAST).start()
        runtime.stop()
        status = reader.status().runtime
        assert status is not None and status.state == "stopped"
    finally:
        worker.close()
        reader.close()


def test_a_failing_job_is_retried_then_failed_visibly(folder: Path) -> None:
    calls: list[Sequence[str]] = []

    def reverify(docids: Sequence[str]) -> list[dict[str, Any]]:
        calls.append(docids)
        if len(calls) == 1:
            raise OSError("capsule file unreadable")
        return [{"name": "saved", "status": "stale", "docids": list(docids)}]

    worker, reader = cairn.open(), cairn.open()
    runtime = worker.runtime(settings=FAST, reverify=reverify)
    runtime.start()
    try:
        assert runtime.wait_idle()
        (folder / "beta.md").write_text("# Beta\n\nquince\n")
        wait_for(lambda: any(e.kind == "capsule.reverified" for e in reader.runtime_events().events))
        kinds = [e.kind for e in reader.runtime_events().events]
        assert kinds.index("index.changed") < kinds.index("capsule.reverified")
        assert len(calls) == 2  # the OSError was retried
        runtime._ports = runtime._ports.__class__(  # a reverify that always fails
            index=runtime._ports.index, reverify=lambda d: (_ for _ in ()).throw(ValueError("bad capsule")))
        (folder / "gamma.md").write_text("# Gamma\n\nmedlar\n")
        wait_for(lambda: any(e.kind == "job.failed" for e in reader.runtime_events().events), timeout=30)
        wait_for(lambda: "bad capsule" in (reader.runtime_status().last_error or ""))
        failed = reader.runtime_status()
        assert failed.jobs["failed"] == 1 and failed.failed_jobs[0].kind == "reverify"
        assert failed.failed_jobs[0].attempts == 3 and failed.state == "running"
    finally:
        runtime.stop()
        worker.close()
        reader.close()


def test_a_stop_mid_embed_puts_the_job_back_for_the_next_runtime(folder: Path) -> None:
    import threading

    from cairn.runtime.daemon import RuntimePorts
    from cairn.store import open_store

    embedding = threading.Event()

    def embed(collection: str, progress: Callable[[int, int], None]) -> Any:
        embedding.set()
        for done in range(2000):  # batches of a long embed; each one committed
            time.sleep(0.005)
            progress(done, 2000)
        raise AssertionError("the stop did not interrupt the embed job")

    worker, reader = cairn.open(), cairn.open()
    try:
        ports = RuntimePorts(index=lambda name, paths, progress: worker.index(name, paths=paths),
                             embed=embed, has_vectors=lambda: True)
        runtime = Runtime(open_store(worker.index_path), ports, FAST)
        runtime.start()
        (folder / "beta.md").write_text("# Beta\n\nsloe\n")
        assert embedding.wait(15)
        runtime.stop()
        status = reader.runtime_status()
        assert status.state == "stopped" and status.jobs["queued"] >= 1 and status.jobs["running"] == 0
        # The next runtime takes it up again (this embed port finishes at once).
        calls: list[str] = []
        again = Runtime(open_store(worker.index_path), RuntimePorts(
            index=ports.index, embed=lambda name, progress: calls.append(name), has_vectors=lambda: True), FAST)
        again.start()
        # (Under load the watcher may have seen the note in two batches: a second embed
        # job of the same collection, which is fine; the resumed one runs first.)
        assert again.wait_idle() and calls[:1] == ["notes"] and set(calls) == {"notes"}
        assert reader.runtime_status().jobs["queued"] == 0
        again.stop()
    finally:
        worker.close()
        reader.close()


def test_an_edit_reverifies_the_saved_capsules_citing_it_and_names_the_journal_cursor(
    running: tuple[Runtime, Any], folder: Path,
) -> None:
    """The runtime's ports are connected to the knowledge delta: after an index job, the
    saved capsules citing a changed document are reverified (a receipt, an event), and
    ``index.changed`` carries the cursor ``changes`` accepts."""
    _, reader = running
    capsule = reader.context_build("zeppelins", budget_tokens=200)
    reader.context_save("watched", capsule)
    (folder / "alpha.md").write_text("# Alpha\n\nThe first note now mentions balloons.\n")

    def receipts() -> list[Any]:
        return [r for r in reader.context_receipts("watched").receipts if r.status == "stale"]

    wait_for(lambda: bool(receipts()))
    wait_for(lambda: any(e.kind == "capsule.reverified" for e in reader.runtime_events().events))
    changed = [e for e in reader.runtime_events().events if e.kind == "index.changed"]
    feed = reader.changes(changed[-1].data["cursor"])  # type: ignore[attr-defined]
    assert feed.changes == [] and feed.cursor == changed[-1].data["cursor"]  # type: ignore[attr-defined]
