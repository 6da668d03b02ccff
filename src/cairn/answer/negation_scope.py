"""What a claim's negation covers must be covered by the evidence's (issue 12, session 10).

"Bikes are allowed on the roof, but not in the lift and in the lobby" holds every word of
"Bikes are allowed on the roof and in the lobby, but not in the lift", yet it moves "in
the lobby" under the "not". After a negation, a conjunct the claim coordinates ("... and
Y") stays in the negation's scope; its words must be placed after the evidence's negation,
never before it. :func:`scope_crossed` is the one check :mod:`cairn.answer.account` runs on
the placed claim for the clause structure: this one, then the semicolon rule
(:mod:`cairn.answer.semicolons`), then the ends of "between"
(:mod:`cairn.answer.between_order`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.between_order import between_reversed
from cairn.answer.semicolons import straddles_semicolon
from cairn.answer.tokens import _ARTICLES, _NEGATIONS, _PREPOSITIONS, AccountToken, _is_conj

__all__ = ["scope_crossed"]

_CLAUSE_ENDS = frozenset(".,;:!?；。，")  # a comma may open another clause: "Neither is B, and A ..."


def _content(t: AccountToken) -> bool:
    return t.kind == "n" or (t.kind == "w" and t.key not in _ARTICLES and t.key not in _PREPOSITIONS)


def negation_widened(
    claim: Sequence[AccountToken],
    claim_all: Sequence[AccountToken],
    picks: Sequence[int],
) -> str | None:
    """A reason when a conjunct after a negation of ``claim`` (placed at the evidence
    positions ``picks``) has words placed before the evidence's negation."""
    index = {id(t): i for i, t in enumerate(claim)}
    negation: int | None = None
    conjunct = False
    for t in claim_all:
        if t.kind == "p" and t.key in _CLAUSE_ENDS:
            negation, conjunct = None, False
            continue
        i = index.get(id(t))
        if i is None:
            continue
        if t.kind == "w" and t.key in _NEGATIONS and negation is None:
            negation = i
        elif negation is not None and _is_conj(t) and t.kind == "w":
            conjunct = True
        elif conjunct and negation is not None and _content(t) and picks[i] < picks[negation]:
            return f"its {claim[negation].text!r} covers {t.text!r}, which the evidence's does not"
    return None


def scope_crossed(
    claim: Sequence[AccountToken],
    claim_all: Sequence[AccountToken],
    ev: Sequence[AccountToken],
    picks: Sequence[int],
) -> str | None:
    """A reason when the placed claim joins what the evidence's clauses keep apart: a
    negation widened over a conjunct (:func:`negation_widened`) or coordinated items across
    a semicolon (:func:`cairn.answer.semicolons.straddles_semicolon`); None otherwise."""
    if not picks:
        return None
    return (
        negation_widened(claim, claim_all, picks)
        or straddles_semicolon(claim, claim_all, ev, picks)
        or between_reversed(claim, claim_all, picks)
    )
