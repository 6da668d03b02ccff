"""Code masking for the Markdown scanner: fenced and indented code blocks and code spans blanked out, offsets kept."""

from __future__ import annotations

import re
from bisect import bisect_right

# A fence line after any indentation, block-quote markers or a list marker (group 1):
# only a fence indented 0-3 spaces at top level runs to the end of the document when it
# is never closed; a nested one (in a list item or quote) counts only once it closes.
_FENCE_LINE = re.compile(r"\n([ \t>]*+(?:(?:[-+*]|\d{1,9}[.)])[ \t]++)?)(`{3,}|~{3,})([^\n]*)")
_TOP_LEVEL = re.compile(r" {0,3}")
# A line indented by 4+ columns right after a blank line: where an indented code block
# can start (it cannot interrupt a paragraph).
_INDENTED_AFTER_BLANK = re.compile(r"\n[ \t]*(?=\n(?: {4}| {0,3}\t)[ \t]*[^ \t\n])")
# Blank lines and lines indented 4+ columns: the most an indented code block can span.
_INDENTED_RUN = re.compile(r"(?:\n(?:[ \t]*+(?=\n|\Z)|(?: {4}| {0,3}\t)[^\n]*+))++")
_LIST_ITEM = re.compile(r"([ \t]*)(?:[-+*]|\d{1,9}[.)])(?:([ \t]+)|$)")
# A code span: a maximal backtick run (not escaped), content that does not cross a
# blank line, and a closing run of exactly the same length.
_CODE_SPAN = re.compile(r"(`(?<![`\\]`)`*+)(?:[^`\n]++|\n(?![ \t]*\n)|(?!\1(?!`))`++)*+\1(?!`)")
_NOT_NEWLINE = re.compile(r"[^\n]")
# --- code masking ------------------------------------------------------------------


class _CodeSpans:
    """Answers "does this offset fall inside an inline code span?".

    Code spans cannot cross a blank line, so spans are computed per paragraph, only
    for paragraphs that hold a candidate link or tag and a backtick. Candidates come in
    increasing order, so a one-paragraph cache keeps the whole check linear.
    """

    __slots__ = ("_ends", "_masked", "_para_end", "_para_start", "_start", "_starts")

    def __init__(self, masked: str, start: int) -> None:
        self._masked = masked
        self._start = start
        self._para_start = self._para_end = -1
        self._starts: list[int] = []
        self._ends: list[int] = []

    def contains(self, pos: int) -> bool:
        masked = self._masked
        # A span holding ``pos`` closes with a backtick at or after ``pos`` in the same
        # paragraph. Usually there is none, and two finds skip the paragraph scan.
        tick = masked.find("`", pos)
        if tick == -1 or masked.find("\n\n", pos, tick) != -1:
            return False
        if not self._para_start <= pos < self._para_end:
            # A whitespace-only line also ends a paragraph; missing it only widens it.
            para_start = max(masked.rfind("\n\n", self._start, pos), self._start)
            para_end = masked.find("\n\n", pos)
            if para_end == -1:
                para_end = len(masked)
            self._para_start, self._para_end = para_start, para_end
            self._starts, self._ends = [], []
            if masked.find("`", para_start, para_end) != -1:
                for m in _CODE_SPAN.finditer(masked, para_start, para_end):
                    self._starts.append(m.start())
                    self._ends.append(m.end())
        if not self._starts:
            return False
        i = bisect_right(self._starts, pos) - 1
        return i >= 0 and pos < self._ends[i]


def _mask_code_blocks(src: str, start: int) -> str:
    """Blank every fenced and indented code block (fence lines included) after ``start``."""
    fenced = "```" in src or "~~~" in src
    if not fenced and "\n    " not in src and "\t" not in src:
        return src  # most notes: no fence marker and no indented line
    ranges = _fenced_ranges(src, start) if fenced else []
    if "\n    " in src or "\t" in src:
        ranges = _indented_ranges(src, start, ranges)
    if not ranges:
        return src
    parts: list[str] = []
    prev = 0
    for a, b in sorted(ranges):
        if a < prev:  # an indented block inside a fenced one: already blank
            a = prev
            if b <= a:
                continue
        parts.append(src[prev:a])
        parts.append(_NOT_NEWLINE.sub(" ", src[a:b]))
        prev = b
    parts.append(src[prev:])
    return "".join(parts)


#: Unclosed nested fence openers looked past before the rest are taken as text: each one
#: costs a scan to the end of the document (a bound for adversarial input).
_MAX_UNCLOSED_NESTED = 4


