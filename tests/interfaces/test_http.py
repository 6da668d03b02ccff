"""The REST face against a real uvicorn server: security rules, JSON errors, body limit,
traversal refused, write gating, OpenAPI."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

import cairn
from cairn.errors import ValidationError
from tests.servers import build_index, serve

CAPTURE = {"collection": "notes", "title": "A note", "text": "Body text."}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(tmp_path_factory.mktemp("http"))


def test_reads_health_openapi_and_json_errors(home: Path) -> None:
    with serve(home) as url:
        assert httpx.get(f"{url}/health").json() == {"status": "ok", "version": cairn.__version__}
        hit = httpx.post(f"{url}/v1/search", json={"query": "backup"}).json()["results"][0]
        assert hit["uri"] == "cairn://notes/howto/backups.md"
        assert httpx.get(f"{url}/v1/status").json() == httpx.post(f"{url}/v1/status").json()
        spec = httpx.get(f"{url}/openapi.json").json()
        assert "/v1/search" in spec["paths"] and "/v1/capture" not in spec["paths"]
        for method, path, body, status, code in [
            ("POST", "/v1/get", {"ref": "notes/nope.md"}, 404, "not_found"),
            ("POST", "/v1/search", {"query": "x", "limit": 0}, 422, "invalid_input"),
            ("POST", "/v1/search", {"query": "x", "bogus": 1}, 422, "invalid_input"),
            ("POST", "/v1/search", None, 422, "invalid_input"),
            ("POST", "/v1/search", {"query": "x", "since": "yesterday"}, 422, "invalid_input"),
            ("POST", "/v1/search", {"query": "x", "since": "2024-13-45"}, 400, "invalid_input"),
            ("GET", "/v1/nothing-here", None, 404, "not_found"),
            ("GET", "/v1/search", None, 405, "method_not_allowed"),
            ("POST", "/v1/capture", CAPTURE, 404, "not_found"),  # writes are off
        ]:
            response = httpx.request(method, f"{url}{path}", json=body)
            assert response.status_code == status, (path, body, response.text)
            assert response.headers["content-type"].startswith("application/json")
            assert response.json()["error"]["code"] == code, (path, body)
        assert set(httpx.request("OPTIONS", f"{url}/v1/status").headers["allow"].split(", ")) == {"GET", "POST"}
        bad_json = httpx.post(f"{url}/v1/search", content=b"{not json", headers={"content-type": "application/json"})
        assert bad_json.status_code == 422 and bad_json.json()["error"]["code"] == "invalid_input"


def test_dns_rebinding_and_origin_refused(home: Path) -> None:
    with serve(home) as url:
        port = url.rsplit(":", 1)[1]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io", "localhost.evil.example", ""):
            for path in ("/v1/status", "/mcp", "/health"):
                response = httpx.get(f"{url}{path}", headers={"host": host})
                assert response.status_code == 421, (host, path)
                assert response.json()["error"]["code"] == "host_not_allowed"
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
            assert httpx.get(f"{url}/v1/status", headers={"host": host}).status_code == 200
        for origin in ("http://evil.example", "null", f"http://evil.example:{port}", "file://", "http://127.0.0.1.nip.io"):
            response = httpx.post(f"{url}/v1/search", json={"query": "x"}, headers={"origin": origin})
            assert response.status_code == 403 and response.json()["error"]["code"] == "origin_not_allowed"
        ok = httpx.post(f"{url}/v1/search", json={"query": "x"}, headers={"origin": "http://localhost:3000"})
        assert ok.status_code == 200


def test_writes_need_token_or_same_origin(home: Path, tmp_path: Path) -> None:
    writable = build_index(tmp_path)
    with serve(writable, enable_write=True) as url:
        port = url.rsplit(":", 1)[1]
        cross = {"origin": "http://localhost:3000"}
        for headers in (cross, {"sec-fetch-site": "cross-site"}, {"origin": "http://localhost:3000",
                                                                  "sec-fetch-site": "same-site"}):
            response = httpx.post(f"{url}/v1/capture", json=CAPTURE, headers=headers)
            assert response.status_code == 403 and response.json()["error"]["code"] == "cross_origin_write"
            response = httpx.post(f"{url}/mcp", json={}, headers=headers)
            assert response.status_code == 403
        same = httpx.post(f"{url}/v1/capture", json=CAPTURE, headers={"origin": f"http://127.0.0.1:{port}"})
        assert same.status_code == 200, same.text
        plain = httpx.post(f"{url}/v1/capture", json=CAPTURE)  # not a browser: no Origin
        assert plain.status_code == 200 and plain.json()["path"] == "a-note-2.md"
        # reads stay open to loopback origins
        assert httpx.post(f"{url}/v1/search", json={"query": "x"}, headers=cross).status_code == 200
    with serve(writable, enable_write=True, token="s3cret") as url:
        auth = {"authorization": "Bearer s3cret"}
        assert httpx.post(f"{url}/v1/search", json={"query": "x"}).status_code == 401
        wrong = httpx.post(f"{url}/v1/search", json={"query": "x"}, headers={"authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
        assert httpx.get(f"{url}/health").status_code == 200
        assert httpx.post(f"{url}/mcp", json={}).status_code == 401
        response = httpx.post(f"{url}/v1/capture", json=CAPTURE, headers={**auth, "origin": "http://localhost:3000"})
        assert response.status_code == 200, response.text


def test_non_loopback_bind_requires_a_token(home: Path) -> None:
    from cairn.interfaces.http import ServeSettings, create_app

    with pytest.raises(ValidationError, match="token"):
        create_app(lambda: cairn.open(home), ServeSettings(host="0.0.0.0"))
    assert create_app(lambda: cairn.open(home), ServeSettings(host="0.0.0.0", token="t", mcp=False))


def test_body_size_limit(home: Path) -> None:
    with serve(home, max_body_bytes=2048) as url:
        big = {"query": "x" * 1500, "tags_any": ["y" * 150] * 10}
        response = httpx.post(f"{url}/v1/search", json=big)
        assert response.status_code == 413 and response.json()["error"]["code"] == "payload_too_large"

        def chunks() -> object:
            yield b'{"query": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        chunked = httpx.post(f"{url}/v1/search", content=chunks(), headers={"content-type": "application/json"})  # type: ignore[arg-type]
        assert chunked.status_code == 413
        assert httpx.post(f"{url}/mcp", content=b"x" * 4096).status_code == 413
        assert httpx.post(f"{url}/v1/search", json={"query": "backup"}).status_code == 200


TRAVERSALS = ["../x", "notes/../../etc/passwd", "/etc/passwd", "notes//etc/passwd", "notes/./index.md",
              "cairn://notes/%2e%2e/%2e%2e/etc/passwd", "notes/%2e%2e/x", "notes/..%2f..%2fetc", "notes\\..\\x",
              "~/secrets", "C:/Windows"]


def test_path_traversal_refused(home: Path, tmp_path: Path) -> None:
    writable = build_index(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# secret\n")
    os.symlink(outside, tmp_path / "notes" / "linked")
    os.symlink(outside / "secret.md", tmp_path / "notes" / "leak.md")
    with cairn.open(writable) as ws:
        ws.index()
    with serve(writable, enable_write=True) as url:
        for ref in TRAVERSALS:
            for route, body in [("get", {"ref": ref}), ("links", {"ref": ref}), ("similar", {"ref": ref}),
                                ("multi_get", {"refs": [ref]}), ("ls", {"prefix": ref})]:
                response = httpx.post(f"{url}/v1/{route.replace('_', '-')}", json=body)
                if route == "multi_get":
                    item = response.json()["items"][0]
                    assert item["error"]["code"] in ("invalid_input", "not_found"), (ref, item)
                    continue
                assert response.status_code in (400, 404), (route, ref, response.text)
        for path in ["../escape.md", "/tmp/abs.md", "%2e%2e/escape.md", "..%2fescape.md", "linked/evil.md",
                     "a/../../escape.md", "sub\\..\\..\\escape.md", ".hidden/x.md", "x.sh"]:
            response = httpx.post(f"{url}/v1/capture", json={**CAPTURE, "path": path})
            assert response.status_code == 400, (path, response.text)
            assert response.json()["error"]["code"] == "invalid_input"
        # the symlinked file pointing outside was never indexed, so it cannot be read
        assert httpx.post(f"{url}/v1/get", json={"ref": "notes/leak.md"}).status_code == 404
    assert not (tmp_path / "escape.md").exists() and not (outside / "evil.md").exists()
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_cairn_serve_takes_its_token_from_the_environment_or_config(home: Path, tmp_path: Path) -> None:
    """The token is read by the composition root ($CAIRN_TOKEN, else [serve] token), so it
    never has to appear on the command line; the real `cairn serve` process enforces it."""
    import re
    import subprocess
    import sys

    from cairn.workspace import open_workspace

    assert open_workspace(home, env={"CAIRN_HOME": str(home)}).settings.serve_token is None
    assert open_workspace(home, env={"CAIRN_TOKEN": "from-env"}).settings.serve_token == "from-env"
    configured = tmp_path / "configured"
    configured.mkdir()
    (configured / "config.toml").write_text('[serve]\ntoken = "from-config"\n', encoding="utf-8")
    assert open_workspace(configured, env={}).settings.serve_token == "from-config"
    assert open_workspace(configured, env={"CAIRN_TOKEN": "env-wins"}).settings.serve_token == "env-wins"
    (configured / "config.toml").write_text("[serve]\ntoken = 7\n", encoding="utf-8")
    with pytest.raises(ValidationError, match=r"serve\.token"):
        open_workspace(configured, env={})

    env = {**os.environ, "CAIRN_HOME": str(home), "CAIRN_TOKEN": "s3cret"}
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("cairn")), "serve", "--port", "0", "--no-mcp"],
        env=env, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, line
        url = f"http://127.0.0.1:{match.group(1)}"
        assert httpx.get(f"{url}/v1/status", timeout=30).status_code == 401
        ok = httpx.get(f"{url}/v1/status", headers={"authorization": "Bearer s3cret"}, timeout=30)
        assert ok.status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_collection_configure_route(tmp_path: Path) -> None:
    writable = build_index(tmp_path)
    with serve(writable) as url:  # read-only: the write route is not there
        assert httpx.post(f"{url}/v1/collections/configure", json={"name": "notes", "sequence": True}).status_code == 404
    with serve(writable, enable_write=True) as url:
        done = httpx.post(f"{url}/v1/collections/configure", json={"name": "notes", "sequence": True})
        assert done.status_code == 200, done.text
        assert done.json()["sequence"] is True and done.json()["context"] == "Team notes: how-tos and projects."
        listed = httpx.post(f"{url}/v1/status", json={}).json()["collections"]
        assert [c["sequence"] for c in listed] == [True]
        missing = httpx.post(f"{url}/v1/collections/configure", json={"name": "nope", "sequence": True})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        nothing = httpx.post(f"{url}/v1/collections/configure", json={"name": "notes"})
        assert nothing.status_code == 400 and nothing.json()["error"]["code"] == "invalid_input"
        assert "nothing to change" in nothing.json()["error"]["message"]
    with cairn.open(writable) as ws:
        assert ws.list_collections().collections[0].sequence is True
