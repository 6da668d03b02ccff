"""The words of a name keep their order (issue 12, session 7).

The account matches words wherever they stand in an evidence unit, so a name whose words
were reordered ("Sayed Al-Fatima" for "Fatima Al-Sayed", "Ltd Valley Rail" for "Valley
Rail Ltd", "City New York") was accounted for. Here a run of two or more capitalised
words of the claim (a name; the claim's first word aside, capitalised as a sentence
start) must stand in the evidence as the same run, word after word; a run whose words
are not all in the evidence is left to the rest of the account. Likewise a label and its
value ("lead: Oskar Lindqvist", "Maintainer: Platform team"): a claim that writes
"label: X" where the evidence writes the same label with another value after its colon
is not accounted ("Maintainer: Oskar Lindqvist team (lead: Platform)").
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import AccountToken, _same

__all__ = ["label_values", "name_order", "range_ends"]


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


def label_values(claim: Sequence[AccountToken], ev: Sequence[AccountToken]) -> str | None:
    """A description of the first "label: value" of ``claim`` whose label stands in
    ``ev`` before a colon but never with that value right after it, else ``None``."""
    for i in range(len(claim) - 2):
        label, colon, value = claim[i], claim[i + 1], claim[i + 2]
        if label.kind != "w" or colon.kind != "p" or colon.key != ":" or value.kind == "p":
            continue
        labelled = [
            k
            for k in range(len(ev) - 2)
            if _same(label, ev[k]) and ev[k + 1].kind == "p" and ev[k + 1].key == ":"
        ]
        if labelled and not any(any(_same(value, e) for e in _segment(ev, k + 2)) for k in labelled):
            return f"the evidence gives another value after {label.text!r}:"
    return None


def _segment(ev: Sequence[AccountToken], k: int) -> list[AccountToken]:
    """The value after a label's colon: up to the end of its sentence or clause, or the
    parenthesis that holds the label ("(lead: Oskar Lindqvist)")."""
    out: list[AccountToken] = []
    depth = 0
    for e in ev[k:]:
        if e.kind == "p" and e.key in ".;":
            break
        if e.kind == "p" and e.key in "(（":
            depth += 1
        elif e.kind == "p" and e.key in ")）":
            depth -= 1
            if depth < 0:
                break
        out.append(e)
    return out


def range_ends(claim: Sequence[AccountToken], ev: Sequence[AccountToken]) -> str | None:
    """A range or route between two names ("Monday to Friday", "Paris to Lyon") keeps
    both its ends next to its "to": "Luis Ortega to Friday" is not accounted by
    "..., Luis Ortega, ... Monday to Friday"."""
    for i in range(1, len(claim) - 1):
        t, left, right = claim[i], claim[i - 1], claim[i + 1]
        if t.kind != "w" or t.key != "to" or not (_named(left) and _named(right)):
            continue
        if not all(any(_same(x, e) for e in ev) for x in (left, right)):
            continue
        if not any(
            ev[k].kind == "w" and ev[k].key == "to" and _same(left, ev[k - 1]) and _same(right, ev[k + 1])
            for k in range(1, len(ev) - 1)
        ):
            return f"the evidence does not give the range {left.text} to {right.text}"
    return None


def _named(t: AccountToken) -> bool:
    """A name or a named day or month ("Friday", "March")."""
    return _capitalised(t) or (t.kind == "n" and t.key.startswith("month:"))
