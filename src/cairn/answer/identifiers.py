"""Identifiers are matched inside the aligned unit, never taken from its heading (issue 12,
session 9).

A heading names the subject of the lines under it, so a plain word of the claim that the
unit lacks ("The policy" under "# Leave policy") may come from it. An identifier may not:
"Lift plan LP-07 is revision C" is not accounted by "Lift plan LP-07 is revision B" under
the title "Lift plan LP-07: rooftop lift, Block C", although the title holds a "C". An
identifier is a one-letter label ("C", "group j"), a short capitalised code ("LP",
"R300") or any word with a digit in it ("4b", "v3"). It comes from the heading only with
its own label word, both absent from the unit ("Block C" for a line under "... Block C"):
then the heading names the thing the claim is about, and nothing in the unit gives a value
for the same slot.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from cairn.answer.tokens import AccountToken

__all__ = ["heading_may_name", "is_identifier"]

_DATE_KEY_RE = re.compile(r"d\d{4,8}")


def is_identifier(t: AccountToken) -> bool:
    """``t`` is a label value: one or two letters, a short all-capitals code, or a word
    with a digit in it."""
    if t.kind != "w" or t.key.startswith(("be:", "have")) or _DATE_KEY_RE.fullmatch(t.key):
        return False  # a date ("d20251120") a dated heading may give is no identifier
    text = t.text
    if any(ch.isdigit() for ch in text):
        return True
    letters = [ch for ch in text if ch.isalpha()]
    if not letters or not all(ch.isascii() for ch in letters):
        return False
    if len(letters) == 1:
        return text.lower() != "a"  # "C", "group j"; not the article
    return text.isupper() and len(letters) <= 4  # "LP", "QA", "HVAC"


def heading_may_name(
    claim: Sequence[AccountToken], i: int, unit: str, present: Callable[[AccountToken, str], bool]
) -> bool:
    """Whether the heading may supply ``claim[i]``, a token the unit text ``unit`` lacks: any
    word but an identifier, and an identifier only with the label word right before it,
    itself absent from the unit (``present(t, text)`` tests membership)."""
    if not is_identifier(claim[i]):
        return True
    if i == 0:
        return False
    label = claim[i - 1]
    return label.kind == "w" and not is_identifier(label) and not present(label, unit)
