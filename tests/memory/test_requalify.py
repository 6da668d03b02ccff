"""Requalification of code-bound memory (issue 15, point 6), through a real Workspace over
a real SQLite index and a real git-less project folder: symbols bound by body hash,
freshness from the newest code snapshot, source-changed signals from ``code refresh``,
and the plan's cautions; then once end to end through the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.code.diff import ChangedCode, CodeChange
from cairn.errors import ValidationError
from cairn.memory.governor import Candidate, plan
from cairn.memory.scope import Caller
from tests.conftest import run_cli

MOD = (
    "def parse(x):\n    return x + 1\n\n\n"
    "def other(y):\n    return y * 2\n\n\n"
    "class Box:\n    def get(self):\n        return 1\n"
)
TASK = "what does parse add to its input"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cairn_home: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text(MOD)
    (root / "README.txt").write_text("notes\n")
    monkeypatch.chdir(root)
    monkeypatch.setenv("CAIRN_USER", "ann")
    return root


@pytest.fixture
def ws(folder: Path) -> Iterator[Any]:
    workspace = cairn.open()
    workspace.code_refresh(str(folder))
    yield workspace
    workspace.close()


def edit(folder: Path, old: str, new: str, path: str = "pkg/mod.py") -> None:
    file = folder / path
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new))


def signals(ws: Any, rid: str) -> list[Any]:
    return [s for s in ws.memory_history(rid).signals if s.kind == "source-changed"]


def bound(ws: Any, *symbols: str, files: tuple[str, ...] = ()) -> str:
    added = ws.memory_add("parse adds one to its input", "parse(x) returns x + 1", type="gotcha",
                          symbols=list(symbols), files=list(files))
    return str(added.item.id)


def test_symbols_bind_by_body_hash_under_the_code_graph_names(ws: Any) -> None:
    item = ws.memory_add("Box.get", "returns one", symbols=["pkg.mod.parse", "pkg/mod.py::Box.get"]).item
    assert item.symbols == ["pkg.mod.parse", "pkg.mod.Box.get"]  # as `cairn code symbols` lists them
    refs = {e.target: e for e in item.evidence if e.kind == "symbol"}
    assert set(refs) == {"pkg/mod.py::parse", "pkg/mod.py::Box.get"}
    assert refs["pkg/mod.py::parse"].hash == ws.code_show("pkg.mod.parse").symbol.body_hash
    assert (refs["pkg/mod.py::Box.get"].start, refs["pkg/mod.py::Box.get"].end) == (10, 11)
    assert item.freshness == "fresh"
    unknown = ws.memory_add("nowhere", "x", symbols=["pkg.mod.nowhere"])
    assert unknown.item.symbols == ["pkg.mod.nowhere"] and unknown.item.freshness == "unknown"
    assert any("not in a code snapshot" in h for h in unknown.hints)
    with pytest.raises(ValidationError, match="bind a symbol with symbols"):
        ws.memory_add("t", "n", evidence=[{"kind": "symbol", "target": "pkg/mod.py::parse"}])


def test_body_edit_of_a_bound_function_is_suspect_with_one_signal_and_a_plan_caution(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse")
    first = ws.code_snapshots().snapshots[0].id
    edit(folder, "return x + 1", "return x + 2")  # the body only; the signature is the same
    assert ws.code_refresh(str(folder)).requalified == 1
    second = ws.code_snapshots().snapshots[0].id
    item = ws.memory_show(rid)
    assert (item.freshness, item.stale_reasons, item.quality) == (
        "suspect", ["symbol_changed:pkg/mod.py::parse"], "degraded")
    [signal] = signals(ws, rid)
    assert signal.note == f"symbol_changed pkg/mod.py::parse (code snapshots {first}->{second})"
    assert signal.actor == "code-refresh"
    # Re-refresh of an unchanged tree: no new signal.
    assert ws.code_refresh(str(folder)).requalified == 0
    assert len(signals(ws, rid)) == 1
    result = ws.plan(TASK, explain=True)
    [entry] = [i for i in result.items if i.key == rid]
    assert entry.disposition in ("include", "compact")
    assert {"freshness.suspect_source", "freshness.code_changed", "quality.degraded"} <= set(entry.reasons)
    codes = [(c.code, c.key) for c in result.cautions]
    assert ("freshness.code_changed", rid) in codes and ("freshness.suspect_source", rid) not in codes
    caution = next(c for c in result.cautions if c.code == "freshness.code_changed")
    assert "pkg/mod.py::parse" in caution.message
    freshness_step = next(s for s in result.trace if s.step == "freshness")
    assert any(f.key == rid and f.code == "freshness.code_changed" for f in freshness_step.flagged)
    assert "freshness.code_changed" in json.dumps(result.model_dump(mode="json"))


def test_an_edit_elsewhere_in_the_file_leaves_symbol_bound_memory_fresh(ws: Any, folder: Path) -> None:
    precise = bound(ws, "pkg.mod.parse", files=("pkg/mod.py",))  # the file is judged by its symbols
    whole_file = ws.memory_add("mod.py layout", "three definitions", files=["pkg/mod.py"]).item.id
    edit(folder, "return y * 2", "return y * 3")
    assert ws.code_refresh(str(folder)).requalified == 1  # the file-bound record only
    item = ws.memory_show(precise)
    assert (item.freshness, item.stale_reasons, item.quality) == ("fresh", [], "probation")
    assert signals(ws, precise) == []
    other = ws.memory_show(whole_file)
    assert (other.freshness, other.stale_reasons) == ("suspect", ["file_changed:pkg/mod.py"])
    assert [s.note.split(" (")[0] for s in signals(ws, whole_file)] == ["file_changed pkg/mod.py"]
    assert not any(c.key == precise for c in ws.plan(TASK).cautions)


def test_a_deleted_symbol_makes_memory_stale(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse", files=("pkg/mod.py",))
    edit(folder, "def parse(x):\n    return x + 1\n\n\n", "")
    assert ws.code_refresh(str(folder)).requalified == 1
    item = ws.memory_show(rid)
    assert (item.freshness, item.stale_reasons) == ("stale", ["symbol_removed:pkg/mod.py::parse"])
    assert signals(ws, rid)[0].note.startswith("symbol_removed pkg/mod.py::parse (code snapshots")
    result = ws.plan(TASK, explain=True)
    [entry] = [i for i in result.items if i.key == rid]
    assert entry.disposition == "exclude"
    assert entry.reasons == ["freshness.symbol_removed", "freshness.stale_source"]
    assert [(c.code, c.key) for c in result.cautions] == [("freshness.symbol_removed", rid)]


def test_a_renamed_symbol_is_suspect_not_stale(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse")
    edit(folder, "def parse(x):", "def parse_value(x):")
    ws.code_refresh(str(folder))
    item = ws.memory_show(rid)
    assert (item.freshness, item.stale_reasons) == (
        "suspect", ["symbol_moved:pkg/mod.py::parse->pkg/mod.py::parse_value"])
    assert signals(ws, rid)[0].note.startswith(
        "symbol_moved pkg/mod.py::parse -> pkg/mod.py::parse_value (code snapshots")


def test_file_bound_memory_on_a_deleted_file_is_stale(ws: Any, folder: Path) -> None:
    (folder / "pkg" / "extra.py").write_text("VALUE = 1\n")
    ws.code_refresh(str(folder))
    rid = ws.memory_add("extra holds VALUE", "one constant", files=["pkg/extra.py"]).item.id
    (folder / "pkg" / "extra.py").unlink()
    assert ws.code_refresh(str(folder)).requalified == 1
    item = ws.memory_show(rid)
    assert (item.freshness, item.stale_reasons) == ("stale", ["file_gone:pkg/extra.py"])
    assert signals(ws, rid)[0].note.startswith("file_removed pkg/extra.py (code snapshots")
    [entry] = [i for i in ws.plan("what does extra hold").items if i.key == rid]
    assert entry.reasons == ["freshness.file_removed", "freshness.stale_source"]


def test_a_syntax_error_is_not_a_removed_symbol(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse")
    edit(folder, "def other(y):", "def other(y:")
    ws.code_refresh(str(folder))
    item = ws.memory_show(rid)
    assert (item.freshness, item.stale_reasons) == ("unknown", ["symbol_unchecked:pkg/mod.py::parse"])
    assert signals(ws, rid) == []


def test_a_snapshot_pair_signals_once(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse")
    changed = ChangedCode(frozenset({"pkg/mod.py"}), frozenset({"pkg.mod.parse"}), {},
                          (CodeChange("symbol_changed", "pkg/mod.py", "parse"),))
    memory = ws._memory
    assert memory.note_code_refresh(str(folder), 7, 8, changed) == 1
    assert memory.note_code_refresh(str(folder), 7, 8, changed) == 0
    assert memory.note_code_refresh(str(folder), 8, 9, changed) == 1
    assert len(signals(ws, rid)) == 2


def test_a_root_inside_the_project_maps_its_paths(ws: Any, folder: Path) -> None:
    ws.code_refresh(str(folder / "pkg"))  # its modules are named from pkg/: mod.parse
    rid = ws.memory_add("parse", "adds one", symbols=["mod.parse"]).item.id
    assert [e.target for e in ws.memory_show(rid).evidence if e.kind == "symbol"] == ["pkg/mod.py::parse"]
    edit(folder, "return x + 1", "return x + 5")
    assert ws.code_refresh(str(folder / "pkg")).requalified == 1
    assert ws.memory_show(rid).stale_reasons == ["symbol_changed:pkg/mod.py::parse"]


def test_the_governor_names_what_changed() -> None:
    def cand(key: str, freshness: Any, reasons: tuple[str, ...]) -> Candidate:
        return Candidate(key=key, kind="observation", title=key, text="parse adds one", compact="parse",
                         tokens=5, compact_tokens=2, relevance=0.9, project="p", source="manual", evidence=1,
                         freshness=freshness, freshness_reasons=reasons)

    result = plan("parse", [cand("a", "suspect", ("symbol_changed:m.py::f", "symbol_changed:m.py::g")),
                            cand("b", "suspect", ("file_changed:m.py",)),
                            cand("c", "stale", ("symbol_removed:m.py::h",))], Caller("p"), 400)
    items = {i.key: i for i in result.items}
    assert items["a"].reasons[:2] == ["freshness.suspect_source", "freshness.code_changed"]
    assert items["b"].reasons[:2] == ["freshness.suspect_source", "freshness.file_changed"]
    assert items["c"].disposition == "exclude"
    assert sorted((c.code, c.key) for c in result.cautions) == [
        ("freshness.code_changed", "a"), ("freshness.suspect_source", "b"), ("freshness.symbol_removed", "c")]
    message = next(c.message for c in result.cautions if c.key == "a")
    assert "m.py::f, m.py::g" in message


def test_end_to_end_through_the_cli(folder: Path) -> None:
    run_cli("code", "refresh", str(folder))
    added = json.loads(run_cli("memory", "add", "parse adds one to its input", "--symbol", "pkg.mod.parse",
                               "--file", "pkg/mod.py", "--source", "manual", "--json").stdout)
    rid = added["item"]["id"]
    assert [e["target"] for e in added["item"]["evidence"] if e["kind"] == "symbol"] == ["pkg/mod.py::parse"]
    edit(folder, "return y * 2", "return y * 4")
    assert json.loads(run_cli("code", "refresh", str(folder), "--json").stdout)["requalified"] == 0
    edit(folder, "return x + 1", "return x + 3")
    assert json.loads(run_cli("code", "refresh", str(folder), "--json").stdout)["requalified"] == 1
    assert json.loads(run_cli("code", "refresh", str(folder), "--json").stdout)["requalified"] == 0
    shown = json.loads(run_cli("memory", "show", rid, "--json").stdout)
    assert (shown["freshness"], shown["quality"], shown["signals"]) == ("suspect", "degraded", 1)
    planned = json.loads(run_cli("plan", TASK, "--explain", "--json").stdout)
    assert any(c["code"] == "freshness.code_changed" and c["key"] == rid for c in planned["cautions"])
    text = run_cli("plan", TASK, "--explain").stdout
    assert "freshness.code_changed" in text


def test_a_refresh_that_prunes_the_previous_snapshot_still_requalifies(ws: Any, folder: Path) -> None:
    rid = bound(ws, "pkg.mod.parse")
    edit(folder, "return x + 1", "return x + 7")
    assert ws.code_refresh(str(folder), keep=1).requalified == 1  # the diff is read before the prune
    assert len(ws.code_snapshots().snapshots) == 1
    assert ws.memory_show(rid).freshness == "suspect"
