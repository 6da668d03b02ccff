"""Markdown parsing: frontmatter, title, tags, aliases, headings and links.

A pure function over already-normalised text (``str`` with ``\\n`` line ends). It is
not a full CommonMark renderer: it extracts exactly what the index needs, with
line/column positions, and never raises on any input.

Speed matters (it runs on every page of every collection), so the scanner works on the
whole text with compiled regexes rather than per-character loops. Code is excluded by
*masking*: fenced blocks and inline code spans are overwritten with spaces (newlines
kept), so every offset in the masked text is still an offset in the original text and
line/column numbers come for free. Reported text (heading text, link ``raw``) is always
sliced from the original.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from bisect import bisect_right
from typing import Any, Literal, NamedTuple

__all__ = ["Heading", "Link", "ParsedMarkdown", "parse_markdown"]

#: Frontmatter larger than this is reported as an error instead of parsed: no real note
#: needs it, and it bounds the YAML parser's time on hostile input.
MAX_FRONTMATTER_CHARS = 256 * 1024
#: Bounds on the converted frontmatter, so YAML alias bombs and self-referencing
#: aliases (``&a [*a]``) become a ``frontmatter_error`` instead of a hang or a crash.
_MAX_FRONTMATTER_NODES = 20_000
_MAX_FRONTMATTER_DEPTH = 50


# The result types are NamedTuples rather than frozen dataclasses: they are built for
# every page, heading and link, and a frozen dataclass's ``__init__`` (one
# ``object.__setattr__`` per field) costs several times more than building a tuple.


class Heading(NamedTuple):
    """A heading: ATX (``## Text``) or setext (text underlined with ``===``/``---``)."""

    level: int
    text: str
    line: int


class Link(NamedTuple):
    """A wiki link, Markdown link/image or autolink, with its exact source position.

    ``target`` is the raw target without anchor or alias (``""`` for a same-note
    anchor such as ``[[#Heading]]``). External URLs (anything with a scheme) are kept
    whole, fragment included, with ``anchor=None``: a URL fragment is not a note heading.
    """

    kind: Literal["wiki", "markdown"]
    target: str
    anchor: str | None
    alias: str | None
    embed: bool
    line: int
    column: int
    raw: str


class ParsedMarkdown(NamedTuple):
    """Everything :func:`parse_markdown` extracts from one note."""

    frontmatter: dict[str, Any]
    frontmatter_error: str | None
    body_start_line: int
    title: str | None
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    date: str | None
    author: str | None
    headings: tuple[Heading, ...]
    links: tuple[Link, ...]
    #: Why a frontmatter ``date``/``created`` was not taken (it does not parse as a date).
    date_error: str | None = None


# --- regexes -----------------------------------------------------------------------
#
# The body is scanned as ``"\n" + text``: with that sentinel every line starts after a
# '\n', so line-anchored patterns begin with a literal '\n' instead of ``^`` under
# re.MULTILINE, which lets the regex engine skip ahead with a fast literal search
# (about 5x faster). Patterns use possessive quantifiers so no input can backtrack
# catastrophically. None can match the empty string, so scans are written as loops of
# ``pattern.search(text, pos)`` from the previous match's end: the same matches as
# ``finditer``, without its per-call scanner set-up, which dominates on short pages.

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
# One pass finds both ATX heading lines (groups 1-2) and setext underlines (group 3).
_HEADING_LINE = re.compile(r"\n {0,3}(?:(#{1,6})(?=[ \t\n]|\Z)([^\n]*)|(=++|-++)[ \t]*(?=\n|\Z))")
_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
# Lines that cannot be (or end) a setext heading's paragraph.
_LIST_OR_QUOTE = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>")
_THEMATIC_BREAK = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_ATX_LINE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")

# Three link patterns, each starting with a literal (fast to find), merged by position.
_WIKI_LINK = re.compile(r"\[\[([^\[\]\n]*+)\]\]")
_MARKDOWN_LINK = re.compile(
    r"""
    \[(?P<text>(?:[^\[\]\\\n]++|\n(?![ \t]*\n)|\\.|\[[^\[\]\n]*+\])*+)\]
    \([ \t]*
        (?:<(?P<angle>[^<>\n]*+)>|(?P<dest>(?:[^\s()<>\\]++|\\.|\((?:[^\s()\\]|\\.)*+\))*+))
        (?:[ \t]+(?:"[^"\n]*+"|'[^'\n]*+'|\([^()\n]*+\)))?
    [ \t]*\)
    """,
    re.X,
)
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*+)>")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,31}:")
# '#tag' after whitespace, an opening bracket, or at a line start; at least one letter
# or '_' so '#123' (an issue number) is not a tag. 'x.com/#frag', '&#123;' and 'C#'
# fail the look-behind.
_TAG = re.compile(r"#(?<![^\s(\[{]#)([\w/-]*[^\W\d][\w/-]*)")
_TAG_SPLIT = re.compile(r"[,\s]+")
_NOT_NEWLINE = re.compile(r"[^\n]")

