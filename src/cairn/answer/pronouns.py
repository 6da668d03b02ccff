"""A pronoun of a second conjunct read as its parallel noun phrase (issue 12, session 8).

"A ride starts when the bike is unlocked and ends when it is locked" and "A ride ends
when the bike is locked and starts when it is unlocked" say the same: reordering the two
conjuncts moves the full noun phrase to the first one and the pronoun to the second.
Each text is also read with a subject pronoun of its second conjunct ("it is locked")
replaced by the one noun phrase of the first conjunct that stands in the same place (an
article, one or two words, then an auxiliary: "the bike is unlocked"); where the first
conjunct has no such noun phrase, or more than one, the pronoun stays.
"""

from __future__ import annotations

import re

__all__ = ["parallel_reading"]

_AUX = r"(?:is|are|was|were|has|have|had|must|may|can|will|should)"
_PRONOUN_RE = re.compile(rf"\b(it|they)(?=\s+{_AUX}\b)")
_NP_RE = re.compile(rf"\b((?:the|a|an|this|its|their)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=\s+{_AUX}\b)", re.IGNORECASE)


def parallel_reading(text: str) -> str:
    """``text`` with the subject pronoun of the part after its first " and " replaced by
    the first part's one parallel noun phrase (see the module docstring), else as is."""
    at = text.find(" and ")
    if at < 0:
        return text
    first, second = text[:at], text[at:]
    pronouns = _PRONOUN_RE.findall(second)
    nps = [np for np in _NP_RE.findall(first) if first.find(np) > 0]  # not the sentence subject
    if len(pronouns) != 1 or len(nps) != 1:
        return text
    plural = nps[0].split()[-1].endswith("s")
    if (pronouns[0] == "they") != plural:
        return text
    return first + _PRONOUN_RE.sub(nps[0], second, count=1)
