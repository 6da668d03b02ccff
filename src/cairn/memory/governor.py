"""The evidence governor: for one task, hand over nothing, a compact card or a workset.

:func:`plan` is a pure function over plain data: no store, no model, no clock, no I/O.
It reads :class:`Candidate` objects (memory records, passages, git facts, already scored
for relevance and already carrying their derived freshness/quality/conflict state) and
returns a :class:`~cairn.contracts.plan.Plan`. The same input gives byte-identical
canonical JSON (candidates are sorted by key first, so their order does not matter).

Steps, in this order; each candidate leaves at the first step that excludes it:

1. **scope** - who may see it. Runs before relevance: a record outside the caller's
   scope never passes, however relevant, and is not even listed (the trace counts it).
2. **provenance** - does it point at evidence?
3. **freshness** - do its sources still match what it was written against?
4. **conflict** - is it superseded, or contested by a newer record with the same key?
5. **quality** - what the outcome signals derived (probation/verified/degraded/blocked).
6. **relevance** - adjusted score against the floor.
7. **pack** - the mode, then a greedy packing in score order under the token budget.

Reason codes (stable; ``exclude`` codes remove the item, ``flag`` codes keep it):

============================  =======  ==========================================================
code                          effect   meaning
============================  =======  ==========================================================
scope.other_project           exclude  record of another project (team records pass)
scope.personal_not_owner      exclude  personal record of another user (or with no owner)
provenance.no_evidence        exclude  agent-written, no evidence ref, not verified, not pinned
provenance.asserted           flag     no evidence ref, but written by a person or git
freshness.stale_source        exclude  a bound source is gone
freshness.suspect_source      flag     a bound source changed since writing (caution)
freshness.unknown             flag     freshness could not be checked
freshness.code_changed        flag     a bound code symbol's body changed (by body hash; caution)
freshness.symbol_moved        flag     a bound code symbol was renamed or moved (caution)
freshness.symbol_removed      flag     a bound code symbol is gone (with stale_source; caution)
freshness.file_changed        flag     a bound file's content changed
freshness.file_removed        flag     a bound file is gone (with stale_source)
conflict.superseded           exclude  a newer record replaced it
conflict.contested            exclude  a newer record with the same conflict key is kept
conflict.contested_kept       flag     newest of a contested group, kept (caution)
quality.blocked               exclude  the signals block it (e.g. repeated test failures)
quality.degraded              flag     the signals degrade it (score x degraded_factor, caution)
quality.verified              flag     the signals verify it
pin.pinned                    flag     pinned by a user (score + pin_bonus)
relevance.below_floor         exclude  adjusted score < relevance_floor, or 0
relevance.low_confidence      caution  the best qualified item scored < confident_score
pack.card                     flag     handed in a card (compact form)
pack.full                     flag     handed in full
pack.compacted                flag     handed in compact form: the full text did not fit
pack.over_budget              defer    not even the compact form fits what is left
pack.item_cap                 defer    more qualified items than max_items
============================  =======  ==========================================================

Modes (``Plan.reason``): ``abstain.nothing_qualifies`` (no candidate passed the steps:
less context, never a generic summary), ``abstain.nothing_fits`` (items qualified but
not even one compact form fits the budget; they are deferred), ``card.few_items`` (at
most ``card_max_items`` qualified: each handed in compact form), ``workset.selected``.

The budget is never exceeded: ``used`` is the sum of the token counts of what is handed
over (full or compact), each counted by the candidate builder with the real tokenizer.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cairn.contracts.plan import (
    CandidateKind,
    Caution,
    Confidence,
    FollowUp,
    Plan,
    PlanBudget,
    PlanItem,
    TraceEntry,
    TraceStep,
)
from cairn.errors import ValidationError
from cairn.memory.records import Freshness, Quality, Visibility
from cairn.memory.scope import Caller

ConflictState = Literal["none", "superseded", "contested"]

#: Largest budget a plan accepts (tokens).
MAX_BUDGET = 100_000


@dataclass(frozen=True, slots=True)
class GovernorSettings:
    """Every constant of the governor.

    Chosen on data (LoCoMo conversations 1-2 stored as observations, the tuning split of
    ``bench/eval_memory.py``; reported on conversations 3-5): ``relevance_floor`` (the
    highest floor that keeps answerable abstention ≤ 10% and the plan's evidence recall
    within 0.5 points of a packed ``query`` at 400/800/1600 tokens: 0.1, session 6) and
    ``confident_score`` (the highest that marks ≤ 25% of answerable plans
    low-confidence: 0.55); see bench/RESULTS.md. The
    others are design choices, not tuned: ``card_max_items`` (a card is what fits at a
    glance), ``max_items``, ``max_item_share`` (no single item eats more than this share
    of the budget in full form), the freshness/quality factors and ``pin_bonus`` (a
    suspect or degraded record ranks below an equally relevant healthy one; a pin lifts
    a record by a fixed amount), ``max_listed_exclusions`` (plan size)."""

    relevance_floor: float = 0.1
    confident_score: float = 0.55
    card_max_items: int = 3
    max_items: int = 50
    max_item_share: float = 0.5
    suspect_factor: float = 0.8
    unknown_factor: float = 1.0
    degraded_factor: float = 0.7
    pin_bonus: float = 0.2
    max_listed_exclusions: int = 20


@dataclass(frozen=True, slots=True)
class Candidate:
    """One thing that could be handed to an agent, with everything the governor judges.

    ``tokens`` and ``compact_tokens`` are real token counts of ``text`` and ``compact``.
    ``relevance`` is in [0, 1], normalised per source by the candidate builder
    (:mod:`cairn.memory.candidates`). ``evidence`` counts evidence refs; ``provenance``
    names them (``passage:<docid>:<start>-<end>``, ``file:<path>``, ``commit:<id>``).
    ``fetch`` says how to get the full item later (a ``cairn get`` or ``cairn memory
    show`` command)."""

    key: str
    kind: CandidateKind
    title: str
    text: str
    compact: str
    tokens: int
    compact_tokens: int
    relevance: float
    project: str
    visibility: Visibility = "project"
    owner: str | None = None
    source: str = "agent"
    provenance: tuple[str, ...] = ()
    evidence: int = 0
    freshness: Freshness = "fresh"
    #: Why it is not fresh, as the memory store says (``symbol_changed:PATH::NAME``, ...).
    freshness_reasons: tuple[str, ...] = ()
    conflict: ConflictState = "none"
    conflict_key: str | None = None
    quality: Quality = "probation"
    pinned: bool = False
    observed_at: str | None = None
    fetch: str = ""


@dataclass(slots=True)
class _State:
    cand: Candidate
    reasons: list[str]
    score: float = 0.0


def plan(
    task: str, candidates: Sequence[Candidate], caller: Caller, budget: int,
    settings: GovernorSettings = GovernorSettings(),
    *, token_counter: str | None = None, explain: bool = True,
) -> Plan:
    """The context plan for ``task``: scope -> provenance -> freshness -> conflict ->
    quality -> relevance -> budgeted packing (see the module docstring for the codes).

    Pure and deterministic: the same arguments give byte-identical canonical JSON, and
    the order of ``candidates`` does not matter. ``explain=False`` leaves the trace out
    (``trace`` empty; everything else the same). Raises ValidationError for a budget
    outside 1..100,000, duplicate keys, a relevance outside [0, 1] or a negative token count."""
    _check(candidates, budget)
    ordered = sorted(candidates, key=_by_key)
    pool = [_State(c, []) for c in ordered]
    trace: list[TraceStep] = []
    # Without ``explain`` no trace step or entry is built (a plan's trace is some 300
    # models, a large part of the governor's time when nobody reads it).
    excluded: list[tuple[_State, str]] = []
    cautions: list[Caution] = []

    def step(name: str, judge: Any, *, listed: bool = True) -> None:
        nonlocal pool
        entered = len(pool)
        record = TraceStep(step=name, entered=entered) if explain else None
        kept: list[_State] = []
        for state in pool:
            code, flags = judge(state)
            for flag in flags:
                state.reasons.append(flag)
                if record is not None:
                    record.flagged.append(TraceEntry(key=state.cand.key, code=flag))
            if code is None:
                kept.append(state)
                continue
            state.reasons.append(code)
            if record is not None:
                record.counts[code] = record.counts.get(code, 0) + 1
            if listed:
                if record is not None:
                    record.excluded.append(TraceEntry(key=state.cand.key, code=code))
                excluded.append((state, code))
        pool = kept
        if record is not None:
            trace.append(record)

    step("scope", lambda s: (_scope(s.cand, caller), ()), listed=False)
    step("provenance", _provenance)
    step("freshness", _freshness)
    cautions += _code_cautions(excluded)
    contested = _contested(pool)
    step("conflict", lambda s: _conflict(s, contested))
    step("quality", _quality)
    for state in pool:
        state.score = _score(state, settings)
    # Zero relevance never qualifies, whatever the floor: nothing of the task matched.
    step("relevance", lambda s: ("relevance.below_floor" if s.score < settings.relevance_floor or s.score <= 0
                                 else None,
                                 ("pin.pinned",) if s.cand.pinned else ()))
    for state in pool:
        specific = [code for code in state.reasons if code in _CODE_CAUTIONS]
        for code in state.reasons:
            if code in _CODE_CAUTIONS:
                cautions.append(Caution(code=code, key=state.cand.key, message=_code_message(state.cand, code)))
            elif code in _CAUTIONS and not (specific and code == "freshness.suspect_source"):
                cautions.append(Caution(code=code, key=state.cand.key, message=_CAUTIONS[code]))

    qualified = sorted(pool, key=lambda s: (-s.score, s.cand.key))
    items, follow_ups, used, mode, reason = _pack(qualified, budget, settings, trace if explain else None)
    confidence: Confidence = "none"
    if mode != "abstain":
        confidence = "high" if qualified[0].score >= settings.confident_score else "low"
        if confidence == "low":
            cautions.append(Caution(code="relevance.low_confidence", message=(
                f"the best item scored {qualified[0].score:.2f} < {settings.confident_score}: "
                "check it before relying on it")))
    excluded.sort(key=lambda pair: (_STEP_ORDER[pair[1].split(".")[0]], -pair[0].score, pair[0].cand.key))
    items += [_item(s, "exclude", None, 0) for s, _ in excluded[: settings.max_listed_exclusions]]
    return Plan(
        task=task, mode=mode, confidence=confidence, reason=reason, items=items, follow_ups=follow_ups,
        cautions=cautions, budget=PlanBudget(requested=budget, used=used, remaining=budget - used),
        settings=dataclasses.asdict(settings), token_counter=token_counter, trace=trace,
        explanation_id=explanation_id(task, ordered, caller, budget, settings, token_counter),
    )


# --- the steps ---------------------------------------------------------------------------

_STEP_ORDER = {"scope": 0, "provenance": 1, "freshness": 2, "conflict": 3, "quality": 4, "relevance": 5}

_CAUTIONS = {
    "freshness.suspect_source": "a source this item is bound to changed since it was written; check it",
    "conflict.contested_kept": "an older record with the same key disagrees; this newer one is kept",
    "quality.degraded": "outcome signals degraded this item (failed tests, corrections or changed sources)",
}

#: Freshness reasons of the memory store (:mod:`cairn.memory.freshness`) -> plan codes.
_FRESHNESS_CODES = {
    "symbol_changed": "freshness.code_changed", "symbol_moved": "freshness.symbol_moved",
    "symbol_removed": "freshness.symbol_removed", "file_changed": "freshness.file_changed",
    "file_gone": "freshness.file_removed",
}
#: Codes whose caution names the code that changed (it replaces the generic one).
_CODE_CAUTIONS = {
    "freshness.code_changed": "bound code changed since this was written (by body hash): {}; check it",
    "freshness.symbol_moved": "bound code was renamed or moved since this was written: {}; check it",
    "freshness.symbol_removed": "bound code was removed since this was written: {}; this item was left out",
}


def _scope(cand: Candidate, caller: Caller) -> str | None:
    if cand.visibility == "team":
        return None
    if cand.project != caller.project:
        return "scope.other_project"
    if cand.visibility == "personal" and (cand.owner is None or cand.owner != caller.user):
        return "scope.personal_not_owner"
    return None


def _provenance(state: _State) -> tuple[str | None, tuple[str, ...]]:
    cand = state.cand
    if cand.evidence > 0:
        return None, ()
    if cand.source == "agent" and cand.quality != "verified" and not cand.pinned:
        return "provenance.no_evidence", ()
    return None, ("provenance.asserted",)


def _code_flags(cand: Candidate) -> tuple[str, ...]:
    """The plan codes of a candidate's freshness reasons, each once, in a fixed order."""
    found = {_FRESHNESS_CODES[r.split(":", 1)[0]] for r in cand.freshness_reasons
             if r.split(":", 1)[0] in _FRESHNESS_CODES}
    return tuple(code for code in _FRESHNESS_CODES.values() if code in found)


