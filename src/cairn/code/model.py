"""The plain data of the code graph: what a provider reads from one file (path-independent
facts, cached by content hash), and what a snapshot holds (files, symbols, edges).

Node names: a Python module is its dotted name (``rich.console``), a symbol in it is the
module name plus its name in the file (``rich.console.Console.print``). Languages without
dotted module names (TypeScript, JavaScript) name a module by its path
(``src/index.ts``) and a symbol by ``path:Name.member``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

#: What a file became in a snapshot.
ParseStatus = Literal["parsed", "failed", "skipped"]
#: What an edge means: ``import`` module -> module; ``call`` symbol -> callable symbol;
#: ``reference`` a scope -> a symbol it names without calling (base classes, imported names).
EdgeKind = Literal["import", "call", "reference"]
EDGE_KINDS: tuple[EdgeKind, ...] = ("import", "call", "reference")
#: Where an import statement sits: at module level, inside a function or class body,
#: or under ``if TYPE_CHECKING:`` (all count as edges; the scope is kept for the reader).
ImportScope = Literal["module", "local", "type_checking"]
#: ``namespace``: a named scope inside a file (a Rust inline ``mod``).
SymbolKind = Literal["module", "class", "function", "method", "const", "type", "namespace"]

#: Files larger than this are recorded as skipped ("too large"), never parsed: generated
#: tables and bundles run to megabytes and say nothing about structure. 1 MiB holds every
#: hand-written module of the CPython standard library (the largest is ~400 KB).
MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class SymbolFact:
    """A definition as the provider saw it in one file. ``name`` is qualified within the
    file (``Console.print``); lines are 1-based and inclusive (decorators included)."""

    name: str
    kind: SymbolKind
    start_line: int
    end_line: int
    signature_hash: str
    body_hash: str


@dataclass(frozen=True, slots=True)
class ImportFact:
    """One imported name as written. Python: ``from .a import b`` is module ``a``,
    name ``b``, level 1; ``import a.b`` is module ``a.b``, name ``None``. TypeScript: the
    module specifier as written (``./util.js``, ``@app/x``), level 0, name ``None``."""

    module: str
    name: str | None
    alias: str | None
    level: int
    line: int
    scope: ImportScope = "module"


@dataclass(frozen=True, slots=True)
class UseFact:
    """A dotted name used in a scope (``""`` is the module body, else a symbol's name in
    the file): ``called`` when it is called, else a reference."""

    scope: str
    target: str
    line: int
    called: bool


@dataclass(frozen=True, slots=True)
class FileFacts:
    """Everything a provider read from one file's bytes (independent of its path, so the
    facts of unchanged content are reused across snapshots, renames and copies)."""

    status: ParseStatus
    reason: str = ""
    symbols: tuple[SymbolFact, ...] = ()
    imports: tuple[ImportFact, ...] = ()
    uses: tuple[UseFact, ...] = ()
    lines: int = 0
    #: The package the file declares (Java), ``""`` when the language has none.
    package: str = ""

    def to_json(self) -> str:
        """A compact JSON form for the facts cache."""
        return json.dumps({
            "s": self.status, "r": self.reason, "n": self.lines,
            "y": [[s.name, s.kind, s.start_line, s.end_line, s.signature_hash, s.body_hash]
                  for s in self.symbols],
            "i": [[i.module, i.name, i.alias, i.level, i.line, i.scope] for i in self.imports],
            "u": [[u.scope, u.target, u.line, int(u.called)] for u in self.uses],
            **({"p": self.package} if self.package else {}),
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> FileFacts:
        """The inverse of :meth:`to_json`."""
        data: dict[str, Any] = json.loads(text)
        return cls(
            status=data["s"], reason=data["r"],
            symbols=tuple(SymbolFact(*row) for row in data["y"]),
            imports=tuple(ImportFact(*row) for row in data["i"]),
            uses=tuple(UseFact(row[0], row[1], row[2], bool(row[3])) for row in data["u"]),
            lines=data["n"], package=data.get("p", ""),
        )


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file of a snapshot's manifest (``path`` relative to the root, POSIX)."""

    path: str
    size: int
    mtime_ns: int
    content_hash: str
    language: str
    status: ParseStatus
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition in a snapshot: ``qualname`` is unique in the snapshot."""

    qualname: str
    name: str
    kind: SymbolKind
    path: str
    start_line: int
    end_line: int
    signature_hash: str
    body_hash: str


@dataclass(frozen=True, slots=True)
class Edge:
    """A resolved relation between two nodes of the snapshot (see the module docstring
    for node names); ``path`` and ``line`` say where it is written."""

    kind: EdgeKind
    source: str
    target: str
    path: str
    line: int


@dataclass(frozen=True, slots=True)
class Coverage:
    """A provider's coverage contract for one refresh: what it parsed, what it skipped and
    why, which relation kinds it produced, and how far each can be trusted."""

    provider: str
    files_parsed: int
    files_failed: int
    files_skipped: tuple[tuple[str, str], ...]
    relation_kinds: tuple[EdgeKind, ...]
    confidence: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One refresh of one root, as stored. ``complete`` is false when the walk stopped
    early (``reason`` says why); such a snapshot is never diffed."""

    id: int
    root: str
    git_revision: str | None
    fingerprint: str
    complete: bool
    reason: str
    created_at: str
    files: int
    symbols: int
    edges: int
    coverage: tuple[Coverage, ...] = ()


@dataclass(frozen=True, slots=True)
class SnapshotWrite:
    """What a refresh hands the store: the snapshot's rows and the facts newly parsed
    (cache key -> (language, content hash, facts))."""

    root: str
    git_revision: str | None
    fingerprint: str
    complete: bool
    reason: str
    coverage: tuple[Coverage, ...]
    files: tuple[FileEntry, ...]
    symbols: tuple[Symbol, ...]
    edges: tuple[Edge, ...]
    new_facts: dict[str, tuple[str, str, FileFacts]] = field(default_factory=dict)
    #: An incremental refresh: the symbols and edges of these unchanged files are copied
    #: from snapshot ``copy_from`` instead of being handed over again.
    copy_from: int | None = None
    copy_symbols: tuple[str, ...] = ()
    copy_edges: tuple[str, ...] = ()


def coverage_to_json(coverage: tuple[Coverage, ...]) -> str:
    """Coverage reports as JSON (stored with the snapshot)."""
    return json.dumps([
        {"provider": c.provider, "files_parsed": c.files_parsed, "files_failed": c.files_failed,
         "files_skipped": [list(p) for p in c.files_skipped], "relation_kinds": list(c.relation_kinds),
         "confidence": c.confidence}
        for c in coverage
    ], separators=(",", ":"))


def coverage_from_json(text: str) -> tuple[Coverage, ...]:
    """The inverse of :func:`coverage_to_json`."""
    return tuple(
        Coverage(c["provider"], c["files_parsed"], c["files_failed"],
                 tuple((p, r) for p, r in c["files_skipped"]), tuple(c["relation_kinds"]),
                 dict(c["confidence"]))
        for c in json.loads(text)
    )
