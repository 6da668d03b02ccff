"""Words as unicode61 sees them, and the analysed token stream."""

from __future__ import annotations

import random
import sqlite3

import pytest

from cairn.text.tokens import WORD, tokenize, words


def test_words_split_like_unicode61() -> None:
    # Same cuts; unicode61 also folds diacritics (remove_diacritics), words() does not.
    text = "foo_bar Café-au-lait x2 it's 3.5"
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 0')")
    conn.execute("INSERT INTO t(x) VALUES (?)", (text,))
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    fts = [term for (term,) in conn.execute("SELECT term FROM v ORDER BY offset")]
    assert words(text) == fts == ["foo", "bar", "café", "au", "lait", "x2", "it", "s", "3", "5"]
    assert WORD.findall("北京 大学") == ["北京", "大学"]


def test_words_of_ascii_text_as_the_pattern_cuts_them() -> None:
    """The ASCII path of words() (translate, split) against WORD on every ASCII character
    alone, every pair, and random ASCII strings."""
    chars = [chr(c) for c in range(128)]
    texts = chars + [a + b for a in chars for b in chars]
    rng = random.Random(5)
    texts += ["".join(rng.choice(chars) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    texts += ["Kelvin \u212a sign", "İstanbul x_y"]  # lower() of a non-ASCII text may be ASCII
    for text in texts:
        assert words(text) == WORD.findall(text.lower()), repr(text)


def test_tokenize_normalises_numbers() -> None:
    nums = [
        (t.value, t.unit)
        for t in tokenize("ten per cent, 1,100 ug, twenty-first day, 15th day, one-third, 10%")
        if t.kind == "number"
    ]
    assert nums == [
        (10.0, "percent"),
        (1100.0, "ug"),
        (21.0, "day"),
        (15.0, "day"),
        (pytest.approx(1 / 3), None),
        (10.0, "percent"),
    ]


def test_tokenize_words_dates_and_months() -> None:
    text = "The patients' doses weren't reduced on 2021-03-04 in May; they may rise"
    toks = tokenize(text)
    assert [(t.kind, t.norm, t.stem) for t in toks] == [
        ("word", "the", "the"), ("word", "patients", "patient"), ("word", "doses", "dos"),
        ("word", "not", "not"), ("word", "reduced", "reduc"), ("word", "on", "on"),
        ("number", "2021", "2021"), ("number", "03", "03"), ("number", "04", "04"),
        ("word", "in", "in"), ("month", "may", "may"), ("word", "they", "they"),
        ("word", "may", "may"), ("word", "rise", "ris"),
    ]  # fmt: skip
    assert all(text[t.start : t.end] == t.raw for t in toks)
    assert [t.value for t in toks if t.kind == "number"] == [2021.0, 3.0, 4.0]


def test_tokenize_ordinals_and_one_of() -> None:
    toks = tokenize("the 15th and one of three")
    assert [(t.raw, t.ordinal) for t in toks if t.kind == "number"] == [
        ("15", True),
        ("three", False),
    ]
