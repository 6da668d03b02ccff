"""The unit of a range said once, after its second number (issue 12, session 9).

"12 to 18 months", "12-18 months" and "between 12 and 18 months" give both ends in
months; written out, "12 months to 18 months"; so do two alternatives ("4 or 6 hours" =
"4 hours or 6 hours", session 12). Each text is read with the unit repeated
after the first number, so "1 to 1.5 years" and "12 to 18 months" compare end by end after
the exact conversion, and "1 to 2 years" does not match "12 to 18 months". Only a unit of
the quantity table (time, length, mass, ...) is repeated: "3 to 5 items" stays as written.
Frequency adverbs are read as "every" with the unit ("annually" = "every year" = "every
12 months"), except after a count ("twice weekly" stays a rate).
"""

from __future__ import annotations

import re

from cairn.answer.normalise import _UNIT_TABLE

__all__ = ["range_units"]

_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_UNITS_WORDS = "one|two|three|four|five|six|seven|eight|nine"
_TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
#: A number in digits or in words ("six", "forty-eight"), as the tokens read them.
_NUM = rf"(?:\d+(?:[.,]\d+)*|(?:{_TENS})(?:-(?:{_UNITS_WORDS}))?|{_TEENS}|{_UNITS_WORDS}|zero)"
_RANGE_RE = re.compile(
    rf"(?<![\w.,/:-])(?P<a>{_NUM})(?!\w)(?P<mid>\s*(?:to|-|–|and|or)\s*)(?P<b>{_NUM})(?P<gap>\s*)(?P<unit>[A-Za-zµ]+)\b",
    re.IGNORECASE,
)
_ADVERBS = {
    "annually": "every year",
    "yearly": "every year",
    "monthly": "every month",
    "weekly": "every week",
    "daily": "every day",
    "hourly": "every hour",
    "quarterly": "every 3 months",  # session 12: "recalled quarterly"
}
_ADVERB_RE = re.compile(
    r"(?<!\btimes )(?<!\btwice )(?<!\bonce )(?<!\bthrice )\b(annually|yearly|quarterly|monthly|weekly|daily|hourly)\b"
    r"(?!\s+(?:basis|rate|average|limit|cap|fee|charge|total|dose|maximum|minimum|allowance))",
    re.IGNORECASE,
)


def _repeat(m: re.Match[str]) -> str:
    unit = m.group("unit")
    dashed = m.group("mid").strip() in ("-", "–")
    digits = m.group("a")[:1].isdigit() and m.group("b")[:1].isdigit()
    if unit.lower() not in _UNIT_TABLE or (dashed and not digits):
        return m.group(0)  # "twenty-four hours" is one number
    return f"{m.group('a')} {unit}{m.group('mid')}{m.group('b')}{m.group('gap')}{unit}"


def range_units(text: str) -> str:
    """``text`` with a range's unit repeated after its first number and a frequency
    adverb before a period read as "every <unit>"."""
    text = _RANGE_RE.sub(_repeat, text)  # digits or words: "four or six hours"
    if "ly" in text:
        text = _ADVERB_RE.sub(lambda m: _ADVERBS[m.group(1).lower()], text)
    return text
