"""Contracts of ``ask`` (cited evidence, optionally a generated answer) and verified ask.

Same rules as :mod:`cairn.contracts`: frozen, unknown fields forbidden.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from cairn.contracts import Contract
from cairn.contracts.capsule import EvidenceItem, FacetCoverage

ASK_SCHEMA: Final = "cairn.ask/1"
VERIFIED_ASK_SCHEMA: Final = "cairn.verified-ask/1"
CHECK_SCHEMA: Final = "cairn.check/1"

#: How an answer was made: ``extractive`` quotes evidence sentences (no model),
#: ``generative`` is drafted by the configured generator.
AnswerMode = Literal["extractive", "generative"]

Verdict = Literal["supported", "contradicted", "insufficient", "uncertain"]
#: Why a verified ask returned no answer: ``no_evidence`` nothing to answer from,
#: ``generator_failed`` the model was unavailable / failed / timed out / gave no usable
#: draft, ``no_claims`` the draft held no checkable claim, ``verifier_failed`` the
#: verifier was unavailable or failed, ``claims_not_supported`` some substantive claim
#: is not supported by the evidence, ``no_answer_in_evidence`` (extractive) no evidence
#: sentence answers the question.
AbstainReason = Literal[
    "no_evidence", "generator_failed", "no_claims", "verifier_failed", "claims_not_supported",
    "no_answer_in_evidence",
]


class GeneratedAnswer(Contract):
    """A model's short answer drawn from the evidence, with the evidence refs it cites."""

    text: str
    #: Evidence refs ("E1", ...) the answer cites, in order of first citation.
    cited: list[str]
    #: Cited refs that name no evidence item (a model inventing sources).
    unknown_citations: list[str] = Field(default_factory=list)
    #: The generator's fingerprint, or ``extractive`` for a quoted (model-free) answer.
    generator: str
    mode: AnswerMode = "generative"
    #: Labels for the reader, e.g. ``quotes_instruction_like_evidence:E2`` when the
    #: answer cites evidence that reads like an instruction to a model (prompt injection).
    warnings: list[str] = Field(default_factory=list)


class AskResponse(Contract):
    """``cairn ask``: cited evidence first; an answer only with ``--answer``."""

    schema_version: Literal["cairn.ask/1"] = ASK_SCHEMA
    question: str
    capsule_id: str
    evidence: list[EvidenceItem]
    coverage: list[FacetCoverage]
    answer: GeneratedAnswer | None = None
    #: Why no answer was produced although one was requested (e.g. model unavailable).
    answer_error: str | None = None
    hints: list[str] = Field(default_factory=list)


class VerdictSpan(Contract):
    """An exact span of evidence a verdict rests on."""

    ref: str
    evidence_id: str
    uri: str
    start_line: int
    end_line: int
    quote: str


class ClaimResult(Contract):
    id: str
    text: str
    cited: list[str]
    substantive: bool
    verdict: Verdict
    reason: str
    detail: str = ""
    spans: list[VerdictSpan] = Field(default_factory=list)


class VerifiedAskResponse(Contract):
    """``cairn ask --verify``: the answer is returned only when every substantive claim is
    supported by the capsule's evidence; otherwise ``abstained`` with the verdicts.

    Abstaining is a normal result, not an error (the CLI exits 0)."""

    schema_version: Literal["cairn.verified-ask/1"] = VERIFIED_ASK_SCHEMA
    question: str
    capsule_id: str
    abstained: bool
    abstain_reason: AbstainReason | None = None
    #: The verified answer; None when abstained.
    answer: str | None = None
    #: The model's draft, shown for transparency also when abstaining (never as an answer).
    draft: str | None = None
    generator: str | None = None
    claims: list[ClaimResult]
    evidence: list[EvidenceItem]
    detail: str = ""
    mode: AnswerMode = "generative"
    #: Labels for the reader (see :attr:`GeneratedAnswer.warnings`); an extractive answer
    #: also says here when the verifier disagreed with a quoted sentence (it is dropped).
    warnings: list[str] = Field(default_factory=list)


class CheckReport(Contract):
    """``cairn check``: each claim of a draft with its verdict and the evidence span it
    aligns with, against a saved capsule or evidence retrieved for each claim."""

    schema_version: Literal["cairn.check/1"] = CHECK_SCHEMA
    #: ``capsule``: checked against the given capsule; ``retrieved``: against evidence
    #: retrieved for each claim (one capsule per claim, ids in ``capsule_ids``).
    source: Literal["capsule", "retrieved"]
    capsule_ids: list[str]
    claims: list[ClaimResult]
    #: Evidence refs the draft cites (``[E1]``), in order of first citation.
    citations: list[str]
    #: Cited refs that name no evidence item of the capsule (always empty for ``retrieved``).
    unknown_citations: list[str] = Field(default_factory=list)
    supported: int
    #: Substantive claims that are not supported (contradicted, insufficient or uncertain).
    unsupported: int
    contradicted: int
    #: True when there is a substantive claim and every one is supported.
    all_supported: bool
