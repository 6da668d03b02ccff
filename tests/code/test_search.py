"""Code in search: code files are cut at symbol boundaries and a passage names its symbol."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cairn.code.scan import symbol_spans
from cairn.ingest.chunker import chunk_code

SOURCE = '''"""A module."""

import os

LIMIT = 3


class Engine:
    """Runs things."""

    def start(self):
        alpha = [os.sep] * LIMIT
        return alpha


    def stop(self):
        bravo = {"k": LIMIT}
        return bravo


def helper(x):
    charlie = x + 1
    return charlie


TAIL = helper(2)
'''


def test_spans_and_cuts_follow_symbols() -> None:
    spans = symbol_spans("pkg/engine.py", SOURCE.encode())
    assert spans == [(8, 18, ("Engine",)), (11, 13, ("Engine", "start")), (16, 18, ("Engine", "stop")),
                     (21, 23, ("helper",))]
    chunks = chunk_code(SOURCE, spans, max_tokens=20, min_tokens=0)
    by_path = {c.heading_path: (c.start_line, c.end_line) for c in chunks}
    assert by_path[("Engine", "start")] == (11, 13)
    assert by_path[("Engine", "stop")] == (16, 18)
    assert by_path[("helper",)] == (21, 23)
    module_level = [(c.start_line, c.end_line) for c in chunks if c.heading_path == ()]
    assert module_level[0][0] == 1 and module_level[-1] == (26, 26)  # no symbol encloses them
    assert symbol_spans("notes.json", b"{}") is None
    assert symbol_spans("broken.py", b"def (:\n") is None


def test_a_code_result_names_its_symbol(ws: Any, tmp_path: Path) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    body = SOURCE.replace('bravo = {"k": LIMIT}', 'bravo = {"k": LIMIT}\n        words = "' + "zeppelin " * 150 + '"')
    (folder / "engine.py").write_text(body, encoding="utf-8")
    ws.add_collection(folder, name="src", include=["**/*.py"])
    ws.index()
    hits = ws.search("zeppelin", limit=3).results
    assert hits and hits[0].headings == ["Engine", "stop"]
