"""Session 10 generators of the verifier mutation harness (issue 12; registered by
:mod:`bench.verify_mutations`, kept here so that module does not grow).

Each family has a meaning-preserving generator (the verifier should say ``supported``)
and meaning-changing ones next to it (it must never say ``supported``):

* an article that counts one: "within 1 hour" → "within an hour", "in 1 truck" → "in a
  single truck"; changed: "within 2 hours" → "within an hour", "within 1 hour" → "within
  a day", "2 tablets per day" → "2 tablets a week";
* pence with a decimal part: "£1.655" → "165.5p"; changed: "16.55p", "1655p";
* two prepositional phrases before ", but"/", except" in the other order: "allowed on A
  and in B, but not in C" → "allowed in B and on A, but not in C"; changed: the heads
  crossed ("on B and in A"), the second phrase moved into the contrast ("on A, but not in
  C and in B");
* a table row read with the rate its label or header names: "| standing charge (per
  year) | £46.80 |" under "sewerage" → "The sewerage standing charge is £46.80 per
  year."; changed: another column's amount of the row, per another unit;
* a duration cell read with "runs for": "| seed grant | 12 to 18 months |" → "A seed
  grant runs for 1 to 1.5 years."; changed: the months read as weeks;
* a counted amount after "per": "per m³" → "per 1,000 litres", "per kg" → "per 1,000 g";
  changed: "per 100 litres", "per 100 g".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

__all__ = ["CHANGING_S10", "PRESERVING_S10"]

_LEADS = r"(?:than|least|most|to|within|for|in|after|before|about|over|under|by|during)"
_ONE_UNIT = re.compile(rf"\b({_LEADS}) (?:1|one) (minute|hour|day|week|month|year|metre|litre|kilogram)\b(?![-\w])")
_MANY_UNITS = re.compile(rf"\b({_LEADS}) ([2-9]|1\d) (minute|hour|day|week|month|year)s\b")
_ONE_NOUN = re.compile(r"\b(in|with|by|on|for|has|have|uses|use|needs) 1 ([a-z]{3,})\b(?![-\w])")
_OTHER_UNIT = {"minute": "hour", "hour": "day", "day": "week", "week": "month", "month": "year",
               "year": "month", "metre": "kilometre", "litre": "millilitre", "kilogram": "gram"}


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def m_article_one(s: str) -> str | None:
    """"within 1 hour" → "within an hour"; "in 1 truck" → "in a single truck"."""
    m = _ONE_UNIT.search(s)
    if m is not None:
        return s[: m.start()] + f"{m.group(1)} {_article(m.group(2))} {m.group(2)}" + s[m.end():]
    m = _ONE_NOUN.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)} a single {m.group(2)}" + s[m.end():]


def c_article_count(s: str) -> str | None:
    """"within 2 hours" → "within an hour": the count changed to one."""
    m = _MANY_UNITS.search(s)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)} {_article(m.group(3))} {m.group(3)}" + s[m.end():]


def c_article_unit(s: str) -> str | None:
    """"within 1 hour" → "within a day": one of another unit."""
    m = _ONE_UNIT.search(s)
    if m is None:
        return None
    other = _OTHER_UNIT[m.group(2)]
    return s[: m.start()] + f"{m.group(1)} {_article(other)} {other}" + s[m.end():]


_RATE = re.compile(r"\b(\d+|one|two|three|once|twice) ([a-z]+ )?(?:per|every|each) (day|week|month|year)\b")


def c_article_rate(s: str) -> str | None:
    """"2 tablets per day" → "2 tablets a week": a rate's period said with an article
    and changed (the article there is "per", never one)."""
    m = _RATE.search(s)
    if m is None:
        return None
    other = {"day": "week", "week": "month", "month": "year", "year": "month"}[m.group(3)]
    return s[: m.start()] + f"{m.group(1)} {m.group(2) or ''}{_article(other)} {other}" + s[m.end():]


_POUNDS = re.compile(r"(?<![\w.])£(\d)\.(\d{3})(?!\d)(?![.,]\d)")


def _pence(m: re.Match[str], shift: int) -> str:
    value = Decimal(f"{m.group(1)}.{m.group(2)}").scaleb(shift)
    return format(value.normalize(), "f") + "p"


def m_pence_decimal(s: str) -> str | None:
    """"£1.655" → "165.5p" (a unit rate in pence with a decimal part)."""
    m = _POUNDS.search(s)
    return None if m is None else s[: m.start()] + _pence(m, 2) + s[m.end():]


def c_pence_decimal(s: str) -> str | None:
    """"£1.655" → "16.55p": the pence read at another scale."""
    m = _POUNDS.search(s)
    return None if m is None else s[: m.start()] + _pence(m, 1) + s[m.end():]


def c_pence_whole(s: str) -> str | None:
    """"£1.655" → "1655p": the pounds' digits read as pence."""
    m = _POUNDS.search(s)
    return None if m is None else s[: m.start()] + _pence(m, 3) + s[m.end():]


