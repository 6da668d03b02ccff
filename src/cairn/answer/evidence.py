"""Evidence and claims cut for verification: evidence units (sentences, clauses, table rows read with their header), negation scopes, code patterns, claim clauses."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from cairn.answer.areas import area_units
from cairn.answer.cjk_titles import cjk_title_line
from cairn.answer.claims import GENERIC, NEGATIONS, strip_lead_in
from cairn.answer.contract import EvidenceSpan
from cairn.answer.document_subject import document_antecedent
from cairn.answer.normalise import normalise_dates, range_first_days
from cairn.answer.table_reading import RowCell, write_row
from cairn.text.sentences import clause_ranges, sentence_ranges
from cairn.text.stem import light_stem
from cairn.text.stopwords import CLAIM_STOPWORDS
from cairn.text.tokens import Token, tokenize

# --------------------------------------------------------------------------- analysis

_SPELLING = (("foet", "fet"), ("oesoph", "esoph"), ("haem", "hem"), ("anaem", "anem"), ("colour", "color"), ("behaviour", "behavior"), ("tumour", "tumor"))  # fmt: skip
_GENERIC_STEMS = frozenset(light_stem(w) for w in GENERIC)

_ANTONYM_WORDS = (
    ("increase", "decrease"), ("increase", "reduce"), ("increase", "diminish"), ("rise", "fall"),
    ("higher", "lower"), ("high", "low"), ("more", "less"), ("more", "fewer"),
    ("greater", "smaller"), ("greater", "less"), ("larger", "smaller"), ("above", "below"),
    ("before", "after"), ("maximum", "minimum"), ("positive", "negative"),
    ("strongly", "slightly"), ("strong", "weak"), ("significant", "insignificant"),
    ("presence", "absence"), ("present", "absent"), ("early", "late"), ("earlier", "later"),
    ("enable", "disable"), ("include", "exclude"), ("accept", "reject"), ("gain", "loss"),
    ("success", "failure"), ("major", "minor"), ("same", "different"), ("agree", "disagree"),
    ("stable", "unstable"), ("possible", "impossible"), ("better", "worse"),
    ("improve", "worsen"), ("fast", "slow"), ("faster", "slower"), ("upper", "lower"),
    ("inside", "outside"), ("internal", "external"), ("true", "false"), ("add", "remove"),
    ("start", "stop"), ("open", "close"), ("first", "last"), ("create", "delete"),
    ("local", "remote"), ("visible", "hidden"), ("ascending", "descending"),
    ("compress", "decompress"), ("encrypt", "decrypt"), ("upload", "download"),
    ("premature", "term"), ("maternal", "fetal"), ("hyperplasia", "hypertrophy"),
    ("laminar", "turbulent"), ("subsonic", "supersonic"), ("upstream", "downstream"),
    ("minimal", "maximal"), ("benign", "malignant"), ("acute", "chronic"),
    ("inhibit", "stimulate"), ("inhibit", "enhance"), ("decrease", "raise"),
)  # fmt: skip


def _canon(s: str) -> str:
    for a, b in _SPELLING:
        if s.startswith(a):
            return b + s[len(a) :]
    return s


_ANTONYMS: dict[str, frozenset[str]] = {}
for _a, _b in _ANTONYM_WORDS:
    _sa, _sb = _canon(light_stem(_a)), _canon(light_stem(_b))
    _ANTONYMS[_sa] = _ANTONYMS.get(_sa, frozenset()) | {_sb}
    _ANTONYMS[_sb] = _ANTONYMS.get(_sb, frozenset()) | {_sa}

_INSTRUCTION_RE = re.compile(
    r"""(?:\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|prompts?|rules|guidelines|above|previous|prior)\b
      | \bsystem\ prompt\b | \bnew\ instructions?\b
      | \byou\ (?:are|must|should)\ (?:now\ )?(?:an?\ |the\ )?(?:ai|assistant|model|language\ model|verifier|chatbot)\b
      | \bas\ an?\ (?:ai|assistant|llm|language\ model)\b
      | \b(?:mark|classify|label|treat|consider|report|rate)\b.{0,60}\b(?:claims?|statements?|answers?|sentences?)\b.{0,60}\b(?:supported|true|verified|correct)\b
      | \b(?:respond|answer|reply|say|output|print)\b.{0,30}\b(?:that|with|only)\b.{0,80}\b(?:supported|verified)\b
      | \bdo\ not\ (?:verify|check|cite|question)\b
      | \b(?:assistant|system)\s*:
      | \bverifier\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
