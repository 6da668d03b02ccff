"""The evaluation bench's stored indexes survive a moved work folder: a copy of
``bench/.work`` (or one built in a worktree since deleted) is re-rooted under its own
``docs/`` and indexes as unchanged, so nothing is re-embedded (issue 17)."""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.eval_retrieval import reroot

import cairn


def test_a_copied_work_folder_is_re_rooted_and_indexes_unchanged(tmp_path: Path) -> None:
    old = tmp_path / "old"
    docs = old / "docs" / "notes"
    docs.mkdir(parents=True)
    (docs / "a.md").write_text("# Alpha\n\nwind tunnel boundary layer\n", encoding="utf-8")
    (docs / "b.md").write_text("# Beta\n\nprotein folding in yeast\n", encoding="utf-8")
    ws = cairn.open(home=old / "home", index="notes")
    ws.add_collection(docs, name="notes")
    assert ws.index().counts.added == 2
    ws.close()

    new = tmp_path / "new"
    shutil.copytree(old, new)
    shutil.rmtree(old)
    index_file = new / "home" / "indexes" / "notes.sqlite"
    assert reroot(index_file, new / "docs") == ["notes"]
    assert reroot(index_file, new / "docs") == []  # already in place: untouched

    ws = cairn.open(home=new / "home", index="notes")
    try:
        summary = ws.index()
        assert summary.counts.failed == 0
        assert summary.counts.added == summary.counts.updated == summary.counts.removed == 0
        assert [c.root for c in ws.list_collections().collections] == [str((new / "docs" / "notes").resolve())]
        assert ws.search("boundary layer").results[0].uri.endswith("/a.md")
    finally:
        ws.close()
