"""Parse a user's search text into a backend-neutral query (:class:`ParsedQuery`).

A store compiles the parsed query into its own dialect (SQLite: FTS5 MATCH expressions,
:mod:`cairn.store.sqlite.fts`). Words are split as unicode61 splits them; runs of
Han/Kana/Hangul are kept apart, because they are searched as :func:`~cairn.text.cjk.cjk_bigrams` (a
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
from cairn.text.cjk import CJK_RUN, has_cjk
from cairn.text.stopwords import QUERY_STOPWORDS
from cairn.text.tokens import WORD

__all__ = ["MAX_TERMS", "ParsedQuery", "QueryTerm", "parse_query"]

#: At most this many clauses (words, phrases, exclusions) are used; the rest of a very
#: long query is ignored rather than rejected, so pasted paragraphs still search.
MAX_TERMS = 64

# A clause: an optionally negated quoted phrase (an unclosed quote runs to the end),
# or a run of anything that is not whitespace or a quote.
_CLAUSE = re.compile(r'(-?)"([^"]*)"?|[^\s"]+')



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
    cjk_runs = CJK_RUN.findall(raw) if has_cjk(raw) else []
    latin = CJK_RUN.sub(" ", raw) if cjk_runs else raw
    words = WORD.findall(latin)
    if not words and not cjk_runs:
        return None
    # A trailing '*' makes the last word a prefix (not after a CJK run).
    prefix = bool(words) and prefix and not cjk_runs and latin.rstrip().endswith("*")
    display = raw.strip() if quoted else raw
    stop = not cjk_runs and all(w.casefold() in QUERY_STOPWORDS for w in words)
    return QueryTerm(display=display, words=tuple(words), prefix=prefix, cjk_runs=tuple(cjk_runs), stop=stop)
