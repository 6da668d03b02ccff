"""A document's version named with "of" or as a compound (issue 12, session 14).

"Revision 2.4 of the rules" and "Rules revision 2.4" name the same thing, as do "Edition
7 of the conditions" and "Conditions edition 7" or "SOP WH-REC-07, revision 5.1": the
version word (version, revision, edition, release, issue, amendment) and its number, and
the document it belongs to, before it or after "of". :func:`version_names` gives the
claim with its "<version word> <number> of (the) <document>" in the evidence's compound
form, when the evidence has exactly that document's words right before that version
word and number (or before a comma and them); the caller accounts the result as any
claim. The document is found by the evidence, never guessed, and never a date or a
number ("version 4.1 of 9 September 2025" is a version and its date).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["version_names"]

_VERSION_OF_RE = re.compile(
    r"\b(?P<word>version|revision|edition|release|issue|amendment)\s+(?P<num>v?\d+(?:\.\d+)*)"
    r"\s+of\s+(?:the\s+)?(?P<doc>[A-Za-z][^\s,;:.]*(?:\s+[^\s,;:.]+){0,3})",
    re.IGNORECASE,
)
_MAX_DOC = 4


def version_names(claim: str, evidence: str) -> Iterator[str]:
    """The claim with one "<version word> <number> of <document>" in the evidence's
    compound form (see the module docstring)."""
    for m in _VERSION_OF_RE.finditer(claim):
        word, num = m.group("word"), m.group("num")
        doc_words = m.group("doc").split()
        for k in range(min(len(doc_words), _MAX_DOC), 0, -1):
            doc = doc_words[:k]
            if not doc[0][:1].isalpha():
                continue
            pattern = re.compile(
                r"(?<![\w-])"
                + r"\s+".join(re.escape(w) for w in doc)
                + r",?\s+"
                + re.escape(word)
                + r"\s+"
                + re.escape(num)
                + r"(?![\w.]*\d)",
                re.IGNORECASE,
            )
            found = pattern.search(evidence)
            if found is None:
                continue
            end = m.start("doc") + len(" ".join(doc))
            if claim[m.start("doc") : end] != " ".join(doc):
                continue  # the document's words are spaced otherwise in the claim
            yield claim[: m.start()] + found.group() + claim[end:]
            break
