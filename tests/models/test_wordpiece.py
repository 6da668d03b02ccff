"""Plain ASCII words counted in Python give exactly the tokenizer's counts."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from cairn.models.wordpiece import ascii_word_counter, is_plain_ascii
from tests.conftest import needs_minilm

PRINTABLE = [chr(c) for c in range(0x21, 0x7F)]


def _words() -> list[str]:
    rng = random.Random(14)
    letters = string.ascii_letters + string.digits
    words = PRINTABLE + [a + b for a in PRINTABLE for b in PRINTABLE]  # every pair of characters
    words += ["tar", "xf", "{{path/to/source.tar}}", "--output-file=out.txt", "don't", "$HOME/.config",
              "Extract", "CamelCaseWord", "snake_case_name", "3.14", "1e-9", "https://example.com/a?b=c&d=e",
              "x" * 100, "x" * 101, "ab" * 60, "-" * 150, "zzzzzzzzqqqq", "qxj", "##ing", "[UNK]", "[cls]",
              "a[SEP]b", "[MASK]s", "[PAD", "UNK]"]
    words += ["".join(rng.choices(letters, k=rng.randint(1, 30))) for _ in range(2_000)]
    words += ["".join(rng.choices(PRINTABLE, k=rng.randint(1, 20))) for _ in range(2_000)]
    return words


@pytest.fixture(scope="module")
def tokenizer() -> object:
    from tokenizers import Tokenizer

    from cairn.models.minilm import _default_minilm_paths

    found = Tokenizer.from_file(str(_default_minilm_paths()[1]))
    found.no_padding()
    found.no_truncation()
    return found


@needs_minilm
def test_counts_equal_the_tokenizers(tokenizer: object) -> None:
    from cairn.models.minilm import _default_minilm_paths

    count = ascii_word_counter(_default_minilm_paths()[1])  # type: ignore[arg-type]
    assert count is not None
    words = _words()
    assert all(map(is_plain_ascii, words))
    expected = [len(e.ids) for e in tokenizer.encode_batch(words, add_special_tokens=False)]  # type: ignore[attr-defined]
    counted = [count(w) for w in words]
    assert counted[words.index("[UNK]")] is None and counted[words.index("a[SEP]b")] is None  # added tokens
    assert [n if n is not None else e for n, e in zip(counted, expected, strict=True)] == expected
    assert sum(n is None for n in counted) < 10
    assert count("café") is None and count("a b") is None


@needs_minilm
def test_remembered_runs_give_the_same_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counter remembers its runs' piece counts, emptying them when full: the same counts
    with a remembrance of three runs, each word counted twice."""
    from cairn.models import wordpiece
    from cairn.models.minilm import _default_minilm_paths

    words = _words()
    count = ascii_word_counter(_default_minilm_paths()[1])  # type: ignore[arg-type]
    assert count is not None
    expected = [count(w) for w in words]
    monkeypatch.setattr(wordpiece, "CACHED_RUNS", 3)
    small = ascii_word_counter(_default_minilm_paths()[1])  # type: ignore[arg-type]
    assert small is not None
    assert [small(w) for w in words] == expected == [small(w) for w in words]


def test_plain_ascii() -> None:
    assert is_plain_ascii("--out=a.txt") and is_plain_ascii("")
    assert not any(map(is_plain_ascii, ["a b", "a\tb", "a\x7f", "café", "a\x00", "日本"]))


@needs_minilm
def test_only_bert_uncased_wordpiece(tmp_path: Path) -> None:
    """Another tokenizer configuration is not restated: the counter declines it."""
    from cairn.models.minilm import _default_minilm_paths

    spec = json.loads(_default_minilm_paths()[1].read_text(encoding="utf-8"))  # type: ignore[union-attr]
    for change in ({"normalizer": {**spec["normalizer"], "lowercase": False}},
                   {"pre_tokenizer": {"type": "Whitespace"}}, {"model": {**spec["model"], "type": "BPE"}},
                   {"normalizer": None}, {"model": {**spec["model"], "vocab": None}}):
        path = tmp_path / "tokenizer.json"
        path.write_text(json.dumps({**spec, **change}), encoding="utf-8")
        assert ascii_word_counter(path) is None
    assert ascii_word_counter(tmp_path / "missing.json") is None
    path.write_text(json.dumps({**spec, "added_tokens": [*spec["added_tokens"], {"content": "Foo"}]}), encoding="utf-8")
    count = ascii_word_counter(path)
    assert count is not None and count("xfooy") is None and count("[CLS]") is None and count("bar") == 1
