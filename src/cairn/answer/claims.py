"""Text analysis for claim verification: sentences, clauses, tokens, numbers, claims.

Everything here is pure and deterministic. It serves two readers: :func:`split_claims`
cuts a generated draft into claims, and :mod:`cairn.answer.verify` analyses both claims
and evidence spans into the same token model (words with light stems, numbers with
units, months, code spans, negation markers) so that alignment is a comparison of like
with like.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Claim", "Token", "clause_ranges", "sentence_ranges", "split_claims", "stem", "tokenize"]


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence-sized statement of a draft answer.

    ``cited`` lists the evidence ids the draft cites in or right after the sentence
    (``[E1]``, ``[E2, E3]``). ``substantive`` is False for hedges and meta text
    ("Based on the evidence:", "I hope this helps"), which need no support.
    """

    id: str
    text: str
    cited: tuple[str, ...]
    substantive: bool


TokenKind = Literal["word", "number", "month"]


@dataclass(frozen=True, slots=True)
class Token:
    """One token of analysed text.

    ``norm`` is the lower-cased surface form (possessive removed), ``stem`` its light
    stem. Numbers carry ``value``, the normalised ``unit`` that follows them (if any) and
    whether they were written as an ordinal. ``start``/``end`` are character offsets.
    """

    kind: TokenKind
    raw: str
    norm: str
    stem: str
    start: int
    end: int
    value: float | None = None
    unit: str | None = None
    ordinal: bool = False
    written: bool = False


# --------------------------------------------------------------------------- words

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "across",
        "again",
        "along",
        "already",
        "also",
        "although",
        "am",
        "among",
        "an",
        "and",
        "another",
        "any",
        "anyone",
        "anything",
        "are",
        "around",
        "as",
        "at",
        "be",
        "became",
        "because",
        "been",
        "being",
        "between",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "during",
        "either",
        "else",
        "etc",
        "even",
        "ever",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "however",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "like",
        "made",
        "make",
        "makes",
        "may",
        "me",
        "might",
        "mine",
        "must",
        "my",
        "myself",
        "of",
        "off",
        "on",
        "one's",
        "onto",
        "or",
        "other",
        "others",
        "otherwise",
        "our",
        "ours",
        "ourselves",
        "out",
        "own",
        "per",
        "perhaps",
        "quite",
        "rather",
        "really",
        "shall",
        "she",
        "should",
        "since",
        "so",
        "some",
        "something",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "though",
        "through",
        "thus",
        "to",
        "too",
        "toward",
        "towards",
        "until",
        "up",
        "upon",
        "us",
        "via",
        "was",
        "we",
        "were",
        "what",
        "whatever",
        "when",
        "where",
        "whereas",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "within",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)

# Negation and polarity markers: compared, never counted as content.
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "neither",
        "without",
        "cannot",
        "nothing",
        "nobody",
        "nowhere",
        "lack",
        "lacks",
        "lacking",
    ]
)

