"""Tests for cairn.ingest.markdown: frontmatter, headings, tags, links, robustness."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.ingest.markdown import Heading, Link, parse_markdown


def test_frontmatter_fields() -> None:
    text = (
        "---\n"
        "title: My Note\n"
        "tags: [Project, '#Work/Deep']\n"
        "aliases: [Alt, Other]\n"
        "date: 2024-03-05\n"
        "author: [Ann, Bob]\n"
        "extra: {when: 2024-01-01 10:00:00, n: .nan}\n"
        "---\n"
        "# Heading One\n"
        "Body #inline-tag\n"
    )
    p = parse_markdown(text)
    assert p.frontmatter_error is None
    assert p.body_start_line == 9
    assert p.title == "My Note"
    assert p.tags == ("project", "work/deep", "inline-tag")
    assert p.aliases == ("Alt", "Other")
    assert p.date == "2024-03-05"
    assert p.author == "Ann, Bob"
    assert p.frontmatter["extra"] == {"when": "2024-01-01T10:00:00", "n": "nan"}
    json.dumps(p.frontmatter, allow_nan=False)  # JSON-safe
    assert p.headings == (Heading(1, "Heading One", 9),)


def test_frontmatter_string_tags_and_created_date() -> None:
    p = parse_markdown("---\ntags: a, b c\ncreated: '2024-01-02T03:04:05'\nalias: Solo\n---\nx\n")
    assert p.tags == ("a", "b", "c")
    assert p.date == "2024-01-02T03:04:05"
    assert p.aliases == ("Solo",)


def test_unparseable_date_is_no_date_and_says_why() -> None:
    p = parse_markdown("---\ndate: someday soon\n---\n")
    assert p.date is None
    assert p.date_error is not None and "someday soon" in p.date_error
    assert parse_markdown("---\ndate: 2024-03-05\n---\n").date_error is None
    assert parse_markdown("---\ndate: March 5, 2024\n---\n").date == "2024-03-05"


def test_invalid_frontmatter_reports_error_and_is_not_body() -> None:
    p = parse_markdown("---\ntitle: [unclosed\n---\nTitle line\n---\n")
    assert p.frontmatter == {}
    assert p.frontmatter_error and "invalid YAML" in p.frontmatter_error
    assert p.body_start_line == 4


def test_non_mapping_frontmatter() -> None:
    p = parse_markdown("---\n- a\n- b\n---\nbody\n")
    assert p.frontmatter == {}
    assert p.frontmatter_error is not None and "not a mapping" in p.frontmatter_error


def test_yaml_alias_bomb_and_recursion_do_not_raise() -> None:
    bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
    prev = "a"
    for name in "bcdefghij":
        bomb += f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        prev = name
    bomb += "---\n"
    assert parse_markdown(bomb).frontmatter_error is not None
    assert parse_markdown("---\na: &a [*a]\n---\n").frontmatter_error is not None
    assert parse_markdown("---\n" + "[" * 5000 + "\n---\n").frontmatter_error is not None
    parse_markdown("---\nd: 2024-13-45\n---\n")  # a bad timestamp must not raise


def test_no_frontmatter_without_closing_fence() -> None:
    p = parse_markdown("---\ntitle: x\nno close\n")
    assert p.frontmatter == {} and p.frontmatter_error is None
    assert p.body_start_line == 1


def test_empty_frontmatter() -> None:
    p = parse_markdown("---\n---\n# T\n")
    assert (p.frontmatter, p.frontmatter_error, p.body_start_line, p.title) == ({}, None, 3, "T")


def test_atx_headings() -> None:
    text = "# One #\n   ## Two ##   \n####### seven\n#nospace\n###### Six\n#\n    # indented code\n"
    p = parse_markdown(text)
    assert [(h.level, h.text, h.line) for h in p.headings] == [
        (1, "One", 1),
        (2, "Two", 2),
        (6, "Six", 5),
        (1, "", 6),
    ]
    assert p.title == "One"


def test_setext_headings() -> None:
    text = "Title\n=====\n\npara one\npara two\n---\n\n- item\n---\n\n---\n\n> quote\n---\n"
    p = parse_markdown(text)
    assert [(h.level, h.text, h.line) for h in p.headings] == [
        (1, "Title", 1),
        (2, "para one para two", 4),
    ]


def test_setext_after_frontmatter_is_not_confused() -> None:
    p = parse_markdown("---\na: 1\n---\n---\ntext\n---\n")
    assert [(h.level, h.text, h.line) for h in p.headings] == [(2, "text", 5)]


def test_code_is_ignored() -> None:
    text = (
        "````md\n# not heading\n```\n[[inside]] #notag\n````\n"
        "~~~\n[x](y.md)\n~~~\n"
        "real `[[code]] #nope` [[yes]] #yes\n"
        "``a ` [[b]]`` #also\n"
        "```\nunclosed [[z]]\n"
    )
    p = parse_markdown(text)
    assert p.headings == ()
    assert [ln.target for ln in p.links] == ["yes"]
    assert p.tags == ("yes", "also")


def test_inline_tags_rules() -> None:
    text = (
        "#start mid #Mid-Tag (#paren) #123 #1a #a/b/ C#sharp x.com/#frag &#123; #日本語\n"
        "[[#Heading]] [x](#anchor) #_under"
    )
    assert parse_markdown(text).tags == ("start", "mid-tag", "paren", "1a", "a/b", "日本語", "_under")


def test_wiki_links() -> None:
    text = "See [[Folder/Note#Head|Alias]] and ![[img.png]], [[#Local]], [[n#^blk]] \\[[esc]] [[]]\n| [[t\\|a]] |"
    links = parse_markdown(text).links
    assert links == (
        Link("wiki", "Folder/Note", "Head", "Alias", False, 1, 5, "[[Folder/Note#Head|Alias]]"),
        Link("wiki", "img.png", None, None, True, 1, 36, "![[img.png]]"),
        Link("wiki", "", "Local", None, False, 1, 50, "[[#Local]]"),
        Link("wiki", "n", "^blk", None, False, 1, 62, "[[n#^blk]]"),
        Link("wiki", "t", None, "a", False, 2, 3, "[[t\\|a]]"),
    )


def test_markdown_links() -> None:
    text = (
        'a [Text](../a.md#sec "Title") ![alt](img.png) [u](https://x.org/p#f)\n'
        "[sp](<my note.md>) <https://auto.link/x> [m](mailto:a@b.c) [![b](b.svg)](https://ci)\n"
        "[e]() \\[no](x.md)"
    )
    links = parse_markdown(text).links
    got = [(ln.target, ln.anchor, ln.alias, ln.embed, ln.line, ln.column) for ln in links]
    assert got == [
        ("../a.md", "sec", "Text", False, 1, 3),
        ("img.png", None, "alt", True, 1, 31),
        ("https://x.org/p#f", None, "u", False, 1, 47),
        ("my note.md", None, "sp", False, 2, 1),
        ("https://auto.link/x", None, None, False, 2, 20),
        ("mailto:a@b.c", None, "m", False, 2, 42),
        ("https://ci", None, "![b](b.svg)", False, 2, 60),
        ("b.svg", None, "b", True, 2, 61),
    ]
    assert links[0].raw == '[Text](../a.md#sec "Title")'
    assert all(ln.kind == "markdown" for ln in links)


def test_columns_count_characters_not_bytes() -> None:
    (link,) = parse_markdown("日本 [[x]]").links
    assert link.column == 4


def test_title_falls_back_to_none() -> None:
    assert parse_markdown("## only h2\ntext").title is None
    assert parse_markdown("").title is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#[]()!|`~-=<>\\:* \nab^日/\"'")) | st.characters()))
def test_never_raises(text: str) -> None:
    p = parse_markdown(text)
    n_lines = text.count("\n") + 1
    for h in p.headings:
        assert 1 <= h.level <= 6 and 1 <= h.line <= n_lines
    for ln in p.links:
        lines = ("\n" + text).split("\n")
        assert lines[ln.line][ln.column - 1 :].startswith(ln.raw.split("\n")[0])
    json.dumps(p.frontmatter)


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_never_raises_with_frontmatter(body: str) -> None:
    p = parse_markdown("---\n" + body + "\n---\nrest")
    json.dumps(p.frontmatter)


def test_code_spans_across_lines_and_paragraphs() -> None:
    text = (
        "x `[[in]]\n[[in2]] <https://in.x>` [[out]] #tag\n\n"
        "`c` [[out2]] <https://out.x> `#no` #yes\n\n"
        "```\n[[fenced]]\n```\n[[after]] `open"
    )
    p = parse_markdown(text)
    assert [(ln.target, ln.line, ln.column) for ln in p.links] == [
        ("out", 2, 25), ("out2", 4, 5), ("https://out.x", 4, 14), ("after", 9, 1),
    ]
    assert p.tags == ("tag", "yes")


def test_result_types_are_named_tuples() -> None:
    p = parse_markdown("# T\n[[a]]")
    (h,) = p.headings
    (ln,) = p.links
    assert (h.level, h.text, h.line) == (1, "T", 1) and h == Heading(1, "T", 1)
    assert ln == Link("wiki", "a", None, None, False, 2, 1, "[[a]]")
    assert p.title == "T" and p.headings == (Heading(1, "T", 1),)


def test_indented_and_nested_code_blocks_yield_no_tags_or_links() -> None:
    # CommonMark: an indented code block (4+ columns past its container after a blank
    # line) and a fence nested in a list item are code, even across blank lines.
    text = (
        "Colours:\n\n    body { color: #ff0000 } [[not-a-link]]\n\n\tx = '#00ff00'\n\n"
        "- item\n\n    ```css\n    a {}\n\n    b { color: #0000ff }\n    ```\n\n"
        "- item two\n\n      code #nope in the item\n\n"
        "> ```\n> #quoted\n>\n> ```\n\n"
        "#real [[yes]]\n"
    )
    p = parse_markdown(text)
    assert p.tags == ("real",)
    assert [ln.target for ln in p.links] == ["yes"]


def test_indented_list_content_is_not_code() -> None:
    text = "- item\n\n    continued #one\n\n1. two\n\n   more #two\n- a\n    - b\n\n      para #three\n\npara\n    #lazy\n"
    assert parse_markdown(text).tags == ("one", "two", "three", "lazy")
