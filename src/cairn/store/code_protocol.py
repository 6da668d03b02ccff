"""The code graph's storage protocol (issue 15): snapshots of project roots with their
file manifests, symbols and edges, and a cache of parsed file facts. Part of the composite
:class:`cairn.store.protocol.Store`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from cairn.code.model import Edge, FileEntry, FileFacts, Snapshot, SnapshotWrite, Symbol


@runtime_checkable
class CodeStore(Protocol):
    """Code-graph snapshots of project roots: manifest, symbols, edges, and the facts cache
    (parsed facts by content hash, shared by every snapshot holding that content)."""

    def write_code_snapshot(self, snapshot: SnapshotWrite, keep: int) -> Snapshot:
        """Store a snapshot and the new facts in one transaction (copying the rows of
        ``copy_symbols``/``copy_edges`` files from ``copy_from``), then keep only the
        ``keep`` newest snapshots of its root and the facts they still use."""
        ...

    def code_snapshots(self, root: str | None = None) -> list[Snapshot]:
        """Snapshots (of one root, or all), newest first, without coverage."""
        ...

    def code_snapshot(self, snapshot_id: int) -> Snapshot | None:
        """One snapshot with its coverage, or ``None``."""
        ...

    def code_files(self, snapshot_id: int) -> list[FileEntry]:
        """A snapshot's manifest, by path."""
        ...

    def code_file(self, snapshot_id: int, path: str) -> FileEntry | None:
        """One file of a snapshot's manifest, or ``None``."""
        ...

    def code_symbols(self, snapshot_id: int, *, path: str | None = None,
                     qualnames: Sequence[str] | None = None, paths: Sequence[str] | None = None) -> list[Symbol]:
        """A snapshot's symbols (of one file, of several files, or by qualified name), by
        path and line."""
        ...

    def code_edges(self, snapshot_id: int) -> list[Edge]:
        """A snapshot's edges."""
        ...

    def code_edges_into(self, snapshot_id: int, targets: Sequence[str]) -> dict[str, list[Edge]]:
        """target -> the edges into it (by source, then kind), for the given targets."""
        ...

    def code_importers(self, snapshot_id: int, modules: Sequence[str]) -> set[str]:
        """Paths of the files holding an import edge to any of ``modules``."""
        ...

    def code_facts(self, keys: Sequence[str]) -> dict[str, FileFacts]:
        """Cached facts by key; unknown keys are absent."""
        ...
