"""Answers from evidence: claim splitting and claim verification (the "Claim verdict" contract).

``split_claims`` cuts a draft into claims, ``verify_claims`` classifies each against
exact Capsule spans as supported / contradicted / insufficient / uncertain, and
``answer_allowed`` says whether the draft may be returned (every substantive claim
supported) or cairn must abstain and show the verdicts.
"""

from cairn.answer.claims import Claim, split_claims
from cairn.answer.contract import REASONS, ClaimVerdict, EvidenceSpan, Judge, SpanRef, Verdict
from cairn.answer.verify import answer_allowed, verify_claims, verify_draft

__all__ = [
    "REASONS",
    "Claim",
    "ClaimVerdict",
    "EvidenceSpan",
    "Judge",
    "SpanRef",
    "Verdict",
    "answer_allowed",
    "split_claims",
    "verify_claims",
    "verify_draft",
]
