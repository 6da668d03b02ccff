"""Which changed paths each collection reconciles (pure: real folders, no watcher)."""

from __future__ import annotations

from pathlib import Path

from cairn.runtime.watch import WatchedRoot, affected_paths, merge_paths


def _roots(tmp_path: Path) -> tuple[WatchedRoot, ...]:
    (tmp_path / "notes" / "sub").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    return (
        WatchedRoot("notes", str((tmp_path / "notes").resolve()), ("**/*.md",), ("drafts/**",)),
        WatchedRoot("work", str((tmp_path / "work").resolve()), ("**/*.md", "**/*.txt"), ()),
    )


def test_changes_map_to_relative_paths_of_their_collection(tmp_path: Path) -> None:
    roots = _roots(tmp_path)
    notes, work = tmp_path / "notes", tmp_path / "work"
    (notes / "a.md").write_text("a")
    (work / "b.txt").write_text("b")
    changed = [str(notes / "a.md"), str(work / "b.txt"), str(notes / "gone.md"), str(tmp_path / "elsewhere.md")]
    assert affected_paths(roots, changed) == {"notes": ["a.md", "gone.md"], "work": ["b.txt"]}


def test_paths_the_rules_would_not_index_are_ignored(tmp_path: Path) -> None:
    roots = _roots(tmp_path)
    notes = tmp_path / "notes"
    (notes / "a.md.tmp").write_text("temporary file of an atomic save")
    (notes / ".hidden").mkdir()
    changed = [
        str(notes / "a.md.tmp"),          # not included
        str(notes / ".a.md.swp"),         # hidden
        str(notes / ".hidden" / "x.md"),  # under a hidden folder
        str(notes / "node_modules" / "y.md"),
        str(notes / "drafts" / "z.md"),   # excluded
        str(notes / "old.tmp"),           # a vanished file the rules do not take
    ]
    assert affected_paths(roots, changed) == {}


def test_folders_are_kept_whole_and_a_gitignore_reconciles_its_folder(tmp_path: Path) -> None:
    roots = _roots(tmp_path)
    notes = tmp_path / "notes"
    assert affected_paths(roots, [str(notes / "sub")]) == {"notes": ["sub"]}
    assert affected_paths(roots, [str(notes / "moved-away")]) == {"notes": ["moved-away"]}
    assert affected_paths(roots, [str(notes / "sub" / ".gitignore")]) == {"notes": ["sub"]}
    assert affected_paths(roots, [str(notes / ".gitignore"), str(notes / "a.md")]) == {"notes": None}


def test_index_payloads_merge_into_one_job() -> None:
    assert merge_paths({"collection": "n", "paths": ["b", "a"]}, {"collection": "n", "paths": ["c", "a"]}) == {
        "collection": "n", "paths": ["a", "b", "c"]}
    assert merge_paths({"collection": "n", "paths": ["a"]}, {"collection": "n", "paths": None})["paths"] is None
