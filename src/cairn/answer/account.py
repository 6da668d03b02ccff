"""The strict token account behind a ``supported`` verdict (issue 12).

A claim is supported by one evidence unit (a sentence, a clause, or one table row with
its header) only when every meaning-bearing token of the claim is accounted for there:

* a word matches the same word or an inflection of it (light stem); function words that
  carry meaning are content here: modals (may/must/should/can), negations, quantifiers
  (all/any/every/some/at least/up to/more than), tense and aspect (was/has/been/will),
  causal and temporal connectives (because/after/before), prepositions and "and"/"or";
  only the articles "a", "an", "the" may be dropped or added;
* a number matches the same number: digits and number words are one value ("seven" = 7,
  "5,000" = 5000); a decimal or dotted version is compared as written ("3.10" is not
  "3.1"); a number with a unit is a quantity compared after an exact conversion
  (90 minutes = 1.5 hours, 25 °C = 77 °F, 50 Mbit/s = 6.25 MB/s, 5 years = 60 months,
  200 µl = 0.2 ml), never across dimensions (bit vs byte, ms vs s, °C vs °F values);
* a date matches the same calendar date in any of its written forms (2026-02-01,
  1 February 2026, February 1, 2026, 2026年2月1日).

Relations keep their roles: around a relation word (by, from, to, than, for, in, of,
replaces, ...) the claim's neighbours must be found on the same side of one occurrence
of that word in the evidence, so "approved by A and carried out by B" is not accounted
by "approved by B and carried out by A", nor "from 10 to 5" by "from 5 to 10".
Coordinated items may be reordered ("staging and production").

Nothing of the evidence between the first and the last matched token may be left out,
except a whole dropped conjunct without a negation ("€150 in most cities and €220 in
London" accounts "€220 in London"); a negation, modal or quantifier right before the
matched part must be in the claim too. So a claim never drops "not", "up to", "only",
"secondary" or "planned" from the middle of what it copies.

CJK text is accounted character by character: every claim character must be found, and
every adjacent pair of claim characters (within a run, coordinated items excepted) must
be adjacent in the evidence; numerals (两 = 2, 五千 = 5000) and dates are normalised first.

The functions here are pure; :mod:`cairn.answer.verify` calls :func:`account` on the
candidate units and reports the first unaccounted token as the reason detail. The
tokens come from :mod:`cairn.answer.tokens` (normalised by :mod:`cairn.answer.normalise`);
the one-slot contradictions are found by :mod:`cairn.answer.conflicts`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from cairn.answer.tokens import (
    _ARTICLES,
    _CJK_CONJ,
    _CLAUSE_STOPS,
    _NEGATIONS,
    _PREPOSITIONS,
    _QUALIFIERS,
    _RELATION_STEMS,
    _RELATIONS,
    AccountToken,
    account_tokens,
)

__all__ = ["account", "overlap", "unaccounted"]

# --------------------------------------------------------------------------- account


@functools.lru_cache(maxsize=8192)
def _index(text: str) -> tuple[frozenset[tuple[str, str]], frozenset[str]]:
    """The (kind, key) pairs and the word stems of ``text``, for membership tests."""
    toks = account_tokens(text)
    return (
        frozenset((t.kind, t.key) for t in toks),
        frozenset(t.stem for t in toks if t.kind == "w" and len(t.stem) >= 3),
    )


def _present(t: AccountToken, text: str) -> bool:
    """``t`` matches some token of ``text`` (as :func:`_same`)."""
    keys, stems = _index(text)
    return (t.kind, t.key) in keys or (t.kind == "w" and len(t.stem) >= 3 and t.stem in stems)


def _same(c: AccountToken, e: AccountToken) -> bool:
    if c.kind != e.kind:
        return False
    if c.key == e.key:
        return True
    return c.kind == "w" and c.stem == e.stem and len(c.stem) >= 3


def _is_relation(t: AccountToken) -> bool:
    return t.kind == "w" and (t.key in _RELATIONS or t.stem.startswith(_RELATION_STEMS))


def _is_conj(t: AccountToken) -> bool:
    return (
        (t.kind == "w" and t.key in ("and", "or"))
        or (t.kind == "p" and t.key in ",、")
        or (t.kind == "c" and t.key in _CJK_CONJ)
    )


def _group(ev: tuple[AccountToken, ...], at: int, step: int) -> list[int]:
    """Positions of the tokens next to the relation word at ``at`` in direction ``step``,
    across coordination: rightwards up to the next relation word, leftwards up to the
    same relation word (so "approved by A and carried out by B" pairs each verb with its
    agent); never across a clause stop."""
    out = []
    k = at + step
    close, open_ = (")", "(") if step < 0 else ("(", ")")
    while 0 <= k < len(ev):
        t = ev[k]
        if t.kind == "p" and t.key == close:
            # Step over a parenthesis: "Grace Mwangi (Chief People Officer) on ..."
            j = k + step
            while 0 <= j < len(ev) and not (ev[j].kind == "p" and ev[j].key == open_):
                j += step
            if 0 <= j < len(ev):
                k = j + step
                continue
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if step > 0 and _is_relation(t):
            break
        if step < 0 and _is_relation(t) and t.key == ev[at].key:
            break
        out.append(k)
        k += step
    return out


def _table_binding(claim: list[AccountToken], reading: str) -> str | None:
    """In a table row, a number of the claim must be read from a cell that says nothing
    else, or next to a word the claim puts next to it: "Lyra 14 G3" is not accounted by
    "Lyra 16 G3" and "14 cores" in the same row."""
    cells = [account_tokens(pair.split(" : ", 1)[-1]) for pair in reading.split(" ; ")]
    words = [t for t in claim if t.kind != "p" and not (t.kind == "w" and t.key in _TABLE_GLUE)]
    for i, t in enumerate(words):
        if t.kind != "n":
            continue
        near = [words[j] for j in (i - 1, i + 1) if 0 <= j < len(words)]
        ok = False
        for cell in cells:
            if not any(_same(t, e) for e in cell):
                continue
            rest = [e for e in cell if e.kind != "p" and not _same(t, e)]
            if all(any(_same(c, e) for c in words) for e in rest) or any(
                _same(c, e) for c in near for e in rest
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} is in a cell about something else"
    return None


def _clause_binding(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """A claim of several clauses ("A is now supported; B is no longer supported") is
    accounted clause by clause, each by one clause of the evidence."""

    def split(tokens: Sequence[AccountToken]) -> list[list[AccountToken]]:
        out: list[list[AccountToken]] = [[]]
        for t in tokens:
            if t.kind == "p" and t.key in ";.":
                out.append([])
            elif t.kind != "p":
                out[-1].append(t)
        return [c for c in out if c]

    clauses = split(claim)
    if len(clauses) < 2:
        return None
    ev_clauses = split(ev)
    for clause in clauses:
        if not any(all(any(_same(t, e) for e in evc) for t in clause) for evc in ev_clauses):
            return "its clauses are not each in one clause of the evidence"
    return None


def _claim_group(
    claim: list[AccountToken], i: int, step: int, *, stop_at_same: bool = False
) -> list[AccountToken]:
    """The claim's tokens next to the relation word at ``i`` (as :func:`_group`), only
    names and numbers: the words that fill a role."""
    out = []
    k = i + step
    while 0 <= k < len(claim):
        t = claim[k]
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if _is_relation(t) and (not stop_at_same or t.key == claim[i].key):
            break
        if t.kind == "n" or (
            t.kind == "w" and (t.text[:1].isupper() or any(c.isdigit() for c in t.text))
        ):
            out.append(t)
        k += step
    return out


def _side_ok(ev: tuple[AccountToken, ...], k: int, want: AccountToken | None, step: int) -> bool:
    if want is None:
        return True
    if any(_same(want, ev[p]) for p in _group(ev, k, step)[:12]):
        return True
    # A neighbour that is itself a relation word must be the evidence's neighbour too.
    j = k + step
    while 0 <= j < len(ev) and ev[j].kind == "w" and ev[j].key in _ARTICLES:
        j += step
    return 0 <= j < len(ev) and _same(want, ev[j])


def _neighbour(claim: list[AccountToken], i: int, step: int) -> AccountToken | None:
    k = i + step
    while 0 <= k < len(claim):
        t = claim[k]
        if t.kind == "p":
            return None
        if not (t.kind == "w" and t.key in _ARTICLES):
            return t
        k += step
    return None


def account(
    claim_text: str,
    evidence_text: str,
    *,
    table: bool = False,
    heading: str = "",
    code_glue: bool = False,
) -> str | None:
    """``None`` when ``evidence_text`` accounts for every token of ``claim_text`` (see
    the module docstring), else a short description of the first unaccounted token.

    With ``table`` (one table row with its header), the relation and gap checks are
    skipped and the glue words of a row reading ("has", "is", "of", "with") may be
    added: the row itself binds the values. Plain content words of the claim that are
    not in the evidence may come from ``heading`` (the section or document title, which
    names the subject of its lines: "The policy" for a line under "# Leave policy").
    With ``code_glue`` (the claim's code spans were found verbatim in the unit), the
    words that only tie a description to its command ("run", "use", "with", "to") may
    be added.
    """
    claim_all = [
        t for t in account_tokens(claim_text) if not (t.kind == "w" and t.key in _ARTICLES)
    ]
    ev = account_tokens(evidence_text)
    claim = [t for t in claim_all if t.kind != "p"]
    if not claim:
        return "nothing to account for"
    for t in claim:  # fast path: most units lack some word of the claim
        if not _present(t, evidence_text) and not (
            (heading and _present(t, heading))
            or (t.kind == "w" and (t.key in _TABLE_GLUE or t.key in _CODE_GLUE))
            or (t.kind == "w" and t.key.startswith("be:"))
        ):
            return f"{t.text!r} not in the evidence"
    if table:
        claim = [t for t in claim if not (t.kind == "w" and t.key in _TABLE_GLUE)]
    if heading:
        named = [
            t
            for t in claim
            if t.kind == "w"
            and t.key not in _QUALIFIERS
            and not _is_relation(t)
            and not t.key.startswith(("be:", "have"))
            and not _present(t, evidence_text)
            and _present(t, heading)
        ]
        if named:
            claim = [t for t in claim if t not in named]
            claim_all = [t for t in claim_all if t not in named]
    if not any(e.kind == "w" and e.key in _FINITE for e in ev):
        # A label-style line ("Approved by X on ...", "> Archiving utility.") states its
        # fact without a finite verb; the claim may add the copula, nothing else.
        claim = [t for t in claim if not (t.kind == "w" and t.key in ("be:present", "be:past"))]
    if code_glue:
        claim = [t for t in claim if not (t.kind == "w" and t.key in _CODE_GLUE)]
        claim_all = [t for t in claim_all if not (t.kind == "w" and t.key in _CODE_GLUE)]
    if not claim:
        return None
    cands: list[list[int]] = []
    perfect = [k + 1 for k in range(len(ev) - 1) if ev[k].key == "have" and ev[k + 1].key == "been"]
    for t in claim:
        pos = [k for k, e in enumerate(ev) if _same(t, e)]
        if not pos and t.kind == "w" and t.key == "be:past":
            pos = perfect  # "were determined" = "have been determined": both completed
        if not pos:
            return f"{t.text!r} not in the evidence"
        cands.append(pos)
    if table:
        return _table_binding(claim_all, evidence_text)
    problem = _clause_binding(claim_all, ev)
    if problem:
        return problem
    # Relations: the claim's neighbours on each side of a relation word stay there.
    for i, t in enumerate(claim_all):
        if not _is_relation(t):
            continue
        verb = t.key not in _PREPOSITIONS
        prev, nxt = _neighbour(claim_all, i, -1), _neighbour(claim_all, i, 1)
        if verb:
            prev = None  # a verb's subject may stand far before it; its object may not
        right = _claim_group(claim_all, i, 1)
        left = _claim_group(claim_all, i, -1) if verb else []
        ok = False
        for k, e in enumerate(ev):
            if not _same(t, e):
                continue
            if not (_side_ok(ev, k, prev, -1) and _side_ok(ev, k, nxt, 1)):
                continue
            # Everything the claim puts on one side of the relation is on that side in
            # the evidence: "v1 replaces v2" is not "v2 replaces v1".
            ev_right = [ev[p] for p in _group(ev, k, 1)]
            ev_left = [ev[p] for p in _group(ev, k, -1)]
            if all(any(_same(c, x) for x in ev_right) for c in right) and all(
                any(_same(c, x) for x in ev_left) for c in left
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} relates other things in the evidence"
    if any(t.kind == "c" for t in claim) and not _cjk_pairs(claim_all, ev):
        return "the characters are not in this order in the evidence"
    # The copied part: choose the tightest placement around each anchor.
    anchor_i = min(range(len(claim)), key=lambda i: len(cands[i]))
    reason = "part of the evidence sentence is left out"
    for anchor in cands[anchor_i]:
        chosen: set[int] = set()
        picks = [0] * len(cands)
        picks[anchor_i] = anchor
        chosen.add(anchor)
        order = [(i, i - 1) for i in range(anchor_i + 1, len(cands))]
        order += [(i, i + 1) for i in range(anchor_i - 1, -1, -1)]
        for i, ref in order:
            step = 1 if i > anchor_i else -1
            expected = picks[ref] + step
            pos = cands[i]
            free = [p for p in pos if p not in chosen] or pos
            picks[i] = min(free, key=lambda p: (abs(p - expected), p))
            chosen.add(picks[i])
        problem = _gaps(ev, chosen)
        if problem is None:
            return None
        reason = problem
    return reason


def overlap(claim_text: str, evidence_text: str) -> float:
    """The share of the claim's tokens (articles and punctuation aside) found in the
    evidence: a cheap filter before the full account."""
    toks = [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p" and not (t.kind == "w" and t.key in _ARTICLES)
    ]
    if not toks:
        return 0.0
    return sum(_present(t, evidence_text) for t in toks) / len(toks)


def unaccounted(claim_text: str, evidence_text: str) -> list[AccountToken]:
    """The claim tokens (articles and punctuation aside) with no match in the evidence."""
    return [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p"
        and not (t.kind == "w" and t.key in _ARTICLES)
        and not _present(t, evidence_text)
    ]


_FINITE = frozenset(
    [
        "be:present",
        "be:past",
        "have",
        "had",
        "been",
        "be",
        "will",
        "would",
        "shall",
        "must",
        "may",
        "might",
        "can",
        "could",
        "should",
        "does",
        "do",
        "did",
        "cannot",
    ]
)
_CODE_GLUE = frozenset(
    ["to", "run", "use", "using", "with", "by", "running", "execute", "type", "command"]
)
_TABLE_GLUE = frozenset(
    [
        "be:present",
        "be:past",
        "have",
        "has",
        "is",
        "are",
        "of",
        "with",
        "for",
        "at",
        "a",
        "an",
        "the",
        "requires",
        "require",
        "needs",
        "need",
        "uses",
        "use",
    ]
)


def _cjk_pairs(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> bool:
    """Each clause of a CJK claim lies in one clause of the evidence, each of its
    coordinated items ("、", "和" separate them) as a contiguous run there."""
    for clause in _cjk_clauses(claim):
        segments = _cjk_segments(clause)
        coordinated = len(segments) > 1
        if not any(
            all(_contains(ev_clause, seg, coordinated) for seg in segments)
            for ev_clause in _cjk_clauses(list(ev))
        ):
            return False
    return True


def _cjk_clauses(tokens: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in tokens:
        if t.kind == "p" and t.key != "、":
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


def _cjk_segments(clause: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in clause:
        if _is_conj(t):
            out.append([])
        elif not (t.kind == "w" and t.key in _ARTICLES):
            out[-1].append(t)
    return [s for s in out if s]


def _contains(hay: list[AccountToken], seg: list[AccountToken], split: bool = False) -> bool:
    """``seg`` is a contiguous run of ``hay``; with ``split`` (an item of a reordered
    coordination carrying the shared predicate) it may be two runs."""
    n = len(seg)
    if any(all(_same(seg[j], hay[i + j]) for j in range(n)) for i in range(len(hay) - n + 1)):
        return True
    return split and any(_contains(hay, seg[:k]) and _contains(hay, seg[k:]) for k in range(1, n))


def _gaps(ev: tuple[AccountToken, ...], chosen: set[int]) -> str | None:
    lo, hi = min(chosen), max(chosen)
    # Right before the copied part: a qualifier of it, or a modifier of its first word
    # ("primary" in "the primary on-call engineer") must be copied too.
    k = lo - 1
    while k >= 0 and ev[k].kind == "w" and ev[k].key in _ARTICLES:
        k -= 1
    if k >= 0 and lo + 1 in chosen:
        t = ev[k]
        if (
            t.kind in ("w", "n", "c")
            and not _is_conj(t)
            and not (t.kind == "w" and (t.key in _PREPOSITIONS or t.key in _SUBORDINATORS))
        ):
            return f"the evidence says {t.text!r} before it"
    k = lo - 1
    seen = 0
    while k >= 0 and seen < 3:
        t = ev[k]
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if (
            t.kind == "w"
            and t.key in _QUALIFIERS
            and t.key not in ("than", "over", "about", "around")
        ):
            return f"the evidence says {t.text!r} before it"
        if _cjk_qualifier(ev, k):
            return f"the evidence says {t.text!r} before it"
        if t.kind != "p":
            seen += 1
        k -= 1
    run: list[int] = []
    for k in range(lo, hi + 2):
        if k <= hi and k not in chosen:
            t = ev[k]
            if not (t.kind == "w" and t.key in _ARTICLES):
                run.append(k)
            continue
        if run:
            problem = _gap_problem(ev, run, lo, hi)
            if problem:
                return problem
            run = []
    return None


_REPORTING = ("reveal", "show", "found", "find", "demonstrat", "confirm", "report")
_FRAME = frozenset(["that", "it", "to", "this", "these", "them"])
_SUBORDINATORS = frozenset(
    [
        "that",
        "when",
        "if",
        "where",
        "while",
        "whereas",
        "because",
        "since",
        "although",
        "though",
        "but",
        "however",
        "thus",
        "therefore",
        "hence",
        "also",
        "this",
        "these",
        "those",
        "its",
        "their",
        "such",
    ]
)


_CJK_QUALIFIER_CHARS = frozenset("不未无非勿禁须必应可得仅只至多少每")


def _cjk_qualifier(ev: tuple[AccountToken, ...], k: int) -> bool:
    return ev[k].kind == "c" and ev[k].key in _CJK_QUALIFIER_CHARS


def _gap_problem(ev: tuple[AccountToken, ...], run: list[int], lo: int, hi: int) -> str | None:
    content = [k for k in run if ev[k].kind != "p"]
    if not content:
        return None  # only punctuation left out
    words = [ev[k] for k in content]
    if any(t.kind == "w" and t.key in _NEGATIONS for t in words) or any(
        t.kind == "c" and t.key in "不未无非勿禁" for t in words
    ):
        return f"the evidence says {words[0].text!r} there"
    qualified = any(t.kind == "w" and t.key in _QUALIFIERS for t in words)
    ends_conjunct = _is_conj(ev[run[-1]]) or (run[-1] + 1 <= hi and _is_conj(ev[run[-1] + 1]))
    if qualified and not ends_conjunct:
        return f"the evidence says {words[0].text!r} there"
    # A reporting frame ("analysis revealed it to contain") states how the fact was
    # established, not a different fact.
    if all(t.kind == "w" and (t.stem.startswith(_REPORTING) or t.key in _FRAME) for t in words):
        return None
    # A parenthesis or a prepositional phrase ("at 09:40 UTC") only adds detail.
    if ev[run[0]].key == "(" and ev[run[-1]].key == ")":
        return None
    if (
        ev[run[0]].kind == "w"
        and ev[run[0]].key in _PREPOSITIONS
        and not any(t.kind == "w" and t.key in _QUALIFIERS for t in words)
    ):
        return None
    # A whole dropped conjunct: the gap is bounded by a coordination on one side.
    before = ev[run[0] - 1] if run[0] - 1 >= lo else None
    after = ev[run[-1] + 1] if run[-1] + 1 <= hi else None
    first, last = ev[run[0]], ev[run[-1]]
    if (
        _is_conj(first)
        or _is_conj(last)
        or (before and _is_conj(before))
        or (after and _is_conj(after))
    ):
        return None
    return "left out: " + " ".join(t.text for t in words[:4])


