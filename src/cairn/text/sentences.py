"""Sentence and clause boundaries of English prose, as character ranges.

Sentences end at ``.``, ``!`` and ``?`` but not after abbreviations, initials or inside
numbers and code spans; clauses are cut at ``;``, contrastive conjunctions and spaced
dashes. Claim splitting and claim verification both cut text with these.
"""

from __future__ import annotations

import re

__all__ = [
    "ABBREVIATIONS",
    "SOFT_ABBREVIATIONS",
    "clause_ranges",
    "mask_code",
    "sentence_ranges",
]

ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "vs",
        "al",
        "fig",
        "figs",
        "eq",
        "eqs",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "no",
        "nos",
        "approx",
        "ca",
        "cf",
        "jr",
        "sr",
        "st",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "vol",
        "vols",
        "pp",
        "p",
        "ed",
        "eds",
        "ref",
        "refs",
        "resp",
        "gen",
        "gov",
        "ch",
        "art",
    ]
)
# Abbreviations that may also end a sentence: they end one only before a capital letter.
SOFT_ABBREVIATIONS = frozenset(
    [
        "in",
        "mg",
        "ml",
        "kg",
        "cm",
        "mm",
        "ft",
        "lb",
        "lbs",
        "oz",
        "sec",
        "min",
        "max",
        "avg",
        "est",
        "etc",
        "hr",
        "hrs",
        "yr",
        "yrs",
        "approx",
    ]
)

_END_RE = re.compile(r"[.!?]+(?=[\s\"')\]]|\[|$)")
_CODE_RE = re.compile(r"`[^`\n]*`")


def mask_code(text: str) -> str:
    """``text`` with code spans blanked out (same length), so punctuation in code is inert."""
    return _CODE_RE.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", text)


def sentence_ranges(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Character ranges of the sentences of ``text[start:end]``.

    Splits at ``.``, ``!`` and ``?`` followed by space, a closing mark, a citation or
    the end, but not after abbreviations ("e.g.", "et al."), initials ("m."), dotted
    tokens ("n.y.") or inside numbers ("2.5") and code spans.
    """
    end = len(text) if end is None else end
    masked = mask_code(text[:end])
    out: list[tuple[int, int]] = []
    cur = start
    for m in _END_RE.finditer(masked, start, end):
        if m.group() == "..":
            continue  # MEDLINE writes ".." for a colon
        if m.group().startswith(".") and len(m.group()) == 1:
            before = masked[cur : m.start()].split()
            prev = before[-1].lower().lstrip("([\"'") if before else ""
            following = masked[m.end() : m.end() + 40].lstrip(" \t\n[]E0123456789,")[:1]
            dotted = "." in prev and all(part.isalpha() for part in prev.split(".") if part)
            if prev in ABBREVIATIONS or (len(prev) == 1 and prev.isalpha()) or dotted:
                continue
            if prev.split("-")[-1] in SOFT_ABBREVIATIONS and not following.isupper():
                continue
            if prev.isdigit() and len(before) == 1:
                continue  # "1. " opening a numbered item
        out.append((cur, m.end()))
        cur = m.end()
    if masked[cur:end].strip():
        out.append((cur, end))
    return [(a, b) for a, b in (_trim(text, a, b) for a, b in out) if b > a]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


_CLAUSE_RE = re.compile(
    r";|,\s+(?:and|but|whereas|while|although|though|whilst|so|yet)\b|\s+(?:whereas|but|while|although|though|whilst|however)\b|\s+-{1,2}\s+",
    re.IGNORECASE,
)


def clause_ranges(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Character ranges of the clauses of one sentence, cut at ``;``, contrastive
    conjunctions ("whereas", "but", ", and") and spaced dashes."""
    masked = mask_code(text[:end])
    out: list[tuple[int, int]] = []
    cur = start
    for m in _CLAUSE_RE.finditer(masked, start, end):
        out.append((cur, m.start()))
        cur = m.start() if not m.group().startswith((";", ",")) else m.start() + 1
    out.append((cur, end))
    return [(a, b) for a, b in (_trim(text, a, b) for a, b in out) if b > a]
