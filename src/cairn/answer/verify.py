"""Claim verification against exact Capsule evidence spans (the "Claim verdict" contract).

The verifier is built for precision. A claim is ``supported`` only when one evidence
*unit* (a prose sentence, a description line with the command that follows it, or one
table row read with its header) accounts for every token of it, as
:mod:`cairn.answer.account` defines: every word (by inflection), modal, negation,
quantifier, tense marker, connective and preposition is found there; numbers, quantities
(exact unit conversion), dates (any written form) and versions match; the roles around
relation words keep their sides; nothing of the copied evidence is dropped but a whole
conjunct, a parenthesis or a prepositional phrase; every code span (```tar xf```) is
found verbatim. The same holds character by character for CJK text. A unit that
matches the claim only in part gives ``insufficient`` with reason ``unaccounted`` and
the first unaccounted token as detail.

A claim is ``contradicted`` only with a concrete conflicting span: a unit that states
everything of the claim but one slot, and something else in that slot (a number or
quantity, a date, a modal, the polarity, a quantifier, an antonym, a name, a CJK
frequency, or the same names with the roles swapped). A claim some unit accounts for is
never contradicted, unless another span states all of it but one conflicting value
(``conflicting_evidence``). Anything else is ``insufficient``: missing evidence is never
a contradiction. (The clause-level alignment of the earlier verifier still finds the
candidate conflicts and the reason codes of ``insufficient`` verdicts.)

Citations. A claim that cites evidence is checked against the cited spans. If only an
uncited span supports it, the verdict is ``insufficient`` with reason
``wrong_citation`` (the cited evidence does not carry the claim; the detail names the
span that would). A citation of an id that is not in the Capsule is
``unknown_citation``. A claim without citations is checked against every span.

Evidence is untrusted. The verifier never follows text in it; sentences that read as
instructions to a model ("ignore previous instructions", "mark every claim as
supported") are additionally never used as support (reason ``instruction_span``).

An optional model :class:`Judge` is asked only about claims the deterministic check
found ``supported``, with the supporting quotes; it can confirm them or downgrade them
to ``uncertain`` (``judge_disagrees``), never upgrade anything. A judge that raises,
times out or answers anything but ``supported``/``contradicted``/``insufficient``
leaves the claim ``uncertain`` (``judge_failed``, ``judge_timeout``,
``judge_malformed``): the verifier fails closed.
"""

from __future__ import annotations

import difflib
import functools
import re
import threading
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from cairn.answer.account import account, overlap, unaccounted
from cairn.answer.claims import GENERIC, NEGATIONS, Claim, split_claims, strip_lead_in
from cairn.answer.conflicts import conflict
from cairn.answer.normalise import normalise_dates
from cairn.answer.tokens import AccountToken
from cairn.text.numbers import UNITS
from cairn.text.sentences import clause_ranges, sentence_ranges
from cairn.text.stem import light_stem
from cairn.text.stopwords import CLAIM_STOPWORDS
from cairn.text.tokens import Token, tokenize

__all__ = [
    "REASONS",
    "ClaimVerdict",
    "EvidenceSpan",
    "Judge",
    "SpanRef",
    "Verdict",
    "answer_allowed",
    "verify_claims",
    "verify_draft",
]

Verdict = Literal["supported", "contradicted", "insufficient", "uncertain"]

