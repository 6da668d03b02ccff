"""Numbers written out in words, units and months (through the tokenizer and directly)."""

from __future__ import annotations

import re

import pytest

from cairn.text.numbers import MONTHS, UNITS, RawToken, written_number


def raw(text: str) -> list[RawToken]:
    return [("word", m.group(), m.start(), m.end(), False) for m in re.finditer(r"[a-z]+", text)]


@pytest.mark.parametrize(
    ("text", "value", "ordinal", "used"),
    [
        ("twenty one apples", 21.0, False, 2),
        ("twenty-first day", 21.0, True, 2),
        ("two hundred and five", 205.0, False, 4),
        ("three thousand four hundred", 3400.0, False, 4),
        ("three quarters", 0.75, False, 2),
        ("fifth place", 5.0, True, 1),
        ("ninety", 90.0, False, 1),
    ],
)
def test_written_number(text: str, value: float, ordinal: bool, used: int) -> None:
    assert written_number(raw(text), 0, text) == (pytest.approx(value), ordinal, used)


def test_not_numbers() -> None:
    for text in ("one of them", "first place", "apples", "hundred"):
        assert written_number(raw(text), 0, text) is None, text
    # Words joined by anything but a space or a hyphen are separate numbers.
    assert written_number(raw("twenty, one"), 0, "twenty, one") == (20.0, False, 1)


def test_units_and_months_are_normalised() -> None:
    assert UNITS["mcg"] == UNITS["µg"] == "ug"
    assert UNITS["%"] == UNITS["percent"] == "percent"
    assert MONTHS["sept"] == MONTHS["september"] == "september"
