"""English stemmers: the one the index uses, and two light ones tuned to their readers.

* :func:`porter_stem` is the Porter stemmer, as the ``porter`` tokenizer of the FTS5
  index applies it (Snowball's ``porter`` algorithm, from the maintained
  ``snowballstemmer`` package). Python code that must agree with what BM25 matched uses
  this one.
* :func:`light_stem` is claim verification's stemmer: inflections and a few
  derivations ("decreases", "decreased" -> "decreas"), with a final "e" and a doubled
  consonant dropped. Its exact outputs are part of the verifier's tuning (its
  verdicts are measured on ``bench/eval_verify.py``), so it is kept as written.
* :func:`inflection_stem` is capsule facet matching's: plurals and "-ing"/"-ed" only,
  so a facet matches its own inflected forms and little else.

``bench/stem_compare.py`` measures how far each differs from FTS5's Porter on a word list.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["inflection_stem", "light_stem", "porter_stem"]

# FTS5's porter tokenizer leaves tokens shorter than 3 or longer than 64 bytes as they
# are (fts5_tokenize.c, FTS5_PORTER_MAX_TOKEN).
_PORTER_MIN = 3
_PORTER_MAX = 64


@functools.cache
def _porter() -> Any:
    # Imported on first use: the package loads every language's stemmer (~60 ms).
    import snowballstemmer

    return snowballstemmer.stemmer("porter")


@functools.lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """The Porter stem of one lower-cased unicode61 token, as the FTS5 ``porter``
    tokenizer computes it ("running" -> "run", "connections" -> "connect").

    Known differences from FTS5 (16 of 722,563 distinct tokens of Python sources and
    docs, none of 20,073 tldr and example tokens; ``bench/stem_compare.py``): a double
    c, h, j, k, q, v, w, x or digit left by "-ed"/"-ing" stays double here ("specced" ->
    "specc", FTS5 "spec"); FTS5 counts non-ASCII letters as bytes ("straße" -> FTS5
    "straß"); and a bare suffix ("eed", "ies", "sses") stems differently.
    """
    if not _PORTER_MIN <= len(word.encode()) <= _PORTER_MAX:
        return word
    stem: str = _porter().stemWord(word)
    # FTS5 follows Porter's own C implementation, which departs from the published
    # algorithm (Snowball's "porter") in step 2: "-bli" -> "-ble" where the paper has
    # "-abli" -> "-able", and an added "-logi" -> "-log" ("assembly" -> "assembl",
    # "technology" -> "technolog"). A stem Snowball leaves ending so reached step 2 with
    # that ending, and steps 3-5 change neither; re-stemming the departed form runs them.
    if stem.endswith("bli") and _measure_positive(stem[:-3]):
        stem = _porter().stemWord(stem[:-1] + "e")
    elif stem.endswith("logi") and _measure_positive(stem[:-4]):
        stem = stem[:-1]
    return stem


def _measure_positive(stem: str) -> bool:
    """Porter's m > 0: ``stem`` has a vowel followed by a consonant ("y" is a vowel
    after a consonant, a consonant at the start or after a vowel)."""
    seen_vowel = False
    previous_vowel = True  # so that a leading "y" is a consonant
    for ch in stem:
        vowel = ch in "aeiou" or (ch == "y" and not previous_vowel)
        if vowel:
            seen_vowel = True
        elif seen_vowel:
            return True
        previous_vowel = vowel
    return False


# Words whose base form ends in "eed" ("need", "exceed"): their "ed" is no suffix. A
# word ending in one of the compound-safe bases ("airspeed", "misdeed", "overfeed")
# counts too; "reed", "creed" and "greed" only alone, as "agreed", "decreed" and
# "refereed" end the same way. Every other "-eed" is a verb in "-ee" plus "d".
_EED_BASES = ("ceed", "need", "speed", "seed", "feed", "bleed", "breed", "weed", "deed",
              "heed", "steed", "tweed")  # fmt: skip
_EED_WORDS = frozenset({"reed", "creed", "greed"})
# Verbs in "-ply" whose "ly" is no adverb suffix: kept whole, as "applied" and "applies"
# reduce to "apply" (before, "apply" lost its "ly" to "app"). A list, not a rule:
# "simply", "deeply" and "cheaply" end the same way and are adverbs.
_PLY_VERBS = frozenset({"apply", "reapply", "supply", "resupply", "reply", "comply",
                        "imply", "multiply"})  # fmt: skip


def _eed_base(w: str) -> bool:
    """Whether ``w`` (lower-cased, ending in "eed") is a base word, not "-ee" + "d"."""
    return w in _EED_WORDS or w.endswith(_EED_BASES)


def light_stem(word: str) -> str:
    """A light, deterministic suffix stripper ("decreases", "decreased" -> "decreas").

    A base word in "-eed" keeps its form ("need", "needs", "needed" -> "need"; before,
    "need" lost its "ed" to "nee"); a "-ee" verb's "-eed" reduces like its base
    ("agreed" -> "agre", as "agree"); a verb in "-ply" keeps its "ly" ("apply",
    "applied" -> "apply").
    """
    w = word.lower()
    if len(w) <= 3 or w in _PLY_VERBS:
        return w
    if w.endswith("eed"):
        if _eed_base(w):
            return w
        w = w[:-1]  # "agreed" -> "agree", stemmed below as "agree" is
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


def inflection_stem(word: str) -> str:
    """A deliberately small English suffix stripper: enough to match plural/verb forms
    ("libraries" -> "library", "indexing" -> "index"); expects a lower-cased word."""
    for suffix, repl in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("es", ""),
        ("ed", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + repl
    return word
