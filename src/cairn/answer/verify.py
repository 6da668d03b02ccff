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

This module assembles the verdicts; the types and reason codes are in
:mod:`cairn.answer.contract`, the evidence units and claim clauses in
:mod:`cairn.answer.evidence`, the clause alignment in :mod:`cairn.answer.align`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

from cairn.answer.account import account, overlap, table_claim, unaccounted
from cairn.answer.align import _DATE_TOKEN_RE, _match_unit, _ref, _span_ref, _UnitResult
from cairn.answer.attachments import attachment_problem
from cairn.answer.claims import NEGATIONS, Claim, split_claims, strip_lead_in
from cairn.answer.concrete import clause_flip, deictic, narrower_row, numbers_exchanged
from cairn.answer.conflicts import conflict, narrower_subject
from cairn.answer.contract import REASONS, ClaimVerdict, EvidenceSpan, Judge, SpanRef, Verdict
from cairn.answer.document_subject import dated_lead_readings, resolved_pronoun, version_reading
from cairn.answer.evidence import _CODE_SPAN_RE, _claim_parts, _clean, _Unit, _units
from cairn.answer.label_lines import label_readings
from cairn.answer.tokens import AccountToken, account_tokens
from cairn.answer.verbatim import copies
from cairn.text.cjk import has_cjk

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
    shares = [overlap(table_claim(core, u.text) if u.table else core, u.text) for u in units]
    # The sentence-level alignment only serves contradictions and reasons; a unit that
    # holds less than half of the claim can give neither.
    results = [
        _match_unit(parts, codes, u)
        if share >= _MIN_SHARE
        else _UnitResult(
            u, False, False, "no_overlap" if share == 0 else "content_missing", share / 2, (),
            "" if share == 0 else _missing_detail(core, u),
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
            if r.contradiction and a is not None and _concrete_conflict(core, r, spans)
        ),
        key=lambda r: (not in_scope(r), -r.score),
    )
    if support:
        # Another span conflicts only if it states all of the claim but the one
        # conflicting value (a different date for the same event, ...).
        home = spans[support[0].unit.span_index].uri
        contra = [
            r
            for r in contra
            if _one_slot_conflict(core, r.unit)
            and not (deictic(core) and spans[r.unit.span_index].uri != home)
            and not (
                r.unit.table
                and support[0].unit.table
                and narrower_row(core, r.unit.text, support[0].unit.text)
            )
        ]
        if any(copies(claim.text, r.unit.text) for r in support):
            contra = []  # a verbatim copy of its unit is never contradicted
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
    candidates = trusted
    if deictic(core) and len({s.uri for s in spans}) > 1:
        # A claim about its own document ("本规定自…起施行") is about the document that
        # holds most of it; another document's "this regulation" is another one.
        top = max(shares)
        own = {spans[u.span_index].uri for u, sh in zip(units, shares, strict=True) if sh == top}
        candidates = [(r, a) for r, a in trusted if spans[r.unit.span_index].uri in own]
        contra = [r for r in contra if spans[r.unit.span_index].uri in own]
    for r, _a in sorted(candidates, key=lambda ra: not in_scope(ra[0])):
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


