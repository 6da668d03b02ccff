"""Coordinated items in another order (issue 12, session 14).

"The centre is closed between 24 December and 1 January and on public holidays" states
what "The centre is closed on public holidays and between 24 December and 1 January"
does: the items of one coordination ("A and B", "A, B or C") may come in any order. The
relation checks of :mod:`cairn.answer.account` compare the neighbours of each relation
word, so a moved prepositional item ("on", "between", "with") or a moved verb phrase
("must not sit on seats") reads as a relation with other sides.

:func:`item_orders` gives the claim with the items of one of its coordinations put in
the evidence's order, when the evidence holds exactly these items (word for word, by
their words without punctuation and case) joined by the same coordinator; the caller
accounts the result as any claim. Items are found by the evidence, never guessed: the
evidence's list must consist of the claim's items and nothing else, so an item cut at
another boundary ("£5 for adults" / "£3 for children") does not match a list that pairs
the values otherwise. Not read as a list: the two ends of "between X and Y", a claim
with "respectively" (its lists pair by position), a claim with another coordinator
outside the list (two lists may pair by position: "A and B came first and second"), an
item that opens with a negation (its scope may be the whole list), an item with a
pronoun, a condition or a sequence word (their reading depends on the order), and items
that are not parallel (:func:`_parallel`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

__all__ = ["item_orders", "restated"]

_CONJ = frozenset(["and", "or"])
_NEGATIONS = frozenset(["not", "no", "never", "nor", "neither", "without"])
_MAX_ITEM = 12  # words per item
_MAX_ITEMS = 5
_PUNCT = ".,;:!?\"'()"


def _key(word: str) -> str:
    return word.strip(_PUNCT).lower()


def _between_and(words: Sequence[str], i: int) -> bool:
    """The coordinator at ``i`` joins the two ends of "between X and Y"."""
    for k in range(i - 1, max(-1, i - 6), -1):
        w = words[k]
        if _key(w) == "between":
            return True
        if w.endswith((",", ";", ":")) or _key(w) in _CONJ:
            return False
    return False


def _items(words: Sequence[str], start: int, end: int) -> list[tuple[str, ...]] | None:
    """The comma-separated items of ``words[start:end]`` (keys), or None when one is empty
    or opens with a negation."""
    items: list[tuple[str, ...]] = []
    cur: list[str] = []
    for w in words[start:end]:
        k = _key(w)
        if k:
            cur.append(k)
        if w.endswith(","):
            items.append(tuple(cur))
            cur = []
    if cur:
        items.append(tuple(cur))
    if not items or any(not it or it[0] in _NEGATIONS or _BOUND & set(it) for it in items):
        return None
    return items


#: Words whose reading depends on the order of the items: a pronoun takes its antecedent
#: from before it ("Replace it ... and inspect the filter"), and a condition or cause may
#: hold for the whole coordination ("... if the valve leaks").
_BOUND = frozenset(
    ["it", "its", "they", "them", "their", "this", "that", "these", "those", "he", "she",
     "him", "her", "his", "if", "unless", "when", "whenever", "because", "since", "while",
     "although", "once", "provided", "then", "first", "afterwards", "later", "respectively"]
)  # fmt: skip


def _match(
    ev: Sequence[str], keys: Sequence[str], j: int, items: Sequence[tuple[str, ...]]
) -> tuple[int, int, list[int]] | None:
    """The evidence list around its coordinator ``j`` made of exactly ``items``: (start,
    end, the order of the items), or None. The item after the coordinator comes last;
    the others precede it, separated by commas."""
    n = len(items)
    for last in range(n):
        it = items[last]
        end = j + 1 + len(it)
        if tuple(keys[j + 1 : end]) != it:
            continue
        found = _back(ev, keys, j, items, [last])
        if found is not None:
            start, order = found
            return start, end, order
    return None


def _back(
    ev: Sequence[str],
    keys: Sequence[str],
    p: int,
    items: Sequence[tuple[str, ...]],
    used: list[int],
) -> tuple[int, list[int]] | None:
    """Items before position ``p`` (exclusive) until all are used; returns the start and
    the order (first item first)."""
    if len(used) == len(items):
        return p, list(reversed(used))
    for k in range(len(items)):
        if k in used:
            continue
        it = items[k]
        s = p - len(it)
        if s < 0 or tuple(keys[s:p]) != it:
            continue
        if len(used) + 1 < len(items) and (s == 0 or not ev[s - 1].endswith(",")):
            continue  # another item precedes this one: a comma ends the word before it
        got = _back(ev, keys, s, items, [*used, k])
        if got is not None:
            return got
    return None


_PREPS = frozenset(
    ["by", "from", "to", "for", "of", "in", "on", "at", "with", "into", "than", "via", "per",
     "under", "over", "after", "before", "between", "within", "without", "during", "until",
     "through", "across", "along", "around", "inside", "outside", "near", "beside", "below",
     "above", "behind", "throughout", "towards", "toward", "upon", "onto", "off", "since"]
)  # fmt: skip
_VERB_LEADS = frozenset(
    ["must", "may", "can", "cannot", "should", "shall", "will", "is", "are", "was", "were",
     "has", "have", "had", "does", "do", "did", "need", "needs"]
)  # fmt: skip
_AMOUNT_LEADS = (("up", "to"), ("at", "least"), ("at", "most"), ("more", "than"),
                 ("less", "than"), ("fewer", "than"), ("no", "more", "than"))  # fmt: skip


def _inner_preps(item: tuple[str, ...]) -> frozenset[str]:
    """The prepositions inside an item (after its first word and an amount's "up to")."""
    for lead in _AMOUNT_LEADS:
        if item[: len(lead)] == lead:
            item = item[len(lead) - 1 :]
            break
    return frozenset(w for w in item[1:] if w in _PREPS)


def _parallel(items: Sequence[tuple[str, ...]]) -> bool:
    """The items read as the conjuncts of one coordination, whatever their boundaries:
    each opens with a preposition, or one with a modal or auxiliary (verb phrases), or
    the prepositions inside them are the same in each. "Bob by Alice" and "Carol" are
    not parallel: "by Alice" may be the verb's agent, outside the coordination ("sent to
    Bob by Alice and Carol" is not "sent to Carol and Bob by Alice")."""
    if all(it[0] in _PREPS for it in items) or any(it[0] in _VERB_LEADS for it in items):
        return True
    inner = [_inner_preps(it) for it in items]
    return not any(inner) or bool(frozenset.intersection(*inner))


def item_orders(claim: str, evidence: str) -> Iterator[str]:
    """The claim with the items of one coordination in the evidence's order (see the
    module docstring); nothing when no coordination of the claim is reordered there."""
    if "respectively" in claim.lower():
        return
    cw = claim.split()
    ckeys = [_key(w) for w in cw]
    conj_at = [i for i, k in enumerate(ckeys) if k in _CONJ and not _between_and(cw, i)]
    if len(conj_at) != 1:
        return
    i = conj_at[0]
    ew = evidence.split()
    ekeys = [_key(w) for w in ew]
    ev_conj = [j for j, k in enumerate(ekeys) if k == ckeys[i]]
    if not ev_conj:
        return
    seen: set[str] = set()
    for left in range(i - 1, max(-1, i - 1 - _MAX_ITEM * 2), -1):
        if left > 0 and _key(cw[left - 1]) == "between":
            continue
        head = _items(cw, left, i)
        if head is None or len(head) >= _MAX_ITEMS:
            continue
        for right in range(i + 2, min(len(cw), i + 1 + _MAX_ITEM) + 1):
            if cw[right - 2].endswith((",", ";", ":")) and right - 1 > i + 1:
                break  # the last item ends at its first punctuation
            tail = _items(cw, i + 1, right)
            if tail is None or len(tail) != 1:
                continue
            items = [*head, *tail]
            if len(set(items)) != len(items) or not _parallel(items):
                continue
            for j in ev_conj:
                got = _match(ew, ekeys, j, items)
                if got is None or got[2] == list(range(len(items))):
                    continue
                start, end, _order = got
                moved = [w.rstrip(_PUNCT) or w for w in ew[start:end]]
                trail = re.sub(r"^.*?([.,;:!?]*)$", r"\1", cw[right - 1])
                out = " ".join([*cw[:left], *ew[start : end - 1], moved[-1] + trail, *cw[right:]])
                if out not in seen:
                    seen.add(out)
                    yield out


def restated(claim: str, evidence: str) -> Iterator[str]:
    """The claim's restatements that the evidence guides: its coordinated items in the
    evidence's order, then a version named as the evidence names it
    (:mod:`cairn.answer.version_names`)."""
    from cairn.answer.version_names import version_names

    yield from item_orders(claim, evidence)
    yield from version_names(claim, evidence)
