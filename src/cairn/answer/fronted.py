"""A fronted phrase of time or place read at the end of its sentence (issue 12, session 8).

"On weekdays the gym opens at 6 am" and "The gym opens at 6 am on weekdays" say the
same; so do "In 2025, the plant hired 40 engineers" and "The plant hired 40 engineers in
2025". The account keeps the neighbours of a preposition on their sides, so a phrase
moved from the front to the end looked like a changed relation. Each text is also read
with a sentence-initial prepositional phrase (a preposition of time or place and one to
four words, no verb, ended by a comma or followed by the subject: an article, a
determiner or a capitalised word) moved to the end of the sentence.
"""

from __future__ import annotations

import re

__all__ = ["fronted_reading"]

_PREPOSITIONS = frozenset(
    ["on", "in", "at", "during", "from", "until", "before", "after", "within", "between", "since"]
)
_SUBJECT_STARTS = frozenset(["the", "a", "an", "this", "these", "our", "all", "every", "each"])
_VERBS = frozenset(["is", "are", "was", "were", "has", "have", "had", "will", "must", "may", "can"])


def _fronted(text: str) -> tuple[str, str] | None:
    """(fronted phrase, the sentence with it at the end), or None."""
    body = text.strip()
    end = body[-1] if body[-1:] in ".!" else ""
    words = body.rstrip(".!").split()
    if len(words) < 4 or words[0].lower() not in _PREPOSITIONS or re.search(r";|:(?!\d)|\b(?:and|or|but)\b", body):
        return None  # a fronted phrase of two clauses scopes over both: not moved into one
    cut = next((j + 1 for j in range(1, min(5, len(words) - 2)) if words[j].endswith(",")), None)
    if cut is None:
        cut = next((j for j in range(2, min(6, len(words) - 1)) if words[j].lower() in _SUBJECT_STARTS), None)
    if cut is None or any(w.lower().strip(",") in _VERBS for w in words[:cut]):
        return None
    pp = " ".join(words[:cut]).rstrip(",")
    rest = words[cut:]
    if rest[0] in ("The", "A", "An", "This", "These", "Our", "All", "Every", "Each"):
        rest[0] = rest[0].lower()
    sentence = " ".join(rest)
    return pp, f"{sentence[0].upper()}{sentence[1:]} {pp[0].lower()}{pp[1:]}{end}"


def _words(text: str) -> set[str]:
    return {w.strip(",.;:!?()").lower() for w in text.split()}


def fronted_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim and the evidence with their sentences' fronted phrases at the end, when
    either has one; an evidence sentence's phrase is moved only when the claim has every
    word of it (a scope the claim leaves out is never moved to where it could be
    dropped). None when nothing moves."""
    claim = _fronted(claim_text)
    claim_words = _words(claim_text)
    sentences = re.split(r"(?<=[.!?])(\s+)", evidence_text)
    moved = False
    for k in range(0, len(sentences), 2):
        found = _fronted(sentences[k])
        if found is not None and _words(found[0]) <= claim_words:
            sentences[k], moved = found[1], True
    if claim is None and not moved:
        return None
    return (claim[1] if claim else claim_text), "".join(sentences)
