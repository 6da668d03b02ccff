"""Readings of a Chinese claim that state the same as its evidence (issue 12, session 9).

An attributive "的" between two nouns adds nothing: "适用于公司的全体正式员工" says what
"适用于公司全体正式员工" says. A claim "的" is read away only where the evidence writes the
two characters on each side of it as one run ("公司全体" for "公司的全体"), so the phrase
is the evidence's own, word for word; a "的" whose neighbours the evidence does not join
(or joins in another order, "全体公司") stays, and the claim is accounted as written.
"""

from __future__ import annotations

import re

__all__ = ["attributive_reading"]

_HAN = "\u4e00-\u9fff"
_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
#: "的" with two Han characters on each side (a word 目的 or 的确 keeps its "的": the
#: evidence never joins its neighbours as the claim would need).
_DE_RE = re.compile(f"(?<=[{_HAN}]{{2}})的(?=[{_HAN}]{{2}})")


def attributive_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim without each attributive "的" whose neighbours the evidence joins, evidence),
    or None when no "的" of the claim is so read (or the text is not Chinese)."""
    if "的" not in claim_text or _KANA_HANGUL.search(claim_text + evidence_text):
        return None

    def drop(m: re.Match[str]) -> str:
        s = m.string
        joined = s[m.start() - 2 : m.start()] + s[m.end() : m.end() + 2]
        return "" if joined in evidence_text else m.group()

    reading = _DE_RE.sub(drop, claim_text)
    return None if reading == claim_text else (reading, evidence_text)
