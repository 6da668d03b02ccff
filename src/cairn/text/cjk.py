"""Chinese, Japanese and Korean text: detection, and the bigrams of the CJK index.

The unicode61 tokenizer of SQLite FTS5 would make a whole run of Han/Kana/Hangul one
giant token, so CJK text is indexed (and searched) as overlapping character bigrams in a
table of its own.
"""

from __future__ import annotations

import re

__all__ = ["CJK_RUN", "cjk_bigrams", "has_cjk"]

# Han (incl. extensions and compatibility ideographs), Hiragana, Katakana (incl.
# half-width and the prolonged sound mark), Hangul (syllables and jamo), and the
# ideographic iteration marks 々〆〇, which are letters. CJK punctuation
# (U+3000-303F otherwise, U+30FB, U+FF01-FF65) is excluded: it separates words.
_CJK_CLASS = (
    "\u1100-\u11ff\u3005-\u3007\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3131-\u318e"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uf900-\ufaff\uff66-\uff9f\uffa0-\uffdc\U00020000-\U0003134f"
)
_CJK = re.compile(f"[{_CJK_CLASS}]")
#: A maximal run of CJK letters.
CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")


def has_cjk(text: str) -> bool:
    """True if ``text`` contains a Han, Kana or Hangul character (not CJK punctuation)."""
    # isascii() is a C-level flag check; most text never reaches the regex.
    return not text.isascii() and _CJK.search(text) is not None


def cjk_bigrams(text: str) -> str:
    """Index text for the CJK table: overlapping bigrams of every CJK run.

    ``"北京大学"`` -> ``"北京 京大 大学"``; a one-character run is kept as is; non-CJK
    text is dropped; ``""`` when there is no CJK.
    """
    out: list[str] = []
    for run in CJK_RUN.findall(text):
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return " ".join(out)
