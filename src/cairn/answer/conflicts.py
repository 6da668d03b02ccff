"""Contradiction slots: the one conflicting value (number, modal, quantifier, polarity, CJK frequency, swapped roles) between a claim and an evidence unit."""

from __future__ import annotations

import re

from cairn.answer.account import (
    _claim_group,
    _group,
    _is_relation,
    _present,
    account,
)
from cairn.answer.cjk_order import _cjk_clauses
from cairn.answer.concrete import agent_of_verb, restricted_polarity, same_negative_force
from cairn.answer.dimensions import size_by
from cairn.answer.table_reading import read_row
from cairn.answer.table_rows import _PAREN_RE, _TABLE_GLUE, _names_row
from cairn.answer.tokens import (
    _ARTICLES,
    _NEGATIONS,
    _PREPOSITIONS,
    AccountToken,
    _same,
    account_tokens,
)
from cairn.text.stopwords import QUERY_STOPWORDS

# --------------------------------------------------------------------------- conflicts

_MODALS = frozenset(
    ["may", "might", "must", "should", "can", "could", "shall", "will", "would", "cannot", "need"]
)
_QUANTIFIER_WORDS = frozenset(
    [
        "least",
        "most",
        "up",
        "more",
        "less",
        "fewer",
        "than",
        "all",
        "every",
        "any",
        "each",
        "some",
        "only",
        "no",
        "none",
    ]
)
#: The claim's quantifier stated by another form of it in the evidence (a table cell's
#: "none" for "no ..."): then nothing concrete conflicts, whatever else the row quantifies.
_NO_QUANTIFIER = {"no": "none", "none": "no"}
_PERIOD_CHARS = frozenset("天日周週月年季时時")
_CJK_QUOTED_RE = re.compile("“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")
_PERMISSIONS = frozenset({"may", "can"})
_WEEKDAYS = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
)


def _cjk_conflict(
    claim: list[AccountToken], ev: tuple[AccountToken, ...]
) -> tuple[str, str] | None:
    """A CJK claim clause that one evidence clause states but for a frequency word
    (每周 for 每天) or a number."""
    for clause in _cjk_clauses(claim):
        keys = {t.key for t in clause}
        for ev_clause in _cjk_clauses(list(ev)):
            residue = [t for t in clause if not any(_same(t, e) for e in ev_clause)]
            if not residue or len(residue) > 2 or len(residue) * 3 > len(clause):
                continue
            extra = [e for e in ev_clause if e.key not in keys]
            if all(t.kind == "c" and t.key in _PERIOD_CHARS for t in residue):
                other = [e for e in extra if e.kind == "c" and e.key in _PERIOD_CHARS]
                if other:
                    return (
                        "frequency_mismatch",
                        f"claim {residue[0].text!r}, evidence {other[0].text!r}",
                    )
            if all(t.kind == "n" for t in residue):
                # Like with like: 8天 is no conflict with the 4 of 第4版.
                classes = {_number_class(t.key) for t in residue}
                other = [e for e in extra if e.kind == "n" and _number_class(e.key) in classes]
                if other:
                    return (
                        "number_mismatch",
                        f"claim {residue[0].text!r}, evidence {other[0].text!r}",
                    )
    return None


