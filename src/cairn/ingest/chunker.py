"""Split a document into passages (chunks) of bounded size, on structural boundaries.

Pure functions over text. A chunk is a span of whole lines: ``text`` is exactly
``"\\n".join(lines[start_line - 1 : end_line])``, so a chunk can always be cited by line
range and re-read from the source file.

Markdown (:func:`chunk_markdown`):

1. the body is cut into *sections* at heading lines;
2. a section larger than ``max_tokens`` is split at blank-line (paragraph) boundaries,
   then, for a paragraph that alone is too big, at line boundaries. A fenced code block
   is one unit and is split by lines only when it alone exceeds ``max_tokens``. A single
   line is atomic: a line longer than ``max_tokens`` is a chunk of its own;
3. a piece smaller than ``min_tokens`` is merged with the next one when the result
   still fits in ``max_tokens`` (and a small last piece with the one before it).

Heading path: a chunk takes the path of the section its first line belongs to. A chunk
that starts at a heading is labelled with that heading (the first heading inside the
chunk); a chunk that starts mid-section is labelled with the enclosing headings.

Leading/trailing blank lines of a chunk are trimmed and whitespace-only chunks are
dropped, so every non-blank body line is in exactly one chunk.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cairn.ingest.markdown import Heading

__all__ = ["Chunk", "chunk_markdown", "chunk_plain", "estimate_tokens"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage: a span of whole lines with the headings that enclose it."""

    start_line: int
    end_line: int
    heading_path: tuple[str, ...]
    text: str
    token_count: int


def estimate_tokens(text: str) -> int:
    """The declared token estimate: ``ceil(len(text) / 4)``, at least 1 for non-empty text."""
    return (len(text) + 3) // 4