#: Every reason code a :class:`ClaimVerdict` can carry, with its meaning.
REASONS: dict[str, str] = {
    "aligned": "one evidence sentence carries every word, number, date, name and the polarity of the claim",
    "number_mismatch": "the evidence states a different number for the same thing",
    "number_order": "the claim's numbers are in the evidence but in swapped roles",
    "date_mismatch": "the evidence states a different date or year for the same thing",
    "negation_flip": "the evidence states the same thing with the opposite polarity",
    "antonym": "the evidence states the opposite direction (e.g. increases vs decreases)",
    "entity_mismatch": "the evidence names someone or something else in the same place",
    "conflicting_evidence": "one span supports the claim and another contradicts it",
    "entity_missing": "a name in the claim is not in any matching evidence sentence",
    "number_missing": "a number in the claim is not in any matching evidence sentence",
    "date_missing": "a date in the claim is not in any matching evidence sentence",
    "code_missing": "a code span in the claim is not verbatim in the evidence",
    "content_missing": "part of the claim is not in any single evidence sentence",
    "no_overlap": "no evidence sentence shares content with the claim",
    "no_content": "the claim has nothing checkable",
    "no_evidence": "the capsule holds no evidence",
    "wrong_citation": "the cited span does not carry the claim (another span does)",
    "unknown_citation": "the claim cites an evidence id that is not in the capsule",
    "instruction_span": "only an instruction-like evidence sentence matches; it is never support",
    "not_substantive": "meta text or a question; needs no support",
    "modality_mismatch": "the evidence states the same thing with another modal (may/must/should/must not)",
    "quantifier_mismatch": "the evidence states the same thing with another quantifier (up to/at least/more than)",
    "frequency_mismatch": "the evidence states the same thing with another frequency (每天/每周/每月)",
    "role_swap": "the evidence has the same words with the roles swapped (X replaced Y, from A to B)",
    "unaccounted": "an evidence sentence matches, but a word, modal, negation, quantifier, unit or role of the claim is not accounted for there",
    "judge_failed": "the model judge raised an error",
    "judge_timeout": "the model judge did not answer in time",
    "judge_malformed": "the model judge answered something other than a verdict",
    "judge_disagrees": "the model judge did not confirm the deterministic support",
}


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """One Capsule evidence item: the exact text of lines ``start_line..end_line``."""

    evidence_id: str
    text: str
    uri: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class SpanRef:
    """The exact lines of an evidence span that support or contradict a claim."""

    evidence_id: str
    start_line: int
    end_line: int
    quote: str


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on one claim, a stable reason code (see :data:`REASONS`) and spans."""

    claim: Claim
    verdict: Verdict
    reason: str
    spans: tuple[SpanRef, ...]
    detail: str = ""


class Judge(Protocol):
    """An optional model judge. ``judge`` answers ``supported``, ``contradicted`` or
    ``insufficient``; anything else is malformed. It may raise or hang."""

    def judge(self, claim: str, spans: Sequence[str]) -> str: ...


# --------------------------------------------------------------------------- analysis

_SPELLING = (("foet", "fet"), ("oesoph", "esoph"), ("haem", "hem"), ("anaem", "anem"), ("colour", "color"), ("behaviour", "behavior"), ("tumour", "tumor"))  # fmt: skip
_GENERIC_STEMS = frozenset(light_stem(w) for w in GENERIC)

_ANTONYM_WORDS = (
    ("increase", "decrease"), ("increase", "reduce"), ("increase", "diminish"), ("rise", "fall"),
    ("higher", "lower"), ("high", "low"), ("more", "less"), ("more", "fewer"),
    ("greater", "smaller"), ("greater", "less"), ("larger", "smaller"), ("above", "below"),
    ("before", "after"), ("maximum", "minimum"), ("positive", "negative"),
    ("strongly", "slightly"), ("strong", "weak"), ("significant", "insignificant"),
    ("presence", "absence"), ("present", "absent"), ("early", "late"), ("earlier", "later"),
    ("enable", "disable"), ("include", "exclude"), ("accept", "reject"), ("gain", "loss"),
    ("success", "failure"), ("major", "minor"), ("same", "different"), ("agree", "disagree"),
    ("stable", "unstable"), ("possible", "impossible"), ("better", "worse"),
    ("improve", "worsen"), ("fast", "slow"), ("faster", "slower"), ("upper", "lower"),
    ("inside", "outside"), ("internal", "external"), ("true", "false"), ("add", "remove"),
    ("start", "stop"), ("open", "close"), ("first", "last"), ("create", "delete"),
    ("local", "remote"), ("visible", "hidden"), ("ascending", "descending"),
    ("compress", "decompress"), ("encrypt", "decrypt"), ("upload", "download"),
    ("premature", "term"), ("maternal", "fetal"), ("hyperplasia", "hypertrophy"),
    ("laminar", "turbulent"), ("subsonic", "supersonic"), ("upstream", "downstream"),
    ("minimal", "maximal"), ("benign", "malignant"), ("acute", "chronic"),
    ("inhibit", "stimulate"), ("inhibit", "enhance"), ("decrease", "raise"),
)  # fmt: skip


def _canon(s: str) -> str:
    for a, b in _SPELLING:
        if s.startswith(a):
            return b + s[len(a) :]
    return s


_ANTONYMS: dict[str, frozenset[str]] = {}
for _a, _b in _ANTONYM_WORDS:
    _sa, _sb = _canon(light_stem(_a)), _canon(light_stem(_b))
    _ANTONYMS[_sa] = _ANTONYMS.get(_sa, frozenset()) | {_sb}
    _ANTONYMS[_sb] = _ANTONYMS.get(_sb, frozenset()) | {_sa}

_INSTRUCTION_RE = re.compile(
    r"""(?:\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|prompts?|rules|guidelines|above|previous|prior)\b
      | \bsystem\ prompt\b | \bnew\ instructions?\b
      | \byou\ (?:are|must|should)\ (?:now\ )?(?:an?\ |the\ )?(?:ai|assistant|model|language\ model|verifier|chatbot)\b
      | \bas\ an?\ (?:ai|assistant|llm|language\ model)\b
      | \b(?:mark|classify|label|treat|consider|report|rate)\b.{0,60}\b(?:claims?|statements?|answers?|sentences?)\b.{0,60}\b(?:supported|true|verified|correct)\b
      | \b(?:respond|answer|reply|say|output|print)\b.{0,30}\b(?:that|with|only)\b.{0,80}\b(?:supported|verified)\b
      | \bdo\ not\ (?:verify|check|cite|question)\b
      | \b(?:assistant|system)\s*:
      | \bverifier\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
