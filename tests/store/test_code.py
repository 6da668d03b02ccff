"""The code-graph store contract: snapshots, manifests, symbols, edges, facts, retention."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cairn.code.model import Coverage, Edge, FileEntry, FileFacts, SnapshotWrite, Symbol, SymbolFact
from cairn.errors import StoreError
from cairn.store.protocol import Store
from tests.store.conftest import OpenStore


def snapshot(root: str, n: int, *, complete: bool = True) -> SnapshotWrite:
    facts = FileFacts("parsed", symbols=(SymbolFact("f", "function", 1, 2, "s", f"b{n}"),), lines=2)
    return SnapshotWrite(
        root=root, git_revision="abc" if n % 2 else None, fingerprint=f"fp{n}", complete=complete,
        reason="" if complete else "walk stopped",
        coverage=(Coverage("python", 1, 0, (("x.bin.py", "binary content"),), ("import",), {"import": "exact"}),),
        files=(FileEntry("a.py", 10, 5, f"h{n}", "python", "parsed"),
               FileEntry("x.bin.py", 3, 5, f"x{n}", "python", "skipped", "binary content")),
        symbols=(Symbol("a", "", "module", "a.py", 1, 2, "", f"h{n}"),
                 Symbol("a.f", "f", "function", "a.py", 1, 2, "s", f"b{n}")),
        edges=(Edge("import", "a", "b", "a.py", 1), Edge("call", "a.f", "b.g", "a.py", 2)),
        new_facts={f"python/1/h{n}": ("python", f"h{n}", facts)},
    )


def test_a_snapshot_round_trips(store: Store) -> None:
    written = store.write_code_snapshot(snapshot("/p", 1), keep=5)
    assert (written.root, written.git_revision, written.complete) == ("/p", "abc", True)
    assert (written.files, written.symbols, written.edges) == (2, 2, 2)
    loaded = store.code_snapshot(written.id)
    assert loaded is not None and loaded.coverage[0].files_skipped == (("x.bin.py", "binary content"),)
    assert loaded.coverage[0].confidence == {"import": "exact"}
    assert store.code_snapshot(written.id + 100) is None
    assert [f.path for f in store.code_files(written.id)] == ["a.py", "x.bin.py"]
    assert store.code_files(written.id)[1].reason == "binary content"
    assert [s.qualname for s in store.code_symbols(written.id)] == ["a", "a.f"]
    assert [s.qualname for s in store.code_symbols(written.id, path="a.py")] == ["a", "a.f"]
    assert [s.qualname for s in store.code_symbols(written.id, qualnames=["a.f", "zz"])] == ["a.f"]
    assert [s.qualname for s in store.code_symbols(written.id, paths=["a.py", "zz.py", "a.py"])] == ["a", "a.f"]
    assert store.code_symbols(written.id, paths=[]) == []
    assert set(store.code_edges(written.id)) == set(snapshot("/p", 1).edges)
    cached = store.code_facts(["python/1/h1", "python/1/none"])
    assert list(cached) == ["python/1/h1"] and cached["python/1/h1"].symbols[0].body_hash == "b1"


def test_retention_keeps_the_newest_per_root_and_the_facts_they_use(store: Store) -> None:
    other = store.write_code_snapshot(snapshot("/other", 0), keep=2)
    ids = [store.write_code_snapshot(snapshot("/p", n), keep=2).id for n in range(1, 5)]
    assert [s.id for s in store.code_snapshots("/p")] == ids[:1:-1]
    assert [s.id for s in store.code_snapshots()] == [*ids[:1:-1], other.id]
    assert store.code_files(ids[0]) == [] and store.code_edges(ids[0]) == []
    assert store.code_symbols(ids[0]) == []
    assert set(store.code_facts([f"python/1/h{n}" for n in range(5)])) == {
        "python/1/h0", "python/1/h3", "python/1/h4"}


def test_an_incomplete_snapshot_keeps_its_reason(open_store: OpenStore) -> None:
    store = open_store("index")
    written = store.write_code_snapshot(snapshot("/p", 1, complete=False), keep=3)
    assert (written.complete, written.reason) == (False, "walk stopped")
    reopened = open_store("index")
    assert reopened.code_snapshots("/p")[0].reason == "walk stopped"


def test_incremental_copies_and_edge_queries(store: Store) -> None:
    first = store.write_code_snapshot(snapshot("/p", 1), keep=5)
    assert store.code_file(first.id, "a.py") is not None and store.code_file(first.id, "zz.py") is None
    assert store.code_edges_into(first.id, ["b", "b.g", "zz"]) == {
        "b": [Edge("import", "a", "b", "a.py", 1)], "b.g": [Edge("call", "a.f", "b.g", "a.py", 2)]}
    assert store.code_importers(first.id, ["b", "c"]) == {"a.py"}
    base = snapshot("/p", 2)
    copied = SnapshotWrite(
        root=base.root, git_revision=None, fingerprint="fp", complete=True, reason="", coverage=(),
        files=(*base.files, FileEntry("x.py", 4, 5, "hx", "python", "parsed")), symbols=(),
        edges=(Edge("import", "x", "y", "x.py", 1),),
        copy_from=first.id, copy_symbols=("a.py",), copy_edges=("a.py",),
    )
    second = store.write_code_snapshot(copied, keep=5)
    assert (second.symbols, second.edges) == (2, 3)
    assert {s.qualname for s in store.code_symbols(second.id)} == {"a", "a.f"}
    stray = SnapshotWrite(root="/p", git_revision=None, fingerprint="fp", complete=True, reason="", coverage=(),
                          files=base.files, symbols=(), edges=(Edge("import", "x", "y", "nowhere.py", 1),))
    with pytest.raises(StoreError, match=r"nowhere\.py"):  # rows belong to files of the manifest
        store.write_code_snapshot(stray, keep=5)


def test_migration_10_keeps_existing_snapshots(tmp_path: Path) -> None:
    """Snapshots written before symbols and edges were shared keep them after the upgrade."""
    from cairn.store.sqlite.store import SQLiteStore

    first = SQLiteStore(tmp_path / "index.sqlite")
    sid = first.write_code_snapshot(snapshot("/p", 1), keep=5).id
    first.close()
    conn = sqlite3.connect(tmp_path / "index.sqlite")
    with conn:  # back to the layout of migration 9: rows per snapshot
        conn.executescript(
            "CREATE TABLE code_symbols (snapshot_id INTEGER NOT NULL, qualname TEXT NOT NULL, name TEXT NOT NULL,"
            " kind TEXT NOT NULL, path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,"
            " signature_hash TEXT NOT NULL, body_hash TEXT NOT NULL, PRIMARY KEY (snapshot_id, qualname)) WITHOUT ROWID;"
            "CREATE TABLE code_edges (snapshot_id INTEGER NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL,"
            " target TEXT NOT NULL, path TEXT NOT NULL, line INTEGER NOT NULL);"
            "INSERT INTO code_symbols SELECT f.snapshot_id, s.qualname, s.name, s.kind, s.path, s.start_line,"
            " s.end_line, s.signature_hash, s.body_hash FROM code_files f JOIN code_symbol_sets s ON s.set_id = f.symbol_set;"
            "INSERT INTO code_edges SELECT f.snapshot_id, e.kind, e.source, e.target, e.path, e.line"
            " FROM code_files f JOIN code_edge_sets e ON e.set_id = f.edge_set;"
            "DROP TABLE code_symbol_sets; DROP TABLE code_edge_sets;"
            "DROP INDEX code_files_symbol_set; DROP INDEX code_files_edge_set;"
            "ALTER TABLE code_files DROP COLUMN symbol_set; ALTER TABLE code_files DROP COLUMN edge_set;"
            "DELETE FROM migrations WHERE version = 10;")
    conn.close()
    upgraded = SQLiteStore(tmp_path / "index.sqlite")
    assert upgraded.schema_version >= 10  # migration 10 applied again (and any later one)
    assert {s.qualname for s in upgraded.code_symbols(sid)} == {"a", "a.f"}
    assert [s.qualname for s in upgraded.code_symbols(sid, path="a.py")] == ["a", "a.f"]
    assert sorted(upgraded.code_edges(sid), key=lambda e: e.target) == [
        Edge("import", "a", "b", "a.py", 1), Edge("call", "a.f", "b.g", "a.py", 2)]
    assert upgraded.code_edges_into(sid, ["b"]) == {"b": [Edge("import", "a", "b", "a.py", 1)]}
    # a new snapshot with the same content shares the rows; pruning the old one keeps them
    second = upgraded.write_code_snapshot(snapshot("/p", 1), keep=1)
    assert (second.symbols, second.edges) == (2, 2)
    assert upgraded.code_snapshot(sid) is None and len(upgraded.code_symbols(second.id)) == 2
    upgraded.close()


def test_unchanged_files_share_rows_between_snapshots(store: Store) -> None:
    first = store.write_code_snapshot(snapshot("/p", 1), keep=5)
    again = store.write_code_snapshot(snapshot("/p", 1), keep=5)
    assert store.code_symbols(first.id) == store.code_symbols(again.id)
    assert store.code_edges(first.id) == store.code_edges(again.id)
    store.write_code_snapshot(snapshot("/p", 2), keep=1)  # prunes both: their sets go, the new one stays
    latest = store.code_snapshots("/p")[0]
    assert {s.body_hash for s in store.code_symbols(latest.id)} == {"h2", "b2"}
    assert store.code_edges_into(latest.id, ["b.g"]) == {"b.g": [Edge("call", "a.f", "b.g", "a.py", 2)]}
