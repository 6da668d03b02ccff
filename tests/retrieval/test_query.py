"""Tests for cairn.text.query and its FTS5 compiler (cairn.store.sqlite.fts) against
real in-memory FTS5 tables."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cairn.errors import ValidationError
from cairn.retrieval.bm25 import make_snippet, term_finder
from cairn.store.sqlite.fts import compile_query
from cairn.text.cjk import cjk_bigrams
from cairn.text.query import MAX_TERMS, parse_query

DOCS = {
    1: "The quick brown fox jumps over the lazy dog",
    2: "Send an e-mail to the project mailing list",
    3: "Rate limiting with Redis: a token bucket design",
    4: "Rate and limit are different words here; redis too",
    5: "Running runners run; NEAR the AND OR NOT keywords",
    6: "我在北京大学学习中文。",
    7: "東京で日本語を勉強しています",
    8: "Café crème au lait",
}


@pytest.fixture(scope="module")
def db() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE main_fts USING fts5(title, headings, body, "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE cjk_fts USING fts5(body, tokenize='unicode61')")
    for rowid, text in DOCS.items():
        conn.execute("INSERT INTO main_fts(rowid, title, headings, body) VALUES (?, '', '', ?)",
                     (rowid, text))
        conn.execute("INSERT INTO cjk_fts(rowid, body) VALUES (?, ?)", (rowid, cjk_bigrams(text)))
    yield conn
    conn.close()


def search(db: sqlite3.Connection, query: str) -> set[int]:
    compiled = compile_query(query)
    found: set[int] = set()
    if compiled.main:
        found |= {r for (r,) in db.execute(
            "SELECT rowid FROM main_fts WHERE main_fts MATCH ?", (compiled.main,))}
    if compiled.cjk:
        found |= {r for (r,) in db.execute(
            "SELECT rowid FROM cjk_fts WHERE cjk_fts MATCH ?", (compiled.cjk,))}
    return found


def search_loose(db: sqlite3.Connection, query: str) -> set[int]:
    compiled = compile_query(query, strict=False)
    assert compiled.main is not None
    return {r for (r,) in db.execute("SELECT rowid FROM main_fts WHERE main_fts MATCH ?", (compiled.main,))}


def test_words_are_ored_and_stopwords_dropped(db: sqlite3.Connection) -> None:
    q = compile_query("what is the quick fox?")
    assert q.main == '"quick" OR "fox"'
    assert q.cjk is None and q.terms == ("quick", "fox?")
    assert search(db, "fox redis") == {1, 3, 4}
    assert compile_query("the").main == '"the"'  # only stopwords: keep them


def test_long_question_still_matches(db: sqlite3.Connection) -> None:
    assert 3 in search(db, "how should I design rate limiting for an api using a token bucket?")


def test_phrase_required_words_optional(db: sqlite3.Connection) -> None:
    assert search(db, '"rate limiting"') == {3}
    assert search(db, '"rate limiting" fox') == {3}
    assert compile_query('"rate limiting" fox').main == (
        '"rate limiting" AND ("rate limiting" OR "fox")'
    )


def test_negation(db: sqlite3.Connection) -> None:
    assert search(db, "rate -token") == {4}
    assert search(db, 'redis -"token bucket"') == {4}
    with pytest.raises(ValidationError, match="only exclusions"):
        compile_query("-redis -fox")


def test_pasted_flags_are_words_not_exclusions(db: sqlite3.Connection) -> None:
    assert compile_query("gzip --decompress").main == '"gzip" OR "decompress"'
    assert compile_query("gzip -d").main == '"gzip" OR "d"'
    assert compile_query("kill -9").main == '"kill" OR "9"'
    assert compile_query("ls -la").main == '"ls" OR "la"'  # two letters: a flag
    assert compile_query("rate --token").main == '"rate" OR "token"'
    assert search(db, "rate --token") == {3, 4}
    assert search(db, "rate -to") == {3, 4}
    # A dash that does not start a token, or a token that is not one word, is text.
    assert search(db, "rate-token") == set()  # one phrase "rate token", as unicode61 sees it
    assert compile_query('"rate"-token').main == '"rate" AND ("rate" OR "token")'
    assert compile_query("tar -xzvfで展開").cjk == '"で展" OR "展開"'
    assert compile_query("tar -xzvfで展開").main == '"tar" OR "xzvf"'
    # A real exclusion: one dash, a word of 3+ characters starting with a letter.
    assert compile_query("rate -token").main == '("rate") NOT ("token")'
    assert compile_query("rate -tok*").main == '("rate") NOT ("tok"*)'
    assert compile_query("x -9lives").main == '"x" OR "9lives"'


def test_natural_language_mode_never_filters(db: sqlite3.Connection) -> None:
    assert compile_query('"rate limiting" fox', strict=False).main == (
        '"rate" OR "limiting" OR "fox" OR "rate limiting"'
    )
    assert search(db, '"rate limiting" fox') == {3}
    assert {1, 3, 4} <= search_loose(db, '"rate limiting" fox')  # the phrase boosts
    assert compile_query("rate -token", strict=False).main == '"rate" OR "token"'
    assert compile_query('redis -"token bucket"', strict=False).main == (
        '"redis" OR "token" OR "bucket" OR "token bucket"'
    )
    assert compile_query("-redis -fox", strict=False).main == '"redis" OR "fox"'
    assert compile_query('"北京大学"', strict=False).cjk == '"北京" OR "京大" OR "大学" OR "北京 京大 大学"'
    with pytest.raises(ValidationError, match="no searchable terms"):
        compile_query('"" -', strict=False)


def test_prefix(db: sqlite3.Connection) -> None:
    assert compile_query("mail*").main == '"mail"*'
    assert search(db, "mail*") == {2}
    assert search(db, "redi*") == {3, 4}


def test_punctuation_splits_like_unicode61(db: sqlite3.Connection) -> None:
    assert compile_query("e-mail").main == '"e mail"'
    assert search(db, "e-mail") == {2}
    assert compile_query("title:fox").main == '"title fox"'  # not a column filter
    assert search(db, "cafe creme") == {8}


def test_fts5_syntax_is_just_text(db: sqlite3.Connection) -> None:
    assert search(db, "NEAR AND") == {5}
    assert search(db, 'NOT (OR) ^ "unbalanced') >= set()
    assert search(db, "runner") == {5}  # porter stemming still applies


def test_cjk(db: sqlite3.Connection) -> None:
    q = compile_query("北京")
    assert (q.main, q.cjk) == (None, '"北京"')
    assert search(db, "北京") == {6}
    assert search(db, "北京大学") == {6}
    assert search(db, "日本語") == {7}
    assert search(db, "勉強") == {7}
    # A CJK run typed without spaces is ranked by its bigrams, OR-ed, not one phrase...
    assert compile_query("京大阪").cjk == '"京大" OR "大阪"'
    assert search(db, "京大阪") == {6}
    assert search(db, "我学习日本語") == {6, 7}
    # ...a quoted one is a phrase.
    assert compile_query('"京大阪"').cjk == '"京大 大阪"'
    assert search(db, '"京大阪"') == set()
    assert search(db, '"北京大学"') == {6}
    assert compile_query("北").cjk == '"北"*'
    assert search(db, "北") == {6}
    assert search(db, "fox 東京") == {1, 7}
    assert search(db, "东北") == set()


def test_empty_queries_raise() -> None:
    for bad in ("", "   ", "?!.,", '""', "-", "*", "- -", "_"):
        with pytest.raises(ValidationError, match="no searchable terms"):
            compile_query(bad)


def test_term_cap() -> None:
    q = compile_query(" ".join(f"word{i}" for i in range(500)))
    assert q.main is not None and q.main.count(" OR ") == MAX_TERMS - 1


_fts_noise = st.sampled_from(
    ['"', "(", ")", "*", ":", "^", "-", "+", "NEAR", "AND", "OR", "NOT", "NEAR/2", "{", "}",
     "title:", " ", "\x00", "\x1f", "😀", "北京", "東", "한국", "’", "\u0301", "e", "_", ",",
     "\\", "'", "\n", "\t", "a*", "-\"x y\"", "\U0003134a", "\u200b", "--", "-x", "-abc", "如何解压缩文件",
     "で", "-北京"]
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(), st.lists(_fts_noise | st.text(max_size=3)).map("".join)))
def test_any_input_compiles_to_valid_fts5(db: sqlite3.Connection, query: str) -> None:
    for strict in (True, False):
        try:
            compiled = compile_query(query, strict=strict)
        except ValidationError:
            continue
        assert compiled.main or compiled.cjk
        if compiled.main is not None:
            db.execute("SELECT rowid FROM main_fts WHERE main_fts MATCH ?", (compiled.main,)).fetchall()
        if compiled.cjk is not None:
            db.execute("SELECT rowid FROM cjk_fts WHERE cjk_fts MATCH ?", (compiled.cjk,)).fetchall()


def test_snippet_finds_a_cjk_sentence_by_its_bigrams() -> None:
    finder = term_finder(parse_query("如何解压缩文件").terms)
    assert finder is not None
    text = "无关的内容。" * 60 + "把压缩文件解压到当前目录。"
    assert "解压到当前目录" in make_snippet(text, finder, width=40)
    finder = term_finder(parse_query("gzip --decompress").terms)
    assert finder is not None and finder.search("use --decompress here")
