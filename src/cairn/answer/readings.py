"""Other readings of a claim and its evidence unit that state the same (issue 12, session 8).

:func:`cairn.answer.account.account` accounts the claim as written first; when that
fails, it tries each reading here: the universal subject said another way
(:mod:`cairn.answer.universals`: "All lines" = "Every line" = "Lines" in a rule) and
amounts in cents in the evidence's currency (:mod:`cairn.answer.subunits`), and two
semicolon clauses in the other order or joined by ", while"/", but" in the claim
(:mod:`cairn.answer.clause_order`), and a pronoun
of a second conjunct read as its parallel noun phrase (:mod:`cairn.answer.pronouns`), and
a final "if they are ..." read as the subject's restriction (:mod:`cairn.answer.restrictors`),
a subject "No X may ..." read as "A X must not ..." (:mod:`cairn.answer.negative_subjects`),
and a fronted phrase of time or place read at the end (:mod:`cairn.answer.fronted`),
a condition clause read at the other end of its sentence (:mod:`cairn.answer.conditions`),
two coordinated phrases in the evidence's order (:mod:`cairn.answer.conjuncts`),
a present perfect, a conjunct's pronoun or a worded range the evidence says without
(:mod:`cairn.answer.restatements`), and a Chinese attributive "的" the evidence leaves out or an edition named by a copula
clause of its own or a Japanese first clause "…し、" as a sentence of its own or a
Chinese "，并" the evidence writes as "，" (:mod:`cairn.answer.cjk_readings`), and a
Japanese request of the evidence read as the rule it states (:mod:`cairn.answer.cjk_restated`),
and a Korean genitive 의, a Chinese copula 为/是 or time 在, a Japanese directive こと/てください
one side leaves out or says another way (:mod:`cairn.answer.cjk_particles`), and a
Chinese claim's "但"/"也" between clauses the evidence states without
(:mod:`cairn.answer.cjk_connectives`), and a Chinese sentence's topic with one later
clause, the clauses between left out, and the same of a Japanese or Korean sentence after an
edition or agent clause (:mod:`cairn.answer.cjk_topic_clauses`), and a weekday in
parentheses after a CJK date the claim leaves out (:mod:`cairn.answer.cjk_weekdays`).
A reading is a group of (claim, evidence) pairs, every one of which must be accounted.
"""

from __future__ import annotations

from cairn.answer.articles import one_reading
from cairn.answer.cjk_connectives import connective_reading
from cairn.answer.cjk_particles import particle_readings
from cairn.answer.cjk_readings import (
    attributive_reading,
    comma_and_reading,
    continuative_reading,
    edition_reading,
)
from cairn.answer.cjk_restated import request_reading
from cairn.answer.cjk_topic_clauses import ja_ko_topic_clause_readings, topic_clause_readings
from cairn.answer.cjk_weekdays import weekday_reading
from cairn.answer.clause_order import contrast_clauses, swapped_clauses
from cairn.answer.conditions import condition_reading
from cairn.answer.conjuncts import swapped_conjuncts
from cairn.answer.fronted import fronted_reading
from cairn.answer.negative_subjects import negative_subject_readings
from cairn.answer.pronouns import parallel_reading
from cairn.answer.restatements import inverted_negative_reading, restated_reading
from cairn.answer.restrictors import restrictor_readings
from cairn.answer.subunits import cents_reading
from cairn.answer.universals import universal_readings

__all__ = ["equivalent_readings"]


def equivalent_readings(claim_text: str, evidence_text: str, *, table: bool) -> list[list[tuple[str, str]]]:
    """Groups of (claim, evidence) pairs to account in turn; the universal and clause
    readings not for a table row (a row has no sentence subject)."""
    out = [] if table else [[pair] for pair in universal_readings(claim_text, evidence_text)]
    cents = cents_reading(claim_text, evidence_text)
    if cents is not None:
        out.append([cents])
    ones = one_reading(claim_text, evidence_text)  # "at least an hour" = "at least 1 hour"
    if ones is not None:
        out.append([ones])
    swapped = [] if table else swapped_clauses(claim_text, evidence_text)
    if swapped:
        out.append(swapped)
    out += [] if table else contrast_clauses(claim_text, evidence_text)  # "A, while B" = "B; A"
    parallel = (parallel_reading(claim_text), parallel_reading(evidence_text))
    if not table and parallel != (claim_text, evidence_text):
        out.append([parallel])
    out += [] if table else [[(claim, evidence_text)] for claim in restrictor_readings(claim_text)]
    out += [] if table else [[pair] for pair in negative_subject_readings(claim_text, evidence_text)]
    condition = None if table else condition_reading(claim_text, evidence_text)  # "S if C" = "If C, S"
    if condition is not None:
        out.append([condition])
    fronted = None if table else fronted_reading(claim_text, evidence_text)
    if fronted is not None:
        out.append([fronted])
    restated = None if table else restated_reading(claim_text, evidence_text)  # "has cleaned" = "cleaned"
    if restated is not None:
        out.append([(restated, evidence_text)])
    inverted = None if table else inverted_negative_reading(claim_text, evidence_text)  # "In no case will"
    if inverted is not None:
        out.append([(inverted, evidence_text)])
    attributive = attributive_reading(claim_text, evidence_text)  # 公司的全体 = 公司全体
    if attributive is not None:
        out.append([attributive])
    edition = edition_reading(claim_text, evidence_text)  # 本办法为第3版，自… = 本办法第3版自…
    if edition is not None:
        out.append([edition])
    comma_and = comma_and_reading(claim_text, evidence_text)  # 批准，并自… = 批准，自…
    if comma_and is not None:
        out.append([comma_and])
    continuative = continuative_reading(claim_text, evidence_text)  # 取り消し、… = 取り消す。…
    if continuative is not None:
        out.append([continuative])
    request = request_reading(claim_text, evidence_text)  # 出してください accounts 出します
    if request is not None:
        out.append([request])
    out += particle_readings(claim_text, evidence_text)  # 근로자의 동의 = 근로자 동의 (session 16b)
    connective = connective_reading(claim_text, evidence_text)  # ，但须 = ，须 (session 18c)
    if connective is not None:
        out.append([connective])
    out += [] if table else [[pair] for pair in topic_clause_readings(claim_text, evidence_text)]  # 本规定…，自…起施行
    out += [] if table else [[pair] for pair in ja_ko_topic_clause_readings(claim_text, evidence_text)]  # 19c: 本案内は…、…から適用する
    out += [] if table else [[(claim, evidence_text)] for claim in swapped_conjuncts(claim_text, evidence_text)]
    weekday = weekday_reading(claim_text, evidence_text)  # 19c: 4月16日（星期日） = 4月16日
    if weekday is not None:
        out.append([weekday])
    return out
