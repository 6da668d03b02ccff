"""Memory's BM25 inputs (:class:`~cairn.store.protocol.MemoryTermIndex`) and the scorer
over them (:class:`cairn.memory.bm25.MemoryBM25`): the same scores, bit for bit, and the
same order as the store's own memory BM25, through writes, revisions and archiving."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from cairn.memory.bm25 import MemoryBM25
from cairn.store.protocol import Store
from cairn.text.query import parse_query
from tests.store.test_memory import claim, obs

QUERIES = (
    "wal", "readers wait writer", "files file filing", "git-commit message", "snap*", "Use WAL mode backups",
    "storage fact", "nightly snapshot of the WAL file team rule", "db is postgres", "nothing-matches-here xyz",
    "résumé cafe", "writer writers writing wrote", '"wal mode" readers',
)

TEXTS = (
    ("Use WAL mode", "SQLite in WAL mode lets readers run during writes; readers never wait for the writer"),
    ("Backups", "nightly snapshot of the WAL file, kept for a week"),
    ("Team rule", "WAL everywhere, files and file systems alike"),
    ("Commit messages", "a git-commit message says why; git commit --amend fixes the last one"),
    ("Snapshots", "snapshot files are filed under snap/ by the writer"),
    ("Résumé", "the café resume of the writer's writing: writers wrote"),
)


def _write(store: Store) -> None:
    records = [(obs(f"obs_{n}", title, body, project="p2" if n % 3 == 2 else "p1",
                    visibility="team" if n == 2 else "project"), "created")
               for n, (title, body) in enumerate(TEXTS)]
    store.memory_write([*records, (claim("clm_1", "postgres"), "created"), (claim("clm_2", "sqlite"), "created")])


def _same(store: Store, scorer: MemoryBM25, *, include_archived: bool = False) -> int:
    """Asserts scorer == store.memory_search on every query; returns how many matched."""
    allowed = {r.id for r in store.memory_list(["p1"], include_archived=include_archived)}
    version = store.memory_version()
    seen = 0
    for text in QUERIES:
        parsed = parse_query(text, strict=False)
        expected = [(rid, score) for rid, score in store.memory_search(parsed, ["p1"], 100,
                                                                       include_archived=include_archived)
                    if rid in allowed]
        ranked = scorer.rank(store, version, parsed, allowed, 100)
        assert ranked == expected, text  # ids, order and float scores exactly
        seen += len(ranked)
        assert scorer.rank(store, version, parsed, allowed, 2) == expected[:2]
    return seen


def test_scores_equal_the_store_bm25(store: Store) -> None:
    _write(store)
    scorer = MemoryBM25()
    assert _same(store, scorer) > 10
    # a revision changes a record's tokens and the index's statistics
    revised = dataclasses.replace(store.memory_records(["obs_0"])["obs_0"], narrative="files of the writer only",
                                  revision=2)
    store.memory_write([(revised, "revised")])
    assert _same(store, scorer) > 10
    archived = dataclasses.replace(store.memory_records(["obs_4"])["obs_4"], status="archived")
    store.memory_write([(archived, "archived")])
    assert _same(store, scorer) > 5
    assert _same(store, scorer, include_archived=True) > 5


def test_queries_not_plain_or_are_left_to_the_store(store: Store) -> None:
    _write(store)
    scorer = MemoryBM25()
    for text in ('"wal mode" readers', "wal -backups"):
        parsed = parse_query(text)  # a required phrase, an exclusion
        assert store.memory_query_phrases(parsed) is None
        assert scorer.rank(store, store.memory_version(), parsed, {"obs_0"}, 10) is None
    phrases = store.memory_query_phrases(parse_query("Files git-commit snap*", strict=False))
    assert phrases == [('"Files"', "file"), ('"git commit"', None), ('"snap"*', None)]


def test_migration_fills_the_terms_of_existing_records(tmp_path: Path) -> None:
    from cairn.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "index.sqlite")
    _write(store)
    before = {t: store.memory_postings(t) for t in ("wal", "file", "writer", "postgr", "snapshot")}
    rows = store.memory_term_rows()
    store.close()
    conn = sqlite3.connect(tmp_path / "index.sqlite")
    with conn:  # back to migration 10: no terms
        conn.executescript("DROP TABLE memory_terms; DROP TABLE memory_lengths;"
                           " DELETE FROM migrations WHERE version = 11;")
    conn.close()
    upgraded = SQLiteStore(tmp_path / "index.sqlite")
    assert {t: upgraded.memory_postings(t) for t in before} == before
    assert upgraded.memory_term_rows() == rows
    assert before["wal"][0] and before["file"][1]
    assert _same(upgraded, MemoryBM25()) > 10


def test_postings_text_is_exact_either_way(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Postings come as decimal text: integer text for whole column weights, else each
    frequency's round-trip repr; the same numbers, and the same doc order, both ways."""
    import numpy as np

    from cairn.store.sqlite import memory_terms

    _write(store)
    assert memory_terms.WHOLE_WEIGHTS
    tokens = ("wal", "file", "writer", "postgr", "snapshot", "absent")
    whole = {t: store.memory_postings(t) for t in tokens}
    monkeypatch.setattr(memory_terms, "WHOLE_WEIGHTS", False)
    general = {t: store.memory_postings(t) for t in tokens}
    assert whole["absent"] == general["absent"] == ("", "")
    for t in tokens[:-1]:
        assert whole[t][0] == general[t][0] and whole[t][0]
        assert np.array_equal(np.fromstring(whole[t][1], dtype=np.float64, sep=","),
                              np.fromstring(general[t][1], dtype=np.float64, sep=","))
    assert _same(store, MemoryBM25()) > 10  # the scorer over the general form: FTS5's scores still
