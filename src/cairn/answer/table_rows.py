"""Reading one table row as a sentence (issue 12): the glue words a row reading may add,
the measure verbs its header carries, and the binding of the claim's numbers to the
row's cells and of the row to what its first cell names. Used by
:mod:`cairn.answer.account` for a table unit."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cairn.answer.cjk_table import cjk_cell_read, cjk_named_columns, cjk_negation_elsewhere
from cairn.answer.table_agents import agent_words
from cairn.answer.table_capacity import capacity_words
from cairn.answer.table_columns import unread_column
from cairn.answer.table_cost import cost_reads
from cairn.answer.table_days import weekday_singulars
from cairn.answer.table_headers import header_derived
from cairn.answer.table_none import unpaired_none
from cairn.answer.table_polarity import negative_cell_read
from cairn.answer.table_reading import read_row
from cairn.answer.tokens import AccountToken, _same, account_tokens

__all__ = ["_CODE_GLUE", "_TABLE_GLUE", "_measure_verbs", "_table_binding", "_table_glue", "table_claim"]


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
        "in",
        "on",
        "via",
        "there",  # "There are 14 CO2 extinguishers" reads a count cell
        "and",  # "costs €1.50 and includes 30 minutes": two cells of the one row
    ]
)

#: The CJK copula and particles a claim adds when it reads a table row as a sentence:
#: "本体質量は4.8 kgです" for "| 本体質量 | 4.8 kg |", "玄米の炊飯時間" for the 炊飯時間
#: cell of the 玄米 row; "…是…" in Chinese. Only in a table reading, where the row binds
#: the values. Session 16b: the Chinese locative 在 ("在临时充电点每次最长充电2小时" for the
#: 临时充电点 row), as "at"/"in" are glue in English.
_CJK_TABLE_GLUE = frozenset("はのがですだ是的为在")


#: "This product" opening a CJK claim that reads a table row of the document's product.
_CJK_THIS_PRODUCT_RE = re.compile(r"^\s*(?:本产品|本產品|该产品|本机|本品|本製品|この製品|본 제품)(?:的|の|は|은)?")

#: Session 8: the Korean particles and copula a claim adds when it reads a table row as a
#: sentence ("공사·이사 차량의 무료 시간은 8시간이다" for "| 공사·이사 차량 | 8시간 |"), as
#: は/の/です are in Japanese: a word's final topic, subject or genitive particle (by its
#: allomorph: 은/이 after a final consonant, 는/가 after a vowel) and the present copula
#: 이다/입니다/이며 after a value. Tense and negation stay (이었다, 아니다 are kept).
_KO_ROW_PARTICLE_RE = re.compile(r"(?<=[가-힣])(은|는|이|가|의)(?=\s)")
_KO_ROW_COPULA_RE = re.compile(r"(?<=[\d%A-Za-z가-힣)])\s?(?:이다|입니다|이며|이고)(?=[\s.,。]|$)")
#: "…에 있다/있으며" (is at) reads the location (위치) column, as "at"/"in" is glue in English; the
#: Japanese range end "まで" after "から" ("6時から23時まで" for the cell "6時から23時").
_KO_ROW_AT_RE = re.compile(r"(?<=[가-힣\d])에 있(?:으며|고|다|습니다)(?=[\s.,]|$)")
_JA_ROW_UNTIL_RE = re.compile(r"(から[^、。から]{1,12}?)まで")


def _ko_row_particle(m: re.Match[str]) -> str:
    syl = m.string[m.start() - 1]
    batchim = (ord(syl) - 0xAC00) % 28 != 0
    p = m.group(1)
    if p == "의" or (p in ("은", "이") and batchim) or (p in ("는", "가") and not batchim):
        return ""
    return p


def table_claim(claim_text: str, reading: str = "") -> str:
    """The claim as a table row reads it: without a CJK "this product" subject, and
    without the Korean particles, copula and "에 있다" or the Japanese range end "まで"
    of a row reading; given the row's ``reading``, with a plural weekday of an undated
    weekday cell in the singular (:mod:`cairn.answer.table_days`)."""
    text = _CJK_THIS_PRODUCT_RE.sub("", weekday_singulars(claim_text, reading), count=1)
    if re.search("[가-힣]", text):
        text = _KO_ROW_AT_RE.sub(" 위치", text)  # "is at" names the location column
        text = _KO_ROW_COPULA_RE.sub("", _KO_ROW_PARTICLE_RE.sub(_ko_row_particle, text))
    elif "まで" in text:
        text = _JA_ROW_UNTIL_RE.sub(r"\1", text)
    return text


def _table_glue(t: AccountToken) -> bool:
    return (t.kind == "w" and t.key in _TABLE_GLUE) or (t.kind == "c" and t.key in _CJK_TABLE_GLUE)


#: Verbs that only state a measured value, by the dimension of the value they take:
#: in a table reading, "weighs 1.10 kg" is the Weight cell, "costs €980" the Price cell,
#: "runs at 1 Gbit/s" a link speed, "lasts 9 h" a duration. Only before a quantity of
#: that dimension (a preposition between allowed), never before a plain number.
_MEASURE_VERBS: dict[str, tuple[str, ...]] = {
    "weigh": ("q:mass:",),
    "cost": ("q:cur",),
    # A duration in months or years is a duration too (session 10: "runs for 1 to 1.5
    # years" reads the "12 to 18 months" cell as "lasts" does).
    "run": ("q:time:", "q:months:", "q:bitrate:"),
    "ran": ("q:time:", "q:months:", "q:bitrate:"),
    "last": ("q:time:", "q:months:"),
    "tak": ("q:time:", "q:months:"),
    "took": ("q:time:", "q:months:"),
}


#: Session 16: present-tense verbs of having that read a row as "has" does (already a
#: glue word): "The Flex plan includes 120 minutes of credits", "... comes with a 25-year
#: warranty", "... offers 15 GB". Not "allows"/"requires" (a permission or a minimum),
#: not a past form ("included": a completed event), not "gets"/"takes"/"pays" (their
#: direction depends on the column).
_HAVE_VERBS = frozenset(
    ["include", "includes", "contain", "contains", "offer", "offers", "provide", "provides",
     "carry", "carries", "give", "gives"]
)  # fmt: skip


def _have_verbs(claim: list[AccountToken]) -> set[int]:
    """Positions of the claim's verbs of having (``_HAVE_VERBS``; "come(s) with") before
    a value."""
    return {
        i
        for i, t in enumerate(claim[:-1])
        if t.kind == "w"
        and (
            t.key in _HAVE_VERBS
            or (t.key in ("come", "comes") and claim[i + 1].kind == "w" and claim[i + 1].key == "with")
        )
    }


def _given(claim: list[AccountToken]) -> set[int]:
    """Session 18b: positions of a passive "is/are/was/were given" (and an "as" right
    before a number: "are given as 3 capsules"): a row of what is given (a vaccine, a dose,
    a medicine) read as a sentence. The passive says only that the row's thing is given
    (or its subject receives it); active "gets"/"gives X to" keep their direction."""
    out: set[int] = set()
    for i in range(1, len(claim)):
        t = claim[i]
        if t.kind == "w" and t.key == "given" and claim[i - 1].key in ("be:present", "be:past"):
            out.add(i)
            if i + 2 < len(claim) and claim[i + 1].key == "as" and claim[i + 2].kind == "n":
                out.add(i + 1)
    return out


def _measure_verbs(claim: list[AccountToken], reading: str = "", heading: str = "") -> set[int]:
    """Positions of the claim's measure verbs and their prepositions ("runs at",
    "ran for") that a table reading carries in its header (see ``_MEASURE_VERBS``), and
    of the "from"/"to" a claim puts before a value of the row (see ``_route_words``)."""
    out: set[int] = _route_words(claim, reading) | header_derived(claim, reading, heading) if reading else set()
    out |= _have_verbs(claim) | _given(claim) | _rate_alternatives(claim)
    if reading:  # session 19b: "allows pallets of up to 1,200 kg" for a maximum cell
        out |= capacity_words(claim, reading) | agent_words(claim, reading)  # "supplied by X"
    for i, t in enumerate(claim):
        dims = _MEASURE_VERBS.get(t.stem) if t.kind == "w" else None
        if dims is None:
            continue
        if t.stem in ("run", "ran") and i + 2 < len(claim) and _runs_span(claim[i + 1], claim[i + 2]):
            out.add(i)  # session 18b: "runs from 16:00 ...", "runs every 20 minutes"
            continue
        j = i + 1
        if j < len(claim) and claim[j].kind == "w" and claim[j].key in ("at", "for"):
            j += 1
        if j < len(claim) and claim[j].kind == "n" and claim[j].key.startswith(dims):
            if t.stem == "cost" and reading and not cost_reads(claim[j].key, reading):
                continue  # lead: a deposit is not what the row's thing costs
            out.update(range(i, j))
    return out


def _runs_span(prep: AccountToken, value: AccountToken) -> bool:
    """"runs from <clock time>" (a span of hours: "| Peak | 16:00 to 19:00 |") or "runs
    every <duration>" (a service interval): "run" says only that the row's thing holds
    over that span or at that interval."""
    return (prep.key == "from" and value.key.startswith("clock:")) or (
        prep.key == "every" and value.key.startswith("q:time:")
    )


def _rate_alternatives(claim: list[AccountToken]) -> set[int]:
    """Session 18b: positions of an "or" between two amounts per period of one currency
    ("costs £25 a day or £110 a week"): two cells of the row, a price by the day or by the
    week. Each amount is still bound to its own cell by ``_table_binding``; an "or"
    between anything else stays unaccounted."""
    out: set[int] = set()
    for i in range(2, len(claim) - 1):
        if claim[i].kind != "w" or claim[i].key != "or" or not claim[i - 1].key.startswith("per:"):
            continue
        a, b = claim[i - 2], claim[i + 1]
        if (
            a.kind == b.kind == "n"
            and a.key.startswith("q:cur")
            and "/" in a.key.split(":", 2)[1]
            and a.key.rsplit(":", 1)[0] == b.key.rsplit(":", 1)[0]
            and a.key != b.key
        ):
            out.add(i)
    return out


#: Column headers that say which way a lone "from"/"to" value goes.
_DIRECTION_HEADS = {
    "from": frozenset(["origin", "from", "source", "departure", "sender"]),
    "to": frozenset(["destination", "to", "arrival", "recipient"]),
}


def _route_words(claim: list[AccountToken], reading: str) -> set[int]:
    """Positions of "from"/"to" that only say which way a value of the row goes: "from
    Shanghai to Gdansk" for a route cell "Shanghai – Gdansk" (both values in one cell, in
    that order), "from Vietnam" for an Origin cell, "to Oslo" for a Destination cell.
    Anything else keeps the words unaccounted: a reversed route, "to Vietnam" for an
    origin, a direction the row does not state."""
    row = read_row(reading)
    cells = [account_tokens(cell) for cell in row.values]
    where: dict[int, tuple[int, int]] = {}  # claim position -> (cell, position in it)
    for i in range(len(claim) - 1):
        if claim[i].kind == "w" and claim[i].key in ("from", "to"):
            found = next(
                ((c, k) for c, toks in enumerate(cells) for k, e in enumerate(toks) if _same(claim[i + 1], e)),
                None,
            )
            if found is None:
                return set()
            where[i] = found
    out: set[int] = set()
    for i, (c, k) in where.items():
        key = claim[i].key
        partner = [where[j] for j in where if claim[j].key != key and where[j][0] == c]
        if partner:
            ends = [k, *(pk for _pc, pk in partner)]
            if (key == "from" and k == min(ends)) or (key == "to" and k == max(ends)):
                out.add(i)
            continue
        head = {t.key for t in account_tokens(row.heads[c]) if t.kind == "w"}
        if head & _DIRECTION_HEADS[key]:
            out.add(i)
    return out if len(out) == len(where) else set()


def _table_binding(claim: list[AccountToken], reading: str) -> str | None:
    """In a table row, a number of the claim must be read from a cell that says nothing
    else, or next to a word the claim puts next to it: "Lyra 14 G3" is not accounted by
    "Lyra 16 G3" and "14 cores" in the same row. A negative cell the claim reads keeps
    its polarity (see :mod:`cairn.answer.table_polarity`)."""
    polarity = negative_cell_read(claim, reading)
    if polarity:
        return polarity
    row = read_row(reading)
    cells = [account_tokens(cell) for cell in row.values]
    heads = row.heads
    negation = cjk_negation_elsewhere(claim, cells)  # session 11: 不为 is not 不提供's 不
    if negation:
        return negation
    unpaired = unpaired_none(claim, reading)  # session 18b: "no" before its none column
    if unpaired:
        return unpaired
    unread = unread_column(heads, cells, claim)  # session 13: "the area ... is £30" (the rent)
    if unread:
        return unread
    words = [t for t in claim if t.kind != "p" and not _table_glue(t)]
    # The row is about what its first cell names, all of it: "Archive" does not read the
    # "Deep Archive" row. A parenthesised aside in that cell may be left out, or stand
    # for the row on its own ("早炊き" reads the "白米（早炊き）" row).
    label = row.label
    names = [_PAREN_RE.sub(" ", label), *_PAREN_RE.findall(label)]
    # A required aside ("[international]", see ``evidence._required_aside``) tells this
    # row from another of the same name: it may name the row alone, never be left out.
    required = _REQUIRED_RE.findall(label)
    if required:
        names = [_REQUIRED_RE.sub(r" \1 ", names[0]), *names[1:], *required]
    if not any(_names_row(name, claim) for name in names if name.strip()):
        return f"the row is about {label.strip()!r}"
    # Session 8: a CJK claim that names columns reads its values from those columns only
    # ("완속 충전기의 출력은 지하 1층이다" names 출력: "지하 1층" is the 위치 cell).
    # Session 9: by clause ("りす組は1歳児のクラスで、定員は12名です": 1歳児 is read in a
    # clause that names no column, 12名 in the one that names 定員).
    named_in = cjk_named_columns(heads, claim) if any(t.kind == "c" for t in claim) else {}
    for i, t in enumerate(words):
        if t.kind != "n":
            continue
        named = named_in.get(id(t), [])
        near = [words[j] for j in (i - 1, i + 1) if 0 <= j < len(words)]
        ok = False
        for at, cell in enumerate(cells):
            if not any(_same(t, e) for e in cell) or (named and at not in named and at != 0):
                continue
            if _other_column(heads, cells, at, t, claim):
                continue  # "512 GB of RAM" read from the Storage cell
            rest = [e for e in cell if e.kind != "p" and not _same(t, e)]
            if all(any(_same(c, e) for c in words) for e in rest) or (
                cjk_cell_read(cell, t, claim)
                if any(e.kind == "c" for e in cell)
                else any(_same(c, e) for c in near for e in rest)
            ):
                ok = True
                break
        if not ok:
            return f"{t.text!r} is in a cell about something else"
    return None


def _other_column(
    heads: list[str],
    cells: list[tuple[AccountToken, ...]],
    at: int,
    t: AccountToken,
    claim: Sequence[AccountToken],
) -> bool:
    """The quantity or plain number ``t`` is read from the cell at ``at``, but the claim
    names another column (not the first) holding a quantity of the same dimension (or a
    plain number), and not this one: "512 GB of RAM" read from the Storage cell of a row
    with a RAM cell, "200 seated guests" from the standing cell."""
    # Session 19b: a plain count too ("200 seated guests" from the standing cell).
    if at == 0 or not t.key.startswith(("q:", "n:")):
        return False
    dim = t.key.rsplit(":", 1)[0]
    named_at = _names_row(heads[at], claim)
    for k in range(1, len(heads)):
        if k == at or not heads[k].strip():
            continue
        if not any(e.kind == "n" and e.key.rsplit(":", 1)[0] == dim for e in cells[k]):
            continue
        if dim == "n" and any(_same(c, e) for e in cells[k] if e.kind == "n" for c in claim):
            continue  # column k's own count is given too: "30 routes ..., graded 4 to 7a"
        if _names_row(heads[k], claim) and not named_at:
            return True
        # Session 18b: the words that tell column k from this one ("weekday" of "weekday
        # frequency" against "Sunday frequency"), all in the claim and none of this
        # column's own: "runs every 30 minutes on weekdays" is not the Sunday cell.
        own, other = _distinct(heads[k], heads[at]), _distinct(heads[at], heads[k])
        if own and other and _all_said(own, claim) and not any(_said(e, claim) for e in other):
            return True
    return False


def _said(e: AccountToken, claim: Sequence[AccountToken]) -> bool:
    """The header word ``e`` is in the claim, or its plural ("Sundays" for "Sunday")."""
    low = e.text.lower()
    return any(_same(c, e) or c.text.lower() in (low, low + "s") for c in claim)


def _distinct(head: str, other: str) -> list[AccountToken]:
    """The words of ``head`` (fillers aside) that ``other`` does not have."""
    theirs = account_tokens(other)
    return [
        e
        for e in account_tokens(head)
        if e.kind in ("w", "c", "n") and e.key not in _LABEL_FILLER and not any(_same(e, x) for x in theirs)
    ]


def _all_said(words: Sequence[AccountToken], claim: Sequence[AccountToken]) -> bool:
    return all(_said(e, claim) for e in words)


_REQUIRED_RE = re.compile(r"\[([^\[\]]*)\]")
_PAREN_RE = re.compile(r"[(（]([^()（）]*)[)）]")


def _names_row(name: str, claim: Sequence[AccountToken]) -> bool:
    """Every word of a row's name is in the claim."""
    return all(
        any(_same(c, e) for c in claim)
        for e in account_tokens(name)
        if e.kind in ("w", "c") and e.key not in _LABEL_FILLER
    )


#: Words of a row label a claim may word differently without changing what the row is.
_LABEL_FILLER = frozenset(
    {"the", "a", "an", "of", "and", "for", "in", "on", "to", "with", "per", "&"}
)