_PER_UNIT = re.compile(r"\bper (m³|m3|cubic metre|kg|km|litre|tonne)\b")
_PER_SAME = {"m³": "1,000 litres", "m3": "1,000 litres", "cubic metre": "1,000 litres", "kg": "1,000 g",
             "km": "1,000 m", "litre": "1,000 ml", "tonne": "1,000 kg"}
_PER_OTHER = {"m³": "100 litres", "m3": "100 litres", "cubic metre": "100 litres", "kg": "100 g",
              "km": "100 m", "litre": "100 ml", "tonne": "100 kg"}


def m_per_amount(s: str) -> str | None:
    """"per m³" → "per 1,000 litres", "per kg" → "per 1,000 g"."""
    m = _PER_UNIT.search(s)
    return None if m is None else s[: m.start()] + f"per {_PER_SAME[m.group(1)]}" + s[m.end():]


def c_per_amount(s: str) -> str | None:
    """"per m³" → "per 100 litres": another amount after "per"."""
    m = _PER_UNIT.search(s)
    return None if m is None else s[: m.start()] + f"per {_PER_OTHER[m.group(1)]}" + s[m.end():]


_PP = r"(?:at|in|on|near|inside|outside|behind|under|above|beside|by|from|through|with|for|via|to)"
_PP_BEFORE_CONTRAST = re.compile(
    rf"^(?P<pre>.+?\s)(?P<xh>{_PP})\s(?P<xt>[^,;]+?) and (?P<yh>{_PP})\s(?P<yt>[^,;]+?), "
    r"(?P<c>but|except)\s(?P<rest>[^,;]+)$"
)
_ORDER_WORDS = re.compile(r"\b(?:then|after|before|first|finally|later|respectively|and|or|it|they|them)\b", re.I)


def _contrast_pair(s: str) -> dict[str, str] | None:
    m = _PP_BEFORE_CONTRAST.match(s)
    if m is None or _ORDER_WORDS.search(f"{m.group('xt')} {m.group('yt')}") or m.group("xt") == m.group("yt"):
        return None
    return m.groupdict()


def m_phrases_before_contrast(s: str) -> str | None:
    """"allowed on A and in B, but not in C." → "allowed in B and on A, but not in C."."""
    g = _contrast_pair(s)
    if g is None:
        return None
    return f"{g['pre']}{g['yh']} {g['yt']} and {g['xh']} {g['xt']}, {g['c']} {g['rest']}"


def c_phrases_before_contrast_crossed(s: str) -> str | None:
    """"allowed on A and in B, but not in C." → "allowed on B and in A, but not in C."."""
    g = _contrast_pair(s)
    if g is None or g["xh"] == g["yh"]:
        return None
    return f"{g['pre']}{g['xh']} {g['yt']} and {g['yh']} {g['xt']}, {g['c']} {g['rest']}"


def c_contrast_takes_a_phrase(s: str) -> str | None:
    """"allowed on A and in B, but not in C." → "allowed on A, but not in C and in B.":
    the second phrase moved into the contrast."""
    g = _contrast_pair(s)
    if g is None:
        return None
    rest = g["rest"].rstrip(".")
    return f"{g['pre']}{g['xh']} {g['xt']}, {g['c']} {rest} and {g['yh']} {g['yt']}."


_LABEL_RATE = re.compile(r"^(?P<label>[^()]+?)\s*\((?:[^()]*,\s*)?per (?P<unit>[^(),]+)\)$")
_AMOUNT = re.compile(r"^[£€$]\d[\d,]*(?:\.\d+)?$")
_OTHER_PER = {"year": "month", "month": "year", "week": "day", "day": "week", "m³": "litre", "kg": "g",
              "litre": "m³", "hour": "minute"}


