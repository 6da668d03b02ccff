"""Hard edges of ingest (issue 13): odd file names, failures, bad dates, huge lines, code."""

from __future__ import annotations

import os
from pathlib import Path

import cairn


def test_a_file_name_that_is_not_utf8_is_one_file_error_and_the_run_completes(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    # A Latin-1 'é' in a file name: not UTF-8, so Python sees a lone surrogate.
    os.close(os.open(os.fsencode(one) + b"/caf\xe9.md", os.O_CREAT | os.O_WRONLY, 0o644))
    (one / "ok.md").write_text("# OK\n\nfine", encoding="utf-8")
    (two / "b.md").write_text("# B\n\nalso fine", encoding="utf-8")
    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(one, name="one")
        ws.add_collection(two, name="two")
        for run in range(2):
            summary = ws.index()
            assert summary.counts.failed == 1
            assert (summary.counts.added, summary.counts.unchanged) == ((2, 0) if run == 0 else (0, 2))
            [error] = summary.errors
            assert (error.collection, error.path, error.code) == ("one", "caf\\xe9.md", "invalid_file_name")
        assert [(e.path, e.code) for e in ws.status().errors] == [("caf\\xe9.md", "invalid_file_name")]
        assert {d.path for d in ws.ls().documents} == {"ok.md", "b.md"}
