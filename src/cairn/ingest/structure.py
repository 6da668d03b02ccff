"""The structure snapshot of one document revision: what ``cairn diff`` compares.

Built from a revision's normalised text (:func:`text_structure`), it holds the document's
shape and never its body. The current revision's is built when a diff asks for it; a
revision's is kept in the store (by docid and text hash, :func:`keep_old_revisions`) when
an index run is about to replace or delete it, so a diff costs nothing to an index run
but a parse of the documents that changed. It holds:

- ``h`` headings ``[level, text, line]``;
- ``b`` paragraph blocks ``[hash, start_line, end_line]``: maximal runs of non-blank body
  lines, a heading line ending a block and never part of one, a fenced code block one
  block whatever blank lines it holds; ``hash`` is a 64-bit BLAKE2b of the block's
  lines (16 hex digits). Blocks are finer than search passages (a passage holds a whole
  section), so a paragraph moved within a section is seen as moved, not as two sections
  changed;
- ``l`` links ``[kind, target, anchor, line]``;
- ``t`` tags; ``f`` frontmatter (fields starting with ``_`` are cairn's own notes, left out).

The whole is compact JSON compressed with zlib: a few hundred bytes for a typical note.
Storing the text instead would let a diff quote removed lines, at the price of a full
copy of every revision; the snapshot is enough to say exactly what changed and where.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from cairn.store.protocol import Store
from cairn.store.records import KnownFile, LinkRow

STRUCTURE_VERSION = 1
_FENCES = ("```", "~~~")


class Block(NamedTuple):
    """A paragraph block: its short hash and line span."""

    hash: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Structure:
    """A decoded structure snapshot."""

    headings: tuple[tuple[int, str, int], ...]
    blocks: tuple[Block, ...]
    links: tuple[tuple[str, str, str | None, int], ...]
    tags: tuple[str, ...]
    frontmatter: Mapping[str, Any]


EMPTY = Structure((), (), (), (), {})


def paragraph_blocks(text: str, heading_lines: Iterable[int], body_start_line: int = 1) -> list[Block]:
    """The paragraph blocks of ``text`` (see the module docstring), from ``body_start_line``."""
    headings = sorted(heading_lines)
    if "```" in text or "~~~" in text:
        return _blocks_by_line(text, headings, body_start_line)
    # Runs of non-blank lines found by one regex; a heading line or the frontmatter
    # splits a run (the rare case, done line by line).
    blocks: list[Block] = []
    line, pos = 1, 0
    for match in _RUN.finditer(text):
        line += text.count("\n", pos, match.start())
        pos = match.start()
        body = match.group()
        last = line + body.count("\n") - (1 if body.endswith("\n") else 0)
        if line >= body_start_line and not _any_between(headings, line, last):
            blocks.append(_block(body[:-1] if body.endswith("\n") else body, line, last))
        else:
            lines = body.split("\n")
            cut = {n for n in headings if line <= n <= last}
            cut.update(range(line, min(body_start_line, last + 1)))
            seg = 0
            for number in range(line, last + 2):
                if number <= last and number not in cut:
                    seg = seg or number
                    continue
                if seg:
                    blocks.append(_block("\n".join(lines[seg - line : number - line]), seg, number - 1))
                    seg = 0
    return blocks


_RUN = re.compile(r"^(?:[^\S\n]*\S[^\n]*(?:\n|\Z))+", re.M)


def _any_between(sorted_lines: Sequence[int], low: int, high: int) -> bool:
    i = bisect_left(sorted_lines, low)
    return i < len(sorted_lines) and sorted_lines[i] <= high


def _block(body: str, start: int, end: int) -> Block:
    return Block(hashlib.blake2b(body.encode("utf-8"), digest_size=8).hexdigest(), start, end)


def _blocks_by_line(text: str, headings: Sequence[int], body_start_line: int) -> list[Block]:
    """:func:`paragraph_blocks` line by line, for a text with code fences."""
    lines = text.split("\n")
    # A break: a blank line or a heading line (1-based numbers; index 0 unused).
    breaks = [True] + [not line.strip() for line in lines]
    for number in headings:
        if 0 < number < len(breaks):
            breaks[number] = True
    for number in range(1, min(body_start_line, len(breaks))):
        breaks[number] = True
    _join_fences(lines, breaks, body_start_line)
    blocks: list[Block] = []
    start = 0
    for number in range(1, len(breaks) + 1):
        if number < len(breaks) and not breaks[number]:
            start = start or number
            continue
        if start:
            blocks.append(_block("\n".join(lines[start - 1 : number - 1]), start, number - 1))
            start = 0
    return blocks


def _join_fences(lines: list[str], breaks: list[bool], body_start_line: int) -> None:
    """A fenced code block is one block: blank lines inside it break nothing."""
    fence: str | None = None
    for number in range(max(body_start_line, 1), len(breaks)):
        stripped = lines[number - 1].strip()
        if fence is not None:
            breaks[number] = False
            if stripped.startswith(fence):
                fence = None
        elif not breaks[number] and stripped[:3] in _FENCES:
            fence = stripped[:3]


def structure_snapshot(
    text: str, headings: Sequence[tuple[int, str, int]], links: Sequence[LinkRow],
    tags: Sequence[str], metadata: Mapping[str, Any], body_start_line: int = 1,
) -> bytes:
    """The compressed snapshot of one revision (what the store keeps)."""
    blocks = paragraph_blocks(text, (line for _, _, line in headings), body_start_line)
    data = {
        "v": STRUCTURE_VERSION,
        "h": [list(h) for h in headings],
        "b": [[b.hash, b.start_line, b.end_line] for b in blocks],
        "l": [[ln.kind, ln.target, ln.anchor, ln.line] for ln in links],
        "t": list(tags),
        "f": {k: v for k, v in metadata.items() if not str(k).startswith("_")},
    }
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=str)
    return zlib.compress(raw.encode("utf-8"), 1)


def load_structure(blob: bytes) -> Structure:
    """Decode a stored snapshot."""
    data = json.loads(zlib.decompress(blob).decode("utf-8"))
    return Structure(
        headings=tuple((int(a), str(b), int(c)) for a, b, c in data["h"]),
        blocks=tuple(Block(str(h), int(s), int(e)) for h, s, e in data["b"]),
        links=tuple((str(k), str(t), a, int(n)) for k, t, a, n in data["l"]),
        tags=tuple(str(t) for t in data["t"]),
        frontmatter=dict(data["f"]),
    )


def text_structure(text: str, kind: str) -> bytes:
    """The snapshot of a revision from its normalised text and kind: a Markdown note's
    headings, links, tags and frontmatter; a converted document's headings and links (its
    metadata is not frontmatter); a plain-text or code file's blocks only."""
    if kind in ("text", "code"):
        return structure_snapshot(text, (), (), (), {})
    from cairn.ingest.markdown import parse_markdown

    parsed = parse_markdown(text)
    links = [LinkRow(ln.kind, ln.target, ln.anchor, ln.alias, ln.embed, ln.line, ln.column, ln.raw)
             for ln in parsed.links]
    headings = [(h.level, h.text, h.line) for h in parsed.headings]
    if kind != "markdown":
        return structure_snapshot(text, headings, links, (), {}, parsed.body_start_line)
    return structure_snapshot(text, headings, links, parsed.tags, parsed.frontmatter, parsed.body_start_line)


def keep_old_revisions(store: Store, known: Iterable[KnownFile]) -> None:
    """Before an index run replaces or deletes these documents, keep the snapshot of the
    revision the index holds now (once per revision)."""
    rows: list[tuple[str, str, bytes]] = []
    for item in known:
        if not item.active or store.revision_structure(item.docid, item.text_hash) is not None:
            continue
        found = store.find_document(docid=item.docid)
        if found is None or found[1] is None or found[0].text_hash != item.text_hash:
            continue
        rows.append((item.docid, item.text_hash, text_structure(found[1], found[0].kind)))
    if rows:
        store.keep_revisions(rows)
