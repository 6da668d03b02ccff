"""Typed links from frontmatter keys (``related:``, ``depends_on:``, ``up:`` ...).

They are derived when the graph is read, from the stored frontmatter (``documents.metadata``)
and, for their line and column, from the stored text's frontmatter block. Deriving them
rather than storing them at ingest time means that no existing index needs re-parsing
(unchanged files are never parsed again), and that changing ``[graph] link_keys`` takes
effect at once.

A value may be ``"[[note]]"``, ``"[[note#Heading|alias]]"``, a Markdown link, a bare note
name, or a list of those. Unquoted ``related: [[note]]`` is YAML for a nested list
(``[["note"]]``); it is read as the wiki link Obsidian users meant.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from functools import lru_cache
from typing import Any, Literal

from cairn.graph.resolve import LinkSpec

DEFAULT_LINK_KEYS: tuple[str, ...] = ("related", "depends_on", "parent", "up", "see_also")

_WIKI = re.compile(r"\[\[([^\[\]\n]*)\]\]")
_MARKDOWN = re.compile(r"\[([^\[\]\n]*)\]\(\s*<?([^()<>\s]+)>?\s*\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]{1,31}:")


@lru_cache(maxsize=4096)
def normalise_key(key: str) -> str:
    """``Depends-On`` → ``depends_on``: the link type a frontmatter key stands for."""
    return re.sub(r"[\s\-]+", "_", key.strip().lower())


def frontmatter_links(
    metadata: Mapping[str, Any], keys: Collection[str], text: str | None
) -> list[LinkSpec]:
    """Typed links of one note; ``text`` (its normalised text, or its start) gives positions."""
    wanted = {normalise_key(k) for k in keys}
    block = _frontmatter_lines(text) if text else []
    links: list[LinkSpec] = []
    for key, value in metadata.items():
        kind = normalise_key(str(key))
        if kind not in wanted or value is None:
            continue
        region = _key_region(block, str(key))
        cursor = (region[0], region[1]) if region else None
        for piece, wrapped in _pieces(value, 0):
            for syntax, target, anchor, alias, needle in _parse_value(piece, wrapped):
                line, column, raw = 0, 0, needle
                if region is not None and cursor is not None:
                    found = _find(block, needle, cursor, region[2])
                    if found is None and wrapped:
                        found = _find(block, piece, cursor, region[2])
                    if found is not None:
                        line, column, length = found
                        raw = block[line - 1][column - 1 : column - 1 + length]
                        cursor = (line, column + length)
                    else:
                        line, column = region[0], 1
                links.append(LinkSpec(
                    kind="frontmatter", syntax=syntax, target=target, anchor=anchor, alias=alias,
                    embed=False, line=line, column=column, raw=raw, type=kind, seq=len(links),
                ))
    links.sort(key=lambda ln: (ln.line, ln.column))
    return links


def _pieces(value: Any, depth: int) -> Iterator[tuple[str, bool]]:
    """Strings of a value; ``wrapped`` marks names YAML unwrapped from ``[[...]]``.

    ``related: [[a]]`` loads as ``[["a"]]``: a string two lists deep was written in brackets.
    """
    if isinstance(value, str):
        yield value, depth >= 2
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value), depth >= 2
    elif isinstance(value, list):
        for item in value:
            yield from _pieces(item, depth + 1)


_Parsed = tuple[Literal["wiki", "markdown"], str, str | None, str | None, str]


def _parse_value(piece: str, wrapped: bool) -> list[_Parsed]:
    """(syntax, target, anchor, alias, text to look for) of each link in a string value."""
    text = piece.strip()
    if not text:
        return []
    if wrapped:
        return [_wiki(text, "[[" + text + "]]")]
    found: list[_Parsed] = [_wiki(m.group(1), m.group(0)) for m in _WIKI.finditer(text)]
    found = [f for f in found if f[1] or f[2]]
    if found:
        return found
    md = list(_MARKDOWN.finditer(text))
    if md:
        out: list[_Parsed] = []
        for m in md:
            dest = m.group(2)
            target, _, anchor = (dest, "", "") if _SCHEME.match(dest) else dest.partition("#")
            out.append(("markdown", target, anchor or None, m.group(1).strip() or None, m.group(0)))
        return out
    if _SCHEME.match(text):
        return [("markdown", text, None, None, text)]
    return [_wiki(text, text)]


def _wiki(inner: str, needle: str) -> tuple[Literal["wiki"], str, str | None, str | None, str]:
    target_part, _, alias = inner.partition("|")
    target, _, anchor = target_part.partition("#")
    return ("wiki", target.strip(), anchor.strip() or None, alias.strip() or None, needle)


def _frontmatter_lines(text: str) -> list[str]:
    """Lines of the frontmatter block, from the opening ``---`` to the closing one."""
    if not text.startswith("---"):
        return []
    lines = text.split("\n")
    if lines[0].rstrip(" \t") != "---":
        return []
    for i in range(1, len(lines)):
        if lines[i].rstrip(" \t") in ("---", "..."):
            return lines[:i]
    return []


def _key_region(block: list[str], key: str) -> tuple[int, int, int] | None:
    """(line, column after the colon, last line) of a top-level key's value, 1-based."""
    pattern = re.compile(r"""(["']?)""" + re.escape(key) + r"""\1[ \t]*:""")
    for i, line in enumerate(block[1:], start=2):
        m = pattern.match(line)
        if m is None:
            continue
        end = i
        for j in range(i + 1, len(block) + 1):
            nxt = block[j - 1]
            if nxt and not nxt[0].isspace() and not nxt.startswith("-") and not nxt.startswith("#"):
                break
            end = j
        return i, m.end() + 1, end
    return None


def _find(
    block: list[str], needle: str, cursor: tuple[int, int], last: int
) -> tuple[int, int, int] | None:
    """First occurrence of ``needle`` at or after ``cursor`` (line, column), up to ``last``."""
    line, column = cursor
    while line <= last:
        pos = block[line - 1].find(needle, column - 1)
        if pos != -1:
            return line, pos + 1, len(needle)
        line, column = line + 1, 1
    return None
