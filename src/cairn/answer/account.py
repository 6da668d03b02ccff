"""The strict token account behind a ``supported`` verdict (issue 12).

A claim is supported by one evidence unit (a sentence, a clause, or one table row with
its header) only when every meaning-bearing token of the claim is accounted for there:

* a word matches the same word or an inflection of it (light stem); function words that
  carry meaning are content here: modals (may/must/should/can), negations, quantifiers
  (all/any/every/some/at least/up to/more than), tense and aspect (was/has/been/will),
  causal and temporal connectives (because/after/before), prepositions and "and"/"or";
  only the articles "a", "an", "the" may be dropped or added;
* a number matches the same number: digits and number words are one value ("seven" = 7,
  "5,000" = 5000); a decimal or dotted version is compared as written ("3.10" is not
  "3.1"); a number with a unit is a quantity compared after an exact conversion
  (90 minutes = 1.5 hours, 25 °C = 77 °F, 50 Mbit/s = 6.25 MB/s, 5 years = 60 months,
  200 µl = 0.2 ml), never across dimensions (bit vs byte, ms vs s, °C vs °F values);
* a date matches the same calendar date in any of its written forms (2026-02-01,
  1 February 2026, February 1, 2026, 2026年2月1日).

Relations keep their roles: around a relation word (by, from, to, than, for, in, of,
replaces, ...) the claim's neighbours must be found on the same side of one occurrence
of that word in the evidence, so "approved by A and carried out by B" is not accounted
by "approved by B and carried out by A", nor "from 10 to 5" by "from 5 to 10".
Coordinated items may be reordered ("staging and production").

Nothing of the evidence between the first and the last matched token may be left out,
except a whole dropped conjunct without a negation ("€150 in most cities and €220 in
London" accounts "€220 in London"); a negation, modal or quantifier right before the
matched part must be in the claim too. So a claim never drops "not", "up to", "only",
"secondary" or "planned" from the middle of what it copies.

CJK text is accounted character by character: every claim character must be found, and
every adjacent pair of claim characters (within a run, coordinated items excepted) must
be adjacent in the evidence; numerals (两 = 2, 五千 = 5000) and dates are normalised first.

The functions here are pure; :mod:`cairn.answer.verify` calls :func:`account` on the
candidate units and reports the first unaccounted token as the reason detail.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from cairn.text.cjk import has_cjk
from cairn.text.numbers import MONTHS
from cairn.text.stem import light_stem
from cairn.text.tokens import Token, tokenize

__all__ = [
    "AccountToken",
    "account",
    "account_tokens",
    "conflict",
    "normalise_dates",
    "overlap",
    "quantity_key",
    "unaccounted",
]

# --------------------------------------------------------------------------- dates

_MONTH_NAMES = {k: v for k, v in MONTHS.items() if k not in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}  # fmt: skip
_MONTH_NUM = {
    name: i
    for i, name in enumerate(
        (
            "january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december",
        ),
        1,
    )
}  # fmt: skip
_MON = r"(?P<mon>" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_DATE_RES = (
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?!\d)"),
    re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MON + r",?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"\b" + _MON + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"(?P<y>\d{4})\s?年\s?(?P<m>\d{1,2})\s?月\s?(?P<d>\d{1,2})\s?[日号]"),
    re.compile(r"(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})\b"),
)
_MONTH_RES = (
    re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})\b(?!-\d)"),
    re.compile(r"\b" + _MON + r",?\s+(?P<y>\d{4})\b", re.I),
    re.compile(r"(?P<y>\d{4})\s?年\s?(?P<m>\d{1,2})\s?月(?!\s?\d)"),
)


def _month(m: re.Match[str]) -> int | None:
    if "mon" in m.re.groupindex:
        raw = m.group("mon").lower()
        if raw == "may" and not m.group("mon")[0].isupper():
            return None
        return _MONTH_NUM[_MONTH_NAMES[raw]]
    return int(m.group("m"))


def normalise_dates(text: str) -> str:
    """``text`` with every full date as ``dYYYYMMDD`` and every month of a year as
    ``mYYYYMM``, padded with spaces to the original length, so offsets keep."""

    def repl_date(m: re.Match[str]) -> str:
        mo = _month(m)
        d = int(m.group("d"))
        if mo is None or not (1 <= mo <= 12 and 1 <= d <= 31):
            return m.group()
        token = f"d{int(m.group('y')):04d}{mo:02d}{d:02d}"
        return token.ljust(len(m.group())) if len(token) <= len(m.group()) else m.group()

    def repl_month(m: re.Match[str]) -> str:
        mo = _month(m)
        if mo is None or not 1 <= mo <= 12:
            return m.group()
        token = f"m{int(m.group('y')):04d}{mo:02d}"
        return token.ljust(len(m.group())) if len(token) <= len(m.group()) else m.group()

    if not any(c.isdigit() for c in text):
        return text
    for rx in _DATE_RES:
        text = rx.sub(repl_date, text)
    for rx in _MONTH_RES:
        text = rx.sub(repl_month, text)
    return text


# --------------------------------------------------------------------------- CJK numerals

_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
_CJK_MULT = {"十": 10, "百": 100, "千": 1000, "万": 10000, "萬": 10000}
_CJK_NUM_RE = re.compile("[零〇一二两兩三四五六七八九十百千万萬]+")


def _cjk_value(run: str) -> int | None:
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in _CJK_DIGITS:
            if digit is not None:
                return None  # "一二" is not a number
            digit = _CJK_DIGITS[ch]
        else:
            mult = _CJK_MULT[ch]
            if mult == 10000:
                total = (total + section + (digit or 0)) * mult
                section, digit = 0, None
            else:
                section += (1 if digit is None else digit) * mult
                digit = None
    return total + section + (digit or 0)


def _cjk_numerals(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        value = _cjk_value(m.group())
        return m.group() if value is None else str(value)

    return _CJK_NUM_RE.sub(repl, text)


# --------------------------------------------------------------------------- quantities

_U = Fraction
# (dimension, factor to the base unit); temperatures are handled on their own.
_UNIT_TABLE: dict[str, tuple[str, Fraction]] = {
    "ms": ("time", _U(1, 1000)), "millisecond": ("time", _U(1, 1000)),
    "milliseconds": ("time", _U(1, 1000)), "s": ("time", _U(1)), "sec": ("time", _U(1)),
    "secs": ("time", _U(1)), "second": ("time", _U(1)), "seconds": ("time", _U(1)),
    "min": ("time", _U(60)), "mins": ("time", _U(60)), "minute": ("time", _U(60)),
    "minutes": ("time", _U(60)), "h": ("time", _U(3600)), "hr": ("time", _U(3600)),
    "hrs": ("time", _U(3600)), "hour": ("time", _U(3600)), "hours": ("time", _U(3600)),
    "day": ("time", _U(86400)), "days": ("time", _U(86400)),
    "week": ("time", _U(604800)), "weeks": ("time", _U(604800)),
    "month": ("months", _U(1)), "months": ("months", _U(1)), "year": ("months", _U(12)),
    "years": ("months", _U(12)), "yr": ("months", _U(12)), "yrs": ("months", _U(12)),
    "mm": ("length", _U(1, 1000)), "cm": ("length", _U(1, 100)), "m": ("length", _U(1)),
    "metre": ("length", _U(1)), "metres": ("length", _U(1)), "meter": ("length", _U(1)),
    "meters": ("length", _U(1)), "km": ("length", _U(1000)), "kilometre": ("length", _U(1000)),
    "kilometres": ("length", _U(1000)), "kilometer": ("length", _U(1000)),
    "kilometers": ("length", _U(1000)), "inch": ("length", _U(254, 10000)),
    "inches": ("length", _U(254, 10000)), "ft": ("length", _U(3048, 10000)),
    "feet": ("length", _U(3048, 10000)), "mile": ("length", _U(1609344, 1000)),
    "miles": ("length", _U(1609344, 1000)),
    "µg": ("mass", _U(1, 10**6)), "ug": ("mass", _U(1, 10**6)), "mcg": ("mass", _U(1, 10**6)),
    "mg": ("mass", _U(1, 1000)), "g": ("mass", _U(1)), "gram": ("mass", _U(1)),
    "grams": ("mass", _U(1)), "kg": ("mass", _U(1000)), "kilogram": ("mass", _U(1000)),
    "kilograms": ("mass", _U(1000)), "lb": ("mass", _U(45359237, 100000)),
    "lbs": ("mass", _U(45359237, 100000)),
    "µl": ("volume", _U(1, 10**6)), "ul": ("volume", _U(1, 10**6)),
    "μl": ("volume", _U(1, 10**6)), "ml": ("volume", _U(1, 1000)), "l": ("volume", _U(1)),
    "litre": ("volume", _U(1)), "litres": ("volume", _U(1)), "liter": ("volume", _U(1)),
    "liters": ("volume", _U(1)),
    "%": ("percent", _U(1)), "percent": ("percent", _U(1)),
    "kib": ("bits", _U(8 * 1024)), "mib": ("bits", _U(8 * 1024**2)),
    "gib": ("bits", _U(8 * 1024**3)),
}  # fmt: skip
# Data sizes are case-sensitive: "MB" is a megabyte, "Mb"/"Mbit" a megabit.
_DATA_UNITS: dict[str, Fraction] = {
    "bit": _U(1), "bits": _U(1), "kbit": _U(10**3), "Kbit": _U(10**3), "Mbit": _U(10**6),
    "Gbit": _U(10**9), "Tbit": _U(10**12), "kb": _U(10**3), "Kb": _U(10**3), "Mb": _U(10**6),
    "Gb": _U(10**9), "Tb": _U(10**12), "B": _U(8), "byte": _U(8), "bytes": _U(8),
    "kB": _U(8 * 10**3), "KB": _U(8 * 10**3), "MB": _U(8 * 10**6), "GB": _U(8 * 10**9),
    "TB": _U(8 * 10**12),
}  # fmt: skip
_RATE_UNITS: dict[str, Fraction] = {
    "bps": _U(1), "kbps": _U(10**3), "Kbps": _U(10**3), "Mbps": _U(10**6), "Gbps": _U(10**9),
    "Tbps": _U(10**12),
}  # fmt: skip
_CJK_UNITS: dict[str, tuple[str, Fraction]] = {
    "毫秒": ("time", _U(1, 1000)), "秒钟": ("time", _U(1)), "秒": ("time", _U(1)),
    "分钟": ("time", _U(60)), "分鐘": ("time", _U(60)), "分間": ("time", _U(60)),
    "小时": ("time", _U(3600)), "小時": ("time", _U(3600)), "時間": ("time", _U(3600)),
    "个月": ("months", _U(1)), "ヶ月": ("months", _U(1)), "か月": ("months", _U(1)),
    "カ月": ("months", _U(1)), "天": ("time", _U(86400)), "日間": ("time", _U(86400)),
    "年": ("months", _U(12)), "周": ("time", _U(604800)), "週間": ("time", _U(604800)),
}  # fmt: skip
_CJK_UNIT_RE = re.compile(
    r"(\d+(?:\.\d+)?)\s?(" + "|".join(sorted(_CJK_UNITS, key=len, reverse=True)) + ")"
)
_CURRENCY = "€$£¥"


def quantity_key(dim: str, value: Fraction) -> str:
    """The comparison key of a quantity in its dimension's base unit."""
    return f"q:{dim}:{value.numerator}/{value.denominator}"


