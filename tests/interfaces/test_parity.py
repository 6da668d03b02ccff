"""One set of requests through every face: SDK, CLI --json, REST, MCP over stdio and over
HTTP. Each answer must be the same contract object (errors: the same code)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

import cairn
from cairn.interfaces.operations import OPERATIONS, available_operations
from tests.conftest import run_cli
from tests.servers import build_index, serve, stdio_params, with_mcp

Case = tuple[str, dict[str, Any], list[str], Callable[[Any], Any]]

CASES: list[Case] = [
    ("search", {"query": "backup schedule", "limit": 5}, ["search", "backup schedule", "-n", "5"],
     lambda ws: ws.search("backup schedule", limit=5)),
    ("search", {"query": "map", "limit": 3, "tags_any": ["projects", "travel"]},
     ["search", "map", "-n", "3", "--tags-any", "projects,travel"],
     lambda ws: ws.search("map", limit=3, tags_any=["projects", "travel"])),
    ("vsearch", {"query": "keeping copies of data safe", "limit": 3},
     ["vsearch", "keeping copies of data safe", "-n", "3"],
     lambda ws: ws.vsearch("keeping copies of data safe", limit=3)),
    ("query", {"query": "snapshot retention", "limit": 4, "explain": True},
     ["query", "snapshot retention", "-n", "4", "--explain"],
     lambda ws: ws.query("snapshot retention", limit=4, explain=True)),
    ("get", {"ref": "notes/howto/backups.md", "from_line": 3, "lines": 2},
     ["get", "notes/howto/backups.md", "--from", "3", "--lines", "2"],
     lambda ws: ws.get("notes/howto/backups.md", from_line=3, lines=2)),
    ("multi_get", {"refs": ["notes/index.md", "notes/glossary.txt"]},
     ["multi-get", "notes/index.md", "notes/glossary.txt"],
     lambda ws: ws.multi_get(["notes/index.md", "notes/glossary.txt"])),
    ("ls", {"prefix": "notes/howto/"}, ["ls", "notes/howto/"], lambda ws: ws.ls("notes/howto/")),
    ("status", {}, ["status"], lambda ws: ws.status()),
    ("links", {"ref": "notes/index.md"}, ["links", "notes/index.md"], lambda ws: ws.links("notes/index.md")),
    ("backlinks", {"ref": "notes/howto/backups.md"}, ["backlinks", "notes/howto/backups.md"],
     lambda ws: ws.backlinks("notes/howto/backups.md")),
    ("similar", {"ref": "notes/howto/backups.md", "limit": 3}, ["similar", "notes/howto/backups.md", "-n", "3"],
     lambda ws: ws.similar("notes/howto/backups.md", limit=3)),
    ("graph_neighbors", {"ref": "notes/index.md", "depth": 2},
     ["graph", "neighbors", "notes/index.md", "--depth", "2"],
     lambda ws: ws.graph_neighbors("notes/index.md", depth=2)),
    ("graph_path", {"a": "notes/index.md", "b": "notes/howto/backups.md"},
     ["graph", "path", "notes/index.md", "notes/howto/backups.md"],
     lambda ws: ws.graph_path("notes/index.md", "notes/howto/backups.md")),
    ("tags", {}, ["tags"], lambda ws: ws.tags()),
    ("context_build", {"goal": "how are backups scheduled", "budget_tokens": 300},
     ["context", "build", "how are backups scheduled", "--budget-tokens", "300"],
     lambda ws: ws.context_build("how are backups scheduled", budget_tokens=300)),
    ("ask", {"question": "what is the backup rule"}, ["ask", "what is the backup rule"],
     lambda ws: ws.ask("what is the backup rule")),
]

ERROR_CASES: list[tuple[str, dict[str, Any], list[str], str]] = [
    ("get", {"ref": "notes/nope.md"}, ["get", "notes/nope.md"], "not_found"),
    ("get", {"ref": "notes/../../etc/passwd"}, ["get", "notes/../../etc/passwd"], "invalid_input"),
    ("get", {"ref": "cairn://notes/%2e%2e/x"}, ["get", "cairn://notes/%2e%2e/x"], "invalid_input"),
    ("search", {"query": "x", "collections": ["nope"]}, ["search", "x", "-c", "nope"], "not_found"),
    ("links", {"ref": "/etc/passwd"}, ["links", "/etc/passwd"], "invalid_input"),
]


def _cases() -> list[Case]:
    names = {op.name for op in available_operations(write=False)}
    return [case for case in CASES if case[0] in names]


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    home = build_index(tmp_path_factory.mktemp("parity"))
    with serve(home) as url:
        yield home, url


def _contract(name: str, data: Any) -> Any:
    op = next(op for op in OPERATIONS if op.name == name)
    return TypeAdapter(op.output_model()).validate_python(data)


def _mcp_answers(server: Any, cases: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, Any]]:
    async def work(client: Any) -> list[tuple[bool, Any]]:
        out = []
        for name, args in cases:
            result = await client.call_tool(name, args)
            out.append((result.is_error, result.structured_content))
        return out

    return with_mcp(server, work)


def test_every_face_returns_the_same_contract(fixed: tuple[Path, str]) -> None:
    home, url = fixed
    cases = _cases()
    assert len(cases) >= 14
    with cairn.open(home) as ws:
        expected = [fn(ws) for _, _, _, fn in cases]
    requests = [(name, args) for name, args, _, _ in cases]
    faces: dict[str, list[Any]] = {
        "cli": [json.loads(run_cli("--home", str(home), *argv, "--json").stdout) for _, _, argv, _ in cases],
        "rest": [httpx.post(f"{url}/v1/{_route(name)}", json=args, timeout=60).json() for name, args in requests],
    }
    for face, server in (("mcp-stdio", stdio_params(home)), ("mcp-http", f"{url}/mcp")):
        answers = _mcp_answers(server, requests)
        assert not any(err for err, _ in answers), (face, answers)
        faces[face] = [data for _, data in answers]
    for face, answers in faces.items():
        for (name, args, _, _), want, got in zip(cases, expected, answers, strict=True):
            assert _contract(name, got) == want, (face, name, args)


def test_context_verify_parity(fixed: tuple[Path, str]) -> None:
    home, url = fixed
    if "context_verify" not in {op.name for op in available_operations(write=False)}:
        pytest.skip("context_verify has not landed")
    with cairn.open(home) as ws:
        capsule = ws.context_build("how are backups scheduled", budget_tokens=300)
        receipt = ws.context_verify(capsule)
    body = capsule.model_dump(mode="json")
    rest = httpx.post(f"{url}/v1/context/verify", json={"capsule": body}, timeout=60).json()
    (err, mcp_http), = _mcp_answers(f"{url}/mcp", [("context_verify", {"capsule": body})])
    assert not err
    assert _contract("context_verify", rest) == receipt == _contract("context_verify", mcp_http)


def test_errors_have_the_same_code_everywhere(fixed: tuple[Path, str]) -> None:
    home, url = fixed
    requests = [(name, args) for name, args, _, _ in ERROR_CASES]
    stdio = _mcp_answers(stdio_params(home), requests)
    http = _mcp_answers(f"{url}/mcp", requests)
    for (name, args, argv, code), (s_err, s_body), (h_err, h_body) in zip(ERROR_CASES, stdio, http, strict=True):
        proc = run_cli("--home", str(home), *argv, "--json", check=False)
        assert proc.returncode == 1, argv
        assert json.loads(proc.stdout)["error"]["code"] == code, argv
        response = httpx.post(f"{url}/v1/{_route(name)}", json=args, timeout=30)
        assert response.status_code in (400, 404), (name, args, response.text)
        assert response.json()["error"]["code"] == code
        assert s_err and h_err
        assert s_body["error"]["code"] == h_body["error"]["code"] == code
        with cairn.open(home) as ws, pytest.raises(cairn.errors.CairnError) as caught:
            getattr(ws, next(op.method for op in OPERATIONS if op.name == name))(**args)
        assert caught.value.code == code


def _route(name: str) -> str:
    return next(op.route for op in OPERATIONS if op.name == name).removeprefix("/v1/")


def test_check_draft_parity(fixed: tuple[Path, str]) -> None:
    """check_draft (read-only): the SDK, REST and MCP (stdio and HTTP) give one report,
    against a saved capsule and with evidence retrieved per claim."""
    home, url = fixed
    with cairn.open(home) as ws:
        capsule = ws.context_build("how are backups scheduled", budget_tokens=300)
        quote = capsule.evidence[0].text.strip().splitlines()[-1]
        draft = f"{quote} [E1]. Backups are copied to the Moon every hour [E9]."
        body = capsule.model_dump(mode="json")
        from cairn.capsule.canonical import canonical_json

        cases = [
            ({"draft": draft, "capsule": body}, ws.check_draft(draft, capsule=canonical_json(capsule))),
            ({"draft": draft}, ws.check_draft(draft)),
        ]
    for args, want in cases:
        rest = httpx.post(f"{url}/v1/check", json=args, timeout=60).json()
        assert _contract("check_draft", rest) == want, rest
        for server in (_stdio_with_env(home), f"{url}/mcp"):
            (err, got), = _mcp_answers(server, [("check_draft", args)])
            assert not err, got
            assert _contract("check_draft", got) == want
    with_capsule = cases[0][1]
    assert with_capsule.source == "capsule" and with_capsule.unknown_citations == ["E9"]
    assert with_capsule.unsupported >= 1
    bad = httpx.post(f"{url}/v1/check", json={"draft": ""}, timeout=60)
    assert bad.status_code == 400 or bad.status_code == 422, bad.text


def _stdio_with_env(home: Path) -> Any:
    """stdio server params that keep this process's environment (PYTHONPATH included), so a
    worktree's sources serve the new operation."""
    import os

    params = stdio_params(home)
    return params.model_copy(update={"env": dict(os.environ)})
