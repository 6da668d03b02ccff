"""What recall reads of every record without decoding it (:meth:`memory_keys`, migration
12), and the vector lookup of many text hashes at once."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from cairn.memory.records import Claim, Observation, RecordKey
from cairn.memory.texts import embed_hash
from cairn.store.protocol import Store
from tests.store.test_memory import claim, obs


def _key(record: Observation | Claim) -> RecordKey:
    if isinstance(record, Observation):
        return RecordKey(record.id, "observation", record.project, record.owner, record.visibility,
                         record.observed_at, embed_hash(record))
    return RecordKey(record.id, "claim", record.project, record.owner, record.visibility, None, embed_hash(record))


def _write(store: Store) -> list[Observation | Claim]:
    records: list[Observation | Claim] = [
        dataclasses.replace(obs("obs_1", "Use WAL mode", "readers never wait"), observed_at="2026-02-01T10:00:00Z"),
        obs("obs_2", "Backups", "nightly snapshot", project="p2"),
        obs("obs_3", "Team rule", "WAL everywhere", project="p2", visibility="team"),
        obs("obs_4", "Mine", "personal note", visibility="personal"),
        claim("clm_1", "postgres"),
    ]
    store.memory_write([(r, "created") for r in records])
    return records


def test_keys_are_the_records_in_write_order(store: Store) -> None:
    records = _write(store)
    assert store.memory_keys(["p1"]) == [_key(r) for r in records if r.id != "obs_2"]
    assert [k.id for k in store.memory_keys(["p2"])] == ["obs_2", "obs_3"]
    # A revision changes the text address; archiving drops the key.
    first = records[0]
    assert isinstance(first, Observation)
    revised = dataclasses.replace(first, narrative="readers wait for nobody", revision=2)
    store.memory_write([(revised, "revised")])
    assert store.memory_keys(["p1"])[0] == _key(revised)
    assert store.memory_keys(["p1"])[0].embed_hash != _key(records[0]).embed_hash
    store.memory_write([(dataclasses.replace(revised, status="archived"), "archived")])
    assert [k.id for k in store.memory_keys(["p1"])] == ["obs_3", "obs_4", "clm_1"]


def test_migration_fills_the_keys_of_existing_records(tmp_path: Path) -> None:
    from cairn.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "index.sqlite")
    records = _write(store)
    store.close()
    conn = sqlite3.connect(tmp_path / "index.sqlite")
    with conn:  # back to migration 11: no key columns
        conn.executescript("DROP INDEX memory_records_keys; ALTER TABLE memory_records DROP COLUMN embed_hash;"
                           " ALTER TABLE memory_records DROP COLUMN observed_at;"
                           " DELETE FROM migrations WHERE version = 12;")
    conn.close()
    upgraded = SQLiteStore(tmp_path / "index.sqlite")
    assert upgraded.schema_version >= 12
    assert upgraded.memory_keys(["p1"]) == [_key(r) for r in records if r.id != "obs_2"]


@pytest.mark.parametrize("many", [10**9, 3])
def test_vectors_for_many_hashes(store: Store, monkeypatch: pytest.MonkeyPatch, many: int) -> None:
    """Asked for many hashes, the store first reads which have a vector: the same answer."""
    from cairn.store.sqlite import vectors

    monkeypatch.setattr(vectors, "MANY_HASHES", many)
    blob = bytes(range(8))
    store.write_vectors("fp", [(f"h{n}", blob, 2, 1) for n in range(6)])
    store.write_vectors("other", [(f"h{n}", blob, 2, 1) for n in range(20)])
    asked = [f"h{n}" for n in range(0, 12, 2)] + ["h0"]
    assert store.vectors_for("fp", asked) == {"h0": blob, "h2": blob, "h4": blob}


def test_reader_is_a_second_read_only_connection(tmp_path: Path) -> None:
    """The store's second connection (a plan's recall reads through it on a helper thread):
    it sees what the store writes after it was opened, cannot write, and closes with it."""
    from cairn.store.sqlite import SQLiteStore

    store = SQLiteStore(tmp_path / "index.sqlite")
    reader = store.reader()
    assert store.reader() is reader and reader.conn is not store.conn
    records = _write(store)
    assert reader.memory_keys(["p1"]) == store.memory_keys(["p1"]) != []
    assert reader.memory_records(["obs_1"]) == {"obs_1": records[0]}
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader.conn.execute("DELETE FROM memory_records")
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        reader.conn.execute("SELECT 1")
