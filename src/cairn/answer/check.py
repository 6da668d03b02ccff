"""Check a draft: each claim of an agent's own text, verified against evidence.

The draft (with or without ``[E1]``-style citations) is split into claims by
:func:`cairn.answer.claims.split_claims`; each claim gets the verifier's verdict and the
exact evidence span it aligns with. Against a saved capsule, every claim is checked
against all of its evidence (citations are reported, and cited refs that name no item
are listed as unknown); without one, the caller retrieves a capsule per claim and the
claim is checked against that. No model is run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cairn.answer.ask import cited_refs, evidence_spans
from cairn.contracts.answer import CheckReport, ClaimResult
from cairn.contracts.capsule import Capsule

__all__ = ["check_against_capsule", "check_with_retrieval", "summarise"]


def _verify(claims: Sequence[object], capsule: Capsule) -> list[ClaimResult]:
    from cairn.answer import verify as verifier
    from cairn.answer.ask import claim_result

    verdicts = list(verifier.verify_claims(claims, evidence_spans(capsule.evidence)))  # type: ignore[arg-type]
    by_ref = {item.ref: item for item in capsule.evidence}
    return [claim_result(v, by_ref) for v in verdicts]


def summarise(draft: str, claims: Sequence[ClaimResult], *, source: str, capsule_ids: Sequence[str],
              known_refs: set[str] | None) -> CheckReport:
    """The report of checked ``claims`` (``known_refs`` None: citations are not checked)."""
    refs = cited_refs(draft)
    substantive = [c for c in claims if c.substantive]
    supported = sum(1 for c in substantive if c.verdict == "supported")
    return CheckReport(
        source="capsule" if source == "capsule" else "retrieved",
        capsule_ids=list(capsule_ids),
        claims=list(claims),
        citations=refs,
        unknown_citations=[r for r in refs if known_refs is not None and r not in known_refs],
        supported=supported,
        unsupported=len(substantive) - supported,
        contradicted=sum(1 for c in substantive if c.verdict == "contradicted"),
        all_supported=bool(substantive) and supported == len(substantive),
    )


def check_against_capsule(draft: str, capsule: Capsule) -> CheckReport:
    """Every claim of ``draft`` verified against all evidence of ``capsule``."""
    from cairn.answer.claims import split_claims

    claims = split_claims(draft)
    results = _verify(claims, capsule) if claims else []
    return summarise(draft, results, source="capsule", capsule_ids=[capsule.capsule_id],
                     known_refs={item.ref for item in capsule.evidence})


def check_with_retrieval(draft: str, retrieve: Callable[[str], Capsule]) -> CheckReport:
    """Each substantive claim of ``draft`` verified against a capsule retrieved for it
    (``retrieve(claim text)``); claims that need no support are not looked up."""
    from cairn.answer.claims import split_claims

    results: list[ClaimResult] = []
    capsule_ids: list[str] = []
    for claim in split_claims(draft):
        if not claim.substantive:
            results.append(ClaimResult(id=claim.id, text=claim.text, cited=list(claim.cited),
                                       substantive=False, verdict="uncertain", reason="not_substantive",
                                       detail="needs no support"))
            continue
        capsule = retrieve(claim.text)
        if capsule.capsule_id not in capsule_ids:
            capsule_ids.append(capsule.capsule_id)
        if not capsule.evidence:
            results.append(ClaimResult(id=claim.id, text=claim.text, cited=list(claim.cited),
                                       substantive=True, verdict="insufficient", reason="no_evidence",
                                       detail="no evidence found for this claim"))
            continue
        results.extend(_verify([claim], capsule))
    return summarise(draft, results, source="retrieved", capsule_ids=capsule_ids, known_refs=None)
