"""Words for a length of time that are a count of a unit (issue 12, session 16b).

Rewritten before the CJK account reads quantities (:func:`cairn.answer.cjk_forms.canonical_cjk`),
so that an exact equivalence is one quantity on both sides:

* Korean native day counts are days: 하루 = 1天, 이틀 = 2天, 사흘 = 3天, 나흘 = 4天 (이틀 넘게
  = 48시간 넘게, 하루 전 = 1일 전), as words of their own before a word that makes them a
  span (넘게, 이상, 이내, 동안, 전, 후, 뒤, 지나…); an attributive "하루 최대 요금" (daily
  maximum fee) is left as written;
* Korean 반년 ("half a year") is 0.5년 (= 6개월), as 半年 is 0.5年;
* Chinese N刻钟 ("quarters of an hour") is 15·N 分钟 (一刻钟 = 15分钟, 三刻钟 = 45分钟); a
  clock's 一刻 (3点一刻, a time of day) has no 钟 and is left as written;
* Japanese N秒間 ("for N seconds") is N秒, as N年間 is N年.
"""

from __future__ import annotations

import re

__all__ = ["duration_words"]

_KO_DAYS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4}
_KO_DAYS_RE = re.compile(
    r"(?<![가-힣])(하루|이틀|사흘|나흘)(?=\s?(?:넘게|넘으면|넘는|넘어|이상|이하|미만|초과|이내|동안|간|전|후|뒤|만에|안에|내에)"
    r"|[이가] (?:지나|경과))"
)
_KO_HALF_YEAR_RE = re.compile(r"(?<![가-힣\d])반년")
_QUARTERS = {"一": 1, "两": 2, "二": 2, "三": 3}
_ZH_QUARTERS_RE = re.compile(r"(?<![\d一二两三四五六七八九十])([一两二三]|\d+)刻钟")
_JA_SECONDS_RE = re.compile(r"(?<=\d)秒間")


def duration_words(text: str) -> str:
    """``text`` with the duration words above written as counts of a unit."""
    if "하루" in text or "이틀" in text or "사흘" in text or "나흘" in text:
        text = _KO_DAYS_RE.sub(lambda m: f"{_KO_DAYS[m.group(1)]}天", text)
    if "반년" in text:
        text = _KO_HALF_YEAR_RE.sub("0.5년", text)
    if "刻钟" in text:
        text = _ZH_QUARTERS_RE.sub(
            lambda m: f"{15 * (int(m.group(1)) if m.group(1).isdigit() else _QUARTERS[m.group(1)])}分钟", text
        )
    if "秒間" in text:
        text = _JA_SECONDS_RE.sub("秒", text)
    return text
