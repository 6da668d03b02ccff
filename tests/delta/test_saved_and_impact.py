"""Saved capsules (save, list, reverify with receipts, reverify what changed) and impact
(backlinks over several hops, capsules citing, each with its connecting path)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cairn.capsule.canonical import canonical_json
from cairn.errors import ConflictError, NotFoundError, ValidationError


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """base ← middle ← top ← roof (each links to the one before); loose stands apart."""
    root = tmp_path / "linked"
    root.mkdir()
    (root / "base.md").write_text("# Base\n\nThe quokka lives on Rottnest island.\n\nIt eats leaves.\n",
                                  encoding="utf-8")
    (root / "middle.md").write_text("# Middle\n\nSee [[base]] about the quokka.\n", encoding="utf-8")
    (root / "top.md").write_text("# Top\n\nBuilt on [[middle]].\n", encoding="utf-8")
    (root / "roof.md").write_text("# Roof\n\nA chimney above [[top]].\n", encoding="utf-8")
    (root / "loose.md").write_text("# Loose\n\nNothing about marsupials here, only wombats.\n",
                                   encoding="utf-8")
    return root


def test_save_list_reverify_and_receipts(ws: Any, linked: Path) -> None:
    ws.add_collection(linked, name="l")
    ws.index()
    capsule = ws.context_build("quokka island")
    cited = {item.docid for item in capsule.evidence}
    assert ws.get("l/base.md").docid in cited
    saved = ws.context_save("quokka", capsule)
    assert (saved.name, saved.capsule_id, saved.last_receipt) == ("quokka", capsule.capsule_id, None)
    assert set(saved.docids) == cited
    with pytest.raises(ConflictError):
        ws.context_save("quokka", capsule)
    ws.context_save("quokka", canonical_json(capsule), replace=True)  # its JSON does too
    with pytest.raises(ValidationError):
        ws.context_save("bad name", capsule)
    tampered = json.loads(canonical_json(capsule))
    tampered["goal"] = "something else"
    with pytest.raises(ValidationError):
        ws.context_save("forged", json.dumps(tampered))

    fresh = ws.context_reverify()
    [receipt] = fresh.receipts
    assert (receipt.name, receipt.status, receipt.stale) == ("quokka", "fresh", [])

    (linked / "base.md").write_text("# Base\n\nThe quokka moved to the mainland.\n\nIt eats leaves.\n",
                                    encoding="utf-8")
    ws.index()
    stale = ws.context_reverify(["quokka"]).receipts[0]
    assert stale.status == "stale" and stale.id > receipt.id
    assert [item.uri for item in stale.stale] == ["cairn://l/base.md"]
    assert stale.stale[0].status == "stale"

    listed = ws.context_list().capsules
    assert [c.name for c in listed] == ["quokka"] and listed[0].last_receipt == stale
    assert listed[0].evidence == len(capsule.evidence)

    # The receipts feed a watcher polls: oldest first, after a receipt id.
    feed = ws.context_receipts("quokka")
    assert [r.status for r in feed.receipts] == ["fresh", "stale"] and feed.cursor == stale.id
    assert ws.context_receipts("quokka", after=feed.cursor).receipts == []
    with pytest.raises(NotFoundError):
        ws.context_reverify(["nope"])
    with pytest.raises(NotFoundError):
        ws.context_receipts("nope")


def test_reverify_changed_only_touches_capsules_citing_those_documents(ws: Any, linked: Path) -> None:
    ws.add_collection(linked, name="l")
    ws.index()
    ws.context_save("quokka", ws.context_build("quokka Rottnest"))
    ws.context_save("wombat", ws.context_build("wombats marsupials"))
    base, loose = ws.get("l/base.md").docid, ws.get("l/loose.md").docid
    assert ws.reverify_changed([]).receipts == []
    only = ws.reverify_changed([base])
    assert [r.name for r in only.receipts] == ["quokka"]
    both = ws.reverify_changed([loose, base, base])
    assert [r.name for r in both.receipts] == ["quokka", "wombat"]
    # The runtime's loop: the changes since its cursor name the documents to reverify.
    cursor = ws.changes().cursor
    (linked / "loose.md").unlink()
    ws.index()
    touched = [c.docid for c in ws.changes(cursor).changes if c.docid]
    result = ws.reverify_changed(touched)
    assert [(r.name, r.status) for r in result.receipts] == [("wombat", "stale")]
    assert result.receipts[0].stale[0].status == "missing"


def test_impact_walks_backlinks_and_names_capsules_with_their_paths(ws: Any, linked: Path) -> None:
    ws.add_collection(linked, name="l")
    ws.index()
    ws.context_save("roofing", ws.context_build("chimney"))  # cites roof.md, 3 links away
    impact = ws.impact("l/base.md", depth=3)
    backlinks = [(d.id, d.distance) for d in impact.dependents if d.kind == "backlink"]
    assert backlinks == [("cairn://l/middle.md", 1), ("cairn://l/top.md", 2), ("cairn://l/roof.md", 3)]
    roof = next(d for d in impact.dependents if d.id == "cairn://l/roof.md")
    assert [(h.from_uri, h.to_uri) for h in roof.path] == [
        ("cairn://l/base.md", "cairn://l/middle.md"), ("cairn://l/middle.md", "cairn://l/top.md"),
        ("cairn://l/top.md", "cairn://l/roof.md"),
    ]
    assert roof.path[0].link.raw == "[[base]]" and roof.path[0].link.source_uri == "cairn://l/middle.md"
    [capsule] = [d for d in impact.dependents if d.kind == "capsule"]
    assert (capsule.id, capsule.distance, capsule.cites) == ("roofing", 3, ["E1"])
    assert capsule.path == roof.path
    shallow = ws.impact("l/base.md", depth=1)
    assert [d.id for d in shallow.dependents] == ["cairn://l/middle.md"]
    assert ws.impact("l/loose.md").dependents == []
    with pytest.raises(ValidationError):
        ws.impact("l/base.md", depth=9)


def test_impact_lists_memory_bound_to_the_document_or_a_document_linking_to_it(ws: Any, linked: Path) -> None:
    ws.add_collection(linked, name="l")
    ws.index()
    docids = {d.path: d.docid for d in ws.ls("l").documents}
    direct = ws.memory_add("Base rule", "The base note holds the rule.", visibility="team", project="demo",
                           evidence=[f"{docids['base.md']}:1-2"]).item.id
    via_link = ws.memory_add(subject="middle", predicate="cites", object="base", visibility="team",
                             project="demo", evidence=[f"{docids['middle.md']}:1-1"]).item.id
    # Another project's memory is never listed, however bound.
    ws.memory_add("Hidden", "Another project's note.", project="elsewhere", evidence=[f"{docids['base.md']}:1-1"])
    impact = ws.impact("l/base.md", depth=3)
    memory = [(d.id, d.distance, d.cites) for d in impact.dependents if d.kind == "memory"]
    assert memory == [(direct, 0, [f"{docids['base.md']}:1-2"]), (via_link, 1, [f"{docids['middle.md']}:1-1"])]
    [linked_memory] = [d for d in impact.dependents if d.id == via_link]
    assert [(h.from_uri, h.to_uri) for h in linked_memory.path] == [("cairn://l/base.md", "cairn://l/middle.md")]
    ws.memory_archive(direct, project="demo")
    assert [d.id for d in ws.impact("l/base.md").dependents if d.kind == "memory"] == [via_link]
