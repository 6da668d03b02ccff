"""A Chinese claim that keeps a sentence's topic and one later clause, the clauses
between left out (issue 12, session 18c).

A Chinese sentence often states several facts of one topic in comma clauses:
"本规定由行政部经理刘静起草，经总经理王建国批准，自2027年1月1日起施行" says who drafted
the regulation, who approved it and when it takes effect. "本规定自2027年1月1日起施行"
states the last fact of the same topic. The reading here gives the evidence sentence as
the topic followed by that later clause ("本规定" + "自2027年1月1日起施行"), and the claim is
then accounted against it as written (:mod:`cairn.answer.account`), so every character
of the claim must still be found in that order.

What is left out is never a condition, exception, scope, negation, modality, quantity
or frequency of what is kept: a left-out part is refused when it holds a character or
word that could make it one (如/若/凡/除/外/否/须/应/必/可/得/仅/只/不/未/无/非/勿/禁/
每/后/前/时/内/至/以上/以下/最/约 …, "respectively" 分别, a time or number range), and the kept
clause must not open with a word that refers back to it (则, 才, 方, 否则, 因此, 所以, 但,
而, 即, 同时). The topic is what the claim and the sentence share at their start, two
characters or more with none of those characters and no digit, ending right before the
first left-out part; the left-out rest of the first clause and the kept clause are
predicates of it, each opening with a copula, an agent, a time or a place word (为, 是,
由, 经, 于, 自, 在, 从, 将), so a clause with a subject of its own is never read as the
topic's. Only Chinese text (no kana or Hangul), and only comma clauses of one sentence.
"""

from __future__ import annotations

import re

__all__ = ["topic_clause_readings"]

_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
_SENTENCE_RE = re.compile(r"[^。！？\n]+[。！？]?")
#: Characters and words that may make a left-out part restrict what is kept.
_RESTRICTING_RE = re.compile(
    r"[如若凡除外否须应必可得仅只不未无非勿禁每后前时内至及或和与但则才方即均都也还再另另最约共超满逾]"
    r"|以上|以下|分别|[~～\-–—]|\d+\s*[%％]"
)
#: A predicate of the topic opens with a copula, an agent, a time or a place word (为第3版,
#: 由…起草, 经…批准, 于…发布, 自…起施行): a clause with a subject of its own does not.
_PREDICATE_RE = re.compile(r"^(?:为|是|由|经|于|自|在|从|将)")
#: A kept clause that opens with a word referring back to the left-out part.
_REFERS_BACK_RE = re.compile(r"^(?:则|才|方|否则|因此|所以|但|而|即|同时|此外|其中|并且|其|该|此)")


def topic_clause_readings(claim_text: str, evidence_text: str) -> list[tuple[str, str]]:
    """(claim, evidence sentence read as its topic + a later clause) for each later clause
    the claim may state; empty when nothing is so read."""
    claim = claim_text.strip()
    if "，" not in evidence_text or _KANA_HANGUL.search(claim + evidence_text):
        return []
    out: list[tuple[str, str]] = []
    for m in _SENTENCE_RE.finditer(evidence_text):
        sentence = m.group().strip()
        clauses = sentence.split("，")
        if len(clauses) < 2:
            continue
        first = clauses[0]
        topic = _shared_start(claim, first)
        if len(topic) < 2 or _RESTRICTING_RE.search(topic) or re.search(r"\d", topic):
            continue
        if not _PREDICATE_RE.match(first[len(topic):]):
            continue
        dropped = [first[len(topic):]]
        for j in range(1, len(clauses)):
            kept = "，".join(clauses[j:])
            if (
                _PREDICATE_RE.match(kept)
                and not _REFERS_BACK_RE.match(kept)
                and not any(_RESTRICTING_RE.search(d) for d in dropped)
            ):
                reading = topic + kept
                if reading != sentence:
                    out.append((claim_text, reading))
            dropped.append(clauses[j])
    return out


def _shared_start(claim: str, first: str) -> str:
    """The start the claim shares with the sentence's first clause, cut back so that it
    does not end inside an agent or copula phrase (由…, 经…, 为…, 是…)."""
    n = 0
    while n < min(len(claim), len(first)) and claim[n] == first[n]:
        n += 1
    start = first[:n]
    cut = re.search(r"[由经为是于在对向将把被]", start)
    return start[: cut.start()] if cut else start
