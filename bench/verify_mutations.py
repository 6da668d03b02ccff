"""Mutation harness for the claim verifier: near-verbatim recall and safety by construction (issue 12).

Hand-written verifier sets are small, and fixes derived from their misses fit the cases
rather than the class (bench/RESULTS.md, "Claim verifier, session 6c"). This harness
generates the classes mechanically. It takes real sentences — the notes of every
``bench/verify_set`` split and sentences of the shared evaluation corpora (MEDLINE and
Cranfield abstracts, LoCoMo conversation turns, tldr pages; ``../shared``, skipped when
absent) — and rewrites each one in two ways:

* **meaning-preserving** near-verbatim variants (the verifier should say ``supported``):
  coordinated items in another order, an exact unit conversion, a number word for digits
  and back, another date format, a plural generic subject made singular ("Sliced loaves
  may be frozen" → "A sliced loaf may be frozen"), "every 60 minutes" → "every hour",
  a parenthesis dropped, trailing punctuation, quotes or markdown emphasis changed;
  (session 8) a universal subject said another way ("Every line" → "All lines" → "Lines",
  "Each X uses" → "Xs each use"), an amount in a subunit ("£0.35" → "35p", "€0.10" → "10
  cents"), "every 2 weeks" → "every fortnight", gapped objects reordered ("recommends A
  for x and B for y"), two semicolon clauses swapped with their subject pronoun, two
  conjuncts swapped with their pronoun, a restriction said as a final "if they are ...", a
  fronted phrase of time or place moved to the end;
* **meaning-changing** variants of the same sentences (the verifier must never say
  ``supported``): another number, a negation added or dropped, another modal, two names
  or the ends of "from X to Y" swapped, another unit without conversion, another
  quantifier, an antonym; (session 8) a universal made "Some"/"One", another currency's
  subunit or scale ("35 cents", "0.35p"), "every week" → "every fortnight", the gapped
  pairs crossed, a negation moved across a semicolon, the conjuncts' verbs crossed, a
  restriction said as "unless"/"if they are not", a fronted "after"/"before" moved to the
  end and swapped; and, for the body rows of the notes' tables, a row whose cell
  says "no" ("not included", "No", "none", "–") read as having what its column names
  ("Tidewave has EU roaming") or with the cell's "not" dropped ("EU roaming is included
  with Tidewave").

Each variant is verified against its source: the whole note for a note sentence, the
abstract / conversation session / page for a corpus sentence (one evidence span, as the
``note`` setting of ``bench.eval_verify_set``). A variant that is a substring of its
source is dropped (it is verbatim), and so is a changing variant whose text the source
already contains. Printed: per mutation, n and the share marked supported; the headline
figures are the preserving side's support rate (goal ≥ 95%) and the changing side's
false supports (goal 0). This is tuning material (the sentences and the rules are both
known to whoever fixes the verifier); held-out figures come from unseen verify_set splits.

    .venv/bin/python -m bench.verify_mutations                 # all sources
    .venv/bin/python -m bench.verify_mutations --sources notes --errors
    .venv/bin/python -m bench.verify_mutations --json
    .venv/bin/python -m bench.verify_mutations --per-source 400 --seed 7

Exit status 0 when no meaning-changing variant is marked supported, else 1.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tarfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench.verify_mutations_s10 import CHANGING_S10, PRESERVING_S10  # noqa: E402
from bench.verify_mutations_s11 import CHANGING_S11, PRESERVING_S11  # noqa: E402
from bench.verify_mutations_s12 import CHANGING_S12, PRESERVING_S12  # noqa: E402
from bench.verify_mutations_s13 import CHANGING_S13, PRESERVING_S13  # noqa: E402
from cairn.answer import Claim, EvidenceSpan, verify_claims  # noqa: E402

NOTES = ROOT / "bench" / "verify_set" / "notes"
SHARED = ROOT.parent / "shared"
SOURCES = ("notes", "medline", "cranfield", "locomo", "tldr")  # "notes" includes its CJK sentences
PRESERVE_GOAL = 0.95


@dataclass(frozen=True)
class Sentence:
    source: str
    doc: str
    text: str
    evidence: str


@dataclass(frozen=True)
class Variant:
    mutation: str
    preserving: bool
    sentence: Sentence
    claim: str


# --- sentences ---------------------------------------------------------------------------------

_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _prose(line: str) -> Iterator[str]:
    line = _LIST_MARK.sub("", line.strip())
    if not line or line.startswith(("#", "|", ">", "```")) or _CJK.search(line):
        return
    for sent in _SENT_SPLIT.split(line):
        sent = sent.strip()
        if 5 <= len(sent.split()) <= 40:
            yield sent


def _cjk_prose(line: str) -> Iterator[str]:
    line = _LIST_MARK.sub("", line.strip())
    if not line or line.startswith(("#", "|", ">", "```")) or not _CJK.search(line):
        return
    for sent in re.split(r"(?<=[。！？])", line):
        if len(sent.strip()) >= 8:
            yield sent.strip()


def _table_rows(text: str) -> Iterator[str]:
    """Each body row of a Markdown table, as "header row\nrow" (the generators read both)."""
    lines = text.splitlines()
    for i in range(1, len(lines) - 1):
        if re.fullmatch(r"\s*\|[\s|:-]+\|\s*", lines[i]) and lines[i - 1].lstrip().startswith("|"):
            j = i + 1
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                yield f"{lines[i - 1]}\n{lines[j]}"
                j += 1


def note_sentences() -> list[Sentence]:
    out = []
    for path in sorted(NOTES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            out += [Sentence("notes", path.name, s, text) for s in _prose(line)]
            out += [Sentence("notes-cjk", path.name, s, text) for s in _cjk_prose(line)]
        out += [Sentence("notes-table", path.name, r, text) for r in _table_rows(text) if not _CJK.search(r)]
    return out


def _smart(path: Path) -> Iterator[tuple[str, str]]:
    """(doc id, abstract) from a SMART-format file (.I id, .W text)."""
    doc, field, body = "", "", []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(".I "):
            if doc and body:
                yield doc, " ".join(body)
            doc, field, body = line[3:].strip(), "", []
        elif line.startswith("."):
            field = line[1:2]
        elif field == "W":
            body.append(line.strip())
    if doc and body:
        yield doc, " ".join(body)


def _abstract_sentences(name: str, path: Path) -> list[Sentence]:
    out = []
    for doc, text in _smart(path):
        text = re.sub(r"\s+\.\s*", ". ", text).strip()
        for sent in re.split(r"(?<=\.)\s+", text):
            if 5 <= len(sent.split()) <= 40:
                out.append(Sentence(name, doc, sent, text))
    return out


def medline_sentences() -> list[Sentence]:
    path = SHARED / "eval" / "medline" / "MED.ALL"
    return _abstract_sentences("medline", path) if path.exists() else []


def cranfield_sentences() -> list[Sentence]:
    path = SHARED / "eval" / "cranfield" / "cran.all.1400"
    return _abstract_sentences("cranfield", path) if path.exists() else []


def locomo_sentences() -> list[Sentence]:
    path = SHARED / "eval" / "locomo" / "locomo-dev.json"
    if not path.exists():
        return []
    out = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conv = sample["conversation"]
        for key, turns in conv.items():
            if not key.startswith("session_") or not isinstance(turns, list):
                continue
            evidence = "\n".join(t["text"] for t in turns)
            for turn in turns:
                for sent in _SENT_SPLIT.split(turn["text"]):
                    if 5 <= len(sent.split()) <= 40 and sent[-1:] in ".!":
                        out.append(Sentence("locomo", turn["dia_id"], sent.strip(), evidence))
    return out


def tldr_sentences(limit_pages: int = 1500) -> list[Sentence]:
    path = SHARED / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
    if not path.exists():
        return []
    out = []
    with tarfile.open(path) as tar:
        for n, member in enumerate(m for m in tar if m.name.endswith(".md")):
            if n >= limit_pages:
                break
            handle = tar.extractfile(member)
            if handle is None:
                continue
            text = handle.read().decode("utf-8", errors="replace")
            for line in text.splitlines():
                line = line.strip().lstrip(">-").strip()
                if line.startswith(("#", "`", "More information")):
                    continue
                if 5 <= len(line.split()) <= 40 and line[-1:] in ".:":
                    out.append(Sentence("tldr", member.name, line, text))
    return out


LOADERS: dict[str, Callable[[], list[Sentence]]] = {
    "notes": note_sentences,
    "medline": medline_sentences,
    "cranfield": cranfield_sentences,
    "locomo": locomo_sentences,
    "tldr": tldr_sentences,
}

# --- meaning-preserving mutations --------------------------------------------------------------

_ITEM = r"(?:[A-Z][\w-]*(?: [A-Z][\w-]*)*|[a-z][a-z-]+)"
_COORD = re.compile(
    rf"(?<![\w-])(?P<items>{_ITEM}(?:, {_ITEM})*),? (?P<conj>and|or) (?P<last>{_ITEM})(?![\w-])"
)
#: Words that are no coordinated noun items (verbs, function words) or make order matter.
_NOT_ITEM = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "will", "would", "can", "could", "may", "might", "must", "should", "shall", "not", "no", "to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "than", "then", "that", "this", "these", "those", "it", "its", "they", "them", "their", "he", "she", "his", "her", "we", "our", "you", "your", "i", "me", "my", "between", "both", "either", "neither", "each", "every", "also", "only", "just", "more", "less", "most", "least", "first", "second", "last", "next", "before", "after", "if", "when", "while", "because", "so", "but", "yet", "as", "up", "down", "out", "over", "under", "about"]
)
_ORDERED = re.compile(r"\b(respectively|between|from|followed|then|before|after|first|ratio|vs|versus|minus|divided)\b", re.I)


_OPENERS = frozenset(["the", "a", "an", "of", "in", "on", "for", "by", "to", "from", "at", "as", "include", "includes", "including", "both", "like", "are", "is", "were", "was"])
_FOLLOWERS = frozenset(["is", "are", "was", "were", "must", "may", "can", "should", "will", "have", "has", "had", "in", "on", "at", "for", "to", "from", "by", "of", "that", "which", "who"])


def m_reorder(s: str) -> str | None:
    if _ORDERED.search(s):
        return None
    for m in _COORD.finditer(s):
        items = [i.strip() for i in m.group("items").split(",")] + [m.group("last")]
        words = [w.lower() for item in items for w in item.split()]
        if any(w in _NOT_ITEM for w in words) or len(set(items)) < len(items):
            continue
        if any(item[0].isupper() for item in items) != all(item[0].isupper() for item in items):
            continue
        if m.start() == 0 and items[0][0].isupper() and not all(i[0].isupper() for i in items[1:]):
            continue
        before = s[: m.start()].rstrip()
        prev = re.findall(r"[\w']+$|[,:;(]$", before)
        after = re.match(r"\s*([\w']+|[,.;:)!?]|$)", s[m.end():])
        nxt = after.group(1).lower() if after else ""
        names = all(item[0].isupper() for item in items)
        if before and not names and not (prev and (prev[0].lower() in _OPENERS or prev[0] in ",:;(")):
            continue  # "late nights and edits": an adjective may scope over both items
        if nxt and not names and nxt not in _FOLLOWERS and nxt[0].isalnum():
            continue  # "thymus cells and lymphnode cells", "hand over": not whole items
        swapped = items[1:] + items[:1] if len(items) > 2 else items[::-1]
        joined = (", ".join(swapped[:-1]) + ("," if len(items) > 2 and ", " + m.group("conj") in m.group(0) else "")
                  + f" {m.group('conj')} {swapped[-1]}")
        if m.start() == 0 and not all(i[0].isupper() for i in items):
            joined = joined[0].upper() + joined[1:]
        return s[: m.start()] + joined + s[m.end():]
    return None


_UNITS: dict[str, tuple[str, Fraction]] = {
    # unit -> (dimension, size in a base unit)
    "seconds": ("t", Fraction(1)), "second": ("t", Fraction(1)),
    "minutes": ("t", Fraction(60)), "minute": ("t", Fraction(60)),
    "hours": ("t", Fraction(3600)), "hour": ("t", Fraction(3600)),
    "days": ("t", Fraction(86400)), "day": ("t", Fraction(86400)),
    "weeks": ("t", Fraction(604800)), "week": ("t", Fraction(604800)),
    "ms": ("t", Fraction(1, 1000)),
    "mm": ("l", Fraction(1, 1000)), "cm": ("l", Fraction(1, 100)), "m": ("l", Fraction(1)),
    "km": ("l", Fraction(1000)),
    "mg": ("w", Fraction(1, 1000)), "g": ("w", Fraction(1)), "kg": ("w", Fraction(1000)),
    "ml": ("v", Fraction(1, 1000)), "l": ("v", Fraction(1)),
    "KB": ("b", Fraction(1000)), "MB": ("b", Fraction(10**6)), "GB": ("b", Fraction(10**9)),
    "TB": ("b", Fraction(10**12)),
}
_TARGETS: dict[str, tuple[str, ...]] = {
    "t": ("ms", "seconds", "minutes", "hours", "days", "weeks"),
    "l": ("mm", "cm", "m", "km"),
    "w": ("mg", "g", "kg"),
    "v": ("ml", "l"),
    "b": ("KB", "MB", "GB", "TB"),
}
_QTY = re.compile(
    r"(?<![\w.,:/-])(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?P<sp> ?)(?P<u>"
    + "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
    + r")(?![\w/²³])"
)


def _fmt(value: Fraction) -> str | None:
    if value.denominator == 1:
        return f"{value.numerator:,}" if value.numerator >= 10000 else str(value.numerator)
    for places in (1, 2):
        scaled = value * 10**places
        if scaled.denominator == 1:
            return f"{float(value):.{places}f}"
    return None


def _plural(unit: str, value: Fraction) -> str:
    if unit in ("second", "minute", "hour", "day", "week", "seconds", "minutes", "hours", "days", "weeks"):
        base = unit.rstrip("s")
        return base if value == 1 else base + "s"
    return unit


def _converted(m: re.Match[str], prefer_up: bool) -> str | None:
    unit = m.group("u")
    dim, size = _UNITS[unit]
    value = Fraction(m.group("n").replace(",", "")) * size
    order = _TARGETS[dim] if not prefer_up else _TARGETS[dim][::-1]
    for target in order:
        if _UNITS[target][1] == size or target.rstrip("s") == unit.rstrip("s"):
            continue
        new = value / _UNITS[target][1]
        text = _fmt(new)
        if text is None or new < Fraction(1, 10) or new > 100000:
            continue
        sp = " " if dim == "t" else m.group("sp")
        return f"{text}{sp}{_plural(target, new)}"
    return None


_COMPOUND = re.compile(r"\b(\d+) (hours?|minutes?) (?:and )?(\d+) (minutes?|seconds?)\b")


#: The second end of a range ("3 to 12 weeks"): its unit is said for both ends, so converting
#: it alone changes the first end (session 9; see c_range_unit_one_end).
_RANGE_SECOND = re.compile(r"(?:\d|\b[a-z]+)\s*(?:to|-|–|and)\s*$")


def _range_second(s: str, start: int) -> bool:
    return _RANGE_SECOND.search(s[:start]) is not None and re.search(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b", s[max(0, start - 25):start]) is not None


def m_unit(s: str) -> str | None:
    c = _COMPOUND.search(s)
    if c:  # "1 hour 15 minutes" -> "75 minutes"
        big, small = _UNITS[c.group(2)][1], _UNITS[c.group(4)][1]
        total = (int(c.group(1)) * big + int(c.group(3)) * small) / small
        return s[: c.start()] + f"{total} {c.group(4).rstrip('s')}s" + s[c.end():]
    for m in _QTY.finditer(s):
        follow = s[m.end(): m.end() + 12]
        if re.match(r"\s*(?:and )?\d", follow) or re.match(r"[-/]\w", follow) or _range_second(s, m.start()):
            continue  # part of a compound ("3 minutes 40 seconds") or a unit of its own ("GB-month")
        new = _converted(m, prefer_up=True) or _converted(m, prefer_up=False)
        if new:
            return s[: m.start()] + new + s[m.end():]
    return None


_EVERY = re.compile(r"\b(every|per|each) (1|one) (second|minute|hour|day|week|month|year)\b|\bevery 60 minutes\b|\bevery 24 hours\b|\bevery 7 days\b")


def m_every(s: str) -> str | None:
    m = _EVERY.search(s)
    if not m:
        return None
    word = m.group(0)
    if word.endswith("60 minutes"):
        new = "every hour"
    elif word.endswith("24 hours"):
        new = "every day"
    elif word.endswith("7 days"):
        new = "every week"
    else:
        new = f"{m.group(1)} {m.group(3)}"
    return s[: m.start()] + new + s[m.end():]


_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
_NUMBER = re.compile(r"(?<![\w.,:/$€£#-])(\d{1,2})(?![\w.,:/%°-]|\.\d)")
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_WORDS[1:]) + r")\b", re.I)
_VERSIONISH = re.compile(r"\b(version|v|step|room|visit|line|section|clause|article|table|figure|level|grade|stage|phase|class|type|page|no|number|building|floor|gate|platform|zone|team|schedule|plan|category|item|route)\s*$", re.I)


def m_numword(s: str) -> str | None:
    if _LABEL.match(s):
        return None
    m = _NUMBER_WORD.search(s)
    if m and (s[m.start() - 1: m.start()] == "-" or s[m.end(): m.end() + 1] == "-"
              or re.match(r"\s+(?:of|third|half|quarter)\b", s[m.end():])):
        m = None
    if m and not re.match(r"\s*(?:-|hundred|thousand|million|percent|o'clock|" + "|".join(_MONTHS) + ")", s[m.end():]):
        digit = str(_WORDS.index(m.group(1).lower()))
        return s[: m.start()] + digit + s[m.end():]
    for m in _NUMBER.finditer(s):
        n = int(m.group(1))
        if (not 1 <= n <= 20 or _VERSIONISH.search(s[: m.start()])
                or re.match(r"\s*(?:am|pm|%|st|nd|rd|th|" + "|".join(_MONTHS) + r")\b", s[m.end():])
                or re.search(r"\b(?:" + "|".join(_MONTHS) + r")\s*$", s[: m.start()])):
            continue
        word = _WORDS[n]
        if m.start() == 0:
            word = word.capitalize()
        return s[: m.start()] + word + s[m.end():]
    return None


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
_ISO = re.compile(r"\b(20\d\d|19\d\d)-(\d\d)-(\d\d)\b")
_DMY = re.compile(r"\b(\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4})\b")
_MDY = re.compile(r"\b(" + "|".join(_MONTHS) + r") (\d{1,2}), (\d{4})\b")


def m_date(s: str) -> str | None:
    m = _ISO.search(s)
    if m and 1 <= int(m.group(2)) <= 12:
        new = f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1]} {m.group(1)}"
        return s[: m.start()] + new + s[m.end():]
    m = _DMY.search(s)
    if m:
        new = f"{m.group(2)} {int(m.group(1))}, {m.group(3)}"
        return s[: m.start()] + new + s[m.end():]
    m = _MDY.search(s)
    if m:
        new = f"{m.group(3)}-{_MONTHS.index(m.group(1)) + 1:02d}-{int(m.group(2)):02d}"
        return s[: m.start()] + new + s[m.end():]
    return None


_IRREGULAR = {"loaves": "loaf", "children": "child", "men": "man", "women": "woman", "knives": "knife",
              "shelves": "shelf", "leaves": "leaf", "halves": "half", "wives": "wife", "lives": "life",
              "feet": "foot", "teeth": "tooth", "mice": "mouse", "analyses": "analysis",
              "criteria": "criterion", "indices": "index", "data": "data", "series": "series",
              "batteries": "battery", "policies": "policy", "copies": "copy", "entries": "entry",
              "categories": "category", "deliveries": "delivery", "queries": "query", "boxes": "box",
              "patches": "patch", "switches": "switch", "branches": "branch", "buses": "bus",
              "classes": "class", "addresses": "address", "processes": "process", "statuses": "status"}
_AGREE = {"are": "is", "were": "was", "have": "has", "do": "does"}
_MODALS = frozenset(["may", "must", "can", "should", "will", "would", "could", "might", "shall"])


def _singular(noun: str) -> str | None:
    low = noun.lower()
    if low in _IRREGULAR:
        sing = _IRREGULAR[low]
    elif low.endswith("ies") and len(low) > 4:
        sing = low[:-3] + "y"
    elif low.endswith("s") and not low.endswith(("ss", "us", "is", "ous")) and len(low) > 3:
        sing = low[:-1]
    else:
        return None
    return sing if sing != low else None


def m_inflect(s: str) -> str | None:
    """"Wrapped loaves keep ..." → "A wrapped loaf keeps ...": a plural generic subject made singular."""
    words = s.split(" ")
    if len(words) < 4 or words[0].lower() in _NOT_ITEM or not words[0][:1].isupper():
        return None
    for i in (0, 1):
        noun, verb = words[i].strip(","), words[i + 1]
        sing = _singular(noun)
        if sing is None or (i == 1 and (words[0].lower() in _NOT_ITEM or words[0].endswith("s"))):
            continue
        low = verb.lower()
        if not verb.islower() or "'" in noun + verb or "’" in noun + verb:
            return None
        if low in _MODALS or low == "cannot":
            new_verb = low
        elif low in _AGREE:
            new_verb = _AGREE[low]
        elif re.fullmatch(r"[a-z]{3,}", low) and not low.endswith(("s", "ed", "ing", "ly")) and low not in _NOT_ITEM:
            new_verb = low + ("es" if low.endswith(("sh", "ch", "x", "o")) else "s")
        else:
            return None
        head = [w.lower() for w in words[:i]] + [sing]
        article = "An" if head[0][0] in "aeiou" else "A"
        return " ".join([article, *head, new_verb, *words[i + 2:]])
    return None


_PAREN = re.compile(r" \([^()]{2,80}\)")


def m_paren(s: str) -> str | None:
    m = _PAREN.search(s)
    return s[: m.start()] + s[m.end():] if m else None


_LABEL = re.compile(r"\s*\(?(?:\d+|[a-z])\)\s")


def m_punct(s: str) -> str | None:
    if _LABEL.match(s):
        return None  # "(2) ..." : an enumeration label, which markdown around it hides
    body = s.rstrip(".:;!")
    if body == s:
        return f"{s}."
    return f"**{body}**" if len(body) % 2 else f"\"{body}\""


# --- meaning-changing mutations ---------------------------------------------------------------

_ANY_NUMBER = re.compile(r"(?<![\w.,:/-])(\d+(?:\.\d+)?)(?![\w.]*\d)(?!-\d)")


def c_number(s: str) -> str | None:
    for m in _ANY_NUMBER.finditer(s):
        if re.fullmatch(r"\(?", s[: m.start()]) and s[m.end(): m.end() + 1] in ").":
            continue  # an enumeration label "(2)" / "1)" at the start is no claim
        if _ISO.search(s[max(0, m.start() - 8): m.end() + 8]) or _VERSIONISH.search(s[: m.start()]):
            continue
        text = m.group(1)
        if "." in text:
            whole, frac = text.split(".")
            new = f"{whole}.{(int(frac) + 1) % 10 ** len(frac):0{len(frac)}d}"
        else:
            new = str(int(text) + (1 if int(text) < 10 else int(text) // 2 or 1))
        return s[: m.start()] + new + s[m.end():]
    return None


_AUX = re.compile(r"\b(is|are|was|were|must|may|can|should|will|does|do|did|has|have|had)\b(?! not\b)")
_NEG = re.compile(r"\b(is|are|was|were|must|may|can|should|will|does|do|did|has|have|had) not ")


def c_negate(s: str) -> str | None:
    m = _NEG.search(s)
    if m:
        if m.group(1) in ("does", "do", "did"):
            return None
        return s[: m.start()] + m.group(1) + " " + s[m.end():]
    for token in (" cannot ", " never "):
        if token in s:
            return s.replace(token, " can " if token == " cannot " else " always ", 1)
    m = _AUX.search(s)
    if m and m.group(1) not in ("does", "do", "did"):
        return s[: m.end()] + " not" + s[m.end():]
    return None


_MODAL_SWAP = {"may": "must", "must": "may", "should": "must", "can": "must", "might": "will", "could": "must"}


def c_modal(s: str) -> str | None:
    m = re.search(r"\b(may|must|should|can|might|could)\b(?! not)", s)
    if not m:
        return None
    return s[: m.start()] + _MODAL_SWAP[m.group(1)] + s[m.end():]


_NAME = re.compile(r"(?<![\w.] )(?<!^)\b([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
_FROM_TO = re.compile(r"\bfrom ([\w.:-]+(?: [\w.:-]+)?) to ([\w.:-]+(?: [\w.:-]+)?)\b")


def c_roles(s: str) -> str | None:
    m = _FROM_TO.search(s)
    if m and m.group(1) != m.group(2):
        return s[: m.start()] + f"from {m.group(2)} to {m.group(1)}" + s[m.end():]
    names = []
    for m in re.finditer(r"\b([A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})?)\b", s):
        if m.start() == 0 or m.group(1) in _MONTHS or m.group(1).lower() in _NOT_ITEM:
            continue
        names.append(m)
    distinct = [m for i, m in enumerate(names) if all(m.group(1) != n.group(1) for n in names[:i])]
    if len(distinct) < 2:
        return None
    a, b = distinct[0], distinct[1]
    between = s[a.end(): b.start()]
    if re.fullmatch(r"(?:, |,? (?:and|or) )(?:[A-Z][\w-]*(?:, |,? (?:and|or) ))*", between):
        return None  # coordinated names: swapping them keeps the meaning
    return s[: a.start()] + b.group(1) + between + a.group(1) + s[b.end():]


_UNIT_SWAP = {"seconds": "minutes", "minutes": "hours", "hours": "days", "days": "weeks", "weeks": "months",
              "months": "years", "ms": "s", "mm": "cm", "cm": "m", "km": "miles", "kg": "lb", "g": "kg",
              "mg": "g", "ml": "l", "MB": "GB", "GB": "TB", "°C": "°F", "%": " percentage points",
              "Mbit/s": "MB/s", "€": "$", "hour": "day", "day": "week", "minute": "hour"}
_UNIT_CHANGE = re.compile(r"(?<=\d)( ?)(" + "|".join(sorted((re.escape(u) for u in _UNIT_SWAP), key=len, reverse=True)) + r")(?![\w/])")


def c_unit(s: str) -> str | None:
    m = _UNIT_CHANGE.search(s)
    if not m:
        return None
    unit = m.group(2)
    sp = m.group(1) if unit not in ("%",) else ""
    return s[: m.start()] + sp + _UNIT_SWAP[unit] + s[m.end():]


_QUANT = {"up to": "at least", "at least": "at most", "at most": "at least", "more than": "less than",
          "less than": "more than", "fewer than": "more than", "over": "under", "under": "over",
          "maximum": "minimum", "minimum": "maximum", "all": "some", "every": "no", "always": "sometimes",
          "never": "sometimes", "no more than": "at least", "within": "after"}
_QUANT_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _QUANT), key=len, reverse=True)) + r")\b", re.I)


def c_quantifier(s: str) -> str | None:
    m = _QUANT_RE.search(s)
    if not m:
        return None
    word = m.group(1)
    new = _QUANT[word.lower()]
    if word[0].isupper():
        new = new.capitalize()
    return s[: m.start()] + new + s[m.end():]


_ANTONYM = {"before": "after", "after": "before", "above": "below", "below": "above", "increase": "decrease",
            "increased": "decreased", "decreased": "increased", "increases": "decreases", "decreases": "increases",
            "higher": "lower", "lower": "higher", "larger": "smaller", "smaller": "larger", "enabled": "disabled",
            "disabled": "enabled", "open": "closed", "closed": "open", "added": "removed", "removed": "added",
            "accepted": "rejected", "rejected": "accepted", "approved": "rejected", "inside": "outside",
            "outside": "inside", "maximum": "minimum", "minimum": "maximum", "positive": "negative",
            "negative": "positive", "early": "late", "late": "early", "start": "end", "first": "last",
            "last": "first", "rose": "fell", "fell": "rose", "warm": "cold", "cold": "warm", "hot": "cold",
            "high": "low", "low": "high", "more": "less", "less": "more", "on": "off", "into": "out of",
            "faster": "slower", "slower": "faster", "greater": "smaller", "better": "worse", "worse": "better"}
_ANTONYM_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _ANTONYM), key=len, reverse=True)) + r")\b")


def c_antonym(s: str) -> str | None:
    for m in _ANTONYM_RE.finditer(s):
        if m.group(1) == "on" and re.match(r"\s*(?:the|a|an)\b", s[m.end():]) is not None:
            continue  # "on the/a ..." is a preposition, not the on/off state
        return s[: m.start()] + _ANTONYM[m.group(1)] + s[m.end():]
    return None


_CELSIUS = re.compile(r"(-?\d+(?:\.\d+)?) ?°C\b")


def m_fahrenheit(s: str) -> str | None:
    m = _CELSIUS.search(s)
    if not m:
        return None
    f = Fraction(m.group(1)) * Fraction(9, 5) + 32
    text = _fmt(f) if f >= 0 else None
    return s[: m.start()] + f"{text} °F" + s[m.end():] if text else None


def m_percent(s: str) -> str | None:
    m = re.search(r"(\d)%", s)
    return s[: m.start() + 1] + " percent" + s[m.end():] if m else None


def m_article(s: str) -> str | None:
    m = re.search(r"(?<=\w )the (?=[a-z])", s)
    return s[: m.start()] + s[m.end():] if m else None


def m_oxford(s: str) -> str | None:
    m = re.search(r"(\w+, [\w ]+?)(,?) (and|or) ", s)
    if not m or len(m.group(1).split()) > 6:
        return None
    comma = "" if m.group(2) else ","
    return s[: m.start()] + m.group(1) + comma + f" {m.group(3)} " + s[m.end():]


_CONTRACT = {"do not": "don't", "does not": "doesn't", "is not": "isn't", "are not": "aren't",
             "cannot": "can't", "will not": "won't", "was not": "wasn't", "must not": "mustn't",
             "should not": "shouldn't", "has not": "hasn't", "have not": "haven't"}
_CONTRACT_RE = re.compile(r"\b(" + "|".join(_CONTRACT) + r")\b")


def m_contraction(s: str) -> str | None:
    m = _CONTRACT_RE.search(s)
    return s[: m.start()] + _CONTRACT[m.group(1)] + s[m.end():] if m else None


_SPELLING = re.compile(r"\b(\w{3,})(is|iz)(e|ed|es|ing|ation|ations)\b|\b(\w{3,})(our)\b|\b(cent|met|lit)(re|res)\b")


def m_spelling(s: str) -> str | None:
    """British and American spellings (-ise/-ize, -our/-or, -re/-er)."""
    m = next((m for m in _SPELLING.finditer(s) if m.group(0).islower()), None)
    if not m:
        return None
    if m.group(2):
        new = m.group(1) + ("iz" if m.group(2) == "is" else "is") + m.group(3)
    elif m.group(5):
        if m.group(4).lower() in ("y", "f", "h", "your", "hour", "four", "tour", "pour", "flour", "sour", "our", "dour"):
            return None
        new = m.group(4) + "or"
    else:
        new = m.group(6) + ("er" if m.group(7) == "re" else "ers")
    if m.group(0).lower() in ("rise", "wise", "raise", "noise", "praise", "promise", "premise", "exercise", "advise",
                              "devise", "revise", "supervise", "televise", "surprise", "compromise", "expertise",
                              "franchise", "merchandise", "otherwise", "precise", "concise"):
        return None
    return s[: m.start()] + new + s[m.end():]


_CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b(?! ?[ap]\.?m)")


def m_clock(s: str) -> str | None:
    m = _CLOCK.search(s)
    if not m or "-" in s[max(0, m.start() - 1): m.end() + 1] or "–" in s[max(0, m.start() - 1): m.end() + 1]:
        return None
    h, mi = int(m.group(1)), m.group(2)
    if h == 0 or h == 12:
        return None
    suffix = "pm" if h > 12 else "am"
    text = f"{h % 12}:{mi} {suffix}" if mi != "00" else f"{h % 12} {suffix}"
    return s[: m.start()] + text + s[m.end():]


def m_thousands(s: str) -> str | None:
    m = re.search(r"(?<![\w.,:/-])(\d{1,3}),(\d{3})(?![\d,.])", s)
    if m:
        return s[: m.start()] + m.group(1) + m.group(2) + s[m.end():]
    m = re.search(r"(?<![\w.,:/-])(\d{1,2})(\d{3})(?![\w.,:/])", s)
    if m and not (1900 <= int(m.group(0)) <= 2100):
        return s[: m.start()] + f"{m.group(1)},{m.group(2)}" + s[m.end():]
    return None


_CLAUSES = re.compile(r"^(?P<a>[A-Z][^;,]{8,}?)(?P<sep>; |, and |, while )(?P<b>[a-z][^;]{8,}?)(?P<end>[.!]?)$")


def m_clause_swap(s: str) -> str | None:
    """"A does X; B does Y." -> "B does Y; A does X." (two full clauses, each with its own subject)."""
    m = _CLAUSES.match(s)
    if not m or re.search(r"\b(it|they|this|then|so|therefore|but|respectively|them|its|their)\b", m.group("b"), re.I):
        return None
    a, b = m.group("a"), m.group("b")
    if len(a.split()) < 3 or len(b.split()) < 3 or a.split()[0].lower() in _NOT_ITEM - {"the", "a", "an"}:
        return None
    first = a.split()[0]
    a_low = a if first.isupper() or (len(first) > 1 and first[1:].lower() != first[1:]) or _is_name(first) else a[0].lower() + a[1:]
    return b[0].upper() + b[1:] + m.group("sep") + a_low + m.group("end")


def _is_name(word: str) -> bool:
    return word[:1].isupper() and word.lower() not in _NOT_ITEM and word not in ("The", "A", "An", "All", "Each", "Every")


_YEARS = re.compile(r"\b(\d{1,2}) (years?)\b")


def m_months(s: str) -> str | None:
    """"5 years" -> "60 months"."""
    m = _YEARS.search(s)
    if not m or _range_second(s, m.start()) or re.search(r"(?:aged?|old|over|under)\s*$", s[: m.start()]) or re.match(r"\s*(?:old|of age)\b", s[m.end():]):
        return None
    return s[: m.start()] + f"{int(m.group(1)) * 12} months" + s[m.end():]


def m_million(s: str) -> str | None:
    m = re.search(r"(?<![\w.,])(\d{1,3}),(\d{3}),000(?![\d,.])", s)
    if not m:
        return None
    value = Fraction(int(m.group(1) + m.group(2)), 1000)
    text = _fmt(value)
    return s[: m.start()] + f"{text} million" + s[m.end():] if text else None


_ABBREV = {"January": "Jan", "February": "Feb", "March": "Mar", "April": "Apr", "August": "Aug",
           "September": "Sept", "October": "Oct", "November": "Nov", "December": "Dec"}


def m_month_abbrev(s: str) -> str | None:
    m = re.search(r"\b(\d{1,2}) (" + "|".join(_ABBREV) + r") (\d{4})\b", s)
    if m:
        return s[: m.start()] + f"{m.group(1)} {_ABBREV[m.group(2)]} {m.group(3)}" + s[m.end():]
    return None


_ORD_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh",
              8: "eighth", 9: "ninth", 10: "tenth"}


def m_ordinal(s: str) -> str | None:
    """"the 3rd floor" <-> "the third floor"; "1 March 2026" -> "the 1st of March 2026"."""
    m = re.search(r"\b(\d{1,2})(st|nd|rd|th)\b", s)
    months = "|".join(_MONTHS)
    if (m and int(m.group(1)) in _ORD_WORDS and not re.search(r"\b(?:" + months + r")\s*$", s[: m.start()])
            and not re.match(r"\s+(?:of\s+)?(?:" + months + ")", s[m.end():])):
        return s[: m.start()] + _ORD_WORDS[int(m.group(1))] + s[m.end():]
    m = re.search(r"\bthe (" + "|".join(v for k, v in _ORD_WORDS.items() if k > 2) + r")\b", s)
    if m:
        n = next(k for k, v in _ORD_WORDS.items() if v == m.group(1))
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
        return s[: m.start()] + f"the {n}{suffix}" + s[m.end():]
    return None


_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def m_numword_compound(s: str) -> str | None:
    """25 -> "twenty-five" (counts of things, not measures with a unit symbol)."""
    for m in re.finditer(r"(?<![\w.,:/$€£#-])([2-9]\d)(?![\w.,:/%°-]|\.\d)", s):
        n = int(m.group(1))
        if _VERSIONISH.search(s[: m.start()]) or re.match(r"\s*(?:am|pm|%|st|nd|rd|th)\b", s[m.end():]):
            continue
        if re.search(r"\b(?:" + "|".join(_MONTHS) + r")\s*$", s[: m.start()]) or re.match(r"\s+(?:" + "|".join(_MONTHS) + ")", s[m.end():]):
            continue
        word = _TENS[n // 10] + ("-" + _WORDS[n % 10] if n % 10 else "")
        return s[: m.start()] + (word.capitalize() if m.start() == 0 else word) + s[m.end():]
    return None


_HYPHEN_QTY = re.compile(r"\b(\d+(?:\.\d+)?)-(second|minute|hour|day|week)\b")
_HYPHEN_TARGETS = {"second": ("minute",), "minute": ("hour", "second"), "hour": ("minute", "day"),
                   "day": ("hour", "week"), "week": ("day",)}


def m_unit_hyphen(s: str) -> str | None:
    """"a 2-hour course" -> "a 120-minute course"; "a 30-minute break" -> "a 0.5-hour break"."""
    m = _HYPHEN_QTY.search(s)
    if not m:
        return None
    value = Fraction(m.group(1)) * _UNITS[m.group(2)][1]
    for target in _HYPHEN_TARGETS[m.group(2)]:
        text = _fmt(value / _UNITS[target][1])
        if text:
            return s[: m.start()] + f"{text}-{target}" + s[m.end():]
    return None


def m_unit_down(s: str) -> str | None:
    """Another exact conversion, into the smaller unit ("4.5 metres" -> "450 cm" style)."""
    for m in _QTY.finditer(s):
        follow = s[m.end(): m.end() + 12]
        if re.match(r"\s*(?:and )?\d", follow) or re.match(r"[-/]\w", follow) or _range_second(s, m.start()):
            continue
        up = _converted(m, prefer_up=True)
        down = _converted(m, prefer_up=False)
        if down and down != up:
            return s[: m.start()] + down + s[m.end():]
    return None


_CJK_CONV = {"小时": ("分钟", 60), "分钟": ("小时", Fraction(1, 60)), "天": ("小时", 24), "年": ("个月", 12),
             "米": ("厘米", 100), "厘米": ("米", Fraction(1, 100)), "公斤": ("克", 1000), "千克": ("克", 1000),
             "克": ("公斤", Fraction(1, 1000)), "升": ("毫升", 1000), "毫升": ("升", Fraction(1, 1000)),
             "時間": ("分", 60), "分": ("時間", Fraction(1, 60)), "週間": ("日間", 7), "日間": ("時間", 24),
             "kg": ("g", 1000), "L": ("mL", 1000)}
_CJK_QTY = re.compile(r"(\d+(?:\.\d+)?)\s?(" + "|".join(sorted(map(re.escape, _CJK_CONV), key=len, reverse=True)) + r")(?![\w])")


def m_cjk_unit(s: str) -> str | None:
    """CJK quantities converted exactly: 2小时 -> 120分钟, 30厘米 -> 0.3米, 8.5 kg -> 8500 g."""
    if not _CJK.search(s):
        return None
    for m in _CJK_QTY.finditer(s):
        if m.group(2) == "分" and re.match(r"\d", s[m.end():m.end() + 1] or "x"):
            continue
        unit, factor = _CJK_CONV[m.group(2)]
        text = _fmt(Fraction(m.group(1)) * factor)
        if text:
            return s[: m.start()] + text + (" " if " " in m.group(0) else "") + unit + s[m.end():]
    return None


_CJK_NUMS = {"两": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10"}


def m_cjk_number(s: str) -> str | None:
    """CJK numerals before a counter and digits: 两起 <-> 2起, 3次 -> 三次."""
    if not _CJK.search(s):
        return None
    m = re.search(r"(?<![\d一二三四五六七八九十百千万两])([两三四五六七八九])(?=[个次起名人天年周日台件条])", s)
    if m:
        return s[: m.start()] + _CJK_NUMS[m.group(1)] + s[m.end():]
    m = re.search(r"(?<![\d.,])([2-9])(?=[个次起名人台件条])", s)
    if m:
        word = {v: k for k, v in _CJK_NUMS.items()}[m.group(1)]
        return s[: m.start()] + word + s[m.end():]
    return None


_ORD_SWAP = {"first": "second", "second": "third", "third": "first", "last": "first", "1st": "2nd",
             "2nd": "3rd", "3rd": "1st", "4th": "5th"}
_ORD_SWAP_RE = re.compile(r"\b(" + "|".join(_ORD_SWAP) + r")\b")


def c_ordinal(s: str) -> str | None:
    """"the first year" -> "the second year"."""
    m = _ORD_SWAP_RE.search(s)
    if not m or (m.group(1) == "second" and re.match(r"\s*(?:$|[.,;])", s[m.end():])):
        return None
    return s[: m.start()] + _ORD_SWAP[m.group(1)] + s[m.end():]


def c_cjk_number(s: str) -> str | None:
    if not _CJK.search(s):
        return None
    m = re.search(r"(?<![\d.,:])(\d+)(?![\d.,:])", s)
    if not m or re.search(r"20\d\d年?$", s[: m.end()]):
        return None
    return s[: m.start()] + str(int(m.group(1)) + 1) + s[m.end():]


def m_verbatim(s: str) -> str | None:
    return s


#: Session 7b: a change's two ends in the other order ("from 5 hours to 7 hours" = "to 7
#: hours from 5 hours"), the sides of a size ("1,200 mm by 1,000 mm"), and the changing
#: neighbours: the ends trading prepositions, a list gathered across a semicolon.
_RANGE_UNITS = r"(?:%|°C|°F|mm|cm|m|km|mg|g|kg|ml|l|ms|s|minutes|hours|days|weeks|months|years|p/kWh|kWh|MB|GB|TB|GHz|MHz|Mbit/s)"
_VALUE = rf"(?:version )?[€£$]?\d(?:[\d.,:]*\d)?(?: ?{_RANGE_UNITS})?"
#: Both ends carry their own unit or neither does ("from 25 to 45 degrees" shares its unit:
#: moving the first end away from it is no longer a plain reordering).
_RANGE = re.compile(rf"\bfrom ({_VALUE}) to ({_VALUE})(?=[,;.)]?(?:\s+(?:after|before|in|on|at|for|because|when|and)\b|[,;.)]?\s*$))")
_SIZE = re.compile(r"\b(\d[\d,.]*) ?(mm|cm|m|km|in|ft) by (\d[\d,.]*) ?(mm|cm|m|km|in|ft)\b")
_SEMI_LIST = re.compile(r"^(?P<head>[A-Z][^;]*?\b)(?P<a>\w+),? and (?P<b>\w+); (?P<c>[a-z]\w+)\b")
_NOT_NOUN = frozenset(["it", "they", "this", "that", "these", "those", "the", "a", "an", "however",
                       "otherwise", "then", "there", "we", "you", "he", "she", "its", "their", "each",
                       "all", "both", "either", "no", "not", "only", "also", "but", "and", "or", "so"])


def _same_shape(a: str, b: str) -> bool:
    return bool(re.search(r"\d\s?\D+$", a)) == bool(re.search(r"\d\s?\D+$", b))


def m_range_reorder(s: str) -> str | None:
    m = _RANGE.search(s)
    if not m or m.group(1) == m.group(2) or not _same_shape(m.group(1), m.group(2)):
        return None
    return s[: m.start()] + f"to {m.group(2)} from {m.group(1)}" + s[m.end():]


def m_size_reorder(s: str) -> str | None:
    m = _SIZE.search(s)
    if not m or m.group(2) != m.group(4) or m.group(1) == m.group(3):
        return None
    return s[: m.start()] + f"{m.group(3)} {m.group(4)} by {m.group(1)} {m.group(2)}" + s[m.end():]


def c_range_swap(s: str) -> str | None:
    m = _RANGE.search(s)
    if not m or m.group(1) == m.group(2) or not _same_shape(m.group(1), m.group(2)):
        return None
    return s[: m.start()] + f"to {m.group(1)} from {m.group(2)}" + s[m.end():]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


_NEG_CELL = re.compile(r"^(?:not|no)\s+(?P<rest>[a-z].*)$", re.IGNORECASE)
_NO_CELL = frozenset(["no", "none", "-", "–", "—", "✗", "✘", "×", "n/a", "not available", "not included",
                      "excluded", "not supported", "not allowed"])


def _negative_cell(row: str) -> tuple[str, str, str] | None:
    """(row label, column header, cell) of the first negative non-first cell of a table row."""
    header, line = row.split("\n", 1)
    heads, cells = _cells(header), _cells(line)
    if len(heads) != len(cells) or len(cells) < 2:
        return None
    for head, cell in zip(heads[1:], cells[1:], strict=True):
        if head and (cell.lower() in _NO_CELL or _NEG_CELL.match(cell)):
            return cells[0].strip("*` "), head, cell
    return None


def c_table_has_column(s: str) -> str | None:
    """A row whose cell says "no" read as having what its column names: "Tidewave has EU
    roaming" from "| Tidewave | not included |" under "EU roaming"."""
    found = _negative_cell(s)
    if found is None:
        return None
    label, head, _cell = found
    return f"{label} has {head}."