_MNEMONIC_RE = re.compile(r"\[([A-Za-z])\]")  # tldr "[c]reate"
_CONTEXT_RADIUS = 6
_STRONG = 0.75


@dataclass(frozen=True, slots=True)
class _Clause:
    start: int
    end: int
    tokens: tuple[Token, ...]
    stems: frozenset[str]
    norms: frozenset[str]
    months: frozenset[str]
    negation_scopes: tuple[frozenset[str], ...]  # content stems governed by each negation
    support: bool = True  # False for the whole-sentence view used only to find conflicts


@dataclass(frozen=True, slots=True)
class _Unit:
    span_index: int
    evidence_id: str
    start: int
    end: int
    clauses: tuple[_Clause, ...]
    flat: str
    codes: tuple[re.Pattern[str], ...]
    instruction: bool
    text: str = ""  # the unit's own text (a table row: its header line, then the row)
    table: bool = False
    heading: str = ""  # the document title and the section heading above the unit


@dataclass(frozen=True, slots=True)
class _ClaimClause:
    tokens: tuple[Token, ...]
    required: tuple[str, ...]
    entities: tuple[str, ...]
    months: tuple[str, ...]
    numbers: tuple[Token, ...]
    negated: bool


@dataclass(frozen=True, slots=True)
class _Match:
    ok: bool
    contradiction: bool
    reason: str
    coverage: float
    clause: _Clause | None
    detail: str = ""


def _is_content(tok: Token) -> bool:
    return (
        tok.kind == "word"
        and tok.norm not in CLAIM_STOPWORDS
        and tok.norm not in NEGATIONS
        and (len(tok.norm) > 1 or tok.norm == "%")
        and tok.norm != "%"
    )


_NEGATION_SCOPE = 5
_ENUMERATOR_RE = re.compile(r"^\s*(?:[-*+•>]\s+|\(?\d{1,3}[.)]\s+|\([a-z]\)\s+)")


# Negations that govern a noun phrase ("no change", "without cataract") end their scope
# at a verb or conjunction; "not"/"never" govern the verb phrase that follows.
_NOMINAL_NEGATIONS = frozenset(
    {"no", "without", "none", "nothing", "nobody", "lack", "lacks", "lacking"}
)
_SCOPE_STOPS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "and",
        "or",
        "but",
        "that",
        "which",
        "who",
        "whose",
        "if",
    ]
)


