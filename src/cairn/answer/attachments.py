"""What a bracket, an apposition or a one-letter label is attached to (issue 12, session 19b).

The strict account (:mod:`cairn.answer.account`) matches the claim's words in an evidence
unit and checks that relations, names and coordinated parts keep their partners. Three
attachments it did not read, found by the mutation harness as role swaps it supported:

* **A bracket's side.** "Policy owner: Rafael Souza (Finance, head of finance)" is not
  "Policy owner: Finance (Rafael Souza, head of finance)", and "[Upload] Interactive or
  update" is not "[Interactive] Upload or update": a word the evidence puts inside a
  bracket stands outside the claim's bracket of the same kind while a word of the claim's
  bracket stands outside the evidence's. Items reordered inside one bracket, or a bracket
  dropped, move nothing across it.
* **An apposition's name.** "Lena Varga or his deputy, Sam Okafor" is not "Sam Okafor or
  his deputy, Lena Varga": a role named with a determiner and followed by a comma and a
  name ("his deputy, Lena Varga", "the chair, Ana Ruiz") is that name's role; the claim's
  must be the evidence's.
* **A one-letter label "A".** "group A and group V vehicles" read its "A" as the article
  and was accounted by "group E and group V vehicles". A capital "A" right after a word
  the evidence labels with capital letters ("group E", "group V") is that label, and the
  evidence must say it.

Each rule can only refuse a unit; it says why.
"""

from __future__ import annotations

import re

from cairn.answer.tokens import AccountToken, _same, account_tokens
from cairn.text.stopwords import QUERY_STOPWORDS

__all__ = ["attachment_problem"]

_BRACKETS = (("(", re.compile(r"\(([^()]*)\)")), ("[", re.compile(r"\[([^\[\]]*)\]")))


def _content(text: str) -> list[AccountToken]:
    return [
        t
        for t in account_tokens(text)
        if t.kind in ("w", "n", "c") and t.key not in QUERY_STOPWORDS and len(t.text) > 1
    ]


def _has(tokens: list[AccountToken], t: AccountToken) -> bool:
    return any(_same(t, e) for e in tokens)


def _count(tokens: list[AccountToken], t: AccountToken) -> int:
    return sum(_same(t, e) for e in tokens)


def bracket_sides(claim: str, evidence: str) -> str | None:
    """A reason when the claim and the evidence put words on the two sides of a bracket
    of one kind the other way round; else ``None``."""
    for mark, pattern in _BRACKETS:
        claim_groups, ev_groups = pattern.findall(claim), pattern.findall(evidence)
        if not claim_groups or not ev_groups:
            continue
        claim_in = [t for g in claim_groups for t in _content(g)]
        claim_out = _content(pattern.sub(" ", claim))
        ev_in = [t for g in ev_groups for t in _content(g)]
        ev_out = _content(pattern.sub(" ", evidence))
        # By count: "Finance (... head of finance)" has "finance" on both sides.
        moved_in = [
            t for t in claim_in if _has(ev_out, t) and _count(claim_in, t) > _count(ev_in, t)
        ]
        moved_out = [
            t for t in ev_in if _has(claim_out, t) and _count(ev_in, t) > _count(claim_in, t)
        ]
        if moved_in and moved_out:
            return (
                f"the claim puts {moved_in[0].text!r} inside the {mark} and "
                f"{moved_out[0].text!r} outside it; the evidence has them the other way"
            )
    return None


#: "his deputy, Lena Varga", "the chair, Ana Ruiz": a determiner, a lower-case role noun, a
#: comma and a capitalised name.
_APPOSITION_RE = re.compile(
    r"\b(?:his|her|its|their|our|the)\s+([a-z][a-z-]+)\s*,\s+([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
)


def apposition_names(claim: str, evidence: str) -> str | None:
    """A reason when the claim names a role in apposition to a name the evidence does
    not put there; else ``None``."""
    given: dict[str, set[str]] = {}
    for m in _APPOSITION_RE.finditer(evidence):
        given.setdefault(m.group(1).lower(), set()).add(m.group(2).lower())
    for m in _APPOSITION_RE.finditer(claim):
        names = given.get(m.group(1).lower())
        if names and m.group(2).lower() not in names:
            return f"the evidence names another {m.group(1)!r} than {m.group(2)!r}"
    return None


_CLAIM_A_RE = re.compile(r"\b([A-Za-z][a-z]+)\s+A\b(?![-'’.]?\w)")


def letter_label(claim: str, evidence: str) -> str | None:
    """A reason when the claim's "<word> A" is a one-letter label (the evidence labels
    ``word`` with other capital letters) that the evidence does not give; else ``None``."""
    for m in _CLAIM_A_RE.finditer(claim):
        word = re.escape(m.group(1).lower())
        labels = re.findall(rf"\b(?i:{word})s?\s+([A-Z])\b(?![-'’.]?\w)", evidence)
        if labels and "A" not in labels:
            return f"{m.group(1)} A is a label the evidence does not give"
    return None


def attachment_problem(claim: str, evidence: str) -> str | None:
    """The first of :func:`bracket_sides`, :func:`apposition_names` and
    :func:`letter_label` that refuses the claim against the evidence unit, else ``None``."""
    return (
        bracket_sides(claim, evidence)
        or apposition_names(claim, evidence)
        or letter_label(claim, evidence)
    )
