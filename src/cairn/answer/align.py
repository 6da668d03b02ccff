"""Clause-level alignment of a claim with one evidence unit: covered words, numbers and their units, entity swaps, word order; finds candidate conflicts and reason codes."""

from __future__ import annotations

import difflib
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from cairn.answer.cjk_swap import one_slot_apart
from cairn.answer.contract import EvidenceSpan, SpanRef
from cairn.answer.evidence import (
    _ANTONYMS,
    _CONTEXT_RADIUS,
    _STRONG,
    _canon,
    _ClaimClause,
    _Clause,
    _is_content,
    _Match,
    _Unit,
)
from cairn.answer.normalise import _UNIT_TABLE
from cairn.text.numbers import UNITS
from cairn.text.stem import light_stem
from cairn.text.stopwords import CLAIM_STOPWORDS
from cairn.text.tokens import Token

# --------------------------------------------------------------------------- alignment


def _covered(s: str, stems: frozenset[str]) -> bool:
    if s in stems:
        return True
    if len(s) >= 5:
        for e in stems:
            if len(e) >= 5 and (e.startswith(s) or s.startswith(e)) and abs(len(e) - len(s)) <= 4:
                return True
    return False


def _context(tokens: Sequence[Token], k: int) -> set[str]:
    out: set[str] = set()
    units_after = {i + 1 for i, t in enumerate(tokens) if t.kind == "number" and t.unit}
    for j in range(max(0, k - _CONTEXT_RADIUS), min(len(tokens), k + _CONTEXT_RADIUS + 1)):
        t = tokens[j]
        if j != k and j not in units_after and _is_content(t):
            out.add(_canon(t.stem))
    return out


def _unit_ok(claim_num: Token, ev_num: Token, ev: _Clause) -> bool:
    if claim_num.unit is None or ev_num.unit == claim_num.unit:
        return True
    if ev_num.unit is None:
        return any(t.kind == "word" and UNITS.get(t.norm) == claim_num.unit for t in ev.tokens)
    return False


def _quantity(tokens: Sequence[Token], k: int) -> tuple[str, Fraction] | None:
    """Number ``k`` with its unit as (dimension, value in the base unit), when the unit
    converts exactly ("4.5 metres" and "450 centimetres", "500 t" and "500,000 kg")."""
    t = tokens[k]
    if t.value is None:
        return None
    name = t.unit
    if name is None and k + 1 < len(tokens) and tokens[k + 1].kind == "word":
        name = tokens[k + 1].norm
    spec = _UNIT_TABLE.get(name) if name else None
    if spec is None:
        return None
    return spec[0], Fraction(t.value).limit_denominator(10**6) * spec[1]


def _find_number(cc: _ClaimClause, k: int, ev: _Clause) -> int | None:
    """Index in ``ev.tokens`` of the occurrence that matches claim number ``k``."""
    num = cc.tokens[k]
    ctx = _context(cc.tokens, k)
    claim_q: tuple[str, Fraction] | None = None
    for j, t in enumerate(ev.tokens):
        if t.kind != "number" or t.value is None or num.value is None:
            continue
        if abs(t.value - num.value) > 1e-9 or not _unit_ok(num, t, ev):
            if claim_q is None:
                claim_q = _quantity(cc.tokens, k) or ("", Fraction(0))
            if not claim_q[0] or _quantity(ev.tokens, j) != claim_q:
                continue
        if ctx:
            ev_ctx = _context(ev.tokens, j)
            if not any(_covered(c, frozenset(ev_ctx)) for c in ctx):
                continue
        return j
    return None


def _is_year(t: Token) -> bool:
    return (
        t.value is not None
        and t.value.is_integer()
        and 1000 <= t.value <= 2100
        and t.unit is None
        and not t.ordinal
    )


def _conflicting_number(cc: _ClaimClause, k: int, ev: _Clause) -> Token | None:
    num = cc.tokens[k]
    ctx = _context(cc.tokens, k)
    for j, t in enumerate(ev.tokens):
        if t.kind != "number" or t.value == num.value:
            continue
        if _is_year(num) != _is_year(t):
            continue
        if num.unit is not None:
            if t.unit == num.unit:
                return t
        elif (
            t.unit is None
            and ctx
            and any(_covered(c, frozenset(_context(ev.tokens, j))) for c in ctx)
        ):
            return t
    return None


def _entity_swap(cc: _ClaimClause, missing: Sequence[str], ev: _Clause) -> str | None:
    """The evidence word that takes a missing entity's place between shared anchors."""
    a = [t.norm for t in cc.tokens if t.kind == "word"]
    b = [t.norm for t in ev.tokens if t.kind == "word"]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    ops = sm.get_opcodes()
    for idx, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag != "replace" or not any(w in missing for w in a[i1:i2]):
            continue
        anchored = (idx > 0 and ops[idx - 1][0] == "equal") or (
            idx + 1 < len(ops) and ops[idx + 1][0] == "equal"
        )
        repl = [w for w in b[j1:j2] if w not in CLAIM_STOPWORDS and w not in a]
        if anchored and repl and j2 - j1 <= 4 and one_slot_apart(a[i1:i2], b[j1:j2]):
            return " ".join(b[j1:j2])
    return None