_MNEMONIC_RE = re.compile(r"\[([A-Za-z])\]")  # tldr "[c]reate"
_CONTEXT_RADIUS = 6
_STRONG = 0.75


@dataclass(frozen=True, slots=True)
class _Clause:
    start: int
    end: int
    tokens: tuple[Token, ...]
    stems: frozenset[str]
    norms: frozenset[str]
    months: frozenset[str]
    negation_scopes: tuple[frozenset[str], ...]  # content stems governed by each negation
    support: bool = True  # False for the whole-sentence view used only to find conflicts


@dataclass(frozen=True, slots=True)
class _Unit:
    span_index: int
    evidence_id: str
    start: int
    end: int
    clauses: tuple[_Clause, ...]
    flat: str
    codes: tuple[re.Pattern[str], ...]
    instruction: bool
    text: str = ""  # the unit's own text (a table row: its header line, then the row)
    table: bool = False
    heading: str = ""  # the document title and the section heading above the unit
    antecedent: str = ""  # what its opening "It"/"They" stands for (document_subject.py)


@dataclass(frozen=True, slots=True)
class _ClaimClause:
    tokens: tuple[Token, ...]
    required: tuple[str, ...]
    entities: tuple[str, ...]
    months: tuple[str, ...]
    numbers: tuple[Token, ...]
    negated: bool


@dataclass(frozen=True, slots=True)
class _Match:
    ok: bool
    contradiction: bool
    reason: str
    coverage: float
    clause: _Clause | None
    detail: str = ""


def _is_content(tok: Token) -> bool:
    return (
        tok.kind == "word"
        and tok.norm not in CLAIM_STOPWORDS
        and tok.norm not in NEGATIONS
        and (len(tok.norm) > 1 or tok.norm == "%")
        and tok.norm != "%"
    )


_NEGATION_SCOPE = 5
_ENUMERATOR_RE = re.compile(r"^\s*(?:[-*+•>]\s+|\(?\d{1,3}[.)]\s+|\([a-z]\)\s+)")


# Negations that govern a noun phrase ("no change", "without cataract") end their scope
# at a verb or conjunction; "not"/"never" govern the verb phrase that follows.
_NOMINAL_NEGATIONS = frozenset(
    {"no", "without", "none", "nothing", "nobody", "lack", "lacks", "lacking"}
)
_SCOPE_STOPS = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "and",
        "or",
        "but",
        "that",
        "which",
        "who",
        "whose",
        "if",
    ]
)


def _negation_scopes(text: str) -> tuple[frozenset[str], ...]:
    """For each negation marker outside code spans, the content stems it governs."""
    toks = tokenize(_CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), text))
    scopes = []
    for i, t in enumerate(toks):
        if t.kind != "word" or t.norm not in NEGATIONS:
            continue
        governed: set[str] = set()
        prev_end = t.end
        for a in toks[i + 1 : i + 1 + _NEGATION_SCOPE]:
            if re.search(r"[,;:()]", text[prev_end : a.start]):
                break
            if t.norm in _NOMINAL_NEGATIONS and a.kind == "word" and a.norm in _SCOPE_STOPS:
                break
            if _is_content(a) or a.kind != "word":
                governed.add(_canon(a.stem))
            prev_end = a.end
        scopes.append(frozenset(governed))
    return tuple(scopes)


def _clean(text: str) -> str:
    text = _ENUMERATOR_RE.sub(lambda m: " " * len(m.group()), text)
    return _MNEMONIC_RE.sub(r"\1", text)