def c_table_negation_dropped(s: str) -> str | None:
    """A "not X"/"no X" cell read without its negation: "EU roaming is included with Tidewave"."""
    found = _negative_cell(s)
    if found is None:
        return None
    label, head, cell = found
    m = _NEG_CELL.match(cell)
    if not m:
        return None
    return f"{head} is {m.group('rest')} with {label}."


def c_semicolon_list(s: str) -> str | None:
    m = _SEMI_LIST.search(s)
    if not m or m.group("c") in _NOT_NOUN or m.group("a").lower() in _NOT_NOUN:
        return None
    return f"{m.group('head')}{m.group('a')}, {m.group('b')} and {m.group('c')}."


# --- session 8: universal quantifiers, currency subunits, fortnights, gapped objects ------------

_UNIVERSAL_LEAD = re.compile(r"^(Every|Each|Any|All) ([a-z][\w-]*(?: [a-z][\w-]*){1,3})\b")
_PLURAL_AGREE = {"is": "are", "was": "were", "has": "have", "does": "do"}


def _plural_noun(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "sh", "ch", "x")) else "s")


def _universal(s: str) -> tuple[str, str, str, str, str] | None:
    """(quantifier, noun modifiers, head noun, verb, rest) of a sentence opening "Every/Each/Any
    X <verb>" (singular) or "All Xs <verb>" (plural), the verb a modal or an agreeing form."""
    m = _UNIVERSAL_LEAD.match(s)
    if m is None:
        return None
    q, words = m.group(1), m.group(2).split(" ")
    plural = q == "All"
    for at in range(1, len(words)):
        mods, noun, verb = " ".join(words[: at - 1]), words[at - 1], words[at]
        mods = mods + " " if mods else ""
        rest = s[m.start(2) + len(" ".join(words[: at + 1])):]
        if any(w in _NOT_ITEM for w in (mods + noun).split()) or noun in _MODALS or noun in _PLURAL_AGREE:
            return None
        if plural != (noun.endswith("s") and not noun.endswith("ss")):
            continue
        if verb in _MODALS or verb == "cannot" or verb in _PLURAL_AGREE or verb in _AGREE:
            return q, mods, noun, verb, rest
        if not plural and re.fullmatch(r"[a-z]{3,}s", verb) and not verb.endswith(("ss", "ous", "ics")):
            return q, mods, noun, verb, rest
        if plural and re.fullmatch(r"[a-z]{3,}", verb) and not verb.endswith(("s", "ed", "ing", "ly")):
            return q, mods, noun, verb, rest
    return None