def _match_clause(cc: _ClaimClause, ev: _Clause) -> tuple[_Match, dict[int, int]]:
    """Compare one claim clause with one evidence clause."""
    covered = [s for s in cc.required if _covered(s, ev.stems)]
    missing = [s for s in cc.required if s not in covered]
    coverage = len(covered) / len(cc.required) if cc.required else 1.0
    ent_missing = [e for e in cc.entities if e not in ev.norms]
    month_missing = [m for m in cc.months if m not in ev.months]
    positions: dict[int, int] = {}
    num_missing: list[int] = []
    for k, t in enumerate(cc.tokens):
        if t.kind == "number":
            j = _find_number(cc, k, ev)
            if j is None:
                num_missing.append(k)
            else:
                positions[k] = j
    claim_terms = set(covered) | {_canon(t.stem) for t in cc.tokens if t.kind != "word"}
    ev_negated = any(scope & claim_terms for scope in ev.negation_scopes)
    flip = cc.negated != ev_negated
    if not cc.required and not cc.numbers and not cc.months and not cc.entities:
        # Nothing to check in this clause (e.g. only a code span, checked per unit).
        return _Match(
            ev.support, False, "aligned" if ev.support else "no_content", 1.0, ev
        ), positions

    if not (missing or ent_missing or month_missing or num_missing or flip) and ev.support:
        return _Match(True, False, "aligned", 1.0, ev), positions

    # Contradiction: the rest of the clause matches strongly, one slot conflicts.
    def strong(excluded: int = 0) -> bool:
        total = len(cc.required) - excluded
        hit = len(covered)
        return total > 0 and hit / total >= _STRONG and hit >= min(2, total)

    entity_stems = {_canon(light_stem(e)) for e in ent_missing}
    if not ent_missing and not num_missing and not month_missing and flip and strong():
        return _Match(False, True, "negation_flip", coverage, ev, "polarity differs"), positions
    if not ent_missing and strong():
        for k in num_missing:
            other = _conflicting_number(cc, k, ev)
            if other is not None:
                reason = "date_mismatch" if _is_year(cc.tokens[k]) else "number_mismatch"
                return _Match(
                    False,
                    True,
                    reason,
                    coverage,
                    ev,
                    f"claim {cc.tokens[k].raw!r}, evidence {other.raw!r}",
                ), positions
        if month_missing and ev.months:
            return _Match(
                False,
                True,
                "date_mismatch",
                coverage,
                ev,
                f"claim {month_missing[0]!r}, evidence {sorted(ev.months)[0]!r}",
            ), positions
    if not ent_missing and not num_missing:
        # An opposite the claim states too is matched by its own word ("After X, wait a
        # day before giving blood" against a unit that says "after"): no concrete conflict.
        claim_stems = {_canon(t.stem) for t in cc.tokens}
        for s in missing:
            opp = {o for o in _ANTONYMS.get(s, frozenset()) & ev.stems if o not in claim_stems}
            if opp and strong(1):
                return _Match(
                    False,
                    True,
                    "antonym",
                    coverage,
                    ev,
                    f"claim {s!r}, evidence {sorted(opp)[0]!r}",
                ), positions
    if ent_missing and not num_missing:
        rest = [s for s in missing if s not in entity_stems]
        if not rest and strong(len(entity_stems & set(cc.required))):
            other_name = _entity_swap(cc, ent_missing, ev)
            if other_name and _dates_conflict(ent_missing[0], other_name):
                is_date = bool(_DATE_TOKEN_RE.fullmatch(ent_missing[0]))
                return _Match(
                    False,
                    True,
                    "date_mismatch" if is_date else "entity_mismatch",
                    coverage,
                    ev,
                    f"claim {_shown(ent_missing[0])!r}, evidence {_shown(other_name)!r}",
                ), positions

    if ent_missing:
        reason, detail = "entity_missing", ent_missing[0]
    elif num_missing:
        reason, detail = "number_missing", cc.tokens[num_missing[0]].raw
    elif month_missing:
        reason, detail = "date_missing", month_missing[0]
    elif missing:
        reason, detail = ("content_missing" if covered else "no_overlap"), ", ".join(missing[:4])
    else:
        reason, detail = "content_missing", "polarity differs"
    return _Match(False, False, reason, coverage, ev, detail), positions


_DATE_TOKEN_RE = re.compile(r"d\d{8}|m\d{6}")