# Words a faithful paraphrase adds without adding a fact ("the study found that ...").
# They may stay unmatched; every other content word must be found in the evidence.
GENERIC = frozenset(
    [
        "study",
        "studies",
        "paper",
        "article",
        "report",
        "reports",
        "reported",
        "author",
        "authors",
        "researchers",
        "investigators",
        "evidence",
        "document",
        "documents",
        "source",
        "sources",
        "text",
        "passage",
        "according",
        "state",
        "states",
        "stated",
        "show",
        "shows",
        "showed",
        "shown",
        "find",
        "finds",
        "found",
        "indicate",
        "indicates",
        "indicated",
        "suggest",
        "suggests",
        "suggested",
        "note",
        "notes",
        "noted",
        "describe",
        "describes",
        "described",
        "reveal",
        "reveals",
        "revealed",
        "demonstrate",
        "demonstrates",
        "demonstrated",
        "observe",
        "observed",
        "mention",
        "mentions",
        "mentioned",
        "explain",
        "explains",
        "explained",
        "conclude",
        "concludes",
        "concluded",
        "overall",
        "specifically",
        "particularly",
        "generally",
        "respectively",
        "command",
        "run",
        "runs",
        "use",
        "uses",
        "used",
        "using",
    ]
)

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
_AMBIGUOUS_MONTHS = frozenset(
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


def stem(word: str) -> str:
    """A light, deterministic suffix stripper ("decreases", "decreased" -> "decreas")."""
    w = word.lower()
    if len(w) <= 3:
        return w
    for suffix, repl in (
        ("ational", "ate"), ("ments", ""), ("ment", ""), ("ations", "ate"), ("ation", "ate"),
        ("ings", ""), ("ing", ""), ("ied", "y"), ("ies", "y"), ("edly", ""), ("ed", ""),
        ("sses", "ss"), ("es", ""), ("s", ""), ("ly", ""),
    ):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) + len(repl) >= 3:
            if suffix == "s" and (w.endswith(("ss", "us", "is"))):
                continue
            if suffix == "es" and not w.endswith(("ches", "shes", "xes", "zes", "sses", "oes")):
                continue
            w = w[: len(w) - len(suffix)] + repl
            break
    else:
        if w.endswith("ed"):
            w = w[:-1]  # "used" -> "use"
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # "stopped" -> "stopp" -> "stop"
    return w


# --------------------------------------------------------------------------- tokens

_TOKEN_RE = re.compile(
    r"""
    (?P<iso>\b\d{4}-\d{2}-\d{2}\b)
  | (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<ord>st|nd|rd|th)?(?![A-Za-z])
  | (?P<pct>%)
  | (?P<deg>°)
  | (?P<word>[^\W\d_][\w]*(?:['’][^\W\d_]+)?)
    """,
    re.VERBOSE,
)


def _norm_word(raw: str) -> str:
    w = raw.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("n't"):
        return "not"
    elif "'" in w:
        w = w.split("'")[0]
    return w


def tokenize(text: str) -> list[Token]:
    """Analyse ``text`` into words, numbers (with units, written-out and ordinal forms
    normalised) and month/weekday names."""
    raw_tokens: list[tuple[str, str, int, int, bool]] = []  # kind, raw, start, end, ordinal
    for m in _TOKEN_RE.finditer(text):
        if m.group("iso"):
            y, mo, d = m.group("iso").split("-")
            # An ISO date is three numbers; the month is also exposed as a month name.
            base = m.start()
            raw_tokens.append(("num", y, base, base + 4, False))
            raw_tokens.append(("num", mo, base + 5, base + 7, False))
            raw_tokens.append(("num", d, base + 8, base + 10, False))
        elif m.group("num"):
            raw_tokens.append(("num", m.group("num"), m.start(), m.end(), bool(m.group("ord"))))
        elif m.group("pct"):
            raw_tokens.append(("word", "%", m.start(), m.end(), False))
        elif m.group("deg"):
            raw_tokens.append(("word", "°", m.start(), m.end(), False))
        else:
            raw_tokens.append(("word", m.group("word"), m.start(), m.end(), False))

    out: list[Token] = []
    i = 0
    n = len(raw_tokens)
    while i < n:
        kind, raw, start, end, ordinal = raw_tokens[i]
        if kind == "num":
            value = float(raw.replace(",", ""))
            out.append(
                Token("number", raw, raw.lower(), raw.lower(), start, end, value, None, ordinal)
            )
            i += 1
            continue
        low = _norm_word(raw)
        written = _parse_written(raw_tokens, i, text)
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
        if written is not None:
            value, is_ord, j = written
            last_end = raw_tokens[j - 1][3]
            span = text[start:last_end]
            out.append(
                Token(
                    "number",
                    span,
                    span.lower(),
                    span.lower(),
                    start,
                    last_end,
                    value,
                    None,
                    is_ord,
                    True,
                )
            )
            i = j
            continue
        if low in MONTHS and (low not in _AMBIGUOUS_MONTHS or raw[0].isupper()):
            mo = MONTHS[low]
            out.append(Token("month", raw, mo, mo, start, end))
            i += 1
            continue
        out.append(Token("word", raw, low, stem(low), start, end))
        i += 1
    return _attach_units(out, text)


