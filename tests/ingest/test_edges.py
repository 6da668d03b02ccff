"""Hard edges of ingest (issue 13): odd file names, failures, bad dates, huge lines, code."""

from __future__ import annotations

import json
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


def test_a_frontmatter_date_that_is_not_a_date_is_a_warning_and_no_date(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "bad.md").write_text("---\ndate: not-a-date\n---\n# Bad\n\nzebra notes\n", encoding="utf-8")
    (vault / "good.md").write_text("---\ndate: 2031-02-03\n---\n# Good\n\nzebra notes\n", encoding="utf-8")
    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(vault, name="v")
        summary = ws.index()
        # The note is indexed; its date is ignored and the reason is listed with the errors.
        assert (summary.counts.added, summary.counts.failed) == (2, 0)
        assert [(e.path, e.code) for e in summary.errors] == [("bad.md", "bad_date")]
        assert [(e.path, e.code) for e in ws.status().errors] == [("bad.md", "bad_date")]
        assert [r.uri.rsplit("/", 1)[1] for r in ws.search("zebra", since="2030-01-01").results] == ["good.md"]
        assert ws.index().counts.unchanged == 2
        assert [(e.path, e.code) for e in ws.status().errors] == [("bad.md", "bad_date")]
        (vault / "bad.md").write_text("---\ndate: 2031-05-06\n---\n# Bad\n\nzebra notes again\n", encoding="utf-8")
        assert ws.index().errors == []
        assert ws.status().errors == []
        assert sorted(r.uri.rsplit("/", 1)[1] for r in ws.search("zebra", since="2030-01-01").results) == ["bad.md", "good.md"]


