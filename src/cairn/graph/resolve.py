"""Link resolution the way Obsidian users expect, as a pure function over plain data.

Rules, in order, within the linking note's collection (a collection is a vault):

- a URL is ``external``; an empty target with an anchor (``[[#Heading]]``) is ``self``;
- a Markdown link is first tried relative to the linking note's folder (``../x%20y.md``)
  → ``relative_markdown``; if that misses it falls through to the wiki rules, as
  Obsidian resolves ``[x](note.md)`` written in "shortest path" form;
- a target with a folder (``[[folder/note]]``) is a vault path → ``exact_path``, else the
  end of exactly those paths → ``path_suffix``; ``./`` and ``../`` are relative to the note;
- a bare name matches file names case-insensitively (``.md`` optional) → ``basename``,
  else frontmatter aliases → ``alias``;
- several candidates → ``ambiguous``: the one in the note's folder, else the shortest
  path, else the first by path, with the rule that decided in ``tie_break``;
- nothing → ``attachment`` when the target names a non-note file, else ``unresolved``.

Anchors are checked separately (:func:`anchor_found`): ``#heading`` against the target's
headings (case-insensitive, or as a GitHub-style slug; ``#a#b`` needs both, in order),
``#^id`` against block ids (``^id`` at the end of a line) in its text.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import unquote

Reason = Literal[
    "exact_path", "path_suffix", "basename", "alias", "relative_markdown", "self",
    "ambiguous", "unresolved", "external", "attachment",
]
TieBreak = Literal["same_folder", "shortest_path", "lexicographic"]

NOTE_SUFFIXES = (".md", ".markdown", ".mdx")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]{1,31}:")
_SLUG_DROP = re.compile(r"[^\w\- ]+")
_EXTENSION = re.compile(r"\.(?=[A-Za-z0-9]{0,7}[A-Za-z])[A-Za-z0-9]{1,8}$")


@dataclass(frozen=True, slots=True)
class Note:
    """A document as the resolver sees it."""

    key: int  # the store's row id
    docid: str
    collection: str
    path: str
    title: str
    aliases: tuple[str, ...] = ()

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.path)


@dataclass(frozen=True, slots=True)
class LinkSpec:
    """A link as written. ``syntax`` decides the rules: frontmatter links are written
    as wiki links, Markdown links or bare note names."""

    kind: Literal["wiki", "markdown", "frontmatter"]
    syntax: Literal["wiki", "markdown"]
    target: str
    anchor: str | None
    alias: str | None
    embed: bool
    line: int
    column: int
    raw: str
    type: str | None = None
    #: Order among the note's frontmatter links (to find their positions later).
    seq: int = 0


@dataclass(frozen=True, slots=True)
class Resolution:
    reason: Reason
    target: Note | None
    candidates: tuple[Note, ...] = ()
    tie_break: TieBreak | None = None


@dataclass(slots=True)
class NoteIndex:
    """Lookup tables of one or more collections' notes, keyed case-insensitively."""

    notes: dict[int, Note] = field(default_factory=dict)
    by_path: dict[tuple[str, str], list[Note]] = field(default_factory=dict)
    by_stem: dict[tuple[str, str], list[Note]] = field(default_factory=dict)
    by_name: dict[tuple[str, str], list[Note]] = field(default_factory=dict)
    by_alias: dict[tuple[str, str], list[Note]] = field(default_factory=dict)

    @classmethod
    def build(cls, notes: Iterable[Note]) -> NoteIndex:
        index = cls()
        for note in sorted(notes, key=lambda n: (n.collection, n.path)):
            index.notes[note.key] = note
            col = note.collection
            lower = note.path.lower()
            index.by_path.setdefault((col, lower), []).append(note)
            name = posixpath.basename(lower)
            index.by_name.setdefault((col, name), []).append(note)
            stem = _note_stem(name)
            if stem is not None:
                index.by_stem.setdefault((col, stem), []).append(note)
            for alias in dict.fromkeys(a.strip().lower() for a in note.aliases):
                if alias:
                    index.by_alias.setdefault((col, alias), []).append(note)
        return index


def _note_stem(name: str) -> str | None:
    """``note`` for ``note.md``; None for files that are not notes (``a.png``, ``b.txt``)."""
    for suffix in NOTE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return None


def resolve_link(link: LinkSpec, source: Note, index: NoteIndex) -> Resolution:
    """Resolve one link written in ``source`` against ``index`` (see the module docstring)."""
    target = link.target.strip()
    if link.syntax == "markdown":
        if _SCHEME.match(target):
            return Resolution("external", None)
        target = unquote(target)
    elif "://" in target and _SCHEME.match(target):
        return Resolution("external", None)
    if not target:
        return Resolution("self", source) if link.anchor else Resolution("unresolved", None)
    if posixpath.basename(target.rstrip("/")) in ("", ".", ".."):
        return Resolution("unresolved", None)  # a folder, not a note
    col = source.collection
    if link.syntax == "markdown" and not target.startswith("/"):
        joined = posixpath.normpath(posixpath.join(source.folder, target))
        if not joined.startswith("../") and joined != "..":
            found = _exact(index, col, joined)
            if found is not None:
                return Resolution("relative_markdown", found)
    found_res = _resolve_name(target, source, index)
    if found_res is not None:
        return found_res
    name = posixpath.basename(target.rstrip("/")).lower()
    if _EXTENSION.search(name) and _note_stem(name) is None:
        return Resolution("attachment", None)
    return Resolution("unresolved", None)


