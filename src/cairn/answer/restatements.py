"""Auxiliaries, pronouns and number words a near-verbatim restatement adds (issue 12, session 11).

A restatement of an evidence sentence often adds words that change nothing it states:

* the present perfect for a simple past: "The engineer has cleaned the trap and has
  refilled it" restates "The engineer cleaned the trap and refilled it";
* the subject pronoun of a second conjunct: "The alarm was tested and it sounded"
  restates "The alarm was tested and sounded";
* a range of small numbers in words: "two to three weeks" restates "2 to 3 weeks";
* a rule's "is to be": "Misconduct is to be reported" restates "Misconduct is reported"
  (a present passive; never a past one, "was reported");
* a negative fronted with inversion: "In no case will the firm refund travel" restates
  "The firm will not refund travel in any case" (:func:`inverted_negative_reading`).

:func:`restated_reading` reads the claim without them, only where the evidence says the
same verb bare (an active simple past after a word that is no auxiliary: "cleaned", not
"was cleaned" or "has been cleaned") or the same conjunct without its pronoun, or the
range in digits. The reading is then accounted in full like the claim, so a "not", a
"never", a modal or another number the claim keeps still has to be matched.
"""

from __future__ import annotations

import re

__all__ = ["inverted_negative_reading", "restated_reading"]

# Words before which "-ed" is no active simple past of the sentence's subject.
_AUXILIARIES = frozenset(
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
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "do",
        "does",
        "did",
        "not",
        "never",
        "get",
        "gets",
        "got",
    ]
)
_TO_BE = re.compile(r"\b(is|are) to be ([a-z]{2,}ed)\b")
_PERFECT = re.compile(r"\b(?:has|have) ([a-z]{2,}ed)\b")
_PRONOUN = re.compile(r"\band (?:it|they) ([a-z]+)\b")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_WORD_RANGE = re.compile(
    r"\b(" + "|".join(_NUMBER_WORDS) + r") to (" + "|".join(_NUMBER_WORDS) + r")\b"
)


def _bare_past(verb: str, evidence: str) -> bool:
    """Whether ``evidence`` has ``verb`` as an active simple past, and never after an
    auxiliary ("was cleaned", "has cleaned")."""
    befores = [m.group(1) for m in re.finditer(rf"\b([a-z]+)\s+{verb}\b", evidence)]
    return bool(befores) and not any(b in _AUXILIARIES for b in befores)


def restated_reading(claim_text: str, evidence_text: str) -> str | None:
    """``claim_text`` without the present perfect's "has"/"have", a second conjunct's
    pronoun and with a worded range in digits, each only where the evidence says it
    so (see the module docstring); None when nothing applies."""
    evidence = evidence_text.lower()
    out = claim_text

    def perfect(m: re.Match[str]) -> str:
        # Not after a modal or "to": "will have enabled", "should have checked" and "to
        # have signed" are no simple past.
        before = re.findall(r"([a-z]+)\W*$", m.string[: m.start()].lower())
        if before and (before[0] in _AUXILIARIES or before[0] == "to"):
            return m.group(0)
        return m.group(1) if _bare_past(m.group(1), evidence) else m.group(0)

    def pronoun(m: re.Match[str]) -> str:
        word = m.group(1)
        bare = re.search(rf"\band {word}\b", evidence) and not re.search(
            rf"\band (?:it|they) {word}\b", evidence
        )
        return f"and {word}" if bare else m.group(0)

    def worded_range(m: re.Match[str]) -> str:
        low, high = _NUMBER_WORDS[m.group(1)], _NUMBER_WORDS[m.group(2)]
        said = re.search(rf"(?<![\d.,]){low}\s*(?:to|–|-)\s*{high}(?![\d.,])", evidence)
        return said.group(0) if said else m.group(0)  # as the evidence writes it

    def to_be(m: re.Match[str]) -> str:
        plain = f"{m.group(1)} {m.group(2)}"
        return plain if re.search(rf"\b{plain}\b", evidence) else m.group(0)

    out = _TO_BE.sub(to_be, out)
    out = _PRONOUN.sub(pronoun, out)
    out = _PERFECT.sub(perfect, out)
    out = _WORD_RANGE.sub(worded_range, out)
    return out if out != claim_text else None


_INVERTED = re.compile(
    r"^(in no case|under no circumstances|at no time)\s+(will|would|may|can|could|must|shall|should|is|are|was|were|does|do|did)\s+(.+?)[.!]?$",
    re.IGNORECASE,
)
_ANY = {
    "in no case": "in any case",
    "under no circumstances": "under any circumstances",
    "at no time": "at any time",
}


def inverted_negative_reading(claim_text: str, evidence_text: str) -> str | None:
    """ "In no case will S V …" read as "S will not V … in any case", S being the subject
    the evidence gives that auxiliary and "not" ("The firm will not …"); likewise "under
    no circumstances" and "at no time". None when the claim is not so inverted or the
    evidence has no such subject."""
    m = _INVERTED.match(claim_text.strip())
    if m is None:
        return None
    phrase, aux, rest = m.group(1).lower(), m.group(2).lower(), m.group(3)
    for found in re.finditer(rf"(?:^|[.;:]\s+)([A-Z][^.;:]*?)\s+{aux}\s+not\s", evidence_text):
        subject = found.group(1)
        if rest.lower().startswith(subject.lower() + " "):
            return f"{subject} {aux} not {rest[len(subject) + 1 :]} {_ANY[phrase]}."
    return None