def _parse_written(
    raw_tokens: list[tuple[str, str, int, int, bool]], i: int, text: str
) -> tuple[float, bool, int] | None:
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


def _attach_units(tokens: list[Token], text: str) -> list[Token]:
    out: list[Token] = []
    for k, tok in enumerate(tokens):
        if tok.kind == "number" and k + 1 < len(tokens):
            nxt = tokens[k + 1]
            gap = text[tok.end : nxt.start]
            unit: str | None = None
            if nxt.kind in ("word", "month") and gap in ("", " ", "-", "\n"):
                low = nxt.norm
                if low == "per" and k + 2 < len(tokens) and tokens[k + 2].norm == "cent":
                    unit = "percent"
                elif low in UNITS and not (low in ("l", "g", "h") and gap == ""):
                    unit = UNITS[low]
                elif nxt.kind == "month" or low in ("may",):
                    unit = None
            if unit is not None:
                tok = Token(
                    tok.kind,
                    tok.raw,
                    tok.norm,
                    tok.stem,
                    tok.start,
                    tok.end,
                    tok.value,
                    unit,
                    tok.ordinal,
                    tok.written,
                )
        out.append(tok)
    return out


# --------------------------------------------------------------------------- sentences

ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "vs",
        "al",
        "fig",
        "figs",
        "eq",
        "eqs",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "no",
        "nos",
        "approx",
        "ca",
        "cf",
        "jr",
        "sr",
        "st",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "vol",
        "vols",
        "pp",
        "p",
        "ed",
        "eds",
        "ref",
        "refs",
        "resp",
        "gen",
        "gov",
        "ch",
        "art",
    ]
)
# Abbreviations that may also end a sentence: they end one only before a capital letter.
SOFT_ABBREVIATIONS = frozenset(
    [
        "in",
        "mg",
        "ml",
        "kg",
        "cm",
        "mm",
        "ft",
        "lb",
        "lbs",
        "oz",
        "sec",
        "min",
        "max",
        "avg",
        "est",
        "etc",
        "hr",
        "hrs",
        "yr",
        "yrs",
        "approx",
    ]
)

_END_RE = re.compile(r"[.!?]+(?=[\s\"')\]]|\[|$)")
_CITE_RE = re.compile(
    r"\[\s*((?:[\w:#.\-]*\d[\w:#.\-]*)(?:\s*[,;]\s*(?:[\w:#.\-]*\d[\w:#.\-]*))*)\s*\]"
)
_CODE_RE = re.compile(r"`[^`\n]*`")


def _masked(text: str) -> str:
    """``text`` with code spans blanked out (same length), so punctuation in code is inert."""
    return _CODE_RE.sub(lambda m: "`" + "x" * (len(m.group()) - 2) + "`", text)