def _fraction(tok: Token) -> Fraction | None:
    if tok.value is None:
        return None
    if tok.written:
        return Fraction(tok.value).limit_denominator(1000)
    try:
        return Fraction(tok.raw.replace(",", ""))
    except ValueError:
        return None


# --------------------------------------------------------------------------- tokens

_ARTICLES = frozenset({"a", "an", "the"})
_BE_PRESENT = frozenset({"is", "are", "am"})
_BE_PAST = frozenset({"was", "were"})
_HAVE = frozenset({"has", "have"})
#: Words around which the roles of the neighbours must be kept.
_RELATIONS = frozenset(
    [
        "by",
        "from",
        "to",
        "than",
        "into",
        "onto",
        "over",
        "under",
        "per",
        "for",
        "with",
        "without",
        "within",
        "after",
        "before",
        "until",
        "between",
        "in",
        "on",
        "at",
        "of",
        "as",
        "via",
        "instead",
    ]
)
_RELATION_STEMS = ("replac", "supersed", "propos", "approv", "reject", "review")
_PREPOSITIONS = _RELATIONS
#: Evidence words that may never be dropped right before or inside the copied part.
_QUALIFIERS = frozenset(
    [
        "not",
        "no",
        "never",
        "cannot",
        "without",
        "none",
        "nor",
        "neither",
        "only",
        "may",
        "might",
        "must",
        "should",
        "can",
        "could",
        "would",
        "will",
        "shall",
        "up",
        "most",
        "least",
        "more",
        "less",
        "fewer",
        "than",
        "approximately",
        "about",
        "around",
        "nearly",
        "almost",
        "over",
        "under",
        "some",
        "any",
        "all",
        "every",
        "each",
        "planned",
        "previously",
    ]
)
_NEGATIONS = frozenset(["not", "no", "never", "cannot", "without", "none", "nor", "neither"])
_CLAUSE_STOPS = frozenset(";.:()!?。；：（）")
_CJK_CONJ = frozenset("和与及或、")


