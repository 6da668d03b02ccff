"""The evidence governor on deterministic fixtures (pure: no store, no model)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.errors import ValidationError
from cairn.memory.governor import Candidate, GovernorSettings, canonical, plan
from cairn.memory.scope import Caller

ME = Caller(project="github.com/acme/app", user="ana")
FLOOR = GovernorSettings(relevance_floor=0.3)


def cand(key: str, relevance: float = 0.8, *, tokens: int = 60, compact_tokens: int = 15, **kw: object) -> Candidate:
    base: dict[str, object] = dict(
        key=key, kind="observation", title=f"title {key}", text=f"full text of {key}",
        compact=f"short {key}", tokens=tokens, compact_tokens=compact_tokens, relevance=relevance,
        project=ME.project, visibility="project", owner=None, source="agent",
        provenance=(f"file:src/{key}.py",), evidence=1,
    )
    base.update(kw)
    return Candidate(**base)  # type: ignore[arg-type]


def by_key(p):  # type: ignore[no-untyped-def]
    return {item.key: item for item in p.items}


def test_abstains_when_nothing_qualifies() -> None:
    pool = [cand("a", 0.05), cand("b", 0.08), cand("c", 0.9, freshness="stale")]
    result = plan("rotate the signing key", pool, ME, 800, FLOOR)
    assert result.mode == "abstain" and result.reason == "abstain.nothing_qualifies"
    assert result.confidence == "none"
    assert result.budget.used == 0 and result.budget.remaining == 800
    # less context, never a summary: nothing is handed over
    assert all(item.disposition == "exclude" and item.text is None for item in result.items)
    assert by_key(result)["c"].reasons == ["freshness.stale_source"]
    assert by_key(result)["a"].reasons == ["relevance.below_floor"]


def test_zero_relevance_never_qualifies() -> None:
    result = plan("task", [cand("a", 0.0), cand("b", 0.0, pinned=False)], ME, 800, GovernorSettings(relevance_floor=0.0))
    assert result.mode == "abstain" and result.reason == "abstain.nothing_qualifies"


def test_abstains_on_an_empty_pool() -> None:
    result = plan("anything", [], ME, 400)
    assert (result.mode, result.items, result.budget.used) == ("abstain", [], 0)


def test_compact_card_for_a_few_items() -> None:
    pool = [cand("a", 0.9), cand("b", 0.7), cand("z", 0.02)]
    result = plan("how does login work", pool, ME, 800, FLOOR)
    assert result.mode == "card" and result.reason == "card.few_items"
    handed = [i for i in result.items if i.disposition != "exclude"]
    assert [i.key for i in handed] == ["a", "b"]
    assert all(i.disposition == "compact" and i.text == f"short {i.key}" and i.tokens == 15 for i in handed)
    assert result.budget.used == 30
    assert result.confidence == "high"


def test_workset_packs_full_then_compact_then_defers() -> None:
    pool = [cand(f"k{i}", 0.9 - i * 0.05, tokens=100, compact_tokens=30) for i in range(6)]
    result = plan("task", pool, ME, 300)
    assert result.mode == "workset"
    disp = [(i.key, i.disposition) for i in result.items]
    assert disp[:3] == [("k0", "include"), ("k1", "include"), ("k2", "include")]
    assert result.budget.used <= 300
    deferred = [i.key for i in result.items if i.disposition == "defer"]
    assert {f.key for f in result.follow_ups} == set(deferred) and deferred


def test_suspect_source_kept_with_a_caution() -> None:
    pool = [cand("bound", 0.9, freshness="suspect"), cand("other", 0.6)]
    result = plan("task", pool, ME, 800)
    item = by_key(result)["bound"]
    assert item.disposition in ("include", "compact")
    assert "freshness.suspect_source" in item.reasons
    assert item.score == pytest.approx(0.9 * GovernorSettings().suspect_factor)
    assert [(c.code, c.key) for c in result.cautions] == [("freshness.suspect_source", "bound")]


def test_conflict_keeps_the_newer_claim() -> None:
    old = cand("clm_old", 0.9, kind="claim", conflict_key="db|engine", conflict="contested",
               observed_at="2026-01-01T00:00:00Z")
    new = cand("clm_new", 0.7, kind="claim", conflict_key="db|engine", conflict="contested",
               observed_at="2026-03-01T00:00:00Z")
    gone = cand("clm_gone", 0.95, kind="claim", conflict_key="db|port", conflict="superseded")
    result = plan("which database", [old, new, gone], ME, 800)
    items = by_key(result)
    assert items["clm_old"].disposition == "exclude" and items["clm_old"].reasons == ["conflict.contested"]
    assert items["clm_gone"].reasons == ["conflict.superseded"]
    assert items["clm_new"].disposition != "exclude"
    assert "conflict.contested_kept" in items["clm_new"].reasons
    assert any(c.code == "conflict.contested_kept" and c.key == "clm_new" for c in result.cautions)


def test_scope_isolation_two_projects_and_personal_memory() -> None:
    pool = [
        cand("mine", 0.5),
        cand("theirs", 1.0, project="github.com/acme/other"),
        cand("bob_private", 1.0, visibility="personal", owner="bob"),
        cand("ana_private", 0.6, visibility="personal", owner="ana"),
        cand("ana_elsewhere", 1.0, visibility="personal", owner="ana", project="github.com/acme/other"),
        cand("team_wide", 0.55, visibility="team", project="github.com/acme/other"),
        cand("ownerless", 1.0, visibility="personal", owner=None),
    ]
    for caller, visible in ((ME, {"mine", "ana_private", "team_wide"}),
                            (Caller(ME.project, "bob"), {"mine", "bob_private", "team_wide"}),
                            (Caller(ME.project, None), {"mine", "team_wide"})):
        result = plan("task", pool, caller, 800)
        assert {i.key for i in result.items} == visible
        blob = canonical(result.model_dump(mode="json")).decode()
        for hidden in {c.key for c in pool} - visible:
            assert hidden not in blob  # not even named in the trace
    scope = plan("task", pool, ME, 800).trace[0]
    assert scope.step == "scope" and scope.counts == {"scope.other_project": 2, "scope.personal_not_owner": 2}


def test_provenance_and_quality_steps() -> None:
    pool = [
        cand("bare_agent", 0.9, evidence=0, provenance=()),
        cand("bare_manual", 0.9, evidence=0, provenance=(), source="manual"),
        cand("bare_pinned", 0.4, evidence=0, provenance=(), pinned=True),
        cand("blocked", 0.9, quality="blocked"),
        cand("degraded", 0.9, quality="degraded"),
    ]
    items = by_key(plan("task", pool, ME, 800))
    assert items["bare_agent"].reasons == ["provenance.no_evidence"]
    assert items["bare_manual"].reasons[0] == "provenance.asserted" and items["bare_manual"].disposition != "exclude"
    assert "pin.pinned" in items["bare_pinned"].reasons and items["bare_pinned"].score == pytest.approx(0.6)
    assert items["blocked"].reasons == ["quality.blocked"]
    assert "quality.degraded" in items["degraded"].reasons and items["degraded"].score == pytest.approx(0.63)


def test_low_confidence_is_marked() -> None:
    result = plan("task", [cand("a", 0.35)], ME, 800)
    assert result.mode == "card" and result.confidence == "low"
    assert any(c.code == "relevance.low_confidence" for c in result.cautions)


def test_nothing_fits_abstains_and_defers() -> None:
    result = plan("task", [cand("a", 0.9, tokens=500, compact_tokens=200)], ME, 100)
    assert result.mode == "abstain" and result.reason == "abstain.nothing_fits"
    assert result.budget.used == 0 and [f.key for f in result.follow_ups] == ["a"]


def test_same_task_same_plan_byte_for_byte() -> None:
    pool = [cand(f"k{i}", round(0.2 + 0.07 * i, 3), tokens=40 + i, compact_tokens=10,
                 freshness=("fresh", "suspect", "unknown")[i % 3]) for i in range(10)]
    first = canonical(plan("task", pool, ME, 300).model_dump(mode="json"))
    shuffled = pool[:]
    random.Random(7).shuffle(shuffled)
    again = plan("task", shuffled, ME, 300)
    assert canonical(again.model_dump(mode="json")) == first
    assert len(again.explanation_id) == 64
    assert plan("another task", pool, ME, 300).explanation_id != again.explanation_id


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValidationError):
        plan("t", [], ME, 0)
    with pytest.raises(ValidationError):
        plan("t", [cand("a"), cand("a")], ME, 10)
    with pytest.raises(ValidationError):
        plan("t", [cand("a", 1.5)], ME, 10)


_candidates = st.lists(
    st.builds(
        lambda i, rel, tok, comp, fresh, qual, vis, pin: cand(
            f"k{i}", rel, tokens=tok, compact_tokens=min(tok, comp), freshness=fresh, quality=qual,
            visibility=vis, owner="ana", pinned=pin),
        st.integers(0, 10_000), st.floats(0, 1), st.integers(0, 3000), st.integers(0, 400),
        st.sampled_from(["fresh", "suspect", "stale", "unknown"]),
        st.sampled_from(["probation", "verified", "degraded", "blocked"]),
        st.sampled_from(["personal", "project", "team"]), st.booleans(),
    ),
    max_size=40, unique_by=lambda c: c.key,
)


@settings(max_examples=200, deadline=None)
@given(_candidates, st.integers(1, 5000), st.floats(0, 1))
def test_budget_is_never_exceeded(pool: list[Candidate], budget: int, floor: float) -> None:
    result = plan("task", pool, ME, budget, GovernorSettings(relevance_floor=floor))
    handed = [i for i in result.items if i.disposition in ("include", "compact")]
    assert result.budget.used == sum(i.tokens for i in handed) <= budget
    assert result.budget.remaining == budget - result.budget.used
    assert (result.mode == "abstain") == (not handed)
    for item in handed:
        source = next(c for c in pool if c.key == item.key)
        assert item.tokens == (source.tokens if item.disposition == "include" else source.compact_tokens)


def test_settings_are_echoed() -> None:
    custom = GovernorSettings(relevance_floor=0.5)
    assert plan("t", [], ME, 10, custom).settings == dataclasses.asdict(custom)


@settings(max_examples=200, deadline=None)
@given(_candidates, st.integers(1, 5000), st.floats(0, 1))
def test_a_plan_without_its_trace_is_the_same_plan(pool: list[Candidate], budget: int, floor: float) -> None:
    traced = plan("task", pool, ME, budget, GovernorSettings(relevance_floor=floor))
    untraced = plan("task", pool, ME, budget, GovernorSettings(relevance_floor=floor), explain=False)
    assert untraced.trace == []
    assert canonical(untraced.model_dump(mode="json")) == canonical(
        traced.model_copy(update={"trace": []}).model_dump(mode="json"))
