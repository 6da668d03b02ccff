"""The memory store contract (:class:`~cairn.store.protocol.MemoryStore`), per backend."""

from __future__ import annotations

import dataclasses

from cairn.memory.records import Claim, EvidenceRef, Observation
from cairn.store.protocol import Store
from cairn.text.query import parse_query


def obs(rid: str, title: str, narrative: str, *, project: str = "p1", topic: str | None = None,
        visibility: str = "project", evidence: tuple[EvidenceRef, ...] = ()) -> Observation:
    return Observation(
        id=rid, type="decision", title=title, narrative=narrative, facts=("fact one",), files=("a.py",),
        symbols=(), concepts=("storage",), topic_key=topic, revision=1, source="agent",
        visibility=visibility, project=project, owner="ann", evidence=evidence, status="active",  # type: ignore[arg-type]
        created_at="2026-01-01T00:00:00Z", updated_at="2026-01-01T00:00:00Z",
    )


def claim(rid: str, obj: str, *, project: str = "p1") -> Claim:
    return Claim(
        id=rid, subject="db", predicate="is", object=obj, claim_key=f"db|is|{obj}", conflict_key="db|is",
        evidence=(), review="unreviewed", supersedes=None, superseded_by=None, source="agent",
        visibility="project", project=project, owner="ann", status="active",
        created_at="2026-01-01T00:00:00Z", updated_at="2026-01-01T00:00:00Z",
    )


def test_write_read_and_history(store: Store) -> None:
    ev = EvidenceRef(kind="passage", target="doc001", hash="h", start=1, end=3)
    first = obs("obs_1", "Use WAL mode", "SQLite in WAL mode lets readers run during writes",
                topic="wal", evidence=(ev,))
    store.memory_write([(first, "created")], [("obs_1", "user-pin", None)], actor="ann")
    assert store.memory_records(["obs_1", "nope"]) == {"obs_1": first}
    assert store.memory_topic("p1", "wal") == [first]
    assert store.memory_citing("passage", ["doc001", "doc002"]) == {"doc001": ["obs_1"]}
    second = dataclasses.replace(first, narrative="WAL: readers never wait", revision=2, evidence=())
    store.memory_write([(second, "revised")])
    assert store.memory_citing("passage", ["doc001"]) == {}
    history = store.memory_history("obs_1")
    assert [h.action for h in history] == ["created", "revised"]
    assert history[0].before is None and history[1].before == history[0].after
    assert [s.kind for s in store.memory_signals(["obs_1"])["obs_1"]] == ["user-pin"]
    assert store.memory_counts()["history"] == 2


def test_bm25_search_by_project_and_status(store: Store) -> None:
    store.memory_write([
        (obs("obs_1", "Use WAL mode", "readers never wait for the writer"), "created"),
        (obs("obs_2", "Backups", "nightly snapshot of the WAL file", project="p2"), "created"),
        (obs("obs_3", "Team rule", "WAL everywhere", project="p2", visibility="team"), "created"),
    ])
    hits = store.memory_search(parse_query("wal"), ["p1"], 10)
    assert {rid for rid, _ in hits} == {"obs_1", "obs_3"}
    assert hits[0][1] >= hits[-1][1]
    archived = dataclasses.replace(store.memory_records(["obs_1"])["obs_1"], status="archived")
    store.memory_write([(archived, "archived")])
    assert [rid for rid, _ in store.memory_search(parse_query("wal"), ["p1"], 10)] == ["obs_3"]
    assert len(store.memory_search(parse_query("wal"), ["p1"], 10, include_archived=True)) == 2
    assert [r.id for r in store.memory_list(["p2"])] == ["obs_2", "obs_3"]
    assert len(store.memory_list(None, include_archived=True)) == 3


def test_competing_claims_and_atomic_write(store: Store) -> None:
    store.memory_write([(claim("clm_1", "sqlite"), "created"), (claim("clm_2", "postgres"), "created")])
    assert [c.id for c in store.memory_competing("p1", "db|is")] == ["clm_1", "clm_2"]
    assert store.memory_competing("p2", "db|is") == []
    bad = obs("obs_9", "x", "y")
    try:
        store.memory_write([(bad, "created")], [("obs_9", "test-pass", None)], actor=None)
        store.memory_write([(claim("clm_3", "z"), "created"), (bad, "created")],
                           [("obs_9", None, None)])  # type: ignore[list-item]
    except Exception:  # the NOT NULL violation of the signal
        pass
    assert "clm_3" not in store.memory_records(["clm_3"])  # rolled back with the failed signal


def test_events_and_run_changes(store: Store) -> None:
    assert store.append_hook_event("prompt", "s1", "/w", {"prompt": "hi"}) == 1
    (seq, _, event, session, cwd, payload), = store.events()
    assert (seq, event, session, cwd) == (1, "prompt", "s1", "/w") and '"hi"' in payload
    assert store.run_changes(99) == []


def test_search_widens_past_records_of_other_projects(store: Store) -> None:
    store.memory_write([(obs(f"obs_o{i}", "wal wal wal", "wal", project="p2"), "created") for i in range(300)]
                       + [(obs("obs_mine", "notes", "a wal mention in a long narrative " * 5), "created")])
    assert [rid for rid, _ in store.memory_search(parse_query("wal"), ["p1"], 3)] == ["obs_mine"]
    assert store.memory_search(parse_query("zzz"), ["p1"], 3) == []


def test_vectors_for_reads_content_addressed_vectors(store: Store) -> None:
    """Memory records are embedded by text hash into the shared vector table (issue 14, session 6)."""
    blob = b"\x00\x00\x80\x3f" * 4
    store.write_vectors("fp", [("h1", blob, 4, 3)])
    assert store.vectors_for("fp", ["h1", "h2", "h1"]) == {"h1": blob}
    assert store.vectors_for("other", ["h1"]) == {}
    assert store.vectors_for("fp", []) == {}


def test_memory_version_grows_with_every_record_write(store: Store) -> None:
    assert store.memory_version() == 0
    store.memory_write([(obs("obs_v", "Versioned", "first"), "created")])
    first = store.memory_version()
    store.memory_write([], [("obs_v", "user-pin", None)])
    assert store.memory_version() == first  # signals do not change a record's text
    store.memory_write([(dataclasses.replace(obs("obs_v", "Versioned", "second"), revision=2), "revised")])
    assert store.memory_version() > first
