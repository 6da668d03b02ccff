"""Role binding across coordinated parts of an evidence sentence (issue 12, session 6).

A claim phrase must not take its words from two coordinated parts of the evidence:
"Small orders ship by air" is not accounted by "Large orders ship by air and small orders
ship by sea", though every word is there and each pair of neighbours is found somewhere.
:mod:`cairn.answer.account` places the claim's tokens in the evidence; :func:`crossed_parts`
then looks for two claim neighbours placed in the other order across a conjunction or a
comma of the evidence.
"""

from __future__ import annotations

from cairn.answer.tokens import (
    _ARTICLES,
    _CLAUSE_STOPS,
    _FINITE,
    _PREPOSITIONS,
    AccountToken,
    _is_conj,
    _same,
)
from cairn.text.stopwords import QUERY_STOPWORDS

__all__ = ["crossed_parts", "passive_of_active", "verb_roles"]

_SEPARATORS = frozenset(["and", "or", "but", "while", "whereas", ",", ";"])


def crossed_parts(
    claim: list[AccountToken],
    claim_all: list[AccountToken],
    ev: tuple[AccountToken, ...],
    picks: list[int],
) -> str | None:
    """Two neighbours of one claim phrase (no "and", "or" or comma between them in the
    claim) placed in the evidence in the other order across a conjunction or a comma
    take their words from two coordinated parts: "Small orders ship by air" is not
    accounted by "Large orders ship by air and small orders ship by sea", nor "Full-time
    staff get 25 days and part-time staff get 15 days" by the reverse pairing. Coordinated
    items the claim itself reorders ("at 15:00 and at 07:00") are separated by their
    conjunction and keep their freedom; the "and" of "between 22:00 and 05:00" is no
    coordination. Tokens of the same word may trade places ("order.created" takes the
    "order" next to "created")."""
    where = {id(t): k for k, t in enumerate(claim_all)}
    seps = _separators(ev)
    picks = list(picks)
    for _ in range(2 * len(claim)):
        bad = _first_crossing(claim, claim_all, where, seps, picks)
        if bad is None:
            return None
        i = bad
        swapped = False
        for j in range(len(claim)):
            if j in (i, i + 1) or not _same_key(claim[j], claim[i]):
                continue
            if picks[j] < picks[i + 1]:
                picks[i], picks[j] = picks[j], picks[i]
                swapped = True
                break
        if not swapped:
            for j in range(len(claim)):
                if j in (i, i + 1) or not _same_key(claim[j], claim[i + 1]):
                    continue
                if picks[j] > picks[i]:
                    picks[i + 1], picks[j] = picks[j], picks[i + 1]
                    swapped = True
                    break
        if not swapped:
            a, b = claim[i], claim[i + 1]
            return f"{a.text!r} and {b.text!r} come from two coordinated parts of the evidence"
    return "the claim's phrases come from coordinated parts of the evidence"


def _same_key(a: AccountToken, b: AccountToken) -> bool:
    return a.kind == b.kind and a.key == b.key


def _separators(ev: tuple[AccountToken, ...]) -> frozenset[int]:
    out = set()
    for k, t in enumerate(ev):
        if t.kind not in "wp" or not (t.key in _SEPARATORS or _is_conj(t)):
            continue
        if t.key == "and" and any(
            e.kind == "w" and e.key == "between" for e in ev[max(0, k - 4) : k]
        ):
            continue  # "between 22:00 and 05:00"
        out.add(k)
    return frozenset(out)


def _first_crossing(
    claim: list[AccountToken],
    claim_all: list[AccountToken],
    where: dict[int, int],
    seps: frozenset[int],
    picks: list[int],
) -> int | None:
    for i in range(len(claim) - 1):
        a, b = claim[i], claim[i + 1]
        if a.kind == "c" or b.kind == "c" or picks[i + 1] >= picks[i]:
            continue
        ia, ib = where.get(id(a)), where.get(id(b))
        if ia is None or ib is None or ib <= ia:
            continue
        if any(t.key in _SEPARATORS or _is_conj(t) for t in claim_all[ia : ib + 1]):
            continue
        if any(picks[i + 1] < k < picks[i] for k in seps):
            return i
    return None


def _named(t: AccountToken) -> bool:
    """A name or a number ("Acme", "Oslo", "2 bicycles"); not a function word that a
    sentence opens with ("Each", "This")."""
    if t.kind == "n":
        return True
    if t.kind != "w" or t.text.lower() in QUERY_STOPWORDS:
        return False
    return t.text[:1].isupper() or any(c.isdigit() for c in t.text)


def _clause_of(
    toks: list[AccountToken] | tuple[AccountToken, ...], i: int, *, conj: bool = False
) -> tuple[int, int]:
    """The bounds of the clause around ``toks[i]`` (with ``conj``, of its coordinated
    part: a conjunction or comma ends it too)."""

    def stop(k: int) -> bool:
        t = toks[k]
        if t.kind == "p" and t.key in "()（）":
            return False  # a parenthesis sits inside its clause
        if t.key == ":" and k + 1 < len(toks) and any(c.isdigit() for c in toks[k + 1].text):
            return False  # a label and its value: "Last audited: 2026-03-03"
        return (t.kind == "p" and t.key in _CLAUSE_STOPS) or (conj and _is_conj(t))

    lo = i
    while lo > 0 and not stop(lo - 1):
        lo -= 1
    hi = i
    while hi + 1 < len(toks) and not stop(hi + 1):
        hi += 1
    return lo, hi