def _analyse_clause(
    text: str, start: int, end: int, context: frozenset[str] = frozenset(), support: bool = True
) -> _Clause:
    body = _clean(text[start:end])
    toks = tuple(tokenize(body))
    context |= range_first_days(body)  # "24–25 April 2027" holds 24 April too (session 17)
    return _Clause(
        start=start,
        end=end,
        tokens=toks,
        stems=frozenset(_canon(t.stem) for t in toks if _is_content(t)) | context,
        norms=frozenset(t.norm for t in toks if t.kind == "word") | context,
        months=frozenset(t.norm for t in toks if t.kind == "month"),
        negation_scopes=_negation_scopes(body),
        support=support,
    )


_STRUCT_RE = re.compile(r"^\s*(?:[-*+•]\s|#|>|`|\d{1,3}[.)]\s)")


@functools.lru_cache(maxsize=1024)
def _units(span: EvidenceSpan, index: int) -> list[_Unit]:
    """Cut one span into sentences; a line ending in ":" joins the code line after it;
    each table row is a unit of its own, read with the table's header line."""
    text = area_units(normalise_dates(span.text))  # same length: offsets and quotes keep
    blocks: list[tuple[int, int]] = []
    rows: list[tuple[int, int, str]] = []
    header = ""
    pos = 0
    cur: tuple[int, int] | None = None
    prev_row = False
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        a, b = pos, pos + len(body)
        pos += len(line)
        if not body.strip():
            if cur:
                blocks.append(cur)
            cur = None
            prev_row = False
            continue
        if body.lstrip().startswith("|") and body.rstrip().endswith("|"):
            if cur:
                blocks.append(cur)
            cur = None
            if _TABLE_RULE_RE.match(body):
                prev_row = True
                continue
            if not prev_row:
                header = body
            else:
                rows.append((a, b, header))
            prev_row = True
            continue
        prev_row = False
        stripped = body.lstrip()
        if _STRUCT_RE.match(body):
            if cur:
                blocks.append(cur)
            cur = (a, b)
            if stripped.startswith(("#", ">", "`")):
                blocks.append(cur)
                cur = None
            continue
        block = text[cur[0] : cur[1]] if cur else ""
        if cur and (_title_line(block.rsplit("\n", 1)[-1], stripped) or cjk_title_line(block, stripped)):
            blocks.append(cur)  # session 14: a title line without a full stop ends there
            cur = None
        cur = (cur[0], b) if cur else (a, b)
    if cur:
        blocks.append(cur)

    ranges: list[tuple[int, int]] = []
    for a, b in blocks:
        for sa, sb in sentence_ranges(text, a, b):
            ranges.extend(_cjk_sentences(text, sa, sb))
    merged: list[tuple[int, int]] = []
    for a, b in ranges:
        if (
            merged
            and text[merged[-1][0] : merged[-1][1]].rstrip().endswith(":")
            and text[a:b].lstrip().startswith("`")
        ):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))

    # A Markdown heading ("# tar") names the subject of the lines under it.
    headings = [(m.start(), m.group(1)) for m in re.finditer(r"(?m)^#{1,6}\s+(.+)$", text)]
    units = []
    previous, previous_end, antecedent = "", -1, ""
    for a, b in merged:
        body = text[a:b]
        adjacent = previous_end >= 0 and not text[previous_end:a].strip()
        antecedent = document_antecedent(previous, antecedent, body) if adjacent else ""
        previous, previous_end = body, b
        title = next((h for pos, h in reversed(headings) if pos < a), "")
        context = frozenset(_canon(t.stem) for t in tokenize(title) if _is_content(t))
        clauses = [_analyse_clause(text, ca, cb, context) for ca, cb in clause_ranges(text, a, b)]
        if len(clauses) > 1:
            clauses.append(_analyse_clause(text, a, b, context, support=False))
        units.append(_unit(index, span.evidence_id, a, b, body, tuple(clauses), _clean(body),
                           _heading(headings, a), antecedent=antecedent))
    shared = _shared_row_names(text, rows)
    for a, b, head in rows:
        body = text[a:b]
        title = next((h for pos, h in reversed(headings) if pos < a), "")
        context = frozenset(_canon(t.stem) for t in tokenize(title + " " + head) if _is_content(t))
        row = _required_aside(body, shared.get(head, ()))
        plain = _table_reading(head, row)
        # Session 18b: a none cell also read "no <header>" (answer/table_none.py).
        for reading in dict.fromkeys((plain, _table_reading(head, row, rates=True), _none_reading(plain))):
            # Session 10: a row also read with the rate its label or column names
            # ("standing charge (per year) | £46.80" = "£46.80 a year"), as a unit of its own
            # so the amount as written still reads.
            units.append(_unit(index, span.evidence_id, a, b, body, (_analyse_clause(text, a, b, context),),
                               reading, _heading(headings, a), table=True))
    return units