@dataclass(frozen=True, slots=True)
class AccountToken:
    """One token of the account: a comparison ``key``, the surface ``text`` and kind
    (``w`` word, ``n`` number or quantity or date, ``c`` CJK character, ``p``
    punctuation)."""

    key: str
    text: str
    kind: str
    stem: str = ""


def _word_key(norm: str) -> tuple[str, str]:
    if norm in _BE_PRESENT:
        return "be:present", "be:present"
    if norm in _BE_PAST:
        return "be:past", "be:past"
    if norm in _HAVE:
        return "have", "have"
    if norm in ("cannot", "can't"):
        return "cannot", "cannot"
    norm = _SAME_WORD.get(norm, norm)
    return norm, light_stem(norm)


#: Exact, declared equivalences: spelling variants of one word, never near-synonyms.
_SAME_WORD = {
    "upon": "on", "towards": "toward", "amongst": "among", "whilst": "while",
    "colour": "color", "behaviour": "behavior", "organisation": "organization",
    "centre": "center", "litre": "liter", "metre": "meter", "kilometre": "kilometer",
    "cancelled": "canceled", "travelled": "traveled", "labelled": "labeled",
    "licence": "license", "judgement": "judgment", "ageing": "aging",
}  # fmt: skip


def _latin_tokens(text: str, out: list[AccountToken]) -> None:
    toks = tokenize(text)
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        gap_before = text[toks[i - 1].end : t.start] if i else text[: t.start]
        for ch in gap_before:
            if ch == "." and t.raw[:1].islower():
                continue  # an abbreviation ("mg. of lipid"), not a sentence end
            if ch in _CLAUSE_STOPS or ch == ",":
                out.append(AccountToken(ch, ch, "p"))
        if t.kind == "number":
            i = _number_token(text, toks, i, out)
            continue
        if t.kind == "month":
            out.append(AccountToken("month:" + t.norm, t.raw, "n"))
            i += 1
            continue
        if t.norm == "°":  # a stray degree sign
            i += 1
            continue
        key, stem = _word_key(t.norm)
        out.append(AccountToken(key, t.raw, "w", stem))
        i += 1
    tail = text[toks[-1].end :] if toks else text
    for ch in tail:
        if ch in _CLAUSE_STOPS or ch == ",":
            out.append(AccountToken(ch, ch, "p"))


