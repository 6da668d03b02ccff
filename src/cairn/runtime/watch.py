"""From file-system changes to what each collection must reconcile.

A watcher reports absolute paths; the indexer wants paths relative to a collection's
root, and only those its rules could index. Atomic saves (write a temporary file, rename
it over the note), renames and recursive deletes need no special case here: the indexer
reconciles the paths it is given by content hash (a rename keeps its docid).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from cairn.ingest.walker import SKIPPED_DIRS, glob_matcher
from cairn.store.records import CollectionRecord

#: An index job's payload value meaning "the whole collection".
WHOLE = None


@dataclass(frozen=True, slots=True)
class WatchedRoot:
    """One collection as the watcher sees it: its folder and its rules."""

    name: str
    root: str
    include: tuple[str, ...]
    exclude: tuple[str, ...]


def watched_roots(records: Iterable[CollectionRecord]) -> tuple[WatchedRoot, ...]:
    """The folders to watch, one per collection, in a stable order."""
    return tuple(sorted(
        (WatchedRoot(r.name, os.path.realpath(r.root), r.include, r.exclude) for r in records),
        key=lambda w: w.name,
    ))


def affected_paths(roots: Sequence[WatchedRoot], changed: Iterable[str]) -> dict[str, list[str] | None]:
    """For each collection touched by ``changed`` (absolute paths), the relative paths to
    reconcile, or None to reconcile the whole collection (its root ``.gitignore`` changed).

    A path is dropped when the collection's rules could not index it: under a hidden or
    skipped folder (``.git``, ``node_modules``), excluded, or a file the include globs do
    not take (a temporary file of an atomic save). A folder, or a vanished path that looks
    like one (no suffix), is kept: a folder renamed or deleted as a whole is reported as
    one path, and the indexer reconciles everything it held."""
    matchers = {r.name: (glob_matcher(r.include), glob_matcher(r.exclude)) for r in roots}
    found: dict[str, set[str] | None] = {}
    for path in changed:
        real = os.path.realpath(path)
        for watched in roots:
            if real != watched.root and not real.startswith(watched.root + os.sep):
                continue
            rel = os.path.relpath(real, watched.root).replace(os.sep, "/")
            wanted = _wanted(rel, real, *matchers[watched.name])
            if wanted is False:
                continue
            current = found.get(watched.name, set())
            if wanted is None or wanted is True or current is None:
                found[watched.name] = None
            else:
                current.add(wanted)
                found[watched.name] = current
    return {name: None if paths is None else sorted(paths) for name, paths in sorted(found.items())}


def _wanted(rel: str, real: str, included: Callable[[str], bool], excluded: Callable[[str], bool]) -> str | bool | None:
    """The relative path to reconcile, None for the whole collection, False to ignore."""
    if rel == ".":
        return None  # the root itself (re-created, permissions): reconcile everything
    parts = PurePosixPath(rel).parts
    if parts[-1] == ".gitignore":
        # What the folder's files are depends on it: reconcile the folder.
        if any(p.startswith(".") or p in SKIPPED_DIRS for p in parts[:-1]):
            return False
        return None if len(parts) == 1 else "/".join(parts[:-1])
    if any(p.startswith(".") or p in SKIPPED_DIRS for p in parts):
        return False
    if excluded(rel):
        return False
    if os.path.isdir(real):
        return rel
    if included(rel):
        return rel
    if not os.path.exists(real) and "." not in parts[-1]:
        return rel  # perhaps a folder that was deleted or moved away
    return False


def merge_paths(old: dict[str, object], new: dict[str, object]) -> dict[str, object]:
    """Merge two index payloads of one collection (a queued job absorbs a new change)."""
    old_paths, new_paths = old.get("paths"), new.get("paths")
    if old_paths is WHOLE or new_paths is WHOLE:
        return {**old, "paths": WHOLE}
    assert isinstance(old_paths, list) and isinstance(new_paths, list)
    return {**old, "paths": sorted(set(old_paths) | set(new_paths))}
