"""Shared fixtures. Every test runs with CAIRN_HOME in a temp dir: nothing touches the real home."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
EXAMPLES = REPO / "examples" / "notes"
CAIRN_BIN = Path(sys.executable).parent / "cairn"


def _minilm_missing() -> str | None:
    from cairn.models.embedders import available_embedders

    info = next(i for i in available_embedders() if i.name == "onnx-minilm")
    return None if info.available else info.hint


#: Tests that need the real local embedding model (scripts/setup --dev installs it).
needs_minilm = pytest.mark.skipif(
    _minilm_missing() is not None,
    reason="local embedding model not installed (scripts/setup --dev installs it)",
)


@pytest.fixture(autouse=True)
def cairn_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("cairn-home")
    monkeypatch.setenv("CAIRN_HOME", str(home))
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    return home


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A writable copy of the bundled example notes."""
    target = tmp_path / "notes"
    shutil.copytree(EXAMPLES, target)
    return target


@pytest.fixture
def ws(cairn_home: Path) -> Iterator[Any]:
    import cairn

    workspace = cairn.open()
    yield workspace
    workspace.close()


def run_cli(*args: str, check: bool = True, env: dict[str, str] | None = None,
            input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``cairn`` console script in a real subprocess."""
    proc = subprocess.run(
        [str(CAIRN_BIN), *args], capture_output=True, text=True, env=env or dict(os.environ),
        input=input, timeout=120,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"cairn {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def cli_json(*args: str) -> Any:
    proc = run_cli(*args, "--json")
    return json.loads(proc.stdout)


#: Workspace methods whose every return value in every test is checked against its
#: published JSON Schema ("every real output in the tests validates").
SCHEMA_CHECKED = {
    "search": "search", "vsearch": "search", "query": "search", "similar": "search",
    "context_build": "capsule", "context_verify": "capsule-verify",
    "ask": "ask", "ask_verified": "verified-ask",
    # knowledge delta (issue 16)
    "changes": "changes", "impact": "impact", "context_reverify": "receipts",
    "reverify_changed": "receipts", "context_receipts": "receipts",
    "plan": "plan", "resume": "plan",  # memory: the evidence governor (issue 14)
}


@pytest.fixture(autouse=True)
def _outputs_match_published_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    from cairn.workspace import Workspace

    for method, schema in SCHEMA_CHECKED.items():
        monkeypatch.setattr(Workspace, method, _schema_checked(Workspace, method, schema))


def _schema_checked(cls: type, method: str, schema: str) -> Any:
    import functools

    from tests.schemas import assert_valid

    raw = cls.__dict__[method]  # a function or a delegate to a service method

    @functools.wraps(getattr(cls, method))  # keeps the signature visible to introspection
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = raw.__get__(self, cls)(*args, **kwargs)
        assert_valid(schema, result)
        return result

    return checked
