"""The diff's pure core and the seam for requalifying code-bound memory."""

from __future__ import annotations

from cairn.code.diff import changed_code, changed_in, diff_files, diff_snapshots
from cairn.code.model import Edge, FileEntry, Symbol


def sym(qualname: str, path: str, body: str, signature: str = "s") -> Symbol:
    return Symbol(qualname, qualname.rpartition(".")[2], "function", path, 1, 2, signature, body)


def entry(path: str, digest: str) -> FileEntry:
    return FileEntry(path, 1, 1, digest, "python", "parsed")


def test_changed_code_names_what_memory_must_recheck() -> None:
    old = [sym("a.keep", "a.py", "k"), sym("a.edit", "a.py", "e1"), sym("a.old_name", "a.py", "r"),
           sym("a.gone", "a.py", "g"), sym("a.mover", "a.py", "m")]
    new = [sym("a.keep", "a.py", "k"), sym("a.edit", "a.py", "e2"), sym("a.new_name", "a.py", "r"),
           sym("b.mover", "b.py", "m"), sym("b.fresh", "b.py", "f")]
    diff = diff_snapshots([entry("a.py", "1"), entry("c.py", "3")], [entry("a.py", "2"), entry("b.py", "9")],
                          old, new, [Edge("import", "a", "c", "a.py", 1)], [Edge("import", "a", "b", "a.py", 1)])
    assert [(c.change, c.path) for c in diff.files] == [("changed", "a.py"), ("added", "b.py"), ("removed", "c.py")]
    assert {(c.change, c.old.qualname if c.old else None) for c in diff.symbols} == {
        ("changed", "a.edit"), ("renamed", "a.old_name"), ("moved", "a.mover"), ("removed", "a.gone"),
        ("added", None)}
    assert [(c.change, c.edge.target) for c in diff.edges] == [("removed", "c"), ("added", "b")]
    seam = changed_code(diff)
    assert seam.paths == {"a.py", "c.py"}
    assert seam.symbols == {"a.edit", "a.old_name", "a.mover", "a.gone"}
    assert seam.renamed == {"a.old_name": "a.new_name", "a.mover": "b.mover"}


def test_changed_code_lists_body_changes_by_place() -> None:
    old = [sym("a.edit", "a.py", "e1"), sym("a.sig", "a.py", "s", "x"), sym("a.gone", "a.py", "g"),
           sym("a.old_name", "a.py", "r")]
    new = [sym("a.edit", "a.py", "e2"), sym("a.sig", "a.py", "s", "y"), sym("a.new_name", "a.py", "r")]
    seam = changed_code(diff_snapshots([entry("a.py", "1"), entry("c.py", "3")], [entry("a.py", "2")],
                                       old, new, [], []))
    assert [(c.kind, c.path, c.name, c.now) for c in seam.changes] == [
        ("file_changed", "a.py", None, None), ("file_removed", "c.py", None, None),
        ("symbol_changed", "a.py", "edit", None),  # a signature-only change is not a body change
        ("symbol_moved", "a.py", "old_name", "a.py::new_name"), ("symbol_removed", "a.py", "gone", None)]


def test_a_file_that_no_longer_parses_removes_no_symbol() -> None:
    broken = FileEntry("a.py", 1, 1, "2", "python", "failed", "syntax error")
    files = tuple(diff_files([entry("a.py", "1")], [broken]))
    seam = changed_in(files, [sym("a.f", "a.py", "f")], [])
    assert [(c.kind, c.path) for c in seam.changes] == [("file_changed", "a.py")]
