"""``plan`` and ``resume`` over the real memory store: records written with
``memory_add`` reach the governor qualified, scoped and with their conflicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cairn


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CAIRN_USER", "ada")
    monkeypatch.chdir(tmp_path)  # not a git checkout: no git facts
    with cairn.open() as workspace:
        yield workspace


def keys(plan: Any) -> list[str]:
    return [i.key for i in plan.items if i.disposition in ("include", "compact")]


def test_stored_memory_reaches_the_plan_scoped_and_without_superseded_claims(ws: Any) -> None:
    mine = ws.memory_add("Deploy freeze", "Deploys are frozen on Fridays after 15:00.", type="decision",
                         project="demo", source="manual").item.id
    other = ws.memory_add("Deploy freeze elsewhere", "Deploys are frozen on Fridays in the other project.",
                          type="decision", project="other", source="manual").item.id
    old = ws.memory_add(subject="deploy window", predicate="closes at", object="15:00", project="demo",
                        source="manual").item.id
    new = ws.memory_add(subject="deploy window", predicate="closes at", object="16:00", project="demo",
                        source="manual", supersedes=old).item.id
    plan = ws.plan("when are deploys frozen on Fridays", budget=600, project="demo", explain=True)
    chosen = keys(plan)
    assert any(mine in k for k in chosen)
    assert not any(other in k for k in chosen) and other not in plan.model_dump_json()
    assert not any(old in k for k in chosen)
    assert plan.mode != "abstain"
    # The same task gives the same plan, byte for byte.
    again = ws.plan("when are deploys frozen on Fridays", budget=600, project="demo", explain=True)
    assert again.model_dump_json() == plan.model_dump_json()
    assert new  # the newer claim is a candidate in its own right (not asserted chosen: relevance decides)


def test_another_users_personal_memory_never_reaches_the_plan(ws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = ws.memory_add("Ada's shortcut", "Grace deploys with the fast path flag.", visibility="personal",
                           project="demo", source="manual").item.id
    # Its owner (ada) gets it ...
    assert any(secret in k for k in keys(ws.plan("how does grace deploy with the fast path",
                                                  project="demo", budget=400)))
    monkeypatch.setenv("CAIRN_USER", "bob")
    with cairn.open() as as_bob:
        plan = as_bob.plan("how does grace deploy with the fast path", project="demo", budget=400)
        assert secret not in plan.model_dump_json()


def test_resume_puts_pinned_memory_on_the_card(ws: Any) -> None:
    rid = ws.memory_add("Run the migrations first", "Always run migrations before deploying.", type="gotcha",
                        project="demo", source="manual").item.id
    ws.memory_pin(rid, project="demo")
    card = ws.resume(project="demo", budget=300)
    assert any(rid in k for k in keys(card))