def _agree_plural(verb: str) -> str:
    if verb in _MODALS or verb == "cannot":
        return verb
    if verb in _PLURAL_AGREE:
        return _PLURAL_AGREE[verb]
    return verb[:-2] if verb.endswith(("shes", "ches", "xes", "oes")) else verb[:-1]


def m_universal_all(s: str) -> str | None:
    """"Every line must support 5G" → "All lines must support 5G" (and "All Xs" → "Every X")."""
    found = _universal(s)
    if found is None:
        return None
    q, mods, noun, verb, rest = found
    if q == "All":
        sing = _singular(noun)
        if sing is None:
            return None
        new_verb = _AGREE.get(verb, verb) if verb in _AGREE or verb in _MODALS or verb == "cannot" else (
            verb + ("es" if verb.endswith(("sh", "ch", "x", "o")) else "s"))
        return f"Every {mods}{sing} {new_verb}{rest}"
    return f"All {mods}{_plural_noun(noun)} {_agree_plural(verb)}{rest}"


def m_universal_bare(s: str) -> str | None:
    """"Any discrepancy must be reported" → "Discrepancies must be reported": a universal
    subject of a rule (a modal or the present tense) as a bare plural."""
    found = _universal(s)
    if found is None or found[3] in ("was", "were", "did", "had"):
        return None
    q, mods, noun, verb, rest = found
    head = f"{mods}{noun} {verb}" if q == "All" else f"{mods}{_plural_noun(noun)} {_agree_plural(verb)}"
    return head[0].upper() + head[1:] + rest