def chunk_markdown(
    text: str,
    headings: Sequence[Heading],
    *,
    body_start_line: int = 1,
    max_tokens: int = 256,
    min_tokens: int = 48,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> list[Chunk]:
    """Chunk a Markdown document along its headings (see the module docstring).

    ``headings`` come from :func:`cairn.ingest.markdown.parse_markdown`; lines before
    ``body_start_line`` (frontmatter) are never part of a chunk.
    """
    _check_limits(max_tokens, min_tokens)
    lines = text.split("\n")
    first = max(body_start_line, 1) - 1
    sizer = _Sizer(lines, count_tokens)
    span = _trim(lines, first, len(lines))
    if span is None:
        return []
    # Fast path: most notes fit in one chunk.
    if (size := sizer.size(*span)) <= max_tokens:
        return [sizer.chunk(span[0], span[1], _path_at(headings, span[0] + 1), size)]

    sections = _sections(headings, first, len(lines))
    pieces: list[tuple[int, int, tuple[str, ...]]] = []
    for start, end, path in sections:
        for a, b in _pack(lines, start, end, sizer, max_tokens, min_tokens, fenced=True):
            pieces.append((a, b, path))
    return [sizer.chunk(a, b, p) for a, b, p in _merge_small(pieces, sizer, max_tokens, min_tokens)]


def chunk_plain(
    text: str,
    *,
    max_tokens: int = 256,
    min_tokens: int = 48,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> list[Chunk]:
    """Chunk plain text or code: at blank-line boundaries, then at line boundaries."""
    _check_limits(max_tokens, min_tokens)
    lines = text.split("\n")
    sizer = _Sizer(lines, count_tokens)
    span = _trim(lines, 0, len(lines))
    if span is None:
        return []
    if (size := sizer.size(*span)) <= max_tokens:
        return [sizer.chunk(span[0], span[1], (), size)]
    no_path: tuple[str, ...] = ()
    pieces = [
        (a, b, no_path)
        for a, b in _pack(lines, 0, len(lines), sizer, max_tokens, min_tokens, fenced=False)
    ]
    return [sizer.chunk(a, b, p) for a, b, p in _merge_small(pieces, sizer, max_tokens, min_tokens)]


def _check_limits(max_tokens: int, min_tokens: int) -> None:
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
    if not 0 <= min_tokens <= max_tokens:
        raise ValueError(f"min_tokens must be between 0 and max_tokens, got {min_tokens}")


class _Sizer:
    """Token counts of line spans ``lines[a:b]`` (0-based, end-exclusive).

    With the default estimator the count is computed from prefix sums of line lengths
    in O(1), which keeps packing linear; any other counter sees the real text.
    """

    __slots__ = ("_count", "_lines", "_prefix")

    def __init__(self, lines: list[str], count: Callable[[str], int]) -> None:
        self._lines = lines
        self._count = count
        self._prefix: list[int] | None = None

    def size(self, a: int, b: int) -> int:
        if self._count is estimate_tokens:
            if self._prefix is None:
                total = 0
                prefix = [0]
                for line in self._lines:
                    total += len(line) + 1
                    prefix.append(total)
                self._prefix = prefix
            chars = self._prefix[b] - self._prefix[a] - 1 if b > a else 0
            return (chars + 3) // 4
        return self._count("\n".join(self._lines[a:b]))

    def chunk(self, a: int, b: int, path: tuple[str, ...], size: int | None = None) -> Chunk:
        body = "\n".join(self._lines[a:b])
        return Chunk(a + 1, b, path, body, self._count(body) if size is None else size)


def _trim(lines: list[str], a: int, b: int) -> tuple[int, int] | None:
    """Shrink ``[a, b)`` to its first..last non-blank line; None if all blank."""
    while a < b and not lines[a].strip():
        a += 1
    while b > a and not lines[b - 1].strip():
        b -= 1
    return (a, b) if a < b else None


def _path_at(headings: Sequence[Heading], line: int) -> tuple[str, ...]:
    """Texts of the headings enclosing 1-based ``line`` (a heading on it included)."""
    stack: list[Heading] = []
    for h in headings:
        if h.line > line:
            break
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
    return tuple(h.text for h in stack)


def _sections(
    headings: Sequence[Heading], first: int, end: int
) -> list[tuple[int, int, tuple[str, ...]]]:
    """Cut ``lines[first:end]`` at heading lines: (start, end, heading path) each."""
    sections: list[tuple[int, int, tuple[str, ...]]] = []
    stack: list[Heading] = []
    start = first
    path: tuple[str, ...] = ()
    for h in sorted(headings, key=lambda h: h.line):
        at = h.line - 1
        if at < first or at >= end:
            continue
        if at > start:
            sections.append((start, at, path))
        start = at
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        path = tuple(x.text for x in stack)
    sections.append((start, end, path))
    return sections


def _blocks(lines: list[str], a: int, b: int, fenced: bool) -> list[tuple[int, int, bool]]:
    """Blank-line separated blocks of ``lines[a:b]``: (start, end, splittable).

    A fenced code block (blank lines inside included) is one block that is not
    splittable unless it alone is too big.
    """
    blocks: list[tuple[int, int, bool]] = []
    i = a
    while i < b:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if fenced:
            m = _FENCE.match(line)
            if m is not None and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                char, size = m.group(1)[0], len(m.group(1))
                j = i + 1
                while j < b:
                    close = _FENCE.match(lines[j])
                    if (
                        close is not None
                        and close.group(1)[0] == char
                        and len(close.group(1)) >= size
                        and not close.group(2).strip()
                    ):
                        break
                    j += 1
                end = min(j + 1, b)
                blocks.append((i, end, False))
                i = end
                continue
        j = i + 1
        while j < b and lines[j].strip() and not (fenced and _FENCE.match(lines[j])):
            j += 1
        blocks.append((i, j, True))
        i = j
    return blocks


def _pack(
    lines: list[str],
    a: int,
    b: int,
    sizer: _Sizer,
    max_tokens: int,
    min_tokens: int,
    *,
    fenced: bool,
) -> list[tuple[int, int]]:
    """Greedily pack the blocks of ``lines[a:b]`` into trimmed spans of at most max_tokens.

    A block that does not fit starts a new piece. It is broken into lines instead when
    it alone is too big, or when it is a paragraph and the current piece is still
    smaller than ``min_tokens`` (so a heading is not left alone above a long paragraph).
    """
    atoms = deque(_blocks(lines, a, b, fenced))
    pieces: list[tuple[int, int]] = []
    cur: list[int] | None = None
    while atoms:
        start, end, splittable = atoms.popleft()
        if cur is not None and sizer.size(cur[0], end) <= max_tokens:
            cur[1] = end
            continue
        too_big = end - start > 1 and sizer.size(start, end) > max_tokens
        fill = (
            cur is not None
            and splittable
            and end - start > 1
            and sizer.size(cur[0], cur[1]) < min_tokens
        )
        if too_big or fill:
            atoms.extendleft((i, i + 1, True) for i in range(end - 1, start - 1, -1))
            continue
        if cur is not None:
            pieces.append((cur[0], cur[1]))
        cur = [start, end]
    if cur is not None:
        pieces.append((cur[0], cur[1]))
    # Lines of a split code block may be blank: trim every piece.
    return [span for p in pieces if (span := _trim(lines, p[0], p[1])) is not None]


def _merge_small(
    pieces: list[tuple[int, int, tuple[str, ...]]],
    sizer: _Sizer,
    max_tokens: int,
    min_tokens: int,
) -> list[tuple[int, int, tuple[str, ...]]]:
    """Merge a piece under ``min_tokens`` into the next one when the result fits."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    for a, b, path in pieces:
        if out:
            pa, pb, ppath = out[-1]
            if sizer.size(pa, pb) < min_tokens and sizer.size(pa, b) <= max_tokens:
                out[-1] = (pa, b, ppath)
                continue
        out.append((a, b, path))
    if len(out) >= 2:
        # A small last piece has no next one: merge it backwards instead.
        (pa, _, ppath), (la, lb, _) = out[-2], out[-1]
        if sizer.size(la, lb) < min_tokens and sizer.size(pa, lb) <= max_tokens:
            out[-2:] = [(pa, lb, ppath)]
    return out
