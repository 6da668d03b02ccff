"""The gap rules of the strict account (:mod:`cairn.answer.account`): what of the
evidence may be left out between and right before the tokens a claim is matched to.

Nothing of the evidence between the first and the last matched token may be left out,
except a whole dropped conjunct without a negation, a parenthesis, a prepositional
phrase that does not restrict the sentence's subject, or a reporting frame; a negation,
modal or quantifier right before the matched part must be in the claim too, and so must
a modifier that opens the subject ("Nightly snapshots" is not "Snapshots"), and a CJK
condition or scope clause in front of the copied part or left out inside it
(:mod:`cairn.answer.cjk_fronted`, session 19c).
"""

from __future__ import annotations

import re

from cairn.answer.cjk_fronted import cjk_condition_in_gap, cjk_fronted_condition
from cairn.answer.tokens import (
    _ARTICLES,
    _CLAUSE_STOPS,
    _FINITE,
    _NEGATIONS,
    _PREPOSITIONS,
    _QUALIFIERS,
    AccountToken,
    _is_conj,
)


def gaps(
    ev: tuple[AccountToken, ...],
    chosen: set[int],
    *,
    adjacent: set[tuple[int, int]] | None = None,
    generic: bool = False,
    standing: bool = False,
) -> str | None:
    """None when nothing but what may be dropped is left out of the evidence between and
    before the ``chosen`` positions. ``adjacent`` holds the evidence positions of claim
    tokens that are neighbours in the claim (for the subject rule; None skips it);
    ``generic`` says the claim states a rule or a standing fact (present tense or a
    modal), which a fronted condition or scope restricts."""
    lo, hi = min(chosen), max(chosen)
    # Right before the copied part: a qualifier of it, or a modifier of its first word
    # ("primary" in "the primary on-call engineer") must be copied too.
    k = lo - 1
    while k >= 0 and ev[k].kind == "w" and ev[k].key in _ARTICLES:
        k -= 1
    every = _sentence_every(ev, k)
    if k >= 0 and lo + 1 in chosen and not every:
        t = ev[k]
        if (
            t.kind in ("w", "n", "c")
            and not _is_conj(t)
            and not (t.kind == "w" and (t.key in _PREPOSITIONS or t.key in _SUBORDINATORS))
        ):
            return f"the evidence says {t.text!r} before it"
    if not every and _drops_premodifier(ev, lo):
        return f"the evidence says {ev[lo - 1].text!r} before it"
    lead = (_fronted_scope(ev, lo) if generic else None) or cjk_fronted_condition(ev, lo)  # session 19c
    if lead:
        return f"the evidence restricts it: {lead}"
    tail = _trailing_condition(ev, hi, generic) or _trailing_scope(ev, hi, standing) or _cjk_exception(ev, hi)
    if tail:
        return f"the evidence restricts it: {tail}"
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
            and not (every and k == lo - 1)
        ):
            return f"the evidence says {t.text!r} before it"
        if _cjk_qualifier(ev, k):
            return f"the evidence says {t.text!r} before it"
        if t.kind != "p":
            seen += 1
        k -= 1
    run: list[int] = []
    first_gap = True
    for k in range(lo, hi + 2):
        if k <= hi and k not in chosen:
            t = ev[k]
            if not (t.kind == "w" and t.key in _ARTICLES):
                run.append(k)
            continue
        if run:
            if (
                first_gap
                and adjacent is not None
                and (run[0] - 1, run[-1] + 1) in adjacent
                and _restricts_subject(ev, run, lo)
            ):
                return "the evidence restricts the subject: " + " ".join(
                    ev[p].text for p in run[:4]
                )
            problem = _gap_problem(ev, run, lo, hi) or _cjk_condition(ev, run)
            if problem:
                return problem
            run = []
            first_gap = False
    return None


def _sentence_every(ev: tuple[AccountToken, ...], k: int) -> bool:
    """``ev[k]`` is "every"/"each" opening a sentence, right before the copied part: the
    claim states the same rule of a bare plural ("New employees attend ..." for "Every
    new employee attends ..."), a generic of the same extent."""
    return (
        k >= 0
        and ev[k].kind == "w"
        and ev[k].key in ("every", "each")
        and (k == 0 or (ev[k - 1].kind == "p" and ev[k - 1].key in _CLAUSE_STOPS))
    )


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


_WEEKDAYS = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon",
     "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"]
)  # fmt: skip
_DATE_KEY_RE = re.compile(r"d\d{8}")