def conflict(
    claim_text: str, evidence_text: str, *, table: bool = False, heading: str = ""
) -> tuple[str, str] | None:
    """``(reason, detail)`` when the evidence states everything of the claim but one
    slot, and states something else in that slot: a number or quantity (``number_mismatch``),
    a modal (``modality_mismatch``), a negation (``negation_flip``), a quantifier
    (``quantifier_mismatch``), a CJK frequency (``frequency_mismatch``), or the same
    words with the roles swapped around a relation word (``role_swap``). ``None`` when
    there is no such concrete conflicting span."""
    ev = account_tokens(evidence_text)
    residue = [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p"
        and not (t.kind == "w" and t.key in _ARTICLES)
        and not (t.kind == "w" and t.key in ("be:present", "be:past"))
        and not (table and t.kind == "w" and t.key in _TABLE_GLUE)
        and not _present(t, evidence_text)
        and not (t.kind == "w" and heading and _present(t, heading))
    ]
    claim_keys = {t.key for t in account_tokens(claim_text)}
    extra = [e for e in ev if e.key not in claim_keys]
    if any(t.kind == "c" for t in account_tokens(claim_text)):
        # A quoted span is mentioned, not stated: 取消了“开车前15天以上免费退票”的规定.
        stated = account_tokens(_CJK_QUOTED_RE.sub("", evidence_text))
        return _cjk_conflict(list(account_tokens(claim_text)), stated)
    if not residue:
        problem = account(claim_text, evidence_text, table=table, heading=heading)
        if problem is None:
            return None
        swap = _swapped_roles(list(account_tokens(claim_text)), ev)
        if swap:
            return "role_swap", swap
        said = re.match(r"the evidence says '(\w+)'", problem)
        if (
            said
            and said.group(1).lower() in ("not", "no", "never", "cannot")
            and not restricted_polarity(claim_text, evidence_text)
        ):
            return "negation_flip", f"evidence {said.group(1)!r}"
        return None
    if _narrower_subject(list(account_tokens(claim_text)), ev):
        return None  # "Deep Archive retrieval takes 48 hours" is not about "Archive retrieval"
    words = [t for t in residue if t.kind == "w"]
    if len(words) == len(residue) and all(t.key in _MODALS or t.key in _NEGATIONS for t in words):
        other = [e for e in extra if e.kind == "w" and (e.key in _MODALS or e.key in _NEGATIONS)]
        if {t.key for t in words} | {e.key for e in other} <= _PERMISSIONS:
            other = []  # "can" and "may" both grant; neither conflicts with the other
        if same_negative_force([t.key for t in words], [e.key for e in other]):
            other = []  # "may not" = "cannot"; "neither ... nor" = "not ..., and neither"
        if other:
            reason = (
                "negation_flip"
                if all(t.key in _NEGATIONS for t in words)
                and not any(e.key in _MODALS for e in other)
                else "modality_mismatch"
            )
            return reason, f"claim {words[0].text!r}, evidence {' '.join(e.text for e in other)!r}"
    if len(words) == len(residue) and all(t.key in _QUANTIFIER_WORDS for t in words):
        other = [e for e in extra if e.kind == "w" and e.key in _QUANTIFIER_WORDS]
        if any(_NO_QUANTIFIER.get(t.key) in {e.key for e in other} for t in words):
            other = []  # "no evening guests" against a row's "none": the same quantifier
        if other:
            return "quantifier_mismatch", f"claim {words[0].text!r}, evidence {other[0].text!r}"
    if all(t.kind == "n" for t in residue):
        for t in residue:
            kind = _number_class(t.key)
            other = [e for e in extra if e.kind == "n" and _number_class(e.key) == kind]
            if table:
                other = _in_named_columns(claim_text, evidence_text, other)
            if other:
                return "number_mismatch", f"claim {t.text!r}, evidence {other[0].text!r}"
    if all(t.kind == "c" for t in residue) and all(t.key in _PERIOD_CHARS for t in residue):
        other = [e for e in extra if e.kind == "c" and e.key in _PERIOD_CHARS]
        if other:
            return "frequency_mismatch", f"claim {residue[0].text!r}, evidence {other[0].text!r}"
    return None


def _in_named_columns(
    claim_text: str, reading: str, other: list[AccountToken]
) -> list[AccountToken]:
    """In a table row the claim names by its first cell, the values of ``other`` that
    stand in a column the claim names, when it names one: "The minimum age for the
    Rescue Diver course is 15" names the minimum-age column, so the row's pool-session
    count (2) conflicts with nothing (session 16); in a row the claim does not name,
    only the first cell's own values conflict (the claim names the row another way).
    The first cell's values always count."""
    row = read_row(reading)
    claim = account_tokens(claim_text)
    label = row.label
    named = [c.cell for c in row.columns if c.header.strip() and _names_row(c.header, claim)]
    if _PAREN_RE.sub(" ", label).strip() and not _names_row(_PAREN_RE.sub(" ", label), claim):
        named = []  # another row: "pontoon A" is not in conflict with row B's depth
    elif not named:
        return other
    # The first cell's own values always count: "Status 503 has the code rate_limited"
    # against the row "429 | rate_limited" gives the row another label.
    cells = [e for cell in [label, *named] for e in account_tokens(cell)]
    return [e for e in other if any(_same(e, c) for c in cells)]