def _code_message(cand: Candidate, code: str) -> str:
    prefix = next(k for k, v in _FRESHNESS_CODES.items() if v == code)
    where = [r.split(":", 1)[1] for r in cand.freshness_reasons if r.split(":", 1)[0] == prefix]
    return _CODE_CAUTIONS[code].format(", ".join(where))


def _code_cautions(excluded: Sequence[tuple[_State, str]]) -> list[Caution]:
    """Cautions for items left out because bound code was removed (a relevant record that
    no longer holds is worth knowing about); items that matched nothing are not named."""
    return [Caution(code="freshness.symbol_removed", key=s.cand.key,
                    message=_code_message(s.cand, "freshness.symbol_removed"))
            for s, code in excluded
            if code == "freshness.stale_source" and s.cand.relevance > 0
            and "freshness.symbol_removed" in s.reasons]


def _freshness(state: _State) -> tuple[str | None, tuple[str, ...]]:
    flags = _code_flags(state.cand)
    match state.cand.freshness:
        case "stale":
            return "freshness.stale_source", flags
        case "suspect":
            return None, ("freshness.suspect_source", *flags)
        case "unknown":
            return None, ("freshness.unknown",)
        case "fresh":
            return None, ()


def _contested(pool: Sequence[_State]) -> dict[str, str]:
    """Conflict key -> the key of the record kept (the newest), for keys held by more
    than one live record or marked contested."""
    groups: dict[str, list[Candidate]] = {}
    for state in pool:
        cand = state.cand
        if cand.conflict_key and cand.conflict != "superseded":
            groups.setdefault(cand.conflict_key, []).append(cand)
    kept = {}
    for conflict_key, members in groups.items():
        if len(members) > 1 or members[0].conflict == "contested":
            newest = max(members, key=lambda c: (c.observed_at or "", c.key))
            kept[conflict_key] = newest.key
    return kept