def _gap_problem(ev: tuple[AccountToken, ...], run: list[int], lo: int, hi: int) -> str | None:
    content = [k for k in run if ev[k].kind != "p"]
    if not content:
        return None  # only punctuation left out
    words = [ev[k] for k in content]
    if any(t.kind == "w" and t.key in _NEGATIONS for t in words) or any(
        t.kind == "c" and t.key in "不未无非勿禁" for t in words
    ):
        return f"the evidence says {words[0].text!r} there"
    if any((t.kind == "w" and t.key == "or") or (t.kind == "c" and t.key == "或") for t in words):
        # One of two alternatives is not the fact: "sent to the manager or the director"
        # does not account "sent to the director".
        return "the evidence says 'or' there"
    qualified = any(t.kind == "w" and t.key in _QUALIFIERS for t in words)
    ends_conjunct = _is_conj(ev[run[-1]]) or (run[-1] + 1 <= hi and _is_conj(ev[run[-1] + 1]))
    if qualified and not ends_conjunct:
        return f"the evidence says {words[0].text!r} there"
    # A reporting frame ("analysis revealed it to contain") states how the fact was
    # established, not a different fact.
    if all(t.kind == "w" and (t.stem.startswith(_REPORTING) or t.key in _FRAME) for t in words):
        return None
    # A weekday right before a full date names nothing the date does not ("Wednesday
    # 13 May 2026" is 2026-05-13).
    if (
        all(t.key.removeprefix("month:") in _WEEKDAYS for t in words)
        and run[-1] + 1 < len(ev)
        and _DATE_KEY_RE.fullmatch(ev[run[-1] + 1].key)
    ):
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


_DETERMINERS = _ARTICLES | frozenset(
    ["this", "these", "those", "our", "its", "their", "his", "her"]
)


def _sentence_start(ev: tuple[AccountToken, ...], k: int) -> bool:
    """``ev[k]`` opens a sentence or clause (after articles and determiners)."""
    while k >= 0 and ev[k].kind == "w" and ev[k].key in _DETERMINERS:
        k -= 1
    return k < 0 or (ev[k].kind == "p" and ev[k].key in _CLAUSE_STOPS)


def _drops_premodifier(ev: tuple[AccountToken, ...], lo: int) -> bool:
    """The copied part starts one word into a noun phrase that opens the sentence: the
    word left out restricts the subject ("Nightly snapshots are kept for 35 days" does not
    account "Snapshots are kept for 35 days"; "Fast charging" is not "charging")."""
    k = lo - 1
    if k < 0 or ev[lo].kind != "w":
        return False
    if lo + 1 >= len(ev) or (ev[lo + 1].kind == "p" and ev[lo + 1].key in _CLAUSE_STOPS):
        return False  # "Switch DNS; the TTL is 60 s": the word ends its clause, an object
    t = ev[k]
    if t.kind != "w" or _is_conj(t) or t.key in _PREPOSITIONS or t.key in _SUBORDINATORS:
        return False
    if t.key in _FINITE or t.key in _DETERMINERS or t.key.startswith(("be:", "have")):
        return False
    return _sentence_start(ev, k - 1)


def _restricts_subject(ev: tuple[AccountToken, ...], run: list[int], lo: int) -> bool:
    """A prepositional phrase left out right after the sentence's subject restricts it:
    "Rate limit for the free plan raised from 60 to 120" does not account "Rate limits
    were raised from 60 to 120"; "The median latency to Frankfurt fell" is not "The
    median latency fell". The subject is the copied run from the sentence start up to the
    gap, holding no finite verb and no past form."""
    first = ev[run[0]]
    if not (first.kind == "w" and first.key in _PREPOSITIONS) or not _sentence_start(ev, lo - 1):
        return False
    subject = [t for t in ev[lo : run[0]] if t.kind != "p"]
    if not subject or len(subject) > 6 or any(t.kind == "p" for t in ev[lo : run[0]]):
        return False
    return not any(
        t.kind == "w"
        and (t.key in _FINITE or t.key.startswith(("be:", "have")) or t.key.endswith("ed"))
        for t in subject
    )


#: Words that open a fronted scope or condition ("In staging, ...", "For children under
#: 12, ...", "If the page is not acknowledged, ..."). Time frames that lead up to the
#: present ("Since 1 February 2026, ...", "From April, ...", "As of ...") are not here:
#: they do not narrow a standing rule.
_SCOPE_OPENERS = frozenset(
    ["in", "on", "at", "for", "under", "within", "outside", "during", "if", "when",
     "unless", "except", "where", "while", "inside", "below", "above", "with", "without"]
)  # fmt: skip


