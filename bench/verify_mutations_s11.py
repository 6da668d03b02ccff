"""Session 11 generators of the verifier mutation harness (issue 12; registered by
:mod:`bench.verify_mutations`, kept here so that module does not grow).

The classes come from test11's English misses; each has a meaning-preserving generator
(the verifier should say ``supported``) and meaning-changing ones next to it (it must
never say ``supported``):

* a simple past said in the present perfect: "The engineer cleaned the trap" → "The
  engineer has cleaned the trap"; changed: "has not cleaned", "will have cleaned";
* a subject pronoun a second conjunct repeats: "was tested and sounded" → "was tested and
  it sounded"; changed: "and it never sounded", "and it has not sounded";
* a range of small numbers said in words: "2 to 3 weeks" → "two to three weeks";
  changed: "two to four weeks", "one to three weeks".
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["CHANGING_S11", "PRESERVING_S11"]

# Words after which an "-ed" word is no simple past of a subject (a participle, an
# adjective, a passive) or before which "has" reads wrongly.
_NOT_SUBJECT_END = frozenset(
    [
        "the",
        "a",
        "an",
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
        "of",
        "to",
        "for",
        "in",
        "on",
        "at",
        "by",
        "with",
        "from",
        "not",
        "no",
        "its",
        "their",
        "his",
        "her",
        "this",
        "that",
        "these",
        "those",
        "all",
        "any",
        "each",
        "every",
        "also",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "shall",
        "once",
        "when",
        "if",
        "as",
        "than",
    ]
)
# A simple past of a regular verb after its subject's last word ("engineer cleaned").
_PAST = re.compile(r"\b([A-Za-z][a-z]+) ([a-z]{3,}ed)\b(?! by\b)")
# A second conjunct that starts with a regular simple past ("and sounded").
_AND_PAST = re.compile(r" and ([a-z]{3,}ed)\b(?! by\b)")
_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}
_RANGE = re.compile(r"\b([1-8]) to ([2-9]) (minutes|hours|days|weeks|months|years)\b")


def _past(s: str) -> re.Match[str] | None:
    for m in _PAST.finditer(s):
        if m.group(1).lower() not in _NOT_SUBJECT_END and not m.group(2).endswith("eed"):
            return m
    return None


def _aux(subject_word: str) -> str:
    return "have" if subject_word.endswith("s") and not subject_word.endswith("ss") else "has"


def m_present_perfect(s: str) -> str | None:
    """ "The engineer cleaned the trap" → "The engineer has cleaned the trap"."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + f"{_aux(m.group(1))} " + s[m.start(2) :]


def c_present_perfect_negated(s: str) -> str | None:
    """ "cleaned" → "has not cleaned": the negation is new."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + f"{_aux(m.group(1))} not " + s[m.start(2) :]


def c_future_perfect(s: str) -> str | None:
    """ "cleaned" → "will have cleaned": a done thing said as still to come."""
    m = _past(s)
    if m is None:
        return None
    return s[: m.start(2)] + "will have " + s[m.start(2) :]


def _and_past(s: str) -> re.Match[str] | None:
    m = _AND_PAST.search(s)
    return m if m is not None and not s.startswith(("I ", "We ", "You ")) else None


def m_conjunct_pronoun(s: str) -> str | None:
    """ "was tested and sounded" → "was tested and it sounded"."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it " + s[m.start(1) :]


def c_conjunct_pronoun_never(s: str) -> str | None:
    """ "and sounded" → "and it never sounded": the pronoun with a negation."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it never " + s[m.start(1) :]


def c_conjunct_pronoun_not(s: str) -> str | None:
    """ "and sounded" → "and it has not sounded"."""
    m = _and_past(s)
    if m is None:
        return None
    return s[: m.start(1)] + "it has not " + s[m.start(1) :]


def m_range_words(s: str) -> str | None:
    """ "2 to 3 weeks" → "two to three weeks"."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    return s[: m.start()] + f"{_WORDS[low]} to {_WORDS[high]} {m.group(3)}" + s[m.end() :]


def c_range_words_high(s: str) -> str | None:
    """ "2 to 3 weeks" → "two to four weeks": the upper end changed."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    return (
        s[: m.start()]
        + f"{_WORDS[low]} to {_WORDS[high + 1 if high < 9 else high - 1]} {m.group(3)}"
        + s[m.end() :]
    )


def c_range_words_low(s: str) -> str | None:
    """ "2 to 3 weeks" → "one to three weeks" (or "three to three"): the lower end changed."""
    m = _RANGE.search(s)
    if m is None:
        return None
    low, high = int(m.group(1)), int(m.group(2))
    other = low - 1 if low > 1 else low + 1
    if other == high:
        return None
    return s[: m.start()] + f"{_WORDS[other]} to {_WORDS[high]} {m.group(3)}" + s[m.end() :]


PRESERVING_S11: dict[str, Callable[[str], str | None]] = {
    "present-perfect": m_present_perfect,
    "conjunct-pronoun": m_conjunct_pronoun,
    "range-in-words": m_range_words,
}
CHANGING_S11: dict[str, Callable[[str], str | None]] = {
    "present-perfect-negated": c_present_perfect_negated,
    "future-perfect": c_future_perfect,
    "conjunct-pronoun-never": c_conjunct_pronoun_never,
    "conjunct-pronoun-not": c_conjunct_pronoun_not,
    "range-words-high-changed": c_range_words_high,
    "range-words-low-changed": c_range_words_low,
}