# Builds a result NamedTuple from a tuple of its fields: what the NamedTuple's own
# ``__new__`` does, minus a Python-level call (this runs per page, heading and link).
_new_tuple = tuple.__new__

_DATE_FORMATS = ("%Y/%m/%d", "%Y.%m.%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")


def parse_markdown(text: str) -> ParsedMarkdown:
    """Parse one Markdown note; never raises.

    Frontmatter is recognised only when line 1 is ``---`` and a later line is ``---``
    or ``...``; a block that is not a valid YAML mapping yields ``frontmatter={}`` and
    a ``frontmatter_error`` (the block is still treated as frontmatter, not body).
    Headings, tags and links inside fenced or indented code blocks (a fence nested in a
    list item or block quote included) or inline code spans are ignored.
    """
    frontmatter: dict[str, Any] = {}
    raw_meta: dict[Any, Any] = {}
    error: str | None = None
    body_offset = 0
    body_start_line = 1
    if text.startswith("---"):
        block = _frontmatter_block(text)
        if block is not None:
            yaml_text, body_offset, body_start_line = block
            raw_meta, frontmatter, error = _load_frontmatter(yaml_text)

    src = "\n" + text
    # In ``src`` the '\n' before the first body line is at index ``body_offset``; every
    # scan starts there, so frontmatter is never scanned.
    start = body_offset
    masked = _mask_code_blocks(src, start)
    headings = _headings(src, masked, start)
    code = _CodeSpans(masked, start)
    links, link_spans = _links(src, masked, start, code)
    inline_tags = _inline_tags(masked, start, link_spans, code)

    title = _scalar_text(raw_meta.get("title")) if raw_meta else None
    if title is None:
        for h in headings:
            if h.level == 1 and h.text:
                title = h.text
                break
    if not raw_meta:  # the common case: no frontmatter, nothing more to read
        return _new_tuple(ParsedMarkdown, (
            {}, error, body_start_line, title, _dedupe(inline_tags), (), None, None,
            tuple(headings), tuple(links), None,
        ))
    tags = _dedupe(
        [*_meta_tags(raw_meta.get("tags")), *_meta_tags(raw_meta.get("tag")), *inline_tags]
    )
    aliases = _dedupe(
        [*_meta_strings(raw_meta.get("aliases")), *_meta_strings(raw_meta.get("alias"))]
    )
    date_key = "date" if raw_meta.get("date") is not None else "created"
    date_value = raw_meta.get(date_key)
    date = _meta_date(date_value)
    date_error = None
    if date is None and _scalar_text(date_value) is not None:
        date_error = f"frontmatter {date_key} {_one_line(str(date_value))[:80]!r} is not a date; ignored"
    return ParsedMarkdown(
        frontmatter=frontmatter,
        frontmatter_error=error,
        body_start_line=body_start_line,
        title=title,
        tags=tags,
        aliases=aliases,
        date=date,
        author=_meta_author(raw_meta.get("author")),
        headings=tuple(headings),
        links=tuple(links),
        date_error=date_error,
    )


