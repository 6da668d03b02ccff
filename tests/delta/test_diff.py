"""Structural diffs on real notes (tldr pages): each edit is named exactly."""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest

from cairn.contracts.delta import DiffSummary, DocumentDiff
from cairn.delta.diff import align
from cairn.errors import ValidationError
from tests.schemas import assert_valid

TLDR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
PAGES = ("tar", "git-commit", "ls")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    if not TLDR.is_file():
        pytest.skip("the tldr corpus is not available")
    root = tmp_path / "tldr"
    root.mkdir()
    with tarfile.open(TLDR) as archive:
        for page in PAGES:
            member = archive.extractfile(f"./pages/common/{page}.md")
            assert member is not None
            (root / f"{page}.md").write_bytes(member.read())
    # One page carries frontmatter tags, so that a tag can change.
    tar = root / "tar.md"
    tar.write_text("---\ntags: [archive]\n---\n" + tar.read_text(encoding="utf-8"), encoding="utf-8")
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _only(diff: DocumentDiff, *kinds: str) -> None:
    """The diff names changes of exactly these kinds and nothing else."""
    assert_valid("diff", diff)
    present = {name for name in ("headings", "passages", "links", "frontmatter") if getattr(diff, name)}
    if diff.tags_added or diff.tags_removed:
        present.add("tags")
    assert present == set(kinds), diff.model_dump(exclude_defaults=True)
    assert diff.complete and diff.status == "updated"


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line.startswith(text))


def test_edit_a_heading(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    _edit(vault / "tar.md", "# tar\n", "# tar archives\n")
    ws.index()
    diff = ws.diff("t/tar.md")
    _only(diff, "headings")
    [heading] = diff.headings
    assert (heading.change, heading.old_text, heading.text, heading.level) == ("changed", "tar", "tar archives", 1)
    assert heading.old_line == heading.new_line == 4


def test_move_a_paragraph(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    page = vault / "git-commit.md"
    text = page.read_text(encoding="utf-8")
    item = "- Auto stage all modified and deleted files and commit:\n\n`git commit {{[-a|--all]}} {{[-m|--message]}} \"{{message}}\"`\n\n"
    assert item in text
    old_start = _line(page, "- Auto stage")
    moved = text.replace(item, "")
    first = moved.index("- Open an editor")
    page.write_text(moved[:first] + item + moved[first:], encoding="utf-8")
    ws.index()
    diff = ws.diff("t/git-commit.md")
    _only(diff, "passages")
    assert [p.change for p in diff.passages] == ["moved", "moved"]  # the description and its command
    new_start = _line(page, "- Auto stage")
    assert (diff.passages[0].old_start_line, diff.passages[0].new_start_line) == (old_start, new_start)
    assert diff.passages[0].old_hash == diff.passages[0].new_hash
    assert diff.passages[1].new_start_line == new_start + 2
    assert diff.passages[0].heading == "git commit"


def test_add_a_link(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    page = vault / "ls.md"
    _edit(page, "> List directory contents.\n", "> List directory contents. See also [[tar]].\n")
    ws.index()
    diff = ws.diff("t/ls.md")
    _only(diff, "links", "passages")
    [link] = diff.links
    assert (link.change, link.kind, link.target, link.line) == ("added", "wiki", "tar", _line(page, "> List"))
    # The paragraph holding the new link changed in place, nothing else.
    [passage] = diff.passages
    assert passage.change == "changed" and passage.new_start_line == passage.old_start_line == _line(page, "> List")
    assert passage.old_hash != passage.new_hash


def test_change_a_tag(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    _edit(vault / "tar.md", "tags: [archive]", "tags: [compression]")
    ws.index()
    diff = ws.diff("t/tar.md")
    _only(diff, "tags")
    assert (diff.tags_added, diff.tags_removed) == (["compression"], ["archive"])
    assert diff.counts.tags == 2 and diff.counts.passages == 0


def test_frontmatter_fields_and_removed_passages(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    page = vault / "tar.md"
    _edit(page, "tags: [archive]\n", "tags: [archive]\nstatus: draft\n")
    _edit(page, "- Lis[t] the contents of a tar [f]ile [v]erbosely:\n\n`tar tvf {{path/to/source.tar}}`\n\n", "")
    ws.index()
    diff = ws.diff("t/tar.md")
    _only(diff, "frontmatter", "passages")
    assert [(f.key, f.change, f.after) for f in diff.frontmatter] == [("status", "added", "draft")]
    assert [p.change for p in diff.passages] == ["removed", "removed"]
    assert all(p.new_start_line is None and p.old_start_line for p in diff.passages)


def test_since_a_cursor_summarises_each_document(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    cursor = ws.changes().cursor
    _edit(vault / "tar.md", "# tar\n", "# tar archives\n")
    ws.index()
    _edit(vault / "tar.md", "tags: [archive]", "tags: [compression]")
    (vault / "new.md").write_text("# New\n\nfresh text [[ls]]\n", encoding="utf-8")
    (vault / "ls.md").unlink()
    ws.index()
    summary = ws.diff(since=cursor)
    assert isinstance(summary, DiffSummary)
    assert_valid("diff-summary", summary)
    by_path = {d.path: d for d in summary.documents}
    assert set(by_path) == {"tar.md", "new.md", "ls.md"}
    tar = by_path["tar.md"]
    assert (tar.status, tar.counts.headings, tar.counts.tags, tar.counts.passages) == ("updated", 1, 2, 0)
    assert tar.headings == ["tar archives"]
    assert by_path["new.md"].status == "created" and by_path["new.md"].counts.links == 1
    gone = by_path["ls.md"]
    assert gone.status == "deleted" and gone.counts.passages > 0 and gone.counts.headings == 1
    # One document since the cursor: both edits of tar.md against its state then.
    single = ws.diff("t/tar.md", since=cursor)
    assert len(single.headings) == 1 and single.tags_added == ["compression"]
    # The deleted document can still be diffed (everything removed).
    deleted = ws.diff(gone.docid)
    assert deleted.status == "deleted" and all(p.change == "removed" for p in deleted.passages)
    # Polling with the summary's cursor: nothing new.
    assert ws.diff(since=summary.cursor).documents == []
    with pytest.raises(ValidationError):
        ws.diff()


def test_rename_only_and_unchanged(ws: Any, vault: Path) -> None:
    ws.add_collection(vault, name="t")
    ws.index()
    cursor = ws.changes().cursor
    (vault / "ls.md").rename(vault / "list.md")
    ws.index()
    diff = ws.diff("t/list.md", since=cursor)
    assert (diff.status, diff.old_path, diff.passages) == ("renamed", "ls.md", [])
    assert ws.diff("t/git-commit.md", since=cursor).status == "unchanged"
    assert ws.diff("t/git-commit.md").status == "created"  # its previous revision: none


def test_align_pairs_moves_changes_and_leftovers() -> None:
    a = align(["A", "B", "C", "D"], ["A", "C", "X", "D", "B"])
    assert a.moved == [(1, 4)] and a.changed == [] and a.added == [2] and a.removed == []
    b = align(["A", "B", "C"], ["A", "Y", "C", "Z"])
    assert b.changed == [(1, 1)] and b.added == [3] and b.moved == [] and b.removed == []