def _none_reading(reading: str) -> str:
    from cairn.answer.table_none import none_reading  # tokens imports nothing from here

    return none_reading(reading)


_ASIDE_RE = re.compile(r"[(（]([^()（）]*)[)）]")

#: A Chinese/Japanese/Korean sentence ends at a full-width full stop, exclamation or
#: question mark (with any closing quote or bracket after it); no space follows it.
_CJK_END_RE = re.compile(r"[。！？]+[」』）】〕\"'”’]*")


def _cjk_sentences(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``text[a:b]`` cut after each CJK sentence-final mark (session 15): consecutive
    lines of a Chinese, Japanese or Korean note are one block, and were one unit."""
    out: list[tuple[int, int]] = []
    cur = a
    for m in _CJK_END_RE.finditer(text, a, b):
        if text[cur : m.end()].strip():
            out.append((cur, m.end()))
        cur = m.end()
    if text[cur:b].strip():
        out.append((cur, b))
    trimmed = []
    for x, y in out:
        while x < y and text[x].isspace():
            x += 1
        trimmed.append((x, y))
    return trimmed


def _title_line(prev: str, line: str) -> bool:
    """``prev`` is a line of its own before ``line``: it ends with no punctuation and
    ``line`` opens a sentence with a capital ("Fernlea Allotment Association, managing the
    site" above "Rules revision 2.4, agreed ..."). Not a wrapped sentence whose next line
    opens with a name: ``prev`` then ends with a lower-case function word."""
    prev = prev.rstrip()
    if not prev or prev[-1] in ".!?:;,。！？：；、-–—(" or not line[:1].isupper():
        return False
    last = prev.rsplit(None, 1)[-1]
    return not (last.islower() and last.lower() in _WRAP_WORDS)


#: Words after which a wrapped line goes on ("approved by / Dr Marsh").
_WRAP_WORDS = frozenset(
    ["a", "an", "the", "by", "of", "to", "for", "from", "with", "and", "or", "in", "on", "at",
     "as", "is", "are", "was", "were", "be", "that", "which", "who", "not", "than", "into",
     "via", "per", "if", "when", "under", "over", "after", "before", "between", "until"]
)  # fmt: skip


def _first_cell(row: str) -> str:
    return row.strip().strip("|").split("|")[0].strip()


def _shared_row_names(text: str, rows: Sequence[tuple[int, int, str]]) -> dict[str, set[str]]:
    """Per table (by header line), the row names that two of its rows share once their
    parenthesised asides are left out: "Express delivery" for the rows "Express delivery"
    and "Express delivery (international)"."""
    seen: dict[str, dict[str, int]] = {}
    for a, b, head in rows:
        base = " ".join(_ASIDE_RE.sub(" ", _first_cell(text[a:b])).split()).lower()
        counts = seen.setdefault(head, {})
        counts[base] = counts.get(base, 0) + 1
    return {head: {n for n, c in counts.items() if c > 1} for head, counts in seen.items()}


def _required_aside(row: str, shared: Collection[str]) -> str:
    """The row with the aside of its first cell marked required (``[...]``) when the row
    name without it is another row's too: then only the aside tells the rows apart."""
    cell = _first_cell(row)
    base = " ".join(_ASIDE_RE.sub(" ", cell).split()).lower()
    if base not in shared or not _ASIDE_RE.search(cell):
        return row
    return row.replace(cell, _ASIDE_RE.sub(lambda m: f"[{m.group(1)}]", cell), 1)


def _unit(
    index: int, evidence_id: str, start: int, end: int, body: str, clauses: tuple[_Clause, ...],
    reading: str, heading: str, *, table: bool = False, antecedent: str = "",
) -> _Unit:
    """One evidence unit: ``body`` is its raw text, ``reading`` the text the account reads
    (a sentence cleaned, a table row with its header)."""
    return _Unit(
        span_index=index, evidence_id=evidence_id, start=start, end=end, clauses=clauses,
        flat=" ".join(body.split()),
        codes=tuple(_code_pattern(m.group(1)) for m in _CODE_SPAN_RE.finditer(body)),
        instruction=bool(_INSTRUCTION_RE.search(body)),
        text=_CODE_SPAN_RE.sub(" ", reading), table=table, heading=heading, antecedent=antecedent,
    )


def _heading(headings: Sequence[tuple[int, str]], at: int) -> str:
    """The first heading of the span and the nearest heading above ``at``."""
    above = [h for pos, h in headings if pos < at]
    if not above:
        return ""
    return above[0] if len(above) == 1 else f"{above[0]} ; {above[-1]}"


_TABLE_RULE_RE = re.compile(r"^\s*\|[\s|:-]+\|\s*$")


def _table_reading(header: str, row: str, *, rates: bool = False) -> str:
    """A table row read with its header: "Header: cell; Header: cell"; with ``rates``,
    each amount cell also carries the "(per <unit>)" its row label or its column header
    ends with (:func:`_label_rate`)."""
    heads = [h.strip() for h in header.strip().strip("|").split("|")]
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    if len(heads) != len(cells):
        return write_row([RowCell("", c, False) for c in cells])
    out = []
    row_rate = _label_rate(cells[0]) if rates else None
    for k, (h, c) in enumerate(zip(heads, cells, strict=True)):
        rate = (_label_rate(h) or row_rate) if rates and k else None
        if rate and _AMOUNT_CELL_RE.fullmatch(c):
            c = f"{c} per {rate}"
        m = _HEADER_UNIT_RE.match(h)
        if m and _BARE_NUMBER_RE.fullmatch(c) and _is_unit(m.group(2)):
            # "Weight (kg) : 1.10" reads "Weight : 1.10 kg"; "Price (€) : 980" "€980".
            unit = m.group(2)
            h, c = m.group(1), (unit + c if unit in _CURRENCY_SIGNS else f"{c} {unit}")
        per = _HEADER_PER_RE.search(h)
        if per and _AMOUNT_CELL_RE.fullmatch(c):
            # "Price per month : $49" reads "$49 per month" (a rate, see answer.rates).
            c = f"{c} per {per.group(1)}"
        out.append(RowCell(h, c, True))
    return write_row(out)


#: A label's final "(per year)", "(per m³)", "(water and sewerage, per year)".
_LABEL_RATE_RE = re.compile(r"[(,]\s*per\s+([^(),]{1,12}?)\s*\)\s*$", re.IGNORECASE)


def _label_rate(label: str) -> str | None:
    """The unit a row label or column header gives its amounts "per", when it is one:
    "(per year)", or a header that opens with a frequency adjective ("monthly fee",
    "annual rent": per month, per year; session 14)."""
    m = _LABEL_RATE_RE.search(label)
    if m is not None and _is_unit(m.group(1)):
        return m.group(1)
    first = label.split(" ", 1)[0].lower()
    return _FREQUENCY_RATES.get(first) if " " in label.strip() else None


#: A frequency adjective and the unit it gives an amount "per" (exact equivalences).
_FREQUENCY_RATES = {
    "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
    "monthly": "month", "yearly": "year", "annual": "year",
}  # fmt: skip


_HEADER_UNIT_RE = re.compile(r"^(.*?)\s*[(\[]\s*(?:in\s+)?([^()\[\]\s]{1,8})\s*[)\]]$")
_HEADER_PER_RE = re.compile(
    r"\bper\s+(second|minute|hour|day|week|month|year)s?\s*$", re.IGNORECASE
)
_AMOUNT_CELL_RE = re.compile(r"[€$£¥]?\s?\d[\d,]*(?:\.\d+)?")
_BARE_NUMBER_RE = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
_CURRENCY_SIGNS = "€$£¥"


@functools.lru_cache(maxsize=256)
def _is_unit(unit: str) -> bool:
    """``unit`` reads as a unit of measure or a currency (it makes "1 unit" a quantity)."""
    from cairn.answer.tokens import account_tokens  # tokens imports nothing from here

    text = unit + "1" if unit in _CURRENCY_SIGNS else f"1 {unit}"
    toks = account_tokens(text)
    return len(toks) == 1 and toks[0].key.startswith("q:")


def _code_pattern(code: str) -> re.Pattern[str]:
    """A pattern for an evidence command: literal text, with each ``{{placeholder}}``
    matching itself, one of its ``[-a|--all]`` alternatives or a filled-in value."""
    parts: list[str] = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}", code):
        parts.append(re.escape(code[pos : m.start()]))
        inner = m.group(1)
        options = [re.escape(inner), re.escape("{{" + inner + "}}")]
        alt = re.fullmatch(r"\[([^\]]+)\]", inner)
        if alt:
            options += [re.escape(o) for o in alt.group(1).split("|")]
        elif not inner.startswith("-"):
            options.append(
                r"[^\s`|;&<>-][^\s`|;&<>]*"
                + (r"(?: [^\s`|;&<>-][^\s`|;&<>]*)*" if " " in inner else "")
            )
        parts.append("(?:" + "|".join(options) + ")")
        pos = m.end()
    parts.append(re.escape(code[pos:]))
    return re.compile(r"\s*".join("".join(parts).split(r"\ ")))


_CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")


def _claim_parts(text: str) -> tuple[list[_ClaimClause], list[str]]:
    core = area_units(normalise_dates(strip_lead_in(text), keep_length=False), keep_length=False)
    codes = [" ".join(m.group(1).split()) for m in _CODE_SPAN_RE.finditer(core)]
    clauses: list[_ClaimClause] = []
    first_word = True
    for a, b in clause_ranges(core, 0, len(core)):
        # Code spans are compared verbatim (see _match_unit), not word by word.
        body = _CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), _clean(core[a:b]))
        toks = tuple(tokenize(body))
        # A unit after a number ("146 mg") is checked with the number, not as a word.
        unit_words = {i + 1 for i, t in enumerate(toks) if t.kind == "number" and t.unit}
        required: list[str] = []
        entities: list[str] = []
        words = [t for i, t in enumerate(toks) if t.kind == "word" and i not in unit_words]
        for w_index, t in enumerate(words):
            is_first = first_word
            first_word = False
            if not _is_content(t):
                continue
            s = _canon(t.stem)
            if s not in _GENERIC_STEMS and s not in required:
                required.append(s)
            inner_upper = any(c.isupper() for c in t.raw[1:])
            has_digit = any(c.isdigit() for c in t.raw)
            next_capital = w_index + 1 < len(words) and words[w_index + 1].raw[:1].isupper()
            capital = t.raw[0].isupper() and (not is_first or next_capital)
            if (capital or inner_upper or has_digit) and t.norm not in entities:
                entities.append(t.norm)
        clauses.append(
            _ClaimClause(
                tokens=toks,
                required=tuple(required),
                entities=tuple(entities),
                months=tuple(dict.fromkeys(t.norm for t in toks if t.kind == "month")),
                numbers=tuple(t for t in toks if t.kind == "number"),
                negated=bool(_negation_scopes(body)),
            )
        )
    return clauses, codes
