"""Two clauses of one sentence joined by a semicolon, in either order (issue 12, session 8).

"Bikes must be returned to a dock; they must not be left on the street" and "Bikes must
not be left on the street; they must be returned to a dock" state the same two rules:
the second clause's subject pronoun stands for the first clause's subject, whichever
clause comes first. Each text is read as its two clauses with that pronoun replaced by
the subject (:func:`semicolon_clauses`), and the claim is accounted clause by clause
against the evidence's clauses in the other order (:func:`swapped_clauses`).

The pronoun is resolved only where it can stand for nothing else: "they" for a plural
subject in a first clause with no other plural noun phrase, "it" for a singular one in
a first clause that names no other noun phrase ("Clients may send an If-Match header;
it is optional": "it" is the header). A clause that still differs is not accounted.

Session 18a: a claim may join the two clauses with a contrast, ", while" / ", whereas" /
", but", where the evidence has the semicolon ("Casks are not carbonated, while kegs are
filled at 2.4 volumes" from "Kegs are filled at 2.4 volumes; casks are not carbonated"):
the claim is read with ";" there (:func:`contrast_clauses`), in either order. A "while"
or "whereas" only between two clauses that repeat a word (a verb, an auxiliary or the
noun they contrast: "The principal conductor leads ..., while the assistant conductor
leads ..."), as a contrast does; "The pump must stop while the tank is filled" says "at
the time", which two clauses with a semicolon do not.
"""

from __future__ import annotations

import re

from cairn.answer.coordination import _AUX_WORDS

__all__ = ["contrast_clauses", "semicolon_clauses", "swapped_clauses"]

_PRONOUN_RE = re.compile(r"^(they|it)\s+(\S+)\s", re.IGNORECASE)
_OTHER_NP_RE = re.compile(r"\b(?:a|an|the|this|that|these|those|its|their|any)\s+([\w-]+)", re.IGNORECASE)
_PLURAL_RE = re.compile(r"^[a-z][\w-]*[^s\W]s$", re.IGNORECASE)


def _plural(noun: str) -> bool:
    return _PLURAL_RE.match(noun) is not None or noun.lower() in ("staff", "people", "children")


def semicolon_clauses(text: str) -> tuple[str, str] | None:
    """The two clauses of a sentence "A; B", the subject pronoun opening B replaced by
    A's subject when it can stand for nothing else; None for any other text."""
    parts = [p.strip() for p in text.strip().rstrip(".!").split(";")]
    if len(parts) != 2 or any(len(p.split()) < 3 for p in parts):
        return None
    first, second = parts[0], parts[1][:1].upper() + parts[1][1:]  # a sentence of its own
    m = _PRONOUN_RE.match(second)
    if m is None or m.group(2).lower() not in _AUX_WORDS:
        return first, second
    words = first.split()
    at = next((i for i, w in enumerate(words) if w.lower() in _AUX_WORDS), None)
    if at is None or not 1 <= at <= 4:
        return None
    subject, rest = words[:at], " ".join(words[at:])
    plural = _plural(subject[-1])
    if (m.group(1).lower() == "they") != plural:
        return None
    others = [n for n in _OTHER_NP_RE.findall(rest)]
    if (plural and any(_plural(n) for n in others)) or (not plural and others):
        return None
    return first, " ".join(subject) + second[len(m.group(1)) :]


def swapped_clauses(claim_text: str, evidence_text: str) -> list[tuple[str, str]]:
    """The claim's two semicolon clauses paired with the evidence's in the other order;
    a claim of one clause paired with the evidence's second clause, its pronoun resolved
    ("Bikes must not be left on the street" from "...; they must not be left on the
    street"); or no pairs."""
    evidence = semicolon_clauses(evidence_text)
    if evidence is None:
        return []
    if ";" not in claim_text:
        return [(claim_text, evidence[1])]
    claim = semicolon_clauses(claim_text)
    if claim is None:
        return []
    return [(claim[0], evidence[1]), (claim[1], evidence[0])]


_CONTRAST_RE = re.compile(r",\s+(while|whereas|but)\s+(?=[A-Za-z])")
_FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "of", "in", "on", "at", "to", "for", "with", "by", "from", "and", "or", "not"]
)  # fmt: skip


def contrast_clauses(claim_text: str, evidence_text: str) -> list[list[tuple[str, str]]]:
    """Groups of (claim clause, evidence clause) pairs for a claim "A, while/whereas/but B"
    against an evidence sentence "A; B" or "B; A" (see the module docstring); [] otherwise."""
    if ";" in claim_text or semicolon_clauses(evidence_text) is None:
        return []
    found = list(_CONTRAST_RE.finditer(claim_text))
    if len(found) != 1:
        return []
    m = found[0]
    first, second = claim_text[: m.start()].strip(), claim_text[m.end() :].strip()
    if len(first.split()) < 3 or len(second.split()) < 3:
        return []
    if m.group(1) != "but":
        words = [{w.strip(",.").lower() for w in part.split()} - _FUNCTION_WORDS for part in (first, second)]
        if not words[0] & words[1]:
            return []
    joined = f"{first}; {second}"
    groups = [swapped_clauses(joined, evidence_text)]
    claim, evidence = semicolon_clauses(joined), semicolon_clauses(evidence_text)
    if claim is not None and evidence is not None:
        groups.append([(claim[0], evidence[0]), (claim[1], evidence[1])])
    return [g for g in groups if g]