def _conflict(state: _State, contested: dict[str, str]) -> tuple[str | None, tuple[str, ...]]:
    cand = state.cand
    if cand.conflict == "superseded":
        return "conflict.superseded", ()
    if cand.conflict_key and cand.conflict_key in contested:
        if contested[cand.conflict_key] == cand.key:
            return None, ("conflict.contested_kept",)
        return "conflict.contested", ()
    return None, ()


def _quality(state: _State) -> tuple[str | None, tuple[str, ...]]:
    match state.cand.quality:
        case "blocked":
            return "quality.blocked", ()
        case "degraded":
            return None, ("quality.degraded",)
        case "verified":
            return None, ("quality.verified",)
        case "probation":
            return None, ()


def _score(state: _State, settings: GovernorSettings) -> float:
    cand = state.cand
    score = cand.relevance
    if cand.freshness == "suspect":
        score *= settings.suspect_factor
    elif cand.freshness == "unknown":
        score *= settings.unknown_factor
    if cand.quality == "degraded":
        score *= settings.degraded_factor
    if cand.pinned:
        score += settings.pin_bonus
    return round(min(1.0, max(0.0, score)), 6)


# --- packing ---------------------------------------------------------------------------


def _pack(
    qualified: list[_State], budget: int, settings: GovernorSettings, trace: list[TraceStep] | None,
) -> tuple[list[PlanItem], list[FollowUp], int, Literal["abstain", "card", "workset"], str]:
    record = None
    if trace is not None:
        record = TraceStep(step="pack", entered=len(qualified))
        trace.append(record)
    if not qualified:
        return [], [], 0, "abstain", "abstain.nothing_qualifies"
    card = len(qualified) <= settings.card_max_items
    items: list[PlanItem] = []
    deferred: list[PlanItem] = []
    follow_ups: list[FollowUp] = []
    used = 0
    full_cap = budget * settings.max_item_share
    for position, state in enumerate(qualified):
        cand, left = state.cand, budget - used
        if position >= settings.max_items:
            code = "pack.item_cap"
        elif card and cand.compact_tokens <= left:
            code = "pack.card"
        elif not card and cand.tokens <= left and cand.tokens <= full_cap:
            code = "pack.full"
        elif cand.compact_tokens <= left:
            code = "pack.compacted"
        else:
            code = "pack.over_budget"
        state.reasons.append(code)
        if code in ("pack.item_cap", "pack.over_budget"):
            if record is not None:
                record.excluded.append(TraceEntry(key=cand.key, code=code))
            deferred.append(_item(state, "defer", None, 0))
            follow_ups.append(FollowUp(key=cand.key, title=cand.title, tokens=cand.tokens,
                                       fetch=cand.fetch or cand.key))
            continue
        if record is not None:
            record.flagged.append(TraceEntry(key=cand.key, code=code))
        if code == "pack.full" or (cand.compact == cand.text and cand.compact_tokens == cand.tokens):
            items.append(_item(state, "include", cand.text, cand.tokens))
            used += cand.tokens
        else:
            items.append(_item(state, "compact", cand.compact, cand.compact_tokens))
            used += cand.compact_tokens
    if not items:
        return deferred, follow_ups, 0, "abstain", "abstain.nothing_fits"
    mode: Literal["card", "workset"] = "card" if card else "workset"
    return items + deferred, follow_ups, used, mode, "card.few_items" if card else "workset.selected"


