"""Readings of a Chinese claim that state the same as its evidence (issue 12, session 9).

An attributive "的" between two nouns adds nothing: "适用于公司的全体正式员工" says what
"适用于公司全体正式员工" says. A claim "的" is read away only where the evidence writes the
two characters on each side of it as one run ("公司全体" for "公司的全体"), so the phrase
is the evidence's own, word for word; a "的" whose neighbours the evidence does not join
(or joins in another order, "全体公司") stays, and the claim is accounted as written.

An edition named by a copula clause of its own is the edition of what follows it:
"本办法为第3版，自2027年7月1日起施行" says "本办法第3版自2027年7月1日起施行" (and, with
the attributive 的, "本公示第2版的发布日期为..."). Only "为第N版" (or 第N次修订, 第N期)
right before "，" is so read.
"""

from __future__ import annotations

import re

__all__ = ["attributive_reading", "edition_reading"]

_HAN = "\u4e00-\u9fff"
_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
#: "的" with two Han characters on each side (a word 目的 or 的确 keeps its "的": the
#: evidence never joins its neighbours as the claim would need).
_DE_RE = re.compile(f"(?<=[{_HAN}\\d][{_HAN}])的(?=[{_HAN}]{{2}})")  # 第2版的发布 too


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


_EDITION_RE = re.compile(r"(?<=[\u4e00-\u9fff])为(第[\d一二三四五六七八九十]+(?:版|次修订|期))[，,]")


def edition_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim, evidence with each "为第N版，" read as "第N版"), the claim's attributive 的
    read against that, or None when the evidence names no edition so."""
    if "为第" not in evidence_text or _KANA_HANGUL.search(claim_text + evidence_text):
        return None
    reading = _EDITION_RE.sub(r"\1", evidence_text)
    if reading == evidence_text:
        return None
    return attributive_reading(claim_text, reading) or (claim_text, reading)
