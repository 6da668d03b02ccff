"""Contract of ``Workspace.plan`` / ``Workspace.resume``: the evidence governor's context plan.

A plan says, for one task and one caller, whether to hand over nothing (``abstain``), a
compact ``card`` or a selected ``workset``; every candidate that was in the caller's scope
is listed with its disposition and stable reason codes (see
:mod:`cairn.memory.governor` for the table). Candidates outside the caller's scope never
appear, not even by key: the trace counts them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cairn.contracts import Contract

PlanMode = Literal["abstain", "card", "workset"]
Disposition = Literal["include", "compact", "defer", "exclude"]
CandidateKind = Literal["observation", "claim", "passage", "git"]
Confidence = Literal["high", "low", "none"]


class PlanItem(Contract):
    """One candidate and what the governor did with it."""

    key: str
    kind: CandidateKind
    title: str
    disposition: Disposition
    #: Stable reason codes, in the order the steps gave them.
    reasons: list[str]
    #: The text handed over: the full text (``include``), the compact form (``compact``);
    #: None for ``defer`` and ``exclude``.
    text: str | None = None
    #: Tokens of what is handed over (0 for defer/exclude).
    tokens: int
    #: Tokens of the full text.
    full_tokens: int
    relevance: float
    #: Relevance after the freshness/quality/pin adjustments (the packing order).
    score: float
    freshness: str
    quality: str
    conflict: str
    evidence: int
    provenance: list[str] = Field(default_factory=list)
    source: str
    observed_at: str | None = None


class FollowUp(Contract):
    """A qualified item left out for budget: how to fetch it if needed."""

    key: str
    title: str
    tokens: int
    fetch: str


class Caution(Contract):
    code: str
    key: str | None = None
    message: str


class PlanBudget(Contract):
    requested: int
    used: int
    remaining: int


class TraceEntry(Contract):
    key: str
    code: str


class TraceStep(Contract):
    """One governor step: how many candidates entered, and what it removed or flagged."""

    step: str
    entered: int
    excluded: list[TraceEntry] = Field(default_factory=list)
    flagged: list[TraceEntry] = Field(default_factory=list)
    #: Exclusions counted by code but not listed (out-of-scope records stay invisible).
    counts: dict[str, int] = Field(default_factory=dict)


class Plan(Contract):
    """A context plan: what to hand an agent for ``task``, and why."""

    schema_version: Literal["cairn.plan/1"] = "cairn.plan/1"
    task: str
    mode: PlanMode
    #: ``none`` when abstaining; ``low`` when the best item only just passed the floor.
    confidence: Confidence
    #: Why this mode (a stable code: ``abstain.nothing_qualifies``, ``card.few_small``, ...).
    reason: str
    items: list[PlanItem] = Field(default_factory=list)
    follow_ups: list[FollowUp] = Field(default_factory=list)
    cautions: list[Caution] = Field(default_factory=list)
    budget: PlanBudget
    #: The governor settings in force (name -> value).
    settings: dict[str, float | int | str]
    token_counter: str | None = None
    #: SHA-256 of everything that determines the plan (task, budget, caller, settings,
    #: token counter, every candidate; :func:`cairn.memory.governor.explanation_id`): the
    #: same task and state give the same id.
    explanation_id: str
    trace: list[TraceStep] = Field(default_factory=list)
