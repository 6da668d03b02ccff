"""Memory fixtures: a real Workspace over a real index of the example notes, working in a
project folder that is a git checkout with a remote."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cairn

REMOTE = "git@github.com:acme/widgets.git"
PROJECT = "github.com/acme/widgets"


def make_project(folder: Path, remote: str | None = REMOTE) -> Path:
    (folder / ".git").mkdir(parents=True)
    if remote:
        (folder / ".git" / "config").write_text(f'[remote "origin"]\n\turl = {remote}\n')
    (folder / "src").mkdir()
    (folder / "src" / "app.py").write_text("def main():\n    return 1\n")
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = make_project(tmp_path / "widgets")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("CAIRN_USER", "ann")
    return folder


@pytest.fixture
def mws(notes: Path, project: Path, cairn_home: Path) -> Iterator[Any]:
    """A workspace (user ann) with the example notes indexed, in the widgets project."""
    workspace = cairn.open()
    workspace.add_collection(notes, name="notes")
    workspace.index()
    yield workspace
    workspace.close()


def docid(ws: Any, path: str) -> str:
    return str(ws.get(f"notes/{path}").docid)
