"""The budget token counter: word-by-word counting (cached words) gives exactly the
tokenizer's count of the whole text."""

from __future__ import annotations

import pytest

from cairn.models import tokens
from cairn.models.tokens import budget_token_counter
from tests.conftest import needs_minilm

TEXTS = [
    "Extract a (compressed) archive [f]ile into the target directory:\n\n`tar xf {{path/to/source.tar}}`",
    "a\tb\r\nc  d", "x" * 150, "foo-bar_baz(qux) don't $HOME/path/to:file.md", "", "   ", "ABC\x7fDEF", "a\x0bb",
    "\x1cq", "über café naïve", "日本語のテキスト and English", "emoji 😀 here", "snake_case CamelCase 3.14 1e-9",
    "Extract a (compressed) archive [f]ile into the target directory:\n\n`tar xf {{path/to/source.tar}}`",
    "a compact form …", "İstanbul ǅ ﬁle e\u0301 \u200bzero\u200dwidth \xadsoft \ufeffbom \x00nul \ufffd",
    "a\u3000b\xa0c\u2003d", "ab\x1ecd \x85 \u2028line\u2029para\x0cff",
] + [f"ab{chr(cp)}cd x {chr(cp)} y" for cp in range(0, 0x3100, 7) if not 0xD800 <= cp <= 0xDFFF]


@needs_minilm
def test_counts_equal_the_tokenizers(monkeypatch: pytest.MonkeyPatch) -> None:
    from tokenizers import Tokenizer

    from cairn.models.minilm import _default_minilm_paths

    counter = budget_token_counter()
    assert counter.name.startswith("minilm-wordpiece")
    tokenizer = Tokenizer.from_file(str(_default_minilm_paths()[1]))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    expected = [len(e.ids) for e in tokenizer.encode_batch(TEXTS, add_special_tokens=False)]
    assert counter.count(TEXTS) == expected
    assert counter.count(TEXTS[::-1]) == expected[::-1]  # now from cached words
    monkeypatch.setattr(tokens, "CACHED_WORDS", 3)  # the cache empties itself when full
    assert counter.count(TEXTS) == expected
    assert counter.count([]) == []


@needs_minilm
@pytest.mark.parametrize("pretokenized", [0, 10**6])
def test_new_words_counted_either_way(monkeypatch: pytest.MonkeyPatch, pretokenized: int) -> None:
    """New words go as one pre-tokenized sequence (few) or as a parallel batch (many):
    the same counts either way, on every character up to U+3100."""
    from tokenizers import Tokenizer

    from cairn.models.minilm import _default_minilm_paths

    tokenizer = Tokenizer.from_file(str(_default_minilm_paths()[1]))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    expected = [len(e.ids) for e in tokenizer.encode_batch(TEXTS, add_special_tokens=False)]
    monkeypatch.setattr(tokens, "PRETOKENIZED_WORDS", pretokenized)
    budget_token_counter.cache_clear()
    try:
        assert budget_token_counter().count(TEXTS) == expected
    finally:
        budget_token_counter.cache_clear()
