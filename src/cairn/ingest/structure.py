"""The structure snapshot of one document revision: what ``cairn diff`` compares.

Written with every indexed revision (keyed by docid and text hash), it holds the
document's shape and never its body:

- ``h`` headings ``[level, text, line]``;
- ``b`` paragraph blocks ``[hash, start_line, end_line]``: maximal runs of non-blank body
  lines, a heading line ending a block and never part of one, a fenced code block one
  block whatever blank lines it holds; ``hash`` is the first 16 hex digits of the SHA-256
  of the block's lines. Blocks are finer than search passages (a passage holds a whole
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
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cairn.store.records import LinkRow

STRUCTURE_VERSION = 1
_FENCES = ("```", "~~~")


@dataclass(frozen=True, slots=True)
class Block:
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
    headings = set(heading_lines)
    blocks: list[Block] = []
    current: list[str] = []
    start = 0
    fence: str | None = None

    def close(end: int) -> None:
        nonlocal current
        if current:
            digest = hashlib.sha256("\n".join(current).encode("utf-8")).hexdigest()[:16]
            blocks.append(Block(digest, start, end))
        current = []

    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if number < body_start_line:
            continue
        stripped = line.strip()
        if fence is not None:
            current.append(line)
            if stripped.startswith(fence):
                fence = None
            continue
        if number in headings or not stripped:
            close(number - 1)
            continue
        if not current:
            start = number
        current.append(line)
        marker = stripped[:3]
        if marker in _FENCES:
            fence = marker
    close(len(lines))
    return blocks


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
    return zlib.compress(raw.encode("utf-8"), 6)


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
