"""The words of a name keep their order (issue 12, session 7).

The account matches words wherever they stand in an evidence unit, so a name whose words
were reordered ("Sayed Al-Fatima" for "Fatima Al-Sayed", "Ltd Valley Rail" for "Valley
Rail Ltd", "City New York") was accounted for. Here a run of two or more capitalised
words of the claim (a name; the claim's first word aside, capitalised as a sentence
start) must stand in the evidence as the same run, word after word; a run whose words
are not all in the evidence is left to the rest of the account.
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import AccountToken, _same

__all__ = ["name_order"]


def _capitalised(t: AccountToken) -> bool:
    return t.kind == "w" and t.text[:1].isupper()


def _runs(tokens: Sequence[AccountToken]) -> list[list[AccountToken]]:
    runs: list[list[AccountToken]] = []
    cur: list[AccountToken] = []
    for i, t in enumerate(tokens):
        if i > 0 and _capitalised(t):
            cur.append(t)
            continue
        if len(cur) >= 2:
            runs.append(cur)
        cur = []
    if len(cur) >= 2:
        runs.append(cur)
    return runs


def name_order(claim: Sequence[AccountToken], ev: Sequence[AccountToken]) -> str | None:
    """A description of the first name of ``claim`` (articles dropped, punctuation kept)
    whose words are all in ``ev`` but not as one run in this order, else ``None``."""
    words = [e for e in ev if e.kind != "p"]
    for run in _runs(claim):
        if not all(any(_same(t, e) for e in words) for t in run):
            continue
        n = len(run)
        if not any(
            all(_same(run[j], words[k + j]) for j in range(n)) for k in range(len(words) - n + 1)
        ):
            return f"the name {' '.join(t.text for t in run)!r} is written otherwise in the evidence"
    return None
