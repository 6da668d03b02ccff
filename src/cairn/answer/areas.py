"""Areas and amounts per area written one way before a text is tokenised (issue 12).

Exact equivalences only, applied to claim and evidence alike (session 19, lead: "20 g/m²"
against "20 grams per square metre" was read as another entity and marked contradicted):

* an area unit after a number: "square metre(s)" = "sq m" = "m2" = "m²"; likewise km²,
  cm², mm² and ft² ("square feet", "sq ft"); hectares are a unit of the unit table;
* an amount per area: "<unit> per <area unit>" = "<unit>/<area unit>" with the unit's
  symbol ("grams per square metre" = "g per m²" = "g/m²"); the amount's number and unit
  are then compared as any quantity is (20 g/m² = 0.02 kg/m²), the area unit verbatim.

In evidence the rewrite keeps the text's length (padded with spaces), so offsets keep;
a rewrite that would be longer than what is written is not made there.
"""

from __future__ import annotations

import re

__all__ = ["AREA_SYMBOLS", "area_units"]

#: The area units as written after this module's rewrite (and after a slash: "g/m²").
AREA_SYMBOLS = ("m²", "km²", "cm²", "mm²", "ft²")

_AREAS = {
    "metre": "m²", "meter": "m²", "kilometre": "km²", "kilometer": "km²",
    "centimetre": "cm²", "centimeter": "cm²", "millimetre": "mm²", "millimeter": "mm²",
    "foot": "ft²", "feet": "ft²",
}  # fmt: skip
_SQUARE_RE = re.compile(
    r"(?<=[\d\s(/])square\s+(metre|meter|kilometre|kilometer|centimetre|centimeter|millimetre|"
    r"millimeter)s?\b|(?<=[\d\s(/])square\s+(feet|foot)\b",
    re.IGNORECASE,
)
_SQ_RE = re.compile(r"(?<=[\d\s(/])sq\.?\s?(m|km|cm|mm|ft)(?![\w²])", re.IGNORECASE)
_TWO_RE = re.compile(r"(?<=[\d\s(/])(m|km|cm|mm|ft)2(?![\w.,]?\d|\w)")
_SYMBOLS = {
    "gram": "g", "grams": "g", "g": "g", "kilogram": "kg", "kilograms": "kg", "kg": "kg",
    "milligram": "mg", "milligrams": "mg", "mg": "mg", "tonne": "t", "tonnes": "t", "t": "t",
    "litre": "l", "litres": "l", "liter": "l", "liters": "l", "l": "l", "millilitre": "ml",
    "millilitres": "ml", "milliliter": "ml", "milliliters": "ml", "ml": "ml",
    "kilowatt": "kW", "kilowatts": "kW", "kw": "kW", "watt": "W", "watts": "W", "w": "W",
}  # fmt: skip
_PER_AREA_RE = re.compile(
    r"(?<=\d)(\s?)(" + "|".join(sorted(_SYMBOLS, key=len, reverse=True)) + r")\s+per\s+(" + "|".join(AREA_SYMBOLS) + ")",
    re.IGNORECASE,
)


def _fit(new: str, raw: str, keep_length: bool) -> str:
    if len(new) <= len(raw):
        return new.ljust(len(raw)) if keep_length else new
    return raw if keep_length else new


def area_units(text: str, *, keep_length: bool = True) -> str:
    """``text`` with the areas and amounts per area above written one way."""
    low = text.lower()
    if "square" not in low and "sq" not in low and "2" not in text and "²" not in text:
        return text
    if "square" in low:
        text = _SQUARE_RE.sub(
            lambda m: _fit(_AREAS[(m.group(1) or m.group(2)).lower()], m.group(), keep_length), text
        )
    if "sq" in low:
        text = _SQ_RE.sub(lambda m: _fit(m.group(1).lower() + "²", m.group(), keep_length), text)
    if "2" in text:
        text = _TWO_RE.sub(lambda m: m.group(1) + "²", text)  # same length
    if "²" in text and "per" in low:
        text = _PER_AREA_RE.sub(
            lambda m: _fit(f"{m.group(1)}{_SYMBOLS[m.group(2).lower()]} per {m.group(3)}", m.group(), keep_length),
            text,
        )
    return text
