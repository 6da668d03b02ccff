"""The knowledge-delta part of the store contract: journal reads and retention,
revision structures, saved capsules and receipts (every backend)."""

from __future__ import annotations

import dataclasses

import pytest

from cairn.errors import ConflictError, NotFoundError
from cairn.store.protocol import DeltaJournal, SavedCapsuleStore, Store
from cairn.store.records import CollectionRecord, FileFailure, SavedCapsuleRecord
from tests.store.conftest import OpenStore, document, write


@pytest.fixture
def notes(store: Store) -> CollectionRecord:
    return store.add_collection("notes", "/tmp/notes", ["**/*.md"], [], None)


def test_protocols(store: Store) -> None:
    assert isinstance(store, DeltaJournal) and isinstance(store, SavedCapsuleStore)


def test_journal_state_entries_and_failures(store: Store, notes: CollectionRecord, open_store: OpenStore) -> None:
    state = store.journal_state()
    assert (state.last_seq, state.pruned_through, state.pruned_until, state.oldest_at) == (0, 0, None, None)
    assert len(state.epoch) == 16 and open_store("other").journal_state().epoch != state.epoch
    doc = document("a.md", "A", ["alpha"])
    write(store, notes, doc, document("b.md", "B", ["beta"]))
    store.keep_revisions([("doc000", doc.text_hash, b"snapshot-a")])
    store.keep_revisions([("doc000", doc.text_hash, b"another")])  # a kept revision stays as kept
    assert store.revision_structure("doc000", doc.text_hash) == b"snapshot-a"
    assert store.revision_structure("doc001", document("b.md", "B", ["beta"]).text_hash) is None  # none kept
    run = store.start_run(["notes"])
    failure = FileFailure("x.docx", "corrupt", "bad zip", 10, 1, "f" * 64)
    store.write_documents(notes, run, [], [], [failure], [])
    store.write_documents(notes, run, [], [], [failure], [])  # still failing the same way: once
    entries = store.journal_entries()
    assert [(e.kind, e.docid, e.new_path, e.detail) for e in entries] == [
        ("create", "doc000", "a.md", None), ("create", "doc001", "b.md", None), ("fail", "", "x.docx", "corrupt"),
    ]
    assert store.journal_entries(after=1, through=2) == entries[1:2]
    assert store.journal_entries(docid="doc001") == entries[1:2]
    assert store.journal_entries(collection="elsewhere") == []
    assert store.journal_entries(since_at="2999-01-01") == []
    assert store.last_document_change("doc000") == entries[0]
    assert store.journal_state().last_seq == entries[-1].seq


def test_prune_by_count_keeps_marks_and_referenced_revisions(store: Store, notes: CollectionRecord) -> None:
    for i in range(4):
        write(store, notes, document(f"n{i}.md", "N", [f"note {i}"]))
    store.keep_revisions([("doc000", document("n0.md", "N", ["note 0"]).text_hash, b"s"),
                          ("doc001", "old-text-hash", b"gone")])
    assert store.prune_journal(90, 10) == 0
    assert store.prune_journal(90, 1) == 3
    state = store.journal_state()
    assert state.pruned_through == 3 and state.pruned_until is not None and state.last_seq == 4
    assert [e.seq for e in store.journal_entries()] == [4]
    # Revisions of current documents stay, whatever the journal forgot; others go.
    assert store.revision_structure("doc000", document("n0.md", "N", ["note 0"]).text_hash) == b"s"
    assert store.revision_structure("doc001", "old-text-hash") is None


def test_saved_capsules_and_receipts(store: Store) -> None:
    record = SavedCapsuleRecord("q", "cap1", "goal", "{}", "2026-01-01T00:00:00Z", ("d1", "d2"))
    store.save_capsule(record, replace=False)
    with pytest.raises(ConflictError):
        store.save_capsule(record, replace=False)
    store.save_capsule(dataclasses.replace(record, name="w", docids=("d2",)), replace=False)
    assert store.saved_capsules(["q"]) == [record]
    assert [r.name for r in store.saved_capsules()] == ["q", "w"]
    assert store.capsules_citing(["d1", "d2", "d9"]) == {"d1": ["q"], "d2": ["q", "w"]}
    with pytest.raises(NotFoundError):
        store.saved_capsules(["nope"])
    first = store.add_receipt("q", "cap1", "fresh", "[]")
    second = store.add_receipt("q", "cap1", "stale", '[{"ref":"E1"}]')
    store.add_receipt("w", "cap1", "fresh", "[]")
    assert store.receipts(["q"]) == [first, second]
    assert store.receipts(["q"], after=first.id) == [second]
    assert [(r.name, r.status) for r in store.receipts(latest=True)] == [("q", "stale"), ("w", "fresh")]
    store.save_capsule(dataclasses.replace(record, docids=("d3",)), replace=True)  # replacing drops receipts
    assert store.receipts(["q"]) == [] and store.capsules_citing(["d1"]) == {}
    store.delete_capsule("q")
    with pytest.raises(NotFoundError):
        store.delete_capsule("q")


def test_prune_by_age(store: Store, notes: CollectionRecord) -> None:
    import time

    write(store, notes, document("old.md", "O", ["old"]))
    time.sleep(1.1)  # the journal's clock has second precision
    assert store.prune_journal(0, 1000) == 1  # 0 days: everything before this second
    write(store, notes, document("new.md", "N", ["new"]))
    assert store.prune_journal(0, 1000) == 0
    assert [e.new_path for e in store.journal_entries()] == ["new.md"]
