"""Singular and plural as one word, for the claim account (issue 12, session 7).

The account compares words by the light stem of :mod:`cairn.text.stem` (shared with the
search index, so not changed here). Two of its gaps broke number agreement, the most
common near-verbatim rewrite ("Sliced loaves may be frozen" → "A sliced loaf may be
frozen"): irregular plurals keep their own stem ("loaves" → "loav", "children",
"analyses" → "analys"), and a word ending in "-eed" loses its "ed" as if it were a past
tense ("seed" → "see", "exceed" → "exc") while its other forms do not ("seeds" → "seed",
"exceeds" → "exceed"), and so do the forms of "-ee" verbs ("agree" → "agre", "agreed" →
"agr"). Here the stem of a word is taken from its singular: irregular plurals by a
declared table (only nouns that are no verb form: "leaves" and "lives" stay as they
are); a word in "-eed" keeps "…eed" in all its forms, and a declared "-ee" verb its
infinitive.

Two more exact equivalences of the written form are read here: British and American
spellings of one word ("randomised" = "randomized", "labour" = "labor", "centre" =
"center", "cancelled" = "canceled"; by rule for "-ise"/"-ize" and by declared lists
otherwise), and contractions ("mustn't" = "must not", "can't" = "cannot"), which the
shared tokenizer reads as a bare "not".
"""

from __future__ import annotations

import re

from cairn.text.stem import light_stem

__all__ = ["expand_contractions", "word_stem"]

#: Irregular plurals whose singular the light stem does not reach (nouns only).
_IRREGULAR: dict[str, str] = {
    "loaves": "loaf", "knives": "knife", "wives": "wife", "halves": "half",
    "shelves": "shelf", "wolves": "wolf", "thieves": "thief", "calves": "calf",
    "children": "child", "men": "man", "women": "woman", "people": "person",
    "feet": "foot", "teeth": "tooth", "geese": "goose", "mice": "mouse",
    "analyses": "analysis", "crises": "crisis", "theses": "thesis", "diagnoses": "diagnosis",
    "hypotheses": "hypothesis", "bases": "basis", "axes": "axis",
    "indices": "index", "matrices": "matrix", "vertices": "vertex", "appendices": "appendix",
    "criteria": "criterion", "phenomena": "phenomenon",
}  # fmt: skip


_IZE_RE = re.compile(r"^(\w{3,})is(e|ed|es|er|ers|ing|ation|ations)$")
_OUR_RE = re.compile(
    r"^(col|fav|hon|lab|neighb|arm|rum|hum|vap|od|harb|endeav|behavi|flav|sav|parl|val|vig|rig"
    r"|clam|tum)our(s|ed|ing|able|ite|ites|ful|less|hood|ly)?$"
)
_RE_RE = re.compile(
    r"^(cent|met|lit|fib|theat|calib|somb|spect|lust|meag|kilomet|centimet|millimet|millilit"
    r"|microlit)re(s|d)?$"
)
_LL_RE = re.compile(
    r"^(cancel|travel|label|model|fuel|level|signal|total|channel|counsel|dial|equal|jewel"
    r"|marvel|panel|pedal|quarrel|rival|shovel|tunnel|funnel)l(ed|ing|er|ers)$"
)
_SPELLINGS = {
    "licence": "license", "licences": "licenses", "defence": "defense", "offence": "offense",
    "pretence": "pretense", "catalogue": "catalog", "catalogues": "catalogs",
    "dialogue": "dialog", "analogue": "analog", "programme": "program",
    "programmes": "programs", "grey": "gray", "aluminium": "aluminum", "ageing": "aging",
    "judgement": "judgment", "instalment": "installment", "instalments": "installments",
    "enrolment": "enrollment", "fulfil": "fulfill", "skilful": "skillful", "tyre": "tire",
    "tyres": "tires", "kerb": "curb", "plough": "plow", "cheque": "check",
}  # fmt: skip


def _american(norm: str) -> str:
    """The American spelling of a British one (an exact equivalence of the written form)."""
    if norm in _SPELLINGS:
        return _SPELLINGS[norm]
    if _IZE_RE.match(norm):
        return _IZE_RE.sub(r"\1iz\2", norm)
    if _OUR_RE.match(norm):
        return _OUR_RE.sub(r"\1or\2", norm)
    if _RE_RE.match(norm):
        return _RE_RE.sub(lambda m: m.group(1) + "er" + ("s" if m.group(2) == "s" else ""), norm)
    if _LL_RE.match(norm):
        return _LL_RE.sub(r"\1\2", norm)
    return norm


def word_stem(norm: str) -> str:
    """The comparison stem of the lower-case word ``norm``."""
    norm = _american(_IRREGULAR.get(norm, norm))
    m = _EE_VERB_RE.match(norm)
    if m:  # "agreed", "agrees", "agreeing" → "agree"
        return m.group(1)
    m = _EED_RE.match(norm)
    if m:  # "seed"/"seeds", "exceed"/"exceeds"/"exceeded", "needs"
        return m.group(1)
    return light_stem(norm)


_EE_VERB_RE = re.compile(
    r"^((?:dis)?agree|guarantee|free|referee|decree|oversee|foresee|flee)(?:s|d|ing)?$"
)
_EED_RE = re.compile(r"^(\w*eed)(?:s|ed|ing)?$")


_NT_RE = re.compile(r"\b([A-Za-z]+?)n[’']t\b")
_NT_IRREGULAR = {"ca": "cannot", "wo": "will not", "sha": "shall not"}


def expand_contractions(text: str) -> str:
    """``text`` with "n't" contractions written out: "mustn't" → "must not", "can't" →
    "cannot", "won't" → "will not"."""
    if "n't" not in text and "n’t" not in text:
        return text

    def full(m: re.Match[str]) -> str:
        head = m.group(1)
        return _NT_IRREGULAR.get(head.lower(), f"{head} not")

    return _NT_RE.sub(full, text)
