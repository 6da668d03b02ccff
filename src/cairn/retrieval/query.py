"""Parse a user's search text into a backend-neutral query (:class:`ParsedQuery`).

A store compiles the parsed query into its own dialect (SQLite: FTS5 MATCH expressions,
:mod:`cairn.store.sqlite.fts`). Words are split as unicode61 splits them; runs of
Han/Kana/Hangul are kept apart, because they are searched as :func:`cjk_bigrams` (a
word tokenizer would make a whole CJK run one giant token).

Query language, deliberately small:

* plain words are OR-ed, and BM25 ranks (long natural-language questions must still
  match); English stopwords are dropped unless nothing else is left;
* ``"quoted phrases"`` are required;
* ``-word`` and ``-"a phrase"`` exclude;
* ``word*`` is a prefix query.

When a query has required phrases, the plain words still take part in ranking but are
not required: ``"p" AND ("p" OR "w1" OR "w2")``.

Safety: a term holds words made of letters and digits only, so query-language
keywords of a backend (FTS5's AND, OR, NOT, NEAR), column filters (``title:``), ``^``,
parentheses and stray quotes in user input are just text, and any input either raises
:class:`~cairn.errors.ValidationError` or parses to a query with a positive term.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from cairn.errors import ValidationError

__all__ = ["MAX_TERMS", "STOPWORDS", "ParsedQuery", "QueryTerm", "cjk_bigrams", "has_cjk", "parse_query"]

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


class QueryTerm(NamedTuple):
    """One clause of a query: its words (for the word index) and CJK runs (for the
    bigram index)."""

    display: str  # as the user wrote it, for highlighting
    words: tuple[str, ...]  # letters-and-digits words outside CJK runs, in order
    prefix: bool  # the last word is a prefix (``word*``)
    cjk_runs: tuple[str, ...]  # runs of CJK characters
    stop: bool  # every word is a stopword


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """Optional words (OR-ed), required phrases and exclusions, and the positive terms
    as written (for snippets and highlighting). Stopwords are already dropped."""

    words: tuple[QueryTerm, ...]
    phrases: tuple[QueryTerm, ...]
    excluded: tuple[QueryTerm, ...]
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
def parse_query(query: str) -> ParsedQuery:
    """Parse user search text (see the module docstring).

    Raises :class:`ValidationError` when nothing searchable is left: empty input,
    punctuation only, or exclusions only. Pure, so cached: one query parses once
    although BM25, fusion and snippets all ask for it.
    """
    words: list[QueryTerm] = []
    phrases: list[QueryTerm] = []
    excluded: list[QueryTerm] = []
    seen: set[tuple[str, bool, bool, tuple[str, ...], bool, tuple[str, ...]]] = set()
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
        key = (term.display.casefold(), negated, quoted, term.words, term.prefix, term.cjk_runs)
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

    terms = tuple(dict.fromkeys(t.display for t in (*phrases, *words)))
    return ParsedQuery(words=tuple(words), phrases=tuple(phrases), excluded=tuple(excluded), terms=terms)


def _term(raw: str, *, prefix: bool, quoted: bool) -> QueryTerm | None:
    """Split one clause into words and CJK runs; None if nothing searchable."""
    cjk_runs = _CJK_RUN.findall(raw) if has_cjk(raw) else []
    latin = _CJK_RUN.sub(" ", raw) if cjk_runs else raw
    words = _WORD.findall(latin)
    if not words and not cjk_runs:
        return None
    # A trailing '*' makes the last word a prefix (not after a CJK run).
    prefix = bool(words) and prefix and not cjk_runs and latin.rstrip().endswith("*")
    display = raw.strip() if quoted else raw
    stop = not cjk_runs and all(w.casefold() in STOPWORDS for w in words)
    return QueryTerm(display=display, words=tuple(words), prefix=prefix, cjk_runs=tuple(cjk_runs), stop=stop)
