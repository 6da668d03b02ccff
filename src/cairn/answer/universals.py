"""One universal subject, said four ways (issue 12, session 8).

"Every line must support 5G", "All lines must support 5G", "Each line must support 5G",
"Any line must support 5G" and the bare plural of a rule, "Lines must support 5G", state
the same rule; so do "Each field engineer uses 8 GB" and "Field engineers each use 8 GB".
The account compares words by stem, so number agreement is no obstacle, but it matches
a quantifier only as itself and never lets the evidence's quantifier be dropped. Here
both texts are also read with the universal quantifier of a sentence's subject left out
(sentence-initial "All"/"All of the"/"Every"/"Each"/"Any", and a floating "each" between
a plural subject and its verb), and the claim is accounted in that reading too.

What stays apart: another quantifier ("Some lines", "Most lines", "No line", "One line")
is not universal and is never left out; and a claim that adds the universal to a bare
plural the evidence states ("All lines were tested" from "Lines were tested") is read so
only when it states a rule or standing fact, not a past event (a bare plural in a report
of an event need not mean every one).

A generic singular claim ("An injectable vaccine is given ...", see
:func:`cairn.answer.idioms.generic_reading`) is read against the evidence without its
"All"; one whose subject coordinates two nouns with "or" ("A van or trailer needs a
permit") is also read with "and", as the plural rule "Vans and trailers need a permit"
says the same of either.

Session 18a: "Each autoclave is validated daily" from "The autoclaves are validated
daily", a definite plural subject of a passive that happens periodically (daily, every 12
months), where nothing but a period or a duration is counted; and a universal after a
preposition ("must be worn by every pupil" / "by all pupils"), read without it only when
both texts have one before the same noun.
"""

from __future__ import annotations

import re

from cairn.answer.gaps import episodic
from cairn.answer.idioms import generic_reading
from cairn.answer.tokens import account_tokens

__all__ = ["universal_readings"]

_LEAD_RE = re.compile(
    r"(^|[.;:]\s+)(?:all\s+of\s+the|all|every|each|any)\s+(?=[A-Za-z])", re.IGNORECASE
)
#: "Field engineers each use": a plural noun, "each", then a word (the verb), not a
#: number ("cost €5 each", "one each") nor a preposition ("each of").
#: "Proposals are each reviewed": after the auxiliary too (session 9).
_FLOATING_EACH_RE = re.compile(
    r"\b([A-Za-z][\w-]*[^s\W]s)(\s+(?:are|were|must|should|may|can|will|shall))?\s+each\s+"
    r"(?!of\b|other\b)(?=[a-z]{2,}\b)"
)
_DETERMINED_RE = re.compile(r"\s*(?:a|an|the|this|that|one|its|their|our)\b", re.IGNORECASE)
_GENERIC_OR_RE = re.compile(r"^(\s*(?:a|an)\s+[a-z][\w-]*)\s+or\s+(?=[a-z])", re.IGNORECASE)


def _without_universal(text: str) -> str:
    """``text`` without the universal quantifiers of its sentences' subjects."""
    text = _LEAD_RE.sub(lambda m: m.group(1), text)
    return _FLOATING_EACH_RE.sub(lambda m: f"{m.group(1)}{m.group(2) or ''} ", text)


_AFTER_PREPOSITION_RE = re.compile(
    r"\b(by|to|for|of|from|on|at|with|in|among)\s+(?:all|every|each)\s+(?!of\b|other\b|the\b)([a-z][\w-]*)",
    re.IGNORECASE,
)


def _noun_key(word: str) -> str:
    word = word.lower()
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _object_universals(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """Both texts without the universal quantifier after a preposition ("worn by every
    pupil" / "worn by all pupils"), only when each text has one before the same nouns:
    a bare plural there may mean only some ("boarded by pupils")."""
    nouns = [
        sorted(_noun_key(m.group(2)) for m in _AFTER_PREPOSITION_RE.finditer(text))
        for text in (claim_text, evidence_text)
    ]
    if not nouns[0] or nouns[0] != nouns[1]:
        return None
    bare = [_AFTER_PREPOSITION_RE.sub(lambda m: f"{m.group(1)} {m.group(2)}", t) for t in (claim_text, evidence_text)]
    return bare[0], bare[1]


_EACH_CLAIM_RE = re.compile(r"^\s*(?:Each|Every)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)\s+(?:is|was)\s+(?=[a-z]+(?:ed|en)\b)")
_DEFINITE_PLURAL_RE = re.compile(r"^\s*The\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*s)\s+(?:are|were)\s+(?=[a-z]+(?:ed|en)\b)")
#: A periodic passive ("are validated daily", "serviced every 12 months") happens to each.
_PERIODIC_RE = re.compile(
    r"\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|"
    r"every\s+(?:\d+\s+)?[a-z]+)\b"
)
#: Numbers that measure each occurrence, not the group: a period or a duration.
_PER_EVENT_NUMBER_RE = re.compile(
    r"\b(?:every|for)\s+\d+\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b"
)


def _each_of_definite(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """"Each autoclave is validated daily" from "The autoclaves are validated daily": a
    definite plural subject of a periodic passive, the claim's subject "Each"/"Every" of
    the same noun; both read without their determiner. Not where the predicate has a
    number other than a period or a duration ("The two pumps are rated at 40 l/min" may
    be the pair's total)."""
    c, e = _EACH_CLAIM_RE.match(claim_text), _DEFINITE_PLURAL_RE.match(evidence_text)
    if c is None or e is None:
        return None
    plural = e.group(1).lower()
    if c.group(1).lower() not in (plural[:-1], plural[:-2]):  # stations, boxes
        return None
    rest = evidence_text[e.end() :]
    if not _PERIODIC_RE.search(rest) or re.search(r"\d", _PER_EVENT_NUMBER_RE.sub(" ", rest)):
        return None
    return claim_text[c.start(1) :], evidence_text[e.start(1) :]


def universal_readings(claim_text: str, evidence_text: str) -> list[tuple[str, str]]:
    """Other (claim, evidence) readings to account, in order (see the module docstring):
    the generic singular reading, then both texts without their universal subject
    quantifiers."""
    out: list[tuple[str, str]] = []
    generic = generic_reading(claim_text, evidence_text)
    if generic is not None:
        out.append((claim_text, generic))
        if _GENERIC_OR_RE.match(claim_text):
            out.append((_GENERIC_OR_RE.sub(r"\1 and ", claim_text), generic))
    elif _GENERIC_OR_RE.match(claim_text) and " and " in evidence_text:
        out.append((_GENERIC_OR_RE.sub(r"\1 and ", claim_text), evidence_text))
    each = _each_of_definite(claim_text, evidence_text)
    if each is not None:
        out.append(each)
    objects = _object_universals(claim_text, evidence_text)
    if objects is not None:
        out.append(objects)
    claim, evidence = _without_universal(claim_text), _without_universal(evidence_text)
    if claim == claim_text and evidence == evidence_text:
        return out
    # The claim adds "all" to the evidence's bare plural (not to "A visitor badge"): only
    # for a rule or a fact.
    if claim != claim_text and evidence == evidence_text and (
        _DETERMINED_RE.match(evidence_text) or episodic(list(account_tokens(claim_text)))
    ):
        return out
    out.append((claim, evidence))
    return out
