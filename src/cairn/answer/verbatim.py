"""A claim copied word for word from its supporting unit (issue 12, session 7).

The verifier marks a supported claim ``contradicted`` (``conflicting_evidence``) when
another span states all of it but one conflicting value. For a claim that copies its
supporting sentence, that other span is no conflict but another fact: "The principal
amount is EUR 240,000" next to the row "Arrangement fee | EUR 2,400 (1% of the
principal)", or the tldr lines "Convert a PDF file to an XML file" and "... to an HTML
file". Issue 12 asks for ``contradicted`` "never for a verbatim match"; :func:`copies`
tells such a claim, markdown emphasis, quotes, list markers, case and spacing aside.
Session 15: a Chinese/Japanese/Korean claim has no spaces between its words, so its
length is counted in characters (at least 6, about three words), and its full-width
closing mark is punctuation too; CJK units are single sentences since session 15, so
the neighbouring sentence "开车前24小时以上、不足48小时退票的，按票价的10%…" no longer hides
behind the copied "开车前不足24小时退票的，按票价的20%收取退票费。".
"""

from __future__ import annotations

import re

from cairn.text.cjk import has_cjk

__all__ = ["copies"]

_MARKUP_RE = re.compile(r"\*\*|__|[*_`\"“”‘’]|^\s*(?:[-*+>]|\d+[.)])\s+", re.MULTILINE)
_SPACE_RE = re.compile(r"\s+")


def _flat(text: str) -> str:
    return _SPACE_RE.sub(" ", _MARKUP_RE.sub("", text)).strip().casefold()


def copies(claim: str, unit: str) -> bool:
    """Whether ``claim`` (its closing punctuation aside) stands word for word in ``unit``."""
    body = _flat(claim).rstrip(" .;:!?。！？")
    long_enough = len(body.split()) >= 3 or (has_cjk(body) and len(body) >= 6)
    return long_enough and body in _flat(unit)
