"""A CJK condition or scope clause in front of the copied part (issue 12, session 19c).

"お買い上げが5,000円以上で、送料は無料です" does not account "送料は無料です", nor
"购物满5000元，运费免费" "运费免费", nor "5만 원 이상 구매하면, 배송비는 무료이다"
"배송비는 무료이다": the clause in front is the condition of what is copied. The English
rule (:func:`cairn.answer.gaps._fronted_scope`) reads an opening word ("If", "In"); a
Chinese condition opens with one too (如果, 若, 凡, 只要, 满 …) or closes with 的/时/后/的话,
while a Japanese or Korean one is marked at its end, right before the comma: a conditional
form (ば, たら, なら, と, ても, 면), a noun of circumstance (場合, 際, とき, 限り, 경우, 때, 시),
a threshold closed by the copula (以上で, 未満で) or a fronted topic that frames the rest
(雨の日は、, 주말에는,).
"""

from __future__ import annotations

import re

from cairn.answer.cjk_forms import _HANGUL, _KANA
from cairn.answer.tokens import AccountToken

__all__ = ["cjk_condition_in_gap", "cjk_fronted_condition"]


_COMMAS = frozenset(["，", ",", "、"])
_STOPS = frozenset(["。", "！", "？", "；", ";", ".", "!", "?", "，", ",", "、", ":", "："])

_JA_END_RE = re.compile(
    r"(?:場合(?:は|に|には|も)?|際(?:は|に|には)?|とき(?:は|に|には)?|時(?:は|に|には)?|限り|"
    r"なら(?:ば)?|[ればけ]ば|たら|だら|ても|でも|ては|と|"
    r"(?:以上|以下|未満|以内|超|以降|以前)で|[^、]は)$"
)
_KO_END_RE = re.compile(r"(?:면|경우(?:에|에는|엔)?|때(?:는|에|에는)?|시(?:에|에는)?|에는|에서는|라도|도)$")
_ZH_START_RE = re.compile(r"^(?:如果|如|若|假如|倘若|凡|只要|只有|一旦|遇|除|满|未|在|对于|对)")
_ZH_END_RE = re.compile(r"(?:的话|的|时|后|前|期间|以上|以下|以内)$")
#: A threshold anywhere in a Japanese lead closed by で ("5,000円以上のお買い上げで、").
_THRESHOLD_RE = re.compile(r"以上|以下|未満|以内|超|まで")
#: A Chinese amount reached ("购物满5000元，", "超过3天，").
_ZH_REACH_RE = re.compile(r"(?:满|超过|超出|达到|不足|不满)0")


def cjk_fronted_condition(ev: tuple[AccountToken, ...], lo: int) -> str | None:
    """The CJK clause in front of the copied part (which starts at ``lo``, right after
    a comma) when it is a condition or scope of it, else None."""
    if lo < 1 or ev[lo].kind not in ("c", "n"):
        return None
    return _condition_before(ev, lo - 1)


def cjk_condition_in_gap(ev: tuple[AccountToken, ...], run: list[int]) -> str | None:
    """A CJK condition clause closed by a comma inside a left-out ``run`` ("이 규정은
    이사회가 승인하면, 3월 1일부터 시행한다" does not account "이 규정은 3월 1일부터
    시행한다"), else None."""
    left_out = set(run)
    for k in run:
        if k - 1 not in left_out:
            continue  # the clause before the comma is copied: the claim states it
        if ev[k].kind == "p" and ev[k].key in _COMMAS and k + 1 < len(ev) and ev[k + 1].kind in ("c", "n"):
            hit = _condition_before(ev, k)
            if hit:
                return hit
    return None


def _condition_before(ev: tuple[AccountToken, ...], k: int) -> str | None:
    """The clause that ends at the comma ``k`` when it is a condition or scope."""
    if k < 1 or not (ev[k].kind == "p" and ev[k].key in _COMMAS):
        return None
    s = k - 1
    while s >= 0 and not (ev[s].kind == "p" and ev[s].key in _STOPS):
        s -= 1
    lead = ev[s + 1 : k]
    if not lead or not any(t.kind == "c" for t in lead):
        return None
    text = "".join(t.text if t.kind == "c" else "0" for t in lead)
    if _KANA.search(text):
        hit = _JA_END_RE.search(text) or (text.endswith("で") and _THRESHOLD_RE.search(text))
    elif _HANGUL.search(text):
        hit = _KO_END_RE.search(text.replace(" ", ""))
    else:
        hit = _ZH_START_RE.search(text) or _ZH_END_RE.search(text) or _ZH_REACH_RE.search(text)
    return text if hit else None