def _number_token(text: str, toks: list[Token], i: int, out: list[AccountToken]) -> int:
    """Append the number (or version, or quantity) that starts at ``toks[i]``."""
    t = toks[i]
    j = i + 1
    raw = t.raw.replace(",", "")
    # A dotted version ("4.11.3") is one token, compared as written.
    while (
        j < len(toks) and toks[j].kind == "number" and text[toks[j - 1].end : toks[j].start] == "."
    ):
        raw += "." + toks[j].raw
        j += 1
    if j > i + 1:
        out.append(AccountToken("v:" + raw, raw, "n"))
        return j
    value = _fraction(t)
    prefix = text[max(0, t.start - 1) : t.start]
    if value is not None and prefix and prefix in _CURRENCY:
        out.append(AccountToken(quantity_key("cur" + prefix, value), prefix + t.raw, "n"))
        return j
    if value is not None and j < len(toks):
        nxt = toks[j]
        gap = text[t.end : nxt.start]
        if gap in ("", " ", "\u00a0", "\u202f", "-"):
            # Temperatures: "25 °C", "25°F".
            if nxt.norm == "°" and j + 1 < len(toks) and toks[j + 1].norm in ("c", "f"):
                celsius = value if toks[j + 1].norm == "c" else (value - 32) * Fraction(5, 9)
                out.append(AccountToken(quantity_key("temp", celsius), t.raw + "°", "n"))
                return j + 2
            if nxt.raw in _RATE_UNITS:
                key = quantity_key("bitrate", value * _RATE_UNITS[nxt.raw])
                out.append(AccountToken(key, t.raw + " " + nxt.raw, "n"))
                return j + 1
            if nxt.raw in _DATA_UNITS or nxt.norm in _UNIT_TABLE:
                if nxt.raw in _DATA_UNITS:
                    dim, factor = "bits", _DATA_UNITS[nxt.raw]
                else:
                    dim, factor = _UNIT_TABLE[nxt.norm]
                k = j + 1
                if dim == "bits" and k < len(toks):
                    per = text[nxt.end : toks[k].start]
                    if per.strip() == "/" and toks[k].norm in ("s", "sec"):
                        dim, k = "bitrate", k + 1
                    elif (
                        toks[k].norm == "per" and k + 1 < len(toks) and toks[k + 1].norm == "second"
                    ):
                        dim, k = "bitrate", k + 2
                out.append(
                    AccountToken(quantity_key(dim, value * factor), t.raw + " " + nxt.raw, "n")
                )
                return k
            if nxt.norm == "per" and j + 1 < len(toks) and toks[j + 1].norm == "cent":
                out.append(AccountToken(quantity_key("percent", value), t.raw + "%", "n"))
                return j + 2
    if t.written:
        v = t.value if t.value is not None else 0.0
        key = "n:" + (str(int(v)) if float(v).is_integer() else repr(v))
    else:
        key = "n:" + raw
    out.append(AccountToken(key, t.raw, "n"))
    return j


_CJK_SPLIT_RE = re.compile(
    r"(d\d{8}|m\d{6}|\d+(?:\.\d+)?\s?(?:"
    + "|".join(sorted(_CJK_UNITS, key=len, reverse=True))
    + r"))"
)


def _cjk_tokens(text: str, out: list[AccountToken]) -> None:
    text = _cjk_numerals(text)
    pos = 0
    for m in _CJK_SPLIT_RE.finditer(text):
        _cjk_plain(text[pos : m.start()], out)
        piece = m.group()
        if piece[0] in "dm" and piece[1:].isdigit():
            out.append(AccountToken(piece, piece, "n"))
        else:
            um = _CJK_UNIT_RE.fullmatch(piece)
            if um:
                dim, factor = _CJK_UNITS[um.group(2)]
                value = Fraction(um.group(1)) * factor
                out.append(AccountToken(quantity_key(dim, value), piece, "n"))
        pos = m.end()
    _cjk_plain(text[pos:], out)


def _cjk_plain(text: str, out: list[AccountToken]) -> None:
    buf: list[str] = []

    def flush() -> None:
        if buf:
            _latin_tokens("".join(buf), out)
            buf.clear()

    for ch in text:
        if has_cjk(ch):
            flush()
            out.append(AccountToken(ch, ch, "c"))
        elif ch in "，。；：（）、！？":
            flush()
            out.append(AccountToken(ch, ch, "p"))
        else:
            buf.append(ch)
    flush()


@functools.lru_cache(maxsize=8192)
def account_tokens(text: str) -> tuple[AccountToken, ...]:
    """The account tokens of ``text`` (dates normalised, numbers and quantities keyed)."""
    text = normalise_dates(text)
    out: list[AccountToken] = []
    if has_cjk(text):
        _cjk_tokens(text, out)
    else:
        _latin_tokens(text, out)
    return tuple(out)


# --------------------------------------------------------------------------- account


@functools.lru_cache(maxsize=8192)
def _index(text: str) -> tuple[frozenset[tuple[str, str]], frozenset[str]]:
    """The (kind, key) pairs and the word stems of ``text``, for membership tests."""
    toks = account_tokens(text)
    return (
        frozenset((t.kind, t.key) for t in toks),
        frozenset(t.stem for t in toks if t.kind == "w" and len(t.stem) >= 3),
    )


def _present(t: AccountToken, text: str) -> bool:
    """``t`` matches some token of ``text`` (as :func:`_same`)."""
    keys, stems = _index(text)
    return (t.kind, t.key) in keys or (t.kind == "w" and len(t.stem) >= 3 and t.stem in stems)


def _same(c: AccountToken, e: AccountToken) -> bool:
    if c.kind != e.kind:
        return False
    if c.key == e.key:
        return True
    return c.kind == "w" and c.stem == e.stem and len(c.stem) >= 3


def _is_relation(t: AccountToken) -> bool:
    return t.kind == "w" and (t.key in _RELATIONS or t.stem.startswith(_RELATION_STEMS))


def _is_conj(t: AccountToken) -> bool:
    return (
        (t.kind == "w" and t.key in ("and", "or"))
        or (t.kind == "p" and t.key in ",、")
        or (t.kind == "c" and t.key in _CJK_CONJ)
    )


def _group(ev: tuple[AccountToken, ...], at: int, step: int) -> list[int]:
    """Positions of the tokens next to the relation word at ``at`` in direction ``step``,
    across coordination: rightwards up to the next relation word, leftwards up to the
    same relation word (so "approved by A and carried out by B" pairs each verb with its
    agent); never across a clause stop."""
    out = []
    k = at + step
    close, open_ = (")", "(") if step < 0 else ("(", ")")
    while 0 <= k < len(ev):
        t = ev[k]
        if t.kind == "p" and t.key == close:
            # Step over a parenthesis: "Grace Mwangi (Chief People Officer) on ..."
            j = k + step
            while 0 <= j < len(ev) and not (ev[j].kind == "p" and ev[j].key == open_):
                j += step
            if 0 <= j < len(ev):
                k = j + step
                continue
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if step > 0 and _is_relation(t):
            break
        if step < 0 and _is_relation(t) and t.key == ev[at].key:
            break
        out.append(k)
        k += step
    return out


