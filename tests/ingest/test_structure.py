"""Structure snapshots: paragraph blocks (headings, frontmatter and code fences), and
the snapshot round trip."""

from __future__ import annotations

from cairn.ingest.markdown import parse_markdown
from cairn.ingest.structure import _blocks_by_line, load_structure, paragraph_blocks, text_structure


def _spans(text: str) -> list[tuple[int, int]]:
    parsed = parse_markdown(text)
    blocks = paragraph_blocks(text, [h.line for h in parsed.headings], parsed.body_start_line)
    assert blocks == _blocks_by_line(text, sorted(h.line for h in parsed.headings), parsed.body_start_line)
    return [(b.start_line, b.end_line) for b in blocks]


def test_blocks_skip_headings_and_frontmatter() -> None:
    assert _spans("---\ntags: [a]\n---\n# Title\npara one\ncontinued\n\n## Sub\n  \npara two") == [(5, 6), (10, 10)]
    assert _spans("") == [] and _spans("\n\n") == [] and _spans("x") == [(1, 1)]
    assert _spans("# A\n# B\nc\n") == [(3, 3)]


def test_a_fenced_block_is_one_block() -> None:
    text = "intro\n\n```\ncode\n\nmore code\n```\nafter\n\nend\n"
    parsed = parse_markdown(text)
    blocks = paragraph_blocks(text, [h.line for h in parsed.headings], parsed.body_start_line)
    assert [(b.start_line, b.end_line) for b in blocks] == [(1, 1), (3, 8), (10, 10)]


def test_same_text_same_hash_wherever_it_is() -> None:
    a = paragraph_blocks("one\n\ntwo\n", [])
    b = paragraph_blocks("two\n\n\n\none\n", [])
    assert {x.hash for x in a} == {x.hash for x in b} and len(a[0].hash) == 16


def test_snapshot_round_trip() -> None:
    text = "---\ntags: [x, y]\nstatus: draft\n---\n# T\n\nSee [[other#part]] and #inline.\n"
    snap = load_structure(text_structure(text, "markdown"))
    assert snap.headings == ((1, "T", 5),)
    assert [(k, t, a) for k, t, a, _ in snap.links] == [("wiki", "other", "part")]
    assert set(snap.tags) >= {"x", "y", "inline"} and snap.frontmatter["status"] == "draft"
    plain = load_structure(text_structure("# not a heading in text\n\nbody\n", "text"))
    assert plain.headings == () and len(plain.blocks) == 2