def m_each_floating(s: str) -> str | None:
    """"Each field engineer uses 8 GB" → "Field engineers each use 8 GB"."""
    found = _universal(s)
    if found is None or found[0] != "Each" or found[3] in _MODALS or found[3] in _PLURAL_AGREE:
        return None
    _q, mods, noun, verb, rest = found
    head = f"{mods}{_plural_noun(noun)} each {_agree_plural(verb)}"
    return head[0].upper() + head[1:] + rest


_AUX_OTHER = {"must": "may", "may": "must", "should": "may", "can": "must", "will": "may", "are": "were"}


def _each_after_auxiliary(s: str, changed: bool) -> str | None:
    found = _universal(s)
    if found is None or found[0] not in ("Each", "Every") or not (found[3] in _MODALS or found[3] == "is"):
        return None
    _q, mods, noun, verb, rest = found
    aux = _agree_plural(verb) if verb != "is" else "are"
    if changed:
        if aux not in _AUX_OTHER:
            return None
        aux = _AUX_OTHER[aux]
    head = f"{mods}{_plural_noun(noun)} {aux} each"
    return head[0].upper() + head[1:] + rest


def m_each_after_auxiliary(s: str) -> str | None:
    """"Each proposal is reviewed by ..." → "Proposals are each reviewed by ..."."""
    return _each_after_auxiliary(s, changed=False)


