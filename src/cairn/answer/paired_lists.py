"""Two coordinations of one clause reordered on one side only (issue 12, session 16).

"Anna and Ben finished first and second" pairs its two lists by position: Anna first,
Ben second. "Ben and Anna finished first and second" has every word of it, and the
account may place each word (coordinated items may be reordered), but it pairs the items
the other way. A sentence with two coordinations in one clause may be read this way
whether or not it says "respectively" ("A and B lead sales and support", "men and women
need 135 and 125 g/l"), so the claim may reorder both lists together or neither, never
one alone.

:func:`one_side_reordered` reads the claim's placement in the evidence (``picks``: the
evidence position of each claim token): for each "and"/"or" of the evidence that the
claim copies with both its neighbours, the claim keeps the neighbours in the evidence's
order or swaps them. A clause of the evidence (up to ";", ".", "?", "!" or ":") where one
coordination is swapped and another of as many items kept, both joined by "and", with no
comma between them and one of them joining values (numbers, ordinals, names), is refused
("A or B" offers alternatives, and "the quantity and nature of X" pairs with nothing): a comma ends a phrase (", and one shed per half plot"; "If the seal is broken or
missing, the receiver must stop and call ..."), and lists of two and three items ("Phones,
watches and earbuds must be switched off and placed ...") do not pair. The two ends of "between X and Y"
are no coordination here, and a coordinator whose neighbour the claim leaves out is not
read at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from cairn.answer.tokens import _ARTICLES, AccountToken

__all__ = ["one_side_reordered"]

_CONJ = frozenset(["and", "or"])
_STOPS = frozenset(";.:!?")
_BETWEEN_REACH = 6  # tokens back from "and" to the "between" whose ends it joins


def _between_ends(ev: Sequence[AccountToken], k: int) -> bool:
    for j in range(k - 1, max(-1, k - 1 - _BETWEEN_REACH), -1):
        t = ev[j]
        if t.kind == "w" and t.key == "between":
            return True
        if t.kind == "p" or (t.kind == "w" and t.key in _CONJ):
            return False
    return False


def _side(ev: Sequence[AccountToken], k: int, step: int) -> int | None:
    """The position of the conjunct word next to the coordinator at ``k`` (articles and
    a list comma skipped), or None at a clause stop."""
    j = k + step
    while 0 <= j < len(ev):
        t = ev[j]
        if t.kind == "p" and t.key in _STOPS:
            return None
        if not (t.kind == "p" or (t.kind == "w" and t.key in _ARTICLES)):
            return j
        j += step
    return None


_ORDINALS = frozenset(
    ["first", "second", "third", "fourth", "fifth", "last", "former", "latter"]
)  # fmt: skip


def _named(ev: Sequence[AccountToken], k: int) -> bool:
    """The conjunct word at ``k`` is a value that can be paired: a number, quantity or
    date, an ordinal, or a capitalised name inside the sentence."""
    t = ev[k]
    if t.kind == "n" or (t.kind == "w" and t.key in _ORDINALS):
        return True
    initial = k == 0 or (ev[k - 1].kind == "p" and ev[k - 1].key in _STOPS)
    return t.kind == "w" and t.text[:1].isupper() and not initial


def _size(ev: Sequence[AccountToken], k: int, lo: int) -> int:
    """The number of items of the coordination whose coordinator is at ``k``: two, and
    one more per list comma since ``lo`` (the previous coordinator or clause stop), a
    comma right before the coordinator aside ("A, B, and C" has three)."""
    commas = sum(1 for j in range(lo + 1, k - 1) if ev[j].kind == "p" and ev[j].key == ",")
    return 2 + commas


def one_side_reordered(ev: Sequence[AccountToken], picks: Sequence[int]) -> str | None:
    """A reason when the claim (placed at ``picks``) swaps the items of one coordination
    of an evidence clause and keeps those of another of as many items, with no comma
    between the two; None otherwise."""
    at = {p: i for i, p in enumerate(picks)}
    prev = -1  # the previous coordinator or clause stop
    # (position, items, swapped, names a value) per coordinator of the clause
    clause: list[tuple[int, int, bool, bool]] = []
    for k, t in enumerate(ev):
        if t.kind == "p" and t.key in _STOPS:
            clause, prev = [], k
            continue
        if not (t.kind == "w" and t.key in _CONJ) or _between_ends(ev, k):
            continue
        size = _size(ev, k, prev)
        prev = k
        left, right = _side(ev, k, -1), _side(ev, k, 1)
        if left is None or right is None or left not in at or right not in at:
            continue
        swapped = at[left] > at[right]
        named = _named(ev, left) or _named(ev, right)
        for j, n, other, other_named in clause:
            apart = any(e.kind == "p" and e.key == "," for e in ev[j + 1 : k])
            same = ev[j].key == t.key == "and"
            if same and n == size and not apart and other != swapped and (named or other_named):
                return "two lists paired by position are reordered on one side only"
        clause.append((k, size, swapped, named))
    return None
