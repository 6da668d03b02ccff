"""Sequence collections: numbered sibling files (chat turns, journal days) share their
neighbours' relevance in hybrid ``query``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cairn.errors import NotFoundError, ValidationError
from cairn.retrieval.hybrid import (
    FUSION_VERSION,
    Fused,
    HybridSettings,
    Neighbours,
    StageRank,
    sequence_context,
    sibling_paths,
)
from cairn.store.records import light_hit
from tests.conftest import cli_json, needs_minilm

TURNS = {
    "D1-1.md": "Caroline, 1:56 pm on 8 May, 2023:\nHow often do you go running these days, Melanie?\n",
    "D1-2.md": "Melanie, 1:56 pm on 8 May, 2023:\nThree times a week, mostly before work.\n",
    "D1-3.md": "Caroline, 1:56 pm on 8 May, 2023:\nNice! I started a pottery class last month.\n",
    "D2-1.md": "Melanie, 7:10 pm on 20 May, 2023:\nThe pottery class sounds lovely. What did you make?\n",
    "D2-2.md": "Caroline, 7:10 pm on 20 May, 2023:\nA small blue bowl for my kitchen.\n",
}


def test_sibling_paths() -> None:
    assert sibling_paths("conv-26/D1-3.md") == (("conv-26/D1-2.md",), ("conv-26/D1-4.md",))
    assert sibling_paths("D1-1.md") == (("D1-0.md",), ("D1-2.md",))
    # zero-padded numbers are looked up both ways; the last number of the name counts
    assert sibling_paths("journal/2024-05-08.md") == (
        ("journal/2024-05-7.md", "journal/2024-05-07.md"), ("journal/2024-05-9.md", "journal/2024-05-09.md"))
    assert sibling_paths("ch10.txt") == (("ch9.txt", "ch09.txt"), ("ch11.txt",))
    assert sibling_paths("a/0.md") == ((), ("a/1.md",))
    assert sibling_paths("notes/readme.md") == ((), ())
    assert sibling_paths("v2/notes.md") == ((), ())  # a number in the folder is not the file's
    assert sibling_paths("track 7") == (("track 6",), ("track 8",))


def fused(docid: str, pid: int, score: float) -> Fused:
    return Fused(light_hit(pid, docid, score), score, {"bm25": StageRank(1, score)})


def test_sequence_context_shares_neighbours_scores() -> None:
    units = [fused("q", 1, 1.0), fused("x", 9, 0.4), fused("r", 2, 0.1)]
    near = {"q": Neighbours(None, "r"), "r": Neighbours("q", "s"), "a": Neighbours(None, "q")}
    entries = {"s": light_hit(3, "s", 0.0), "a": light_hit(4, "a", 0.0)}
    out = sequence_context(units, near, entries, previous_weight=0.5, next_weight=0.2, capped=False)
    by_doc = {f.hit.docid: f for f in out}
    assert by_doc["r"].score == pytest.approx(0.1 + 0.5 * 1.0)  # the reply after the question
    assert by_doc["q"].score == pytest.approx(1.0 + 0.2 * 0.1)  # the question, a little of its answer
    assert by_doc["a"].score == pytest.approx(0.2 * 1.0)  # joins: precedes a candidate
    assert by_doc["x"] == units[1]  # no neighbours: untouched
    assert "s" not in by_doc  # its previous document (r) scored, but s has no entry for it
    assert [f.hit.docid for f in out] == ["q", "r", "x", "a"]
    assert by_doc["r"].stages["sequence"] == StageRank(1, 0.5)
    assert by_doc["a"].stages == {"sequence": StageRank(2, 0.2)}
    # no neighbours at all: the same list
    assert sequence_context(units, {}, {}) == sorted(units, key=lambda f: -f.score)


def test_capped_sequence_context_never_lifts_a_document_above_its_lender() -> None:
    """Capped: a reply rises to just below the turn it answers, never above it; a gain
    that stays below the lender is unchanged; a document already above gains nothing."""
    units = [fused("q", 1, 0.10), fused("r", 2, 0.08), fused("x", 3, 0.07), fused("t", 4, 0.01)]
    near = {"q": Neighbours(None, "r"), "r": Neighbours("q", None), "t": Neighbours("x", None),
            "x": Neighbours(None, "t"), "j": Neighbours("q", None)}
    entries = {"j": light_hit(5, "j", 0.0)}
    out = sequence_context(units, near, entries, previous_weight=0.5, next_weight=0.2, capped=True)
    by_doc = {f.hit.docid: f for f in out}
    assert by_doc["r"].score == pytest.approx(0.10 - 1e-8)  # 0.08 + 0.05 capped below q
    assert by_doc["t"].score == pytest.approx(0.01 + 0.5 * 0.07)  # below x anyway: uncapped
    assert by_doc["q"] == units[0]  # above its only lender (r): gains nothing
    assert by_doc["j"].score == pytest.approx(0.5 * 0.10)  # joins below q
    assert [f.hit.docid for f in out][:2] == ["q", "r"]
    uncapped = sequence_context(units, near, entries, previous_weight=0.5, next_weight=0.2, capped=False)
    assert [f.hit.docid for f in uncapped][:2] == ["r", "q"]  # the reply overtakes the question
    assert "capped" in HybridSettings(sequence_cap=True).fusion_version
    assert HybridSettings(sequence_cap=True).fusion_version != HybridSettings(sequence_cap=False).fusion_version


def test_sequence_context_on_passage_units() -> None:
    """Several units of one document: its score is its best unit's, and only that unit gains."""
    units = [fused("q", 1, 1.0), fused("r", 5, 0.3), fused("q", 2, 0.6), fused("r", 6, 0.1)]
    out = sequence_context(units, {"q": Neighbours(None, "r"), "r": Neighbours("q", None)}, {},
                           previous_weight=0.5, next_weight=0.2, capped=False)
    by_pid = {f.hit.passage_id: f for f in out}
    assert by_pid[5].score == pytest.approx(0.3 + 0.5 * 1.0) and "sequence" in by_pid[5].stages
    assert by_pid[6] == units[3] and by_pid[2] == units[2]
    assert by_pid[1].score == pytest.approx(1.0 + 0.2 * 0.3)


