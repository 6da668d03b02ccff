"""Numbers and dates in English text: numerals, numbers written out in words ("twenty-
first", "two hundred and five", "three quarters"), units and month/weekday names.

Used by :func:`cairn.text.tokens.tokenize`, which turns them into number and month tokens
that claim verification compares by value ("three" = 3, "10 per cent" = "10%").
"""

from __future__ import annotations

__all__ = ["AMBIGUOUS_MONTHS", "MONTHS", "UNITS", "RawToken", "written_number"]

#: A token before analysis: kind ("num" or "word"), text, start, end, ordinal suffix.
RawToken = tuple[str, str, int, int, bool]

MONTHS = {
    "january": "january", "jan": "january", "february": "february", "feb": "february",
    "march": "march", "mar": "march", "april": "april", "apr": "april", "may": "may",
    "june": "june", "jun": "june", "july": "july", "jul": "july", "august": "august",
    "aug": "august", "september": "september", "sep": "september", "sept": "september",
    "october": "october", "oct": "october", "november": "november", "nov": "november",
    "december": "december", "dec": "december",
    "monday": "monday", "tuesday": "tuesday", "wednesday": "wednesday",
    "thursday": "thursday", "friday": "friday", "saturday": "saturday", "sunday": "sunday",
}  # fmt: skip
# Short forms that are also ordinary words count as months only when capitalised.
AMBIGUOUS_MONTHS = frozenset(
    {"may", "mar", "jan", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "apr", "feb", "sept"}
)

UNITS = {
    "%": "percent", "percent": "percent", "pct": "percent",
    "ug": "ug", "µg": "ug", "mcg": "ug", "microgram": "ug", "micrograms": "ug",
    "mg": "mg", "milligram": "mg", "milligrams": "mg", "g": "g", "gram": "g", "grams": "g",
    "kg": "kg", "kilogram": "kg", "kilograms": "kg", "ml": "ml", "millilitre": "ml",
    "milliliter": "ml", "l": "l", "litre": "l", "liter": "l", "litres": "l", "liters": "l",
    "mm": "mm", "cm": "cm", "km": "km", "metre": "m", "meter": "m", "metres": "m", "meters": "m",
    "h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour",
    "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute",
    "sec": "second", "secs": "second", "second": "second", "seconds": "second",
    "ms": "millisecond", "millisecond": "millisecond", "milliseconds": "millisecond",
    "day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month",
    "months": "month", "year": "year", "years": "year", "yr": "year", "yrs": "year",
    "degree": "degree", "degrees": "degree", "deg": "degree", "°": "degree",
    "ft": "ft", "feet": "ft", "foot": "ft", "inch": "inch", "inches": "inch", "mph": "mph",
    "psi": "psi", "atm": "atm", "fold": "fold", "times": "times", "kb": "kb", "mb": "mb",
    "gb": "gb", "tb": "tb", "kev": "kev", "mev": "mev", "ev": "ev", "mmhg": "mmhg",
    "meq": "meq", "iu": "iu", "cycles": "cycle", "cycle": "cycle",
}  # fmt: skip


_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}  # fmt: skip
_ORD_SMALL = {
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "hundredth": 100,
}  # fmt: skip
# "first"/"second" are ordinals only inside a compound ("twenty-first"); alone they are
# too often adverbs or a unit of time.
_ORD_COMPOUND = {"first": 1, "second": 2, **_ORD_SMALL}
_FRACTIONS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
}
_MULT = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}


def written_number(raw_tokens: list[RawToken], i: int, text: str) -> tuple[float, bool, int] | None:
    """The number written out in words from ``raw_tokens[i]`` on: its value, whether it is
    an ordinal, and the index of the first token after it; None if there is none.

    A small number followed by a fraction word is a fraction ("three quarters" = 0.75);
    "one of" is not a count.
    """
    written = _parse_written(raw_tokens, i, text)
    n = len(raw_tokens)
    low = raw_tokens[i][1].lower()
    if written is not None and written[2] < n and low in _SMALL:
        nxt = raw_tokens[written[2]]
        frac = _FRACTIONS.get(nxt[1].lower())
        if frac and text[raw_tokens[written[2] - 1][3] : nxt[2]] in ("-", " "):
            written = (written[0] / frac, False, written[2] + 1)
    if (
        written is not None
        and low == "one"
        and written[2] < n
        and raw_tokens[written[2]][1].lower() == "of"
    ):
        written = None  # "one of the ..." is not a count
    return written


def _parse_written(raw_tokens: list[RawToken], i: int, text: str) -> tuple[float, bool, int] | None:
    """Parse a written-out number starting at ``raw_tokens[i]``: value, ordinal, next index."""
    total = 0
    current = 0
    j = i
    seen = False
    is_ord = False
    while j < len(raw_tokens) and raw_tokens[j][0] == "word":
        w = raw_tokens[j][1].lower()
        if seen:
            gap = text[raw_tokens[j - 1][3] : raw_tokens[j][2]]
            if gap not in (" ", "-"):
                break
        if w in _SMALL and (
            not seen or (current % 100 >= 20 and current % 10 == 0) or current % 100 == 0
        ):
            current += _SMALL[w]
        elif w in _TENS and (not seen or current % 100 == 0):
            current += _TENS[w]
        elif w in _MULT and seen:
            if _MULT[w] == 100:
                current *= 100
            else:
                total += current * _MULT[w]
                current = 0
        elif w in _ORD_SMALL and (not seen or current % 10 == 0):
            current += _ORD_SMALL[w]
            is_ord = True
            j += 1
            seen = True
            break
        elif w in _ORD_COMPOUND and seen and current % 100 >= 20 and current % 10 == 0:
            current += _ORD_COMPOUND[w]
            is_ord = True
            j += 1
            break
        elif w == "and" and seen and current % 100 == 0 and current > 0:
            # "two hundred and five"
            nxt = raw_tokens[j + 1][1].lower() if j + 1 < len(raw_tokens) else ""
            if nxt not in _SMALL and nxt not in _TENS:
                break
        else:
            break
        seen = True
        j += 1
    if not seen:
        return None
    return float(total + current), is_ord, j
