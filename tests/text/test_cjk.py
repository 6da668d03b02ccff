"""CJK detection and the bigrams of the CJK index."""

from __future__ import annotations

from cairn.text.cjk import CJK_RUN, cjk_bigrams, has_cjk


def test_has_cjk_and_bigrams() -> None:
    assert has_cjk("abc 北京") and has_cjk("ひらがな") and has_cjk("한국어")
    assert not has_cjk("abc。、「」") and not has_cjk("")
    assert cjk_bigrams("北京大学") == "北京 京大 大学"
    assert cjk_bigrams("a北b京大c") == "北 京大"
    assert cjk_bigrams("hello") == ""


def test_punctuation_and_iteration_marks() -> None:
    # CJK punctuation separates runs; the iteration marks 々〆〇 are letters.
    assert CJK_RUN.findall("日本語。英語、") == ["日本語", "英語"]
    assert cjk_bigrams("時々") == "時々"
    assert cjk_bigrams("ｶﾀｶﾅ") == "ｶﾀ ﾀｶ ｶﾅ"  # half-width katakana
