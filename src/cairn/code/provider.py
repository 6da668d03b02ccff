"""The provider protocol: one language family, read file by file, resolved project-wide.

A provider works in two steps so a refresh stays incremental:

1. :meth:`CodeProvider.parse` turns one file's bytes into :class:`FileFacts` — symbols,
   imports as written, names used — without knowing the file's path, so facts are cached by
   content hash and reused for every unchanged file;
2. :meth:`CodeProvider.resolve` names every module and resolves imports and uses to edges,
   over the whole project (cheap dictionary work, redone at every refresh, because adding
   one file can change what another file's import means).

The built-in providers are registered by :mod:`cairn.code.scan` exactly as a third party
would register one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

from cairn.code.model import Edge, EdgeKind, FileFacts


@dataclass(frozen=True, slots=True)
class ProjectView:
    """What a provider resolves against: the root, its own files (path -> facts, possibly
    loaded lazily) and every path of the snapshot (any language), POSIX, relative to the root."""

    root: Path
    files: Mapping[str, FileFacts]
    all_paths: frozenset[str]
    #: The files whose edges to produce (``None``: every file). Facts of other files are
    #: read only as far as resolution needs them (the names a module defines).
    targets: frozenset[str] | None = None

    def resolving(self) -> list[str]:
        """The paths whose edges to produce, sorted: the targets (or every file) with facts."""
        wanted = self.files.keys() if self.targets is None else self.targets
        return [path for path in sorted(wanted) if path in self.files]


@dataclass(frozen=True, slots=True)
class Resolution:
    """A provider's project-wide answer: each file's module name, how a symbol's name is
    joined to it (``"."`` for Python, ``":"`` for path-named modules) and the edges."""

    modules: dict[str, str]
    separator: str
    edges: list[Edge]
    #: How many imports of the resolved files name code outside the project (standard
    #: libraries, third-party packages), counted rather than guessed (``None``: not counted).
    unresolved: int | None = None


class DeclaredProvider:
    """The fixed part of a provider's coverage contract, read from the tables a language's
    provider class declares: ``EXTENSIONS`` (suffix -> language), ``RELATION_KINDS`` and
    ``CONFIDENCE`` (relation kind -> how complete it is)."""

    __slots__ = ()
    EXTENSIONS: ClassVar[Mapping[str, str]]
    RELATION_KINDS: ClassVar[tuple[EdgeKind, ...]] = ("import",)
    CONFIDENCE: ClassVar[Mapping[str, str]]

    @property
    def extensions(self) -> dict[str, str]:
        """File suffix (``.py``) -> language name (``python``)."""
        return dict(self.EXTENSIONS)

    @property
    def relation_kinds(self) -> tuple[EdgeKind, ...]:
        """The edge kinds it can produce."""
        return self.RELATION_KINDS

    @property
    def confidence(self) -> dict[str, str]:
        """For each relation kind, how complete it is, in one sentence."""
        return dict(self.CONFIDENCE)


class FileEdges:
    """Import edges of a provider whose modules are files named by their paths: one edge
    per (file, target), at the first line that makes it."""

    def __init__(self) -> None:
        self._edges: dict[tuple[str, str], Edge] = {}

    def add(self, path: str, target: str, line: int) -> None:
        """An import edge from ``path`` to ``target``, written at ``line``."""
        self._edges.setdefault((path, target), Edge("import", path, target, path, line))

    def resolution(self, view: ProjectView, unresolved: int | None = None) -> Resolution:
        """The provider's answer: each file is its own module, its symbols joined by ``:``."""
        return Resolution({p: p for p in view.files}, ":", list(self._edges.values()), unresolved)


@runtime_checkable
class CodeProvider(Protocol):
    """A language family's parser and resolver, with its coverage contract."""

    @property
    def name(self) -> str:
        """A short stable name (``python``)."""
        ...

    @property
    def version(self) -> str:
        """Bumped whenever the facts it produces change (cached facts are then re-read)."""
        ...

    @property
    def extensions(self) -> Mapping[str, str]:
        """File suffix (``.py``) -> language name (``python``)."""
        ...

    @property
    def relation_kinds(self) -> tuple[EdgeKind, ...]:
        """The edge kinds it can produce."""
        ...

    @property
    def confidence(self) -> Mapping[str, str]:
        """For each relation kind, how complete it is, in one sentence."""
        ...

    def parse(self, data: bytes, language: str) -> FileFacts:
        """Read one file's bytes. Never raises: a file it cannot read is ``failed`` with a
        reason."""
        ...

    def resolve(self, view: ProjectView) -> Resolution:
        """Name the modules and resolve imports and uses to edges between project nodes."""
        ...


#: Suffixes of code in languages no provider reads yet: listed as skipped with this reason,
#: never silently dropped. Other files (documents, images, data) are not code.
UNSUPPORTED_CODE: dict[str, str] = {
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".scala": "scala",
    ".c": "c", ".h": "c", ".cc": "c++", ".cpp": "c++", ".hpp": "c++", ".cs": "c#",
    ".rb": "ruby", ".php": "php", ".swift": "swift", ".m": "objective-c", ".lua": "lua",
    ".sh": "shell", ".pyx": "cython", ".pxd": "cython", ".pyi": "python stub",
    ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell", ".ml": "ocaml",
    ".clj": "clojure", ".dart": "dart", ".r": "r", ".jl": "julia", ".zig": "zig",
    ".vue": "vue", ".svelte": "svelte",
    # claimed by the TypeScript, Go, Rust and Java providers when the ``code`` extra is installed
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
}
#: Languages the ``code`` extra's grammars read: without it, their files say how to get it.
CODE_EXTRA_LANGUAGES = frozenset({"typescript", "javascript", "go", "rust", "java"})
CODE_EXTRA_HINT = "pip install 'cairn[code]'"
