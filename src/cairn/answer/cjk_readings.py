"""Readings of a Chinese claim that state the same as its evidence (issue 12, session 9).

An attributive "的" between two nouns adds nothing: "适用于公司的全体正式员工" says what
"适用于公司全体正式员工" says. A claim "的" is read away only where the evidence writes the
two characters on each side of it as one run ("公司全体" for "公司的全体"), so the phrase
is the evidence's own, word for word; a "的" whose neighbours the evidence does not join
(or joins in another order, "全体公司") stays, and the claim is accounted as written.

An edition named by a copula clause of its own is the edition of what follows it:
"本办法为第3版，自2027年7月1日起施行" says "本办法第3版自2027年7月1日起施行" (and, with
the attributive 的, "本公示第2版的发布日期为..."). Only "为第N版" (or 第N次修订, 第N期)
right before "，" is so read.

A one-clause Japanese claim may state the first clause of a sentence that goes on with
"し、" and the same subject ("直前のコミットを取り消し、変更もすべて破棄する" states
"直前のコミットを取り消します"): the evidence is read with that clause as a sentence of its
own in the final tense, when the final predicate carries only a tense
(:mod:`cairn.answer.cjk_clauses`). Only for a claim of one clause, so two acts of one
subject are never put in the other order (a first clause with a subject of its own in
the second is read so for any claim, by :func:`cairn.answer.cjk_clauses.continuative_clauses`).
"""

from __future__ import annotations

import re

from cairn.answer.cjk_clauses import JA_FINAL_RE, JA_THRESHOLD
from cairn.answer.cjk_forms import canonical_cjk

__all__ = ["attributive_reading", "comma_and_reading", "continuative_reading", "edition_reading"]

_HAN = "\u4e00-\u9fff"
_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
#: "的" with two Han characters on each side (a word 目的 or 的确 keeps its "的": the
#: evidence never joins its neighbours as the claim would need).
_DE_RE = re.compile(f"(?<=[{_HAN}\\d][{_HAN}])的(?=[{_HAN}]{{2}})")  # 第2版的发布 too


def attributive_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim without each attributive "的" whose neighbours the evidence joins, evidence),
    or None when no "的" of the claim is so read (or the text is not Chinese)."""
    if "的" not in claim_text or _KANA_HANGUL.search(claim_text + evidence_text):
        return None

    def drop(m: re.Match[str]) -> str:
        s = m.string
        joined = s[m.start() - 2 : m.start()] + s[m.end() : m.end() + 2]
        return "" if joined in evidence_text else m.group()

    reading = _DE_RE.sub(drop, claim_text)
    return None if reading == claim_text else (reading, evidence_text)


_EDITION_RE = re.compile(r"(?<=[\u4e00-\u9fff])为(第[\d一二三四五六七八九十]+(?:版|次修订|期))[，,]")


def edition_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim, evidence with each "为第N版，" read as "第N版"), the claim's attributive 的
    read against that, or None when the evidence names no edition so."""
    if "为第" not in evidence_text or _KANA_HANGUL.search(claim_text + evidence_text):
        return None
    reading = _EDITION_RE.sub(r"\1", evidence_text)
    if reading == evidence_text:
        return None
    return attributive_reading(claim_text, reading) or (claim_text, reading)


_CLAUSE_MARKS = re.compile("[、，,；;]")
_JA_SHI_RE = re.compile(r"(?<=[\u4e00-\u9fff])し、")
_JA_SENTENCE_RE = re.compile(r"[^。]+。?")
#: Session 19c: a number with its counter closing a first clause with the copula "で、"
#: ("第3版で、", "1回500円で、"): where で cannot be the particle of place or means.
_JA_COUNTER_DE_RE = re.compile(rf"(\d(?:{JA_THRESHOLD}[^\s\d、。，]){{0,3}})で、")
#: A rest that may restrict the first clause: an exception, a condition, a limit, a negation.
_JA_RESTRICTING_RE = re.compile(r"ただし|但し|除|以外|場合|限り|限る|のみ|だけ|しか|ない|ず|ません|なく|できる|できま")
_JA_FIRST_RE = re.compile(rf"(?<=[\u4e00-\u9fff])し、|\d(?:{JA_THRESHOLD}[^\s\d、。，]){{0,3}}で、")


def continuative_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim, evidence with each "Xし、" of a sentence whose final predicate carries only a
    tense read as the sentence "Xする。"/"Xした。", or a first clause closed by a counter
    and "で、" read as that clause alone, "…第3版だ。"), for a Japanese claim of one clause;
    None otherwise."""
    if _CLAUSE_MARKS.search(claim_text.strip().rstrip("。")) or not _JA_FIRST_RE.search(evidence_text):
        return None
    if not re.search("[\u3041-\u30ff]", claim_text):
        return None

    def sentence(m: re.Match[str]) -> str:
        past = final_tense(m.group())
        if past is None:
            return m.group()
        de = _JA_COUNTER_DE_RE.search(m.group())
        if de and "、" not in m.group()[: de.start()] and not _JA_RESTRICTING_RE.search(m.group()[de.end() :]):
            # Session 19c: only the first clause is kept, so the rest is never read
            # without it (a first clause "5,000円以上で、" is the condition of the rest).
            return m.group()[: de.start()] + de.group(1) + ("だった。" if past else "だ。")
        return _JA_SHI_RE.sub("した。" if past else "する。", m.group())

    reading = _JA_SENTENCE_RE.sub(sentence, evidence_text)
    return None if reading == evidence_text else (claim_text, reading)


def final_tense(sentence: str) -> bool | None:
    """Whether a Japanese sentence's final predicate is past (True) or present (False),
    when it carries only a tense (:data:`cairn.answer.cjk_clauses.JA_FINAL_RE`); None
    otherwise."""
    m = JA_FINAL_RE.search(canonical_cjk(sentence))
    return None if m is None else (m.group(1) or m.group(2)) in ("した", "だった")


#: Not 并不/并非/并没 (emphatic negation) but 并不得 ("and must not").
_COMMA_AND_RE = re.compile(r"(?<=[，,])\s?并(?!不(?!得)|[非没未无且列行存重入购发用称排])(?=[\u4e00-\u9fff])")


def comma_and_reading(claim_text: str, evidence_text: str) -> tuple[str, str] | None:
    """(claim with each "，并" read as "，", evidence), for a Chinese claim whose evidence
    has no "并"; None otherwise."""
    if "并" not in claim_text or "并" in evidence_text or _KANA_HANGUL.search(claim_text + evidence_text):
        return None
    reading = _COMMA_AND_RE.sub("", claim_text)
    return None if reading == claim_text else (reading, evidence_text)
