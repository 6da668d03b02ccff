"""The tokens a claim is accounted in: words (stemmed, with declared spelling variants), numbers and quantities, CJK characters."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

from cairn.answer.areas import area_units
from cairn.answer.cjk_forms import canonical_cjk, western_forms
from cairn.answer.day_pairs import consecutive_day_pairs
from cairn.answer.glued import glued_pieces
from cairn.answer.inflect import expand_contractions, word_stem
from cairn.answer.normalise import (
    _CJK_UNIT_RE,
    _CJK_UNITS,
    _CURRENCY,
    _DATA_UNITS,
    _RATE_UNITS,
    _UNIT_TABLE,
    _cjk_numerals,
    _fraction,
    normalise_dates,
    quantity_key,
)
from cairn.answer.range_units import range_units
from cairn.answer.rates import with_rates
from cairn.answer.spoken import spoken_quantities
from cairn.answer.subunits import pounds_for_pence
from cairn.text.cjk import has_cjk
from cairn.text.tokens import Token, tokenize

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
    if norm in ("do", "does"):  # agreement only: "bicycles do not" = "a bicycle does not"
        return "do", "do"
    norm = _SAME_WORD.get(norm, norm)
    return norm, word_stem(norm)


#: Exact, declared equivalences: spelling variants of one word, never near-synonyms.
_SAME_WORD = {
    "upon": "on", "towards": "toward", "amongst": "among", "whilst": "while",
    "colour": "color", "behaviour": "behavior", "organisation": "organization",
    "centre": "center", "litre": "liter", "metre": "meter", "kilometre": "kilometer",
    "cancelled": "canceled", "travelled": "traveled", "labelled": "labeled",
    "licence": "license", "judgement": "judgment", "ageing": "aging",
    # A pronoun follows the number of what it stands for: "data sets ... before they are
    # uploaded" = "a data set ... before it is uploaded".
    "they": "it", "them": "it", "their": "its",
    "max": "maximum",  # "Max load" is the maximum load
}  # fmt: skip


def _latin_tokens(text: str, out: list[AccountToken]) -> None:
    for piece, identifier in glued_pieces(text):
        if identifier and _DECADE_RE.fullmatch(piece):  # "the 1970s": a value
            out.append(AccountToken("decade:" + piece[:-1], piece, "n"))
        elif identifier:  # "4B", "5xx": matched only as written
            key = "id:" + piece.lower()
            out.append(AccountToken(key, piece, "w", key))
        elif piece:
            _latin_plain(piece, out)


_DECADE_RE = re.compile(r"\d{2,3}0s")


def _latin_plain(text: str, out: list[AccountToken]) -> None:
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
        if t.raw in _WEEKDAY_SHORT and not (
            i + 1 < n and toks[i + 1].kind == "word" and toks[i + 1].raw[:1].islower()
        ):
            # "Tue 4 May", a table's "| Thu |": the weekday ("Sun exposure" is no day).
            out.append(AccountToken("month:" + _WEEKDAY_SHORT[t.raw], t.raw, "n"))
            i += 1
            continue
        if t.norm == "°":  # a stray degree sign
            i += 1
            continue
        if t.norm in _ORDINAL_AFTER_THE and _ordinal_lead(
            out[-1] if out else None, t.norm, i + 1 < n and toks[i + 1].kind == "word"
        ):
            out.append(AccountToken(f"n:{_ORDINAL_AFTER_THE[t.norm]}", t.raw, "n"))
            i += 1
            continue
        key, stem = _word_key(t.norm)
        out.append(AccountToken(key, t.raw, "w", stem))
        i += 1
    tail = text[toks[-1].end :] if toks else text
    for ch in tail:
        if ch in _CLAUSE_STOPS or ch == ",":
            out.append(AccountToken(ch, ch, "p"))


_WEEKDAY_SHORT = {
    "Mon": "monday", "Tue": "tuesday", "Tues": "tuesday", "Wed": "wednesday",
    "Thu": "thursday", "Thur": "thursday", "Thurs": "thursday", "Fri": "friday",
    "Sat": "saturday", "Sun": "sunday",
}  # fmt: skip

_AM_PM_RE = re.compile(r"\s?([ap])\.?m\.?(?![a-z])", re.IGNORECASE)

_ORDINAL_AFTER_THE = {"first": 1, "second": 2}


def _ordinal_lead(prev: AccountToken | None, word: str, before_word: bool) -> bool:
    """Whether "first"/"second" is the ordinal ("the first floor" is "the 1st floor").
    "first" always is (a claim may drop the article: "Output first 5 lines"; as an
    adverb it reads the same on both sides); "second" is a unit too ("within a second",
    "per second", "1 second"), so it is the ordinal after "the", and after "a" or a
    preposition other than "per" when a word follows ("a second group", "on second
    occasion")."""
    if word == "first":
        return True
    if prev is None or prev.kind != "w":
        return False
    return prev.key == "the" or (
        before_word and (prev.key in ("a", "an") or prev.key in _PREPOSITIONS) and prev.key != "per"
    )


_SCALES = {"thousand": 1000, "million": 10**6, "billion": 10**9}


def _number_token(text: str, toks: list[Token], i: int, out: list[AccountToken]) -> int:
    """Append the number (or version, or quantity) that starts at ``toks[i]``."""
    t = toks[i]
    j = i + 1
    if (
        j < len(toks)
        and toks[j].kind == "number"
        and text[t.end : toks[j].start] == ":"
        and len(toks[j].raw) == 2
        and t.raw.isdigit()
        and toks[j].raw.isdigit()
    ):
        # A clock time ("06:00", "22:30") is one value, not two numbers and a colon.
        hour, end, k = int(t.raw), toks[j].end, j + 1
        m = _AM_PM_RE.match(text, end)
        if m and 1 <= hour <= 12:  # "10:30 pm" is 22:30
            hour, end = hour % 12 + (12 if m.group(1).lower() == "p" else 0), m.end()
            while k < len(toks) and toks[k].start < end:
                k += 1
        out.append(AccountToken(f"clock:{hour}:{toks[j].raw}", text[t.start : end], "n"))
        return k
    m = _AM_PM_RE.match(text, t.end)
    if m and t.raw.isdigit() and 1 <= int(t.raw) <= 12:
        # "10 pm" is the clock time 22:00.
        hour = int(t.raw) % 12 + (12 if m.group(1).lower() == "p" else 0)
        k = j
        while k < len(toks) and toks[k].start < m.end():
            k += 1
        out.append(AccountToken(f"clock:{hour}:00", text[t.start : m.end()], "n"))
        return k
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
    scaled = False
    if (
        value is not None
        and j < len(toks)
        and toks[j].norm in _SCALES
        and text[t.end : toks[j].start] == " "
    ):
        # "£1 million" is £1,000,000; "1.5 thousand" is 1500.
        value *= _SCALES[toks[j].norm]
        j += 1
        scaled = True
    prefix = text[max(0, t.start - 1) : t.start]
    if value is not None and prefix and prefix in _CURRENCY:
        out.append(AccountToken(quantity_key("cur" + prefix, value), prefix + t.raw, "n"))
        return j
    if value is not None and j < len(toks):
        nxt = toks[j]
        gap = text[toks[j - 1].end : nxt.start]
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
                total, raw_q = value * factor, t.raw + " " + nxt.raw
                if dim != "bits":
                    total, raw_q, k = _compound(text, toks, k, dim, factor, total, raw_q)
                out.append(AccountToken(quantity_key(dim, total), raw_q, "n"))
                return k
            if nxt.norm == "per" and j + 1 < len(toks) and toks[j + 1].norm == "cent":
                out.append(AccountToken(quantity_key("percent", value), t.raw + "%", "n"))
                return j + 2
    if scaled and value is not None:
        key = "n:" + (str(value.numerator) if value.denominator == 1 else repr(float(value)))
        out.append(AccountToken(key, text[t.start : toks[j - 1].end], "n"))
        return j
    if t.written:
        v = t.value if t.value is not None else 0.0
        key = "n:" + (str(int(v)) if float(v).is_integer() else repr(v))
    else:
        key = "n:" + raw
    out.append(AccountToken(key, t.raw, "n"))
    return j


def _compound(
    text: str, toks: list[Token], k: int, dim: str, factor: Fraction, total: Fraction, raw: str
) -> tuple[Fraction, str, int]:
    """Extend a quantity over the smaller units that complete it: "10 h 30 min",
    "2 hours and 15 minutes", "7 min 40 s" are one value (10.5 h, 2.25 h, 460 s). A part
    is taken only in a smaller unit of the same dimension and below one of the larger
    unit ("5 days and 3 days" or "2 h 90 min" stay two quantities)."""
    while k < len(toks):
        j = k + 1 if toks[k].norm == "and" and text[toks[k - 1].end : toks[k].start] == " " else k
        if j + 1 >= len(toks) or toks[j].kind != "number":
            break
        num, unit = toks[j], toks[j + 1]
        if text[toks[j - 1].end : num.start] != " " or text[num.end : unit.start] not in ("", " "):
            break
        part = _fraction(num)
        spec = _UNIT_TABLE.get(unit.norm)
        if part is None or spec is None or spec[0] != dim or spec[1] >= factor:
            break
        if part * spec[1] >= factor:
            break
        total += part * spec[1]
        raw += " " + text[toks[k].start : unit.end]
        factor = spec[1]
        k = j + 2
    return total, raw, k


_CJK_SPLIT_RE = re.compile(
    r"(d\d{8}|m\d{6}|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s?(?:"
    + "|".join(sorted(_CJK_UNITS, key=len, reverse=True))
    + r"))"
)


#: Multi-character coordinators ("A および B", Korean "A과 B", "A와 B") read as the
#: enumeration comma, so that coordinated items may be reordered around them as around
#: "和" or "、".
_CJK_COORDINATORS = re.compile("および|及び|ならびに|並びに|(?<=[가-힣)）])[과와](?= )")


#: Japanese "AとB" before a topic, subject, object, dative or genitive particle
#: ("内釜と内ぶたは", "玄米とおかゆを", "日付と時刻の") coordinates two nouns: read as the enumeration comma. Only when "A" starts
#: the sentence or follows punctuation or "の", and neither item holds a particle, so a
#: conditional "押すと" or a quoting "と" is never read so.
#: Session 8: "AやB" too ("客室や廊下で"), after a topic, subject, object or place
#: particle too ("規則は本館と別館の"), before "で" too; never "として", "という" or
#: "と一緒に"/"と共に" (with). Session 11: never the や of a verb (燃やす, 冷やさない, 増やせる).
_JA_TO_RE = re.compile(
    r"(^|[、。，：；|\s（(のはがをにで])([^\s、。，はがをもにでとのへや|（）()]{1,10})(と|や(?![さしすせそ])|か(?![らもなどつ]))"
    r"(?!して|しての|いう|いった|一緒|共に|ともに|同様|同じ|なる|なり|なっ)"
    r"([^\s、。，はがをもにでとのへや|（）()]{1,10})(?=[はがをもにので])"
)


#: Session 18c: "AかB" between two nouns ("水かお茶のみ") is "or": read as 或, never as the
#: enumeration comma of "and" (not から, かも, かな, かど, かつ); only with a kanji or katakana
#: on each side of it (after an honorific お/ご on the right: 水かお茶), so a verb ending (受診しなかった), a word of hiragana (おかゆ) or a
#: count (1か月) is never split.


def _ja_coordination(m: re.Match[str]) -> str:
    if m.group(3) == "か" and (
        not (_NOT_HIRAGANA_RE.match(m.group(2)[-1]) and _NOT_HIRAGANA_RE.match(m.group(4).lstrip("おご")[:1] or "か"))
        or m.group(2)[-1] in "0123456789〇一二三四五六七八九十百何数"
    ):
        return m.group()  # a verb's なかった, a kana word (おかゆ), a count (1か月) keep their か
    return f"{m.group(1)}{m.group(2)}{'或' if m.group(3) == 'か' else '、'}{m.group(4)}"


_NOT_HIRAGANA_RE = re.compile("[^\u3041-\u309f]")


#: In Japanese "、" also ends a clause ("冷蔵し、肉は冷凍する"): after a hiragana (a verb
#: ending or a particle) it is read as the clause comma "，", so the enumeration comma
#: only joins nouns and the clauses around it cannot be reordered as list items.
#: Session 8: after a conditional or temporal noun too ("喫煙した場合、", "到着の際、").
_JA_CLAUSE_COMMA_RE = re.compile("(?:(?<=[\u3041-\u309f])|(?<=場合)|(?<=際)|(?<=以降)|(?<=以後))、")
_KANA_RE = re.compile("[\u3041-\u309f\u30a0-\u30ff]")


def _cjk_tokens(text: str, out: list[AccountToken]) -> None:
    text = canonical_cjk(text)
    if _KANA_RE.search(text):
        text = _JA_TO_RE.sub(_ja_coordination, _JA_CLAUSE_COMMA_RE.sub("，", text))
    text = _CJK_COORDINATORS.sub("、", _cjk_numerals(text))
    pos = 0
    # The last quantity when it ends where this piece starts: (dim, unit factor, total).
    last: tuple[str, Fraction, Fraction] | None = None
    for m in _CJK_SPLIT_RE.finditer(text):
        if text[pos : m.start()].strip():  # "1시간 30분" is one value, as "1時間30分" is
            last = None
        _cjk_plain(text[pos : m.start()], out)
        piece = m.group()
        if piece[0] in "dm" and piece[1:].isdigit():
            out.append(AccountToken(piece, piece, "n"))
            last = None
        else:
            um = _CJK_UNIT_RE.fullmatch(piece)
            if um:
                dim, factor = _CJK_UNITS[um.group(2)]
                value = Fraction(um.group(1).replace(",", "")) * factor
                if last and last[0] == dim and factor < last[1] and value < last[1]:
                    # "1時間30分" is one value (90 minutes), as "1 h 30 min" is.
                    value += last[2]
                    prev = out.pop()
                    out.append(AccountToken(quantity_key(dim, value), prev.text + piece, "n"))
                else:
                    out.append(AccountToken(quantity_key(dim, value), piece, "n"))
                last = (dim, factor, value)
        pos = m.end()
    _cjk_plain(text[pos:], out)


def _cjk_plain(text: str, out: list[AccountToken]) -> None:
    buf: list[str] = []

    def flush() -> None:
        if buf:
            # Session 8: a Latin run reads its rates as Latin text does ("600 m³/h" in a
            # CJK sentence is the rate a table cell "600 m³/h" is).
            latin: list[AccountToken] = []
            _latin_tokens("".join(buf), latin)
            out.extend(with_rates(tuple(latin), AccountToken))
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
    text = area_units(normalise_dates(western_forms(text) if has_cjk(text) else text, keep_length=False), keep_length=False)
    out: list[AccountToken] = []
    if not has_cjk(text):
        text = pounds_for_pence(range_units(spoken_quantities(expand_contractions(text))))
    if has_cjk(text):
        _cjk_tokens(text, out)
    else:
        _latin_tokens(text, out)
        if "and" in text:
            out = consecutive_day_pairs(out)
        return _label_letters(_every_unit(with_rates(tuple(_one_period(out)), AccountToken)))
    return tuple(out)


def _label_letters(toks: tuple[AccountToken, ...]) -> tuple[AccountToken, ...]:
    """"revision A", "point A (north car park)", "Plan A is": a capital "A" before no word,
    or between a word and a verb, is a label value, not the article (session 9: "revision A"
    must not read as "revision" with "a" dropped)."""
    if not any(t.text == "A" for t in toks):
        return toks
    out = list(toks)
    for i, t in enumerate(toks):
        after = toks[i + 1] if i + 1 < len(toks) else None
        verb = after is not None and (after.key in _FINITE or after.key.startswith("be:"))
        if t.text == "A" and (
            after is None or after.kind != "w" or (verb and i and toks[i - 1].kind in ("w", "n"))
        ) and not _article_of_amount(toks, i):
            out[i] = AccountToken("id:a", t.text, "w", "id:a")
    return tuple(out)


def _article_of_amount(toks: tuple[AccountToken, ...], i: int) -> bool:
    """A sentence's (or clause's) first "A" before an amount in digits and a noun is the article ("A
    20 ml sample", "A 12-month contract"; session 14), not a label. Not before a word
    ("A third of ..." is a fraction)."""
    return (
        (i == 0 or (toks[i - 1].kind == "p" and toks[i - 1].key in ".!?"))
        and len(toks) > i + 2
        and toks[i + 1].kind == "n"
        and (toks[i + 1].text[:1].isdigit() or toks[i + 1].key.startswith("q:"))
        and toks[i + 2].kind == "w"
        and toks[i + 2].key not in _FINITE
        and not toks[i + 2].key.startswith("be:")
    )


def _every_unit(toks: tuple[AccountToken, ...]) -> tuple[AccountToken, ...]:
    """"every hour" is "every 60 minutes", "every year" "every 12 months": a bare time unit after "every" or "each" (not
    a rate, which :func:`with_rates` has keyed already) is one of that unit."""
    res = list(toks)
    for i in range(1, len(res)):
        t, lead = res[i], res[i - 1]
        if t.kind == "w" and lead.kind == "w" and lead.key in ("every", "each"):
            spec = _UNIT_TABLE.get(t.key)
            if spec is not None and spec[0] in ("time", "months"):
                res[i] = AccountToken(quantity_key(spec[0], spec[1]), t.text, "n")
    return tuple(res)


_PERIOD_LEADS = frozenset(["first", "next", "last", "past"])
_PERIODS = frozenset(["year", "month", "week", "day", "hour", "minute"])


def _one_period(out: list[AccountToken]) -> list[AccountToken]:
    """"the first year" is "the first 12 months": a singular period after first, next,
    last or past is one unit of it (only right after that word)."""
    res = list(out)
    for i in range(1, len(res)):
        t, lead = res[i], res[i - 1]
        if t.kind == "w" and t.key in _PERIODS and lead.text.lower() in _PERIOD_LEADS:
            dim, factor = _UNIT_TABLE[t.key]
            res[i] = AccountToken(quantity_key(dim, factor), t.text, "n")
    return res


# --------------------------------------------------------------------------- predicates


def _same(c: AccountToken, e: AccountToken) -> bool:
    if c.kind != e.kind:
        return False
    if c.key == e.key:
        return True
    # A negation, modal or quantifier is matched only as itself: "not" is no inflection
    # of "notes" or "noted", nor "will" of "willing".
    if c.key in _EXACT_ONLY or e.key in _EXACT_ONLY:
        return False
    return c.kind == "w" and c.stem == e.stem and len(c.stem) >= 3


_EXACT_ONLY = _QUALIFIERS - {"planned", "previously"}


def _is_conj(t: AccountToken) -> bool:
    return (
        (t.kind == "w" and t.key in ("and", "or"))
        or (t.kind == "p" and t.key in ",、")
        or (t.kind == "c" and t.key in _CJK_CONJ)
    )


#: Finite verbs and auxiliaries (a line without one states its fact label-style).
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
