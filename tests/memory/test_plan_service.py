"""``plan`` and ``resume`` end to end: a real index, a real git repository, memory records
from a stand-in memory source (the memory store plugs in through the same protocol)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cairn.errors import ValidationError
from cairn.memory.candidates import (
    coverage,
    git_candidates,
    project_identity,
    task_terms,
)
from cairn.memory.facts import compact_text
from cairn.memory.governor import canonical
from cairn.memory.recall import Recalled
from cairn.memory.records import Claim, EvidenceRef, Observation, Qualified
from cairn.memory.scope import Caller
from tests.conftest import run_cli

PROJECT = "github.com/Acme/app"  # the remote below, normalised as memory records are
T0 = "2026-01-01T00:00:00Z"


def obs(oid: str, title: str, narrative: str, *, project: str = PROJECT, visibility: str = "project",
        owner: str | None = None, type: str = "decision", files: tuple[str, ...] = ("src/app.py",),
        evidence: tuple[EvidenceRef, ...] = (EvidenceRef("file", "src/app.py", "h1"),),
        updated: str = T0) -> Observation:
    return Observation(
        id=oid, type=type, title=title, narrative=narrative, facts=(), files=files, symbols=(),  # type: ignore[arg-type]
        concepts=(), topic_key=None, revision=1, source="agent", visibility=visibility,  # type: ignore[arg-type]
        project=project, owner=owner, evidence=evidence, status="active", created_at=T0, updated_at=updated,
    )


def claim(cid: str, obj: str, created: str, superseded_by: str | None = None) -> Claim:
    return Claim(
        id=cid, subject="the app", predicate="stores sessions in", object=obj,
        claim_key=f"app|sessions|{obj}", conflict_key="app|sessions", evidence=(EvidenceRef("commit", "abc"),),
        review="unreviewed", supersedes=None, superseded_by=superseded_by, source="agent", visibility="project",
        project=PROJECT, owner=None, status="active", created_at=created, updated_at=created,
    )


@dataclass
class FakeMemory:
    records: list[Qualified] = field(default_factory=list)

    def recall(self, task: str, *, project: str, user: str | None, limit: int,
               shared: object = None) -> Sequence[Recalled]:
        # unfiltered on purpose: the governor must enforce scope
        return [Recalled(q) for q in self.records[:limit]]

    def recent(self, *, project: str, user: str | None, limit: int) -> Sequence[Qualified]:
        return self.records[:limit]


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("SESSION_STORE = 'redis'\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "remote", "add", "origin", "git@github.com:Acme/app.git")
    git(root, "add", ".")
    git(root, "commit", "-qm", "Move session storage to redis")
    (root / "src" / "app.py").write_text("SESSION_STORE = 'redis'  # edited\n")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def indexed(ws: Any, notes: Path) -> Any:
    ws.add_collection(notes, name="notes")
    ws.index()
    return ws


def test_project_identity_is_the_normalised_remote(repo: Path, tmp_path: Path) -> None:
    assert project_identity(repo) == PROJECT
    plain = tmp_path / "plain"
    plain.mkdir()
    assert project_identity(plain) == str(plain.resolve())


def test_git_facts(repo: Path, tmp_path: Path) -> None:
    from cairn.models.tokens import budget_token_counter

    facts = git_candidates(repo, "where are sessions stored", Caller(PROJECT), budget_token_counter(),
                           bound_files=["src/app.py"])
    keys = [c.key for c in facts]
    assert keys[0] == "git:branch" and "src/app.py" in facts[0].text and "main" in facts[0].text
    commit = facts[1]
    assert commit.key.startswith("git:commit:") and "redis" in commit.text.lower()
    assert commit.evidence == 1 and commit.provenance[0].startswith("commit:")
    assert commit.relevance == pytest.approx(coverage(task_terms("where are sessions stored"), commit.text))
    assert commit.tokens > 0
    outside = tmp_path / "nogit"
    outside.mkdir()
    assert git_candidates(outside, "x", Caller(PROJECT), budget_token_counter()) == []


def test_relevance_and_compact_helpers() -> None:
    terms = task_terms("How are the sessions stored?")
    assert terms == {"session", "stor"}
    assert coverage(terms, "Session storage: stored in redis") == 1.0
    assert coverage(terms, "nothing here") == 0.0
    assert compact_text("one two three", "T") == "T: one two three"
    assert compact_text(" ".join(["w"] * 30)).endswith("…")


def test_plan_over_memory_passages_and_git(indexed: Any, repo: Path) -> None:
    memory = FakeMemory([
        Qualified(obs("obs_mine", "Sessions live in redis", "We store sessions in redis since March."),
                  "verified", "fresh"),
        Qualified(obs("obs_other", "Sessions live in postgres", "sessions stored in postgres",
                      project="github.com/acme/other"), "verified", "fresh"),
        Qualified(obs("obs_bob", "Bob's sessions notes", "sessions stored where bob likes",
                      visibility="personal", owner="bob"), "verified", "fresh"),
        Qualified(obs("obs_changed", "Session store config", "sessions stored via SESSION_STORE in src/app.py"),
                  "probation", "suspect", ("src/app.py changed",)),
        Qualified(claim("clm_old", "memcached", "2025-01-01T00:00:00Z"), "probation", "fresh"),
        Qualified(claim("clm_new", "redis", "2026-02-01T00:00:00Z"), "probation", "fresh"),
    ])
    indexed.memory_source = memory
    result = indexed.plan("where are the app sessions stored", budget=400, explain=True)
    items = {i.key: i for i in result.items}
    assert result.mode in ("card", "workset")
    assert "obs_other" not in items and "obs_bob" not in items
    blob = json.dumps(result.model_dump(mode="json"))
    assert "obs_other" not in blob and "obs_bob" not in blob
    assert items["obs_mine"].disposition in ("include", "compact")
    assert "freshness.suspect_source" in items["obs_changed"].reasons
    assert any(c.code == "freshness.suspect_source" and c.key == "obs_changed" for c in result.cautions)
    assert items["clm_old"].reasons == ["conflict.contested"]
    assert "conflict.contested_kept" in items["clm_new"].reasons
    assert result.budget.used <= 400 and result.token_counter
    assert [s.step for s in result.trace] == ["scope", "provenance", "freshness", "conflict", "quality",
                                              "relevance", "pack"]
    assert result.trace[0].counts == {"scope.other_project": 1, "scope.personal_not_owner": 1}
    again = indexed.plan("where are the app sessions stored", budget=400, explain=True)
    assert canonical(again.model_dump(mode="json")) == canonical(result.model_dump(mode="json"))
    assert indexed.plan("where are the app sessions stored", budget=400).trace == []


def test_plan_passages_carry_their_evidence(indexed: Any, repo: Path) -> None:
    result = indexed.plan("backup schedule retention", budget=600)
    passages = [i for i in result.items if i.kind == "passage" and i.disposition != "exclude"]
    assert passages, result
    for item in passages:
        assert item.provenance[0].startswith("passage:") and "#" in item.provenance[0]
        assert item.full_tokens > 0


def test_plan_abstains_on_an_unrelated_task(indexed: Any, repo: Path) -> None:
    result = indexed.plan("quantum chromodynamics lattice gauge", budget=800)
    assert result.mode == "abstain" and result.budget.used == 0
    assert not [i for i in result.items if i.disposition in ("include", "compact")]


def test_resume_card(ws: Any, repo: Path) -> None:
    ws.memory_source = FakeMemory([
        Qualified(obs("obs_pin", "Never push to main", "Use pull requests.", type="preference"),
                  "probation", "fresh", pinned=True),
        Qualified(obs("obs_dec", "Sessions in redis", "Decided in March.", updated="2026-03-01T00:00:00Z"),
                  "verified", "fresh"),
        Qualified(obs("obs_how", "How login works", "Explained.", type="how-it-works"), "verified", "fresh"),
        Qualified(obs("obs_gone", "Old gotcha", "stale", type="gotcha"), "verified", "stale"),
    ])
    card = ws.resume(budget=400)
    handed = {i.key for i in card.items if i.disposition in ("include", "compact")}
    assert {"obs_pin", "obs_dec", "git:branch"} <= handed
    assert "obs_how" not in {i.key for i in card.items}
    assert "obs_gone" not in handed
    assert card.mode in ("card", "workset") and card.budget.used <= 400


def test_plan_without_an_index_or_memory(ws: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = ws.plan("anything at all", budget=100)
    assert result.mode == "abstain" and result.items == []


@pytest.mark.parametrize("kwargs", [{"task": " "}, {"task": "x", "budget": 0}, {"task": "x", "budget": 100_001},
                                    {"task": "x" * 2001}])
def test_bad_input(ws: Any, kwargs: dict[str, Any]) -> None:
    task = kwargs.pop("task")
    with pytest.raises(ValidationError):
        ws.plan(task, **kwargs)


def test_cli_plan_and_explain(indexed: Any, repo: Path) -> None:
    out = run_cli("plan", "backup schedule retention", "--budget", "300", "--json").stdout
    data = json.loads(out)
    assert data["budget"]["requested"] == 300 and data["trace"] == []
    explained = run_cli("plan", "backup schedule retention", "--budget", "300", "--explain").stdout
    assert f"trace of {data['explanation_id']}" in explained and "relevance:" in explained
    assert run_cli("plan", "x", "--budget", "0", check=False).returncode != 0
    assert "git:branch" in run_cli("resume").stdout
