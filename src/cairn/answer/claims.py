"""Claims: cutting a generated draft into sentence-sized claims, with their citations.

:func:`split_claims` cuts a draft into claims and tells substantive statements from
hedges and meta text; :func:`strip_lead_in` drops discourse lead-ins before a claim is
verified. The words verification treats specially (negations, reporting words) live here
too. The generic text analysis both rely on (tokens, stems, numbers, sentences) is
:mod:`cairn.text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cairn.text.sentences import mask_code, sentence_ranges
from cairn.text.tokens import tokenize

__all__ = ["GENERIC", "NEGATIONS", "Claim", "split_claims", "strip_lead_in"]


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

_CITE_RE = re.compile(
    r"\[\s*((?:[\w:#.\-]*\d[\w:#.\-]*)(?:\s*[,;]\s*(?:[\w:#.\-]*\d[\w:#.\-]*))*)\s*\]"
)

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
    masked = mask_code(text)
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
        lead = re.match(r"^(?:\s*\[[^\]]*\d[^\]]*\])+\s*[.,;]?", mask_code(sentence))
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