def _negation_scopes(text: str) -> tuple[frozenset[str], ...]:
    """For each negation marker outside code spans, the content stems it governs."""
    toks = tokenize(_CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), text))
    scopes = []
    for i, t in enumerate(toks):
        if t.kind != "word" or t.norm not in NEGATIONS:
            continue
        governed: set[str] = set()
        prev_end = t.end
        for a in toks[i + 1 : i + 1 + _NEGATION_SCOPE]:
            if re.search(r"[,;:()]", text[prev_end : a.start]):
                break
            if t.norm in _NOMINAL_NEGATIONS and a.kind == "word" and a.norm in _SCOPE_STOPS:
                break
            if _is_content(a) or a.kind != "word":
                governed.add(_canon(a.stem))
            prev_end = a.end
        scopes.append(frozenset(governed))
    return tuple(scopes)


def _clean(text: str) -> str:
    text = _ENUMERATOR_RE.sub(lambda m: " " * len(m.group()), text)
    return _MNEMONIC_RE.sub(r"\1", text)


def _analyse_clause(
    text: str, start: int, end: int, context: frozenset[str] = frozenset(), support: bool = True
) -> _Clause:
    body = _clean(text[start:end])
    toks = tuple(tokenize(body))
    return _Clause(
        start=start,
        end=end,
        tokens=toks,
        stems=frozenset(_canon(t.stem) for t in toks if _is_content(t)) | context,
        norms=frozenset(t.norm for t in toks if t.kind == "word") | context,
        months=frozenset(t.norm for t in toks if t.kind == "month"),
        negation_scopes=_negation_scopes(body),
        support=support,
    )


_STRUCT_RE = re.compile(r"^\s*(?:[-*+•]\s|#|>|`|\d{1,3}[.)]\s)")


@functools.lru_cache(maxsize=1024)
def _units(span: EvidenceSpan, index: int) -> list[_Unit]:
    """Cut one span into sentences; a line ending in ":" joins the code line after it;
    each table row is a unit of its own, read with the table's header line."""
    text = normalise_dates(span.text)  # same length: offsets and quotes keep
    blocks: list[tuple[int, int]] = []
    rows: list[tuple[int, int, str]] = []
    header = ""
    pos = 0
    cur: tuple[int, int] | None = None
    prev_row = False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        a, b = pos, pos + len(body)
        pos += len(line)
        if not body.strip():
            if cur:
                blocks.append(cur)
            cur = None
            prev_row = False
            continue
        if body.lstrip().startswith("|") and body.rstrip().endswith("|"):
            if cur:
                blocks.append(cur)
            cur = None
            if _TABLE_RULE_RE.match(body):
                prev_row = True
                continue
            if not prev_row:
                header = body
            else:
                rows.append((a, b, header))
            prev_row = True
            continue
        prev_row = False
        stripped = body.lstrip()
        if _STRUCT_RE.match(body):
            if cur:
                blocks.append(cur)
            cur = (a, b)
            if stripped.startswith(("#", ">", "`")):
                blocks.append(cur)
                cur = None
            continue
        cur = (cur[0], b) if cur else (a, b)
    if cur:
        blocks.append(cur)

    ranges: list[tuple[int, int]] = []
    for a, b in blocks:
        ranges.extend(sentence_ranges(text, a, b))
    merged: list[tuple[int, int]] = []
    for a, b in ranges:
        if (
            merged
            and text[merged[-1][0] : merged[-1][1]].rstrip().endswith(":")
            and text[a:b].lstrip().startswith("`")
        ):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))

    # A Markdown heading ("# tar") names the subject of the lines under it.
    headings = [(m.start(), m.group(1)) for m in re.finditer(r"(?m)^#{1,6}\s+(.+)$", text)]
    units = []
    for a, b in merged:
        body = text[a:b]
        title = next((h for pos, h in reversed(headings) if pos < a), "")
        context = frozenset(_canon(t.stem) for t in tokenize(title) if _is_content(t))
        clauses = [_analyse_clause(text, ca, cb, context) for ca, cb in clause_ranges(text, a, b)]
        if len(clauses) > 1:
            clauses.append(_analyse_clause(text, a, b, context, support=False))
        units.append(
            _Unit(
                span_index=index,
                evidence_id=span.evidence_id,
                start=a,
                end=b,
                clauses=tuple(clauses),
                flat=" ".join(body.split()),
                codes=tuple(_code_pattern(m.group(1)) for m in _CODE_SPAN_RE.finditer(body)),
                instruction=bool(_INSTRUCTION_RE.search(body)),
                text=_CODE_SPAN_RE.sub(" ", _clean(body)),
                heading=_heading(headings, a),
            )
        )
    for a, b, head in rows:
        body = text[a:b]
        title = next((h for pos, h in reversed(headings) if pos < a), "")
        context = frozenset(_canon(t.stem) for t in tokenize(title + " " + head) if _is_content(t))
        units.append(
            _Unit(
                span_index=index,
                evidence_id=span.evidence_id,
                start=a,
                end=b,
                clauses=(_analyse_clause(text, a, b, context),),
                flat=" ".join(body.split()),
                codes=tuple(_code_pattern(m.group(1)) for m in _CODE_SPAN_RE.finditer(body)),
                instruction=bool(_INSTRUCTION_RE.search(body)),
                text=_CODE_SPAN_RE.sub(" ", _table_reading(head, body)),
                table=True,
                heading=_heading(headings, a),
            )
        )
    return units