def _dates_conflict(claimed: str, other: str) -> bool:
    """Whether ``other`` (the evidence's words in the place of the claim's entity
    ``claimed``) is a concrete conflict, as far as dates go (session 19, lead): a claim's
    date conflicts only with another date, never with words that hold no date ("4月起"
    read without its year) or with a date that contains it or that it contains (30 April
    2027 against "the end of April 2027"). An entity that holds no date, or a glued CJK
    run that holds more than a date and a particle and differs from the evidence's in more
    than its date ("第4版自…起施行" against "第3版，自…起施行"), is unaffected."""
    mine = _DATE_TOKEN_RE.search(claimed)
    if mine is None:
        return True
    rest_mine = _DATE_REST_RE.sub("", _DATE_TOKEN_RE.sub("", claimed))
    if len(rest_mine) > 2 and rest_mine != _DATE_REST_RE.sub("", _DATE_TOKEN_RE.sub("", other)):
        return True  # more than a date and a particle (起, 前, 까지): compared as before
    theirs = [m.group(0)[1:] for m in _DATE_TOKEN_RE.finditer(other)]
    day = mine.group(0)[1:]
    return bool(theirs) and not any(day.startswith(t) or t.startswith(day) for t in theirs)


#: What a CJK run's date leaves when it is written without its year or day: digits, 年月日号.
_DATE_REST_RE = re.compile(r"[\d\s年月日号]")


def _shown(word: str) -> str:
    """A normalised date token as an ISO date (``d20260201`` -> ``2026-02-01``)."""
    if _DATE_TOKEN_RE.fullmatch(word):
        d = word[1:]
        return "-".join(p for p in (d[:4], d[4:6], d[6:8]) if p)
    return word


def _order_ok(cc: _ClaimClause, positions: dict[int, int], ev: _Clause) -> bool:
    """Numbers that share a unit (or have none) keep their relative order.

    Only distinct values that occur once in the evidence clause are compared, so the
    check never depends on which of two equal numbers was picked."""
    counts: dict[float | None, int] = {}
    for t in ev.tokens:
        if t.kind == "number":
            counts[t.value] = counts.get(t.value, 0) + 1
    claim_counts: dict[float | None, int] = {}
    for t in cc.tokens:
        if t.kind == "number":
            claim_counts[t.value] = claim_counts.get(t.value, 0) + 1
    ks = sorted(
        k
        for k in positions
        if counts.get(cc.tokens[k].value) == 1 and claim_counts.get(cc.tokens[k].value) == 1
    )
    for x in range(len(ks)):
        for y in range(x + 1, len(ks)):
            u1, u2 = cc.tokens[ks[x]].unit, cc.tokens[ks[y]].unit
            if (
                (u1 == u2 or u1 is None or u2 is None)
                and positions[ks[x]] > positions[ks[y]]
                and cc.tokens[ks[x]].value != cc.tokens[ks[y]].value
            ):
                return False
    return True


@dataclass(frozen=True, slots=True)
class _UnitResult:
    unit: _Unit
    ok: bool
    contradiction: bool
    reason: str
    score: float
    clauses: tuple[_Clause, ...]
    detail: str


def _match_unit(parts: list[_ClaimClause], codes: list[str], unit: _Unit) -> _UnitResult:
    best: list[_Match] = []
    for cc in parts:
        cand: list[tuple[_Match, dict[int, int]]] = [_match_clause(cc, ev) for ev in unit.clauses]
        oks = [(m, p) for m, p in cand if m.ok]
        ordered = [(m, p) for m, p in oks if m.clause is not None and _order_ok(cc, p, m.clause)]
        if ordered:
            best.append(ordered[0][0])
            continue
        if oks:
            best.append(
                _Match(
                    False, True, "number_order", 1.0, oks[0][0].clause, "numbers in swapped roles"
                )
            )
            continue
        best.append(max((m for m, _ in cand), key=lambda m: (m.contradiction, m.coverage)))
    used = tuple(m.clause for m in best if m.clause is not None)
    if all(m.ok for m in best):
        missing_code = [
            c for c in codes if c not in unit.flat and not any(p.fullmatch(c) for p in unit.codes)
        ]
        if missing_code:
            return _UnitResult(unit, False, False, "code_missing", 0.9, used, missing_code[0])
        return _UnitResult(unit, True, False, "aligned", 1.0, used, "")
    contra = [m for m in best if m.contradiction]
    score = sum(m.coverage for m in best) / len(best)
    if contra:
        return _UnitResult(
            unit,
            False,
            True,
            contra[0].reason,
            score,
            tuple(m.clause for m in contra if m.clause),
            contra[0].detail,
        )
    worst = next(m for m in best if not m.ok)
    return _UnitResult(unit, False, False, worst.reason, score, used, worst.detail)


def _span_ref(span: EvidenceSpan, clauses: Sequence[_Clause], unit: _Unit) -> SpanRef:
    text = span.text
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    a = min((c.start for c in clauses), default=unit.start)
    b = max((c.end for c in clauses), default=unit.end)
    la = bisect_right(starts, a) - 1
    lb = bisect_right(starts, max(a, b - 1)) - 1
    lines = text.split("\n")
    quote = "\n".join(lines[la : lb + 1])
    return SpanRef(span.evidence_id, span.start_line + la, span.start_line + lb, quote)


def _ref(r: _UnitResult, spans: Sequence[EvidenceSpan]) -> SpanRef:
    return _span_ref(spans[r.unit.span_index], r.clauses, r.unit)
