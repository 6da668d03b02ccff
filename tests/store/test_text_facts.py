"""Token counts and word stems stored with each text a plan may hand over
(:mod:`cairn.memory.facts`, table ``text_facts``, migration 13): written with memory
records and passages, filled for stores written before, and read by a plan instead of
computed, with the same plans either way."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cairn
from cairn.memory.facts import (
    TextFacts,
    counts_of,
    facts_rows,
    known_facts,
    passage_forms,
    record_forms,
    stems_of,
    text_stems,
)
from cairn.memory.texts import text_hash
from cairn.models.tokens import budget_token_counter
from tests.conftest import EXAMPLES

TASKS = ("when are deploys frozen on Fridays", "backup schedule retention", "how do we rotate the keys")


def _facts_of(text: str) -> TextFacts:
    counter = budget_token_counter()
    return TextFacts(counter.name, counter.count([text])[0], " ".join(sorted(text_stems(text))))


# --- pure pieces ------------------------------------------------------------------------------

_TEXT = st.text(st.sampled_from("aAbé Σσς1_-.\n\tİß日本"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_the_stems_of_title_and_body_are_the_stems_of_both(title: str, body: str) -> None:
    """A passage's coverage reads the stems of ``title\\nbody`` as the union of the two."""
    assert text_stems(f"{title}\n{body}") == text_stems(title) | text_stems(body)


@settings(max_examples=200, deadline=None)
@given(st.lists(_TEXT, max_size=6))
def test_facts_rows_read_back_as_computed(texts: list[str]) -> None:
    counter = budget_token_counter()
    rows = facts_rows(texts, counter)
    stored = {h: TextFacts(name, tokens, stems) for h, name, tokens, stems in rows}
    assert len(rows) == len(set(texts))
    known = known_facts(lambda hashes: stored, counter.name, texts)
    assert all(k is not None for k in known)
    assert counts_of(counter, texts, known) == counter.count(texts)
    assert stems_of(texts, known) == [text_stems(t) for t in texts]


def test_facts_of_another_counter_or_unknown_texts_are_computed() -> None:
    counter = budget_token_counter()
    texts = ["Deploys are frozen on Fridays.", "unknown text here"]
    stale = {text_hash(texts[0]): TextFacts("another-counter", 999, "bogus")}
    known = known_facts(lambda hashes: stale, counter.name, texts)
    assert known == [None, None]
    assert counts_of(counter, texts, known) == counter.count(texts)
    mine = {text_hash(texts[0]): TextFacts(counter.name, 999, "x y")}
    mixed = known_facts(lambda hashes: mine, counter.name, texts)
    assert known_facts(None, counter.name, texts) == [None, None]
    assert counts_of(counter, texts, mixed) == [999, counter.count([texts[1]])[0]]
    assert stems_of(texts, mixed) == [frozenset({"x", "y"}), text_stems(texts[1])]
    assert TextFacts(counter.name, 0, "").stem_set() == frozenset()


# --- written with the text -------------------------------------------------------------------


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CAIRN_USER", "ada")
    monkeypatch.chdir(tmp_path)  # not a git checkout: no git facts
    notes = tmp_path / "notes"
    shutil.copytree(EXAMPLES, notes)
    with cairn.open() as workspace:
        workspace.add_collection(notes, name="notes")
        workspace.index()
        workspace.memory_add("Deploy freeze", "Deploys are frozen on Fridays after 15:00.", type="decision",
                             project="demo", source="manual", facts=["Hotfixes need two reviews."])
        workspace.memory_add("Backups", "Nightly snapshots, kept for 30 days; keys rotate monthly.",
                             type="gotcha", project="demo", source="manual")
        workspace.memory_add(subject="deploy window", predicate="closes at", object="15:00", project="demo",
                             source="manual")
        yield workspace


def _plans(ws: Any) -> list[str]:
    return [ws.plan(task, budget=budget, project="demo", collections=["notes"], explain=explain).model_dump_json()
            for task in TASKS for budget in (200, 800) for explain in (False, True)]


def test_records_and_passages_are_written_with_their_facts(ws: Any) -> None:
    store = ws._open_store(False)
    for record in store.memory_list(None):
        for text in record_forms(record)[1:]:
            assert store.text_facts([text_hash(text)])[text_hash(text)] == _facts_of(text)
    bodies = [row[0] for row in store.conn.execute("SELECT body FROM passages_fts")]
    assert bodies
    for body in bodies:
        for text in passage_forms(body):
            assert store.text_facts([text_hash(text)])[text_hash(text)] == _facts_of(text)


def test_a_store_of_the_old_schema_is_filled_and_plans_the_same(ws: Any) -> None:
    before = _plans(ws)
    store = ws._open_store(False)
    stored = dict(store.conn.execute("SELECT hash, tokens || '|' || stems FROM text_facts").fetchall())
    path = Path(store.path)
    ws.close()
    conn = sqlite3.connect(path)
    with conn:  # back to migration 12: no facts
        conn.executescript("DROP TABLE text_facts; DELETE FROM migrations WHERE version = 13;")
    conn.close()
    with cairn.open() as old:
        upgraded = old._open_store(False)
        assert upgraded.schema_version == 13
        assert dict(upgraded.conn.execute("SELECT hash, tokens || '|' || stems FROM text_facts").fetchall()) == stored
        assert _plans(old) == before


def test_plans_read_the_stored_facts_and_are_the_same_without_them(ws: Any) -> None:
    before = _plans(ws)
    store = ws._open_store(False)
    with store.transaction():  # the plan reads the stored counts (a test of the read path only)
        store.conn.execute("UPDATE text_facts SET tokens = tokens + 1000")
    _, pool, _ = ws._plans.plan_candidates(TASKS[1], project="demo", collections=["notes"])
    assert {c.kind for c in pool} == {"observation", "passage"}
    assert all(c.tokens > 1000 and c.compact_tokens > 1000 for c in pool)
    with store.transaction():
        store.conn.execute("UPDATE text_facts SET counter = 'another-counter', tokens = 1, stems = 'bogus'")
    assert _plans(ws) == before
    with store.transaction():
        store.conn.execute("DELETE FROM text_facts")
    assert _plans(ws) == before
