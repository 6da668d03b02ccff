"""Reconciling a given set of changed paths (what a file watcher hands the indexer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cairn.errors import ValidationError


def _vault(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("# A\n\nalpha apples\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n\nbravo bananas\n", encoding="utf-8")
    (root / "sub" / "c.md").write_text("# C\n\ncharlie cherries\n", encoding="utf-8")
    (root / "sub" / "d.md").write_text("# D\n\ndelta dates\n", encoding="utf-8")
    return root


def test_only_the_given_paths_are_reconciled(ws: Any, tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    ws.add_collection(root, name="v")
    assert ws.index().counts.added == 4
    (root / "a.md").write_text("# A\n\nalpha apricots\n", encoding="utf-8")  # changed
    (root / "b.md").write_text("# B\n\nbravo blueberries\n", encoding="utf-8")  # changed, not given
    (root / "e.md").write_text("# E\n\necho elderberries\n", encoding="utf-8")  # new
    (root / "sub" / "c.md").rename(root / "sub" / "c2.md")  # renamed
    summary = ws.index("v", paths=["a.md", "e.md", "sub/c.md", "sub/c2.md"])
    counts = summary.counts
    assert (counts.updated, counts.added, counts.renamed, counts.removed) == (1, 1, 1, 0)
    assert counts.unchanged == 0  # sub/d.md and b.md were not even looked at
    assert ws.search("apricots").results and ws.search("elderberries").results
    assert not ws.search("blueberries").results  # b.md was not given: not re-read
    assert [r.uri for r in ws.search("charlie").results] == ["cairn://v/sub/c2.md"]
    # A whole folder given, deleted: everything under it goes, nothing else.
    for child in (root / "sub").iterdir():
        child.unlink()
    (root / "sub").rmdir()
    counts = ws.index("v", paths=["sub"]).counts
    assert counts.removed == 2 and counts.added == counts.updated == 0
    assert sorted(d.path for d in ws.ls("v").documents) == ["a.md", "b.md", "e.md"]
    # A full run then finds only what the partial runs skipped.
    assert ws.index().counts.updated == 1


def test_partial_walk_keeps_the_collection_rules(ws: Any, tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    (root / ".gitignore").write_text("ignored/\n", encoding="utf-8")
    (root / "ignored").mkdir()
    (root / "ignored" / "x.md").write_text("# X\n\nxray\n", encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "y.md").write_text("# Y\n\nyankee\n", encoding="utf-8")
    (root / "z.py").write_text("print('zulu')\n", encoding="utf-8")  # not included by default
    ws.add_collection(root, name="v")
    ws.index()
    counts = ws.index("v", paths=["ignored/x.md", ".hidden/y.md", "z.py"]).counts
    assert counts.added == 0 and counts.removed == 0
    assert not ws.search("xray").results and not ws.search("yankee").results


def test_paths_need_a_collection(ws: Any, tmp_path: Path) -> None:
    ws.add_collection(_vault(tmp_path / "v"), name="v")
    with pytest.raises(ValidationError, match="paths need a collection"):
        ws.index(paths=["a.md"])
