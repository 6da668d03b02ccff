"""What changed between two snapshots: files, symbols and edges (pure functions).

Symbols are compared by qualified name, then the ones that disappeared are paired with the
ones that appeared by body hash (a body is what a rename or a move keeps):

- same qualified name: ``changed`` when the body hash or the signature hash differs (both
  are reported, so a body-only change counts even when the signature did not change);
- same body hash, same short name, another file: ``moved``;
- same body hash, another name: ``renamed`` (possibly also to another file);
- otherwise ``removed`` / ``added``.

Module symbols are left to the file diff. :func:`changed_code` is the seam for anything
bound to code (agent memory): the files and the symbols whose content changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from cairn.code.model import Edge, FileEntry, Symbol

FileChangeKind = Literal["added", "removed", "changed"]
SymbolChangeKind = Literal["added", "removed", "changed", "renamed", "moved"]
EdgeChangeKind = Literal["added", "removed"]


@dataclass(frozen=True, slots=True)
class FileChange:
    change: FileChangeKind
    path: str
    old: FileEntry | None
    new: FileEntry | None


@dataclass(frozen=True, slots=True)
class SymbolChange:
    """``old``/``new`` are the symbol before and after (one is ``None`` for added/removed)."""

    change: SymbolChangeKind
    old: Symbol | None
    new: Symbol | None
    body_changed: bool
    signature_changed: bool


@dataclass(frozen=True, slots=True)
class EdgeChange:
    change: EdgeChangeKind
    edge: Edge


@dataclass(frozen=True, slots=True)
class SnapshotDiff:
    files: tuple[FileChange, ...]
    symbols: tuple[SymbolChange, ...]
    edges: tuple[EdgeChange, ...]


def diff_files(old: Iterable[FileEntry], new: Iterable[FileEntry]) -> list[FileChange]:
    """Files added, removed, or whose content (or parse status) changed."""
    before = {f.path: f for f in old}
    after = {f.path: f for f in new}
    changes = []
    for path in sorted(before.keys() | after.keys()):
        a, b = before.get(path), after.get(path)
        if a is None:
            changes.append(FileChange("added", path, None, b))
        elif b is None:
            changes.append(FileChange("removed", path, a, None))
        elif (a.content_hash, a.status) != (b.content_hash, b.status):
            changes.append(FileChange("changed", path, a, b))
    return changes


def _short(symbol: Symbol) -> str:
    return symbol.name.rpartition(".")[2]


def diff_symbols(old: Iterable[Symbol], new: Iterable[Symbol]) -> list[SymbolChange]:
    """Symbol changes, by qualified name and then by body hash (see the module docstring)."""
    before = {s.qualname: s for s in old if s.kind != "module"}
    after = {s.qualname: s for s in new if s.kind != "module"}
    changes: list[SymbolChange] = []
    for name in sorted(before.keys() & after.keys()):
        a, b = before[name], after[name]
        body, signature = a.body_hash != b.body_hash, a.signature_hash != b.signature_hash
        if body or signature:
            changes.append(SymbolChange("changed", a, b, body, signature))
    gone = [before[n] for n in sorted(before.keys() - after.keys())]
    came = [after[n] for n in sorted(after.keys() - before.keys())]
    by_body: dict[tuple[str, str], list[Symbol]] = {}
    for symbol in came:
        by_body.setdefault((symbol.kind, symbol.body_hash), []).append(symbol)
    paired: set[str] = set()
    unmatched: list[Symbol] = []
    for symbol in gone:
        candidates = [c for c in by_body.get((symbol.kind, symbol.body_hash), []) if c.qualname not in paired]
        if not candidates:
            unmatched.append(symbol)
            continue
        # Prefer the same short name (a move), then the same file (a rename in place).
        candidates.sort(key=lambda c: (_short(c) != _short(symbol), c.path != symbol.path, c.qualname))
        match = candidates[0]
        paired.add(match.qualname)
        kind: SymbolChangeKind = "moved" if _short(match) == _short(symbol) else "renamed"
        changes.append(SymbolChange(kind, symbol, match, False, symbol.signature_hash != match.signature_hash))
    changes += [SymbolChange("removed", s, None, False, False) for s in unmatched]
    changes += [SymbolChange("added", None, s, False, False) for s in came if s.qualname not in paired]
    return changes


def diff_edges(old: Iterable[Edge], new: Iterable[Edge]) -> list[EdgeChange]:
    """Relations added or removed (an edge is its kind, source and target)."""
    before = {(e.kind, e.source, e.target): e for e in old}
    after = {(e.kind, e.source, e.target): e for e in new}
    changes = [EdgeChange("removed", before[k]) for k in sorted(before.keys() - after.keys())]
    changes += [EdgeChange("added", after[k]) for k in sorted(after.keys() - before.keys())]
    return changes


def diff_snapshots(old_files: Sequence[FileEntry], new_files: Sequence[FileEntry],
                   old_symbols: Sequence[Symbol], new_symbols: Sequence[Symbol],
                   old_edges: Sequence[Edge], new_edges: Sequence[Edge]) -> SnapshotDiff:
    """Files, symbols and edges added, changed and removed between two snapshots."""
    return SnapshotDiff(
        tuple(diff_files(old_files, new_files)),
        tuple(diff_symbols(old_symbols, new_symbols)),
        tuple(diff_edges(old_edges, new_edges)),
    )


#: What happened to a thing code-bound knowledge rests on. A symbol ``changed`` when its
#: body hash did (a signature-only change leaves the body, and what memory says about it,
#: as it was); ``moved`` covers renames and moves (paired by body hash).
CodeChangeKind = Literal["file_changed", "file_removed", "symbol_changed", "symbol_moved", "symbol_removed"]


@dataclass(frozen=True, slots=True)
class CodeChange:
    """One file or symbol that no longer reads as it did: ``path`` and ``name`` (the
    symbol's name within the file, ``""`` for a module; ``None`` for a file) say where it
    was, ``now`` where a moved symbol went (``PATH::NAME``)."""

    kind: CodeChangeKind
    path: str
    name: str | None = None
    now: str | None = None


@dataclass(frozen=True, slots=True)
class ChangedCode:
    """What code-bound knowledge must be requalified against: paths whose content changed
    or vanished, and qualified names whose body or signature changed or that vanished
    (a renamed or moved symbol maps its old name to the new one); ``changes`` lists them
    by place (path and name in the file), body changes only."""

    paths: frozenset[str]
    symbols: frozenset[str]
    renamed: dict[str, str]
    changes: tuple[CodeChange, ...] = ()


def changed_code(diff: SnapshotDiff) -> ChangedCode:
    """The seam for memory requalification: given a snapshot diff, which files and symbols
    (by body hash) no longer read as they did."""
    paths = {c.path for c in diff.files if c.change != "added"}
    symbols: set[str] = set()
    renamed: dict[str, str] = {}
    changes = [CodeChange("file_removed" if c.change == "removed" else "file_changed", c.path)
               for c in diff.files if c.change != "added"]
    for change in diff.symbols:
        old = change.old
        if old is None:
            continue
        if change.change in ("renamed", "moved") and change.new is not None:
            renamed[old.qualname] = change.new.qualname
            changes.append(CodeChange("symbol_moved", old.path, old.name, f"{change.new.path}::{change.new.name}"))
        elif change.change == "removed":
            changes.append(CodeChange("symbol_removed", old.path, old.name))
        elif change.body_changed:
            changes.append(CodeChange("symbol_changed", old.path, old.name))
        symbols.add(old.qualname)
    return ChangedCode(frozenset(paths), frozenset(symbols), renamed, tuple(changes))


def changed_in(files: tuple[FileChange, ...], old_symbols: Iterable[Symbol],
               new_symbols: Iterable[Symbol]) -> ChangedCode:
    """:func:`changed_code` from a file diff and the symbols of the files it names (a
    refresh reads only those: an unchanged file's symbols are the same in both
    snapshots). The symbols of a file that no longer parses are left out: a syntax error
    mid-edit is a changed file, not a removed symbol."""
    unparsed = {f.path for f in files if f.new is not None and f.new.status != "parsed"}
    return changed_code(SnapshotDiff(
        files, tuple(diff_symbols([s for s in old_symbols if s.path not in unparsed],
                                  [s for s in new_symbols if s.path not in unparsed])), ()))
