"""A restriction of the subject said as a condition (issue 12, session 8).

"Riders aged 16 or 17 need the consent of a parent" and "Riders need the consent of a
parent if they are aged 16 or 17" restrict the same subject: the phrase after "if they
are"/"if it is" at the end of the claim is what the evidence puts right after the
subject. The claim is also read with that phrase moved back behind its subject, for a
subject of one to three words, and accounted so; "unless", "if they are not" or a phrase
the evidence gives elsewhere stay unaccounted.
"""

from __future__ import annotations

import re

__all__ = ["restrictor_readings"]

_CONDITION_RE = re.compile(
    r"^(?P<head>.+?),?\s+(?:if|when)\s+(?:they|it)\s+(?:is|are)\s+(?P<phrase>(?!not\b)[^,;]+?)\s*(?P<end>[.!]?)$",
    re.IGNORECASE,
)


def restrictor_readings(claim_text: str) -> list[str]:
    """The claim with its final "if they are <phrase>" moved behind a subject of one to
    three words ("Riders aged 16 or 17 need ..."), one reading per subject length."""
    m = _CONDITION_RE.match(claim_text.strip())
    if m is None:
        return []
    words = m.group("head").split()
    return [
        " ".join([*words[:k], m.group("phrase"), *words[k:]]) + m.group("end")
        for k in range(1, min(3, len(words) - 1) + 1)
    ]
