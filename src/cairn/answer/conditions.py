"""A condition clause read at the other end of its sentence (issue 12, session 12).

"The grower must give two extra cycles if the EC rises above 4.5" and "If the EC rises
above 4.5, the grower must give two extra cycles" state one rule. The account keeps
the neighbours of each relation word on their sides, so a moved condition read as other
roles (and its numbers as swapped). The claim is also read with its condition at the
other end: a final "if C" fronted ("If C, S."), a fronted "If C, S" moved to the end.

Only a plain "if": "only if", "even if" and "as if" say something else at the front
("S only if C" is not "If C, S"); and only a main clause without a comma or semicolon,
whose scope the move cannot change.
"""

from __future__ import annotations

import re

__all__ = ["condition_reading"]

_FINAL_IF = re.compile(r"^(?P<s>[^,;:]+?) if (?P<c>[^,;:]+?)(?P<end>[.!]?)$")
_FRONT_IF = re.compile(r"^If (?P<c>[^,;:]+), (?P<s>[^,;:]+?)(?P<end>[.!]?)$")
_NOT_PLAIN = frozenset(["only", "even", "as", "and", "or", "but"])
_IF_RE = re.compile(r"\bif\b", re.IGNORECASE)


def _moved(text: str) -> str | None:
    body = text.strip()
    m = _FINAL_IF.match(body)
    if m is not None and not _IF_RE.search(m.group("s")):
        words = m.group("s").split()
        if len(words) < 3 or words[-1].lower() in _NOT_PLAIN or _IF_RE.search(m.group("c")):
            return None
        head = m.group("s")
        if len(words) > 1 and words[0][1:].islower() and not words[1][:1].isupper():
            head = head[0].lower() + head[1:]  # "The grower" → "the grower"; not "Ms Karim"
        return f"If {m.group('c')}, {head}{m.group('end') or '.'}"
    m = _FRONT_IF.match(body)
    if m is not None and not _IF_RE.search(m.group("s")) and len(m.group("s").split()) >= 3:
        s = m.group("s")
        return f"{s[0].upper()}{s[1:]} if {m.group('c')}{m.group('end') or '.'}"
    return None


def condition_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim with its condition clause at the other end, when it has one and the
    evidence has an "if" too; None otherwise."""
    if not _IF_RE.search(claim_text) or not _IF_RE.search(evidence_text):
        return None
    moved = _moved(claim_text)
    return None if moved is None else (moved, evidence_text)
