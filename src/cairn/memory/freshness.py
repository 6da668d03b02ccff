"""Freshness of a memory record: its evidence refs checked against the current sources.

====================================  ===========  =========================
evidence                              check        when it fails
====================================  ===========  =========================
passage (docid, lines, hash)          span hash    ``suspect`` (changed)
passage whose document is gone        docid        ``stale`` (source gone)
file (path, content hash)             bytes hash   ``suspect`` (changed)
file that no longer exists            path         ``stale`` (source gone)
symbol (PATH::NAME, body hash)        body hash    ``suspect`` (changed)
symbol found elsewhere by body hash   code graph   ``suspect`` (moved/renamed)
symbol that no longer exists          code graph   ``stale`` (removed)
commit                                —            not checked
====================================  ===========  =========================

Symbols are read in the newest code snapshot (:mod:`cairn.memory.requalify`). A file ref on
a file the record also binds symbols in is judged by those symbols alone: an edit
elsewhere in the file does not make symbol-bound memory suspect.

The record is ``stale`` if any ref is, else ``suspect`` if any is, else ``fresh`` if any
ref was checked, else ``unknown`` (nothing to check against). Each failure carries a reason
code: ``passage_changed:DOCID``, ``document_gone:DOCID``, ``file_changed:PATH``,
``file_gone:PATH``, ``file_unchecked:PATH`` (outside the caller's project),
``symbol_changed:PATH::NAME``, ``symbol_moved:PATH::NAME->PATH::NAME``,
``symbol_removed:PATH::NAME``, ``symbol_unchecked:PATH::NAME`` (no snapshot has its file).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from cairn.memory.records import EvidenceRef, Freshness

#: docid -> the document's current lines, None if it is gone (or inactive).
DocumentLines = Callable[[str], Sequence[str] | None]
#: relative path -> the file's current content hash, None if it is gone; raises
#: LookupError when the path cannot be checked (no project root).
FileHash = Callable[[str], str | None]
#: symbol ref -> (``same`` | ``changed`` | ``moved`` | ``removed``, the new ``PATH::NAME``
#: when moved); raises LookupError when no code snapshot can check it.
SymbolState = Callable[[EvidenceRef], tuple[str, str | None]]


def _unchecked(ref: EvidenceRef) -> tuple[str, str | None]:
    raise LookupError(ref.target)


def span_hash(lines: Sequence[str], start: int, end: int) -> str:
    """sha256 of lines ``start``..``end`` (1-based, inclusive) joined by newlines: what a
    passage evidence ref's ``hash`` holds."""
    return hashlib.sha256("\n".join(lines[start - 1 : end]).encode()).hexdigest()


def file_hash(path: Path) -> str | None:
    """sha256 of a file's bytes; None if it does not exist or cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def assess(refs: Sequence[EvidenceRef], lines_of: DocumentLines, hash_of: FileHash,
           symbol_of: SymbolState = _unchecked) -> tuple[Freshness, tuple[str, ...]]:
    """The freshness of a record with ``refs`` and its reasons (see the module docstring)."""
    reasons: list[str] = []
    stale = suspect = checked = False
    narrowed = {r.target.partition("::")[0] for r in refs if r.kind == "symbol"}
    for ref in refs:
        if ref.kind == "passage":
            lines = lines_of(ref.target)
            if lines is None:
                stale = True
                reasons.append(f"document_gone:{ref.target}")
                continue
            checked = True
            start, end = ref.start or 1, ref.end or len(lines)
            if ref.hash is not None and (end > len(lines) or span_hash(lines, start, end) != ref.hash):
                suspect = True
                reasons.append(f"passage_changed:{ref.target}")
        elif ref.kind == "symbol":
            try:
                state, moved = symbol_of(ref)
            except LookupError:
                reasons.append(f"symbol_unchecked:{ref.target}")
                continue
            checked = True
            if state == "removed":
                stale = True
                reasons.append(f"symbol_removed:{ref.target}")
            elif state == "moved":
                suspect = True
                reasons.append(f"symbol_moved:{ref.target}->{moved}")
            elif state == "changed":
                suspect = True
                reasons.append(f"symbol_changed:{ref.target}")
        elif ref.kind == "file" and ref.target not in narrowed:
            try:
                current = hash_of(ref.target)
            except LookupError:
                reasons.append(f"file_unchecked:{ref.target}")
                continue
            checked = True
            if current is None:
                stale = True
                reasons.append(f"file_gone:{ref.target}")
            elif ref.hash is not None and current != ref.hash:
                suspect = True
                reasons.append(f"file_changed:{ref.target}")
    if stale:
        return "stale", tuple(reasons)
    if suspect:
        return "suspect", tuple(reasons)
    return ("fresh" if checked else "unknown"), tuple(reasons)
