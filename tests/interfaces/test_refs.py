"""Every reference cairn prints is accepted back, by every face (issue 13, point 5):
URIs of files with awkward names, and the ``uri:START-END`` spans search prints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

import cairn
from cairn.errors import ValidationError
from cairn.refs import check_read_path, document_uri, split_span
from tests.conftest import run_cli
from tests.servers import serve, with_mcp

NAMES = ["back\\slash.md", "café.md", "日本語.md", "with space.md", "50%.md", "a#b.md", "q?x.md"]


@pytest.fixture(scope="module")
def nasty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nasty")
    notes = root / "notes"
    (notes / "sub dir").mkdir(parents=True)
    for i, name in enumerate([*NAMES, "sub dir/déjà vu.md"]):
        body = "\n".join(f"line {n} of {name}" for n in range(1, 6))
        (notes / name).write_text(f"# Title {i}\n\nzebracorn marker text {i}\n{body}\n", encoding="utf-8")
    home = root / "home"
    with cairn.open(home) as ws:
        ws.add_collection(notes, name="notes")
        summary = ws.index()
        assert summary.counts.added == len(NAMES) + 1, summary
    return home


def test_uris_are_readable_and_escape_only_what_a_uri_must() -> None:
    assert document_uri("n", "café.md") == "cairn://n/café.md"
    assert document_uri("n", "日本語.md") == "cairn://n/日本語.md"
    assert document_uri("n", "with space.md") == "cairn://n/with%20space.md"
    assert document_uri("n", "50%.md") == "cairn://n/50%25.md"
    assert document_uri("n", "a#b?.md") == "cairn://n/a%23b%3F.md"
    assert document_uri("n", "back\\slash.md") == "cairn://n/back%5Cslash.md"
    assert document_uri("n", "tab\there.md") == "cairn://n/tab%09here.md"


def test_span_suffix_and_read_path_rules() -> None:
    assert split_span("cairn://help/Plugins/Canvas.md:11-30") == ("cairn://help/Plugins/Canvas.md", 11, 30)
    assert split_span("notes/a.md:7") == ("notes/a.md", 7, 7)
    assert split_span("notes/a.md") == ("notes/a.md", None, None)
    assert split_span("3f9a1c2b:2-4") == ("3f9a1c2b", 2, 4)
    with pytest.raises(ValidationError):
        split_span("notes/a.md:9-3")
    check_read_path("back\\slash.md")  # a legal POSIX file name
    for bad in ["../x", "a/../../x", "%2e%2e/x", "/etc/passwd", "~/x", "a//b", "a\x00b", "C:/Windows"]:
        with pytest.raises(ValidationError):
            check_read_path(bad)


def _printed(home: Path) -> list[tuple[str, int, int]]:
    """Every (uri, start, end) that search, ls and query print for the vault."""
    with cairn.open(home) as ws:
        found = [(h.uri, h.start_line, h.end_line) for h in ws.search("zebracorn", limit=50).results]
        found += [(h.uri, h.start_line, h.end_line) for h in ws.query("zebracorn marker", limit=50).results]
        found += [(d.uri, 1, d.lines) for d in ws.ls("notes").documents]
    assert len({uri for uri, _, _ in found}) == len(NAMES) + 1, found
    return found


def test_every_printed_reference_round_trips_through_sdk_and_cli(nasty: Path) -> None:
    printed = _printed(nasty)
    text = run_cli("--home", str(nasty), "search", "zebracorn", "-n", "50").stdout
    shown = re.findall(r"(cairn://\S+:\d+-\d+)", text)
    assert len(shown) == len(NAMES) + 1, text
    assert "cairn://notes/café.md:" in text and "cairn://notes/日本語.md:" in text
    with cairn.open(nasty) as ws:
        by_uri = {uri: ws.get(uri) for uri, _, _ in printed}
        for uri, doc in by_uri.items():
            assert doc.uri == uri
            # the percent-encoded form is still accepted, and collection/path as written
            assert ws.get(uri.replace("é", "%C3%A9").replace("日", "%E6%97%A5")).docid == doc.docid
            assert ws.get(f"{doc.collection}/{doc.path}").docid == doc.docid
    for ref in shown:
        uri, start, end = split_span(ref)
        assert uri is not None and start is not None and end is not None
        result = run_cli("--home", str(nasty), "get", ref, "--json")
        assert result.returncode == 0, (ref, result.stdout, result.stderr)
        got = json.loads(result.stdout)
        assert (got["uri"], got["start_line"], got["end_line"]) == (uri, start, end)
        assert run_cli("--home", str(nasty), "get", ref).returncode == 0
        # context-like reads: links and similar take the same spelling
        assert run_cli("--home", str(nasty), "links", ref, "--json").returncode == 0, ref


def test_every_printed_reference_round_trips_through_rest_and_mcp(nasty: Path) -> None:
    printed = _printed(nasty)
    refs = sorted({f"{uri}:{start}-{end}" for uri, start, end in printed} | {uri for uri, _, _ in printed})
    with serve(nasty) as url:
        for ref in refs:
            response = httpx.post(f"{url}/v1/get", json={"ref": ref})
            assert response.status_code == 200, (ref, response.text)
            bare, start, _ = split_span(ref)
            assert response.json()["uri"] == bare
            if start is not None:
                assert response.json()["start_line"] == start
            assert httpx.post(f"{url}/v1/multi-get", json={"refs": [ref]}).json()["items"][0]["error"] is None

        async def work(client: Any) -> list[tuple[bool, Any]]:
            out = []
            for ref in refs:
                result = await client.call_tool("get", {"ref": ref})
                out.append((result.is_error, result.structured_content))
            return out

        answers = with_mcp(f"{url}/mcp", work)
    for ref, (is_error, content) in zip(refs, answers, strict=True):
        assert not is_error, (ref, content)
        assert content["uri"] == split_span(ref)[0]