def _missing_detail(core: str, unit: _Unit) -> str:
    """The first claim tokens a unit lacks, consecutive CJK characters as one run (the
    detail of ``content_missing`` for a unit too far from the claim to be aligned)."""
    text = table_claim(core, unit.text) if unit.table else core
    missing = unaccounted(text, unit.text)  # in claim order: match them by position
    runs: list[str] = []
    last, j = -2, 0
    for i, t in enumerate(account_tokens(text)):
        if j == len(missing) or t != missing[j]:
            continue
        j += 1
        if t.kind == "c" and i == last + 1 and runs and has_cjk(runs[-1][-1:]):
            runs[-1] += t.text
        else:
            runs.append(t.text)
        last = i
    return ", ".join(runs[:4])
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
    text = unit.text
    if codes:
        # The claim's code spans are checked above and left out of its words; so are they
        # of the unit's ("Drain traffic with `pgwctl drain`" copies its whole sentence).
        wanted = set(codes)
        text = _CODE_SPAN_RE.sub(
            lambda m: " " if " ".join(m.group(1).split()) in wanted else m.group(), text
        )
    attached = attachment_problem(core, text)  # session 19b: brackets, appositions, "group A"
    if attached:
        return attached
    problem = account(core, text, table=unit.table, heading=unit.heading, code_glue=bool(codes))
    # The glue words ("with", "use", "to") may also be copied from the sentence itself:
    # "Drain traffic from eu-west-1 with `pgwctl drain`" (a stricter reading).
    if problem and codes and account(core, text, table=unit.table, heading=unit.heading) is None:
        return None
    if problem and not unit.table:
        # "It was prepared by ..." after "This tariff sheet is ..."; "This itinerary is
        # version 4, written by ..." as "Version 4 of the itinerary was written by ...";
        # "9 March 2027 — X" as "On 9 March 2027, X"; "Version 3.2, approved by A on D" as
        # "Version 3.2 was approved by A on D" and "A approved version 3.2 on D".
        readings = (
            resolved_pronoun(text, unit.antecedent),
            version_reading(text),
            *dated_lead_readings(text),
            *label_readings(text),
        )
        for reading in readings:
            if reading is not None and account(core, reading, heading=unit.heading) is None:
                return None
    return problem


_COORDINATED_RE = re.compile(r",|;|\band\b|\bor\b|\bwhile\b|\bwhereas\b")


def _concrete_conflict(core: str, r: _UnitResult, spans: Sequence[EvidenceSpan]) -> bool:
    """A contradiction names a concrete conflicting span: the unit states the rest of
    the claim, and what it does not state is exactly the conflicting slot (a number or
    date, the negation, an antonym, a name). "1 minute" is not in conflict with a unit
    that says "60 seconds"; "does not apply to contractors" is not in conflict with
    "Contractors are not covered" (nothing but paraphrase differs)."""
    if narrower_subject(core, r.unit.text):
        return False  # "Deep Archive retrieval ..." is not about "Archive retrieval"
    residue = _residue(core, r.unit)
    match r.reason:
        case "number_order":
            # Coordinated parts given in another order ("the south wing 40, the north
            # wing 25") move their numbers too, and so does a moved clause ("... if EC
            # rises above 4.5"): in swapped roles only when the claim with its numbers
            # exchanged is what the unit says.
            return (
                not residue
                and _COORDINATED_RE.search(core) is None
                and numbers_exchanged(
                    core, r.unit.text, table=r.unit.table, heading=r.unit.heading
                )
            )
        case "number_mismatch" | "date_mismatch":
            return bool(residue) and all(
                t.kind == "n" or _DATE_TOKEN_RE.fullmatch(t.key) for t in residue
            )
        case "negation_flip":
            # One clause of the claim against one clause of the unit: "Only the workshop
            # tops up oil" is not the negated clause about drivers of its unit.
            return all(t.key in NEGATIONS or t.key == "cannot" for t in residue) and clause_flip(
                core, r.unit.text
            )
        case "antonym":
            return len(residue) <= 2
        case "entity_mismatch":
            # Another subject with a different kind of statement ("Extracted DNA may be
            # stored at 2–8 °C" for "Proteinase K is stored at 2–8 °C") conflicts with
            # nothing: the unit may not add a modal.
            claim_keys = {t.key for t in account_tokens(core)}
            added = [
                t
                for t in account_tokens(r.unit.text)
                if t.kind == "w" and t.key in _MODALS and t.key not in claim_keys
            ]
            return (
                bool(residue)
                and not added
                and all(t.text[:1].isupper() or any(c.isdigit() for c in t.text) for t in residue)
            )
        case _:
            return True


_MODALS = frozenset(["may", "might", "must", "should", "can", "cannot", "shall", "could", "would"])


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
