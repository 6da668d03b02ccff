"""A CJK title line above the sentence it names (issue 12, session 19c).

A CJK note may open a paragraph with a short line that names its issuer or subject,
without punctuation, and go on with sentences on the next lines:

    仁和医院住院部
    本须知为第4版，自2027年3月1日起施行，…

Consecutive lines form one block, and a CJK sentence ends only at "。！？", so the title
was read as the start of the first sentence ("仁和医院住院部本须知为第4版，…"), and a claim
restating that sentence was not accounted. As English title lines have been since session
14 (:func:`cairn.answer.evidence._title_line`), such a line is a unit of its own when it is
the first line of its block, is short (at most 20 characters), has no punctuation and no
character that could make it restrict the next line (a condition, negation, modality or
limit: 如/若/凡/除/不/未/无/非/须/应/必/可/得/仅/只/每, kana conditionals and Korean
endings are excluded by asking for Han characters only), and the next line holds a sentence
end. A wrapped sentence's first line (which has its punctuation, or a condition word) stays
joined to the rest.
"""

from __future__ import annotations

import re

__all__ = ["cjk_title_line"]

_TITLE_RE = re.compile(r"^[\u4e00-\u9fff\w]{2,20}$")
_RESTRICTING_RE = re.compile(r"[如若凡除不未无非须应必可得仅只每]")
_SENTENCE_END_RE = re.compile(r"[。！？]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")


def cjk_title_line(block: str, line: str) -> bool:
    """``block`` (the lines read so far) is one CJK title line that ``line`` does not go on."""
    prev = block.strip()
    if "\n" in prev or not _TITLE_RE.match(prev) or not _HAN.search(prev):
        return False
    if _KANA_HANGUL.search(prev) or _RESTRICTING_RE.search(prev) or re.search(r"\d", prev):
        return False
    return bool(_HAN.search(line[:1]) and _SENTENCE_END_RE.search(line))
