"""The code graph through the SDK: refresh (incremental, retention), diff fixtures, impact,
symbols and show, on real files and a real index."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from cairn.contracts.code import CodeDiff
from cairn.errors import NotFoundError, ValidationError
from tests.code.test_python import write

BASE = {
    "app/__init__.py": "",
    "app/core.py": "def helper(x):\n    return x + 1\n\n\ndef other():\n    return 2\n\n\n"
                   "class Engine:\n    def start(self):\n        return helper(1)\n",
    "app/util.py": "def shared(a):\n    return a * 2\n",
    "app/cli.py": "from app.core import Engine, helper\n\n\ndef main():\n    return helper(3)\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, BASE)
    return root


def change(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.write_text(text, encoding="utf-8")
    stat = path.stat()  # a new mtime even within the filesystem's clock resolution
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def refresh_diff(ws: Any, root: Path, edits: dict[str, str | None]) -> CodeDiff:
    ws.code_refresh(str(root))
    for rel, text in edits.items():
        if text is None:
            (root / rel).unlink()
        else:
            change(root, rel, text)
    ws.code_refresh(str(root))
    diff: CodeDiff = ws.code_diff()
    return diff


def symbol_changes(diff: CodeDiff) -> list[tuple[str, str | None, str | None, bool, bool]]:
    return [(s.change, s.old.qualname if s.old else None, s.new.qualname if s.new else None,
             s.body_changed, s.signature_changed) for s in diff.symbols]


def test_refresh_is_incremental_and_keeps_n_snapshots(ws: Any, project: Path) -> None:
    first = ws.code_refresh(str(project), keep=2)
    assert (first.parsed, first.reused) == (4, 0)
    assert first.snapshot.complete and first.snapshot.files == 4
    python = next(cov for cov in first.coverage if cov.provider == "python")
    assert python.files_parsed == 4 and "import" in python.confidence
    second = ws.code_refresh(str(project), keep=2)
    assert (second.parsed, second.reused) == (0, 4)
    assert second.snapshot.fingerprint == first.snapshot.fingerprint
    change(project, "app/util.py", "def shared(a):\n    return a * 3\n")
    third = ws.code_refresh(str(project), keep=2)
    assert (third.parsed, third.reused) == (1, 3)
    assert third.snapshot.fingerprint != first.snapshot.fingerprint
    assert [s.id for s in ws.code_snapshots().snapshots] == [third.snapshot.id, second.snapshot.id]
    with pytest.raises(ValidationError):
        ws.code_refresh(str(project / "nope"))
    with pytest.raises(ValidationError):
        ws.code_refresh(str(project), keep=0)


def test_diff_rename(ws: Any, project: Path) -> None:
    diff = refresh_diff(ws, project, {"app/util.py": "def doubled(a):\n    return a * 2\n"})
    assert symbol_changes(diff) == [("renamed", "app.util.shared", "app.util.doubled", False, False)]
    assert [f.path for f in diff.files] == ["app/util.py"]


def test_diff_body_only_change(ws: Any, project: Path) -> None:
    diff = refresh_diff(ws, project, {"app/util.py": "def shared(a):\n    return a * 4\n"})
    assert symbol_changes(diff) == [("changed", "app.util.shared", "app.util.shared", True, False)]


def test_diff_signature_only_change(ws: Any, project: Path) -> None:
    diff = refresh_diff(ws, project, {"app/util.py": "def shared(a, b=0):\n    return a * 2\n"})
    assert symbol_changes(diff) == [("changed", "app.util.shared", "app.util.shared", False, True)]


def test_diff_move_between_files(ws: Any, project: Path) -> None:
    diff = refresh_diff(ws, project, {
        "app/util.py": "",
        "app/core.py": BASE["app/core.py"] + "\n\ndef shared(a):\n    return a * 2\n",
    })
    assert symbol_changes(diff) == [("moved", "app.util.shared", "app.core.shared", False, False)]
    assert diff.symbols[0].new is not None and diff.symbols[0].new.path == "app/core.py"


def test_diff_deleted_symbol(ws: Any, project: Path) -> None:
    core = BASE["app/core.py"].replace("def other():\n    return 2\n\n\n", "")
    diff = refresh_diff(ws, project, {"app/core.py": core})
    assert symbol_changes(diff) == [("removed", "app.core.other", None, False, False)]


def test_diff_new_and_removed_edges(ws: Any, project: Path) -> None:
    diff = refresh_diff(ws, project, {
        "app/util.py": "from app.core import other\n\n\ndef shared(a):\n    return other() * 2\n",
    })
    added = {(e.edge.kind, e.edge.source, e.edge.target) for e in diff.edges if e.change == "added"}
    assert added == {("import", "app.util", "app.core"), ("reference", "app.util", "app.core.other"),
                     ("call", "app.util.shared", "app.core.other")}
    assert not [e for e in diff.edges if e.change == "removed"]
    diff = refresh_diff(ws, project, {"app/cli.py": "def main():\n    return 3\n"})
    removed = {(e.edge.kind, e.edge.source, e.edge.target) for e in diff.edges if e.change == "removed"}
    assert removed == {("import", "app.cli", "app.core"), ("reference", "app.cli", "app.core.Engine"),
                       ("reference", "app.cli", "app.core.helper"), ("call", "app.cli.main", "app.core.helper")}
    assert symbol_changes(diff) == [("changed", "app.cli.main", "app.cli.main", True, False)]


def test_diff_refuses_incomplete_and_lonely_snapshots(ws: Any, project: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    first = ws.code_refresh(str(project))
    with pytest.raises(NotFoundError, match="nothing to diff"):
        ws.code_diff()
    monkeypatch.setattr("cairn.code.scan.MAX_FILES", 2)
    second = ws.code_refresh(str(project))
    assert not second.snapshot.complete and "more than 2 code files" in second.snapshot.reason
    with pytest.raises(ValidationError, match="incomplete"):
        ws.code_diff(from_snapshot=first.snapshot.id, to_snapshot=second.snapshot.id)


def test_impact_is_bounded_and_explained(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "chain"
    files = {"c/__init__.py": ""}
    for i in range(6):
        body = f"from c import m{i + 1}\n\n\ndef f{i}():\n    return m{i + 1}.f{i + 1}()\n" if i < 5 else \
            f"def f{i}():\n    return {i}\n"
        files[f"c/m{i}.py"] = body
    write(root, files)
    ws.code_refresh(str(root))
    impact = ws.code_impact("c/m5.py", depth=10)
    modules = {n.node: n.distance for n in impact.nodes if n.kind == "module"}
    assert modules == {"c.m4": 1, "c.m3": 2, "c.m2": 3, "c.m1": 4, "c.m0": 5}
    far = next(n for n in impact.nodes if n.node == "c.m0")
    assert [(e.source, e.target) for e in far.via] == [
        ("c.m0", "c.m1"), ("c.m1", "c.m2"), ("c.m2", "c.m3"), ("c.m3", "c.m4"), ("c.m4", "c.m5")]
    assert not impact.truncated
    short = ws.code_impact("c/m5.py", depth=2)
    assert short.truncated and "depth 2" in short.truncation
    assert max(n.distance for n in short.nodes) == 2
    few = ws.code_impact("c/m5.py", max_nodes=3)
    assert len(few.nodes) == 3 and few.truncation == "max_nodes 3 reached"
    by_symbol = ws.code_impact("c.m5.f5", depth=10)
    assert [n.node for n in by_symbol.nodes] == ["c.m4.f4", "c.m3.f3", "c.m2.f2", "c.m1.f1", "c.m0.f0"]
    assert ws.code_impact(str(root / "c" / "m5.py")).starts == impact.starts
    with pytest.raises(ValidationError, match="not indexed"):
        ws.code_impact("c/nope.py")
    with pytest.raises(NotFoundError, match="no symbol"):
        ws.code_impact("c.m9.f9")


def test_unparsed_file_is_refused_with_its_reason(ws: Any, project: Path) -> None:
    write(project, {"app/broken.py": "def (:\n"})
    refreshed = ws.code_refresh(str(project))
    assert [f.path for f in refreshed.failed] == ["app/broken.py"]
    with pytest.raises(ValidationError, match="syntax error"):
        ws.code_impact("app/broken.py")
    with pytest.raises(ValidationError, match="syntax error"):
        ws.code_symbols("app/broken.py")


def test_symbols_and_show(ws: Any, project: Path) -> None:
    with pytest.raises(NotFoundError, match="code refresh"):
        ws.code_symbols("app/core.py")
    ws.code_refresh(str(project))
    listed = ws.code_symbols("app/core.py")
    assert [(s.qualname, s.kind, s.start_line, s.end_line) for s in listed.symbols] == [
        ("app.core", "module", 1, 11), ("app.core.helper", "function", 1, 2),
        ("app.core.other", "function", 5, 6), ("app.core.Engine", "class", 9, 11),
        ("app.core.Engine.start", "method", 10, 11)]
    shown = ws.code_show("app.core.Engine.start")
    assert shown.text == "    def start(self):\n        return helper(1)\n" and shown.current
    change(project, "app/core.py", "# moved down\n" + BASE["app/core.py"])
    assert not ws.code_show("app.core.Engine.start").current
    with pytest.raises(NotFoundError):
        ws.code_show("app.core.nope")


@pytest.mark.parametrize("edits", [
    {"app/util.py": "def shared(a):\n    return a * 5\n"},  # body only: nothing else re-resolved
    {"app/core.py": BASE["app/core.py"].replace("def other", "def renamed")},  # a name goes
    {"app/core.py": BASE["app/core.py"] + "\n\ndef main_helper():\n    return 0\n",
     "app/util.py": "def shared(a):\n    return a\n"},
    {"app/cli.py": "from app.core import Engine, helper, later\n\n\ndef main():\n    return later()\n"},
])
def test_an_incremental_refresh_equals_a_full_one(tmp_path: Path, edits: dict[str, str]) -> None:
    import cairn

    root = tmp_path / "proj"
    write(root, {**BASE, "app/late.py": "from app.core import later\n\n\ndef use():\n    return later()\n"})
    with cairn.open(tmp_path / "inc") as ws:
        ws.code_refresh(str(root))
        for rel, text in edits.items():
            change(root, rel, text)
        # and a name that unchanged files wait for appears
        change(root, "app/core.py", (root / "app/core.py").read_text() + "\n\ndef later():\n    return 9\n")
        incremental = ws.code_refresh(str(root))
        assert incremental.reused >= 1
        inc_store = ws._open_store(False)
        sid = incremental.snapshot.id
        inc = (set(inc_store.code_symbols(sid)), set(inc_store.code_edges(sid)))
    with cairn.open(tmp_path / "full") as ws:
        full = ws.code_refresh(str(root))
        full_store = ws._open_store(False)
        fid = full.snapshot.id
        assert inc == (set(full_store.code_symbols(fid)), set(full_store.code_edges(fid)))
        assert (incremental.snapshot.symbols, incremental.snapshot.edges) == (full.snapshot.symbols, full.snapshot.edges)
    assert ("app.late.use", "app.core.later") in {(e.source, e.target) for e in inc[1] if e.kind == "call"}
