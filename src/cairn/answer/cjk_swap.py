"""When a CJK run of a claim is another's swapped value (issue 12, session 16b).

Chinese and Japanese are written without spaces, so the word reader of
:mod:`cairn.answer.align` takes a whole clause between punctuation as one word, and one
with a digit in it as a name ("延長保育の終了時刻を18時30分から19時に延長しました"). A claim
run that differs from the evidence's run in that place was read as a swapped name, an
``entity_mismatch`` contradiction, whatever the difference was. A contradiction needs one
concrete conflicting slot: the two runs are a swap only when, in their canonical forms
(:func:`cairn.answer.cjk_forms.canonical_cjk`), they differ in **one** stretch of
characters (每天备份2次 / 每天备份3次; 由张伟审批 / 由李娜审批), not counting stretches of
only a copula, particle or punctuation (本办法为第3版，自… / 本办法第4版自…). Runs that differ in two or
more places ("30分延長して19時に" against "18時30分から19時に延長") restate or rearrange
the clause; they are not a conflict of one slot, and the claim is left ``insufficient``
for that unit rather than ``contradicted``.
"""

from __future__ import annotations

import difflib
import re

from cairn.answer.cjk_forms import canonical_cjk

__all__ = ["one_slot_apart"]

_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")


def one_slot_apart(claim_words: list[str], evidence_words: list[str]) -> bool:
    """Whether the claim's words differ from the evidence's in one stretch (always True
    for words without CJK characters, whose swap is read word by word)."""
    a, b = "".join(claim_words), "".join(evidence_words)
    if not (_CJK.search(a) and _CJK.search(b)):
        return True
    a, b = canonical_cjk(a), canonical_cjk(b)
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    return sum(tag != "equal" and not _function_only(a[i1:i2] + b[j1:j2]) for tag, i1, i2, j1, j2 in ops) <= 1


#: Copulas, particles and punctuation: a stretch of only these is no slot of its own
#: ("本办法为第3版，自…" against "本办法第4版自…" differs in one slot, the edition).
_FUNCTION = frozenset("为是的のはがをにでと、，, 은는이가을를의에")


def _function_only(text: str) -> bool:
    return all(ch in _FUNCTION for ch in text)
