"""A plan recalls memory on a helper thread while its passages are ranked: the first call
of a fresh workspace opens (and migrates) the index once, and plans stay the same."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

import cairn
from cairn.memory.plan_service import HELPERS
from tests.conftest import needs_minilm


def test_first_call_of_a_fresh_workspace_is_a_plan(mws: Any) -> None:
    mws.memory_add("Sessions live in Redis", "The app keeps user sessions in Redis, not in the database.",
                   type="decision", files=["src/app.py"])
    mws.memory_add("Cache warm-up", "Warm the template cache before the first request.", type="gotcha")
    expected = mws.plan("where are sessions stored", budget=800, explain=True).model_dump_json()
    path = mws.index_path
    mws.close()
    for _ in range(3):
        conn = sqlite3.connect(path)
        with conn:  # back to the schema before migration 11: the first open migrates
            conn.executescript("DROP TABLE memory_terms; DROP TABLE memory_lengths;"
                               " DELETE FROM migrations WHERE version = 11;")
        conn.close()
        fresh = cairn.open()
        try:
            assert fresh.plan("where are sessions stored", budget=800, explain=True).model_dump_json() == expected
            assert fresh.plan("where are sessions stored", budget=800, explain=True).model_dump_json() == expected
        finally:
            fresh.close()



def test_helper_threads_are_kept_between_plans_and_workspaces(mws: Any) -> None:
    import threading

    def helpers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name.startswith("cairn-plan")}

    mws.memory_add("Sessions live in Redis", "The app keeps user sessions in Redis.", type="decision")
    expected = mws.plan("where are sessions stored", budget=800, explain=True).model_dump_json()
    started = helpers()
    assert started and len(started) <= HELPERS  # one pool per process, six workers at most
    for _ in range(3):  # later plans reuse them, with the same result
        assert mws.plan("where are sessions stored", budget=800, explain=True).model_dump_json() == expected
    path = mws.index_path
    mws.close()
    again = cairn.open()  # another workspace of the process: the same pool
    try:
        assert again.index_path == path
        assert again.plan("where are sessions stored", budget=800, explain=True).model_dump_json() == expected
    finally:
        again.close()
    assert len(helpers()) <= HELPERS


@needs_minilm
def test_the_task_is_embedded_once_and_early_with_the_same_plan(mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan starts the task's embedding on a helper before the passages' run and the
    recall ask for it: one query embedding per plan, and the same plan as without the
    early start."""
    from cairn.memory.plan_service import PlanService

    mws.memory_add("Database choice", "We keep every order in PostgreSQL with nightly backups.", source="manual")
    mws.memory_add("Lunch", "The team likes the noodle place on Fridays.", source="manual")
    mws.embed()
    task = "which relational store holds purchases"
    mws.plan(task, budget=200)  # models loaded
    embedder = mws.models.embedder()
    calls: list[str] = []
    original = type(embedder).embed

    def counted(self: Any, texts: Any, *, kind: str = "passage") -> Any:
        calls.append(kind)
        return original(self, texts, kind=kind)

    monkeypatch.setattr(type(embedder), "embed", counted)
    early = mws.plan(task, budget=200, explain=True).model_dump_json()
    assert calls == ["query"]
    monkeypatch.setattr(PlanService, "_embed_early", lambda *args: None)
    assert mws.plan(task, budget=200, explain=True).model_dump_json() == early