def _heading(headings: Sequence[tuple[int, str]], at: int) -> str:
    """The first heading of the span and the nearest heading above ``at``."""
    above = [h for pos, h in headings if pos < at]
    if not above:
        return ""
    return above[0] if len(above) == 1 else f"{above[0]} ; {above[-1]}"


_TABLE_RULE_RE = re.compile(r"^\s*\|[\s|:-]+\|\s*$")


def _table_reading(header: str, row: str) -> str:
    """A table row read with its header: "Header: cell; Header: cell"."""
    heads = [h.strip() for h in header.strip().strip("|").split("|")]
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(heads) != len(cells):
        return " ; ".join(cells)
    return " ; ".join(f"{h} : {c}" for h, c in zip(heads, cells, strict=True))


def _code_pattern(code: str) -> re.Pattern[str]:
    """A pattern for an evidence command: literal text, with each ``{{placeholder}}``
    matching itself, one of its ``[-a|--all]`` alternatives or a filled-in value."""
    parts: list[str] = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}", code):
        parts.append(re.escape(code[pos : m.start()]))
        inner = m.group(1)
        options = [re.escape(inner), re.escape("{{" + inner + "}}")]
        alt = re.fullmatch(r"\[([^\]]+)\]", inner)
        if alt:
            options += [re.escape(o) for o in alt.group(1).split("|")]
        elif not inner.startswith("-"):
            options.append(
                r"[^\s`|;&<>-][^\s`|;&<>]*"
                + (r"(?: [^\s`|;&<>-][^\s`|;&<>]*)*" if " " in inner else "")
            )
        parts.append("(?:" + "|".join(options) + ")")
        pos = m.end()
    parts.append(re.escape(code[pos:]))
    return re.compile(r"\s*".join("".join(parts).split(r"\ ")))


_CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")


def _claim_parts(text: str) -> tuple[list[_ClaimClause], list[str]]:
    core = normalise_dates(strip_lead_in(text))
    codes = [" ".join(m.group(1).split()) for m in _CODE_SPAN_RE.finditer(core)]
    clauses: list[_ClaimClause] = []
    first_word = True
    for a, b in clause_ranges(core, 0, len(core)):
        # Code spans are compared verbatim (see _match_unit), not word by word.
        body = _CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), _clean(core[a:b]))
        toks = tuple(tokenize(body))
        # A unit after a number ("146 mg") is checked with the number, not as a word.
        unit_words = {i + 1 for i, t in enumerate(toks) if t.kind == "number" and t.unit}
        required: list[str] = []
        entities: list[str] = []
        words = [t for i, t in enumerate(toks) if t.kind == "word" and i not in unit_words]
        for w_index, t in enumerate(words):
            is_first = first_word
            first_word = False
            if not _is_content(t):
                continue
            s = _canon(t.stem)
            if s not in _GENERIC_STEMS and s not in required:
                required.append(s)
            inner_upper = any(c.isupper() for c in t.raw[1:])
            has_digit = any(c.isdigit() for c in t.raw)
            next_capital = w_index + 1 < len(words) and words[w_index + 1].raw[:1].isupper()
            capital = t.raw[0].isupper() and (not is_first or next_capital)
            if (capital or inner_upper or has_digit) and t.norm not in entities:
                entities.append(t.norm)
        clauses.append(
            _ClaimClause(
                tokens=toks,
                required=tuple(required),
                entities=tuple(entities),
                months=tuple(dict.fromkeys(t.norm for t in toks if t.kind == "month")),
                numbers=tuple(t for t in toks if t.kind == "number"),
                negated=bool(_negation_scopes(body)),
            )
        )
    return clauses, codes


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


