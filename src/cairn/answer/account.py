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
import re
from collections.abc import Sequence

from cairn.answer.cjk_order import cjk_pairs
from cairn.answer.coordination import clause_readings, semicolon_parts, subject_readings
from cairn.answer.crossing import crossed_parts, passive_of_active, verb_roles
from cairn.answer.dimensions import size_by
from cairn.answer.gaps import _NOT_DATED, episodic, gaps
from cairn.answer.identifiers import heading_may_name
from cairn.answer.idioms import effective_from
from cairn.answer.item_order import restated
from cairn.answer.name_order import label_values, name_order, range_ends
from cairn.answer.negation_scope import scope_crossed
from cairn.answer.paired_lists import one_side_reordered
from cairn.answer.range_order import from_first
from cairn.answer.readings import equivalent_readings
from cairn.answer.repeats import distinct_picks, overused
from cairn.answer.table_rows import (
    _CODE_GLUE,
    _TABLE_GLUE,
    _measure_verbs,
    _table_binding,
    _table_glue,
    table_claim,
)
from cairn.answer.tokens import (
    _ARTICLES,
    _CLAUSE_STOPS,
    _EXACT_ONLY,
    _FINITE,
    _PREPOSITIONS,
    _QUALIFIERS,
    _RELATION_STEMS,
    _RELATIONS,
    AccountToken,
    _is_conj,
    _same,
    account_tokens,
)

__all__ = ["account", "overlap", "table_claim", "unaccounted"]

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
    return (t.kind, t.key) in keys or (
        t.kind == "w" and len(t.stem) >= 3 and t.stem in stems and t.key not in _EXACT_ONLY
    )


def _is_relation(t: AccountToken) -> bool:
    return t.kind == "w" and (t.key in _RELATIONS or t.stem.startswith(_RELATION_STEMS))


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
        if t.kind == "p" and t.key in _CLAUSE_STOPS and not _label_colon(ev, k):
            break
        if step > 0 and _is_relation(t):
            break
        if step < 0 and _is_relation(t) and t.key == ev[at].key:
            break
        out.append(k)
        k += step
    return out


def _label_colon(ev: tuple[AccountToken, ...], k: int) -> bool:
    """The colon of a label and its value ("Period of cover: 1 April 2026", "Last
    reviewed: 2026-01-19") joins them; it does not end a clause."""
    return (
        ev[k].key == ":"
        and k + 1 < len(ev)
        and (ev[k + 1].kind == "n" or any(c.isdigit() for c in ev[k + 1].text))
    )


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
    claim: list[AccountToken],
    i: int,
    step: int,
    *,
    stop_at_same: bool = False,
    stop_at_conj: bool = False,
    item_only: bool = False,
) -> list[AccountToken]:
    """The claim's tokens next to the relation word at ``i`` (as :func:`_group`), only
    names and numbers: the words that fill a role (with ``stop_at_conj``, only within
    its own coordinated item)."""
    out = []
    k = i + step
    while 0 <= k < len(claim):
        t = claim[k]
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if _is_relation(t) and (not stop_at_same or t.key == claim[i].key):
            break
        if stop_at_conj and _is_conj(t):
            break
        if item_only and _is_conj(t) and _starts_item(claim, k + 1):
            break  # "at the school office or online through ParentPay": two items
        if t.kind == "n" or (
            t.kind == "w" and (t.text[:1].isupper() or any(c.isdigit() for c in t.text))
        ):
            out.append(t)
        k += step
    return out


def _starts_item(claim: list[AccountToken], k: int) -> bool:
    """After a conjunction, a lower-case word (not an article, name or number) opens
    a coordinated item of its own rather than continuing a list of names."""
    while k < len(claim) and claim[k].kind == "w" and claim[k].key in _ARTICLES:
        k += 1
    return k < len(claim) and not _is_name(claim[k]) and claim[k].kind == "w"


def _is_name(t: AccountToken | None) -> bool:
    return t is not None and (
        t.kind == "n"
        or (t.kind == "w" and (t.text[:1].isupper() or any(c.isdigit() for c in t.text)))
    )


def _between_names(claim: list[AccountToken], i: int) -> bool:
    """A lower-case word (a verb, mostly) right between two names or numbers: "Arsenal
    beat Chelsea", "Tom Becker hired Priya Raman". Its sides are roles, kept like those
    of a relation word."""
    t = claim[i]
    if t.kind != "w" or not t.text[:1].islower() or t.key in _FINITE or t.key.startswith("be:"):
        return False
    if _is_conj(t) or t.key in _PREPOSITIONS:
        return False
    return _is_name(_neighbour(claim, i, -1)) and _is_name(_neighbour(claim, i, 1))