def _rate_cells(row: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(row label, unit, [(column, amount)]) of a table row whose first cell or header ends
    with "(per <unit>)"; None for any other row."""
    header, line = row.split("\n", 1)
    heads = [c.strip() for c in header.strip().strip("|").split("|")]
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(heads) != len(cells) or len(cells) < 2:
        return None
    m = _LABEL_RATE.match(cells[0])
    label = cells[0]
    if m is None and len(heads) == 2:
        m = _LABEL_RATE.match(heads[1])
        if m is None:
            return None
        return label, m.group("unit"), [(m.group("label"), cells[1])] if _AMOUNT.match(cells[1]) else []
    if m is None:
        return None
    amounts = [(h, c) for h, c in zip(heads[1:], cells[1:], strict=True) if _AMOUNT.match(c)]
    return m.group("label"), m.group("unit"), amounts


def _rate_claim(label: str, head: str, amount: str, unit: str, two_column: bool) -> str:
    if two_column:
        return f"The {head} for {label} is {amount} per {unit}."
    return f"The {head} {label} is {amount} per {unit}."


def m_table_row_rate(s: str) -> str | None:
    """"| standing charge (per year) | £46.80 |" under "sewerage" → "The sewerage standing
    charge is £46.80 per year."."""
    found = _rate_cells(s)
    if not found or not found[2]:
        return None
    label, unit, amounts = found
    head, amount = amounts[-1]
    return _rate_claim(label, head, amount, unit, len(_cells_of(s)) == 2)


def c_table_row_rate_column(s: str) -> str | None:
    """The rate claim with another column's amount of the same row."""
    found = _rate_cells(s)
    if not found or len(found[2]) < 2 or found[2][0][1] == found[2][-1][1]:
        return None
    label, unit, amounts = found
    return _rate_claim(label, amounts[-1][0], amounts[0][1], unit, False)


def c_table_row_rate_unit(s: str) -> str | None:
    """The rate claim per another unit ("per month" for "per year")."""
    found = _rate_cells(s)
    if not found or not found[2] or found[1] not in _OTHER_PER:
        return None
    label, unit, amounts = found
    head, amount = amounts[-1]
    return _rate_claim(label, head, amount, _OTHER_PER[unit], len(_cells_of(s)) == 2)


def _cells_of(row: str) -> list[str]:
    return row.split("\n", 1)[1].strip().strip("|").split("|")


_MONTHS_CELL = re.compile(r"^(\d+)(?: to (\d+))? months$")
_LOWER_LABEL = re.compile(r"^[a-z][a-z ]{2,30}$")


def _duration_row(row: str) -> tuple[str, int, int | None] | None:
    """(row label, months, upper months) of a table row with a lower-case label and a
    duration cell in whole months ("| seed grant | €150,000 | 12 to 18 months |")."""
    cells = [c.strip() for c in row.split("\n", 1)[1].strip().strip("|").split("|")]
    if not _LOWER_LABEL.match(cells[0]):
        return None
    for cell in cells[1:]:
        m = _MONTHS_CELL.match(cell)
        if m is not None:
            return cells[0], int(m.group(1)), int(m.group(2)) if m.group(2) else None
    return None


def _years(months: int) -> str:
    value = Decimal(months) / 12
    return format(value.normalize(), "f")


def m_table_duration_runs(s: str) -> str | None:
    """"| seed grant | 12 to 18 months |" → "A seed grant runs for 1 to 1.5 years." (in
    years only where exact to one decimal)."""
    found = _duration_row(s)
    if found is None:
        return None
    label, low, high = found
    if any(m % 6 for m in (low, high or low)):
        return f"A {label} runs for {low}{f' to {high}' if high else ''} months."
    span = f"{_years(low)} to {_years(high)}" if high else _years(low)
    return f"A {label} runs for {span} year{'' if span == '1' else 's'}."


def c_table_duration_weeks(s: str) -> str | None:
    """The duration read in another unit without conversion ("12 to 18 weeks")."""
    found = _duration_row(s)
    if found is None:
        return None
    label, low, high = found
    return f"A {label} runs for {low}{f' to {high}' if high else ''} weeks."


PRESERVING_S10: dict[str, Callable[[str], str | None]] = {
    "article-counts-one": m_article_one,
    "pence-with-decimals": m_pence_decimal,
    "per-counted-amount": m_per_amount,
    "phrases-before-contrast-reordered": m_phrases_before_contrast,
    "table-row-label-rate": m_table_row_rate,
    "table-duration-runs": m_table_duration_runs,
}
CHANGING_S10: dict[str, Callable[[str], str | None]] = {
    "article-count-changed": c_article_count,
    "article-unit-changed": c_article_unit,
    "article-rate-changed": c_article_rate,
    "pence-scale-changed": c_pence_decimal,
    "pence-whole-changed": c_pence_whole,
    "per-amount-changed": c_per_amount,
    "phrases-before-contrast-crossed": c_phrases_before_contrast_crossed,
    "contrast-takes-a-phrase": c_contrast_takes_a_phrase,
    "table-row-rate-other-column": c_table_row_rate_column,
    "table-row-rate-other-unit": c_table_row_rate_unit,
    "table-duration-other-unit": c_table_duration_weeks,
}
