"""Parse a user's search text into a backend-neutral query (:class:`ParsedQuery`).

A store compiles the parsed query into its own dialect (SQLite: FTS5 MATCH expressions,
:mod:`cairn.store.sqlite.fts`). Words are split as unicode61 splits them; runs of
Han/Kana/Hangul are kept apart, because they are searched by their parts (the SQLite
store: :func:`~cairn.text.cjk.cjk_bigrams`; a word tokenizer would make a whole CJK run
one giant token).

Query language, deliberately small, in two modes. ``strict=True`` is ``search`` (the
operators a person types on purpose); ``strict=False`` is the lexical side of ``query``
(natural language, often pasted: nothing in it can filter).

* plain words are OR-ed, and BM25 ranks (long natural-language questions must still
  match); English stopwords are dropped unless nothing else is left;
* a CJK run typed without spaces (``如何解压缩文件``) is not one word: it is ranked by its
  parts, OR-ed like plain words (it takes quotes to make it a phrase);
* ``"quoted phrases"``: strict, required; not strict, a boost: the phrase's words are
  OR-ed with the other words and the whole phrase is one more optional term, so pages with
  the phrase rank higher and pages without it still match;
* ``-word`` and ``-"a phrase"`` exclude, strict only, and only when the ``-`` starts the
  query or follows whitespace, is a single dash, and is followed by one whole word of 3 or
  more letters and digits starting with a letter (``backup -tape``; ``-word*`` too), one
  CJK run (``-北京``), or a quoted phrase. Everything else that starts with dashes is
  pasted text and its words are searched: ``--decompress``, ``-d``, ``-9``, ``-la``,
  ``-rf``, ``-rfで削除``, ``-e-mail``. Two-letter flags are words because they are far more
  common in pasted commands than two-letter words are in exclusions (measured on
  ``bench/cjk``'s tune split, bench/RESULTS.md). Not strict, a would-be exclusion is
  searched as words (``-"a phrase"`` as a boost);
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

#: An exclusion's word has at least this many letters and digits (``-la``, ``-rf`` are
#: pasted flags, not exclusions).
MIN_EXCLUDED_CHARS = 3

# A clause: an optionally negated quoted phrase (an unclosed quote runs to the end),
# or a run of anything that is not whitespace or a quote.
_CLAUSE = re.compile(r'(-?)"([^"]*)"?|[^\s"]+')
# What may follow the single dash of an exclusion: one word starting with a letter
# (optionally a prefix ``*``), or one CJK run.
_EXCLUDED_WORD = re.compile(r"[^\W\d_][^\W_]*\*?")
_CJK_SPLIT = re.compile(f"({CJK_RUN.pattern})")


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
    """Optional words (OR-ed), required phrases, optional phrases (``boosts``) and
    exclusions, and the positive terms as written (for snippets and highlighting).
    Stopwords are already dropped.

    Each CJK run of a *word* is matched by its parts, OR-ed (a backend chooses the parts:
    bigrams for SQLite); each CJK run of a phrase or boost, as a whole."""

    words: tuple[QueryTerm, ...]
    phrases: tuple[QueryTerm, ...]
    excluded: tuple[QueryTerm, ...]
    terms: tuple[str, ...]
    boosts: tuple[QueryTerm, ...] = ()


@functools.lru_cache(maxsize=256)
def parse_query(query: str, *, strict: bool = True) -> ParsedQuery:
    """Parse user search text (see the module docstring): ``strict`` for ``search``,
    not strict for the lexical side of the natural-language ``query``.

    Raises :class:`ValidationError` when nothing searchable is left: empty input,
    punctuation only, or (strict) exclusions only. Pure, so cached: one query parses once
    although BM25, fusion and snippets all ask for it.
    """
    words: list[QueryTerm] = []
    phrases: list[QueryTerm] = []
    boosts: list[QueryTerm] = []
    excluded: list[QueryTerm] = []
    seen: set[tuple[str, str, tuple[str, ...], bool, tuple[str, ...]]] = set()
    clauses = 0

    def add(kind: str, term: QueryTerm) -> None:
        nonlocal clauses
        key = (kind, term.display.casefold(), term.words, term.prefix, term.cjk_runs)
        if key in seen:
            return
        seen.add(key)
        clauses += 1
        {"word": words, "phrase": phrases, "boost": boosts, "excluded": excluded}[kind].append(term)

    for examined, m in enumerate(_CLAUSE.finditer(query)):
        # Bound the work on pasted or repetitive text as well as the output.
        if clauses >= MAX_TERMS or examined >= 8 * MAX_TERMS:
            break
        at_start = m.start() == 0 or query[m.start() - 1].isspace()
        if m.group(2) is not None:  # quoted
            term = _term(m.group(2), prefix=False, quoted=True)
            if term is None:
                continue
            negated = bool(m.group(1)) and at_start
            if strict:
                add("excluded" if negated else "phrase", term)
                continue
            # Not strict: the phrase's words are OR-ed, the phrase is a boost.
            for token in m.group(2).split():
                for word in _word_terms(token):
                    add("word", word)
            if len(term.words) + sum(len(r) for r in term.cjk_runs) > 1:
                add("boost", term)
            continue
        raw = m.group()
        negated = strict and at_start and _is_exclusion(raw)
        if raw.startswith("-"):
            raw = raw.lstrip("-")
        if negated:
            if (term := _term(raw, prefix=raw.endswith("*"), quoted=False)) is not None:
                add("excluded", term)
            continue
        for word in _word_terms(raw):
            add("word", word)

    if not words and not phrases and not boosts:
        if excluded:
            raise ValidationError("query has only exclusions; add a word to search for")
        raise ValidationError("query has no searchable terms")

    # Drop stopwords from the OR set, unless nothing else would be left to search.
    content = [w for w in words if not w.stop]
    if content or phrases or boosts:
        words = content

    terms = tuple(dict.fromkeys(t.display for t in (*phrases, *boosts, *words)))
    return ParsedQuery(words=tuple(words), phrases=tuple(phrases), excluded=tuple(excluded), terms=terms,
                       boosts=tuple(boosts))


def _is_exclusion(token: str) -> bool:
    """A single ``-`` followed by one whole word of MIN_EXCLUDED_CHARS+ letters and digits
    starting with a letter, or by one CJK run (the token starts the query or follows
    whitespace: the caller checks)."""
    if not token.startswith("-") or token.startswith("--"):
        return False
    rest = token[1:]
    if CJK_RUN.fullmatch(rest.removesuffix("*")):
        return True
    return (_EXCLUDED_WORD.fullmatch(rest) is not None and not has_cjk(rest)
            and len(rest.removesuffix("*")) >= MIN_EXCLUDED_CHARS)


def _word_terms(raw: str) -> list[QueryTerm]:
    """The plain words of an unquoted token: the Latin pieces between CJK runs are words
    of their own (``curlでPOST`` is ``curl``, ``で``, ``POST``, not the phrase "curl POST")."""
    pieces = [p for p in _CJK_SPLIT.split(raw) if p] if has_cjk(raw) else [raw]
    terms = (_term(p, prefix=i == len(pieces) - 1 and p.endswith("*"), quoted=False) for i, p in enumerate(pieces))
    return [t for t in terms if t is not None]


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
