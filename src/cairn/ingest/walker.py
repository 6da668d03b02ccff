"""Find a collection's files: include/exclude globs, .gitignore, and safe symlink handling."""

from __future__ import annotations

import os
import re
import stat as stat_mod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import pathspec

Globs: TypeAlias = "pathspec.PathSpec[Any]"

#: Folders that never hold a user's knowledge, skipped wherever they appear.
SKIPPED_DIRS = frozenset(
    {"node_modules", "__pycache__", "venv", ".venv", "site-packages", "dist-packages", ".git"}
)


@dataclass(frozen=True, slots=True)
class FoundFile:
    path: str  # POSIX path relative to the collection root
    abs_path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class WalkResult:
    files: list[FoundFile]
    #: (relative path, code, message) for entries that were seen but refused.
    refused: list[tuple[str, str, str]]


def compile_globs(globs: Sequence[str]) -> Globs:
    """Compile gitignore-style globs (``*.md`` matches at any depth, ``docs/**`` under docs/)."""
    import pathspec  # only when a glob is more than a suffix, or a .gitignore exists

    return pathspec.PathSpec.from_lines("gitignore", globs)


_SUFFIX_GLOB = re.compile(r"^(?:\*\*/)?\*(\.[A-Za-z0-9_+-]+)$")


def glob_matcher(globs: Sequence[str]) -> Callable[[str], bool]:
    """A predicate for relative paths; globs that only name a suffix (``**/*.md``) skip pathspec."""
    suffixes = [m.group(1) for m in map(_SUFFIX_GLOB.match, globs) if m]
    rest = [g for g in globs if not _SUFFIX_GLOB.match(g)]
    by_suffix = tuple(suffixes)
    spec = compile_globs(rest) if rest else None
    if spec is None:
        return lambda rel: rel.endswith(by_suffix) if by_suffix else False
    return lambda rel: (bool(by_suffix) and rel.endswith(by_suffix)) or spec.match_file(rel)


def _valid_name(name: str) -> bool:
    """Whether a name from the OS is text (undecodable bytes come back as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _escaped(rel: str) -> str:
    """A path with its undecodable bytes written as ``\\xNN`` (``caf\\xe9.md``)."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def walk_collection(
    root: Path, include: Sequence[str], exclude: Sequence[str], only: Sequence[str] | None = None,
) -> WalkResult:
    """List the files of a collection, sorted by path.

    Hidden folders, ``.git``, ``node_modules`` and virtualenvs are skipped, as is
    everything a ``.gitignore`` (at any depth) ignores. Symlinked folders are never entered;
    a symlinked file is taken only when its target lies inside the collection root.

    ``only`` restricts the walk to these relative paths (files, or folders and everything
    under them): only their ancestor folders are listed, so the same rules apply at the
    cost of a few directory reads (a file watcher reconciles just what changed).
    """
    targets = None if only is None else sorted({t.strip("/") for t in only if t.strip("/")})

    def wanted(rel: str, is_dir: bool) -> bool:
        if targets is None:
            return True
        for target in targets:
            if rel == target or rel.startswith(target + "/") or (is_dir and target.startswith(rel + "/")):
                return True
        return False

    root_real = os.path.realpath(root)
    included = glob_matcher(include)
    excluded = glob_matcher(exclude)
    files: list[FoundFile] = []
    refused: list[tuple[str, str, str]] = []
    # (relative dir prefix, spec) for every .gitignore above the folder being walked.
    ignores: list[tuple[str, Globs]] = []

    def ignored(rel: str, is_dir: bool) -> bool:
        for prefix, spec in ignores:
            if prefix and not rel.startswith(prefix):
                continue
            sub = rel[len(prefix):]
            if spec.match_file(sub + "/" if is_dir else sub):
                return True
        return False

    def visit(abs_dir: str, rel_dir: str) -> None:
        gitignore = os.path.join(abs_dir, ".gitignore")
        pushed = False
        if os.path.isfile(gitignore):
            try:
                with open(gitignore, encoding="utf-8", errors="replace") as handle:
                    ignores.append((rel_dir, compile_globs(list(handle))))
                    pushed = True
            except OSError:
                pass
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            refused.append((rel_dir or ".", "unreadable_folder", str(exc)))
            entries = []
        for entry in entries:
            name = entry.name
            rel = rel_dir + name
            if not name.isascii() and not _valid_name(name):
                # A name that is not UTF-8 (a Latin-1 'é') cannot be stored, shown or sent as
                # JSON: one recorded error, shown with its bad bytes escaped.
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if (not name.startswith(".") and (is_dir or (included(rel) and not excluded(rel)))
                        and wanted(rel, is_dir)):
                    refused.append((_escaped(rel), "invalid_file_name",
                                    "file name is not valid UTF-8; rename it to index it"))
                continue
            try:
                is_link = entry.is_symlink()
                if entry.is_dir(follow_symlinks=False):
                    if name.startswith(".") or name in SKIPPED_DIRS or ignored(rel, True):
                        continue
                    if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                        continue  # a virtualenv under any name
                    if wanted(rel, True):
                        visit(entry.path, rel + "/")
                    continue
                if is_link and os.path.isdir(entry.path):
                    continue  # never enter symlinked folders
                if name == ".gitignore" or not included(rel) or excluded(rel) or not wanted(rel, False):
                    continue
                if ignored(rel, False):
                    continue
                if is_link:
                    target = os.path.realpath(entry.path)
                    if os.path.commonpath([root_real, target]) != root_real:
                        refused.append((rel, "symlink_outside_root",
                                        "symlink points outside the collection root; not followed"))
                        continue
                st = entry.stat(follow_symlinks=True)
                if not stat_mod.S_ISREG(st.st_mode):
                    continue
            except OSError as exc:
                refused.append((rel, "unreadable", str(exc)))
                continue
            files.append(FoundFile(rel, entry.path, st.st_size, st.st_mtime_ns))
        if pushed:
            ignores.pop()

    visit(root_real, "")
    return WalkResult(files=files, refused=refused)
