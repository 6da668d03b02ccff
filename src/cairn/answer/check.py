"""Check a draft: each claim of an agent's own text, verified against evidence.

The draft (with or without ``[E1]``-style citations) is split into claims by
:func:`cairn.answer.claims.split_claims`; each claim gets the verifier's verdict and the
exact evidence span it aligns with. Against a saved capsule, every claim is checked
against all of its evidence (citations are reported, and cited refs that name no item
are listed as unknown); without one, the caller retrieves a capsule per claim and the
claim is checked against that. No model is run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from cairn.answer.ask import cited_refs, evidence_spans
from cairn.answer.claims import Claim
from cairn.contracts.answer import CheckReport, ClaimResult
from cairn.contracts.capsule import Capsule
from cairn.text.cjk import has_cjk
from cairn.text.stem import light_stem
from cairn.text.stopwords import CLAIM_STOPWORDS

__all__ = ["check_against_capsule", "check_with_retrieval", "summarise"]


_WORD = re.compile(r"[^\W_]+")
#: Share of a claim's content words an evidence item must hold to be checked against it
#: (below the verifier's 75% alignment, as stems here are not the verifier's exact ones).
MIN_SHARED = 0.4


def _stems(text: str) -> set[str]:
    return {light_stem(w) for w in _WORD.findall(text.lower()) if w not in CLAIM_STOPWORDS}


def _verify(claims: Sequence[Claim], capsule: Capsule) -> list[ClaimResult]:
    """Verdicts for ``claims`` against ``capsule``. Each claim is put to the verifier with
    the evidence items it cites and those that hold at least :data:`MIN_SHARED` of its
    content words: the verifier supports or contradicts a claim only through a passage
    that aligns with most of its words (75%), so an item holding fewer can decide
    nothing, and leaving it out keeps a check fast. Claims with the same items share
    one call."""
    from cairn.answer import verify as verifier
    from cairn.answer.ask import claim_result

    items = list(capsule.evidence)
    item_stems = [_stems(item.text) for item in items]
    groups: dict[tuple[int, ...], list[int]] = {}
    for k, claim in enumerate(claims):
        words = _stems(claim.text)
        if not words or has_cjk(claim.text):
            chosen = tuple(range(len(items)))
        else:
            chosen = tuple(i for i, item in enumerate(items)
                           if item.ref in claim.cited
                           or len(words & item_stems[i]) >= MIN_SHARED * len(words))
            if not chosen:  # nothing can decide it: all items, for the verifier's own reason
                chosen = tuple(range(len(items)))
        groups.setdefault(chosen, []).append(k)
    by_ref = {item.ref: item for item in items}
    results: dict[int, ClaimResult] = {}
    for chosen, members in groups.items():
        subset = [items[i] for i in chosen]
        group = [claims[k] for k in members]
        verdicts = list(verifier.verify_claims(group, evidence_spans(subset)))
        if [v.claim.id for v in verdicts] != [c.id for c in group]:
            raise ValueError("verdicts do not match the claims one to one")
        for k, verdict in zip(members, verdicts, strict=True):
            results[k] = claim_result(verdict, by_ref)
    return [results[k] for k in range(len(claims))]


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