def c_each_after_auxiliary(s: str) -> str | None:
    """"Each proposal must be reviewed ..." → "Proposals may each be reviewed ..."."""
    return _each_after_auxiliary(s, changed=True)

def c_universal_some(s: str) -> str | None:
    """"Every line must support 5G" → "Some lines must support 5G"."""
    found = _universal(s)
    if found is None:
        return None
    q, mods, noun, verb, rest = found
    if q == "All":
        return f"Some {mods}{noun} {verb}{rest}"
    return f"Some {mods}{_plural_noun(noun)} {_agree_plural(verb)}{rest}"


def c_universal_one(s: str) -> str | None:
    """"All lines must support 5G" → "One line must support 5G" (a count for the universal)."""
    found = _universal(s)
    if found is None or found[0] != "All":
        return None
    _q, mods, noun, verb, rest = found
    sing = _singular(noun)
    if sing is None:
        return None
    new_verb = _AGREE.get(verb, verb) if verb in _AGREE or verb in _MODALS or verb == "cannot" else (
        verb + ("es" if verb.endswith(("sh", "ch", "x", "o")) else "s"))
    return f"One {mods}{sing} {new_verb}{rest}"


_SUBUNIT = re.compile(r"(?<![\w.])([£€$])0\.(\d\d)(?!\d)(?![.,]\d)")


