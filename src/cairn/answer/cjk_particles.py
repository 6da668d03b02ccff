"""Particles and predicate forms a CJK claim may add or leave out (issue 12, session 16b).

Each is a reading of :mod:`cairn.answer.readings`: the claim and its evidence unit are
accounted again with one side rewritten, and only where the other side writes the
joined form character for character, so the phrase read is the evidence's own.

* Korean genitive 의 between two nouns is optional (근로자의 동의 = 근로자 동의): a claim's
  "X의 Y" is read "X Y" when the evidence writes "X Y", and the evidence's "X의 Y" is read
  "X Y" when the claim writes "X Y" (X of two syllables or more, so 회의/동의/주의, words
  ending in 의, are never cut).
* Chinese copula 为 (written) is 是 (物业办公时间是每天 = 物业办公时间为每天), only with the
  evidence's characters on both sides; and 在 before a time word is optional (校车在周一至
  周五运行 = 校车周一至周五运行: a time noun is an adverbial of its own), only before a
  weekday, a part of the day, 每, a kind of day or a digit, with the evidence's characters on
  both sides. The Chinese attributive 的 (:func:`cairn.answer.cjk_readings.attributive_reading`)
  is read away first, so a claim with both is read once.
* Two Chinese clauses each naming its agent with 由/经 in the other order (本须知经校长批准，
  由处长起草 = 本须知由处长起草，经校长批准); a Japanese regulation's "…は N とする" is
  "…は N です" (no object を in the clause).
* Japanese written directive "Vること。" is the request "Vてください。" (both instruct the
  reader to do V): the evidence's "Vること" is read as the claim's "V'てください" when V' is
  the te-form of V (歩く → 歩いて, 押す → 押して, 入れる → 入れて; a verb in る may be
  either class, so both te-forms are tried). A negative request (ないでください), a
  permission (てもよい) or another verb is never so read.
"""

from __future__ import annotations

import re

from cairn.answer.cjk_readings import attributive_reading

__all__ = ["particle_readings"]

_HANGUL = "\uac00-\ud7a3"
_KANA = re.compile("[\u3041-\u30ff]")
_HAN_ONLY = re.compile(f"[\u3041-\u30ff{_HANGUL}]")

#: Korean "X의 Y": a word of two syllables or more, 의, a space, the next word.
_KO_GEN_RE = re.compile(f"(?<![{_HANGUL}])([{_HANGUL}]{{2,}})의 (?=[{_HANGUL}])")


def _ko_genitive(claim: str, evidence: str) -> tuple[str, str] | None:
    def read(text: str, other: str) -> str:
        def repl(m: re.Match[str]) -> str:
            rest = re.match(f"[{_HANGUL}]+", text[m.end() :])
            joined = m.group(1) + " " + (rest.group() if rest else "")
            return m.group(1) + " " if joined in other and m.group() not in other else m.group()

        return _KO_GEN_RE.sub(repl, text)

    c, e = read(claim, evidence), read(evidence, claim)
    return None if (c, e) == (claim, evidence) else (c, e)


_TIME_WORD = r"(?:周|星期|每|上午|下午|晚上|早上|中午|凌晨|夜间|节假日|假日|工作日|周末|寒暑假|假期|\d)"
_ZH_AT_RE = re.compile(f"(?<=[\u4e00-\u9fff，,])在(?={_TIME_WORD})")
_ZH_IS_RE = re.compile("(?<=[\u4e00-\u9fff])是(?=[\u4e00-\u9fff\\d])")


def _zh_reading(claim: str, evidence: str) -> tuple[str, str] | None:
    if _HAN_ONLY.search(claim + evidence):
        return None
    base = (attributive_reading(claim, evidence) or (claim, evidence))[0]

    def at(m: re.Match[str]) -> str:
        s = m.string
        joined = s[m.start() - 2 : m.start()] + s[m.end() : m.end() + 2]
        return "" if joined in evidence else m.group()

    def copula(m: re.Match[str]) -> str:
        s = m.string
        written = s[m.start() - 2 : m.start()] + "为" + s[m.end() : m.end() + 2]
        return "为" if written in evidence else m.group()

    reading = base
    if "在" in reading and "在" not in evidence:
        reading = _ZH_AT_RE.sub(at, reading)
    if "是" in reading and "为" in evidence:
        reading = _ZH_IS_RE.sub(copula, reading)
    return None if reading == base else (reading, evidence)


