"""A coordinated list of a claim is not gathered across the clauses of a sentence
(issue 12).

"This schedule applies to dogs and cats; rabbits and ferrets are covered by a separate
schedule" holds "applies to dogs", "cats" and "rabbits", but "rabbits" is an item of
another clause, with its own verb: "This schedule applies to dogs, cats and rabbits" is
not accounted by it. Two items the claim coordinates (joined by "and", "or" or a
comma) whose words the evidence gives on the two sides of a semicolon join two clauses
into one list. Words that are merely neighbours ("The DNS TTL is 1 minute" from "Switch
DNS; the TTL is 60 seconds") are not a list and stay allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from cairn.answer.tokens import AccountToken, _is_conj

__all__ = ["straddles_semicolon"]

_SEMICOLONS = frozenset(";；")
_PRONOUNS = frozenset(["they", "it", "he", "she", "this", "these", "them"])


def _joined_across(ev: Sequence[AccountToken], picks: Sequence[int]) -> str | None:
    """A reason when two claim neighbours (at evidence positions ``picks``) join two
    clauses of the evidence: across "; <pronoun>" the claim makes whatever precedes the
    semicolon the pronoun's referent ("Docking stations must not be left outside" from
    "Bikes go to a docking station; they must not be left outside"; a pronoun that stands
    for the first clause's subject is read by ``clause_order`` instead); with only
    "and"/"or" between them and a clause of its own after it, the end of one conjunct is
    joined to the start of the next ("hired 40 engineers in 2024" from "hired 40
    engineers and in 2024 it closed the site"). Session 8."""
    for a, b in pairwise(picks):
        lo, hi = sorted((a, b))
        between = ev[lo + 1 : hi]
        if any(e.kind == "p" and e.key in _SEMICOLONS for e in between) and any(
            e.kind == "w" and e.key in _PRONOUNS for e in between
        ):
            return "a pronoun of the evidence stands between its words"
        if hi - lo == 2 and ev[lo + 1].kind == "w" and _is_conj(ev[lo + 1]) and _new_clause(ev, hi):
            return f"its words are joined across {ev[lo + 1].text!r} in the evidence"
    return None


def _new_clause(ev: Sequence[AccountToken], at: int) -> bool:
    """The conjunct starting at ``at`` is a clause of its own: a subject pronoun follows
    within a few words ("and in 2024 it closed"), not a list item ("and to the police")."""
    for e in ev[at : at + 6]:
        if e.kind == "p":
            return False
        if e.kind == "w" and e.key in ("it", "they", "he", "she"):
            return True
    return False


def straddles_semicolon(
    claim: Sequence[AccountToken],
    claim_all: Sequence[AccountToken],
    ev: Sequence[AccountToken],
    picks: Sequence[int],
) -> str | None:
    """A reason when two coordinated neighbours of ``claim`` (its non-punctuation tokens,
    placed at the evidence positions ``picks``) lie on the two sides of a semicolon of
    ``ev``; ``claim_all`` is the claim with its punctuation. None otherwise, and for a
    claim that has a semicolon of its own."""
    if not picks:
        return None
    joined = _joined_across(ev, picks)
    if joined:
        return joined
    if not any(e.kind == "p" and e.key in _SEMICOLONS for e in ev):
        return None
    if any(t.kind == "p" and t.key in _SEMICOLONS for t in claim_all):
        return None
    index = {id(t): i for i, t in enumerate(claim)}
    pairs: list[tuple[int, int]] = []
    last: int | None = None
    comma = False
    for t in claim_all:
        i = index.get(id(t))
        if i is None:
            # Session 9: a CJK claim's "，" ends a clause (its list comma is "、"), so
            # "A，B" from "A；B" joins two clauses, not two items of one list.
            comma = comma or (t.kind == "p" and t.key in ",、")
            continue
        if _is_conj(t):
            if last is not None and i + 1 < len(claim):
                pairs.append((last, i + 1))
        elif comma and last is not None:
            pairs.append((last, i))
        last, comma = i, False
    for a, b in pairs:
        lo, hi = sorted((picks[a], picks[b]))
        for k in range(lo + 1, hi):
            if ev[k].kind == "p" and ev[k].key in _SEMICOLONS:
                return f"its coordinated items are in two clauses of the evidence ({ev[k].text!r})"
    return None
