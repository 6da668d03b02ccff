"""Two coordinated phrases in the other order (issue 12, session 9).

"Proposals must be written in English and submitted through the portal" and "Proposals
must be submitted through the portal and written in English" state the same: the two
conjuncts around "and" (or "or") have traded places. The earlier rules reorder
coordinated items of one or two words and whole clauses with their own subjects; a verb
phrase or a prepositional phrase ("kept at the deep end and next to the teaching pool",
"drafted by A and approved by B") fell between them.

The claim is read with two of its conjuncts swapped back where the evidence has exactly
those two word sequences in the other order around its own "and" (:func:`swapped_conjuncts`),
the second one ending its clause (or a phrase before ", but"), both holding as many relation words (so "sent to Bob by
Alice and Carol" never reads as "sent to Carol and Bob by Alice"), and that reading is
accounted strictly. Each conjunct must be copied word for word, so
"approved by A and drafted by B" never reads as "approved by B and drafted by A". Not
swapped: conjuncts that state an order ("then", "after", "first", "finally", ...), a
pronoun whose antecedent would move ("and replace it"), and any sentence with
"respectively" or "in that order", and none in a clause with another coordination (two
lists of one clause may pair their items by position: "Anna and Ben came first and second").
"""

from __future__ import annotations

import re

from cairn.answer.tokens import _ARTICLES

__all__ = ["swapped_conjuncts"]

_CONJ = frozenset({"and", "or"})
_ORDERED = frozenset(
    [
        "then",
        "later",
        "afterwards",
        "afterward",
        "subsequently",
        "finally",
        "first",
        "firstly",
        "second",
        "secondly",
        "third",
        "before",
        "after",
        "once",
        "until",
        "till",
        "followed",
        "following",
        "prior",
        "former",
        "latter",
        "while",
        "respectively",
    ]
)
_PRONOUNS = frozenset(
    [
        "it",
        "its",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "those",
        "he",
        "she",
        "him",
        "her",
        "his",
    ]
)
_PREPOSITIONS = frozenset(
    [
        "by",
        "from",
        "to",
        "than",
        "into",
        "onto",
        "over",
        "under",
        "per",
        "for",
        "with",
        "in",
        "on",
        "at",
        "through",
        "via",
        "across",
        "between",
        "among",
        "within",
        "without",
        "during",
        "near",
        "behind",
        "above",
        "below",
        "beside",
        "inside",
        "outside",
        "of",
        "about",
        "against",
        "along",
        "around",
        "toward",
        "towards",
        "upon",
    ]
)
_MAX_READINGS = 8

def _key(word: str) -> str:
    return word.lower().strip(",;:.!?()\"'")


def _relations(words: list[str]) -> int:
    """How many relation words (by, to, from, in, ...) a conjunct holds: parallel conjuncts
    hold as many ("drafted by A" / "approved by B"), "Bob by Alice" and "Carol" do not."""
    # After an article the word is an adjective ("the outside deck", "the above table").
    return sum(
        _key(w) in _PREPOSITIONS and (k == 0 or _key(words[k - 1]) not in _ARTICLES)
        for k, w in enumerate(words)
    )


#: Words that open a contrast after a comma, ending the phrase before them (session 10:
#: "allowed in A and on B, but not in C").
_CONTRASTS = frozenset(["but", "except"])


def _clause_end(words: list[str], k: int) -> bool:
    """``words[k]`` is the last word of its clause (of the text, or before . ; : ! ?, or
    before a comma and a contrast: ", but ...")."""
    if k == len(words) - 1 or words[k].endswith((".", ";", ":", "!", "?")):
        return True
    return words[k].endswith(",") and _key(words[k + 1]) in _CONTRASTS


def _other_list(words: list[str], start: int, end: int) -> bool:
    """The phrase of ``words[start:end]`` (the two conjuncts and their coordinator; up to
    a comma or a clause stop) holds another "and"/"or" outside them, not joining the ends of "between": two lists of one
    clause may pair their items by position ("Anna and Ben came first and second"), so
    one of them is not reordered alone (session 16)."""
    stops = (".", ";", ":", "!", "?", ",")  # a comma ends the phrase (see paired_lists)
    lo = start
    while lo > 0 and not words[lo - 1].endswith(stops):
        lo -= 1
    hi = end
    while hi < len(words) and not words[hi - 1].endswith(stops):
        hi += 1
    for k in [*range(lo, start), *range(end, hi)]:
        if _key(words[k]) not in _CONJ:
            continue
        back = [_key(w) for w in words[max(lo, k - 6) : k]]
        if "between" not in back or any(w in _CONJ for w in back[back.index("between") :]):
            return True
    return False


def swapped_conjuncts(claim_text: str, evidence_text: str) -> list[str]:
    """Readings of the claim with two conjuncts around one "and"/"or" swapped so that
    they follow the evidence's order; at most a few, none when order matters."""
    if re.search(r"\b(?:respectively|in that order)\b", f"{claim_text} {evidence_text}", re.I):
        return []
    cw = claim_text.split()
    ck = [_key(w) for w in cw]
    ew = evidence_text.split()
    ek = [_key(w) for w in ew]
    out: list[str] = []
    for i, word in enumerate(ck):
        if word not in _CONJ:
            continue
        for j in (j for j, w in enumerate(ek) if w == word):
            xs = [m for m in range(1, i + 1) if ck[i - m : i] == ek[j + 1 : j + 1 + m]]
            ys = [
                n
                for n in range(1, len(ck) - i)
                if ck[i + 1 : i + 1 + n] == ek[max(0, j - n) : j] and n <= j
            ]
            # The second conjunct ends its clause, in the evidence and in the claim: "Alice
            # paid Carol and Bob paid Dave" is no swap of "Alice paid Bob and Carol paid Dave".
            xs = [m for m in xs if _clause_end(ew, j + m)]
            ys = [n for n in ys if _clause_end(cw, i + n)]
            for m in xs:
                for n in ys:
                    x, y = cw[i - m : i], cw[i + 1 : i + 1 + n]
                    moved = {_key(w) for w in x + y}
                    if moved & (_ORDERED | _PRONOUNS | _CONJ) or _relations(x) != _relations(y):
                        continue
                    if i - m > 0 and ck[i - m - 1] == "between":
                        continue  # the ends of an interval: "between sunset and sunrise"
                    if _other_list(cw, i - m, i + 1 + n):
                        continue  # "A and B led X and Y": the lists pair by position
                    last = y[-1].rstrip(",;:.!?")
                    tail = y[-1][len(last) :]
                    end = tail if i + 1 + n == len(cw) or tail == "," else ""
                    reading = [
                        *cw[: i - m],
                        *y[:-1],
                        last,
                        cw[i],
                        *x[:-1],
                        x[-1].rstrip(",;") + end,
                    ]
                    reading += cw[i + 1 + n :]
                    text = " ".join(reading)
                    if text not in out and text != claim_text:
                        out.append(text)
                    if len(out) >= _MAX_READINGS:
                        return out
    return out