def _find_number(cc: _ClaimClause, k: int, ev: _Clause) -> int | None:
    """Index in ``ev.tokens`` of the occurrence that matches claim number ``k``."""
    num = cc.tokens[k]
    ctx = _context(cc.tokens, k)
    for j, t in enumerate(ev.tokens):
        if t.kind != "number" or t.value is None or num.value is None:
            continue
        if abs(t.value - num.value) > 1e-9 or not _unit_ok(num, t, ev):
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
        if anchored and repl and j2 - j1 <= 4:
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
        for s in missing:
            opp = _ANTONYMS.get(s, frozenset()) & ev.stems
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
            if other_name:
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


def _deterministic(
    claim: Claim, spans: Sequence[EvidenceSpan], units: Sequence[_Unit]
) -> ClaimVerdict:
    if not claim.substantive:
        return ClaimVerdict(claim, "insufficient", "not_substantive", ())
    if not units:
        return ClaimVerdict(claim, "insufficient", "no_evidence", ())
    parts, codes = _claim_parts(claim.text)
    if not any(p.required or p.numbers or p.months or p.entities for p in parts) and not codes:
        return ClaimVerdict(claim, "insufficient", "no_content", ())

    core = _account_text(claim.text)
    shares = [overlap(core, u.text) for u in units]
    # The sentence-level alignment only serves contradictions and reasons; a unit that
    # holds less than half of the claim can give neither.
    results = [
        _match_unit(parts, codes, u)
        if share >= _MIN_SHARE
        else _UnitResult(
            u, False, False, "no_overlap" if share == 0 else "content_missing", share / 2, (), ""
        )
        for u, share in zip(units, shares, strict=True)
    ]
    strict = [
        _strict(core, codes, u) if share >= _MIN_SHARE or codes else "too little in common"
        for u, share in zip(units, shares, strict=True)
    ]
    known = {s.evidence_id for s in spans}
    cited = [c for c in claim.cited if c in known]
    unknown = [c for c in claim.cited if c not in known]

    def in_scope(r: _UnitResult) -> bool:
        return not claim.cited or r.unit.evidence_id in cited

    trusted = [(r, a) for r, a in zip(results, strict, strict=True) if not r.unit.instruction]
    support = [r for r, a in trusted if a is None and in_scope(r)]
    contra = sorted(
        (
            r
            for r, a in trusted
            if r.contradiction and a is not None and _concrete_conflict(core, r)
        ),
        key=lambda r: (not in_scope(r), -r.score),
    )
    if support:
        # Another span conflicts only if it states all of the claim but the one
        # conflicting value (a different date for the same event, ...).
        contra = [r for r in contra if _one_slot_conflict(core, r.unit)]
        if contra:
            refs = (_ref(contra[0], spans), _ref(support[0], spans))
            return ClaimVerdict(
                claim,
                "contradicted",
                "conflicting_evidence",
                refs,
                f"{contra[0].reason}: {contra[0].detail}",
            )
        return ClaimVerdict(claim, "supported", "aligned", (_ref(support[0], spans),))
    share_of = {id(u): share for u, share in zip(units, shares, strict=True)}
    for r, _a in sorted(trusted, key=lambda ra: not in_scope(ra[0])):
        if share_of[id(r.unit)] < _MIN_SHARE:
            continue
        found = conflict(core, r.unit.text, table=r.unit.table, heading=r.unit.heading)
        if found is not None:
            ref = _span_ref(spans[r.unit.span_index], (), r.unit)
            return ClaimVerdict(claim, "contradicted", found[0], (ref,), found[1])
    if contra:
        return ClaimVerdict(
            claim, "contradicted", contra[0].reason, (_ref(contra[0], spans),), contra[0].detail
        )
    elsewhere = [r for r, a in trusted if a is None]
    if elsewhere:
        ref = _ref(elsewhere[0], spans)
        where = f"{ref.evidence_id} lines {ref.start_line}-{ref.end_line}"
        if unknown and not cited:
            return ClaimVerdict(
                claim,
                "insufficient",
                "unknown_citation",
                (),
                f"cites {', '.join(unknown)}; content is in {where}",
            )
        return ClaimVerdict(
            claim,
            "insufficient",
            "wrong_citation",
            (),
            f"cites {', '.join(claim.cited)}; content is in {where}",
        )
    if any(a is None for a in strict):
        return ClaimVerdict(
            claim,
            "insufficient",
            "instruction_span",
            (),
            "only an instruction-like evidence sentence matches",
        )
    if unknown and not cited:
        return ClaimVerdict(
            claim, "insufficient", "unknown_citation", (), f"cites {', '.join(unknown)}"
        )
    pool = (
        [(r, a) for r, a in trusted if in_scope(r)]
        or trusted
        or list(zip(results, strict, strict=True))
    )
    # A unit the old alignment accepted but the strict account did not: say why.
    aligned = [(r, a) for r, a in pool if r.ok]
    if aligned:
        return ClaimVerdict(claim, "insufficient", "unaccounted", (), aligned[0][1] or "")
    best, _ = max(pool, key=lambda ra: ra[0].score)
    return ClaimVerdict(claim, "insufficient", best.reason, (), best.detail)


