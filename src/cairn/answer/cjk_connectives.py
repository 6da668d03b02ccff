"""A Chinese claim's "but" or "also" between two clauses its evidence states without
(issue 12, session 18c).

"享受低保的家庭可申请免交票费，但须提交有效证明" states what "…可以申请免交票费，须提交有效证明"
states: "但" ("but") joins the two clauses as the comma does, and only marks a contrast.
"不得在车内站立或走动，车内也不得饮食" states "…，车内不得饮食": "也" ("also") after the
second clause's subject adds only that the first clause said something alike, which the
claim itself says. The reading drops them from the claim only:

* where the evidence has no "但"/"也" at all (so an evidence "但" is never read away);
* "但"/"但是" only right after a clause comma, never in 不但 ("not only"), 但凡, 但书;
* "也" only in a clause after the claim's first (its "also" refers to the claim's own
  earlier clause), right before a modal, a negation or a verb phrase, never in 也许/也可能
  ("perhaps": a modality), 也就是 ("that is") or 也好.

Everything else of each clause is accounted as written (:mod:`cairn.answer.account`).
"""

from __future__ import annotations

import re

__all__ = ["connective_reading"]

_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
_ZH_BUT_RE = re.compile(r"(?<=[，,；;])\s?但(?:是)?(?![凡书])(?=[\u4e00-\u9fff\d])")
_CLAUSE_COMMA_RE = re.compile("[，,；;]")
_ZH_ALSO_RE = re.compile(r"(?<=[\u4e00-\u9fff])也(?![许就好罢])(?!可能)(?=[\u4e00-\u9fff])")


def connective_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim without the "但"/"也" its evidence does not have, evidence), or None."""
    if _KANA_HANGUL.search(claim_text + evidence_text):
        return None
    reading = claim_text
    if "但" in reading and "但" not in evidence_text:
        reading = _ZH_BUT_RE.sub("", reading)
    if "也" in reading and "也" not in evidence_text:
        comma = _CLAUSE_COMMA_RE.search(reading)
        if comma:
            reading = reading[: comma.end()] + _ZH_ALSO_RE.sub("", reading[comma.end() :])
    return None if reading == claim_text else (reading, evidence_text)
