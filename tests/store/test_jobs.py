"""The runtime's state in the store (issue 16): job queue, heartbeat, event log.

Backend contract tests, parametrised by ``store_backend`` like ``test_contract.py``.
"""

from __future__ import annotations

import threading
from typing import Any

from cairn.store.protocol import Store
from tests.store.conftest import OpenStore


def _union(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    return {"paths": sorted(set(old["paths"]) | set(new["paths"]))}


def test_jobs_run_in_order_and_record_their_outcome(store: Store) -> None:
    first = store.enqueue_job("index", {"collection": "notes", "paths": ["a.md"]})
    second = store.enqueue_job("embed", {"collection": "notes"})
    assert store.job_counts() == {"queued": 2, "running": 0, "done": 0, "failed": 0}
    assert store.oldest_pending_at() is not None
    job = store.claim_job()
    assert job is not None and job.id == first and job.state == "running" and job.attempts == 1
    assert job.payload == {"collection": "notes", "paths": ["a.md"]} and job.started_at
    store.finish_job(job.id)
    job = store.claim_job()
    assert job is not None and job.id == second
    store.finish_job(job.id, error="model missing")
    assert store.claim_job() is None
    assert store.job_counts() == {"queued": 0, "running": 0, "done": 1, "failed": 1}
    assert store.oldest_pending_at() is None
    failed = store.jobs("failed")
    assert [(j.id, j.error) for j in failed] == [(second, "model missing")] and failed[0].finished_at
    assert [j.id for j in store.jobs()] == [second, first]  # latest first


def test_a_queued_job_with_the_same_key_absorbs_a_new_one(store: Store) -> None:
    first = store.enqueue_job("index", {"paths": ["a.md"]}, key="notes", merge=_union)
    again = store.enqueue_job("index", {"paths": ["b.md", "a.md"]}, key="notes", merge=_union)
    other = store.enqueue_job("index", {"paths": ["c.md"]}, key="work", merge=_union)
    assert again == first and other != first
    job = store.claim_job()
    assert job is not None and job.payload == {"paths": ["a.md", "b.md"]}
    # A running job absorbs nothing: a change seen while it runs gets a job of its own.
    later = store.enqueue_job("index", {"paths": ["d.md"]}, key="notes", merge=_union)
    assert later not in (first, other)


def test_a_retried_job_goes_back_to_the_queue_with_its_error(store: Store) -> None:
    job_id = store.enqueue_job("index", {})
    job = store.claim_job()
    assert job is not None
    store.finish_job(job_id, error="busy", retry=True)
    again = store.claim_job()
    assert again is not None and again.id == job_id and again.attempts == 2 and again.error == "busy"


def test_a_graceful_stop_requeues_without_counting_the_attempt(store: Store) -> None:
    job_id = store.enqueue_job("reverify", {"docids": ["d1"]})
    assert store.claim_job() is not None
    store.requeue_job(job_id)
    job = store.claim_job()
    assert job is not None and job.id == job_id and job.attempts == 1


def test_jobs_left_running_by_a_dead_process_resume(open_store: OpenStore) -> None:
    crashed = open_store("index")
    a = crashed.enqueue_job("index", {"paths": ["a.md"]})
    b = crashed.enqueue_job("index", {"paths": ["b.md"]})
    assert crashed.claim_job() is not None  # a: running when the process "dies"
    crashed.close()
    store = open_store("index")
    assert store.job_counts()["running"] == 1
    assert store.requeue_running(max_attempts=3) == (1, 0)
    assert [j.id for j in store.jobs("queued")] == [a, b]
    # A job that killed the runtime on each of its attempts is failed, not retried forever.
    job = store.claim_job()  # second attempt, and the process dies again
    assert job is not None and job.id == a and job.attempts == 2
    assert store.requeue_running(max_attempts=3) == (1, 0)
    job = store.claim_job()
    assert job is not None and job.id == a and job.attempts == 3
    assert store.requeue_running(max_attempts=3) == (0, 1)
    failed = store.jobs("failed")
    assert [j.id for j in failed] == [a] and "3 attempts" in (failed[0].error or "")


def test_finished_jobs_are_pruned_by_count(store: Store) -> None:
    for n in range(5):
        store.enqueue_job("embed", {"n": n})
        job = store.claim_job()
        assert job is not None
        store.finish_job(job.id)
    pending = store.enqueue_job("embed", {"n": 5})
    assert store.prune_jobs(keep=2) == 3
    assert [j.payload["n"] for j in store.jobs()] == [5, 4, 3]
    assert store.jobs("queued")[0].id == pending


def test_two_claimers_never_get_the_same_job(open_store: OpenStore) -> None:
    one, two = open_store("index"), open_store("index")
    for n in range(40):
        one.enqueue_job("index", {"n": n})
    got: list[int] = []
    lock = threading.Lock()

    def drain(store: Store) -> None:
        while (job := store.claim_job()) is not None:
            with lock:
                got.append(job.id)
            store.finish_job(job.id)

    threads = [threading.Thread(target=drain, args=(s,)) for s in (one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == sorted(set(got)) and len(got) == 40


def test_the_heartbeat_is_one_row_and_a_stop_is_recorded(store: Store) -> None:
    assert store.heartbeat() is None
    store.beat(101, "2026-01-01T00:00:00.000Z", 0, None)
    store.beat(101, "2026-01-01T00:00:00.000Z", 1500, "index job 3 failed")
    beat = store.heartbeat()
    assert beat is not None and (beat.pid, beat.lag_ms, beat.last_error, beat.stopped_at) == (
        101, 1500, "index job 3 failed", None)
    store.mark_stopped(999)  # another pid: not this runtime
    assert store.heartbeat().stopped_at is None  # type: ignore[union-attr]
    store.mark_stopped(101)
    assert store.heartbeat().stopped_at is not None  # type: ignore[union-attr]
    store.beat(202, "2026-01-02T00:00:00.000Z", 0, None)  # a new runtime clears the stop
    beat = store.heartbeat()
    assert beat is not None and beat.pid == 202 and beat.stopped_at is None


def test_events_have_monotonic_ids_survive_reopening_and_are_pruned(open_store: OpenStore) -> None:
    store = open_store("index")
    ids = [store.append_event("index.changed", {"n": n}, keep=3).id for n in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    assert [e.data["n"] for e in store.events_after(0)] == [2, 3, 4]
    assert store.first_event_id() == ids[2]
    assert [e.id for e in store.events_after(ids[3])] == [ids[4]]
    store.close()
    again = open_store("index")
    later = again.append_event("heartbeat", {}, keep=3)
    assert later.id > ids[-1]  # ids are never reused, even after pruning
    assert [e.kind for e in again.events_after(ids[4])] == ["heartbeat"]


def test_the_journal_position_follows_index_runs(store: Store) -> None:
    from tests.store.conftest import document, write

    assert store.journal_position() == 0
    notes = store.add_collection("notes", "/tmp/notes", ["**/*.md"], [], None)
    write(store, notes, document("a.md", "A", ["alpha"]), document("b.md", "B", ["beta"]))
    position = store.journal_position()
    assert position >= 2 and [c.seq for c in store.changes(0)][-1] == position
