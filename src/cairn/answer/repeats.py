"""A claim may not use one evidence token twice (issue 12, session 7).

The account (:mod:`cairn.answer.account`) places each claim token on a matching evidence
token. It used to reuse a position when the evidence had too few, so a claim that said a
value, a negation or a word more often than its evidence was accounted for: "between
18:00 and 18:00" by "between 12:00 and 18:00", "decrease ..., decrease ..." by
"decrease ..., increase ...", "it is not also not difficult" by "it is also not
difficult", "30 mg/kg and 30 mg/kg" by "20 mg/kg and 30 mg/kg". Here every number,
negation and content word of the claim needs its own evidence token. Articles,
prepositions, conjunctions, auxiliaries and CJK characters are exempt (a claim may
repeat "the", "of", "and", "is"; CJK text repeats characters within words, and its
character order is checked by :mod:`cairn.answer.cjk_order`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import _FINITE, _PREPOSITIONS, AccountToken, _is_conj

__all__ = ["distinct_picks", "overused"]


def _counted(t: AccountToken) -> bool:
    if t.kind == "n":
        return True
    if t.kind != "w" or _is_conj(t):
        return False
    return not (t.key in _PREPOSITIONS or t.key in _FINITE or t.key.startswith(("be:", "have")))


def overused(claim: Sequence[AccountToken], cands: Sequence[Sequence[int]]) -> str | None:
    """A description of the first counted claim token that occurs more often in the
    claim than its matches in the evidence (``cands[i]``: the evidence positions that
    match ``claim[i]``), else ``None``."""
    seen: dict[tuple[str, str], tuple[int, set[int], AccountToken]] = {}
    for t, pos in zip(claim, cands, strict=True):
        if not _counted(t):
            continue
        key = (t.kind, t.key)
        n, union, first = seen.get(key, (0, set(), t))
        union |= set(pos)
        seen[key] = (n + 1, union, first)
    for n, union, first in seen.values():
        if n > len(union):
            return f"{first.text!r} occurs more often in the claim than in the evidence"
    return None


def distinct_picks(options: Sequence[set[int]]) -> bool:
    """Whether one distinct member can be picked from each of ``options`` (a matching;
    the claims read here have two or three clauses)."""

    def pick(i: int, used: frozenset[int]) -> bool:
        return i == len(options) or any(pick(i + 1, used | {k}) for k in options[i] - used)

    return pick(0, frozenset())
