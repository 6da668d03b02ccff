"""A plan recalls memory on a helper thread while its passages are ranked: the first call
of a fresh workspace opens (and migrates) the index once, and plans stay the same."""

from __future__ import annotations

import sqlite3
from typing import Any

import cairn


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
    assert started and len(started) <= 4  # one pool per process, four workers at most
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
    assert len(helpers()) <= 4