def _item(state: _State, disposition: Literal["include", "compact", "defer", "exclude"],
          text: str | None, tokens: int) -> PlanItem:
    cand = state.cand
    return PlanItem(
        key=cand.key, kind=cand.kind, title=cand.title, disposition=disposition, reasons=list(state.reasons),
        text=text, tokens=tokens, full_tokens=cand.tokens, relevance=round(cand.relevance, 6),
        score=state.score, freshness=cand.freshness, quality=cand.quality, conflict=cand.conflict,
        evidence=cand.evidence, provenance=list(cand.provenance), source=cand.source,
        observed_at=cand.observed_at,
    )


# --- checks and identity ---------------------------------------------------------------


def _check(candidates: Sequence[Candidate], budget: int) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise ValidationError(f"budget must be an integer between 1 and {MAX_BUDGET}")
    seen: set[str] = set()
    for cand in candidates:
        if cand.key in seen:
            raise ValidationError(f"duplicate candidate key {cand.key!r}")
        seen.add(cand.key)
        if not 0.0 <= cand.relevance <= 1.0:
            raise ValidationError(f"candidate {cand.key!r}: relevance must be in [0, 1]")
        if cand.tokens < 0 or cand.compact_tokens < 0:
            raise ValidationError(f"candidate {cand.key!r}: token counts must not be negative")