# --- frontmatter -------------------------------------------------------------------


def _frontmatter_block(text: str) -> tuple[str, int, int] | None:
    """Return (yaml text, body offset, body start line) or None when there is no block."""
    first_end = text.find("\n")
    if first_end == -1 or text[:first_end].rstrip(" \t") != "---":
        return None
    pos = first_end + 1
    line = 2
    while pos <= len(text):
        end = text.find("\n", pos)
        if end == -1:
            end = len(text)
        if text[pos:end].rstrip(" \t") in ("---", "..."):
            return text[first_end + 1 : pos], min(end + 1, len(text)), line + 1
        pos = end + 1
        line += 1
    return None


def _load_frontmatter(yaml_text: str) -> tuple[dict[Any, Any], dict[str, Any], str | None]:
    """Parse a frontmatter block: (raw mapping, JSON-safe mapping, error message)."""
    if len(yaml_text) > MAX_FRONTMATTER_CHARS:
        return {}, {}, f"frontmatter is larger than {MAX_FRONTMATTER_CHARS} characters"
    # PyYAML is imported on the first frontmatter, not at start-up (every CLI call pays imports).
    import yaml

    # libyaml is ~10x faster; the pure-Python loader is a correct fallback.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        loaded = yaml.load(yaml_text, Loader=loader)
    except yaml.YAMLError as exc:
        return {}, {}, f"invalid YAML frontmatter: {_one_line(str(exc))}"
    except Exception as exc:  # never raise: e.g. ValueError for 2024-13-45, RecursionError
        return {}, {}, f"invalid YAML frontmatter: {type(exc).__name__}: {_one_line(str(exc))}"
    if loaded is None:
        return {}, {}, None  # an empty block is an empty mapping
    if not isinstance(loaded, dict):
        return {}, {}, f"frontmatter is a YAML {type(loaded).__name__}, not a mapping"
    try:
        safe = _json_safe(loaded, [_MAX_FRONTMATTER_NODES], 0)
    except _TooComplex:
        return {}, {}, "frontmatter is too large or too deeply nested"
    assert isinstance(safe, dict)
    return loaded, safe, None


class _TooComplex(Exception):
    """The frontmatter exceeds the node or depth budget."""


def _json_safe(value: Any, budget: list[int], depth: int) -> Any:
    """Convert a YAML value to JSON-safe data (dates -> ISO strings, odd scalars -> str)."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_FRONTMATTER_DEPTH:
        raise _TooComplex
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # NaN/inf are not JSON; keep the YAML spelling rather than drop the key.
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {
            _json_key(k): _json_safe(v, budget, depth + 1) for k, v in value.items()
        }
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v, budget, depth + 1) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _json_key(key: Any) -> str:
    """A JSON object key for a YAML mapping key (YAML allows ints, dates, null...)."""
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, (dt.date, dt.datetime)):
        return key.isoformat()
    return str(key)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _scalar_text(value: Any) -> str | None:
    """A non-empty display string for a scalar frontmatter value, else None."""
    if value is None or isinstance(value, (dict, list, tuple, set)):
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def _meta_tags(value: Any) -> list[str]:
    """Tags from frontmatter: a list, or a comma/space-separated string."""
    out: list[str] = []
    for item in _as_list(value):
        text = _scalar_text(item)
        if text is None:
            continue
        for part in _TAG_SPLIT.split(text):
            tag = part.lstrip("#").rstrip("/").lower()
            if tag:
                out.append(tag)
    return out


def _meta_strings(value: Any) -> list[str]:
    """Strings from a frontmatter value that may be a list or a single string."""
    return [t for t in (_scalar_text(v) for v in _as_list(value)) if t is not None]


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        return list(value)
    return [value]


def _meta_date(value: Any) -> str | None:
    """An ISO-8601 string when the value is (or parses as) a date, else None.

    A value that is not a date (``not-a-date``) must not be stored as one: dates are
    compared as ISO strings, so it would match ``--since 2030-01-01``."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    if not text:
        return None
    for parse in (dt.date.fromisoformat, dt.datetime.fromisoformat):
        try:
            return parse(text).isoformat()
        except ValueError:
            pass
    if any(c.isalpha() for c in text) or "/" in text or "." in text:
        for fmt in _DATE_FORMATS:
            try:
                return dt.datetime.strptime(text, fmt).date().isoformat()
            except ValueError:
                pass
    return None


