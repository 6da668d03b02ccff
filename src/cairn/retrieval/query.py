"""Turn a user's search text into safe SQLite FTS5 MATCH expressions.

The index has two FTS5 tables: the main one (``porter unicode61 remove_diacritics 2``)
and a CJK one whose single column holds :func:`cjk_bigrams` of the passage, because
unicode61 would make a whole run of Han/Kana/Hangul one giant token.

Query language, deliberately small:

* plain words are OR-ed, and BM25 ranks (long natural-language questions must still
  match); English stopwords are dropped unless nothing else is left;
* ``"quoted phrases"`` are required;
* ``-word`` and ``-"a phrase"`` exclude;
* ``word*`` is a prefix query.

When a query has required phrases, the plain words still take part in ranking but are
not required: ``"p" AND ("p" OR "w1" OR "w2")``.

Safety: every token emitted is a double-quoted FTS5 string made of letters and digits
only, so FTS5 keywords (AND, OR, NOT, NEAR), column filters (``title:``), ``^``,
parentheses and stray quotes in user input are just text, and any input either raises
:class:`~cairn.errors.ValidationError` or compiles to an expression FTS5 accepts.

Each expression applies to its own table: a CJK exclusion cannot filter the main
table's results and vice versa (the caller fuses the two result lists).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from cairn.errors import ValidationError

__all__ = ["MAX_TERMS", "CompiledQuery", "cjk_bigrams", "compile_query", "has_cjk"]

#: At most this many clauses (words, phrases, exclusions) are used; the rest of a very
#: long query is ignored rather than rejected, so pasted paragraphs still search.
MAX_TERMS = 64

# Han (incl. extensions and compatibility ideographs), Hiragana, Katakana (incl.
# half-width and the prolonged sound mark), Hangul (syllables and jamo), and the
# ideographic iteration marks 々〆〇, which are letters. CJK punctuation
# (U+3000-303F otherwise, U+30FB, U+FF01-FF65) is excluded: it separates words.
_CJK_CLASS = (
    "\u1100-\u11ff\u3005-\u3007\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3131-\u318e"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uf900-\ufaff\uff66-\uff9f\uffa0-\uffdc\U00020000-\U0003134f"
)
_CJK = re.compile(f"[{_CJK_CLASS}]")
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
# Words as unicode61 sees them: runs of letters and digits; everything else, '_'
# included, separates. CJK is cut out first (it goes to the other table).
_WORD = re.compile(r"[^\W_]+")
# A clause: an optionally negated quoted phrase (an unclosed quote runs to the end),
# or a run of anything that is not whitespace or a quote.
_CLAUSE = re.compile(r'(-?)"([^"]*)"?|[^\s"]+')

# A small English list: articles, pronouns, auxiliaries, prepositions and question
# words, the words that carry no topic in "what is the effect of X on Y?".
_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been
    before being below between both but by can could did do does doing down during
    each few for from further had has have having he her here hers herself him himself
    his how i if in into is it its itself just me more most my myself no nor not of off
    on once only or other our ours ourselves out over own same she should so some such
    than that the their theirs them themselves then there these they this those through
    to too under until up very was we were what when where which while who whom why
    will with would you your yours yourself yourselves
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True, slots=True)
class CompiledQuery:
    """MATCH expressions for the main and CJK tables, and the positive terms."""

    main: str | None
    cjk: str | None
    terms: tuple[str, ...]


def has_cjk(text: str) -> bool:
    """True if ``text`` contains a Han, Kana or Hangul character (not CJK punctuation)."""
    # isascii() is a C-level flag check; most text never reaches the regex.
    return not text.isascii() and _CJK.search(text) is not None


def cjk_bigrams(text: str) -> str:
    """Index text for the CJK table: overlapping bigrams of every CJK run.

    ``"北京大学"`` -> ``"北京 京大 大学"``; a one-character run is kept as is; non-CJK
    text is dropped; ``""`` when there is no CJK.
    """
    out: list[str] = []
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return " ".join(out)


@functools.lru_cache(maxsize=256)
def compile_query(query: str) -> CompiledQuery:
    """Compile user search text into FTS5 MATCH expressions (see the module docstring).

    Raises :class:`ValidationError` when nothing searchable is left: empty input,
    punctuation only, or exclusions only. Pure, so cached: one query compiles once
    although BM25, fusion and snippets all ask for it.
    """
    words: list[_Term] = []
    phrases: list[_Term] = []
    excluded: list[_Term] = []
    seen: set[tuple[str, bool, bool, str]] = set()
    clauses = 0
    for examined, m in enumerate(_CLAUSE.finditer(query)):
        # Bound the work on pasted or repetitive text as well as the output.
        if clauses >= MAX_TERMS or examined >= 8 * MAX_TERMS:
            break
        quoted = m.group(2) is not None
        if quoted:
            raw = m.group(2)
            negated = bool(m.group(1))
            prefix = False
        else:
            raw = m.group()
            negated = raw.startswith("-") and len(raw) > 1
            if negated:
                raw = raw.lstrip("-")
            prefix = raw.endswith("*")
        term = _term(raw, prefix=prefix, quoted=quoted)
        if term is None:
            continue
        key = (term.display.casefold(), negated, quoted, term.main + "|" + "|".join(term.cjk))
        if key in seen:
            continue
        seen.add(key)
        clauses += 1
        if negated:
            excluded.append(term)
        elif quoted:
            phrases.append(term)
        else:
            words.append(term)

    if not words and not phrases:
        if excluded:
            raise ValidationError("query has only exclusions; add a word to search for")
        raise ValidationError("query has no searchable terms")

    # Drop stopwords from the OR set, unless nothing else would be left to search.
    content = [w for w in words if not w.stop]
    if content or phrases:
        words = content

    main = _expression(
        [w.main for w in words if w.main],
        [p.main for p in phrases if p.main],
        [x.main for x in excluded if x.main],
    )
    cjk = _expression(
        [c for w in words for c in w.cjk],
        [c for p in phrases for c in p.cjk],
        [c for x in excluded for c in x.cjk],
    )
    if main is None and cjk is None:
        raise ValidationError("query has no searchable terms")
    terms = tuple(dict.fromkeys(t.display for t in (*phrases, *words)))
    return CompiledQuery(main=main, cjk=cjk, terms=terms)


class _Term(NamedTuple):
    """One clause, split into its FTS5 forms for each table."""

    display: str  # as the user wrote it, for highlighting
    main: str  # quoted FTS5 phrase for the main table, "" if no non-CJK words
    cjk: tuple[str, ...]  # quoted bigram phrases for the CJK table
    stop: bool  # every word is a stopword


def _term(raw: str, *, prefix: bool, quoted: bool) -> _Term | None:
    """Split one clause into main-table words and CJK runs; None if nothing searchable."""
    cjk_runs = _CJK_RUN.findall(raw) if has_cjk(raw) else []
    latin = _CJK_RUN.sub(" ", raw) if cjk_runs else raw
    words = _WORD.findall(latin)
    if not words and not cjk_runs:
        return None
    main = ""
    if words:
        main = _quote(" ".join(words))
        # A trailing '*' makes the last word of the phrase a prefix.
        if prefix and not cjk_runs and latin.rstrip().endswith("*"):
            main += "*"
    cjk: list[str] = []
    for run in cjk_runs:
        if len(run) == 1:
            # A single character is a prefix of the bigrams that start with it.
            cjk.append(_quote(run) + "*")
        else:
            cjk.append(_quote(cjk_bigrams(run)))
    display = raw.strip() if quoted else raw
    stop = not cjk_runs and all(w.casefold() in STOPWORDS for w in words)
    return _Term(display=display, main=main, cjk=tuple(cjk), stop=stop)


def _quote(text: str) -> str:
    """An FTS5 string literal: the text in double quotes, inner quotes doubled."""
    return '"' + text.replace('"', '""') + '"'


def _expression(optional: list[str], required: list[str], excluded: list[str]) -> str | None:
    """``required AND (required OR optional...) NOT (excluded...)``; None if no positive."""
    optional = list(dict.fromkeys(optional))
    required = list(dict.fromkeys(required))
    excluded = list(dict.fromkeys(excluded))
    if not optional and not required:
        return None
    if required:
        positive = " AND ".join(required)
        if optional:
            # Optional words still count in BM25 without being required.
            positive = f"{positive} AND ({' OR '.join([*required, *optional])})"
    else:
        positive = " OR ".join(optional)
    if not excluded:
        return positive
    return f"({positive}) NOT ({' OR '.join(excluded)})"
