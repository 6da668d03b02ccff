"""Split a document into passages (chunks) of bounded size, on structural boundaries.

Pure functions over text. A chunk is a span of whole lines: ``text`` is exactly
``"\\n".join(lines[start_line - 1 : end_line])``, so a chunk can always be cited by line
range and re-read from the source file. The one exception is a single line longer than
``max_tokens``: it is cut into parts (at whitespace when there is some, else anywhere),
each a chunk with ``start_line == end_line`` whose ``text`` is a substring of that line.

Markdown (:func:`chunk_markdown`):

1. the body is cut into *sections* at heading lines;
2. a section larger than ``max_tokens`` is split at blank-line (paragraph) boundaries,
   then, for a paragraph that alone is too big, at line boundaries. A fenced code block
   is one unit and is split by lines only when it alone exceeds ``max_tokens``. A line
   longer than ``max_tokens`` is cut into parts of at most ``max_tokens`` (see above);
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
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import attrgetter
from typing import NamedTuple

from cairn.ingest.markdown import Heading

__all__ = ["Chunk", "chunk_code", "chunk_markdown", "chunk_plain", "estimate_tokens"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
# Builds a Chunk from a tuple of its fields: what Chunk's own ``__new__`` does, minus a
# Python-level call.
_new_tuple = tuple.__new__


class Chunk(NamedTuple):
    """A passage: a span of whole lines with the headings that enclose it.

    A NamedTuple rather than a frozen dataclass: it is built for every passage of every
    page, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field)
    costs several times more.
    """

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
    first = body_start_line - 1 if body_start_line > 1 else 0
    # Fast path: most notes fit in one chunk, found without splitting the text into lines.
    whole = _whole_body(text, first, max_tokens, count_tokens)
    if whole is not None:
        if not whole:
            return []
        start_line, end_line, body, size = whole
        return [_new_tuple(Chunk, (start_line, end_line, _path_at(headings, start_line), body, size))]

    lines = text.split("\n")
    sizer = _Sizer(text, lines, count_tokens)
    # Without a fence marker anywhere, no line can open a code block.
    fenced = "```" in text or "~~~" in text
    pieces: list[tuple[int, int, tuple[str, ...]]] = []
    for start, end, path in _sections(headings, first, len(lines)):
        for a, b in _pack(lines, start, end, sizer, max_tokens, min_tokens, fenced=fenced):
            pieces.append((a, b, path))
    return sizer.chunks(_merge_small(pieces, sizer, max_tokens, min_tokens), max_tokens)


def chunk_plain(
    text: str,
    *,
    max_tokens: int = 256,
    min_tokens: int = 48,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> list[Chunk]:
    """Chunk plain text or code: at blank-line boundaries, then at line boundaries."""
    _check_limits(max_tokens, min_tokens)
    whole = _whole_body(text, 0, max_tokens, count_tokens)
    if whole is not None:
        if not whole:
            return []
        start_line, end_line, body, size = whole
        return [_new_tuple(Chunk, (start_line, end_line, (), body, size))]
    lines = text.split("\n")
    sizer = _Sizer(text, lines, count_tokens)
    no_path: tuple[str, ...] = ()
    pieces = [
        (a, b, no_path)
        for a, b in _pack(lines, 0, len(lines), sizer, max_tokens, min_tokens, fenced=False)
    ]
    return sizer.chunks(_merge_small(pieces, sizer, max_tokens, min_tokens), max_tokens)


#: A symbol of a code file: first and last line (1-based, inclusive) and its path
#: (``("Console", "print")`` for a method).
SymbolSpan = tuple[int, int, tuple[str, ...]]


def chunk_code(
    text: str,
    spans: Sequence[SymbolSpan],
    *,
    max_tokens: int = 256,
    min_tokens: int = 48,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> list[Chunk]:
    """Chunk code at symbol boundaries: a passage starts where a class or function starts
    or ends, and its heading path is the innermost symbol enclosing its first line."""
    _check_limits(max_tokens, min_tokens)
    ordered = sorted(spans, key=lambda s: (s[0], -s[1]))  # outer symbols before inner ones
    whole = _whole_body(text, 0, max_tokens, count_tokens)
    if whole is not None:
        if not whole:
            return []
        start_line, end_line, body, size = whole
        inside = [p for a, b, p in ordered if a <= start_line <= b]
        return [_new_tuple(Chunk, (start_line, end_line, inside[-1] if inside else (), body, size))]
    lines = text.split("\n")
    owner: list[tuple[str, ...]] = [()] * len(lines)
    for a, b, path in ordered:
        owner[a - 1 : min(b, len(lines))] = [path] * (min(b, len(lines)) - a + 1)
    sizer = _Sizer(text, lines, count_tokens)
    pieces: list[tuple[int, int, tuple[str, ...]]] = []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or owner[i] != owner[start]:
            pieces += [(a, b, owner[start]) for a, b in
                       _pack(lines, start, i, sizer, max_tokens, min_tokens, fenced=False)]
            start = i
    return sizer.chunks(_merge_small(pieces, sizer, max_tokens, min_tokens), max_tokens)


def _check_limits(max_tokens: int, min_tokens: int) -> None:
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
    if not 0 <= min_tokens <= max_tokens:
        raise ValueError(f"min_tokens must be between 0 and max_tokens, got {min_tokens}")


def _whole_body(
    text: str, first: int, max_tokens: int, count_tokens: Callable[[str], int]
) -> tuple[int, int, str, int] | tuple[()] | None:
    """The lines from 0-based line ``first`` on as one chunk, trimmed of blank lines:
    (start line, end line, text, tokens). ``()`` when there is no non-blank line, None
    when the chunk would exceed ``max_tokens``.

    The string equivalent of ``_trim(text.split("\\n"), first, n_lines)``: a line is
    blank exactly when it is all whitespace, so ``lstrip``/``rstrip`` find the first and
    last non-blank characters in C and the chunk is the whole lines around them.
    """
    start = 0
    if first:  # only frontmatter makes ``first`` non-zero
        for _ in range(first):
            start = text.find("\n", start) + 1
            if not start:
                return ()  # the text has fewer lines than ``first``
    stripped = text[start:].lstrip()
    if not stripped:
        return ()
    lead = len(text) - len(stripped)  # offset of the first non-blank character
    # a: the start of its line (rfind's -1 + 1 == 0 means "no newline": ``start``).
    a = max(text.rfind("\n", start, lead) + 1, start) if lead > start else start
    # b: the end of the line holding the last non-blank character.
    b = text.find("\n", len(text.rstrip()))
    if b == -1:
        b = len(text)
    if count_tokens is estimate_tokens:
        size = (b - a + 3) // 4  # estimate_tokens(text[a:b]) without copying first
        if size > max_tokens:
            return None
        body = text[a:b]
    else:
        body = text[a:b]
        size = count_tokens(body)
        if size > max_tokens:
            return None
    start_line = text.count("\n", 0, a) + 1 if a else 1
    return start_line, start_line + body.count("\n"), body, size


class _Sizer:
    """Token counts and texts of line spans ``lines[a:b]`` (0-based, end-exclusive).

    Spans are sliced from the original text by line offsets rather than re-joined from
    ``lines``. With the default estimator ``size`` is O(1) arithmetic on those offsets,
    which keeps packing linear; any other counter sees the real text.
    """

    __slots__ = ("_count", "_starts", "_text", "size")

    size: Callable[[int, int], int]

    def __init__(self, text: str, lines: list[str], count: Callable[[str], int]) -> None:
        self._text = text
        self._count = count
        # starts[i] is the offset of line i: the sum of len(line) + 1 (its '\n') before
        # it. The last line has no '\n', so starts[len(lines)] == len(text) + 1.
        starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        self._starts = starts
        if count is estimate_tokens:

            def size(a: int, b: int) -> int:
                # (chars + 3) // 4 with chars = starts[b] - starts[a] - 1
                return (starts[b] - starts[a] + 2) // 4 if b > a else 0

        else:

            def size(a: int, b: int) -> int:
                return count(text[starts[a] : starts[b] - 1] if b > a else "")

        # A closure, not a method: it is called once per block while packing.
        self.size = size

    def reach(self, a: int, max_tokens: int) -> int:
        """The largest ``e`` with ``size(a, e') <= max_tokens`` for every ``a < e' <= e``.

        -1 (nothing known) for a custom counter, which need not grow with the span.
        With the estimator, ``size(a, e) <= max_tokens`` exactly when
        ``starts[e] - starts[a] + 2 < 4 * max_tokens + 4``.
        """
        if self._count is not estimate_tokens:
            return -1
        return bisect_right(self._starts, self._starts[a] + 4 * max_tokens + 1) - 1

    def chunk(self, a: int, b: int, path: tuple[str, ...]) -> Chunk:
        body = self._text[self._starts[a] : self._starts[b] - 1]
        return _new_tuple(Chunk, (a + 1, b, path, body, self._count(body)))

    def chunks(self, pieces: list[tuple[int, int, tuple[str, ...]]], max_tokens: int) -> list[Chunk]:
        """The chunks of packed pieces; a one-line piece over ``max_tokens`` is cut up."""
        out: list[Chunk] = []
        size = self.size
        for a, b, path in pieces:
            if b - a == 1 and size(a, b) > max_tokens:
                line = self._text[self._starts[a] : self._starts[b] - 1]
                out.extend(
                    _new_tuple(Chunk, (b, b, path, part, tokens))
                    for part, tokens in _split_line(line, max_tokens, self._count)
                )
            else:
                out.append(self.chunk(a, b, path))
        return out


#: How far back from a part's hard end a cut looks for whitespace (a fraction of the part).
_CUT_LOOKBACK = 4


def _split_line(line: str, max_tokens: int, count: Callable[[str], int]) -> list[tuple[str, int]]:
    """Cut one over-long line into (part, tokens) of at most ``max_tokens`` each.

    A part ends after the last whitespace in its final quarter, else at the character
    limit; parts are stripped of surrounding whitespace, so each is a substring of the
    line. A 19 MB one-line note becomes ~19k passages, not one of 4.9M tokens.
    """
    parts: list[tuple[str, int]] = []
    width = 4 * max_tokens  # the estimator's exact character budget
    n = len(line)
    pos = 0
    while pos < n:
        while pos < n and line[pos].isspace():
            pos += 1
        if pos >= n:
            break
        span = width
        while True:
            end = min(pos + span, n)
            if end < n:
                floor = end - max(span // _CUT_LOOKBACK, 1)
                cut = max(line.rfind(" ", floor, end), line.rfind("\t", floor, end))
                if cut > pos:
                    end = cut
            part = line[pos:end].rstrip()
            tokens = count(part)
            # Another counter may count more tokens than the estimate: shrink until it fits.
            if tokens <= max_tokens or span == 1:
                break
            span = max(span // 2, 1)
        parts.append((part, tokens))
        pos = end
    return parts


def _trim(lines: list[str], a: int, b: int) -> tuple[int, int] | None:
    """Shrink ``[a, b)`` to its first..last non-blank line; None if all blank."""
    while a < b and not lines[a].strip():
        a += 1
    while b > a and not lines[b - 1].strip():
        b -= 1
    return (a, b) if a < b else None


def _path_at(headings: Sequence[Heading], line: int) -> tuple[str, ...]:
    """Texts of the headings enclosing 1-based ``line`` (a heading on it included)."""
    if len(headings) <= 1:  # most pages: no heading or just a title
        return (headings[0].text,) if headings and headings[0].line <= line else ()
    stack: list[Heading] = []
    for h in headings:
        if h.line > line:
            break
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
    return tuple([h.text for h in stack])


_BY_LINE = attrgetter("line")


def _sections(
    headings: Sequence[Heading], first: int, end: int
) -> list[tuple[int, int, tuple[str, ...]]]:
    """Cut ``lines[first:end]`` at heading lines: (start, end, heading path) each."""
    sections: list[tuple[int, int, tuple[str, ...]]] = []
    stack: list[Heading] = []
    start = first
    path: tuple[str, ...] = ()
    for h in sorted(headings, key=_BY_LINE):
        at = h.line - 1
        if at < first or at >= end:
            continue
        if at > start:
            sections.append((start, at, path))
        start = at
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        path = tuple([x.text for x in stack])
    sections.append((start, end, path))
    return sections


# A run of non-blank lines in the one-byte-per-line map built by _blocks.
_NON_BLANK_RUN = re.compile(rb"\x01+")


def _blocks(lines: list[str], a: int, b: int, fenced: bool) -> list[tuple[int, int, bool]]:
    """Blank-line separated blocks of ``lines[a:b]``: (start, end, splittable).

    A fenced code block (blank lines inside included) is one block that is not
    splittable unless it alone is too big.
    """
    if not fenced:
        # Blocks are the maximal runs of non-blank lines. Map each line to one byte
        # (1 = non-blank) and let a regex find the runs: no per-line Python code.
        nonblank = bytes(map(bool, map(str.strip, lines[a:b])))
        runs = map(re.Match.span, _NON_BLANK_RUN.finditer(nonblank))
        return [(a + start, a + end, True) for start, end in runs]
    blocks: list[tuple[int, int, bool]] = []
    i = a
    while i < b:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
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
        while j < b and lines[j].strip() and not _FENCE.match(lines[j]):
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
    size = sizer.size
    atoms = deque(_blocks(lines, a, b, fenced))
    pieces: list[tuple[int, int]] = []
    cur: list[int] | None = None
    # Every span cur[0]:end with end <= fits_to is within max_tokens (see _Sizer.reach):
    # an int comparison instead of a size() call for most blocks.
    fits_to = -1
    while atoms:
        start, end, splittable = atoms.popleft()
        if cur is not None and (end <= fits_to or size(cur[0], end) <= max_tokens):
            cur[1] = end
            continue
        too_big = end - start > 1 and size(start, end) > max_tokens
        fill = (
            cur is not None
            and splittable
            and end - start > 1
            and size(cur[0], cur[1]) < min_tokens
        )
        if too_big or fill:
            atoms.extendleft((i, i + 1, True) for i in range(end - 1, start - 1, -1))
            continue
        if cur is not None:
            pieces.append((cur[0], cur[1]))
        cur = [start, end]
        fits_to = sizer.reach(start, max_tokens)
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
    size = sizer.size
    out: list[tuple[int, int, tuple[str, ...]]] = []
    for a, b, path in pieces:
        if out:
            pa, pb, ppath = out[-1]
            if size(pa, pb) < min_tokens and size(pa, b) <= max_tokens:
                out[-1] = (pa, b, ppath)
                continue
        out.append((a, b, path))
    if len(out) >= 2:
        # A small last piece has no next one: merge it backwards instead.
        (pa, _, ppath), (la, lb, _) = out[-2], out[-1]
        if size(la, lb) < min_tokens and size(pa, lb) <= max_tokens:
            out[-2:] = [(pa, lb, ppath)]
    return out