def _meta_author(value: Any) -> str | None:
    """Author as one string; a list is joined with ", ", a mapping uses its ``name``."""
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, (list, tuple)):
        names = [n for n in (_meta_author(v) for v in value) if n]
        return ", ".join(names) or None
    return _scalar_text(value)


def _dedupe(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items)) if items else ()


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


# --- headings ----------------------------------------------------------------------


def _headings(src: str, masked: str, start: int) -> list[Heading]:
    """ATX and setext headings in document order (fenced code already masked)."""
    headings: list[Heading] = []
    line = 0
    last = 0
    # Index of the '\n' before the earliest line a setext paragraph may use: the body's
    # first line, or the line after the previous heading.
    floor = start
    search = _HEADING_LINE.search
    pos = start
    while (m := search(masked, pos)) is not None:
        pos = m.end()
        hashes, content = m.group(1, 2)
        if hashes is not None:
            line_start = m.start() + 1
            line += src.count("\n", last, line_start)
            last = line_start
            # Masking blanks whole lines, so a heading line is the same in ``src``.
            content = content.strip()
            if content.endswith("#"):
                content = _ATX_CLOSING.sub("", content).strip()
            headings.append(_new_tuple(Heading, (len(hashes), content, line)))
            floor = pos
            continue
        para_nl = _setext_paragraph(masked, m.start(), floor)
        if para_nl is None:
            continue
        line += src.count("\n", last, para_nl + 1)
        last = para_nl + 1
        text = " ".join(part.strip() for part in src[para_nl + 1 : m.start()].split("\n"))
        headings.append(Heading(1 if m.group(3)[0] == "=" else 2, text, line))
        floor = pos
    return headings


def _setext_paragraph(masked: str, underline_nl: int, floor: int) -> int | None:
    """Index of the '\n' before the paragraph a setext underline turns into a heading.

    Walks back over the paragraph's lines. None when there is no paragraph (then the
    underline is a thematic break or text), or when the paragraph continues a list
    item or block quote, or starts as indented code.
    """
    first_line = ""
    para_nl = pos = underline_nl
    while pos > floor:
        prev_nl = masked.rfind("\n", 0, pos)
        prev = masked[prev_nl + 1 : pos]
        if not prev.strip() or _ATX_LINE.match(prev) or _THEMATIC_BREAK.match(prev):
            break
        if _LIST_OR_QUOTE.match(prev):
            return None
        first_line = prev
        para_nl = pos = prev_nl
    if not first_line or first_line.startswith(("    ", "\t")):
        return None
    return para_nl


# --- links and tags ----------------------------------------------------------------


# A link found by one of the three patterns, before overlaps are resolved:
# (start, end, kind, target, anchor, alias, embed).
_Found = tuple[int, int, Literal["wiki", "markdown"], str, str | None, str | None, bool]


