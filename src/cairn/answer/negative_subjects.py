"""A subject "No X" said as the negated rule of the bare plural (issue 12, session 18a).

"No prop may be left on the wall" and "Props must not be left on the wall" state one
prohibition; so do "No player may travel in the truck" / "Players must not travel in the
truck", and "No panel is installed on the north roof" / "The panels are not installed on
the north roof". The account compares words by stem (a singular and a plural are one
word) but matches "No" only as itself. Here a text whose sentence opens with "No" and a
noun phrase, then a modal or a form of "be", is also read with the negation moved to the
verb: "No X may V" as "A X must not V" and as "A X may not V" (both prohibitions), "No X
can V" as "A X cannot V", "No X will/should V" as "A X will/should not V", "No X is/are/
was/were V" as "A X is/was not V". The other text is accounted against that reading; the
claim's and the evidence's "No" are each read so.

What stays apart: "No more than", "No later than", "No one", "No other" and the like are
not a negated subject; "No X must V" (no prohibition of that shape) and "No X has/needs"
are left alone. For the forms of "be" the other text must not name the noun with "a", "an"
or "one": "A fuse was not replaced" may say that one fuse was not, which is less than
"No fuse was replaced".
"""

from __future__ import annotations

import re

__all__ = ["negative_subject_readings"]

_NO_SUBJECT_RE = re.compile(
    r"^(\s*)No\s+(?!(?:more|less|fewer|later|earlier|sooner|longer|one|other|further|single|"
    r"matter|longer|sooner)\b)([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,5}?)\s+"
    r"(may|can|will|should|is|are|was|were)\s+(?!not\b|never\b)(?=[a-z])"
)
_BE = {"is": "is", "are": "is", "was": "was", "were": "was"}
_MODAL = {"may": ("must not", "may not"), "can": ("cannot",), "will": ("will not",), "should": ("should not",)}


def _readings(text: str) -> tuple[list[str], str]:
    """``text`` read with its "No X <verb>" subject negated at the verb (see the module
    docstring), and the noun's first word ("" when nothing is read)."""
    m = _NO_SUBJECT_RE.match(text)
    if m is None:
        return [], ""
    lead, np, verb = m.group(1), m.group(2), m.group(3)
    article = "An" if np[0] in "aeiou" else "A"
    rest = text[m.end() :]
    negated = [f"{_BE[verb]} not"] if verb in _BE else list(_MODAL[verb])
    return [f"{lead}{article} {np} {neg} {rest}" for neg in negated], np.split()[0] if verb in _BE else ""


def _names_one(text: str, noun: str) -> bool:
    return re.search(rf"\b(?:a|an|one)\s+{re.escape(noun)}\b", text, re.IGNORECASE) is not None


def negative_subject_readings(claim_text: str, evidence_text: str) -> list[tuple[str, str]]:
    """(claim, evidence) pairs to account: the claim's "No X" subject read as a negated
    rule against the evidence as written, then the evidence's against the claim."""
    out: list[tuple[str, str]] = []
    claims, noun = _readings(claim_text)
    if not (noun and _names_one(evidence_text, noun)):
        out += [(c, evidence_text) for c in claims]
    evidences, noun = _readings(evidence_text)
    if not (noun and _names_one(claim_text, noun)):
        out += [(claim_text, e) for e in evidences]
    return out
