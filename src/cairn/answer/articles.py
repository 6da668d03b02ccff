"""An article that counts one (issue 12, session 10): "at least an hour" = "at least 1
hour", "for more than a day" = "for more than 24 hours", "a single truck" = "1 truck".

Read as another reading of a claim and its evidence unit (:mod:`cairn.answer.readings`),
so the literal words are tried first. Exact only where "a" can mean nothing but one:

* "a"/"an" before a singular unit of time or measure, only after a word that leads a
  length or an amount ("than", "least", "within", "for", "after" ...) or at the start of
  a clause; never after a number, an amount or a count ("£46.80 a year", "2 tablets a day",
  "once a year" are rates: "a" there is "per"), nor before a possessive ("a day's pay");
* "a single" / "one single" before a word: "single" there insists on the count. A
  "single" with no article before it ("an adult single", "single room") is a kind, and
  stays as written.
"""

from __future__ import annotations

import re

__all__ = ["one_reading"]

#: Singular units an article can count (not "second", also the ordinal; not "foot",
#: also the body part and "foot passenger").
_UNITS = (
    "minute|hour|day|week|month|year|metre|meter|kilometre|kilometer|mile|litre|liter|"
    "kilogram|gram|tonne|millilitre|milliliter"
)
#: Words after which an article before a unit counts one length or amount.
_LEADS = (
    "than|least|most|to|within|for|in|after|before|about|over|under|around|only|just|"
    "nearly|almost|approximately|roughly|by|during|takes|take|lasts|last"
)
_ARTICLE_UNIT_RE = re.compile(
    rf"(^|[,;:(] |\b(?:{_LEADS}) )an? ((?:{_UNITS})\b)(?!['’]s\b|-)", re.IGNORECASE
)
_SINGLE_RE = re.compile(r"\b(?:a|one) single (?=[a-z])", re.IGNORECASE)


def _ones(text: str) -> str:
    text = _SINGLE_RE.sub("1 ", text)
    return _ARTICLE_UNIT_RE.sub(r"\g<1>1 \2", text)


def one_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim and evidence with each article that counts one written as "1", or None
    when neither says one so."""
    claim, evidence = _ones(claim_text), _ones(evidence_text)
    if (claim, evidence) == (claim_text, evidence_text):
        return None
    return claim, evidence
