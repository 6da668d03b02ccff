"""The scope rule and project identity (pure)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cairn.memory.project import normalise_remote, project_of
from cairn.memory.records import Observation
from cairn.memory.scope import Caller, visible
from tests.memory.conftest import make_project

RECORD = Observation(
    id="obs_1", type="fix", title="t", narrative="n", facts=(), files=(), symbols=(), concepts=(),
    topic_key=None, revision=1, source="agent", visibility="project", project="p1", owner="ann",
    evidence=(), status="active", created_at="t", updated_at="t",
)


@pytest.mark.parametrize(("visibility", "caller", "seen"), [
    ("project", Caller("p1", "bob"), True),
    ("project", Caller("p2", "ann"), False),
    ("personal", Caller("p1", "ann"), True),
    ("personal", Caller("p1", "bob"), False),
    ("personal", Caller("p1", None), False),
    ("personal", Caller("p2", "ann"), False),
    ("team", Caller("p2", "bob"), True),
])
def test_visible(visibility: str, caller: Caller, seen: bool) -> None:
    assert visible(dataclasses.replace(RECORD, visibility=visibility), caller) is seen  # type: ignore[arg-type]


@pytest.mark.parametrize(("url", "identity"), [
    ("git@github.com:Acme/Widgets.git", "github.com/Acme/Widgets"),
    ("https://github.com/acme/widgets.git", "github.com/acme/widgets"),
    ("https://user:pw@GitHub.com:443/acme/widgets/", "github.com/acme/widgets"),
    ("ssh://git@gitlab.example.org:2222/team/repo.git", "gitlab.example.org/team/repo"),
])
def test_normalise_remote(url: str, identity: str) -> None:
    assert normalise_remote(url) == identity


def test_project_of(tmp_path: Path) -> None:
    repo = make_project(tmp_path / "repo")
    assert project_of(repo / "src").identity == "github.com/acme/widgets"
    assert project_of(repo / "src").root == repo
    bare = make_project(tmp_path / "bare", remote=None)
    assert project_of(bare).identity == str(bare.resolve())
    plain = tmp_path / "plain"
    plain.mkdir()
    assert project_of(plain).identity == str(plain.resolve())
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (repo / ".git" / "worktrees" / "wt").mkdir(parents=True)
    (repo / ".git" / "worktrees" / "wt" / "commondir").write_text("../..\n")
    (worktree / ".git").write_text(f"gitdir: {repo / '.git' / 'worktrees' / 'wt'}\n")
    assert project_of(worktree).identity == "github.com/acme/widgets"
