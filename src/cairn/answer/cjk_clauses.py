"""A CJK clause joined to the next one by a continuative form, read as a clause of its
own with the sentence's final tense (issue 12, session 9).

Japanese and Korean join two clauses by a tenseless form of the first predicate:
"本館は10時に開館し、別館は11時に開館します" (開館し = "opens, and"), "利用料は1回500円で、
月額上限は5,000円です", "이 규정은 3월 1일부터 시행하며, 제2판을 대체한다", "이용료는 500원이며,
월 상한은 5,000원이다". The first clause takes the tense of the sentence's final
predicate, so "本館は10時に開館します" and "이 규정은 3월 1일부터 시행한다" state what it
states, and the two clauses may come in either order (each keeps its subject and values).

Only where that is exact:

* the final predicate is a plain statement, present or past, of a Sino-Japanese/Korean
  verb or the copula (開館する, 承認した, だ, 시행하다, 대체했다, 이다, 부과되다): never a
  request (ください), a modal (なければならない, 해야 하다, できる, 수 있다) or a negation,
  whose force might reach back over the first clause;
* after Japanese "し、" and Korean "이고," the second clause has a subject or topic of its
  own (は/が, 은/는/이/가), so two acts of one subject in sequence ("確認し、提出した") stay
  one clause, as Korean "-하고" does (:func:`cairn.answer.cjk_forms._ko_clauses`); Korean
  "-며" lists rather than sequences, and needs none;
* the Japanese "で、" continuative only after a number with its counter ("500円で、",
  "第6版で、"), where it cannot be the particle of place or means ("会議室で、").

Applied to claim and evidence alike, after their endings are in the plain form
(:func:`cairn.answer.cjk_forms.canonical_cjk`).
"""

from __future__ import annotations

import re

__all__ = ["JA_FINAL_RE", "JA_THRESHOLD", "continuative_clauses"]

_SENTENCE_RE = re.compile(r"[^。.!?！？]+[。.!?！？]?")

#: Japanese final predicates (plain form) that carry only a tense.
JA_FINAL_RE = re.compile(r"(?:[\u4e00-\u9fff](する|した)|(だ|だった))[。．]?\s*$")
_JA_SURU_RE = re.compile(r"(?<=[\u4e00-\u9fff])し、(?=[^、。]*?[はが])")
#: Session 19c: not after a threshold (5,000円以上で、 is the condition of the next clause).
JA_THRESHOLD = r"(?!以上|以下|未満|以内|超|以降|以前|まで|から|ごと|毎|あたり|当たり)"
_JA_DE_RE = re.compile(rf"(\d(?:{JA_THRESHOLD}[^\s\d、。，]){{0,3}})で、(?=[^、。]*?[はが])")

#: Korean final predicates (plain form) that carry only a tense: a noun + 하다/되다, the copula.
_KO_FINAL_RE = re.compile(r"[가-힣](하다|했다|되다|됐다|이다|이었다|였다)\.?\s*$")
_KO_CLAUSE_RE = re.compile(r"(?<=[가-힣])(?:(하며|되며|이며)|(이고)(?=, [^,.]*?[가-힣](?:은|는|이|가) )),")
#: Session 18c: "있으며,"/"없으며," before a clause with a topic or subject of its own.
_KO_EXIST_RE = re.compile(r"(?<=[\s가-힣])(있|없)으며,(?! (?:다만|단|단지|그러나|하지만)[\s,])(?= [^,.]*?[가-힣](?:은|는|이|가) )")
_KO_PAST_END_RE = re.compile(r"(?:었|았|였|했|됐)다\.?\s*$")
_KO_PAST = frozenset(["했다", "됐다", "이었다", "였다"])


def continuative_clauses(text: str) -> str:
    """``text`` with each continuative first clause that :mod:`this module
    <cairn.answer.cjk_clauses>` reads as a clause of its own given the final tense."""
    if "、" not in text and "," not in text:
        return text
    return "".join(_sentence(m.group()) for m in _SENTENCE_RE.finditer(text))


def _sentence(s: str) -> str:
    ja = JA_FINAL_RE.search(s)
    if ja:
        past = (ja.group(1) or ja.group(2)) in ("した", "だった")
        s = _JA_SURU_RE.sub("した，" if past else "する，", s)
        return _JA_DE_RE.sub(r"\1だった，" if past else r"\1だ，", s)
    if "으며," in s and not _KO_PAST_END_RE.search(s):
        # Session 18c: "할 수 있으며, 수수료는 없다": an existence or possibility first
        # clause, the second with its own topic, in a present sentence.
        s = _KO_EXIST_RE.sub(r"\1다,", s)
    ko = _KO_FINAL_RE.search(s)
    if ko and not re.search(r"\s하다\.?\s*$", s):
        past = ko.group(1) in _KO_PAST

        def clause(m: re.Match[str]) -> str:
            form = m.group(1) or m.group(2)
            if form in ("이며", "이고"):
                return ("이었다" if past else "이다") + ","
            return {"하며": "했다" if past else "하다", "되며": "됐다" if past else "되다"}[form] + ","

        return _KO_CLAUSE_RE.sub(clause, s)
    return s

