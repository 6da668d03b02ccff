"""``get`` reads exactly what a printed reference names."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def test_a_span_reference_reads_its_lines_through_the_sdk(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "v"
    root.mkdir()
    (root / "n.md").write_text("".join(f"line {i}\n" for i in range(1, 21)), encoding="utf-8")
    ws.add_collection(root, name="v")
    ws.index()
    got = ws.get("cairn://v/n.md:12-14")
    assert (got.start_line, got.end_line, got.text) == (12, 14, "line 12\nline 13\nline 14")
    # explicit lines win over the span; a bare reference reads the whole document
    assert ws.get("v/n.md:12-14", from_line=2, lines=1).text == "line 2"
    assert ws.get("v/n.md").total_lines == 20