def write_turns(root: Path, extra: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in {**TURNS, **(extra or {})}.items():
        (root / name).write_text(text)
    return root


def docs(response: Any) -> list[str]:
    return [r.uri.rsplit("/", 1)[-1] for r in response.results]


def test_query_finds_a_reply_through_its_question(ws: Any, tmp_path: Path) -> None:
    """BM25 alone (no vectors): "Three times a week." names neither running nor Melanie's
    habit; in a sequence collection it follows the turn that asked."""
    root = write_turns(tmp_path / "chat")
    added = ws.add_collection(root, name="chat", sequence=True)
    assert added.sequence is True
    ws.index()
    response = ws.query("how often running", limit=5, explain=True)
    names = docs(response)
    assert names[:2] == ["D1-1.md", "D1-2.md"]
    reply = response.results[1]
    assert reply.stages == ["sequence"]
    assert reply.explain is not None and reply.explain.via == "sequence: follows D1-1.md"
    assert reply.explain.stages["sequence"].score > 0
    assert "sequence" in response.meta.stages_run and response.meta.fusion == FUSION_VERSION
    # D2-1 is not D1-3's next turn: sessions do not run into each other
    pottery = ws.query("pottery class", limit=5, explain=True)
    assert all(r.explain is None or r.explain.via != "sequence: follows D1-3.md"
               for r in pottery.results if r.uri.endswith("D2-1.md"))

    # Undeclared, the same collection has no sequence stage; declared again, it has.
    assert ws.configure_collection("chat", sequence=False).sequence is False
    plain = ws.query("how often running", limit=5)
    assert "D1-2.md" not in docs(plain) and "sequence" not in plain.meta.stages_run
    assert ws.configure_collection("chat", sequence=True).documents == len(TURNS)
    assert "D1-2.md" in docs(ws.query("how often running", limit=5))
    report = ws.query_diagnose("how often running", "chat/D1-2.md")
    step = next(st for st in report.stages if st.stage == "sequence")
    assert step.found and "follows D1-1.md" in step.note and report.verdict == "returned"
    # `search` is BM25 as written: no sequence context there
    assert "D1-2.md" not in docs(ws.search("how often running", limit=5))


def test_sequence_respects_filters_and_other_collections(ws: Any, tmp_path: Path) -> None:
    root = write_turns(tmp_path / "chat", {
        "D1-1.md": "---\ntags: [running]\n---\n" + TURNS["D1-1.md"],
        "D1-2.md": "---\ntags: [private]\n---\n" + TURNS["D1-2.md"],
    })
    ws.add_collection(root, name="chat", sequence=True)
    ws.add_collection(write_turns(tmp_path / "plain"), name="plain")
    ws.index()
    everything = docs(ws.query("how often running", limit=10, collections=["chat"]))
    assert everything[:2] == ["D1-1.md", "D1-2.md"]
    # the question passes a tag filter, its reply does not: the reply must not join
    filtered = docs(ws.query("how often running", limit=10, tags_any=["running"]))
    assert filtered == ["D1-1.md"]
    # the undeclared collection with the same files gains nothing
    plain = ws.query("how often running", limit=10, collections=["plain"])
    assert "D1-2.md" not in docs(plain)
    both = ws.query("how often running", limit=10).results
    assert {r.collection for r in both if "sequence" in r.stages} == {"chat"}
    ranked = [(r.collection, r.uri.rsplit("/", 1)[-1]) for r in both]
    assert ranked.index(("chat", "D1-2.md")) < ranked.index(("plain", "D1-2.md"))


def test_capsules_and_passage_units_get_sequence_context(ws: Any, tmp_path: Path) -> None:
    """Context Capsules rank passages (``all_passages``): the reply joins there too, once."""
    ws.add_collection(write_turns(tmp_path / "chat"), name="chat", sequence=True)
    ws.index()
    capsule = ws.context_build("how often running", budget_tokens=400)
    uris = [item.uri for item in capsule.evidence]
    assert "cairn://chat/D1-2.md" in uris
    passages = ws.query("how often running", limit=10, all_passages=True)
    assert [r.uri for r in passages.results].count("cairn://chat/D1-2.md") == 1


def test_configure_collection_errors(ws: Any, tmp_path: Path) -> None:
    ws.add_collection(write_turns(tmp_path / "chat"), name="chat")
    with pytest.raises(ValidationError, match="nothing to change"):
        ws.configure_collection("chat")
    with pytest.raises(NotFoundError):
        ws.configure_collection("nope", sequence=True)
    updated = ws.configure_collection("chat", context="A chat with Melanie")
    assert updated.context == "A chat with Melanie" and updated.sequence is False
    assert ws.configure_collection("chat", context="").context is None


def test_cli_sequence_flags(tmp_path: Path) -> None:
    root = write_turns(tmp_path / "chat")
    added = cli_json("collection", "add", str(root), "--name", "chat", "--sequence")
    assert added["sequence"] is True
    assert cli_json("collection", "configure", "chat", "--no-sequence")["sequence"] is False
    listed = cli_json("collection", "list")
    assert listed["collections"][0]["sequence"] is False
    assert cli_json("collection", "configure", "chat", "--sequence")["sequence"] is True


@needs_minilm
def test_hybrid_query_with_the_real_model(ws: Any, tmp_path: Path) -> None:
    ws.add_collection(write_turns(tmp_path / "chat"), name="chat", sequence=True)
    ws.index()
    ws.embed()
    response = ws.query("How often does Melanie exercise?", limit=3, explain=True)
    assert response.meta.mode == "hybrid" and "sequence" in response.meta.stages_run
    assert "D1-2.md" in docs(response)


def test_an_index_from_before_sequences_upgrades(tmp_path: Path) -> None:
    """Migration 4 adds the column to an existing index; its collections are not sequences."""
    import cairn.store.sqlite.store as sqlite_store
    from cairn.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "old.sqlite"
    with pytest.MonkeyPatch.context() as patch:  # an index written by a cairn with migrations 1-3
        patch.setattr(sqlite_store, "MIGRATIONS", MIGRATIONS[:3])
        patch.setattr(sqlite_store, "SCHEMA_VERSION", 3)
        old = sqlite_store.SQLiteStore(path)
        with old.transaction():
            old.conn.execute(
                "INSERT INTO collections(name, root, include_globs, exclude_globs, created_at)"
                " VALUES ('chat', '/tmp/chat', '[]', '[]', '2026-01-01T00:00:00Z')"
            )
        assert old.schema_version == 3
        old.close()
    store = sqlite_store.SQLiteStore(path)
    try:
        assert store.schema_version == MIGRATIONS[-1].version >= 4
        assert store.get_collection("chat").sequence is False
        assert store.configure_collection("chat", sequence=True).sequence is True
    finally:
        store.close()


def test_many_candidates(ws: Any, tmp_path: Path) -> None:
    """More candidates than one SQL statement takes (lookups are chunked)."""
    root = tmp_path / "log"
    root.mkdir()
    for n in range(1, 1201):
        word = "kiwi" if n % 2 else "plain"
        (root / f"day-{n:04d}.md").write_text(f"Entry {n}: {word} note.\n")
    ws.add_collection(root, name="log", sequence=True)
    ws.index()
    response = ws.query("kiwi", limit=1000)
    names = docs(response)
    assert len(names) == 1000 and len(set(names)) == 1000
    assert int(names[0][4:8]) % 2 == 1  # a matched (odd) day first
    evens = [r for r in response.results if int(r.uri[-7:-3]) % 2 == 0]
    assert evens and all("sequence" in r.stages for r in evens)  # even days only via neighbours
    assert "sequence" in response.meta.stages_run
