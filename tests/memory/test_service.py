"""The memory service through a real Workspace: writes, revisions, claims, signals,
scope, history, archive, export and the indexer's source-changed signals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import NotFoundError, ValidationError
from tests.memory.conftest import PROJECT, docid


def test_add_show_and_search(mws: Any) -> None:
    backups = docid(mws, "howto/backups.md")
    added = mws.memory_add("Nightly snapshots at 02:00", "Snapshots run nightly and are kept 35 days.",
                           type="decision", facts=["kept 35 days"], concepts=["backups"],
                           files=["src/app.py"], evidence=[f"{backups}:12-14"])
    item = added.item
    assert added.action == "created" and item.id.startswith("obs_")
    assert item.project == PROJECT and item.owner == "ann" and item.visibility == "project"
    assert [(e.kind, e.target) for e in item.evidence] == [("passage", backups), ("file", "src/app.py")]
    assert all(e.hash for e in item.evidence)
    assert (item.quality, item.freshness) == ("probation", "fresh")
    assert mws.memory_show(item.id) == item
    hits = mws.memory_search("snapshot retention days")
    assert [h.item.id for h in hits.results] == [item.id] and hits.project == PROJECT
    assert mws.memory_search("zeppelin").results == []


def test_topic_key_upsert_keeps_revisions(mws: Any) -> None:
    first = mws.memory_add("Build command", "make build", topic_key="Build Command").item
    second = mws.memory_add("Build command", "just build", topic_key="build   command")
    assert second.action == "revised" and second.item.id == first.id and second.item.revision == 2
    history = mws.memory_history(first.id)
    assert [e.action for e in history.entries] == ["created", "revised"]
    assert history.entries[1].before is not None and history.entries[1].before["narrative"] == "make build"
    assert mws.memory_search("just").results[0].item.narrative == "just build"


def test_ids_are_content_derived(mws: Any) -> None:
    a = mws.memory_add("Same", "text").item.id
    b = mws.memory_add("Same", "text").item.id
    assert a != b and a.startswith("obs_") and len(a) == 16


def test_signals_drive_quality_and_pin(mws: Any) -> None:
    rid = mws.memory_add("Flaky test", "retry the socket test").item.id
    assert mws.memory_signal(rid, "test-pass").item.quality == "verified"
    assert mws.memory_signal(rid, "test-fail", "broke on CI").item.quality == "degraded"
    assert mws.memory_signal(rid, "test-fail").item.quality == "blocked"
    pinned = mws.memory_pin(rid, "keep this")
    assert pinned.action == "pinned" and pinned.item.pinned and pinned.item.quality == "verified"
    history = mws.memory_history(rid)
    assert [s.kind for s in history.signals] == ["test-pass", "test-fail", "test-fail", "user-pin"]
    assert [e.action for e in history.entries] == ["created", "pinned"]
    with pytest.raises(ValidationError):
        mws.memory_signal(rid, "thumbs-up")


def test_correct_makes_a_revision_with_a_signal(mws: Any) -> None:
    rid = mws.memory_add("Port", "the server listens on 8080").item.id
    result = mws.memory_correct(rid, "the server listens on 8443", note="moved to TLS")
    assert result.item.narrative == "the server listens on 8443" and result.item.revision == 2
    assert result.item.quality == "degraded"
    assert [e.action for e in mws.memory_history(rid).entries] == ["created", "corrected"]
    with pytest.raises(ValidationError):
        mws.memory_correct(rid)


def test_archive_and_restore(mws: Any) -> None:
    rid = mws.memory_add("Old habit", "we used tabs").item.id
    assert mws.memory_archive(rid).item.status == "archived"
    assert mws.memory_search("tabs").results == []
    assert [h.item.id for h in mws.memory_search("tabs", include_archived=True).results] == [rid]
    assert mws.memory_archive(rid).action == "unchanged"
    assert mws.memory_restore(rid).item.status == "active"
    assert [e.action for e in mws.memory_history(rid).entries] == ["created", "archived", "restored"]


def test_claims_contest_and_resolve(mws: Any) -> None:
    old = mws.memory_add(subject="Database", predicate="is", object="SQLite").item
    assert old.kind == "claim" and old.conflict_key == "database|is"
    same = mws.memory_add(subject="database", predicate="IS", object="sqlite")
    assert same.action == "unchanged" and same.item.id == old.id
    new = mws.memory_add(subject="database", predicate="is", object="PostgreSQL")
    assert new.affected == [old.id] and new.item.contested_with == [old.id]
    assert mws.memory_show(old.id).contested_with == [new.item.id]
    resolved = mws.memory_resolve("Database|is", keep=new.item.id)
    assert resolved.affected == [old.id] and resolved.item.review == "accepted"
    assert resolved.item.contested_with == [] and resolved.item.quality == "verified"
    loser = mws.memory_show(old.id)
    assert loser.superseded_by == new.item.id and loser.quality == "blocked"
    assert [s.kind for s in mws.memory_history(old.id).signals] == ["conflict-confirmed"]
    assert [e.action for e in mws.memory_history(old.id).entries] == ["created", "contested", "superseded"]
    assert [h.item.id for h in mws.memory_search("database").results] == [new.item.id]
    assert {h.item.id for h in mws.memory_search("database", include_archived=True).results} == {
        old.id, new.item.id}
    with pytest.raises(ValidationError):
        mws.memory_resolve("database|is", keep=old.id)


def test_explicit_supersede(mws: Any) -> None:
    old = mws.memory_add(subject="api", predicate="version", object="v1").item
    new = mws.memory_add(subject="api", predicate="version", object="v2", supersedes=old.id)
    assert new.item.supersedes == old.id and new.affected == [old.id]
    assert mws.memory_show(old.id).superseded_by == new.item.id


def test_scope_isolation_across_projects_and_users(mws: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   cairn_home: Path) -> None:
    shared = mws.memory_add("Zebra team rule", "zebra everywhere", visibility="team").item.id
    mine = mws.memory_add("Zebra personal note", "my zebra shortcut", visibility="personal").item.id
    proj = mws.memory_add("Zebra project fact", "zebra in widgets").item.id
    other = mws.memory_add("Zebra other project", "zebra in gadgets", project="github.com/acme/gadgets").item.id
    assert {h.item.id for h in mws.memory_search("zebra").results} == {shared, mine, proj}
    assert {h.item.id for h in mws.memory_search("zebra", project="github.com/acme/gadgets").results} == {
        shared, other}
    monkeypatch.setenv("CAIRN_USER", "bob")
    with cairn.open() as bob:
        assert {h.item.id for h in bob.memory_search("zebra").results} == {shared, proj}
        with pytest.raises(NotFoundError):
            bob.memory_show(mine)
        with pytest.raises(NotFoundError):
            bob.memory_pin(other)


def test_export_markdown(mws: Any, tmp_path: Path) -> None:
    mws.memory_add("Export me", "plain text", facts=["one fact"])
    mws.memory_add(subject="cache", predicate="ttl", object="60s")
    result = mws.memory_export(str(tmp_path / "memory.md"))
    assert result.records == 2 and Path(result.path).read_text() == result.markdown
    assert "## Export me `obs_" in result.markdown and "## cache — ttl — 60s `clm_" in result.markdown
    with pytest.raises(ValidationError):
        mws.memory_export(str(tmp_path / "memory.md"))


def test_index_run_emits_source_changed(mws: Any, notes: Path) -> None:
    backups = docid(mws, "howto/backups.md")
    bound = mws.memory_add("Backups schedule", "nightly at 02:00", evidence=[f"{backups}:12-14"]).item.id
    other = mws.memory_add("Unbound", "no evidence").item.id
    mws.memory_signal(bound, "test-pass")
    path = notes / "howto" / "backups.md"
    path.write_text(path.read_text().replace("02:00 UTC", "03:00 UTC"))
    mws.index()
    changed = mws.memory_show(bound)
    assert changed.quality == "degraded" and changed.freshness == "suspect"
    assert changed.stale_reasons == [f"passage_changed:{backups}"]
    assert [s.kind for s in mws.memory_history(bound).signals] == ["test-pass", "source-changed"]
    assert mws.memory_history(other).signals == []
    path.unlink()
    mws.index()
    assert mws.memory_show(bound).freshness == "stale"


def test_bound_file_freshness(mws: Any, project: Path) -> None:
    rid = mws.memory_add("Entry point", "main returns 1", files=["src/app.py"]).item.id
    (project / "src" / "app.py").write_text("def main():\n    return 2\n")
    assert mws.memory_show(rid).stale_reasons == ["file_changed:src/app.py"]
    (project / "src" / "app.py").unlink()
    assert mws.memory_show(rid).freshness == "stale"


def test_qualified_for_the_governor(mws: Any) -> None:
    rid = mws.memory_add("Q", "qualified record").item.id
    mws.memory_pin(rid)
    caller = mws.memory_caller()
    assert caller.project == PROJECT and caller.user == "ann"
    record = mws._memory._open_store(False).memory_records([rid])[rid]
    (q,) = mws.memory_qualified([record], caller)
    assert (q.quality, q.freshness, q.pinned, q.contested_with) == ("verified", "unknown", True, ())


def test_recall_and_visible_records_for_the_governor(mws: Any) -> None:
    first = mws.memory_add("Tapir migration", "tapirs move at dawn").item.id
    mws.memory_add("Tapir diet", "tapirs eat fruit", visibility="personal")
    other = mws.memory_add("Tapir elsewhere", "tapirs in gadgets", project="github.com/acme/gadgets").item.id
    caller = mws.memory_caller()
    recalled = mws._memory.recall("tapirs dawn", caller, limit=5)
    assert recalled[0][0].record.id == first and recalled[0][1] >= recalled[-1][1]
    assert other not in {q.record.id for q, _ in recalled}
    listed = mws._memory.visible_records(caller)
    assert [q.record.title for q in listed] == ["Tapir migration", "Tapir diet"]  # type: ignore[union-attr]


def test_import_is_all_or_nothing(mws: Any) -> None:
    turns = [{"title": f"Turn {i}", "narrative": f"turn number {i} about llamas", "observed_at": "2023-05-08"}
             for i in range(30)]
    assert mws._memory.memory_import(turns, project="chat") == 30
    assert len(mws.memory_search("llamas", project="chat", limit=100).results) == 30
    before = mws._memory._open_store(True).memory_counts()
    with pytest.raises(ValidationError):
        mws._memory.memory_import([{"title": "ok", "narrative": "fine"}, {"title": "bad", "type": "rumour"}],
                                  project="chat")
    with pytest.raises(ValidationError):
        mws._memory.memory_import([{"title": "a", "topic_key": "k"}, {"title": "b", "topic_key": "k"}],
                                  project="chat")
    assert mws._memory._open_store(True).memory_counts() == before


def test_index_run_signals_records_bound_to_an_indexed_file(mws: Any, project: Path) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "setup.md").write_text("# Setup\n\nRun make.\n")
    mws.add_collection(project / "docs", name="docs")
    mws.index("docs")
    rid = mws.memory_add("Setup", "run make", files=["docs/setup.md"]).item.id
    other = mws.memory_add("Setup elsewhere", "same path, other project", files=["docs/setup.md"],
                           project="github.com/acme/gadgets").item.id
    (project / "docs" / "setup.md").write_text("# Setup\n\nRun just.\n")
    mws.index("docs")
    assert [s.kind for s in mws.memory_history(rid).signals] == ["source-changed"]
    assert mws.memory_history(other, project="github.com/acme/gadgets").signals == []
    assert mws.memory_show(rid).stale_reasons == ["file_changed:docs/setup.md"]


def test_a_personal_topic_of_another_user_is_neither_revised_nor_revealed(mws: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ann = mws.memory_add("Editor", "ann uses vim", topic_key="editor", visibility="personal").item.id
    monkeypatch.setenv("CAIRN_USER", "bob")
    with cairn.open() as bob:
        mine = bob.memory_add("Editor", "bob uses emacs", topic_key="editor", visibility="personal")
        assert mine.action == "created" and mine.item.id != ann
        revised = bob.memory_add("Editor", "bob uses helix", topic_key="editor").item
        assert revised.id == mine.item.id and revised.visibility == "personal"
    assert mws.memory_show(ann).narrative == "ann uses vim"