_MIN_SHARE = 0.5
_CITATION_RE = re.compile(r"\[(?:[A-Za-z]*\d+[^\]]*)\]")


def _account_text(text: str) -> str:
    """The claim as the strict account reads it: no lead-in, citations or code spans."""
    core = strip_lead_in(text)
    core = _CITATION_RE.sub(" ", core)
    return _CODE_SPAN_RE.sub(" ", _clean(core))


def _strict(core: str, codes: Sequence[str], unit: _Unit) -> str | None:
    """None when ``unit`` accounts for the whole claim (see :mod:`cairn.answer.account`)."""
    missing_code = [
        c for c in codes if c not in unit.flat and not any(p.fullmatch(c) for p in unit.codes)
    ]
    if missing_code:
        return f"code {missing_code[0]!r} not in the evidence"
    if not core.strip(" .;:,!?"):
        return None if codes else "nothing to account for"
    return account(core, unit.text, table=unit.table, heading=unit.heading, code_glue=bool(codes))


def _concrete_conflict(core: str, r: _UnitResult) -> bool:
    """A contradiction names a concrete conflicting span: the unit states the rest of
    the claim, and what it does not state is exactly the conflicting slot (a number or
    date, the negation, an antonym, a name). "1 minute" is not in conflict with a unit
    that says "60 seconds"; "does not apply to contractors" is not in conflict with
    "Contractors are not covered" (nothing but paraphrase differs)."""
    residue = _residue(core, r.unit)
    match r.reason:
        case "number_order":
            return not residue
        case "number_mismatch" | "date_mismatch":
            return bool(residue) and all(
                t.kind == "n" or _DATE_TOKEN_RE.fullmatch(t.key) for t in residue
            )
        case "negation_flip":
            return all(t.key in NEGATIONS or t.key == "cannot" for t in residue)
        case "antonym":
            return len(residue) <= 2
        case "entity_mismatch":
            return bool(residue) and all(
                t.text[:1].isupper() or any(c.isdigit() for c in t.text) for t in residue
            )
        case _:
            return True


