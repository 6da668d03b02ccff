"""Digits mixed with CJK multipliers, read as the number they write (issue 12, session 16b).

Chinese, Japanese and Korean write a large number as digit groups each followed by its
multiplier, the way the numerals themselves are written (二千五百 = 2,500): 2千5百円 is
2,500 円, 1万2千円 and 1万2500円 are 12,000 and 12,500 円, 3.5万 is 35,000, 1千2百万 is
12,000,000, and in Korean 2천5백 원 is 2,500 원, 1만 2,500원 12,500 원. Before, each
multiplier was read as a number of its own ("2千5百" became 2 1000 5 100, i.e. 210005100)
or only the first group was (1万2500円 became 100002500円).

The grammar is the numerals' own: within a section below 万 (만), the multipliers 千 百 十
(천 백 십) come in falling order, each after one digit 1–9 (the first group may carry a
decimal, 2.5千); 万 and 亿/億 (만, 억) close a section, in falling order; digits after the
last 万 are the units below it (three or four digits: 1万500円 = 10,500; a colloquial
"1万5" is 15,000 in speech, so it is left as written), digits after a 千/百/十 are not read (a
colloquial "2千5" is 2,500 in speech, so it is left as written). A run that breaks the
grammar, or whose value is not a whole number, is left as it is; so is a single group
(2千克, 3万: the readers of :mod:`cairn.answer.cjk_forms` and
:mod:`cairn.answer.normalise` know those), except 百 after a digit before a counter
(5百円 = 500円), which nothing else reads.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["mixed_numerals"]

_SMALL = {"十": 10, "百": 100, "千": 1000, "십": 10, "백": 100, "천": 1000}
_BIG = {"万": 10**4, "萬": 10**4, "만": 10**4, "亿": 10**8, "億": 10**8, "억": 10**8}
_NUM = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
_MULT = "十百千万萬亿億십백천만억"
#: Digit groups each with a multiplier, then optionally the digits below the last 万.
_RUN_RE = re.compile(
    rf"(?<![\d.,])(?:{_NUM})\s?[{_MULT}](?:\s?(?:{_NUM})?\s?[{_MULT}])*"
    rf"(?:(?:(?<=[만억])\s)?(?:{_NUM})(?![\d.,]|\s?[{_MULT}年月]))?"
)
_GROUP_RE = re.compile(rf"({_NUM})?\s?([{_MULT}])|({_NUM})")
#: A counter or currency after a single "N百" (5百円, 3百人).
_COUNTER_RE = re.compile(r"\s?[元円圆块원人名명个個次件台대位张份本册개回日天年]")


def _value(run: str) -> int | None:
    """The number a run of digit groups and multipliers writes, or None if it breaks the
    numerals' grammar."""
    total, section = Fraction(0), Fraction(0)
    last_small, last_big = 10**5, 10**9
    groups = _GROUP_RE.findall(run)
    for k, (num, mult, tail) in enumerate(groups):
        if tail:  # the digits after the last group: only below a 万/亿
            digits = tail.replace(",", "")
            if last_small != 10**5 or k != len(groups) - 1 or "." in tail or len(digits) < 3:
                return None
            below = int(digits)
            if below >= 10**4:
                return None
            section += below
            continue
        n = Fraction(num.replace(",", "")) if num else None
        if "," in (num or "") and mult not in _BIG:
            return None
        if mult in _SMALL:
            m = _SMALL[mult]
            if n is None or m >= last_small or not (1 <= n <= 9) or (k and n.denominator != 1):
                return None
            section += n * m
            last_small = m
        else:
            b = _BIG[mult]
            if b >= last_big or (n is None and not section) or (n is not None and section):
                return None
            section = section if n is None else n
            if section >= 10**4 and k:
                return None
            total += section * b
            section, last_small, last_big = Fraction(0), 10**5, b
    value = total + section
    return value.numerator if value.denominator == 1 else None


def _read(m: re.Match[str]) -> str:
    run = m.group()
    groups = _GROUP_RE.findall(run)
    single = len(groups) == 1
    if single and not (groups[0][1] in "百백" and _COUNTER_RE.match(m.string, m.end())):
        return run
    value = _value(run.rstrip())
    if value is None:
        return run
    return str(value) + (" " if run != run.rstrip() else "")


def mixed_numerals(text: str) -> str:
    """``text`` with each run of digits and CJK multipliers written as its number."""
    if not any(ch in text for ch in _MULT):
        return text
    return _RUN_RE.sub(_read, text)