#: A sentence-final written directive "Vること" (V in the u-row).
_JA_KOTO_RE = re.compile("([\u4e00-\u9fff\u3041-\u3093]*?)([うくぐすつぬぶむる])こと(?=。|$)", re.MULTILINE)
_TE = {"う": ["って"], "つ": ["って"], "る": ["って", "て"], "く": ["いて"], "ぐ": ["いで"],
       "す": ["して"], "ぬ": ["んで"], "ぶ": ["んで"], "む": ["んで"]}  # fmt: skip


def _ja_request(claim: str, evidence: str) -> tuple[str, str] | None:
    if ("てください" not in claim and "でください" not in claim) or "こと" not in evidence:
        return None

    def repl(m: re.Match[str]) -> str:
        stem = m.group(1)
        for te in _TE[m.group(2)]:
            request = stem + te + "ください"
            if re.search(re.escape(request) + "(?=。|$)", claim, re.MULTILINE) and not stem.endswith("ない"):
                return request
        return m.group()

    reading = _JA_KOTO_RE.sub(repl, evidence)
    return None if reading == evidence else (claim, reading)


#: Two clauses of one Chinese sentence, each naming its agent with 由 ("by") or 经
#: ("through", not in 经理/经营/经济/经费/经验/经常/经典): "本须知经校长批准，由处长起草" states
#: what "本须知由处长起草，经校长批准" states, each act with its own agent.
_AGENT = "(?:由|经(?![理营济费验常典历]))"
_ZH_AGENTS_RE = re.compile(f"^(?P<topic>[^，。,]*?)(?<![未不没非无])(?P<c1>{_AGENT}[^，。,]+)，(?P<c2>{_AGENT}[^，。,]+)(?P<end>。?)$")


def _zh_agents(claim: str, evidence: str) -> tuple[str, str] | None:
    if _HAN_ONLY.search(claim + evidence):
        return None
    m = _ZH_AGENTS_RE.match(claim.strip())
    if m is None:
        return None
    return (m["topic"] + m["c2"] + "，" + m["c1"] + m["end"], evidence)


#: Japanese regulations state a value with "とする" ("shall be"): "子どもは2人までとする" is
#: "子どもは2人までです". Read so only at the end of a clause with no object "を" (a
#: "AをBとする" treats A as B) and a topic "は", for a claim ending in a copula.
_JA_TOSURU_RE = re.compile("(?<=[^、。，\n]{2})とする(?=。|$)|(?<=[^、。，\n]{2})とします(?=。|$)", re.MULTILINE)
_JA_COPULA_END = re.compile("(?:です|である|だ)。?$")


def _ja_tosuru(claim: str, evidence: str) -> tuple[str, str] | None:
    if ("とし" not in evidence and "とす" not in evidence) or not _JA_COPULA_END.search(claim.strip()):
        return None

    def repl(m: re.Match[str]) -> str:
        clause = re.split("[、。，\n]", m.string[: m.start()])[-1]
        return "だ" if "は" in clause and "を" not in clause else m.group()

    reading = _JA_TOSURU_RE.sub(repl, evidence)
    return None if reading == evidence else (claim, reading)


def particle_readings(claim: str, evidence: str) -> list[list[tuple[str, str]]]:
    """Groups of one (claim, evidence) pair each, for the readings above that apply."""
    out: list[list[tuple[str, str]]] = []
    for reading in (_ko_genitive, _zh_reading, _ja_request, _zh_agents, _ja_tosuru):
        pair = reading(claim, evidence)
        if pair is not None:
            out.append([pair])
    return out