def m_subunit(s: str) -> str | None:
    """"£0.35" → "35p", "€0.10" → "10 cents", "$0.05" → "5 cents"."""
    m = _SUBUNIT.search(s)
    if m is None or m.group(2) == "00":
        return None
    n = int(m.group(2))
    word = f"{n}p" if m.group(1) == "£" else f"{n} cent" + ("s" if n != 1 else "")
    return s[: m.start()] + word + s[m.end():]


def c_subunit(s: str) -> str | None:
    """"£0.35" → "35 cents" (another currency's subunit), "€0.10" → "10p"; "£0.35" → "3.5p"."""
    m = _SUBUNIT.search(s)
    if m is None or m.group(2) == "00":
        return None
    n = int(m.group(2))
    word = f"{n} cents" if m.group(1) == "£" else f"{n}p"
    return s[: m.start()] + word + s[m.end():]


def c_subunit_scale(s: str) -> str | None:
    """"£0.35" → "0.35p": the subunit read with the main unit's number."""
    m = _SUBUNIT.search(s)
    if m is None or m.group(2) == "00":
        return None
    word = f"0.{m.group(2)}p" if m.group(1) == "£" else f"0.{m.group(2)} cents"
    return s[: m.start()] + word + s[m.end():]


_TWO_WEEKS = re.compile(r"\b(every|a|per|for|in|within|after) (?:2|two) weeks\b", re.IGNORECASE)


def m_fortnight(s: str) -> str | None:
    """"every 2 weeks" → "every fortnight", "for 2 weeks" → "for a fortnight"."""
    m = _TWO_WEEKS.search(s)
    if m is None:
        return None
    lead = m.group(1)
    word = f"{lead} fortnight" if lead.lower() in ("every", "a", "per") else f"{lead} a fortnight"
    return s[: m.start()] + word + s[m.end():]


def c_fortnight(s: str) -> str | None:
    """"every 2 weeks" → "every 2 fortnights" / "every week" → "every fortnight"."""
    m = _TWO_WEEKS.search(s)
    if m is not None:
        return s[: m.start()] + f"{m.group(1)} 2 fortnights" + s[m.end():]
    m = re.search(r"\b(every|per|a) week\b", s, re.IGNORECASE)
    if m is None:
        return None
    return s[: m.start()] + f"{m.group(1)} fortnight" + s[m.end():]


_GAPPED_OBJECTS = re.compile(
    r"^(?P<subj>(?:The [a-z]+(?: [a-z]+)?|[A-Z][\w-]*(?: [A-Z][\w-]*)?)) (?P<verb>[a-z]{3,}(?:s|ed)) "
    r"(?P<a>(?:[A-Z][\w-]*|\d[\w.]*|the [\w-]+)(?: [\w-]+){0,2}) "
    r"(?P<p>for|to|in|at|on|with) (?P<x>(?:the )?[\w-]+(?: [\w-]+)?) and "
    r"(?P<b>(?:[A-Z][\w-]*|\d[\w.]*|the [\w-]+)(?: [\w-]+){0,2}) (?P=p) (?P<y>(?:the )?[\w-]+(?: [\w-]+)?)(?P<end>[.]?)$"
)


def m_gapped_objects(s: str) -> str | None:
    """"P recommends A for x and B for y." → "P recommends B for y and A for x."."""
    m = _GAPPED_OBJECTS.match(s)
    if m is None:
        return None
    g = m.groupdict()
    return f"{g['subj']} {g['verb']} {g['b']} {g['p']} {g['y']} and {g['a']} {g['p']} {g['x']}{g['end']}"


def c_gapped_objects(s: str) -> str | None:
    """"P recommends A for x and B for y." → "P recommends A for y and B for x." (crossed)."""
    m = _GAPPED_OBJECTS.match(s)
    if m is None or m.group("x") == m.group("y"):
        return None
    g = m.groupdict()
    return f"{g['subj']} {g['verb']} {g['a']} {g['p']} {g['y']} and {g['b']} {g['p']} {g['x']}{g['end']}"


_AUX_WORDS = frozenset(["is", "are", "was", "were", "has", "have", "had", "will", "would", "must", "may",
                  "might", "can", "could", "should", "shall", "cannot", "does", "do", "did"])
_SEMI_PRONOUN = re.compile(r"^(?P<a>[^;]+); (?P<pron>they|it) (?P<b>[^;]+?)(?P<end>[.]?)$")


def _subject_split(clause: str) -> tuple[str, str] | None:
    """(subject, rest from its auxiliary) of a clause whose auxiliary is word 2..5."""
    words = clause.split()
    at = next((i for i, w in enumerate(words) if w.lower() in _AUX_WORDS), None)
    if at is None or not 1 <= at <= 4:
        return None
    return " ".join(words[:at]), " ".join(words[at:])


def m_semicolon_pronoun_swap(s: str) -> str | None:
    """"Bikes must be returned to a dock; they must not be left outside." → "Bikes must not
    be left outside; they must be returned to a dock." (the subject stays first)."""
    m = _SEMI_PRONOUN.match(s)
    if m is None:
        return None
    split = _subject_split(m.group("a"))
    if split is None or m.group("b").split()[0].lower() not in _AUX_WORDS:
        return None
    subject, rest = split
    plural = subject.split()[-1].endswith("s")
    if (m.group("pron") == "they") != plural:
        return None  # "it" / "they" may stand for another noun phrase
    if re.search(r"\b(?:a|an|the|this|these|their|its)\s+[\w-]+s\b" if plural else r"\b(?:a|an|the|this)\s", rest):
        return None
    return f"{subject} {m.group('b')}; {m.group('pron')} {rest}{m.group('end')}"


def c_semicolon_pronoun_cross(s: str) -> str | None:
    """"Bikes must be returned to a dock; they must not be left outside." → "Bikes must not
    be returned to a dock; they must be left outside." (the negation moved across)."""
    m = _SEMI_PRONOUN.match(s)
    if m is None:
        return None
    split = _subject_split(m.group("a"))
    b = m.group("b")
    if split is None or b.split()[0].lower() not in _AUX_WORDS:
        return None
    subject, rest = split
    a_neg, b_neg = " not " in f" {rest} ", " not " in f" {b} "
    if a_neg == b_neg:
        return None
    if a_neg:
        rest, b = rest.replace(" not ", " ", 1), b.split(" ", 1)[0] + " not " + b.split(" ", 1)[1]
    else:
        b, rest = b.replace(" not ", " ", 1), rest.split(" ", 1)[0] + " not " + rest.split(" ", 1)[1]
    return f"{subject} {rest}; {m.group('pron')} {b}{m.group('end')}"


_PARALLEL = re.compile(
    r"^(?P<s>[A-Z][^,;]*?) (?P<v1>[a-z]+) (?P<c>when|if|after|before) (?P<np>(?:the|a|an) [a-z][\w-]*) "
    r"(?P<aux1>is|are|was|were) (?P<a>[^,;]+?) and (?P<v2>[a-z]+) (?P=c) (?P<pron>it|they) "
    r"(?P<aux2>is|are|was|were) (?P<b>[^,;]+?)(?P<end>[.]?)$"
)


def m_parallel_conjuncts(s: str) -> str | None:
    """"A ride starts when the bike is unlocked and ends when it is locked." → "A ride ends
    when the bike is locked and starts when it is unlocked." (the pronoun moves too)."""
    m = _PARALLEL.match(s)
    if m is None:
        return None
    g = m.groupdict()
    return (f"{g['s']} {g['v2']} {g['c']} {g['np']} {g['aux2']} {g['b']} and {g['v1']} {g['c']} "
            f"{g['pron']} {g['aux1']} {g['a']}{g['end']}")


def c_parallel_crossed(s: str) -> str | None:
    """"... starts when the bike is unlocked and ends when it is locked." → "... ends when the
    bike is unlocked and starts when it is locked." (the verbs crossed)."""
    m = _PARALLEL.match(s)
    if m is None or m.group("v1") == m.group("v2"):
        return None
    g = m.groupdict()
    return (f"{g['s']} {g['v2']} {g['c']} {g['np']} {g['aux1']} {g['a']} and {g['v1']} {g['c']} "
            f"{g['pron']} {g['aux2']} {g['b']}{g['end']}")


_RESTRICTED = re.compile(
    r"^(?P<subj>[A-Z][a-z]+s) (?P<phrase>(?:aged|over|under|with|without|from|in) [^,;]+?) "
    r"(?P<verb>need|must|may|can|cannot|should|are|have|pay|get|receive)\b(?P<rest>[^;]*?)(?P<end>[.]?)$"
)


def m_restrictor_condition(s: str) -> str | None:
    """"Riders aged 16 or 17 need consent." → "Riders need consent if they are aged 16 or 17."."""
    m = _RESTRICTED.match(s)
    if m is None or m.group("phrase").split()[0] == "without":
        return None
    g = m.groupdict()
    return f"{g['subj']} {g['verb']}{g['rest']} if they are {g['phrase']}{g['end']}"


def c_restrictor_unless(s: str) -> str | None:
    """"Riders aged 16 or 17 need consent." → "Riders need consent unless they are aged 16 or 17."."""
    m = _RESTRICTED.match(s)
    if m is None:
        return None
    g = m.groupdict()
    return f"{g['subj']} {g['verb']}{g['rest']} unless they are {g['phrase']}{g['end']}"


