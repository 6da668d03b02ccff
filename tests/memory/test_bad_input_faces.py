"""Issue 14's bad memory input on every face: an unknown observation type, an oversize
narrative and a claim citing an unknown document are an ``invalid_input`` error from the
SDK, the CLI (exit code 1), REST (400) and MCP (a tool error), and not one row of the
memory tables changes. (Malformed hook JSON, a CLI-only entry point: tests/memory/test_hooks.py.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import cairn
from cairn.memory.service import MAX_NARRATIVE_BYTES
from tests.conftest import run_cli
from tests.interfaces.test_parity import _mcp_answers, cli_argv
from tests.servers import build_index, serve

#: (input, words the message says). REST and MCP check their input models first, so a bad
#: ``type`` or a narrative over 16,384 characters is refused there by the model's message
#: (``type: Input should be 'decision', ...``); one within the characters but over the
#: bytes reaches the service's check on every face.
BAD: list[tuple[dict[str, Any], tuple[str, ...]]] = [
    ({"title": "t", "narrative": "n", "type": "rumour", "project": "demo"}, ("type", "decision")),
    ({"title": "t", "narrative": "x" * (MAX_NARRATIVE_BYTES + 1), "project": "demo"}, ("narrative", "16384")),
    ({"title": "t", "narrative": "é" * (MAX_NARRATIVE_BYTES // 2 + 1), "project": "demo"},
     ("narrative", "over the 16384-byte limit")),
    ({"subject": "db", "predicate": "is", "object": "sqlite", "evidence": ["nosuchdoc:1-2"], "project": "demo"},
     ("no such document",)),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    home = build_index(tmp_path_factory.mktemp("bad-faces"))
    with cairn.open(home) as ws:
        ws.memory_add("Nightly snapshots", "Snapshots run nightly.", type="decision", project="demo")
        ws.memory_add(subject="backups", predicate="run at", object="02:00", project="demo")
    with serve(home, enable_write=True) as url:
        yield home, url


def _says(message: str, words: tuple[str, ...]) -> bool:
    return all(word in message for word in words)


def _counts(home: Path) -> dict[str, int]:
    with cairn.open(home) as ws:
        return dict(ws._open_store(True).memory_counts())


@pytest.mark.parametrize(("args", "words"), BAD)
def test_bad_memory_input_on_every_face(served: tuple[Path, str], args: dict[str, Any], words: tuple[str, ...]) -> None:
    home, url = served
    before = _counts(home)
    assert before["observation_active"] == 1 and before["claim_active"] == 1

    with cairn.open(home) as ws, pytest.raises(cairn.errors.ValidationError) as caught:
        ws.memory_add(**args)
    assert caught.value.code == "invalid_input" and _says(caught.value.message, words)

    proc = run_cli("--home", str(home), *cli_argv("memory_add", args), "--json", check=False)
    assert proc.returncode == 1, proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_input" and _says(error["message"], words)

    response = httpx.post(f"{url}/v1/memory/add", json=args, timeout=60)
    assert response.status_code in (400, 422), response.text  # 422: refused by the input model
    assert response.json()["error"]["code"] == "invalid_input" and _says(response.json()["error"]["message"], words)

    (is_error, body), = _mcp_answers(f"{url}/mcp", [("memory_add", args)])
    assert is_error and body["error"]["code"] == "invalid_input" and _says(body["error"]["message"], words)

    assert _counts(home) == before