def canonical(data: Any) -> bytes:
    """Canonical JSON bytes (sorted keys, no whitespace, UTF-8)."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


_by_key = operator.attrgetter("key")

#: Names the derivation of the explanation id (a new one whenever what it hashes changes).
EXPLANATION_ID_VERSION = "cairn.plan-id/2"
#: The candidate fields hashed as they are (``text`` and ``compact`` follow, as bytes).
_ID_FIELDS = tuple(f.name for f in dataclasses.fields(Candidate) if f.name not in ("text", "compact"))
_id_row = operator.attrgetter(*_ID_FIELDS)


def explanation_id(task: str, ordered: Sequence[Candidate], caller: Caller, budget: int,
                   settings: GovernorSettings, token_counter: str | None) -> str:
    """The content id of a plan: SHA-256 of everything that determines it, for candidates
    ``ordered`` by key. The plan is a pure function of these arguments (and of this
    module's version, :data:`EXPLANATION_ID_VERSION`), so the same task and state give the
    same id, and any change of the task, a candidate's content or state (text, tokens,
    relevance, freshness, conflict, quality, pin, ...), the caller, the budget, the
    settings or the token counter gives another.

    Hashed: one compact JSON array (the version, the arguments, each candidate's fields
    but its two texts, each text's length in characters), then the texts' UTF-8 bytes in
    order (their lengths make the split unambiguous). Neither the plan nor the texts go
    through JSON: the canonical JSON of every candidate and of the whole plan was most of
    the governor's time (≈ 2.5 ms of 4.5 a plan)."""
    texts = [text for cand in ordered for text in (cand.text, cand.compact)]
    head = [EXPLANATION_ID_VERSION, task, budget, caller.project, caller.user, token_counter,
            [[f.name, getattr(settings, f.name)] for f in dataclasses.fields(settings)], _ID_FIELDS,
            [_id_row(cand) for cand in ordered], [len(text) for text in texts]]
    digest = hashlib.sha256(json.dumps(head, separators=(",", ":"), allow_nan=False).encode("ascii"))
    digest.update("".join(texts).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()