def _fronted_scope(ev: tuple[AccountToken, ...], lo: int) -> str | None:
    """The words of a fronted scope or condition the copied part leaves out ("In
    staging, deploys may run at any time" does not account "Deploys may run at any
    time"), else None."""
    k = lo - 1
    while k >= 0 and ev[k].kind == "w" and ev[k].key in _DETERMINERS:
        k -= 1
    # The fronted part ends in a comma right before the copied part: "<opener> ... ,".
    if k < 0 or not (ev[k].kind == "p" and ev[k].key == ","):
        return None
    s = k - 1
    while s >= 0 and not (ev[s].kind == "p" and ev[s].key in _CLAUSE_STOPS):
        s -= 1
    lead = [t for t in ev[s + 1 : k] if t.kind != "p"]
    if not lead or not (lead[0].kind == "w" and lead[0].key in _SCOPE_OPENERS):
        return None
    return " ".join(t.text for t in lead[:5])


#: Words that open a condition or trigger after the copied part ("... only if there are
#: signs of forced entry", "... after handling raw eggs", "... when they are thinner than
#: 3 mm"). Deadlines and durations ("before Friday", "within 30 days") only weaken a rule
#: when dropped and are not here, nor "while"/"where", which mostly contrast or describe.
_CONDITION_OPENERS = frozenset(
    ["if", "unless", "when", "whenever", "after", "once", "provided", "except", "only"]
)  # fmt: skip


#: Openers of a condition that restricts any statement, a past event too ("children
#: took 10 mg if they weighed over 30 kg").
_ALWAYS_RESTRICT = frozenset(["only", "if", "unless", "provided", "except"])


#: Prepositions whose phrase after the copied part narrows a standing fact or rule
#: ("Managers approve expenses under €500", "Lunch is free for staff on Fridays").
_TRAILING_SCOPES = frozenset(
    ["in", "on", "at", "for", "under", "over", "below", "above", "during", "within",
     "without", "with", "except", "outside", "inside", "before", "after", "until", "between",
     "up", "from"]
)  # fmt: skip


#: Prepositions whose phrase after a measured amount names what was measured.
_MEASURED_SCOPES = frozenset(
    ["in", "among", "across", "for", "over", "under", "above", "below", "aged", "with", "without"]
)
_BOUNDS = frozenset(["over", "under", "above", "below", "aged"])
_CALENDAR = frozenset(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
     "friday", "saturday", "sunday", "total"]
)  # fmt: skip


def _ends_measured(ev: tuple[AccountToken, ...], hi: int) -> bool:
    """The copied part ends with an amount (not a duration) or with what an amount right
    before counts ("5% of patients", "8% among new customers")."""
    for k in range(hi, max(-1, hi - 4), -1):
        t = ev[k]
        if t.kind == "n":
            return t.key.startswith(("q:", "n:"))
        if t.kind != "w" or _is_conj(t) or t.key in _FINITE or t.key.startswith("be:"):
            return False
    return False


#: Openers of a phrase that narrows what comes before it, a past event too: an
#: alternative ("... or the director"), a restrictive relative clause ("students who
#: scored above 90"), an age ("children aged 5 to 11").
_ALWAYS_NARROW = frozenset(["or", "who", "whose", "aged"])


def _trailing_scope(ev: tuple[AccountToken, ...], hi: int, standing: bool) -> str | None:
    """The words the copied part leaves out right after it when they narrow it: an
    alternative ("... or the director"), what a quantity counts ("after 5 minutes of
    inactivity"), and for a standing fact or rule (``standing``: no past event) a
    prepositional phrase of scope ("approve expenses under €500")."""
    k = hi + 1
    if k >= len(ev) or ev[k].kind != "w":
        return None
    key = ev[k].key
    of_quantity = key == "of" and ev[hi].kind == "n"  # "5 minutes of inactivity"
    # A measured amount, past or not, is the amount of what the phrase after it names:
    # "Revenue grew by 12% in Europe" does not account "Revenue grew by 12%".
    # So is what it counts: "5% of patients over 65", "8% among new customers in Asia".
    measured_in = (
        key in _MEASURED_SCOPES
        and _ends_measured(ev, hi)
        and k + 1 < len(ev)
        and (
            key in _BOUNDS  # "over 65", "under 18"
            or (
                ev[k + 1].kind == "w"
                and not any(c.isdigit() for c in ev[k + 1].text)
                and ev[k + 1].key not in _CALENDAR
            )
        )
    )
    if not (
        key in _ALWAYS_NARROW
        or of_quantity
        or measured_in
        or (standing and key in _TRAILING_SCOPES)
    ):
        return None
    if key in ("within", "before", "until") and any(
        t.kind == "w" and t.key in ("must", "shall", "need", "needs", "required") for t in ev[:k]
    ):
        return None  # a dropped deadline only weakens an obligation
    rest = []
    for t in ev[k:]:
        if t.kind == "p" and (t.key in _CLAUSE_STOPS or t.key == ","):
            break
        rest.append(t.text)
    return " ".join(rest[:5])


