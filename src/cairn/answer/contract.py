"""The claim-verdict contract: the Verdict literal, every reason code, EvidenceSpan, SpanRef, ClaimVerdict and the Judge protocol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from cairn.answer.claims import Claim

Verdict = Literal["supported", "contradicted", "insufficient", "uncertain"]

#: Every reason code a :class:`ClaimVerdict` can carry, with its meaning.
REASONS: dict[str, str] = {
    "aligned": "one evidence sentence carries every word, number, date, name and the polarity of the claim",
    "number_mismatch": "the evidence states a different number for the same thing",
    "number_order": "the claim's numbers are in the evidence but in swapped roles",
    "date_mismatch": "the evidence states a different date or year for the same thing",
    "negation_flip": "the evidence states the same thing with the opposite polarity",
    "antonym": "the evidence states the opposite direction (e.g. increases vs decreases)",
    "entity_mismatch": "the evidence names someone or something else in the same place",
    "conflicting_evidence": "one span supports the claim and another contradicts it",
    "entity_missing": "a name in the claim is not in any matching evidence sentence",
    "number_missing": "a number in the claim is not in any matching evidence sentence",
    "date_missing": "a date in the claim is not in any matching evidence sentence",
    "code_missing": "a code span in the claim is not verbatim in the evidence",
    "content_missing": "part of the claim is not in any single evidence sentence",
    "no_overlap": "no evidence sentence shares content with the claim",
    "no_content": "the claim has nothing checkable",
    "no_evidence": "the capsule holds no evidence",
    "wrong_citation": "the cited span does not carry the claim (another span does)",
    "unknown_citation": "the claim cites an evidence id that is not in the capsule",
    "instruction_span": "only an instruction-like evidence sentence matches; it is never support",
    "not_substantive": "meta text or a question; needs no support",
    "modality_mismatch": "the evidence states the same thing with another modal (may/must/should/must not)",
    "quantifier_mismatch": "the evidence states the same thing with another quantifier (up to/at least/more than)",
    "frequency_mismatch": "the evidence states the same thing with another frequency (每天/每周/每月)",
    "role_swap": "the evidence has the same words with the roles swapped (X replaced Y, from A to B)",
    "unaccounted": "an evidence sentence matches, but a word, modal, negation, quantifier, unit or role of the claim is not accounted for there",
    "judge_failed": "the model judge raised an error",
    "judge_timeout": "the model judge did not answer in time",
    "judge_malformed": "the model judge answered something other than a verdict",
    "judge_disagrees": "the model judge did not confirm the deterministic support",
}


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """One Capsule evidence item: the exact text of lines ``start_line..end_line``."""

    evidence_id: str
    text: str
    uri: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class SpanRef:
    """The exact lines of an evidence span that support or contradict a claim."""

    evidence_id: str
    start_line: int
    end_line: int
    quote: str


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on one claim, a stable reason code (see :data:`REASONS`) and spans."""

    claim: Claim
    verdict: Verdict
    reason: str
    spans: tuple[SpanRef, ...]
    detail: str = ""


class Judge(Protocol):
    """An optional model judge. ``judge`` answers ``supported``, ``contradicted`` or
    ``insufficient``; anything else is malformed. It may raise or hang."""

    def judge(self, claim: str, spans: Sequence[str]) -> str: ...