def c_restrictor_negated(s: str) -> str | None:
    """"Riders aged 16 or 17 need consent." → "Riders need consent if they are not aged 16 or 17."."""
    m = _RESTRICTED.match(s)
    if m is None:
        return None
    g = m.groupdict()
    return f"{g['subj']} {g['verb']}{g['rest']} if they are not {g['phrase']}{g['end']}"


_FRONTED_PP = re.compile(
    r"^(?P<pp>(?P<prep>On|In|At|During|After|Before|From|Until|Since|Within) [^,;:]{2,40}?), "
    r"(?P<rest>(?:the |a |an |[A-Z])[^;:]+?)(?P<end>[.]?)$"
)
_PREP_SWAP = {"After": "before", "Before": "after", "From": "until", "Until": "from"}


def _fronted_parts(s: str) -> tuple[str, str, str, str] | None:
    m = _FRONTED_PP.match(s)
    if m is None or re.search(r"\b(?:and|or|but)\b", m.group("rest")):
        return None
    rest = m.group("rest")
    if rest.split(" ", 1)[0] in ("The", "A", "An"):
        rest = rest[0].lower() + rest[1:]
    return m.group("prep"), m.group("pp"), rest, m.group("end")


def m_fronted_to_end(s: str) -> str | None:
    """"On weekdays, the gym opens at 6 am." → "The gym opens at 6 am on weekdays."."""
    parts = _fronted_parts(s)
    if parts is None:
        return None
    _prep, pp, rest, end = parts
    return f"{rest[0].upper()}{rest[1:]} {pp[0].lower()}{pp[1:]}{end}"


def c_fronted_swapped_preposition(s: str) -> str | None:
    """"After the audit, the board resigned." → "The board resigned before the audit."."""
    parts = _fronted_parts(s)
    if parts is None or parts[0] not in _PREP_SWAP:
        return None
    prep, pp, rest, end = parts
    return f"{rest[0].upper()}{rest[1:]} {_PREP_SWAP[prep]}{pp[len(prep):]}{end}"


# --- session 9: conjunct phrases, periods, range units, identifiers -------------------------

_PP_HEADS = r"(?:next to|close to|in front of|at|in|on|near|inside|outside|behind|under|above|beside|by|from|through|with|for|via)"
_PARTICIPLE_PAIR = re.compile(
    r"^(?P<pre>.+?\b(?:is|are|was|were|be|been)\s+)(?P<xh>\w+(?:ed|en))\s(?P<xt>[^,;]+?),? and "
    r"(?P<yh>\w+(?:ed|en))\s(?P<yt>[^,;]+?)(?P<end>[.]?)$"
)
_PP_PAIR = re.compile(
    rf"^(?P<pre>.+?\s)(?P<xh>{_PP_HEADS})\s(?P<xt>[^,;]+?),? and (?P<yh>{_PP_HEADS})\s(?P<yt>[^,;]+?)(?P<end>[.]?)$"
)
_ORDER_WORDS = re.compile(r"\b(?:then|after|before|first|finally|later|respectively|and|or|it|they|them)\b", re.I)


def _conjunct_pair(s: str) -> dict[str, str] | None:
    for pattern in (_PARTICIPLE_PAIR, _PP_PAIR):
        m = pattern.match(s)
        if (
            m is not None
            and not _ORDER_WORDS.search(f"{m.group('xt')} {m.group('yt')}")
            and m.group("xt") != m.group("yt")
            and m.group("xh") != m.group("yh")
        ):
            return m.groupdict()
    return None


def m_conjunct_phrases(s: str) -> str | None:
    """"... was drafted by A and approved by B." → "... was approved by B and drafted by A."."""
    g = _conjunct_pair(s)
    if g is None:
        return None
    return f"{g['pre']}{g['yh']} {g['yt']} and {g['xh']} {g['xt']}{g['end']}"


def c_conjunct_phrases_crossed(s: str) -> str | None:
    """"... was drafted by A and approved by B." → "... was drafted by B and approved by A."."""
    g = _conjunct_pair(s)
    if g is None:
        return None
    return f"{g['pre']}{g['xh']} {g['yt']} and {g['yh']} {g['xt']}{g['end']}"


def c_conjunct_phrases_then(s: str) -> str | None:
    """"... was drafted by A and approved by B." → "... was approved by B and then drafted by A."."""
    g = _conjunct_pair(s)
    if g is None:
        return None
    return f"{g['pre']}{g['yh']} {g['yt']} and then {g['xh']} {g['xt']}{g['end']}"


_PERIOD_SAME = [
    (re.compile(r"\bevery 12 months\b"), "every year"),
    (re.compile(r"\bevery year\b"), "every 12 months"),
    (re.compile(r"\bannually(?=[.,;]|$)"), "every 12 months"),
    (re.compile(r"\bmonthly(?=[.,;]|$)"), "every month"),
    (re.compile(r"\bweekly(?=[.,;]|$)"), "every 7 days"),
    (re.compile(r"\bdaily(?=[.,;]|$)"), "every 24 hours"),
]
_PERIOD_OTHER = [
    (re.compile(r"\bevery 12 months\b"), "every month"),
    (re.compile(r"\bevery year\b"), "every month"),
    (re.compile(r"\bannually(?=[.,;]|$)"), "every month"),
    (re.compile(r"\bmonthly(?=[.,;]|$)"), "every year"),
    (re.compile(r"\bweekly(?=[.,;]|$)"), "every day"),
    (re.compile(r"\bdaily(?=[.,;]|$)"), "every week"),
]


def _period(s: str, table: list[tuple[re.Pattern[str], str]]) -> str | None:
    for pattern, new in table:
        m = pattern.search(s)
        if m is not None and not re.search(r"\b(?:once|twice|times)\s*$", s[: m.start()]):
            return s[: m.start()] + new + s[m.end():]
    return None


def m_every_period(s: str) -> str | None:
    """"every 12 months" → "every year"; "annually" → "every 12 months"."""
    return _period(s, _PERIOD_SAME)


def c_every_period(s: str) -> str | None:
    """"every 12 months" → "every month"; "annually" → "every month"."""
    return _period(s, _PERIOD_OTHER)


_RANGE_QTY = re.compile(
    r"(?<![\w.,:/-])(?P<a>\d+(?:\.\d+)?) ?(?P<mid>to|-|–) ?(?P<b>\d+(?:\.\d+)?) (?P<u>months|minutes|seconds|hours|mm|cm|m|mg|g|ml)\b"
)
_RANGE_TARGET = {"months": ("years", Fraction(12)), "minutes": ("hours", Fraction(60)),
                 "seconds": ("minutes", Fraction(60)), "hours": ("minutes", Fraction(1, 60)),
                 "mm": ("cm", Fraction(10)), "cm": ("mm", Fraction(1, 10)), "m": ("cm", Fraction(1, 100)),
                 "mg": ("g", Fraction(1000)), "g": ("mg", Fraction(1, 1000)), "ml": ("l", Fraction(1000))}


def _range_ends(s: str) -> tuple[re.Match[str], str, str, str] | None:
    m = _RANGE_QTY.search(s)
    if m is None:
        return None
    target, factor = _RANGE_TARGET[m.group("u")]
    a, b = (_fmt(Fraction(m.group(k)) / factor) for k in ("a", "b"))
    if a is None or b is None or Fraction(m.group("a")) >= Fraction(m.group("b")):
        return None
    return m, a, b, target


def m_range_unit(s: str) -> str | None:
    """"12 to 18 months" → "1 to 1.5 years" (the unit said once, both ends converted)."""
    found = _range_ends(s)
    if found is None:
        return None
    m, a, b, target = found
    return s[: m.start()] + f"{a} {m.group('mid')} {b} {target}" + s[m.end():]


def c_range_unit_one_end(s: str) -> str | None:
    """"12 to 18 months" → "12 to 1.5 years" (only the second end converted)."""
    found = _range_ends(s)
    if found is None or found[1] == found[0].group("a"):
        return None
    m, _a, b, target = found
    return s[: m.start()] + f"{m.group('a')} {m.group('mid')} {b} {target}" + s[m.end():]


_LABELLED = re.compile(
    r"\b(?P<label>revision|zone|grade|class|phase|level|block|type|category|stage|annex|building|room|gate"
    r"|platform|wing|bay|lot|version|option|site|tier|lane|area|ward|floor|line|group|step|schedule|form)"
    r" (?P<value>(?-i:[A-Z]|[b-z])|\d{1,2}|(?-i:[A-Z])\d)(?![\w/-])(?![.,:]\w)",
    re.I,
)


def _other_value(value: str) -> str:
    if value.isdigit():
        return str(int(value) + 1)
    head = value[0]
    return ("A" if head == "Z" else chr(ord(head) + 1)) + value[1:]


def c_identifier_in_heading(s: str) -> tuple[str, str] | None:
    """"... is revision B ..." → "... is revision C ..." under a heading that says "Wing C"."""
    m = _LABELLED.search(s)
    if m is None:
        return None
    new = _other_value(m.group("value"))
    other = "Block" if m.group("label").lower() == "wing" else "Wing"
    return s[: m.start("value")] + new + s[m.end("value"):], f"# Site notes, {other} {new}"


def c_identifier_other_sentence(s: str) -> tuple[str, str] | None:
    """"... is revision B ..." → "... is revision C ..." with "Wing C" in another sentence."""
    found = c_identifier_in_heading(s)
    if found is None:
        return None
    return found[0], "+" + found[1].split(", ", 1)[1] + " is closed."


def c_identifier_to_a(s: str) -> str | None:
    """"... is revision B ..." → "... is revision A ..." (the label is no article)."""
    m = _LABELLED.search(s)
    if m is None or not m.group("value").isalpha() or m.group("value").upper() == "A":
        return None
    return s[: m.start("value")] + "A" + s[m.end("value"):]


#: Changing mutations whose evidence gains a line: (claim, heading) or (claim, "+sentence").
WITH_CONTEXT: dict[str, Callable[[str], tuple[str, str] | None]] = {
    "identifier-from-heading": c_identifier_in_heading,
    "identifier-from-other-sentence": c_identifier_other_sentence,
}