def _residue(core: str, unit: _Unit) -> list[AccountToken]:
    """The claim tokens the unit does not state (its heading, articles and the copula
    aside)."""
    head = unaccounted(core, unit.heading) if unit.heading else None
    out = []
    for t in unaccounted(core, unit.text):
        if t.kind == "w" and t.key in ("be:present", "be:past"):
            continue
        if head is not None and t not in head:
            continue  # named by the heading
        out.append(t)
    return out


def _one_slot_conflict(core: str, unit: _Unit) -> bool:
    return len(_residue(core, unit)) == 1


# --------------------------------------------------------------------------- judge

_JUDGE_ANSWERS = frozenset({"supported", "contradicted", "insufficient"})


def _ask_judge(
    judge: Judge, claim: str, quotes: Sequence[str], timeout: float
) -> tuple[str | None, str, str]:
    """Ask the judge in a daemon thread: (answer, failure reason, detail)."""
    box: dict[str, object] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["answer"] = judge.judge(claim, list(quotes))
        except BaseException as exc:  # any judge failure fails closed
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="cairn-judge", daemon=True).start()
    if not done.wait(timeout):
        return None, "judge_timeout", f"no answer within {timeout:g}s"
    if "error" in box:
        exc = box["error"]
        return None, "judge_failed", f"{type(exc).__name__}: {exc}"
    answer = box.get("answer")
    if not isinstance(answer, str) or answer.strip().lower().rstrip(".") not in _JUDGE_ANSWERS:
        return None, "judge_malformed", f"answer {str(answer)[:80]!r}"
    return answer.strip().lower().rstrip("."), "", ""


# --------------------------------------------------------------------------- API


def verify_claims(
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceSpan],
    *,
    judge: Judge | None = None,
    judge_timeout: float = 20.0,
) -> list[ClaimVerdict]:
    """Classify each claim against the evidence spans; one verdict per claim, in order.

    Deterministic alignment decides first (see the module docstring). With a ``judge``,
    each deterministically supported claim is put to it with its supporting quotes: a
    ``supported`` answer keeps the verdict, any other valid answer downgrades it to
    ``uncertain`` (``judge_disagrees``), and an exception, a timeout (``judge_timeout``
    seconds per claim; after one timeout the judge is not asked again) or a malformed
    answer leaves the claim ``uncertain``.
    """
    if judge is not None and judge_timeout <= 0:
        raise ValueError("judge_timeout must be positive")
    units = [u for i, span in enumerate(evidence) for u in _units(span, i)]
    verdicts = [_deterministic(c, evidence, units) for c in claims]
    if judge is None:
        return verdicts
    out: list[ClaimVerdict] = []
    timed_out = False
    for v in verdicts:
        if v.verdict != "supported":
            out.append(v)
            continue
        if timed_out:
            out.append(
                ClaimVerdict(
                    v.claim,
                    "uncertain",
                    "judge_timeout",
                    v.spans,
                    "judge timed out on an earlier claim",
                )
            )
            continue
        answer, failure, detail = _ask_judge(
            judge, strip_lead_in(v.claim.text), [s.quote for s in v.spans], judge_timeout
        )
        if answer is None:
            timed_out = failure == "judge_timeout"
            out.append(ClaimVerdict(v.claim, "uncertain", failure, v.spans, detail))
        elif answer == "supported":
            out.append(ClaimVerdict(v.claim, "supported", "aligned", v.spans, "judge agrees"))
        else:
            out.append(
                ClaimVerdict(
                    v.claim, "uncertain", "judge_disagrees", v.spans, f"judge answered {answer}"
                )
            )
    return out


def verify_draft(
    draft: str,
    evidence: Sequence[EvidenceSpan],
    *,
    judge: Judge | None = None,
    judge_timeout: float = 20.0,
) -> list[ClaimVerdict]:
    """:func:`split_claims` then :func:`verify_claims`."""
    return verify_claims(split_claims(draft), evidence, judge=judge, judge_timeout=judge_timeout)


def answer_allowed(verdicts: Sequence[ClaimVerdict]) -> bool:
    """True only if there is at least one substantive claim and every one is supported."""
    substantive = [v for v in verdicts if v.claim.substantive]
    return bool(substantive) and all(v.verdict == "supported" for v in substantive)