def _coordinated(ev: tuple[AccountToken, ...], k: int) -> list[int]:
    """The positions of the same relation word coordinated with the one at ``k``: "at
    07:00 and at 15:00 by the cook" gives both "at"s, which share what precedes the
    first and what follows the last."""
    out = [k]
    cur = k
    while True:  # leftwards: "... at 07:00 and [at] ..."
        j = cur - 1
        while j >= 0 and ev[j].kind == "w" and ev[j].key in _ARTICLES:
            j -= 1
        if j < 0 or not _is_conj(ev[j]):
            break
        grp = _group(ev, cur, -1)
        end = (grp[-1] - 1) if grp else cur - 1
        if end < 0 or ev[end].kind != "w" or ev[end].key != ev[k].key:
            break
        out.append(end)
        cur = end
    cur = k
    while True:  # rightwards: "[at] 07:00 and at ..."
        grp = _group(ev, cur, 1)
        end = (grp[-1] + 1) if grp else cur + 1
        if not grp or not _is_conj(ev[grp[-1]]) or end >= len(ev):
            break
        if ev[end].kind != "w" or ev[end].key != ev[k].key:
            break
        out.append(end)
        cur = end
    return out


def _side_ok(ev: tuple[AccountToken, ...], k: int, want: AccountToken | None, step: int) -> bool:
    if want is None:
        return True
    if step < 0:
        # Coordinated prepositional items ("at 07:00 and at 15:00") share their left
        # side; the claim may give them in another order ("at 15:00 and at 07:00").
        chain = _coordinated(ev, k)
        if len(chain) > 1:
            if _is_conj(want):
                return True
            return any(_side_ok_one(ev, kk, want, step) for kk in chain)
    return _side_ok_one(ev, k, want, step)


def _side_ok_one(ev: tuple[AccountToken, ...], k: int, want: AccountToken, step: int) -> bool:
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
    reorder: bool = True,
) -> str | None:
    """As :func:`_account`; a claim of two clauses joined by "and" is also accounted
    clause by clause against the clauses of an evidence sentence read the same way, so
    the clauses may come in the other order but each keeps its own subject, verb, object
    and values. A second clause that refers back with "it"/"them" ("Yara Haddad seconded
    the approval and Kofi Mensah proposed it") reads the pronoun as the first clause's
    object; one that starts with a preposition ("open from 06:00 to 22:00 on weekdays and
    from 08:00 to 14:00 on Saturdays") shares the first clause's words before its first
    preposition."""
    problem = _account(claim_text, evidence_text, table=table, heading=heading, code_glue=code_glue)
    for alt in restated(claim_text, evidence_text) if problem and reorder else ():
        # Items of one coordination in the evidence's order; a version named as it is.
        if account(alt, evidence_text, table=table, heading=heading, reorder=False) is None:
            return None
    swapped = from_first(claim_text) if problem else None  # "to 7 hours from 5 hours"
    if swapped and account(swapped, evidence_text, table=table, heading=heading) is None:
        return None
    for group in equivalent_readings(claim_text, evidence_text, table=table) if problem else ():
        if all(_account(c, e, table=table, heading=heading) is None for c, e in group):
            return None  # "An X is ..." from "All Xs are ..."; "10 cents" = "€0.10"
    if problem and not table:
        # "This SLA is 3.2 ...; it replaces 3.1": a later subject pronoun read as the subject.
        for alt in subject_readings(evidence_text):
            if _account(claim_text, alt, heading=heading, code_glue=code_glue) is None:
                return None
    if table or _respective(claim_text) or _respective(evidence_text):
        return problem  # "respectively" pairs two lists by position: no clause reading
    readings = clause_readings(claim_text) if " and " in claim_text else ()
    if not readings:
        if problem is not None and " and " in evidence_text:
            # One clause of a gapped evidence sentence, its verb restored: "Children
            # take 10 mg" from "Adults take 5 mg and children 10 mg".
            for sent in re.split(r"(?<=[.;:!?])\s+", evidence_text):
                for kind, (_first, second) in clause_readings(sent):
                    if kind == "gap" and _account(claim_text, second, heading=heading) is None:
                        return None
        return problem
    # Two full clauses against clauses: each claim clause must be one evidence clause
    # ("A supervises team B and C supervises team A" is not accounted by "A supervises
    # team A and C supervises team B", though every word is there). Not for a list
    # ("A, B, and the C are obtained") or a short first part ("Tallinn and Brno will").
    full = any(
        kind not in ("ellipsis", "gap") and len(_words(first)) >= 3 and "," not in first
        for kind, (first, _s) in readings
    )
    if problem is None and not full:
        return None
    ev_clauses = list(
        dict.fromkeys(
            c
            for sent in re.split(r"(?<=[.;:!?])\s+", evidence_text)
            for _kind, reading in clause_readings(sent)
            for c in reading
        )
    )
    if problem is not None:  # "Chair: A; secretary: B" has a clause per part
        ev_clauses = list(dict.fromkeys([*ev_clauses, *semicolon_parts(evidence_text)]))
    if not ev_clauses:
        return problem
    for _kind, reading in readings:
        # Each claim clause by its own evidence clause: "between 18:00 and 18:00" is not
        # two readings of "between 12:00 and 18:00".
        found = [
            {
                k
                for k, ev in enumerate(ev_clauses)
                if _account(c, ev, heading=heading, code_glue=code_glue) is None
            }
            for c in reading
        ]
        if all(found) and distinct_picks(found):
            return None
    return problem or "its clauses are not each in one clause of the evidence"


