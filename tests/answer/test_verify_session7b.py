"""Regression tests for session 7b (issue 12): the causes of split test7's misses and
its one false support, each in general form (not the test7 sentences) next to the
neighbour that must keep its verdict."""

from __future__ import annotations

import pytest

from cairn.answer import EvidenceSpan, split_claims, verify_claims


def _verdict(claim: str, evidence: str) -> str:
    span = EvidenceSpan(
        evidence_id="E1", text=evidence, uri="n.md", start_line=1, end_line=evidence.count("\n") + 1
    )
    (v,) = verify_claims(split_claims(claim), [span])
    return v.verdict


# --- false support: a coordinated list of the claim gathered across a semicolon (its
# last item belongs to another clause, with another verb).


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        (
            "The grant covers travel, meals and lodging.",
            "The grant covers travel and meals; lodging and visas are paid by the host.",
        ),
        (
            "The pool is open to members or guests.",
            "The pool is open to members; guests or visitors must book the sauna.",
        ),
    ],
)
def test_a_list_is_not_gathered_across_a_semicolon(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) != "supported"


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # The items within one clause may still be listed or reordered.
        (
            "The grant covers meals and travel.",
            "The grant covers travel and meals; lodging and visas are paid by the host.",
        ),
        # Neighbours from two clauses that are no list stay allowed.
        ("The DNS TTL is 60 seconds.", "Switch DNS; the TTL is 60 seconds."),
    ],
)
def test_a_list_within_one_clause_is_still_supported(claim: str, evidence: str) -> None:
    assert _verdict(claim, evidence) == "supported"