def _links(
    src: str, masked: str, start: int, code: _CodeSpans
) -> tuple[list[Link], list[tuple[int, int]]]:
    """Links in document order, plus the spans of top-level links (for tag exclusion)."""
    found: list[_Found] = []
    if "[" in masked:
        if "[[" in masked:
            search = _WIKI_LINK.search
            pos = start
            while (m := search(masked, pos)) is not None:
                a, pos = m.span()
                _add_wiki_link(found, src, a, pos, m.group(1))
        _find_markdown_links(found, src, masked, start, len(masked))
    if "<" in masked:
        search = _AUTOLINK.search
        pos = start
        while (m := search(masked, pos)) is not None:
            a, pos = m.span()
            if src[a - 1] != "\\":
                found.append((a, pos, "markdown", m.group(1), None, None, False))
    if not found:
        return [], []
    # Wiki links win ties ('[[a]](b)' is a wiki link then text); a link overlapping an
    # earlier one is dropped, except images nested inside a link's text.
    if len(found) > 1:
        found.sort(key=lambda item: (item[0], -item[1]))
    links: list[Link] = []
    spans: list[tuple[int, int]] = []
    # Line and column of each link, counted incrementally (links are in order). ``nl`` is
    # the '\n' before the current line; src[0] is the sentinel '\n', so line >= 1.
    line = nl = counted = 0
    end = -1
    for a, b, kind, target, anchor, alias, embed in found:
        if code.contains(a + embed):
            continue
        if a < end:
            if not (embed and kind == "markdown" and b <= end):
                continue
        else:
            spans.append((a, b))
            end = b
        newlines = src.count("\n", counted, a)
        if newlines:
            line += newlines
            nl = src.rfind("\n", counted, a)
        counted = a
        links.append(
            _new_tuple(Link, (kind, target, anchor, alias, embed, line, a - nl, src[a:b]))
        )
    return links, spans


def _find_markdown_links(
    found: list[_Found], src: str, masked: str, start: int, end: int
) -> None:
    search = _MARKDOWN_LINK.search
    pos = start
    while (m := search(masked, pos, end)) is not None:
        a, pos = m.span()
        if src[a - 1] == "\\":
            continue  # '\[x](y)' is literal text
        embed = src[a - 1] == "!" and src[a - 2] != "\\"
        dest = m.group("angle")
        if dest is None:
            dest = m.group("dest")
        dest = dest.strip()
        alias = src[m.start("text") : m.end("text")].strip() or None
        if _SCHEME.match(dest):
            # A URL fragment is not a note heading: keep external URLs whole.
            found.append((a - embed, m.end(), "markdown", dest, None, alias, embed))
        else:
            target, _, anchor = dest.partition("#")
            if target or anchor:
                found.append(
                    (a - embed, m.end(), "markdown", target, anchor or None, alias, embed)
                )
        if "[" in m.group("text"):
            # [![badge](img.png)](https://ci) holds an image inside the link text.
            _find_markdown_links(found, src, masked, m.start("text"), m.end("text"))


def _add_wiki_link(found: list[_Found], src: str, a: int, b: int, inner: str) -> None:
    if src[a - 1] == "\\":
        return  # '\[[x]]' is literal text
    embed = src[a - 1] == "!" and src[a - 2] != "\\"
    target_part, _, alias = inner.partition("|")
    # Inside a table the pipe is written '\|'.
    target_part = target_part.removesuffix("\\")
    target, _, anchor = target_part.partition("#")
    target = target.strip()
    anchor = anchor.strip()
    if target or anchor:
        found.append(
            (a - embed, b, "wiki", target, anchor or None, alias.strip() or None, embed)
        )


def _inline_tags(
    masked: str, start: int, link_spans: list[tuple[int, int]], code: _CodeSpans
) -> list[str]:
    """Inline ``#tags`` outside code and links, lowercased, trailing '/' dropped."""
    if "#" not in masked:
        return []
    starts: list[int] | None = None  # built on the first candidate: most pages have none
    tags: list[str] = []
    search = _TAG.search
    pos = start
    while (m := search(masked, pos)) is not None:
        pos = m.end()
        if link_spans:
            if starts is None:
                starts = [a for a, _ in link_spans]
            i = bisect_right(starts, m.start()) - 1
            if i >= 0 and m.start() < link_spans[i][1]:
                continue  # '[[#Heading]]' or '[x](#sec)' is an anchor, not a tag
        if code.contains(m.start()):
            continue
        tag = m.group(1).rstrip("/").lower()
        if tag:
            tags.append(tag)
    return tags