def _exact(index: NoteIndex, col: str, path: str) -> Note | None:
    """A note at exactly ``path`` (case-insensitively; exact case wins), ``.md`` optional."""
    lower = path.lower()
    for key in (lower, lower + ".md"):
        hits = index.by_path.get((col, key))
        if hits:
            exact = [n for n in hits if n.path in (path, path + ".md")]
            return (exact or hits)[0]
    return None


def _resolve_name(target: str, source: Note, index: NoteIndex) -> Resolution | None:
    col = source.collection
    if target.startswith(("./", "../")):
        joined = posixpath.normpath(posixpath.join(source.folder, target))
        found = None if joined.startswith("..") else _exact(index, col, joined)
        return Resolution("exact_path", found) if found is not None else None
    path = target.strip("/")
    if "/" in path:
        found = _exact(index, col, path)
        if found is not None:
            return Resolution("exact_path", found)
        name = posixpath.basename(path).lower()
        suffix = "/" + path.lower()
        pool = index.by_stem.get((col, name), []) + index.by_name.get((col, name), [])
        hits = list(dict.fromkeys(
            n for n in pool
            if n.path.lower().endswith(suffix) or (_strip_note_suffix(n.path.lower()).endswith(suffix))
        ))
        return _pick(hits, "path_suffix", source) if hits else None
    lower = path.lower()
    stem = _note_stem(lower)
    hits = index.by_stem.get((col, stem if stem is not None else lower), [])
    if not hits and stem is None:
        hits = index.by_name.get((col, lower), [])
    if hits:
        return _pick(hits, "basename", source)
    hits = index.by_alias.get((col, lower), [])
    if hits:
        return _pick(hits, "alias", source)
    return None


def _strip_note_suffix(path: str) -> str:
    stem = _note_stem(path)
    return path if stem is None else stem


def _pick(hits: Sequence[Note], reason: Reason, source: Note) -> Resolution:
    if len(hits) == 1:
        return Resolution(reason, hits[0])
    ordered = tuple(sorted(hits, key=lambda n: n.path))
    same = [n for n in ordered if n.folder == source.folder]
    if len(same) == 1:
        return Resolution("ambiguous", same[0], ordered, "same_folder")
    pool = same or list(ordered)
    def length(n: Note) -> tuple[int, int]:
        return (n.path.count("/"), len(n.path))
    shortest = min(length(n) for n in pool)
    best = [n for n in pool if length(n) == shortest]
    if len(best) == 1:
        return Resolution("ambiguous", best[0], ordered, "shortest_path")
    return Resolution("ambiguous", best[0], ordered, "lexicographic")


def could_name(link: LinkSpec, note: Note) -> bool:
    """A cheap necessary condition for ``link`` to resolve to ``note`` (other than as a
    same-note anchor): its last path component names the file, or it is one of its aliases.
    Used to skip resolving links that cannot point at a given note."""
    target = link.target.strip()
    if link.syntax == "markdown":
        target = unquote(target)
    if not target:
        return False
    lower = target.lower()
    base = posixpath.basename(lower.rstrip("/"))
    name = posixpath.basename(note.path.lower())
    stem = _note_stem(name)
    if base in (name, stem) or (stem is not None and _note_stem(base) == stem):
        return True
    return any(lower.strip() == a.strip().lower() for a in note.aliases)


# --- anchors --------------------------------------------------------------------------


def heading_slug(text: str) -> str:
    """GitHub-style anchor slug: lowercase, punctuation dropped, spaces to '-'."""
    return _SLUG_DROP.sub("", text.strip().lower()).replace(" ", "-")


def _heading_key(text: str) -> str:
    return " ".join(text.split()).lower()


def anchor_found(
    anchor: str, headings: Sequence[tuple[str, int]], block_ids: Iterable[str] | None,
    *, percent_encoded: bool = False,
) -> bool | None:
    """Whether ``anchor`` exists in a note with these (heading text, line) pairs and block ids.

    ``block_ids`` None means "not loaded": a ``^block`` anchor then answers None.
    """
    if percent_encoded:
        anchor = unquote(anchor)
    anchor = anchor.strip()
    if anchor.startswith("^"):
        if block_ids is None:
            return None
        return anchor[1:].lower() in {b.lower() for b in block_ids}
    parts = [p for p in anchor.split("#") if p.strip()]
    if not parts:
        return True
    after = 0
    for part in parts:
        key, slug = _heading_key(part), part.strip().lower()
        line = next(
            (ln for text, ln in headings
             if ln > after and (_heading_key(text) == key or heading_slug(text) == slug)),
            None,
        )
        if line is None:
            return False
        after = line
    return True


_BLOCK_ID = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)[ \t]*$", re.M)


def block_ids(text: str) -> set[str]:
    """Block ids (``^id`` at the end of a line) of a note's text."""
    if "^" not in text:
        return set()
    return {m.group(1) for m in _BLOCK_ID.finditer(text)}
