"""Issue 17.4 through the faces: text people paste. A ``--flag`` or ``-x`` inside text is a
word, not an exclusion, in ``search`` and ``query``; in ``query`` (natural language) quoted
text and ``-word`` only rank (nothing filters), while ``search`` keeps strict operators.
The compiler and the store are tested in test_query.py and tests/store/test_contract.py;
these go through the SDK and the CLI, as a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli_json, run_cli

PAGES = {
    "gzip.md": "# gzip\n\nCompress or decompress files.\n\nDecompress a file: gzip --decompress file.gz\n\n"
               "Keep the input file: gzip -k file\n",
    "backup.md": "# Backups\n\nBackup to tape and to an off-site copy.\n",
    "disk.md": "# Disk backup\n\nBackup to a second disk; keep an off-site copy in a safe.\n",
    "meeting.md": "# Meeting\n\nAn off-site meeting about the copy machine.\n",
}


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    folder = tmp_path / "pasted"
    folder.mkdir()
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def names(response: Any) -> list[str]:
    return list(dict.fromkeys(r.uri.rsplit("/", 1)[-1] for r in response.results))


def test_pasted_flags_are_words_in_search_and_query(ws: Any, pages: Path) -> None:
    ws.add_collection(pages, name="pasted")
    ws.index()
    for text in ("gzip --decompress", "what does gzip --decompress do", "gzip -k", "--decompress"):
        assert names(ws.search(text))[0] == "gzip.md", text
        assert names(ws.query(text))[0] == "gzip.md", text  # BM25 only here: no vectors


def test_search_is_strict_query_only_ranks(ws: Any, pages: Path) -> None:
    ws.add_collection(pages, name="pasted")
    ws.index()
    # search: a quoted phrase is required, -word excludes
    assert sorted(names(ws.search('"off-site copy"'))) == ["backup.md", "disk.md"]
    assert names(ws.search("backup -tape")) == ["disk.md"]
    # query: the phrase boosts (its pages first) and nothing is filtered out
    loose = names(ws.query('"off-site copy"'))
    assert set(loose[:2]) == {"backup.md", "disk.md"} and "meeting.md" in loose
    assert "backup.md" in names(ws.query("backup -tape"))


def test_cli_takes_pasted_text_as_one_argument(pages: Path) -> None:
    cli_json("collection", "add", str(pages), "--name", "pasted")
    cli_json("index")
    found = cli_json("search", "gzip --decompress")
    assert found["results"][0]["uri"].endswith("/gzip.md")
    # after "--" even text that starts with a dash is the query, not an option
    found = json.loads(run_cli("query", "--json", "--", "--decompress gzip").stdout)
    assert found["results"][0]["uri"].endswith("/gzip.md")
