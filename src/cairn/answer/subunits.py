"""Amounts of money in a currency's subunit (issue 12, session 8): "35p" = £0.35,
"10 cents" = €0.10 where the euro is the currency at hand.

Pence belong to one currency, so "35p" is written as "£0.35" before a text is tokenised
(:func:`pounds_for_pence`, claim and evidence alike; one or two digits only, so "1080p"
and "720p" stay resolutions, or (session 10) up to three digits with a decimal part,
which no resolution has: "165.5p" = "£1.655", as tariffs state a unit rate). Cents belong to several (euro, dollar): "10 cents" is read as the
amount in the one cent-divided currency the evidence names (:func:`cents_reading`), and
in none when the evidence names none or both; so "10 cents" is never "£0.10", and "35
cents" is never "35p".
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["cents_reading", "pounds_for_pence"]

_PENCE_RE = re.compile(r"(?<![\w.,£€$])(\d{1,2}|\d{1,3}\.\d{1,2})p\b(?!\.\w)")
_CENTS_RE = re.compile(r"(?<![\w.,£€$])(\d{1,2})\s?(?:cents?\b|¢)", re.IGNORECASE)
#: Currencies divided into cents, by the sign an amount is written with.
_CENT_CURRENCIES = "€$"
_SIGN_RE = re.compile(r"[€$£¥]")


def pounds_for_pence(text: str) -> str:
    """``text`` with amounts in pence written in pounds: "35p" → "£0.35"."""
    if "p" not in text:
        return text
    return _PENCE_RE.sub(lambda m: _pounds(m.group(1)), text)


def _pounds(pence: str) -> str:
    """"35" → "£0.35", "165.5" → "£1.655" (exact: a decimal shift, no rounding)."""
    value = format(Decimal(pence).scaleb(-2), "f")
    return f"£{value}" if "." in value else f"£{value}.00"


def _in(sign: str, text: str) -> str:
    return _CENTS_RE.sub(lambda m: f"{sign}0.{int(m.group(1)):02d}", text)


def cents_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """The claim and evidence with their amounts in cents written in the one currency of
    ``evidence_text`` divided into cents, or None (no cents, or no such single currency)."""
    if not (_CENTS_RE.search(claim_text) or _CENTS_RE.search(evidence_text)):
        return None
    signs = set(_SIGN_RE.findall(evidence_text))
    if len(signs) != 1 or next(iter(signs)) not in _CENT_CURRENCIES:
        return None
    sign = next(iter(signs))
    return _in(sign, claim_text), _in(sign, evidence_text)