def test_a_renamed_note_keeps_the_title_a_fresh_index_gives_it(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    # The heading happens to equal the file name: it is still the note's real title.
    (vault / "Meeting.md").write_text("# Meeting\n\nagenda\n", encoding="utf-8")
    (vault / "plain.md").write_text("no heading here\n", encoding="utf-8")
    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(vault, name="v")
        ws.index()
        (vault / "Meeting.md").rename(vault / "2024-05-01.md")
        (vault / "plain.md").rename(vault / "renamed.md")
        assert ws.index().counts.renamed == 2
        renamed = {d.path: d.title for d in ws.ls().documents}
    with cairn.open(home=tmp_path / "fresh") as ws:
        ws.add_collection(vault, name="v")
        ws.index()
        fresh = {d.path: d.title for d in ws.ls().documents}
    assert renamed == fresh == {"2024-05-01.md": "Meeting", "renamed.md": "renamed"}


def test_a_huge_single_line_note_becomes_capped_passages_that_cite_and_verify(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    words = ("lorem ipsum dolor sit amet " * 40_000).split()
    words[len(words) // 2] = "needle"
    line = " ".join(words)  # ~5 MB on one line (issue 13: a 19 MB one shows the same)
    (vault / "huge.md").write_text("# Huge\n\n" + line + "\n", encoding="utf-8")
    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(vault, name="v")
        assert ws.index().counts.added == 1
        [hit] = ws.search("needle").results
        assert (hit.start_line, hit.end_line) == (3, 3)
        # get returns the whole cited line; the passage is part of it.
        assert ws.get(hit.uri, from_line=3, lines=1).text.rstrip("\n") == line
        capsule = ws.context_build("needle", budget_tokens=2000)
        [item] = [e for e in capsule.evidence if "needle" in e.text]
        assert item.start_line == item.end_line == 3 and item.text in line
        assert len(item.text) <= 4 * 256  # chunk_max_tokens under the declared estimate
        receipt = ws.context_verify(capsule)
        assert receipt.status == "unchanged" and receipt.counts.unchanged == len(capsule.evidence)
        assert ws.ls().documents[0].passages > 1000


def _notebook(text: str, size: int) -> bytes:
    """A valid one-cell notebook padded with spaces to exactly ``size`` bytes."""
    data = json.dumps({"cells": [{"cell_type": "markdown", "source": [text]}], "metadata": {},
                       "nbformat": 4, "nbformat_minor": 5}).encode()
    assert len(data) <= size
    return data + b" " * (size - len(data))


def test_a_failed_file_is_not_read_again_until_it_changes_or_a_retry_is_asked(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    nb = vault / "broken.ipynb"
    nb.write_bytes(b"{ this is not json" + b" " * 300)
    size, mtime = nb.stat().st_size, nb.stat().st_mtime_ns

    def swap(data: bytes) -> None:
        # New bytes behind the same size and mtime: only a read would notice them.
        nb.write_bytes(data)
        os.utime(nb, ns=(mtime, mtime))

    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(vault, name="v", include=["**/*.ipynb"])
        first = ws.index()
        assert (first.counts.failed, first.counts.parsed) == (1, 0)
        [error] = first.errors
        assert error.code == "corrupt"
        swap(_notebook("zebra stripes", size))
        again = ws.index()  # not read: still the recorded failure
        assert (again.counts.failed, again.counts.added, again.counts.parsed) == (1, 0, 0)
        assert [(e.path, e.code) for e in again.errors] == [("broken.ipynb", "corrupt")]
        assert [(e.path, e.code) for e in ws.status().errors] == [("broken.ipynb", "corrupt")]
        retried = ws.index(retry_failed=True)
        assert (retried.counts.failed, retried.counts.added) == (0, 1)
        assert ws.status().errors == []
        assert [r.uri for r in ws.search("zebra").results] == ["cairn://v/broken.ipynb"]

        # A failure after a change is remembered again; a touch that keeps the bytes does
        # not re-run the conversion; new bytes with a new mtime are tried.
        nb.write_bytes(b"{ broken again" + b" " * 40)
        assert ws.index().counts.failed == 1
        size, mtime = nb.stat().st_size, nb.stat().st_mtime_ns
        os.utime(nb, ns=(mtime + 10**9, mtime + 10**9))
        touched = ws.index()
        assert (touched.counts.failed, [e.code for e in touched.errors]) == (1, ["corrupt"])
        nb.write_bytes(_notebook("okapi", size + 200))
        fixed = ws.index()
        assert (fixed.counts.failed, fixed.counts.updated) == (0, 1)
        assert ws.status().errors == []


def test_a_file_over_the_size_limit_is_retried_when_the_limit_is_raised(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "big.md").write_text("# Big\n\n" + "word " * 400, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[index]\nmax_file_bytes = 1000\n", encoding="utf-8")
    with cairn.open(home=home) as ws:
        ws.add_collection(vault, name="v")
        assert [e.code for e in ws.index().errors] == ["too_large"]
    (home / "config.toml").write_text("[index]\nmax_file_bytes = 100000\n", encoding="utf-8")
    with cairn.open(home=home) as ws:
        summary = ws.index()
        assert (summary.counts.added, summary.counts.failed) == (1, 0)


def test_a_passage_cut_from_a_long_line_is_found_when_the_line_moves(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    line = " ".join(f"word{i}" for i in range(2000)) + " needle " + " ".join(f"more{i}" for i in range(500))
    note = vault / "long.md"
    note.write_text("# Long\n\n" + line + "\n", encoding="utf-8")
    with cairn.open(home=tmp_path / "home") as ws:
        ws.add_collection(vault, name="v")
        ws.index()
        capsule = ws.context_build("needle", budget_tokens=600)
        note.write_text("# Long\n\nA new first paragraph.\n\n" + line + "\n", encoding="utf-8")
        ws.index()
        [check] = [c for c in ws.context_verify(capsule).evidence if c.start_line == 3]
        assert (check.status, check.reason) == ("moved", "found_elsewhere")
        assert check.current is not None and check.current.start_line == check.current.end_line == 5