def sentence_ranges(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Character ranges of the sentences of ``text[start:end]``.

    Splits at ``.``, ``!`` and ``?`` followed by space, a closing mark, a citation or
    the end, but not after abbreviations ("e.g.", "et al."), initials ("m."), dotted
    tokens ("n.y.") or inside numbers ("2.5") and code spans.
    """
    end = len(text) if end is None else end
    masked = _masked(text[:end])
    out: list[tuple[int, int]] = []
    cur = start
    for m in _END_RE.finditer(masked, start, end):
        if m.group() == "..":
            continue  # MEDLINE writes ".." for a colon
        if m.group().startswith(".") and len(m.group()) == 1:
            before = masked[cur : m.start()].split()
            prev = before[-1].lower().lstrip("([\"'") if before else ""
            following = masked[m.end() : m.end() + 40].lstrip(" \t\n[]E0123456789,")[:1]
            dotted = "." in prev and all(part.isalpha() for part in prev.split(".") if part)
            if prev in ABBREVIATIONS or (len(prev) == 1 and prev.isalpha()) or dotted:
                continue
            if prev.split("-")[-1] in SOFT_ABBREVIATIONS and not following.isupper():
                continue
            if prev.isdigit() and len(before) == 1:
                continue  # "1. " opening a numbered item
        out.append((cur, m.end()))
        cur = m.end()
    if masked[cur:end].strip():
        out.append((cur, end))
    return [(a, b) for a, b in (_trim(text, a, b) for a, b in out) if b > a]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


_CLAUSE_RE = re.compile(
    r";|,\s+(?:and|but|whereas|while|although|though|whilst|so|yet)\b|\s+(?:whereas|but|while|although|though|whilst|however)\b|\s+-{1,2}\s+",
    re.IGNORECASE,
)


def clause_ranges(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Character ranges of the clauses of one sentence, cut at ``;``, contrastive
    conjunctions ("whereas", "but", ", and") and spaced dashes."""
    masked = _masked(text[:end])
    out: list[tuple[int, int]] = []
    cur = start
    for m in _CLAUSE_RE.finditer(masked, start, end):
        out.append((cur, m.start()))
        cur = m.start() if not m.group().startswith((";", ",")) else m.start() + 1
    out.append((cur, end))
    return [(a, b) for a, b in (_trim(text, a, b) for a, b in out) if b > a]


# --------------------------------------------------------------------------- claims

_BULLET_RE = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_HEADING_RE = re.compile(r"^\s*#{1,6}\s+")
_META_RE = re.compile(
    r"""^(?:
        (?:based\ on|according\ to|from|using|given)\ (?:the\ |this\ )?(?:provided\ |given\ |available\ |above\ |following\ |retrieved\ )?
            (?:evidence|context|capsule|sources?|documents?|information|text|passages?|spans?|excerpts?|notes?)
            (?:\ provided|\ given|\ above|\ below)?[\s,:.]*
      | here\ (?:is|are)\b.*:
      | here's\b.*:
      | (?:i\ )?hope\ (?:this|that|it)\ helps\b.*
      | let\ me\ know\b.*
      | feel\ free\b.*
      | (?:in\ summary|to\ summari[sz]e|in\ conclusion|in\ short|summary|answer|sources?|references?|citations?|evidence|notes?)\s*:?
      | (?:sure|certainly|of\ course|great\ question|okay|ok)[\s!.,]*
      | (?:the\ )?(?:following|answer)\ (?:is|are)\s*:?
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
LEAD_IN_RE = re.compile(
    r"""^(?:
        (?:based\ on|according\ to|from|given)\ (?:the\ |this\ )?(?:provided\ |given\ |available\ |above\ |retrieved\ )?
            (?:evidence|context|capsule|sources?|documents?|information|text|passages?|spans?|excerpts?|notes?)
            (?:\ provided|\ given|\ above)?\s*,?\s*
      | (?:the\ )?(?:evidence|context|sources?|documents?|text|passages?|capsule)\ (?:shows?|states?|says|indicates?|suggests?|notes?|mentions?|reports?)\ (?:that\ )?
      | (?:in\ summary|to\ summari[sz]e|in\ conclusion|in\ short|overall|summary|answer|indeed|yes|no|in\ fact|notably|importantly|additionally|moreover|furthermore|also)\s*[,:]\s*
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def strip_lead_in(text: str) -> str:
    """Remove discourse lead-ins ("Based on the evidence,", "Yes,") before verification."""
    prev = None
    while prev != text:
        prev = text
        text = LEAD_IN_RE.sub("", text, count=1).strip()
    return text


def _is_substantive(text: str, heading: bool) -> bool:
    bare = text.strip()
    if not any(ch.isalnum() for ch in bare):
        return False
    if _META_RE.match(bare):
        return False
    if bare.endswith("?"):
        return False  # a question asserts nothing
    if heading:
        toks = tokenize(bare)
        if len(bare.split()) <= 6 and not any(t.kind == "number" for t in toks):
            return False
    return True


def _citations(text: str) -> tuple[tuple[str, ...], str]:
    """Evidence ids cited in ``text`` and the text with the citations removed."""
    masked = _masked(text)
    ids: list[str] = []
    pieces: list[str] = []
    cur = 0
    for m in _CITE_RE.finditer(masked):
        for part in re.split(r"\s*[,;]\s*", text[m.start(1) : m.end(1)]):
            if part and part not in ids:
                ids.append(part)
        pieces.append(text[cur : m.start()])
        cur = m.end()
    pieces.append(text[cur:])
    clean = "".join(pieces)
    # Tidy whitespace outside code spans only: code is compared verbatim.
    out: list[str] = []
    for k, piece in enumerate(re.split(r"(`[^`\n]*`)", clean)):
        if k % 2 == 0:
            piece = re.sub(r"\s+", " ", piece)
            piece = re.sub(r"\s+([.,;:!?)])", r"\1", piece)
            piece = re.sub(r"\(\s*\)", "", piece)
        out.append(piece)
    return tuple(ids), "".join(out).strip()


def split_claims(draft: str) -> list[Claim]:
    """Split a draft answer into claims, one per sentence or list item.

    Handles abbreviations, decimals, initials, bullets and numbered lists, headings and
    citations: ``[E1]`` marks inside or right after a sentence (also after its full stop)
    are attached to that sentence and removed from its text. Meta sentences and
    questions are kept, marked not substantive, so the caller can still show them.
    """
    blocks: list[tuple[int, int, bool]] = []  # start, end, heading
    pos = 0
    cur_start: int | None = None
    cur_end = 0
    for line in draft.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        line_start, line_end = pos, pos + len(body)
        pos += len(line)
        if not body.strip():
            if cur_start is not None:
                blocks.append((cur_start, cur_end, False))
                cur_start = None
            continue
        if _HEADING_RE.match(body):
            if cur_start is not None:
                blocks.append((cur_start, cur_end, False))
                cur_start = None
            hm = _HEADING_RE.match(body)
            assert hm is not None
            blocks.append((line_start + hm.end(), line_end, True))
            continue
        bm = _BULLET_RE.match(body)
        if bm:
            if cur_start is not None:
                blocks.append((cur_start, cur_end, False))
            cur_start, cur_end = line_start + bm.end(), line_end
            continue
        if cur_start is not None and not body.lstrip()[:1].islower():
            # A new line that does not continue a sentence starts a new block.
            blocks.append((cur_start, cur_end, False))
            cur_start = None
        if cur_start is None:
            cur_start = line_start
        cur_end = line_end
    if cur_start is not None:
        blocks.append((cur_start, cur_end, False))

    raw: list[tuple[str, bool]] = []  # sentence text, heading
    for b_start, b_end, heading in blocks:
        for s, e in sentence_ranges(draft, b_start, b_end):
            raw.append((draft[s:e], heading))

    claims: list[tuple[list[str], str, bool]] = []  # cited, text, heading
    for sentence, heading in raw:
        lead = re.match(r"^(?:\s*\[[^\]]*\d[^\]]*\])+\s*[.,;]?", _masked(sentence))
        if lead and claims:
            ids, _ = _citations(sentence[: lead.end()])
            for i in ids:
                if i not in claims[-1][0]:
                    claims[-1][0].append(i)
            sentence = sentence[lead.end() :]
        ids, clean = _citations(sentence)
        if not clean or not any(ch.isalnum() for ch in clean):
            if ids and claims:
                claims[-1][0].extend(i for i in ids if i not in claims[-1][0])
            if not clean:
                continue
        claims.append((list(ids), clean, heading))

    return [
        Claim(id=f"c{k}", text=text, cited=tuple(cited), substantive=_is_substantive(text, heading))
        for k, (cited, text, heading) in enumerate(claims, start=1)
    ]
