"""Tests for cairn.ingest.chunker: structure-aware splitting and its invariants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.ingest.chunker import Chunk, chunk_markdown, chunk_plain, estimate_tokens
from cairn.ingest.markdown import parse_markdown


def _chunks(text: str, max_tokens: int = 256, min_tokens: int = 48) -> list[Chunk]:
    p = parse_markdown(text)
    return chunk_markdown(
        text, p.headings, body_start_line=p.body_start_line,
        max_tokens=max_tokens, min_tokens=min_tokens,
    )


def test_estimate_tokens() -> None:
    assert [estimate_tokens(s) for s in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]


def test_small_note_is_one_chunk_without_frontmatter() -> None:
    text = "---\ntitle: T\n---\n\n# Title\n\nHello world.\n\n"
    (c,) = _chunks(text)
    assert (c.start_line, c.end_line, c.heading_path) == (5, 7, ("Title",))
    assert c.text == "# Title\n\nHello world."
    assert c.token_count == estimate_tokens(c.text)


def test_blank_document_has_no_chunks() -> None:
    assert _chunks("") == [] and _chunks("\n \n\t\n") == []
    assert chunk_plain("   \n") == []


def test_sections_and_heading_paths() -> None:
    para = "word " * 40  # 50 tokens
    text = f"intro {para}\n# Install\n{para}\n## Linux\n{para}\n## Mac\n{para}\n# Use\n{para}"
    chunks = _chunks(text, max_tokens=60, min_tokens=10)
    assert [c.heading_path for c in chunks] == [
        (),
        ("Install",),
        ("Install", "Linux"),
        ("Install", "Mac"),
        ("Use",),
    ]
    assert [c.start_line for c in chunks] == [1, 2, 4, 6, 8]


def test_small_sections_merge_with_next() -> None:
    text = "# A\nshort\n# B\nalso short\n# C\n" + "long line of words " * 20 + "\n# D\nend"
    chunks = _chunks(text, max_tokens=100, min_tokens=30)
    # A and B are small: they merge (labelled A); C fills a chunk; the small last
    # section D merges backwards into C.
    assert [(c.start_line, c.end_line, c.heading_path) for c in chunks] == [
        (1, 4, ("A",)),
        (5, 8, ("C",)),
    ]


def test_large_section_splits_at_paragraphs_then_lines() -> None:
    paras = "\n\n".join(f"para {i} " + "x" * 150 for i in range(6))
    chunks = _chunks("# H\n\n" + paras, max_tokens=100, min_tokens=10)
    assert all(c.token_count <= 100 for c in chunks)
    assert all(c.heading_path == ("H",) for c in chunks)
    assert chunks[0].text.startswith("# H")  # the heading is not left alone
    long_para = "\n".join(f"line {i} " + "y" * 60 for i in range(30))
    chunks = _chunks(long_para, max_tokens=64, min_tokens=8)
    assert len(chunks) > 1 and all(c.token_count <= 64 for c in chunks)


def test_code_block_is_not_split_unless_too_big() -> None:
    code = "```\n" + "\n".join(f"x = {i}" for i in range(12)) + "\n\nmore = 1\n```"
    text = "# H\n" + "intro words " * 20 + "\n\n" + code + "\n\nafter " * 3
    chunks = _chunks(text, max_tokens=80, min_tokens=5)
    holder = [c for c in chunks if "```" in c.text]
    assert len(holder) == 1 and holder[0].text.count("```") == 2
    big = "```\n" + "\n".join(f"value_{i} = {i}" for i in range(200)) + "\n```"
    chunks = _chunks(big, max_tokens=50, min_tokens=5)
    assert len(chunks) > 1 and all(c.token_count <= 50 for c in chunks)


def test_overlong_line_is_cut_at_max_tokens() -> None:
    text = "short\n\n" + "z" * 2000 + "\n\nshort again"
    chunks = chunk_plain(text, max_tokens=50, min_tokens=0)
    assert [c.text for c in chunks] == ["short", *["z" * 200] * 10, "short again"]
    assert [c.start_line for c in chunks] == [1, *[3] * 10, 5]


def test_custom_counter() -> None:
    chunks = chunk_plain("a b c\n\nd e f\n\ng h", max_tokens=4, min_tokens=0,
                         count_tokens=lambda s: len(s.split()))
    assert [c.token_count for c in chunks] == [3, 3, 2]


_line = st.one_of(
    st.just(""), st.just("   "), st.just("```"), st.just("~~~~"),
    st.builds(lambda n, t: "#" * n + " " + t, st.integers(1, 3), st.text("abc ", max_size=8)),
    st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=120),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_line, max_size=60),
    st.integers(1, 80),
    st.integers(0, 80),
    st.booleans(),
)
def test_chunk_invariants(lines: list[str], max_tokens: int, min_tokens: int, plain: bool) -> None:
    min_tokens = min(min_tokens, max_tokens)
    text = "\n".join(lines)
    if plain:
        chunks, body_start = chunk_plain(text, max_tokens=max_tokens, min_tokens=min_tokens), 1
    else:
        p = parse_markdown(text)
        body_start = p.body_start_line
        chunks = chunk_markdown(text, p.headings, body_start_line=body_start,
                                max_tokens=max_tokens, min_tokens=min_tokens)
    all_lines = text.split("\n")
    covered: list[int] = []
    prev_end = body_start - 1
    for c in chunks:
        whole = "\n".join(all_lines[c.start_line - 1 : c.end_line])
        assert c.token_count == estimate_tokens(c.text) <= max_tokens
        assert c.text.strip() and all_lines[c.start_line - 1].strip()
        if c.text != whole:  # a part of one over-long line, in order
            assert c.start_line == c.end_line >= prev_end and c.text in whole and c.text == c.text.strip()
            if c.start_line == prev_end:
                continue
        else:
            assert prev_end < c.start_line <= c.end_line  # ordered, non-overlapping
        assert all_lines[c.end_line - 1].strip()
        assert all(not ln.strip() for ln in all_lines[prev_end : c.start_line - 1])
        covered.extend(range(c.start_line, c.end_line + 1))
        prev_end = c.end_line
    assert all(not ln.strip() for ln in all_lines[prev_end:])
    non_blank = {i + 1 for i, ln in enumerate(all_lines) if ln.strip() and i + 1 >= body_start}
    assert non_blank <= set(covered) and len(covered) == len(set(covered))


_spacey = st.text(alphabet=" \t\n\x0b\x0c\x1c\x85\u2028\xa0ab#", max_size=80)


@settings(max_examples=300, deadline=None)
@given(_spacey, st.integers(0, 6))
def test_single_chunk_is_the_trimmed_body(text: str, body_start: int) -> None:
    # The one-chunk fast path works on the string; check it against the line view, with
    # the odd whitespace str.strip() knows (form feed, NEL, U+2028...) on blank lines.
    chunks = chunk_markdown(text, (), body_start_line=body_start, max_tokens=10_000)
    lines = text.split("\n")
    first = max(body_start, 1) - 1
    kept = [i for i, ln in enumerate(lines) if i >= first and ln.strip()]
    if not kept:
        assert chunks == []
        return
    (c,) = chunks
    assert (c.start_line, c.end_line) == (kept[0] + 1, kept[-1] + 1)
    assert c.text == "\n".join(lines[kept[0] : kept[-1] + 1])
    assert c.token_count == estimate_tokens(c.text) and c.heading_path == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(_line, max_size=60), st.integers(1, 80), st.integers(0, 80), st.booleans())
def test_estimator_shortcuts_match_generic_counting(
    lines: list[str], max_tokens: int, min_tokens: int, plain: bool
) -> None:
    # With the default estimator, sizes come from line offsets (and packing skips ahead
    # by bisection); a counter that is not `estimate_tokens` itself takes the generic
    # path. Both must chunk identically.
    min_tokens = min(min_tokens, max_tokens)
    text = "\n".join(lines)

    def counter(s: str) -> int:
        return estimate_tokens(s)

    if plain:
        fast = chunk_plain(text, max_tokens=max_tokens, min_tokens=min_tokens)
        slow = chunk_plain(text, max_tokens=max_tokens, min_tokens=min_tokens, count_tokens=counter)
    else:
        p = parse_markdown(text)
        b = p.body_start_line
        fast = chunk_markdown(text, p.headings, body_start_line=b,
                              max_tokens=max_tokens, min_tokens=min_tokens)
        slow = chunk_markdown(text, p.headings, body_start_line=b,
                              max_tokens=max_tokens, min_tokens=min_tokens, count_tokens=counter)
    assert fast == slow


def test_a_line_over_max_tokens_is_cut_into_parts_of_that_line() -> None:
    line = ("alpha beta gamma " * 200) + "x" * 3000 + " tail"
    chunks = chunk_plain("intro\n\n" + line + "\n", max_tokens=64, min_tokens=8)
    assert chunks[0].text == "intro"
    parts = chunks[1:]
    assert len(parts) > 10
    assert all(c.start_line == c.end_line == 3 and c.token_count <= 64 and c.text in line for c in parts)
    assert all(c.text == c.text.strip() and c.text for c in parts)
    # Nothing is lost: the parts, in order, are the line's non-space characters.
    assert "".join(c.text for c in parts).replace(" ", "") == line.replace(" ", "")