def verb_roles(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """A word with names or numbers on both sides in its claim clause keeps them there:
    "The server in Oslo backs up the server in Riga" is not accounted by "The server in
    Riga backs up the server in Oslo", nor "Acme signed the contract that Birch drafted"
    by "Birch signed the contract that Acme drafted". Some occurrence of the word in
    the evidence must have the claim's names before it on its left and those after it
    on its right, within one clause."""
    for i, t in enumerate(claim):
        if t.kind != "w" or not t.text[:1].islower() or _named(t):
            continue
        if t.key in _ARTICLES or t.key in _FINITE or t.key.startswith(("be:", "have")):
            continue
        if t.key in _PREPOSITIONS or _is_conj(t):
            continue
        lo, hi = _clause_of(claim, i, conj=True)
        mirror = _mirrored(claim, i, lo, hi, ev)
        if mirror:
            return mirror
        left = [c for c in claim[lo:i] if _named(c)]
        right = [c for c in claim[i + 1 : hi + 1] if _named(c)]
        if not left or not right:
            continue
        ok = False
        for k, e in enumerate(ev):
            if not _same(t, e):
                continue
            elo, ehi = _clause_of(ev, k)
            ev_left, ev_right = ev[elo:k], ev[k + 1 : ehi + 1]
            if all(any(_same(c, x) for x in ev_left) for c in left) and all(
                any(_same(c, x) for x in ev_right) for c in right
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} has other things on its sides in the evidence"
    return None


def _content(t: AccountToken) -> bool:
    return t.kind == "n" or (
        t.kind == "w"
        and t.key not in QUERY_STOPWORDS
        and t.key not in _ARTICLES
        and t.key not in _FINITE
        and t.key not in _AUXILIARIES
        and not t.key.startswith(("be:", "have"))
    )


#: Modals and negations between a subject and its verb: not a role of the verb.
_AUXILIARIES = frozenset(
    ["must", "may", "can", "cannot", "should", "shall", "will", "would", "might", "could",
     "not", "never", "also", "only", "always"]
)  # fmt: skip


def _mirrored(
    claim: list[AccountToken], i: int, lo: int, hi: int, ev: tuple[AccountToken, ...]
) -> str | None:
    """The content words next to ``claim[i]`` (the nearest on each side in its clause)
    found the other way round around the same word in the evidence, and never the
    claim's way: "The guarantor indemnifies the lender" is not accounted by "The lender
    indemnifies the guarantor", nor "Sensor B calibrates sensor A" by the reverse."""
    before = next((c for c in reversed(claim[lo:i]) if _content(c)), None)
    after = next((c for c in claim[i + 1 : hi + 1] if _content(c)), None)
    if before is None or after is None or _same(before, after):
        return None
    straight = mirrored = False
    for k, e in enumerate(ev):
        if not _same(claim[i], e):
            continue
        elo, ehi = _clause_of(ev, k)
        ev_left, ev_right = ev[elo:k], ev[k + 1 : ehi + 1]
        if any(_same(before, x) for x in ev_left) and any(_same(after, x) for x in ev_right):
            straight = True
        elif any(_same(after, x) for x in ev_left) and any(_same(before, x) for x in ev_right):
            mirrored = True
    if mirrored and not straight:
        return f"{before.text!r} and {after.text!r} are the other way round around {claim[i].text!r}"
    return None


def passive_of_active(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """The claim adds a copula before a verb that the evidence has after its subject:
    "The vendor was paid €500" is not "The vendor paid €500" (a label line such as
    "Approved by X on 2026-01-12" has no subject before its verb, and may take one)."""
    for j, t in enumerate(claim[:-1]):
        if t.kind != "w" or t.key not in ("be:present", "be:past"):
            continue
        verb = claim[j + 1]
        if verb.kind != "w":
            continue
        before = claim[:j]
        for k, e in enumerate(ev):
            if k == 0 or not _same(verb, e):
                continue
            subject = ev[k - 1]
            if not (
                subject.kind == "w"
                and subject.key not in QUERY_STOPWORDS
                and any(_same(c, subject) for c in before)
            ):
                continue
            # An active verb takes an object; a label's participle ("Lease signed 1
            # July 2025", "Decision recorded: ...") takes a date, a colon or a phrase.
            n = k + 1
            while n < len(ev) and ev[n].kind == "w" and ev[n].key in _ARTICLES:
                n += 1
            if n >= len(ev):
                continue
            obj = ev[n]
            if (obj.kind == "n" and not obj.key.startswith(("d", "m"))) or (
                obj.kind == "w"
                and obj.key not in QUERY_STOPWORDS
                and not any(c.isdigit() for c in obj.text)
            ):
                return f"the evidence has {subject.text!r} {e.text!r}, not a passive"
    return None