def _table_binding(claim: list[AccountToken], reading: str) -> str | None:
    """In a table row, a number of the claim must be read from a cell that says nothing
    else, or next to a word the claim puts next to it: "Lyra 14 G3" is not accounted by
    "Lyra 16 G3" and "14 cores" in the same row."""
    cells = [account_tokens(pair.split(" : ", 1)[-1]) for pair in reading.split(" ; ")]
    words = [t for t in claim if t.kind != "p" and not (t.kind == "w" and t.key in _TABLE_GLUE)]
    for i, t in enumerate(words):
        if t.kind != "n":
            continue
        near = [words[j] for j in (i - 1, i + 1) if 0 <= j < len(words)]
        ok = False
        for cell in cells:
            if not any(_same(t, e) for e in cell):
                continue
            rest = [e for e in cell if e.kind != "p" and not _same(t, e)]
            if all(any(_same(c, e) for c in words) for e in rest) or any(
                _same(c, e) for c in near for e in rest
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} is in a cell about something else"
    return None


def _clause_binding(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """A claim of several clauses ("A is now supported; B is no longer supported") is
    accounted clause by clause, each by one clause of the evidence."""

    def split(tokens: Sequence[AccountToken]) -> list[list[AccountToken]]:
        out: list[list[AccountToken]] = [[]]
        for t in tokens:
            if t.kind == "p" and t.key in ";.":
                out.append([])
            elif t.kind != "p":
                out[-1].append(t)
        return [c for c in out if c]

    clauses = split(claim)
    if len(clauses) < 2:
        return None
    ev_clauses = split(ev)
    for clause in clauses:
        if not any(all(any(_same(t, e) for e in evc) for t in clause) for evc in ev_clauses):
            return "its clauses are not each in one clause of the evidence"
    return None


def _claim_group(
    claim: list[AccountToken], i: int, step: int, *, stop_at_same: bool = False
) -> list[AccountToken]:
    """The claim's tokens next to the relation word at ``i`` (as :func:`_group`), only
    names and numbers: the words that fill a role."""
    out = []
    k = i + step
    while 0 <= k < len(claim):
        t = claim[k]
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if _is_relation(t) and (not stop_at_same or t.key == claim[i].key):
            break
        if t.kind == "n" or (
            t.kind == "w" and (t.text[:1].isupper() or any(c.isdigit() for c in t.text))
        ):
            out.append(t)
        k += step
    return out


def _side_ok(ev: tuple[AccountToken, ...], k: int, want: AccountToken | None, step: int) -> bool:
    if want is None:
        return True
    if any(_same(want, ev[p]) for p in _group(ev, k, step)[:12]):
        return True
    # A neighbour that is itself a relation word must be the evidence's neighbour too.
    j = k + step
    while 0 <= j < len(ev) and ev[j].kind == "w" and ev[j].key in _ARTICLES:
        j += step
    return 0 <= j < len(ev) and _same(want, ev[j])


def _neighbour(claim: list[AccountToken], i: int, step: int) -> AccountToken | None:
    k = i + step
    while 0 <= k < len(claim):
        t = claim[k]
        if t.kind == "p":
            return None
        if not (t.kind == "w" and t.key in _ARTICLES):
            return t
        k += step
    return None


def account(
    claim_text: str,
    evidence_text: str,
    *,
    table: bool = False,
    heading: str = "",
    code_glue: bool = False,
) -> str | None:
    """``None`` when ``evidence_text`` accounts for every token of ``claim_text`` (see
    the module docstring), else a short description of the first unaccounted token.

    With ``table`` (one table row with its header), the relation and gap checks are
    skipped and the glue words of a row reading ("has", "is", "of", "with") may be
    added: the row itself binds the values. Plain content words of the claim that are
    not in the evidence may come from ``heading`` (the section or document title, which
    names the subject of its lines: "The policy" for a line under "# Leave policy").
    With ``code_glue`` (the claim's code spans were found verbatim in the unit), the
    words that only tie a description to its command ("run", "use", "with", "to") may
    be added.
    """
    claim_all = [
        t for t in account_tokens(claim_text) if not (t.kind == "w" and t.key in _ARTICLES)
    ]
    ev = account_tokens(evidence_text)
    claim = [t for t in claim_all if t.kind != "p"]
    if not claim:
        return "nothing to account for"
    for t in claim:  # fast path: most units lack some word of the claim
        if not _present(t, evidence_text) and not (
            (heading and _present(t, heading))
            or (t.kind == "w" and (t.key in _TABLE_GLUE or t.key in _CODE_GLUE))
            or (t.kind == "w" and t.key.startswith("be:"))
        ):
            return f"{t.text!r} not in the evidence"
    if table:
        claim = [t for t in claim if not (t.kind == "w" and t.key in _TABLE_GLUE)]
    if heading:
        named = [
            t
            for t in claim
            if t.kind == "w"
            and t.key not in _QUALIFIERS
            and not _is_relation(t)
            and not t.key.startswith(("be:", "have"))
            and not _present(t, evidence_text)
            and _present(t, heading)
        ]
        if named:
            claim = [t for t in claim if t not in named]
            claim_all = [t for t in claim_all if t not in named]
    if not any(e.kind == "w" and e.key in _FINITE for e in ev):
        # A label-style line ("Approved by X on ...", "> Archiving utility.") states its
        # fact without a finite verb; the claim may add the copula, nothing else.
        claim = [t for t in claim if not (t.kind == "w" and t.key in ("be:present", "be:past"))]
    if code_glue:
        claim = [t for t in claim if not (t.kind == "w" and t.key in _CODE_GLUE)]
        claim_all = [t for t in claim_all if not (t.kind == "w" and t.key in _CODE_GLUE)]
    if not claim:
        return None
    cands: list[list[int]] = []
    perfect = [k + 1 for k in range(len(ev) - 1) if ev[k].key == "have" and ev[k + 1].key == "been"]
    for t in claim:
        pos = [k for k, e in enumerate(ev) if _same(t, e)]
        if not pos and t.kind == "w" and t.key == "be:past":
            pos = perfect  # "were determined" = "have been determined": both completed
        if not pos:
            return f"{t.text!r} not in the evidence"
        cands.append(pos)
    if table:
        return _table_binding(claim_all, evidence_text)
    problem = _clause_binding(claim_all, ev)
    if problem:
        return problem
    # Relations: the claim's neighbours on each side of a relation word stay there.
    for i, t in enumerate(claim_all):
        if not _is_relation(t):
            continue
        verb = t.key not in _PREPOSITIONS
        prev, nxt = _neighbour(claim_all, i, -1), _neighbour(claim_all, i, 1)
        if verb:
            prev = None  # a verb's subject may stand far before it; its object may not
        right = _claim_group(claim_all, i, 1)
        left = _claim_group(claim_all, i, -1) if verb else []
        ok = False
        for k, e in enumerate(ev):
            if not _same(t, e):
                continue
            if not (_side_ok(ev, k, prev, -1) and _side_ok(ev, k, nxt, 1)):
                continue
            # Everything the claim puts on one side of the relation is on that side in
            # the evidence: "v1 replaces v2" is not "v2 replaces v1".
            ev_right = [ev[p] for p in _group(ev, k, 1)]
            ev_left = [ev[p] for p in _group(ev, k, -1)]
            if all(any(_same(c, x) for x in ev_right) for c in right) and all(
                any(_same(c, x) for x in ev_left) for c in left
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} relates other things in the evidence"
    if any(t.kind == "c" for t in claim) and not _cjk_pairs(claim_all, ev):
        return "the characters are not in this order in the evidence"
    # The copied part: choose the tightest placement around each anchor.
    anchor_i = min(range(len(claim)), key=lambda i: len(cands[i]))
    reason = "part of the evidence sentence is left out"
    for anchor in cands[anchor_i]:
        chosen: set[int] = set()
        picks = [0] * len(cands)
        picks[anchor_i] = anchor
        chosen.add(anchor)
        order = [(i, i - 1) for i in range(anchor_i + 1, len(cands))]
        order += [(i, i + 1) for i in range(anchor_i - 1, -1, -1)]
        for i, ref in order:
            step = 1 if i > anchor_i else -1
            expected = picks[ref] + step
            pos = cands[i]
            free = [p for p in pos if p not in chosen] or pos
            picks[i] = min(free, key=lambda p: (abs(p - expected), p))
            chosen.add(picks[i])
        problem = _gaps(ev, chosen)
        if problem is None:
            return None
        reason = problem
    return reason


def overlap(claim_text: str, evidence_text: str) -> float:
    """The share of the claim's tokens (articles and punctuation aside) found in the
    evidence: a cheap filter before the full account."""
    toks = [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p" and not (t.kind == "w" and t.key in _ARTICLES)
    ]
    if not toks:
        return 0.0
    return sum(_present(t, evidence_text) for t in toks) / len(toks)


def unaccounted(claim_text: str, evidence_text: str) -> list[AccountToken]:
    """The claim tokens (articles and punctuation aside) with no match in the evidence."""
    return [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p"
        and not (t.kind == "w" and t.key in _ARTICLES)
        and not _present(t, evidence_text)
    ]


_FINITE = frozenset(
    [
        "be:present",
        "be:past",
        "have",
        "had",
        "been",
        "be",
        "will",
        "would",
        "shall",
        "must",
        "may",
        "might",
        "can",
        "could",
        "should",
        "does",
        "do",
        "did",
        "cannot",
    ]
)
_CODE_GLUE = frozenset(
    ["to", "run", "use", "using", "with", "by", "running", "execute", "type", "command"]
)
_TABLE_GLUE = frozenset(
    [
        "be:present",
        "be:past",
        "have",
        "has",
        "is",
        "are",
        "of",
        "with",
        "for",
        "at",
        "a",
        "an",
        "the",
        "requires",
        "require",
        "needs",
        "need",
        "uses",
        "use",
    ]
)


def _cjk_pairs(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> bool:
    """Each clause of a CJK claim lies in one clause of the evidence, each of its
    coordinated items ("、", "和" separate them) as a contiguous run there."""
    for clause in _cjk_clauses(claim):
        segments = _cjk_segments(clause)
        coordinated = len(segments) > 1
        if not any(
            all(_contains(ev_clause, seg, coordinated) for seg in segments)
            for ev_clause in _cjk_clauses(list(ev))
        ):
            return False
    return True


def _cjk_clauses(tokens: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in tokens:
        if t.kind == "p" and t.key != "、":
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


def _cjk_segments(clause: list[AccountToken]) -> list[list[AccountToken]]:
    out: list[list[AccountToken]] = [[]]
    for t in clause:
        if _is_conj(t):
            out.append([])
        elif not (t.kind == "w" and t.key in _ARTICLES):
            out[-1].append(t)
    return [s for s in out if s]


def _contains(hay: list[AccountToken], seg: list[AccountToken], split: bool = False) -> bool:
    """``seg`` is a contiguous run of ``hay``; with ``split`` (an item of a reordered
    coordination carrying the shared predicate) it may be two runs."""
    n = len(seg)
    if any(all(_same(seg[j], hay[i + j]) for j in range(n)) for i in range(len(hay) - n + 1)):
        return True
    return split and any(_contains(hay, seg[:k]) and _contains(hay, seg[k:]) for k in range(1, n))


def _gaps(ev: tuple[AccountToken, ...], chosen: set[int]) -> str | None:
    lo, hi = min(chosen), max(chosen)
    # Right before the copied part: a qualifier of it, or a modifier of its first word
    # ("primary" in "the primary on-call engineer") must be copied too.
    k = lo - 1
    while k >= 0 and ev[k].kind == "w" and ev[k].key in _ARTICLES:
        k -= 1
    if k >= 0 and lo + 1 in chosen:
        t = ev[k]
        if (
            t.kind in ("w", "n", "c")
            and not _is_conj(t)
            and not (t.kind == "w" and (t.key in _PREPOSITIONS or t.key in _SUBORDINATORS))
        ):
            return f"the evidence says {t.text!r} before it"
    k = lo - 1
    seen = 0
    while k >= 0 and seen < 3:
        t = ev[k]
        if t.kind == "p" and t.key in _CLAUSE_STOPS:
            break
        if (
            t.kind == "w"
            and t.key in _QUALIFIERS
            and t.key not in ("than", "over", "about", "around")
        ):
            return f"the evidence says {t.text!r} before it"
        if _cjk_qualifier(ev, k):
            return f"the evidence says {t.text!r} before it"
        if t.kind != "p":
            seen += 1
        k -= 1
    run: list[int] = []
    for k in range(lo, hi + 2):
        if k <= hi and k not in chosen:
            t = ev[k]
            if not (t.kind == "w" and t.key in _ARTICLES):
                run.append(k)
            continue
        if run:
            problem = _gap_problem(ev, run, lo, hi)
            if problem:
                return problem
            run = []
    return None


_REPORTING = ("reveal", "show", "found", "find", "demonstrat", "confirm", "report")
_FRAME = frozenset(["that", "it", "to", "this", "these", "them"])
_SUBORDINATORS = frozenset(
    [
        "that",
        "when",
        "if",
        "where",
        "while",
        "whereas",
        "because",
        "since",
        "although",
        "though",
        "but",
        "however",
        "thus",
        "therefore",
        "hence",
        "also",
        "this",
        "these",
        "those",
        "its",
        "their",
        "such",
    ]
)


_CJK_QUALIFIER_CHARS = frozenset("不未无非勿禁须必应可得仅只至多少每")


def _cjk_qualifier(ev: tuple[AccountToken, ...], k: int) -> bool:
    return ev[k].kind == "c" and ev[k].key in _CJK_QUALIFIER_CHARS


def _gap_problem(ev: tuple[AccountToken, ...], run: list[int], lo: int, hi: int) -> str | None:
    content = [k for k in run if ev[k].kind != "p"]
    if not content:
        return None  # only punctuation left out
    words = [ev[k] for k in content]
    if any(t.kind == "w" and t.key in _NEGATIONS for t in words) or any(
        t.kind == "c" and t.key in "不未无非勿禁" for t in words
    ):
        return f"the evidence says {words[0].text!r} there"
    qualified = any(t.kind == "w" and t.key in _QUALIFIERS for t in words)
    ends_conjunct = _is_conj(ev[run[-1]]) or (run[-1] + 1 <= hi and _is_conj(ev[run[-1] + 1]))
    if qualified and not ends_conjunct:
        return f"the evidence says {words[0].text!r} there"
    # A reporting frame ("analysis revealed it to contain") states how the fact was
    # established, not a different fact.
    if all(t.kind == "w" and (t.stem.startswith(_REPORTING) or t.key in _FRAME) for t in words):
        return None
    # A parenthesis or a prepositional phrase ("at 09:40 UTC") only adds detail.
    if ev[run[0]].key == "(" and ev[run[-1]].key == ")":
        return None
    if (
        ev[run[0]].kind == "w"
        and ev[run[0]].key in _PREPOSITIONS
        and not any(t.kind == "w" and t.key in _QUALIFIERS for t in words)
    ):
        return None
    # A whole dropped conjunct: the gap is bounded by a coordination on one side.
    before = ev[run[0] - 1] if run[0] - 1 >= lo else None
    after = ev[run[-1] + 1] if run[-1] + 1 <= hi else None
    first, last = ev[run[0]], ev[run[-1]]
    if (
        _is_conj(first)
        or _is_conj(last)
        or (before and _is_conj(before))
        or (after and _is_conj(after))
    ):
        return None
    return "left out: " + " ".join(t.text for t in words[:4])


# --------------------------------------------------------------------------- conflicts

_MODALS = frozenset(
    ["may", "might", "must", "should", "can", "could", "shall", "will", "would", "cannot", "need"]
)
_QUANTIFIER_WORDS = frozenset(
    [
        "least",
        "most",
        "up",
        "more",
        "less",
        "fewer",
        "than",
        "all",
        "every",
        "any",
        "each",
        "some",
        "only",
        "no",
        "none",
    ]
)
_PERIOD_CHARS = frozenset("天日周週月年季时時")
_PERMISSIONS = frozenset({"may", "can"})


def _cjk_conflict(
    claim: list[AccountToken], ev: tuple[AccountToken, ...]
) -> tuple[str, str] | None:
    """A CJK claim clause that one evidence clause states but for a frequency word
    (每周 for 每天) or a number."""
    for clause in _cjk_clauses(claim):
        keys = {t.key for t in clause}
        for ev_clause in _cjk_clauses(list(ev)):
            residue = [t for t in clause if not any(_same(t, e) for e in ev_clause)]
            if not residue or len(residue) > 2 or len(residue) * 3 > len(clause):
                continue
            extra = [e for e in ev_clause if e.key not in keys]
            if all(t.kind == "c" and t.key in _PERIOD_CHARS for t in residue):
                other = [e for e in extra if e.kind == "c" and e.key in _PERIOD_CHARS]
                if other:
                    return (
                        "frequency_mismatch",
                        f"claim {residue[0].text!r}, evidence {other[0].text!r}",
                    )
            if all(t.kind == "n" for t in residue):
                other = [e for e in extra if e.kind == "n"]
                if other:
                    return (
                        "number_mismatch",
                        f"claim {residue[0].text!r}, evidence {other[0].text!r}",
                    )
    return None


def conflict(
    claim_text: str, evidence_text: str, *, table: bool = False, heading: str = ""
) -> tuple[str, str] | None:
    """``(reason, detail)`` when the evidence states everything of the claim but one
    slot, and states something else in that slot: a number or quantity (``number_mismatch``),
    a modal (``modality_mismatch``), a negation (``negation_flip``), a quantifier
    (``quantifier_mismatch``), a CJK frequency (``frequency_mismatch``), or the same
    words with the roles swapped around a relation word (``role_swap``). ``None`` when
    there is no such concrete conflicting span."""
    ev = account_tokens(evidence_text)
    residue = [
        t
        for t in account_tokens(claim_text)
        if t.kind != "p"
        and not (t.kind == "w" and t.key in _ARTICLES)
        and not (t.kind == "w" and t.key in ("be:present", "be:past"))
        and not (table and t.kind == "w" and t.key in _TABLE_GLUE)
        and not _present(t, evidence_text)
        and not (t.kind == "w" and heading and _present(t, heading))
    ]
    claim_keys = {t.key for t in account_tokens(claim_text)}
    extra = [e for e in ev if e.key not in claim_keys]
    if any(t.kind == "c" for t in account_tokens(claim_text)):
        return _cjk_conflict(list(account_tokens(claim_text)), ev)
    if not residue:
        problem = account(claim_text, evidence_text, table=table, heading=heading)
        if problem is None:
            return None
        swap = _swapped_roles(list(account_tokens(claim_text)), ev)
        if swap:
            return "role_swap", swap
        said = re.match(r"the evidence says '(\w+)'", problem)
        if said and said.group(1).lower() in ("not", "no", "never", "cannot"):
            return "negation_flip", f"evidence {said.group(1)!r}"
        return None
    words = [t for t in residue if t.kind == "w"]
    if len(words) == len(residue) and all(t.key in _MODALS or t.key in _NEGATIONS for t in words):
        other = [e for e in extra if e.kind == "w" and (e.key in _MODALS or e.key in _NEGATIONS)]
        if {t.key for t in words} | {e.key for e in other} <= _PERMISSIONS:
            other = []  # "can" and "may" both grant; neither conflicts with the other
        if other:
            reason = (
                "negation_flip"
                if all(t.key in _NEGATIONS for t in words)
                and not any(e.key in _MODALS for e in other)
                else "modality_mismatch"
            )
            return reason, f"claim {words[0].text!r}, evidence {' '.join(e.text for e in other)!r}"
    if len(words) == len(residue) and all(t.key in _QUANTIFIER_WORDS for t in words):
        other = [e for e in extra if e.kind == "w" and e.key in _QUANTIFIER_WORDS]
        if other:
            return "quantifier_mismatch", f"claim {words[0].text!r}, evidence {other[0].text!r}"
    if all(t.kind == "n" for t in residue):
        for t in residue:
            kind = _number_class(t.key)
            other = [e for e in extra if e.kind == "n" and _number_class(e.key) == kind]
            if other:
                return "number_mismatch", f"claim {t.text!r}, evidence {other[0].text!r}"
    if all(t.kind == "c" for t in residue) and all(t.key in _PERIOD_CHARS for t in residue):
        other = [e for e in extra if e.kind == "c" and e.key in _PERIOD_CHARS]
        if other:
            return "frequency_mismatch", f"claim {residue[0].text!r}, evidence {other[0].text!r}"
    return None


def _swapped_roles(claim: list[AccountToken], ev: tuple[AccountToken, ...]) -> str | None:
    """A relation word whose claim neighbours (names, numbers) stand on the opposite
    sides of it in the evidence: "v1 replaces v2" against "v2 replaces v1"."""
    for i, t in enumerate(claim):
        if not _is_relation(t):
            continue
        left = _claim_group(claim, i, -1, stop_at_same=True)
        right = _claim_group(claim, i, 1)
        only_left = [c for c in left if not any(_same(c, r) for r in right)]
        only_right = [c for c in right if not any(_same(c, x) for x in left)]
        if not only_left or not only_right:
            continue
        for k, e in enumerate(ev):
            if not _same(t, e):
                continue
            ev_left = [ev[p] for p in _group(ev, k, -1)]
            ev_right = [ev[p] for p in _group(ev, k, 1)]

            def side(c: AccountToken, toks: list[AccountToken]) -> bool:
                return any(_same(c, x) for x in toks)

            if any(side(c, ev_right) and not side(c, ev_left) for c in only_left) and any(
                side(c, ev_left) and not side(c, ev_right) for c in only_right
            ):
                return f"{t.text!r} relates them the other way round in the evidence"
    return None


def _number_class(key: str) -> str:
    """What a number token is, for comparing like with like: a quantity's dimension,
    a version, a plain number or a date."""
    if key.startswith("q:"):
        return key.split(":")[1]
    if key.startswith("v:"):
        return "version"
    if key.startswith("n:"):
        return "version" if key.count(".") == 1 else "number"
    return key[:1]