def _trailing_condition(ev: tuple[AccountToken, ...], hi: int, generic: bool) -> str | None:
    """The words of a condition the copied part leaves out right after it, in the same
    sentence: "Theft is covered only if ..." does not account "Theft is covered". "only",
    "if", "unless", "provided" and "except" always restrict; the other openers restrict a
    rule or standing fact (``generic``)."""
    k = hi + 1
    while k < len(ev) and ev[k].kind == "p" and ev[k].key == ",":
        k += 1
    if k >= len(ev) or ev[k].kind != "w":
        return None
    key = ev[k].key
    if key in _ALWAYS_RESTRICT or (generic and key in _CONDITION_OPENERS):
        rest = []
        for t in ev[k:]:
            if t.kind == "p" and t.key in _CLAUSE_STOPS:
                break
            if t.kind != "p":
                rest.append(t.text)
        return " ".join(rest[:5])
    return None


#: Words of a claim that is not about what happened on a heading's date (a plan, a rule).
_NOT_DATED = frozenset(
    ["will", "shall", "may", "must", "should", "can", "cannot", "would", "might", "could"]
)


_IRREGULAR_PAST = frozenset(
    ["held", "took", "made", "sent", "ran", "rose", "fell", "began", "won", "went", "came",
     "gave", "got", "left", "met", "paid", "said", "told", "wrote", "built", "bought",
     "brought", "chose", "did", "drew", "drove", "found", "grew", "kept", "knew", "led",
     "lost", "sold", "spoke", "spent", "stood", "taught", "thought", "threw", "won", "wore",
     "broke", "became", "hit", "cut", "shut", "put", "set", "read", "had", "saw"]
)  # fmt: skip


def episodic(claim: list[AccountToken]) -> bool:
    """The claim reports a past event ("was approved", "fixed the bug", "has been
    tested"), whose details may be dropped; else it states a standing fact or a rule,
    which a dropped phrase of scope may narrow."""
    if any(t.kind == "w" and t.key in _NOT_DATED for t in claim):
        return False
    words = [t for t in claim if t.kind == "w"]
    if any(t.key in ("be:past", "have", "has", "been", "did") for t in words):
        return True
    if any(t.key == "be:present" for t in words):
        return False  # "is sent", "are required": a standing fact
    return any(
        t.key in _IRREGULAR_PAST
        or (t.text[:1].islower() and len(t.text) > 4 and t.text.endswith("ed"))
        for t in words
    )


#: CJK words that make what comes right before them an exception ("X以外的Y": every Y but
#: X; "X 외의 Y"; "X를 제외한"): a claim that stops right before one states the opposite.
#: Session 18c: so does "or" before a second alternative ("须提交身份证或户口本" does not
#: account "须提交身份证", as "a passport or an identity card" does not "a passport").
_CJK_EXCEPTIONS = ("以外", "之外", "除外", "외에", "외의", "외는", "외엔", "제외", "或", "또는", "または", "又は", "もしくは")
#: What a Japanese predicate's tail adds to the verb it follows: possibility or frequency
#: (ことがある, 場合がある, かもしれない, 可能性, おそれ), ability (ことができる), need
#: (必要がある), a plan or expectation (予定, 見込み, はず, つもり), obligation (べき),
#: a negation of the whole (ことはない, とは限らない, わけではない) and hearsay or inference
#: (でしょう, だろう, ようだ, そうだ, らしい). A claim cut right before one states more
#: than the evidence ("対象となります" from "対象となることがあります": may → is).
_JA_PREDICATE_TAILS = (
    "ことがあ", "こともあ", "ことはな", "ことができ", "場合があ", "場合もあ", "かもしれ",
    "可能性", "おそれ", "恐れ", "予定", "見込", "はず", "べき", "必要があ", "必要はな",
    "つもり", "とは限", "わけではな", "でしょう", "だろう", "ようだ", "そうだ", "らしい",
)
_CJK_CUT_TAILS = _CJK_EXCEPTIONS + _JA_PREDICATE_TAILS


def _cjk_exception(ev: tuple[AccountToken, ...], hi: int) -> str | None:
    """The exception word or predicate tail the evidence puts right after the copied CJK
    part, if any: "比赛中禁止使用耳机以外的任何电子设备" does not account "比赛中禁止使用耳机",
    nor "対象となることがある" "対象となる"."""
    if ev[hi].kind != "c":
        return None
    following = ""
    for t in ev[hi + 1:hi + 6]:
        if t.kind != "c":
            break
        following += t.text
    word = next((w for w in _CJK_CUT_TAILS if following.startswith(w)), None)
    return f"{ev[hi].text}{word}…" if word else None


def _cjk_condition(ev: tuple[AccountToken, ...], run: list[int]) -> str | None:
    hit = cjk_condition_in_gap(ev, run)
    return f"the evidence restricts it: {hit}" if hit else None