def _fenced_ranges(src: str, start: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the fenced code blocks after ``start``."""
    ranges: list[tuple[int, int]] = []
    open_char = ""
    open_len = open_at = open_end = 0
    open_top = False
    unclosed = 0
    # Per fence character, the shortest nested opener found never to close: a later one
    # at least as long cannot close either (its closer would close that one).
    dead: dict[str, int] = {}
    pos = start
    while True:
        m = _FENCE_LINE.search(src, pos)
        if m is None:
            if not open_char:
                break
            if open_top:  # an unclosed top-level fence runs to the end of the document
                ranges.append((open_at, len(src)))
                break
            # A nested opener that never closes is text: look again just after it.
            dead[open_char] = min(dead.get(open_char, open_len), open_len)
            open_char = ""
            unclosed += 1
            if unclosed > _MAX_UNCLOSED_NESTED:
                break
            pos = open_end
            continue
        pos = m.end()
        prefix, fence, info = m.group(1, 2, 3)
        if not open_char:
            # The info string of a backtick fence may not contain backticks.
            if fence[0] == "`" and "`" in info:
                continue
            top = _TOP_LEVEL.fullmatch(prefix) is not None
            if not top and len(fence) >= dead.get(fence[0], len(fence) + 1):
                continue
            open_char, open_len, open_at, open_end = fence[0], len(fence), m.start() + 1, m.end()
            open_top = top
        elif fence[0] == open_char and len(fence) >= open_len and not info.strip():
            ranges.append((open_at, m.end()))
            open_char = ""
    return ranges


def _columns(line: str) -> int:
    """Indentation of a line in columns (a tab advances to the next multiple of 4)."""
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
    return col


def _width(prefix: str) -> int:
    """Columns a line's first characters take (a tab advances to the next multiple of 4)."""
    col = 0
    for ch in prefix:
        col += 4 - col % 4 if ch == "\t" else 1
    return col


def _container_indent(src: str, line_start: int, indent: int) -> int:
    """Content indent of the list item holding a line of ``indent`` columns, or 0.

    Walks back over earlier lines: the nearest list item line whose content starts at or
    before ``indent`` holds it; a non-blank line indented less narrows what can hold it.
    """
    bound = indent
    end = line_start - 1  # the '\n' before the line
    while end > 0:
        begin = src.rfind("\n", 0, end) + 1
        line = src[begin:end]
        end = begin - 1
        if not line.strip():
            continue
        m = _LIST_ITEM.match(line)
        if m is not None:
            marker_col = _columns(m.group(1))
            if m.group(2) is None:  # an empty item: its content starts after the marker
                content = _width(line[: m.end()]) + 1
            else:
                marker_end = _width(line[: m.start(2)])
                spaces = _width(line[: m.end(2)]) - marker_end
                content = marker_end + (spaces if spaces <= 4 else 1)
            if content <= bound:
                return content
            bound = min(bound, marker_col)
        else:
            col = _columns(line)
            if col < bound:
                bound = col
        if bound == 0:
            return 0
    return 0


def _indented_ranges(src: str, start: int, fenced: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``fenced`` plus the indented code blocks after ``start`` outside them.

    A block starts with a line indented 4+ columns past its container (the document, or
    the list item holding it) after a blank line, and runs over blank lines and lines
    indented at least as far.
    """
    ranges = list(fenced)
    starts = sorted(a for a, _ in fenced)
    ends = {a: b for a, b in fenced}
    pos = start
    while (m := _INDENTED_AFTER_BLANK.search(src, pos)) is not None:
        line_start = m.end() + 1
        pos = line_start
        i = bisect_right(starts, line_start) - 1
        if i >= 0 and line_start < ends[starts[i]]:
            pos = ends[starts[i]]
            continue
        run = _INDENTED_RUN.match(src, m.end())
        if run is not None:
            # Masking changes nothing where there is no tag, link or heading to find: the
            # common case of nested list items without them skips the container walk.
            text = src[line_start : run.end()]
            if "#" not in text and "[" not in text and "<" not in text:
                pos = run.end()
                continue
        line_end = src.find("\n", line_start)
        line_end = len(src) if line_end == -1 else line_end
        indent = _columns(src[line_start:line_end])
        floor = _container_indent(src, line_start, indent) + 4
        if indent < floor:
            continue
        # Extend over blank lines and lines indented at least ``floor``.
        block_end = line_end
        nxt = line_end
        while nxt < len(src):
            after = src.find("\n", nxt + 1)
            after = len(src) if after == -1 else after
            line = src[nxt + 1 : after]
            if line.strip():
                if _columns(line) < floor:
                    break
                block_end = after
            nxt = after
        ranges.append((line_start, block_end))
        pos = block_end
    return ranges
