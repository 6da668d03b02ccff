"""Order of CJK claims for the strict account (:mod:`cairn.answer.account`): each
clause of a CJK claim lies in one clause of the evidence, each of its coordinated items
contiguous there, or carries the sentence's topic into a later clause."""

from __future__ import annotations

from cairn.answer.gaps import _CJK_QUALIFIER_CHARS
from cairn.answer.tokens import _ARTICLES, AccountToken, _is_conj, _same


def cjk_pairs(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> bool:
    """Each clause of a CJK claim lies in one clause of the evidence, each of its
    coordinated items ("、", "和" separate them) as a contiguous run there."""
    # The claim comes without articles; so does the evidence here ("A동" is read as "동"
    # on both sides, never as the "(B동)" of another item).
    ev = tuple(t for t in ev if not (t.kind == "w" and t.key in _ARTICLES))
    ev_clauses = _cjk_clauses(list(ev))
    for clause in _cjk_clauses(claim):
        segments = _cjk_segments(clause)
        coordinated = len(segments) > 1
        if not any(
            all(_contains(ev_clause, seg, coordinated) for seg in segments)
            for ev_clause in ev_clauses
        ) and not any(_shared_topic(clause, sent) for sent in _cjk_sentences(ev)):
            return False
    return True


def _cjk_sentences(ev: tuple[AccountToken, ...]) -> list[list[list[AccountToken]]]:
    """The evidence's sentences, each as its list of clauses."""
    out: list[list[AccountToken]] = [[]]
    for t in ev:
        out[-1].append(t)
        if t.kind == "p" and t.key in "。.!?！？":
            out.append([])
    return [_cjk_clauses(s) for s in out if s]


def _shared_topic(clause: list[AccountToken], ev_clauses: list[list[AccountToken]]) -> bool:
    """A claim clause that carries the sentence's topic into a later clause of the
    evidence: "设备部每周检查A，每月检查B" accounts "设备部每月检查B". The topic is the
    start the claim clause shares with the evidence's first clause, up to (not including)
    a qualifier (每, 不, 只, ...); the rest of the claim clause must be one contiguous
    run of a later evidence clause."""
    if len(ev_clauses) < 2:
        return False
    first = ev_clauses[0]
    n = 0
    while (
        n < min(len(clause), len(first)) - 1
        and _same(clause[n], first[n])
        and not (clause[n].kind == "c" and clause[n].key in _CJK_QUALIFIER_CHARS)
    ):
        n += 1
    if n < 2:
        return False
    # Session 18c: its coordinated items may come in another order there, as in a
    # clause of its own ("年会期间红酒、啤酒可适量饮用" for "…，啤酒、红酒可适量饮用").
    segments = _cjk_segments(clause[n:])
    return any(
        all(_contains(ev_clause, seg, len(segments) > 1) for seg in segments)
        for ev_clause in ev_clauses[1:]
    )


#: Marks that stay inside a clause: the enumeration comma, and parentheses (session 10: a
#: coordinated item keeps its parenthesis, 여학생동(B동)과 남학생동(A동)).
_IN_CLAUSE = frozenset("、()（）")


def _cjk_clauses(tokens: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in tokens:
        if t.kind == "p" and t.key not in _IN_CLAUSE:
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


def _cjk_segments(clause: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in clause:
        if _is_conj(t):
            out.append([])
        elif not (t.kind == "w" and t.key in _ARTICLES):
            out[-1].append(t)
    return [s for s in out if s]


def _contains(hay: list[AccountToken], seg: list[AccountToken], split: bool = False) -> bool:
    """``seg`` is a contiguous run of ``hay``; with ``split`` (an item of a reordered
    coordination carrying the shared predicate) it may be two runs."""
    if _starts(hay, seg):
        return True
    # Session 8: the second run comes after the first, as the shared part and the item
    # stand in the evidence: a "た" found earlier in the clause is not the end of
    # "請求し" (請求した is not 請求する after 喫煙した).
    # Never through a parenthesis the item closes: "남학생동(" + "B동)" is not the item
    # 남학생동(B동) (an item inside a parenthesis, "文件（" + "所有者", may still move).
    return split and any(
        any(i + k <= j for i in _starts(hay, seg[:k]) for j in _starts(hay, seg[k:]))
        for k in range(1, len(seg))
        if not _cuts_parenthesis(seg, k)
    )


def _cuts_parenthesis(seg: list[AccountToken], k: int) -> bool:
    """Whether ``seg[:k]`` opens a parenthesis that ``seg[k:]`` closes."""
    opened = sum((t.key in "(（") - (t.key in ")）") for t in seg[:k] if t.kind == "p")
    return opened > 0 and any(t.kind == "p" and t.key in ")）" for t in seg[k:])


def _starts(hay: list[AccountToken], seg: list[AccountToken]) -> list[int]:
    """The positions where ``seg`` is a contiguous run of ``hay``."""
    n = len(seg)
    return [i for i in range(len(hay) - n + 1) if all(_same(seg[j], hay[i + j]) for j in range(n))]