def _words(part: str) -> list[str]:
    """The words of a clause part but a leading "both"/"either" and articles ("Both the
    tenant" is one item of "both ... and", no clause)."""
    words = part.split()
    if words and words[0].lower() in ("both", "either", "neither"):
        words = words[1:]
    return [w for w in words if w.lower() not in _ARTICLES]


_GENERIC_MARKERS = frozenset(
    ["be:present", "must", "may", "can", "cannot", "should", "shall", "will", "need", "needs"]
)
_FULL_DATE_RE = re.compile(r"d\d{8}")
_EVENT_VERBS = frozenset(["happen", "occur", "occurr"])


def _account(
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
    if table:
        # "本产品净重为8.5 kg" reads the 净重 row of the product's own parameter table.
        claim_text = table_claim(claim_text, evidence_text)
    claim_all = [
        t for t in account_tokens(claim_text) if not (t.kind == "w" and t.key in _ARTICLES)
    ]
    ev = account_tokens(evidence_text)
    claim = [t for t in claim_all if t.kind != "p"]
    if not claim:
        return "nothing to account for"
    measured = _measure_verbs(claim, evidence_text, heading) if table else set()
    label = not any(e.kind == "w" and e.key in _FINITE for e in ev)
    # A label-style line ("Last reviewed: 2026-01-19", "Atlas 3.10.0 — released
    # 2026-02-18") dates its fact without the preposition, and so does a heading that
    # dates the lines under it ("## 5.0.0 — 2025-11-20"): "on" may be added before a
    # full date.
    measured |= {
        i
        for i in range(len(claim) - 1)
        if claim[i].kind == "w"
        and claim[i].key == "on"
        and _FULL_DATE_RE.fullmatch(claim[i + 1].key)
        and not _present(claim[i], evidence_text)
        and (
            label
            or (
                heading
                and not any(
                    t.kind == "w"
                    and (t.key in _NOT_DATED or t.stem.startswith(("plan", "schedul")))
                    for t in claim
                )
                and not _present(claim[i + 1], evidence_text)
                and _present(claim[i + 1], heading)
            )
        )
    }
    measured |= effective_from(claim, ev)  # "effective from 1 May" = "effective 1 May"
    if label and any(_FULL_DATE_RE.fullmatch(t.key) for t in claim):
        # A dated title ("Postmortem: product search outage, 11 March 2026") says when its
        # event happened: "happened"/"occurred" may be added, as the copula may.
        measured |= {
            i
            for i, t in enumerate(claim)
            if t.kind == "w" and t.stem in _EVENT_VERBS and not _present(t, evidence_text)
        }
    for i, t in enumerate(claim):  # fast path: most units lack some word of the claim
        if not _present(t, evidence_text) and not (
            (heading and _present(t, heading) and heading_may_name(claim, i, evidence_text, _present))
            or i in measured
            or (t.kind == "w" and (t.key in _TABLE_GLUE or t.key in _CODE_GLUE))
            or (table and _table_glue(t))
            or (t.kind == "w" and t.key.startswith("be:"))
        ):
            return f"{t.text!r} not in the evidence"
    if measured:
        dropped = {id(claim[i]) for i in measured}
        claim = [t for t in claim if id(t) not in dropped]
        claim_all = [t for t in claim_all if id(t) not in dropped]
    if table:
        claim = [t for t in claim if not _table_glue(t)]
    if heading:
        named = [
            t
            for i, t in enumerate(claim)
            if t.kind == "w"
            and t.key not in _QUALIFIERS
            and not _is_relation(t)
            and not t.key.startswith(("be:", "have"))
            and not _present(t, evidence_text)
            and _present(t, heading)
            and heading_may_name(claim, i, evidence_text, _present)
        ]
        if named:
            claim = [t for t in claim if t not in named]
            claim_all = [t for t in claim_all if t not in named]
    if not any(e.kind == "w" and e.key in _FINITE for e in ev):
        # A label-style line ("Approved by X on ...", "> Archiving utility.") states its
        # fact without a finite verb; the claim may add the copula, nothing else.
        flip = passive_of_active(claim_all, ev)
        if flip:
            return flip
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
    repeated = overused(claim, cands)
    if repeated:
        return repeated
    if table:
        return _table_binding(claim_all, evidence_text)
    problem = _clause_binding(claim_all, ev)
    if problem:
        return problem
    # Relations: the claim's neighbours on each side of a relation word stay there.
    for i, t in enumerate(claim_all):
        if not (_is_relation(t) or _between_names(claim_all, i)) or size_by(claim_all, i):
            continue
        verb = t.key not in _PREPOSITIONS
        prev, nxt = _neighbour(claim_all, i, -1), _neighbour(claim_all, i, 1)
        if nxt is not None and _is_conj(nxt):
            nxt = None  # a particle ("sign in and wear a badge") has no object to keep
        if verb:
            prev = None  # a verb's subject may stand far before it; its object may not
        right = _claim_group(claim_all, i, 1, item_only=not verb)
        # A preposition's left side binds the numbers before it too: "06:00 to 22:00 on
        # weekdays" is not "06:00 to 22:00 on Saturdays" when the weekday hours differ.
        left = (
            _claim_group(claim_all, i, -1)
            if verb
            else [c for c in _claim_group(claim_all, i, -1, stop_at_conj=True) if c.kind == "n"]
        )
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
    roles = (
        verb_roles(claim_all, ev)
        or name_order(claim_all, ev)
        or label_values(claim_all, ev)
        or range_ends(claim_all, ev)
    )
    if roles:
        return roles
    if any(t.kind == "c" for t in claim) and not cjk_pairs(claim_all, ev):
        return "the characters are not in this order in the evidence"
    # A rule or standing fact (present tense or a modal, not a past event) is narrowed
    # by a fronted scope the claim leaves out.
    standing = not episodic(claim_all)
    generic = any(t.kind == "w" and t.key in _GENERIC_MARKERS for t in claim_all) and not any(
        t.kind == "w" and t.key == "be:past" for t in claim_all
    )
    # The copied part: choose the tightest placement around each anchor.
    anchor_i = min(range(len(claim)), key=lambda i: len(cands[i]))
    reason = "part of the evidence sentence is left out"
    # "A and B lead X and Y respectively" pairs its lists by position: the claim keeps
    # the evidence's order of everything it copies.
    respective = _respective(evidence_text)
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
        if respective and picks != sorted(picks):
            reason = "the evidence pairs its items in order (respectively)"
            continue
        crossed = (
            crossed_parts(claim, claim_all, ev, picks)
            or scope_crossed(claim, claim_all, ev, picks)
            or one_side_reordered(ev, picks)
        )
        if crossed:
            reason = crossed
            continue
        # Claim neighbours placed apart in the evidence: what lies between them there is
        # inserted into the claim's phrase ("median latency [to X] fell").
        adjacent = {(picks[i], picks[i + 1]) for i in range(len(picks) - 1)}
        problem = gaps(
            ev,
            chosen,
            adjacent=None if code_glue else adjacent,
            generic=generic,
            standing=standing,
        )
        if problem is None:
            return None
        reason = problem
    return reason


_RESPECTIVELY_RE = re.compile(r"\brespectively\b|分别|分別|それぞれ|각각", re.IGNORECASE)


def _respective(text: str) -> bool:
    return _RESPECTIVELY_RE.search(text) is not None


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
