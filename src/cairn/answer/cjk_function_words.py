"""Chinese and Korean function words written two ways for one meaning (issue 12, session 18c).

Each is an exact equivalence, applied to claim and evidence alike
(:func:`cairn.answer.cjk_forms.canonical_cjk`):

* Chinese "以后"/"以内"/"以前" after a verb phrase or a count are the bare "后"/"内"/"前"
  (提交报名以后 = 提交报名后, 48小时以内 = 48小时内, 入住以前 = 入住前; "之后"/"之内"/"之前"
  are read as "以…" first). Only right after a Han character or a digit, so a clause that
  opens with "以后" ("henceforth") is left alone; not before a character that makes
  "以" the preposition "by means of" of another word (以内容为准, 以前往, 以后勤);
* Chinese "…的时候" after a verb phrase is "…时" (领取参赛包的时候 = 领取参赛包时);
* Korean "X할 때" after a noun of two syllables or more is "X 시" (계약할 때 = 계약 시,
  이용할 때 = 이용 시): the noun's 하다-verb "when doing X" and the written "at X".

What these leave out never carries a condition, scope, negation or modality: the
"after", "within", "before" and "when" stay, only their spelling is one.
"""

from __future__ import annotations

import re

__all__ = ["function_word_forms"]

_KANA_HANGUL = re.compile("[\u3041-\u30ff\uac00-\ud7a3]")
_HANGUL = re.compile("[\uac00-\ud7a3]")
_ZH_POSITION_RE = re.compile(r"(?<=[\u4e00-\u9fff\d])以(后|内|前)(?![容勤提往进者部科])")
_ZH_WHEN_RE = re.compile(r"(?<=[\u4e00-\u9fff])的时候")
_KO_WHEN_RE = re.compile(r"(?<![가-힣])([가-힣]{2,})할 때(?=[\s,.]|에|는|$)")


def function_word_forms(text: str) -> str:
    """``text`` (CJK) with the function words above in one form."""
    if not _KANA_HANGUL.search(text):
        if "以" in text:
            text = _ZH_POSITION_RE.sub(r"\1", text)
        if "的时候" in text:
            text = _ZH_WHEN_RE.sub("时", text)
    elif "할 때" in text and _HANGUL.search(text):
        text = _KO_WHEN_RE.sub(r"\1 시", text)
    return text