def narrower_subject(claim_text: str, evidence_text: str) -> bool:
    """See :func:`_narrower_subject`."""
    return _narrower_subject(list(account_tokens(claim_text)), account_tokens(evidence_text))


def _narrower_subject(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> bool:
    """The evidence sentence opens with a word the claim lacks right before the first
    word they share: a premodifier that makes it about something narrower or other
    ("Deep Archive retrieval" for "Archive retrieval")."""
    words = [t for t in claim if t.kind == "w" and t.key not in _ARTICLES]
    if not words or not any(_same(words[0], e) for e in ev):
        return False
    lo = next(k for k, e in enumerate(ev) if _same(words[0], e))
    k = lo - 1
    if k < 0 or ev[k].kind != "w" or ev[k].key in QUERY_STOPWORDS or ev[k].key in _ARTICLES:
        return False
    # The shared subject goes on in the evidence ("Deep [Archive retrieval]"), and the
    # extra word opens the sentence or follows its article.
    goes_on = len(words) > 1 and lo + 1 < len(ev) and _same(words[1], ev[lo + 1])
    starts = k == 0 or ev[k - 1].kind == "p" or (ev[k - 1].kind == "w" and ev[k - 1].key in _ARTICLES)
    return goes_on and starts and not any(_same(c, ev[k]) for c in claim)


def _swapped_roles(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """A relation word whose claim neighbours (names, numbers) stand on the opposite
    sides of it in the evidence: "v1 replaces v2" against "v2 replaces v1"."""
    for i, t in enumerate(claim):
        if not _is_relation(t) or size_by(claim, i):
            continue
        # A passive agent is compared with the agent of the same verb, not by its place
        # in the sentence: "approved by A and written by B" = "written by B and approved
        # by A"; the same verb with another agent is a swap.
        per_verb = agent_of_verb(claim, i, ev)
        if per_verb is True:
            continue
        if per_verb is False:
            return f"{t.text!r} relates them the other way round in the evidence"
        # A repeated preposition's left side ends at a coordinator: "a badge after their
        # 25th and a card after their 10th" does not put "25th" before the second "after".
        prep = t.key in _PREPOSITIONS and sum(c.key == t.key for c in claim) > 1
        left = _claim_group(claim, i, -1, stop_at_same=True, stop_at_conj=prep)
        # ... and so does its right side (session 19, lead): in "A every Thursday at 18:30
        # and B every Tuesday at 19:00" the first "at" relates Thursday and 18:30 only.
        right = _claim_group(claim, i, 1, item_only=True, stop_at_conj=prep)
        only_left = [c for c in left if not any(_same(c, r) for r in right)]
        only_right = [c for c in right if not any(_same(c, x) for x in left)]
        if not only_left or not only_right:
            continue
        for k, e in enumerate(ev):
            if not _same(t, e):
                continue
            ev_left = [ev[p] for p in _group(ev, k, -1)]
            ev_right = [ev[p] for p in _group(ev, k, 1)]

            def side(c: AccountToken, toks: list[AccountToken]) -> bool:
                return any(_same(c, x) for x in toks)

            if any(side(c, ev_right) and not side(c, ev_left) for c in only_left) and any(
                side(c, ev_left) and not side(c, ev_right) for c in only_right
            ):
                return f"{t.text!r} relates them the other way round in the evidence"
    return None


def _number_class(key: str) -> str:
    """What a number token is, for comparing like with like: a quantity's dimension,
    a version, a plain number or a date."""
    if key.startswith("q:"):
        return key.split(":")[1]
    if key.startswith("v:"):
        return "version"
    if key.removeprefix("month:") in _WEEKDAYS:
        return "weekday"  # "Thursday's" is no month: no conflict with "6 May"
    if key.startswith("n:"):
        return "version" if key.count(".") == 1 else "number"
    return key[:1]
