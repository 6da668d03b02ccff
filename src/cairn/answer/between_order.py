"""The two ends of "between X and Y" keep their order (issue 12, session 9).

"Lights must be switched on between sunrise and sunset" holds every word of "Lights must
be switched on between sunset and sunrise", and coordinated items may otherwise come in
either order; but "between" makes its two items the ends of an interval, and for times of
day the order is the interval ("between 17:00 and 9:00" is the night). A claim's ends
placed in the evidence the other way round are not accounted for, whatever they name
("between York and Leeds" is then insufficient too: a safe miss).
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import _ARTICLES, AccountToken, _is_conj

__all__ = ["between_reversed"]


def _first_content(tokens: Sequence[AccountToken], start: int) -> int | None:
    """The first number or non-article word from ``start`` up to a conjunction or a
    punctuation mark, or None."""
    for j in range(start, len(tokens)):
        t = tokens[j]
        if t.kind == "p" or _is_conj(t):
            return None
        if t.kind == "n" or (t.kind == "w" and t.key not in _ARTICLES):
            return j
    return None


def between_reversed(
    claim: Sequence[AccountToken],
    claim_all: Sequence[AccountToken],
    picks: Sequence[int],
) -> str | None:
    """A reason when a "between X and Y" of the claim has X placed after Y in the evidence
    (``picks``: the evidence position of each token of ``claim``)."""
    index = {id(t): i for i, t in enumerate(claim)}
    for at, t in enumerate(claim_all):
        if t.kind != "w" or t.key != "between":
            continue
        first = _first_content(claim_all, at + 1)
        if first is None:
            continue
        conj = next((j for j in range(first + 1, len(claim_all)) if _is_conj(claim_all[j])
                     or claim_all[j].kind == "p"), None)
        if conj is None or not (claim_all[conj].kind == "w" and claim_all[conj].key == "and"):
            continue
        second = _first_content(claim_all, conj + 1)
        if second is None:
            continue
        a, b = index.get(id(claim_all[first])), index.get(id(claim_all[second]))
        if a is not None and b is not None and picks[a] > picks[b]:
            return f"the evidence gives the ends of 'between' the other way round ({claim_all[second].text!r} first)"
    return None
