"""Contracts of the code graph: refresh, snapshots, diff, impact, symbols, show.

Same rules as :mod:`cairn.contracts`: frozen, unknown fields forbidden, and the CLI's
``--json`` output is exactly ``model_dump(mode="json")`` of what the Workspace returns.
"""

from __future__ import annotations

from typing import Literal

from cairn.contracts import Contract


class CodeSkipped(Contract):
    path: str
    reason: str


class CodeCoverage(Contract):
    """A provider's coverage contract for one refresh (``none``: files of languages no
    provider reads, listed with the reason)."""

    provider: str
    files_parsed: int
    files_failed: int
    files_skipped: list[CodeSkipped]
    relation_kinds: list[str]
    confidence: dict[str, str]


class CodeSnapshot(Contract):
    id: int
    root: str
    git_revision: str | None
    #: A hash of every file's path, content hash and parse status.
    fingerprint: str
    #: False when the walk stopped early (``reason``): such a snapshot is never diffed.
    complete: bool
    reason: str
    created_at: str
    files: int
    symbols: int
    edges: int


class CodeFailure(Contract):
    path: str
    reason: str


class CodeRefresh(Contract):
    snapshot: CodeSnapshot
    #: Files whose content was parsed in this refresh (the rest reused cached facts).
    parsed: int
    reused: int
    failed: list[CodeFailure]
    coverage: list[CodeCoverage]
    #: How many snapshots of this root are kept (older ones were pruned).
    keep: int
    #: Memory records bound to a file or symbol that changed since the previous snapshot:
    #: each got one source-changed signal (code-aware memory, issue 15).
    requalified: int = 0


class CodeSnapshotList(Contract):
    snapshots: list[CodeSnapshot]


class CodeSymbol(Contract):
    qualname: str
    name: str
    kind: str
    path: str
    start_line: int
    end_line: int
    signature_hash: str
    body_hash: str


class CodeFileChange(Contract):
    change: Literal["added", "removed", "changed"]
    path: str
    old_hash: str | None
    new_hash: str | None


class CodeSymbolChange(Contract):
    change: Literal["added", "removed", "changed", "renamed", "moved"]
    old: CodeSymbol | None
    new: CodeSymbol | None
    body_changed: bool
    signature_changed: bool


class CodeEdge(Contract):
    kind: Literal["import", "call", "reference"]
    source: str
    target: str
    path: str
    line: int


class CodeEdgeChange(Contract):
    change: Literal["added", "removed"]
    edge: CodeEdge


class CodeDiff(Contract):
    from_snapshot: CodeSnapshot
    to_snapshot: CodeSnapshot
    files: list[CodeFileChange]
    symbols: list[CodeSymbolChange]
    edges: list[CodeEdgeChange]


class CodeImpactNode(Contract):
    """An impacted node; ``via`` explains it: the edges from it back to the changed code
    (each edge's source depends on its target)."""

    node: str
    kind: str
    path: str | None
    distance: int
    via: list[CodeEdge]


class CodeImpact(Contract):
    snapshot_id: int
    target: str
    #: The nodes the walk started from (a file's module and its symbols, or one symbol
    #: and its members).
    starts: list[str]
    depth: int
    max_nodes: int
    nodes: list[CodeImpactNode]
    truncated: bool
    #: Why the walk stopped early ('' when it reached everything within depth).
    truncation: str


class CodeSymbols(Contract):
    snapshot_id: int
    path: str
    status: str
    reason: str
    symbols: list[CodeSymbol]


class CodeShow(Contract):
    snapshot_id: int
    symbol: CodeSymbol
    #: The exact lines start_line..end_line of the file as it is on disk now.
    text: str
    #: Whether the file still has the content the snapshot saw (else the lines may have moved).
    current: bool
