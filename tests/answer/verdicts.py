"""The verdict of one claim against one evidence text, as the verifier regression tests
(test_verify_session6b … 7b) ask for it."""

from __future__ import annotations

from cairn.answer import EvidenceSpan, split_claims, verify_claims


def verdict(claim: str, evidence: str) -> str:
    """The verifier's verdict on ``claim`` (split as drafts are) against ``evidence`` as span E1."""
    span = EvidenceSpan(
        evidence_id="E1", text=evidence, uri="n.md", start_line=1, end_line=evidence.count("\n") + 1
    )
    (v,) = verify_claims(split_claims(claim), [span])
    return v.verdict
