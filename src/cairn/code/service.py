"""The code-graph service: refresh snapshots, diff them, walk impact, list and show symbols.

Snapshots live in the Workspace's index (one store), one series per project root. Read
operations default to the newest snapshot (of ``root`` when given). Every method returns a
:mod:`cairn.contracts.code` object.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from cairn.code.impact import Neighbours, walk
from cairn.code.model import Coverage, Edge, FileEntry, Snapshot, SnapshotWrite, Symbol
from cairn.contracts import code as c
from cairn.errors import NotFoundError, ValidationError
from cairn.store.protocol import CodeStore, StoreOpener
from cairn.validation import check_bound

if TYPE_CHECKING:  # scanning and diffing are imported by the methods that do them (impact needs neither)
    from cairn.code.diff import ChangedCode

#: Snapshots kept per root by default: each refresh prunes the older ones (and the cached
#: facts no kept snapshot uses). Enough to diff across a few refreshes, small on disk.
DEFAULT_KEEP = 10
#: Impact remembers the edges it read for this many snapshots, up to this many nodes each.
EDGE_CACHE_SNAPSHOTS = 2
EDGE_CACHE_NODES = 500_000

#: Told what changed between a root's previous snapshot and its new one (the root, both
#: snapshot ids, the changes); returns how many records it requalified. Agent memory
#: registers here (:meth:`cairn.memory.service.MemoryService.note_code_refresh`).
AfterRefresh: TypeAlias = "Callable[[str, int, int, ChangedCode], int]"


def snapshot_contract(snapshot: Snapshot) -> c.CodeSnapshot:
    return c.CodeSnapshot(
        id=snapshot.id, root=snapshot.root, git_revision=snapshot.git_revision,
        fingerprint=snapshot.fingerprint, complete=snapshot.complete, reason=snapshot.reason,
        created_at=snapshot.created_at, files=snapshot.files, symbols=snapshot.symbols,
        edges=snapshot.edges,
    )


def coverage_contract(coverage: Coverage) -> c.CodeCoverage:
    return c.CodeCoverage(
        provider=coverage.provider, files_parsed=coverage.files_parsed,
        files_failed=coverage.files_failed,
        files_skipped=[c.CodeSkipped(path=p, reason=r) for p, r in coverage.files_skipped],
        relation_kinds=list(coverage.relation_kinds), confidence=dict(coverage.confidence),
    )


def symbol_contract(symbol: Symbol) -> c.CodeSymbol:
    return c.CodeSymbol(
        qualname=symbol.qualname, name=symbol.name, kind=symbol.kind, path=symbol.path,
        start_line=symbol.start_line, end_line=symbol.end_line,
        signature_hash=symbol.signature_hash, body_hash=symbol.body_hash,
    )


def edge_contract(edge: Edge) -> c.CodeEdge:
    return c.CodeEdge(kind=edge.kind, source=edge.source, target=edge.target, path=edge.path, line=edge.line)


def _root_key(root: str | None) -> str | None:
    """A root as snapshots are keyed: absolute and resolved."""
    return None if root is None else str(_path(root).expanduser().resolve())


def _path(value: str) -> Path:
    if "\0" in value:
        raise ValidationError("a path cannot contain a NUL character")
    return Path(value)


class CodeService:
    """Code-graph snapshots of project roots in the Workspace's index."""

    def __init__(self, open_store: StoreOpener, after_refresh: AfterRefresh | None = None) -> None:
        self._open_store = open_store
        self._after_refresh = after_refresh
        self._edge_cache: dict[tuple[str, int], dict[str, list[Edge]]] = {}
        self._kind_cache: dict[tuple[str, int], dict[str, str]] = {}

    # --- writing ---------------------------------------------------------------------------

    def code_refresh(self, path: str, keep: int = DEFAULT_KEEP) -> c.CodeRefresh:
        """Take a snapshot of the code under ``path`` (a project root): incremental against
        the root's previous snapshot (size and mtime, then content hash; only new content
        is parsed), keeping the ``keep`` newest snapshots of the root. Memory bound to the
        files and symbols that changed since the previous snapshot is requalified (one
        source-changed signal per record; ``requalified`` counts them)."""
        from cairn.code.scan import Previous, git_revision, scan

        check_bound("keep", keep, 1000)
        root = _path(path).expanduser()
        if not root.is_dir():
            raise ValidationError(f"{path} is not a directory")
        root = root.resolve()
        store = self._open_store(True)
        listed = store.code_snapshots(str(root))
        prior = {f.path: f for f in store.code_files(listed[0].id)} if listed else {}
        previous = None
        if listed:
            last = listed[0].id

            def members(paths: Sequence[str]) -> dict[str, set[tuple[str, str]]]:
                return {p: {(s.name, s.kind) for s in store.code_symbols(last, path=p) if s.kind != "module"}
                        for p in paths}

            previous = Previous(last, listed[0].complete, members,
                                lambda modules: store.code_importers(last, modules))
        result = scan(root, prior=prior, load_facts=store.code_facts, previous=previous)
        # What changed since the previous snapshot, read before the write (which may prune it).
        changed = (self._changed(store, listed[0].id, prior, result.files, result.symbols)
                   if self._after_refresh is not None and listed and listed[0].complete and result.complete
                   else None)
        store.acquire_writer()
        try:
            written = store.write_code_snapshot(SnapshotWrite(
                root=str(root), git_revision=git_revision(root), fingerprint=result.fingerprint,
                complete=result.complete, reason=result.reason, coverage=tuple(result.coverage),
                files=tuple(result.files), symbols=tuple(result.symbols), edges=tuple(result.edges),
                new_facts=result.new_facts, copy_from=result.copy_from,
                copy_symbols=result.copy_symbols, copy_edges=result.copy_edges,
            ), keep)
        finally:
            store.release_writer()
        requalified = 0
        if self._after_refresh is not None and changed is not None and changed.changes:
            requalified = self._after_refresh(str(root), listed[0].id, written.id, changed)
        return c.CodeRefresh(
            snapshot=snapshot_contract(written), parsed=result.parsed, reused=result.reused,
            failed=[c.CodeFailure(path=f.path, reason=f.reason) for f in result.files if f.status == "failed"],
            coverage=[coverage_contract(cov) for cov in result.coverage], keep=keep, requalified=requalified,
        )

    def _changed(self, store: CodeStore, old: int, prior: dict[str, FileEntry], files: Sequence[FileEntry],
                 symbols: Sequence[Symbol]) -> ChangedCode:
        """What changed between snapshot ``old`` (manifest ``prior``) and the scan about to
        be written, reading only the stored symbols of the files that changed (a small edit
        reads a few rows, not the whole graph; a changed file's symbols are always new in
        the scan, never copied)."""
        from cairn.code.diff import changed_in, diff_files

        changes = tuple(diff_files(prior.values(), files))
        paths = {f.path for f in changes}
        return changed_in(changes, [s for p in sorted(paths) for s in store.code_symbols(old, path=p)],
                          [s for s in symbols if s.path in paths])

    # --- reading ---------------------------------------------------------------------------

    def code_snapshots(self, root: str | None = None) -> c.CodeSnapshotList:
        """The stored snapshots (of one root, or all), newest first."""
        store = self._open_store(True)
        key = _root_key(root)
        return c.CodeSnapshotList(snapshots=[snapshot_contract(s) for s in store.code_snapshots(key)])

    def _snapshot(self, store: CodeStore, snapshot: int | None, root: str | None = None) -> Snapshot:
        if snapshot is not None:
            found = store.code_snapshot(snapshot)
            if found is None:
                raise NotFoundError(f"no code snapshot {snapshot}")
            return found
        key = _root_key(root)
        listed = store.code_snapshots(key)
        if not listed:
            where = f" of {key}" if key else ""
            raise NotFoundError(f"no code snapshot{where}; run `cairn code refresh PATH` first")
        found = store.code_snapshot(listed[0].id)
        assert found is not None
        return found

    def code_diff(self, from_snapshot: int | None = None, to_snapshot: int | None = None,
                  root: str | None = None) -> c.CodeDiff:
        """Files, symbols (by body hash: renames and moves are paired) and edges added,
        changed and removed between two snapshots of a root (default: the newest and the
        one before it). An incomplete snapshot is refused with its reason."""
        from cairn.code.diff import diff_snapshots

        store = self._open_store(True)
        new = self._snapshot(store, to_snapshot, root)
        if from_snapshot is None:
            older = [s for s in store.code_snapshots(new.root) if s.id < new.id]
            if not older:
                raise NotFoundError(f"snapshot {new.id} is the first of {new.root}; nothing to diff against")
            old = older[0]
        else:
            old = self._snapshot(store, from_snapshot)
        for snap in (old, new):
            if not snap.complete:
                raise ValidationError(f"snapshot {snap.id} is incomplete ({snap.reason}); refresh again")
        if old.root != new.root:
            raise ValidationError(f"snapshots {old.id} and {new.id} are of different roots")
        diff = diff_snapshots(store.code_files(old.id), store.code_files(new.id),
                              store.code_symbols(old.id), store.code_symbols(new.id),
                              store.code_edges(old.id), store.code_edges(new.id))
        return c.CodeDiff(
            from_snapshot=snapshot_contract(old), to_snapshot=snapshot_contract(new),
            files=[c.CodeFileChange(change=f.change, path=f.path,
                                    old_hash=f.old.content_hash if f.old else None,
                                    new_hash=f.new.content_hash if f.new else None) for f in diff.files],
            symbols=[c.CodeSymbolChange(
                change=s.change, old=symbol_contract(s.old) if s.old else None,
                new=symbol_contract(s.new) if s.new else None, body_changed=s.body_changed,
                signature_changed=s.signature_changed) for s in diff.symbols],
            edges=[c.CodeEdgeChange(change=e.change, edge=edge_contract(e.edge)) for e in diff.edges],
        )

    def _file(self, store: CodeStore, snap: Snapshot, path: str) -> str:
        """``path`` relative to the snapshot's root, refused with a reason when the
        snapshot did not parse it."""
        rel = path
        if os.path.isabs(path):
            rel = os.path.relpath(_path(path).resolve(), snap.root)
            if rel.startswith(".."):
                raise ValidationError(f"{path} is not under the code root {snap.root}")
        rel = Path(rel).as_posix().removeprefix("./")
        entry = store.code_file(snap.id, rel)
        if entry is None:
            raise ValidationError(f"{rel} is not indexed in snapshot {snap.id} of {snap.root}; "
                                  "run `cairn code refresh` (or check the path)")
        if entry.status != "parsed":
            raise ValidationError(f"{rel} was not parsed in snapshot {snap.id}: {entry.reason}")
        return rel

    def code_impact(self, target: str, depth: int = 5, max_nodes: int = 200,
                    snapshot: int | None = None, root: str | None = None) -> c.CodeImpact:
        """What depends on ``target`` (a file path or a symbol's qualified name), up to
        ``depth`` hops and ``max_nodes`` nodes, each with the path of edges that reached it."""
        check_bound("depth", depth, 50)
        check_bound("max_nodes", max_nodes, 100_000)
        store = self._open_store(True)
        snap = self._snapshot(store, snapshot, root)
        symbols = store.code_symbols(snap.id, qualnames=[target])
        if symbols:
            starts = [target] + [s.qualname for s in store.code_symbols(snap.id, path=symbols[0].path)
                                 if s.qualname.startswith(target + ".") and symbols[0].kind != "module"]
        else:
            if not any(ch in target for ch in "/\\") and not target.endswith((".py", ".ts", ".tsx", ".js", ".jsx", ".go", ".rs", ".java")):
                raise NotFoundError(f"no symbol {target!r} in snapshot {snap.id} (give a path or a qualified name)")
            rel = self._file(store, snap, target)
            starts = [s.qualname for s in store.code_symbols(snap.id, path=rel)]
        result = walk(self._edges_into(store, snap.id), starts, depth=depth, max_nodes=max_nodes)
        # An import edge's source is a module: only nodes reached otherwise are looked up.
        kinds = self._kinds(store, snap.id, [n.node for n in result.nodes if not n.path or n.path[0].kind != "import"])
        # One contract per distinct edge (a wide impact repeats the same edges in thousands
        # of explanations). The answer is built from the snapshot's own rows, already typed,
        # so it is constructed without validation: no validator is built for it (the first
        # call of a process would pay pydantic's schema build and plugin discovery).
        edge, node = c.CodeEdge.model_construct, c.CodeImpactNode.model_construct
        built: dict[Edge, c.CodeEdge] = {}
        for n in result.nodes:
            for e in n.path:
                if e not in built:
                    built[e] = edge(kind=e.kind, source=e.source, target=e.target, path=e.path, line=e.line)
        return c.CodeImpact.model_construct(
            snapshot_id=snap.id, target=target, starts=list(result.starts), depth=depth,
            max_nodes=max_nodes,
            # A node's path is where its first edge is written (an edge lives in its source's file).
            nodes=[node(node=n.node, kind="module" if n.path and n.path[0].kind == "import"
                        else kinds.get(n.node, "unknown"),
                        path=n.path[0].path if n.path else None, distance=n.distance,
                        via=[built[e] for e in n.path]) for n in result.nodes],
            truncated=bool(result.truncated), truncation=result.truncated,
        )

    def _kinds(self, store: CodeStore, snapshot_id: int, nodes: Sequence[str]) -> dict[str, str]:
        """The kind of each node that is a symbol (remembered per snapshot)."""
        key = (getattr(store, "location", ""), snapshot_id)
        known = self._kind_cache.setdefault(key, {})
        while len(self._kind_cache) > EDGE_CACHE_SNAPSHOTS:
            self._kind_cache.pop(next(iter(self._kind_cache)))
        missing = [n for n in nodes if n not in known]
        if missing:
            found = {s.qualname: s.kind for s in store.code_symbols(snapshot_id, qualnames=missing)}
            if len(known) + len(missing) <= EDGE_CACHE_NODES:
                known.update((n, found.get(n, "unknown")) for n in missing)
            else:
                return {n: known.get(n) or found.get(n) or "unknown" for n in nodes}
        return {n: known[n] for n in nodes}

    def _edges_into(self, store: CodeStore, snapshot_id: int) -> Neighbours:
        """Edges into nodes, from the store, remembered per snapshot (snapshots never
        change): a resident server answers repeated impact questions from memory."""
        key = (getattr(store, "location", ""), snapshot_id)
        cache = self._edge_cache.get(key)
        if cache is None:
            while len(self._edge_cache) >= EDGE_CACHE_SNAPSHOTS:
                self._edge_cache.pop(next(iter(self._edge_cache)))
            cache = self._edge_cache[key] = {}

        def fetch(nodes: Sequence[str]) -> dict[str, list[Edge]]:
            missing = [n for n in nodes if n not in cache]
            found = store.code_edges_into(snapshot_id, missing) if missing else {}
            if len(cache) + len(missing) <= EDGE_CACHE_NODES:
                cache.update((n, found.get(n, [])) for n in missing)
            return {n: cache[n] if n in cache else found.get(n, []) for n in nodes}

        return fetch

    def code_symbols(self, path: str, snapshot: int | None = None, root: str | None = None) -> c.CodeSymbols:
        """The symbols of one file (module, classes, functions, methods) with their lines."""
        store = self._open_store(True)
        snap = self._snapshot(store, snapshot, root)
        rel = self._file(store, snap, path)
        return c.CodeSymbols(snapshot_id=snap.id, path=rel, status="parsed", reason="",
                             symbols=[symbol_contract(s) for s in store.code_symbols(snap.id, path=rel)])

    def code_show(self, symbol: str, snapshot: int | None = None, root: str | None = None) -> c.CodeShow:
        """The exact lines of a symbol, read from the file now, and whether the file still
        has the content the snapshot saw."""
        from cairn.code.scan import content_hash

        store = self._open_store(True)
        snap = self._snapshot(store, snapshot, root)
        found = store.code_symbols(snap.id, qualnames=[symbol])
        if not found:
            raise NotFoundError(f"no symbol {symbol!r} in snapshot {snap.id}")
        sym = found[0]
        try:
            data = (Path(snap.root) / sym.path).read_bytes()
        except OSError as exc:
            raise NotFoundError(f"{sym.path} cannot be read now: {exc.strerror}") from None
        entry = store.code_file(snap.id, sym.path)
        lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
        text = "".join(lines[sym.start_line - 1 : sym.end_line])
        return c.CodeShow(snapshot_id=snap.id, symbol=symbol_contract(sym), text=text,
                          current=entry is not None and content_hash(data) == entry.content_hash)