PRESERVING: dict[str, Callable[[str], str | None]] = {
    "verbatim": m_verbatim,
    "reorder": m_reorder,
    "unit-conversion": m_unit,
    "every-unit": m_every,
    "number-word": m_numword,
    "date-format": m_date,
    "inflection": m_inflect,
    "parenthesis-dropped": m_paren,
    "punctuation": m_punct,
    "fahrenheit": m_fahrenheit,
    "percent-word": m_percent,
    "article-dropped": m_article,
    "serial-comma": m_oxford,
    "contraction": m_contraction,
    "spelling": m_spelling,
    "clock-12h": m_clock,
    "thousands-separator": m_thousands,
    "clause-swap": m_clause_swap,
    "years-months": m_months,
    "million": m_million,
    "month-abbrev": m_month_abbrev,
    "ordinal": m_ordinal,
    "number-word-compound": m_numword_compound,
    "unit-hyphenated": m_unit_hyphen,
    "unit-conversion-down": m_unit_down,
    "cjk-unit": m_cjk_unit,
    "cjk-number": m_cjk_number,
    "range-ends-reordered": m_range_reorder,
    "size-sides-reordered": m_size_reorder,
    "universal-all-every": m_universal_all,
    "universal-bare-plural": m_universal_bare,
    "each-floating": m_each_floating,
    "currency-subunit": m_subunit,
    "fortnight": m_fortnight,
    "gapped-objects-reordered": m_gapped_objects,
    "semicolon-pronoun-clause-swap": m_semicolon_pronoun_swap,
    "parallel-conjuncts-reordered": m_parallel_conjuncts,
    "restrictor-as-condition": m_restrictor_condition,
    "fronted-phrase-to-end": m_fronted_to_end,
    "conjunct-phrases-reordered": m_conjunct_phrases,
    "every-period": m_every_period,
    "range-unit-said-once": m_range_unit,
    "each-after-auxiliary": m_each_after_auxiliary,
    **PRESERVING_S10,
    **PRESERVING_S11,
    **PRESERVING_S12,
    **PRESERVING_S13,
}
CHANGING: dict[str, Callable[[str], str | None]] = {
    "number-changed": c_number,
    "negation": c_negate,
    "modal": c_modal,
    "roles-swapped": c_roles,
    "unit-changed": c_unit,
    "quantifier": c_quantifier,
    "antonym": c_antonym,
    "cjk-number-changed": c_cjk_number,
    "ordinal-changed": c_ordinal,
    "range-ends-swapped": c_range_swap,
    "list-across-semicolon": c_semicolon_list,
    "table-has-negative-column": c_table_has_column,
    "table-cell-negation-dropped": c_table_negation_dropped,
    "universal-to-some": c_universal_some,
    "universal-to-one": c_universal_one,
    "currency-subunit-other": c_subunit,
    "currency-subunit-scale": c_subunit_scale,
    "fortnight-changed": c_fortnight,
    "gapped-objects-crossed": c_gapped_objects,
    "semicolon-negation-crossed": c_semicolon_pronoun_cross,
    "parallel-conjuncts-crossed": c_parallel_crossed,
    "restrictor-as-unless": c_restrictor_unless,
    "restrictor-negated": c_restrictor_negated,
    "fronted-preposition-swapped": c_fronted_swapped_preposition,
    "conjunct-phrases-crossed": c_conjunct_phrases_crossed,
    "conjunct-phrases-then": c_conjunct_phrases_then,
    "every-period-changed": c_every_period,
    "range-unit-one-end": c_range_unit_one_end,
    "each-after-auxiliary-changed": c_each_after_auxiliary,
    "identifier-to-A": c_identifier_to_a,
    **CHANGING_S10,
    **CHANGING_S11,
    **CHANGING_S12,
    **CHANGING_S13,
}


#: Mutations that apply to CJK sentences as well as to the others.
_ANY_SCRIPT = frozenset(["verbatim", "punctuation"])


def variants(sentences: list[Sentence]) -> list[Variant]:
    out = []
    for sent in sentences:
        for table, preserving in ((PRESERVING, True), (CHANGING, False)):
            for name, mutate in table.items():
                cjk = sent.source == "notes-cjk"
                if (cjk and not name.startswith("cjk-") and name not in _ANY_SCRIPT) or (
                    not cjk and name.startswith("cjk-")
                ):
                    continue
                if (sent.source == "notes-table") != name.startswith("table-"):
                    continue  # table rows are read by the table generators only
                claim = mutate(sent.text)
                if claim is None or (claim == sent.text and name != "verbatim"):
                    continue
                stripped = claim.strip("*\"' .")
                if preserving and name not in ("punctuation", "verbatim") and stripped in sent.evidence:
                    continue
                if not preserving and stripped.lower().rstrip(".") in sent.evidence.lower():
                    continue
                out.append(Variant(name, preserving, sent, claim))
        if sent.source in ("notes-cjk", "notes-table"):
            continue
        for name, mutate_with in WITH_CONTEXT.items():
            found = mutate_with(sent.text)
            if found is None:
                continue
            claim, extra = found
            evidence = f"{sent.evidence} {extra[1:]}" if extra.startswith("+") else f"{extra}\n\n{sent.evidence}"
            out.append(Variant(name, False, replace(sent, evidence=evidence), claim))
    return out


# --- run ---------------------------------------------------------------------------------------


def verdict(variant: Variant) -> tuple[str, str, str]:
    span = EvidenceSpan(evidence_id="E1", text=variant.sentence.evidence, uri="bench://" + variant.sentence.doc,
                        start_line=1, end_line=variant.sentence.evidence.count("\n") + 1)
    result = verify_claims([Claim(id="C1", text=variant.claim, cited=(), substantive=True)], [span])[0]
    return result.verdict, result.reason or "", result.detail or ""


def sample(sources: list[str], per_source: int, seed: int) -> list[Sentence]:
    rng = random.Random(seed)
    out = []
    for name in sources:
        sentences = LOADERS[name]()
        if name != "notes" and len(sentences) > per_source:
            sentences = rng.sample(sentences, per_source)
        out += sentences
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", default=",".join(SOURCES), help="comma-separated: " + ", ".join(SOURCES))
    parser.add_argument("--per-source", type=int, default=600,
                        help="sentences sampled from each corpus (the notes are all used)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--errors", action="store_true", help="print every miss and false support")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sources = [s for s in args.sources.split(",") if s]
    unknown = set(sources) - set(SOURCES)
    if unknown:
        parser.error(f"unknown source(s): {', '.join(sorted(unknown))}")
    started = time.perf_counter()
    sents = sample(sources, args.per_source, args.seed)
    every = [(v, *verdict(v)) for v in variants(sents)]
    elapsed = time.perf_counter() - started
    # A preserving variant counts only where the sentence copied verbatim is supported: a
    # fragment the verifier cannot read as a unit (an abbreviation cut, a title line) says
    # nothing about near-verbatim recall.
    readable = {id(v.sentence) for v, verdict_, _, _ in every if v.mutation == "verbatim" and verdict_ == "supported"}
    verbatim_n = sum(v.mutation == "verbatim" for v, *_ in every)
    # A table row has no verbatim variant (a row is no sentence): its preserving variants count as they are.
    results = [r for r in every if not r[0].preserving or r[0].mutation == "verbatim" or id(r[0].sentence) in readable
               or r[0].sentence.source == "notes-table"]
    near = [r for r in results if r[0].preserving and r[0].mutation != "verbatim"]

    table: dict[tuple[bool, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    per_source: dict[tuple[bool, str], list[int]] = defaultdict(lambda: [0, 0])
    for v, verdict_, _, _ in results:
        table[(v.preserving, v.mutation)][verdict_] += 1
        table[(v.preserving, v.mutation)]["n"] += 1
        cell = per_source[(v.preserving, v.sentence.source)]
        cell[0] += verdict_ == "supported"
        cell[1] += 1
    pres = [r for r in results if r[0].preserving]
    chg = [r for r in results if not r[0].preserving]
    pres_ok = sum(r[1] == "supported" for r in pres)
    false_sup = sum(r[1] == "supported" for r in chg)
    near_ok = sum(r[1] == "supported" for r in near)
    summary = {
        "sentences": len(sents),
        "verbatim": {"n": verbatim_n, "supported": len(readable)},
        "near_verbatim": {"n": len(near), "supported": near_ok},
        "preserving": {"n": len(pres), "supported": pres_ok},
        "changing": {"n": len(chg), "false_supported": false_sup},
        "per_mutation": {f"{'preserving' if k[0] else 'changing'}/{k[1]}": dict(v) for k, v in sorted(table.items())},
        "per_source": {f"{'preserving' if k[0] else 'changing'}/{k[1]}": v for k, v in sorted(per_source.items())},
        "seconds": round(elapsed, 2),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"# Verifier mutation harness — {len(sents)} sentences ({', '.join(sources)}), "
              f"{len(results)} variants, {elapsed:.1f} s\n")
        print("| side | mutation | n | supported | contradicted | insufficient | uncertain |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for (preserving, name), cells in sorted(table.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
            print(f"| {'preserving' if preserving else 'changing'} | {name} | {cells['n']} | {cells['supported']} | "
                  f"{cells['contradicted']} | {cells['insufficient']} | {cells['uncertain']} |")
        print()
        print("| side | source | supported / n |")
        print("|---|---|---:|")
        for (preserving, source), (ok, n) in sorted(per_source.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
            print(f"| {'preserving' if preserving else 'changing'} | {source} | {ok}/{n} ({100 * ok / n:.1f}%) |")
        print()
        rate = 100 * near_ok / len(near) if near else 0.0
        print(f"sentences copied verbatim marked supported: {len(readable)}/{verbatim_n} "
              "(near-verbatim variants are counted on these only)")
        print(f"near-verbatim (meaning-preserving) variants marked supported: {near_ok}/{len(near)} "
              f"({rate:.1f}%; goal >= {PRESERVE_GOAL:.0%})")
        print(f"meaning-changing variants marked supported (false supports): {false_sup}/{len(chg)} (goal 0)")
    if args.errors:
        for v, verdict_, reason, detail in results:
            if (verdict_ == "supported") != v.preserving:
                tag = "MISSED" if v.preserving else "FALSE SUPPORT"
                print(f"[{tag}] {v.mutation} ({v.sentence.source}:{v.sentence.doc}) {verdict_} ({reason}: {detail})\n"
                      f"    source: {v.sentence.text}\n    claim:  {v.claim}", file=sys.stdout)
    return 0 if false_sup == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
