"""Rates per unit of time as one exact value (issue 12, session 6).

"60 to 120 requests per minute" and "1 to 2 requests per second" state the same rates,
so do "36 km/h" and "10 m/s", and "£84,000 a year" and "£7,000 per month". After the
account tokens are cut (:mod:`cairn.answer.tokens`), :func:`with_rates` rewrites each
number or quantity that a "per <time unit>" (or "a", "an", "each", "every" before the
unit, or the slash form "km/h") applies to as a rate in the quantity's base unit per
second (per month for months and years, which have no exact length in seconds), and the
"per <unit>" words as one marker token ``per:time`` / ``per:months``; a counted amount
after "per" is its unit times the count ("per 1,000 litres" = "per m³", session 10). The rate reaches
back over at most two words ("requests") and over a range ("1 to 2", "between 30 and
50"). Rates of different dimensions never match (per day vs per month).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Protocol, TypeVar

from cairn.answer.areas import AREA_SYMBOLS
from cairn.answer.normalise import _DATA_UNITS, _UNIT_TABLE, quantity_key


class _Token(Protocol):
    """An account token (:class:`cairn.answer.tokens.AccountToken`, which calls this
    module and so is not imported here)."""

    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...


AccountToken = TypeVar("AccountToken", bound=_Token)

__all__ = ["with_rates"]

_PER = frozenset(["per", "a", "an", "each", "every"])
#: Unit abbreviations that follow a quantity directly in the slash form ("36 km/h").
_SLASH_UNITS = frozenset(["h", "s", "min", "sec", "hr"])
_SLASH_AREAS = frozenset(AREA_SYMBOLS)
_RANGE_WORDS = frozenset(["to", "and", "or", "-", "–"])
_NO_SKIP = frozenset(["and", "or", "to", "from", "for", "of", "with", "by", "over", "than"])
_NO_RATE_DIMS = ("time", "months", "temp", "percent", "bitrate")


def _time_unit(t: _Token) -> tuple[str, Fraction] | None:
    if t.kind != "w":
        return None
    spec = _UNIT_TABLE.get(t.text.lower())
    if spec is None or spec[0] not in ("time", "months"):
        return None
    return spec


#: Dimensions a price or amount may be given per unit of ("per GB", "per kg", "per km").
_PER_MEASURES = ("area", "bits", "length", "mass", "volume")  # area: session 19


def _measure_unit(t: _Token) -> tuple[str, Fraction] | None:
    """(dimension, base units per unit) of a unit of data, length, mass or volume after
    "per" (session 7: rates per data unit were not converted)."""
    if t.kind != "w":
        return None
    if t.text in _DATA_UNITS:
        return "bits", _DATA_UNITS[t.text]
    spec = _UNIT_TABLE.get(t.text.lower())
    if spec is None or spec[0] not in _PER_MEASURES:
        return None
    return spec


def _per_amount(t: _Token) -> tuple[str, Fraction] | None:
    """(dimension, base units) of a counted amount of data, length, mass or volume after
    "per" (session 10: "£1.915 per 1,000 litres" = "£1.915 per m³", "per 100 g")."""
    if t.kind != "n" or not t.key.startswith("q:"):
        return None
    dim, _, num = t.key[2:].rpartition(":")
    if dim not in _PER_MEASURES:
        return None
    try:
        value = Fraction(num)
    except (ValueError, ZeroDivisionError):
        return None
    return (dim, value) if value > 0 else None


def _value(t: _Token) -> tuple[str, Fraction] | None:
    """(dimension, value) of a plain number or a quantity a rate may apply to."""
    if t.kind != "n":
        return None
    try:
        if t.key.startswith("n:"):
            return "n", Fraction(t.key[2:])
        if t.key.startswith("q:"):
            dim, _, num = t.key[2:].rpartition(":")
            if dim.startswith(_NO_RATE_DIMS) or "/" in dim:
                return None
            return dim, Fraction(num)
    except (ValueError, ZeroDivisionError):
        return None
    return None


def _unit_factor(t: _Token) -> Fraction | None:
    """The base units per written unit of a quantity token ("50 km": 1000)."""
    head = _value(t)
    raw = t.text.lstrip("€$£¥").split(" ", 1)[0].replace(",", "")
    try:
        written = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        return None
    if head is None or written == 0:
        return None
    return head[1] / written


def with_rates(
    toks: tuple[AccountToken, ...], make: Callable[[str, str, str, str], AccountToken]
) -> tuple[AccountToken, ...]:
    """``toks`` with rates per unit of time keyed as one value (see the module doc);
    ``make(key, text, kind, stem)`` builds a token (the caller's token class)."""
    if not any(t.kind == "n" for t in toks):
        return toks
    out = list(toks)
    drop: set[int] = set()
    for p, t in enumerate(out):
        if p in drop:
            continue
        if t.kind == "w" and t.key in _PER and p + 1 < len(out):
            spec, unit_at, first = _time_unit(out[p + 1]), p + 1, p
            if spec is None and t.key == "per":
                # "$20 per TB" = "$0.02 per GB"; not "per GB-month" (a unit of its own).
                compound = p + 2 < len(out) and _time_unit(out[p + 2]) is not None
                spec = None if compound else _measure_unit(out[p + 1]) or _per_amount(out[p + 1])
        elif (
            t.kind == "w"
            and (t.text in _SLASH_UNITS or t.text in _SLASH_AREAS)
            and p > 0
            and out[p - 1].kind == "n"
            and out[p - 1].key.startswith("q:")
        ):
            # "36 km/h"; "20 g/m²" (session 19: the slash is not a token, the area is).
            spec = _time_unit(t) if t.text in _SLASH_UNITS else _measure_unit(t)
            unit_at, first = p, p
        else:
            continue
        if spec is None:
            continue
        # The number the rate applies to: right before, or before one or two words.
        q = first - 1
        skipped = 0
        while (
            q >= 0
            and out[q].kind == "w"
            and skipped < 2
            and out[q].key not in _PER
            and out[q].key not in _NO_SKIP
        ):
            q -= 1
            skipped += 1
        if q < 0 or _value(out[q]) is None:
            continue
        group = [q]
        k = q - 1
        while k - 1 >= 0 and out[k].kind == "w" and out[k].key in _RANGE_WORDS:
            if _value(out[k - 1]) is None:
                break
            group.append(k - 1)
            k -= 2
        tdim, factor = spec
        head = _value(out[q])
        assert head is not None
        unit = _unit_factor(out[q]) if head[0] != "n" else Fraction(1)
        for g in group:
            dv = _value(out[g])
            assert dv is not None
            dim, value = dv
            if dim == "n" and head[0] != "n":
                if unit is None:
                    break
                dim, value = head[0], value * unit  # "between 30 and 50 km per hour"
            key = quantity_key(f"{dim}/{tdim}", value / factor)
            out[g] = make(key, out[g].text, "n", "")
        marker = "per:" + tdim
        text = " ".join(x.text for x in out[first : unit_at + 1])
        out[first] = make(marker, text, "w", marker)
        drop.update(range(first + 1, unit_at + 1))
    if not drop and out == list(toks):
        return toks
    return tuple(t for i, t in enumerate(out) if i not in drop)
