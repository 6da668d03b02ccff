"""Whether a conflict the detectors found is a concrete conflicting span (issue 12, session 12).

A ``contradicted`` verdict needs a span of the evidence that states the claim's content
with one thing in conflict. The detectors of :mod:`cairn.answer.align` and
:mod:`cairn.answer.conflicts` find candidates by position and by counting; on
restatements of a supported claim they fired where nothing conflicts (test11/test12):

* the agents of two coordinated passive clauses, compared by their order in the sentence
  ("approved by A and written by B" against "written by B and approved by A"): here each
  "by" is compared with the "by" of the same verb in the evidence (:func:`agent_of_verb`);
* two numbers in another order because a whole clause moved ("must give two extra cycles
  if EC rises above 4.5" against "If EC rises above 4.5, ... two extra cycles"): numbers
  are in swapped roles only when the claim with them exchanged is what the evidence says
  (:func:`numbers_exchanged`);
* the polarity of sentences that trade a negation for a restriction ("Only the workshop
  tops up oil" / "Drivers must not top up oil"; "not covered without signs" / "covered
  only if there are signs": the restrictors differ) or negate a condition rather than
  the statement ("If X is not below 0.5, ...": two rules with opposite conditions do not
  conflict): :func:`restricted_polarity`;
* two negative forms of one prohibition ("may not" / "cannot" / "must not" / "no deploy
  may") or of one negative statement ("neither A nor B" / "A ... not, and neither ... B"):
  :func:`same_negative_force`;
* a table row whose label names something narrower than the claim's subject ("Student
  non-member" for "non-member"): :func:`narrower_row`;
* another document's statement about "this agreement" or 本规定, when the claim refers
  to its own document so and one of that document's spans supports it: :func:`deictic`.

Each function is pure; none of them ever makes a claim ``supported``: a candidate that
is not concrete leaves the claim ``insufficient``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from cairn.answer.account import account
from cairn.answer.tokens import _ARTICLES, _FINITE, AccountToken, _same, account_tokens

__all__ = [
    "agent_of_verb",
    "clause_flip",
    "deictic",
    "narrower_row",
    "numbers_exchanged",
    "restricted_polarity",
    "same_negative_force",
]


# --------------------------------------------------------------------------- passive agents


def _word_before(toks: Sequence[AccountToken], i: int) -> AccountToken | None:
    k = i - 1
    while k >= 0 and toks[k].kind == "w" and toks[k].key in _ARTICLES:
        k -= 1
    return toks[k] if k >= 0 and toks[k].kind == "w" else None


def _names_after(toks: Sequence[AccountToken], i: int) -> list[AccountToken]:
    """The names and numbers of the phrase after ``toks[i]``: up to a clause stop, a
    finite verb, or a conjunction that opens a new clause or verb phrase ("..., and
    approved by", "..., and the schedule was")."""
    out: list[AccountToken] = []
    for k in range(i + 1, len(toks)):
        t = toks[k]
        if t.kind == "p" and t.key != ",":
            break
        if t.kind == "w" and (t.key in _FINITE or t.key.startswith("be:")):
            break
        if t.kind == "w" and t.key in ("and", "or"):
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            if toks[k - 1].key == "," or nxt is None or (nxt.kind == "w" and nxt.text[:1].islower()):
                break
        if t.kind == "n" or (t.kind == "w" and t.text[:1].isupper()):
            out.append(t)
    return out


def agent_of_verb(
    claim: Sequence[AccountToken], i: int, ev: Sequence[AccountToken]
) -> bool | None:
    """For the "by" at ``claim[i]`` after a word ("approved by A", "signed for the
    company by A"): True when the evidence has a "by" after the same word whose phrase
    names every name of the claim's agent, False when it has such a "by" only with
    another agent (no name of the claim's), None when it has none or only one sharing
    some of the claim's names ("by A, B's deputy, or by B" against "by B or his deputy,
    A": nothing concrete to compare per verb)."""
    if claim[i].key != "by":
        return None
    head = _word_before(claim, i)
    agent = _names_after(claim, i)
    if head is None or not agent:
        return None
    found: bool | None = None
    for k, e in enumerate(ev):
        if e.kind != "w" or e.key != "by":
            continue
        before = _word_before(ev, k)
        if before is None or not _same(head, before):
            continue
        theirs = _names_after(ev, k)
        shared = [c for c in agent if any(_same(c, x) for x in theirs)]
        if len(shared) == len(agent):
            return True
        if not shared:
            found = False
    return found


# --------------------------------------------------------------------------- numbers


def numbers_exchanged(core: str, unit_text: str, *, table: bool, heading: str) -> bool:
    """Whether the claim with two of its numbers exchanged is accounted by the unit: the
    evidence states the same with the numbers in each other's roles ("from 10 to 5" for
    "from 5 to 10"). A clause moved with its numbers is no such exchange."""
    numbers = [t for t in account_tokens(core) if t.kind == "n"]
    for a, b in itertools.combinations(numbers, 2):
        if a.key == b.key or not a.text or not b.text:
            continue
        pa, pb = core.find(a.text), core.find(b.text)
        if pa < 0 or pb < 0 or core.count(a.text) != 1 or core.count(b.text) != 1:
            continue
        if pa > pb:
            (pa, a), (pb, b) = (pb, b), (pa, a)
        if pa + len(a.text) > pb:
            continue  # overlapping surfaces ("4" inside "4.5")
        swapped = core[:pa] + b.text + core[pa + len(a.text) : pb] + a.text + core[pb + len(b.text) :]
        if account(swapped, unit_text, table=table, heading=heading) is None:
            return True
    return False


# --------------------------------------------------------------------------- polarity

_RESTRICTORS = frozenset(["only", "unless", "except", "without", "solely"])
_CONDITIONS = frozenset(["if", "unless", "provided"])
_NEGATIVE = frozenset(["not", "no", "never", "cannot", "neither", "nor", "none", "nothing"])


def _words(text: str) -> list[AccountToken]:
    return [t for t in account_tokens(text) if t.kind in ("w", "p")]


def _negation_in_condition(toks: Sequence[AccountToken]) -> bool:
    """A negation inside a conditional clause ("If X is not below 0.5, ..."): it negates
    the condition, not the statement."""
    inside = False
    for t in toks:
        if t.kind == "p":
            inside = False
        elif t.key in _CONDITIONS:
            inside = True
        elif inside and t.key in _NEGATIVE:
            return True
    return False


def restricted_polarity(claim_text: str, evidence_text: str) -> bool:
    """True when a polarity difference between the claim and this evidence is no
    concrete conflict: the two restrict differently ("only", "unless", "except",
    "without" on one side and not the other: a restriction and a
    negation trade places in a restatement), or a negation stands inside a condition."""
    claim = _words(claim_text)
    ev = _words(evidence_text)
    if {t.key for t in claim} & _RESTRICTORS != {t.key for t in ev} & _RESTRICTORS:
        return True
    return _negation_in_condition(claim) or _negation_in_condition(ev)


_CLAUSE_SPLIT_RE = re.compile(r"[;]|(?<=[.!?])\s+")


def clause_flip(core: str, unit_text: str) -> bool:
    """Whether one clause of the claim and one clause of the unit (split at semicolons
    and sentence ends) state the same but for a negation: every other claim token of
    that clause is in that evidence clause, one of the two has a negation the other
    lacks, and they do not differ as :func:`restricted_polarity` says. "Only the workshop
    tops up oil" has no such clause in "Drivers must not top up oil; oil is topped up by
    the workshop only": the negated clause is about drivers."""
    ev_clauses = [c for c in _CLAUSE_SPLIT_RE.split(unit_text) if c.strip()]
    for cc in (c for c in _CLAUSE_SPLIT_RE.split(core) if c.strip()):
        claim_neg = sorted(t.key for t in account_tokens(cc) if t.key in _FLIPS)
        for ec in ev_clauses:
            if claim_neg == sorted(t.key for t in account_tokens(ec) if t.key in _FLIPS):
                continue  # as many negations on both sides: "inspected but not cleaned"
            residue = [
                t
                for t in account_tokens(cc)
                if t.kind != "p"
                and t.key not in _ARTICLES
                and not t.key.startswith("be:")
                and t.key not in _FLIPS
                and not any(_same(t, e) for e in account_tokens(ec))
            ]
            if not residue and not restricted_polarity(cc, ec):
                return True
    return False


_FLIPS = _NEGATIVE | {"without"}
_PROHIBITING = frozenset(["may", "can", "must", "shall", "might", "could"])


def _force(words: Sequence[str]) -> str:
    """"prohibited" for a negated permission or obligation ("may not", "cannot", "must
    not", "no ... may"), "negative" for another negation, "positive" for none."""
    keys = set(words)
    negated = bool(keys & _NEGATIVE)
    if "cannot" in keys or (negated and keys & _PROHIBITING):
        return "prohibited"
    return "negative" if negated else "positive"


def same_negative_force(claim_words: Sequence[str], evidence_words: Sequence[str]) -> bool:
    """Whether the claim's modals and negations and those the evidence has in their
    place say the same negative thing: one prohibition ("may not" = "cannot" = "must
    not" = "no X may"; "should not" is advice, not one of them), or a plain negation
    both ("neither A nor B" = "not A, and neither B")."""
    claim, ev = _force(claim_words), _force(evidence_words)
    return claim == ev != "positive"


# --------------------------------------------------------------------------- table rows

_ROW_LABEL_RE = re.compile(r"^[^:;]*:\s*([^;]+)")


def _label(unit_text: str) -> list[AccountToken]:
    m = _ROW_LABEL_RE.match(unit_text)
    if m is None:
        return []
    return [t for t in account_tokens(m.group(1)) if t.kind in ("w", "n") and t.key not in _ARTICLES]


def narrower_row(core: str, unit_text: str, support_text: str) -> bool:
    """A table row (read "header : value ; ...") whose label, its first cell, has a word
    the claim lacks, while the row that supports the claim is labelled with the claim's
    words only: the row is about something narrower or other ("Student non-member" is not
    the "non-member" fee). When both labels add words ("fee (first 24 months)", "fee
    (after 24 months)"), the claim is no more about one than the other: no such row."""
    claim = account_tokens(core)

    def named(t: AccountToken) -> bool:
        return any(_same(t, c) for c in claim)

    label, support = _label(unit_text), _label(support_text)
    return bool(label) and bool(support) and all(map(named, support)) and not all(map(named, label))


# --------------------------------------------------------------------------- documents

_DEICTIC_RE = re.compile(
    r"\b(?:this|these)\s+(?:[a-z-]+\s+){0,2}?(?:agreement|policy|contract|notice|document|"
    r"schedule|sheet|plan|guide|chart|leaflet|protocol|regulations?|rules?|terms|version|"
    r"edition|procedure|manual|log|minutes|letter|form|tariff|timetable)\b"
    r"|^\s*(?:本|该|該|此|この|当)|^\s*이\s",
    re.IGNORECASE,
)


def deictic(core: str) -> bool:
    """Whether the claim refers to its own document ("This agreement is dated ...",
    本规定自…起施行, 이 안내문은 …): another document's "this agreement" is another one, so
    only a span of the supporting document can conflict with it."""
    return _DEICTIC_RE.search(core) is not None
