"""A Chinese claim that keeps a sentence's topic and one later clause, the clauses
between left out (issue 12, session 18c); the same of a Japanese or Korean sentence
after an edition or agent clause (session 19c, :func:`ja_ko_topic_clause_readings`).

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

from cairn.answer.cjk_forms import _HANGUL, _KANA

__all__ = ["ja_ko_topic_clause_readings", "topic_clause_readings"]

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


# ------------------------------------------------------------ Japanese and Korean (19c)

_JA_KO_SENTENCE_RE = re.compile(r"[^。.!?！？\n]+[。.!?！？]?")
#: An edition named right after the topic: "本規則は第6版であり、", "이 규정은 제3판으로 ".
_EDITION_LEAD_RE = re.compile(
    r"^(?:第[\d一二三四五六七八九十]+版(?:であり|で)、|제\d+판(?:으로|이며|이고),?\s+)"
)
#: A left-out clause that could restrict what is kept: a condition, exception, limit,
#: negation, modality, alternative or frequency (Japanese and Korean).
_JA_KO_RESTRICTING_RE = re.compile(
    r"場合|際|とき|限り|なら|[ればけ]ば|たら|ても|以外|除|のみ|だけ|しか|ない|ず|ません|なく|"
    r"可能|でき|べき|必要|予定|見込|はず|または|又は|もしくは|以上|以下|未満|以内|超|まで|ごと|毎|"
    r"면|경우|때|제외|외에|않|없|못|수 있|야 |이상|이하|이내|미만|초과|까지|마다|매\S|또는|예정|만 "
)
#: A left-out clause is a tenseless predicate of the topic: "…承認し", "…시행하며".
_JA_KO_CONTINUATIVE_RE = re.compile(r"(?:[\u4e00-\u9fff]し|であり|(?:하|되|이)(?:며|고))$")
#: A kept clause that refers back or opens a proviso.
_JA_KO_REFERS_BACK_RE = re.compile(r"^(?:ただし|但し|なお|その|この|同|それ|다만|단 |그 |또한|이에)")


def ja_ko_topic_clause_readings(claim_text: str, evidence_text: str) -> list[tuple[str, str]]:
    """(claim, evidence sentence read as its topic + a later clause) for a Japanese or
    Korean claim: "本案内は第8版で、…が承認し、2027年4月1日から適用する" read as
    "本案内は2027年4月1日から適用する". What is left out is an edition named right after
    the topic and whole clauses closed by a tenseless predicate of the topic (…し、,
    …하며,), none holding a word that could restrict what is kept; the kept clauses have
    no topic of their own and do not refer back."""
    claim = claim_text.strip()
    ko = bool(_HANGUL.search(claim))
    if not ko and not _KANA.search(claim):
        return []
    mark, comma = (", ", ", ") if ko else ("、", "、")
    out: list[tuple[str, str]] = []
    for m in _JA_KO_SENTENCE_RE.finditer(evidence_text):
        sentence = m.group().strip()
        topic = _ja_ko_topic(claim, sentence, ko)
        if topic is None:
            continue
        rest = sentence[len(topic):]
        edition = _EDITION_LEAD_RE.match(rest)
        if edition:
            rest = rest[edition.end():]
        clauses = rest.split(mark)
        for j in range(len(clauses)):
            dropped = clauses[:j]
            kept = comma.join(clauses[j:])
            if any(_JA_KO_RESTRICTING_RE.search(d) or not _JA_KO_CONTINUATIVE_RE.search(d) for d in dropped):
                break
            first_kept = clauses[j]
            if _JA_KO_REFERS_BACK_RE.match(kept) or _own_topic(first_kept, ko):
                continue
            reading = topic + kept
            if reading != sentence and (j or edition):
                out.append((claim_text, reading))
    return out


def _ja_ko_topic(claim: str, sentence: str, ko: bool) -> str | None:
    """The topic the claim and the sentence share at their start ("本案内は", "이 규정은 "),
    two characters or more before its particle, no digit; None when there is none."""
    n = 0
    while n < min(len(claim), len(sentence)) and claim[n] == sentence[n]:
        n += 1
    start = sentence[:n]
    found = list(re.finditer(r"[은는] " if ko else r"は(?!、)", start))
    if not found:
        return None
    topic = start[: found[-1].end()]
    if len(topic.strip()) < 3 or re.search(r"\d", topic) or _JA_KO_RESTRICTING_RE.search(topic):
        return None
    return topic


def _own_topic(clause: str, ko: bool) -> bool:
    return bool(re.search(r"[가-힣](?:은|는) ", clause) if ko else "は" in clause)
