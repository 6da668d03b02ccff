"""Every malformed REST request is answered ``invalid_input`` as JSON, integral floats
are integers, and ``/docs`` is an offline page (issue 13, points 6 and 12)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import needs_minilm
from tests.servers import build_index, serve

JSON = "application/json"
BAD_BODIES: list[tuple[str, bytes, str]] = [
    ("/v1/search", b"not json", JSON), ("/v1/search", b"[1, 2]", JSON), ("/v1/search", b'"x"', JSON),
    ("/v1/search", b"null", JSON), ("/v1/search", b"", JSON), ("/v1/search", b'{"query": "x"', JSON),
    ("/v1/search", b'{"query": 5}', JSON), ("/v1/search", b'{"query": "x", "zzz": 1}', JSON),
    ("/v1/search", b'{"query": "x", "limit": 1e400}', JSON),
    ("/v1/search", b'{"query": "x", "limit": 99999999999999999999999999}', JSON),
    ("/v1/search", b'{"query": "x", "limit": 7.5}', JSON), ("/v1/search", b'{"query": "x", "limit": true}', JSON),
    ("/v1/search", b'{"query": "x", "limit": "1"}', JSON), ("/v1/search", b"\xff\xfe", JSON),
    ("/v1/search", b'{"query": "x"}', "text/plain"), ("/v1/search", b"a=b", "application/x-www-form-urlencoded"),
    ("/v1/ls", b"\xff", "application/json; charset=latin-1"), ("/v1/status", b"\xff", "application/json; charset=latin-1"),
    ("/v1/get", b'{"ref": "notes/index.md", "from_line": -1}', JSON),
    ("/v1/get", b'{"ref": "notes/index.md", "lines": 1e3000}', JSON),
    ("/v1/tags", b"[]", JSON),
]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = build_index(tmp_path_factory.mktemp("rest"))
    with serve(home) as base:
        yield base


def _raw(url: str, request: bytes) -> bytes:
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out


@pytest.mark.parametrize(("route", "body", "content_type"), BAD_BODIES)
def test_malformed_bodies_are_invalid_input(url: str, route: str, body: bytes, content_type: str) -> None:
    response = httpx.post(f"{url}{route}", content=body, headers={"content-type": content_type})
    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"].startswith(JSON)
    assert response.json()["error"]["code"] == "invalid_input", response.text


@pytest.mark.parametrize("length", [b"-1", b"abc", b"1x"])
def test_a_bad_content_length_is_json_invalid_input(url: str, length: bytes) -> None:
    reply = _raw(url, b"POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: " + length + b"\r\n\r\n{}")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), reply
    assert b"content-type: application/json" in head.lower(), reply
    assert b'"invalid_input"' in body, reply


def test_integral_floats_are_integers(url: str) -> None:
    response = httpx.post(f"{url}/v1/search", json={"query": "backup", "limit": 72.0})
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["limit"] == 72
    got = httpx.post(f"{url}/v1/get", json={"ref": "notes/howto/backups.md", "from_line": 2.0, "lines": 3.0})
    assert got.status_code == 200, got.text
    assert (got.json()["start_line"], got.json()["end_line"]) == (2, 4)


def test_docs_is_an_offline_page_listing_every_route(url: str) -> None:
    page = httpx.get(f"{url}/docs")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<script" not in page.text and "cdn" not in page.text.lower()
    for path in httpx.get(f"{url}/openapi.json").json()["paths"]:
        assert path in page.text, path
    assert "query" in page.text and "(required)" in page.text


@needs_minilm
def test_mcp_similar_has_snippets(tmp_path: Path) -> None:
    import cairn
    from tests.servers import with_mcp

    home = build_index(tmp_path)
    with cairn.open(home) as ws:
        ws.embed()
        sdk = ws.similar("notes/howto/backups.md", limit=3)
    assert sdk.meta.mode == "similar"
    assert sdk.results and all(r.snippet for r in sdk.results), sdk
    with serve(home) as base:
        async def work(client: object) -> object:
            return await client.call_tool("similar", {"ref": "notes/howto/backups.md", "limit": 3})  # type: ignore[attr-defined]

        result = with_mcp(f"{base}/mcp", work)
    content = result.structured_content  # type: ignore[attr-defined]
    assert content["results"] and all(r["snippet"] for r in content["results"]), content
