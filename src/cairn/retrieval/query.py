"""Turn a user's search text into safe SQLite FTS5 MATCH expressions.

The index has two FTS5 tables: the main one (``porter unicode61 remove_diacritics 2``)
and a CJK one whose single column holds :func:`~cairn.text.cjk.cjk_bigrams` of the
passage, because unicode61 would make a whole run of Han/Kana/Hangul one giant token.

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
from cairn.text.cjk import CJK_RUN, cjk_bigrams, has_cjk
from cairn.text.stopwords import QUERY_STOPWORDS
from cairn.text.tokens import WORD

__all__ = ["MAX_TERMS", "CompiledQuery", "compile_query"]

#: At most this many clauses (words, phrases, exclusions) are used; the rest of a very
#: long query is ignored rather than rejected, so pasted paragraphs still search.
MAX_TERMS = 64

# A clause: an optionally negated quoted phrase (an unclosed quote runs to the end),
# or a run of anything that is not whitespace or a quote.
_CLAUSE = re.compile(r'(-?)"([^"]*)"?|[^\s"]+')

@dataclass(frozen=True, slots=True)
class CompiledQuery:
    """MATCH expressions for the main and CJK tables, and the positive terms."""

    main: str | None
    cjk: str | None
    terms: tuple[str, ...]


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
    cjk_runs = CJK_RUN.findall(raw) if has_cjk(raw) else []
    latin = CJK_RUN.sub(" ", raw) if cjk_runs else raw
    words = WORD.findall(latin)
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
    stop = not cjk_runs and all(w.casefold() in QUERY_STOPWORDS for w in words)
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
