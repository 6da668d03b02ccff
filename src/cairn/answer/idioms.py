"""Words a claim may add because the evidence says the same without them (issue 12).

"effective from 1 February 2027" states what "effective 1 February 2027" states: the
"from" between "effective" and a full date adds nothing (a start date is what
"effective" with a date means). Only before a full date, only after "effective", and
only when the evidence has that "effective" right before the same date.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.answer.tokens import AccountToken, _same

__all__ = ["effective_from", "generic_reading"]

_FULL_DATE_RE = re.compile(r"d\d{8}")


def effective_from(claim: Sequence[AccountToken], ev: Sequence[AccountToken]) -> set[int]:
    """The positions of ``claim``'s "from" in "effective from <date>" where ``ev`` says
    "effective <the same date>"."""
    out: set[int] = set()
    for i in range(1, len(claim) - 1):
        t, before, date = claim[i], claim[i - 1], claim[i + 1]
        if not (t.kind == "w" and t.key == "from" and _FULL_DATE_RE.fullmatch(date.key)):
            continue
        if before.kind != "w" or not before.stem.startswith("effect"):
            continue
        if any(
            e.kind == "w" and e.stem.startswith("effect") and _same(date, ev[k + 1])
            for k, e in enumerate(ev[:-1])
        ):
            out.add(i)
    return out


_GENERIC_CLAIM_RE = re.compile(r"^\s*(?:a|an)\s+[a-z]", re.IGNORECASE)
_ALL_LEAD_RE = re.compile(r"(^|[.;]\s+)(?:all|every|each)\s+(?=[a-z])", re.IGNORECASE)


def generic_reading(claim_text: str, evidence_text: str) -> str | None:
    """The evidence without a sentence-initial "All"/"Every"/"Each" when the claim
    states the rule of one generic member ("An injectable vaccine is given as a 1 ml
    dose" from "All injectable vaccines are given as a 1 ml dose"): what holds of all
    holds of any one. None when the claim does not open with "a"/"an" or the evidence
    has no such quantifier."""
    if not _GENERIC_CLAIM_RE.match(claim_text) or not _ALL_LEAD_RE.search(evidence_text):
        return None
    return _ALL_LEAD_RE.sub(lambda m: m.group(1), evidence_text)
