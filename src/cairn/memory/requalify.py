"""Requalification: memory bound to code, checked against the code graph, and the
``source-changed`` signals the indexer and the code graph emit about memory.

A bound symbol is an evidence ref of kind ``symbol``. Its target is ``PATH::NAME``: the
file relative to the project root and the symbol's name within the file (``Box.get``;
``""`` for the module itself), its hash the symbol's body hash in the newest complete code
snapshot when the record was written. A user names a symbol as ``cairn code symbols``
lists it (``pkg.mod.Box.get``) or as ``PATH::NAME``; the record keeps the qualified name.

Freshness (:func:`cairn.memory.freshness.assess`) reads a symbol ref against the newest
complete snapshot of the roots at or under the project root (:class:`CodeView`): the same
body hash is fresh; another is ``symbol_changed`` (suspect); gone from its file but found
elsewhere by body hash is ``symbol_moved`` (suspect); gone is ``symbol_removed`` (stale);
no snapshot covering it, or its file not parsed there, is ``symbol_unchecked``. A file ref
on a file the record also binds symbols in is judged through those symbols only, so an
edit elsewhere in the file leaves the record fresh.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cairn.memory.evidence import check_relative
from cairn.memory.freshness import SymbolState
from cairn.memory.project import ProjectInfo
from cairn.memory.records import EvidenceRef

if TYPE_CHECKING:
    from cairn.code.diff import ChangedCode
    from cairn.code.model import Snapshot, Symbol
    from cairn.store.protocol import Store

SEP = "::"
#: Signals a code refresh appends are tagged with the snapshot pair: a refresh handled
#: twice appends nothing more.
CODE_TAG = "(code snapshots {old}->{new})"

ProjectOf = Callable[[str | Path | None], ProjectInfo]


def symbol_paths(refs: Sequence[EvidenceRef]) -> frozenset[str]:
    """The files a record binds symbols in (their file refs are judged by the symbols)."""
    return frozenset(r.target.partition(SEP)[0] for r in refs if r.kind == "symbol")


@dataclass(frozen=True, slots=True)
class _Root:
    snapshot: Snapshot
    prefix: str  # the snapshot's root relative to the project root, "" when the same

    def inner(self, path: str) -> str | None:
        """A project-relative path as this snapshot names it, None when outside it."""
        if not self.prefix:
            return path
        return path[len(self.prefix) + 1:] if path.startswith(self.prefix + "/") else None

    def outer(self, path: str) -> str:
        return f"{self.prefix}/{path}" if self.prefix else path


class CodeView:
    """The newest complete code snapshot of every root at or under one project root (the
    deepest root first where two hold a file)."""

    def __init__(self, store: Store, project_root: Path, expected: Sequence[EvidenceRef] = ()) -> None:
        """``expected``: the symbol refs about to be checked, so that their files' symbols
        are read in one pass per snapshot (a file lookup reads the snapshot's rows)."""
        self._store = store
        self._pending = {r.target.partition(SEP)[0] for r in expected if r.kind == "symbol"}
        self._files: dict[tuple[int, str], list[Symbol]] = {}
        roots: dict[str, _Root] = {}
        for snap in store.code_snapshots():  # newest first
            if not snap.complete or snap.root in roots:
                continue
            try:
                rel = Path(snap.root).relative_to(project_root).as_posix()
            except ValueError:
                continue
            roots[snap.root] = _Root(snap, "" if rel == "." else rel)
        self._roots = sorted(roots.values(), key=lambda r: (-len(r.prefix), r.prefix))
        self._bodies: dict[str, list[str]] | None = None

    def resolve(self, spec: str) -> tuple[str, Symbol] | None:
        """The ``PATH::NAME`` target and the symbol a user named (a qualified name as
        ``cairn code symbols`` lists it, or ``PATH::NAME``); None when no snapshot has it."""
        if SEP in spec:
            path, _, name = spec.partition(SEP)
            path = check_relative(path)
            for root in self._roots:
                inner = root.inner(path)
                if inner is not None:
                    for symbol in self._store.code_symbols(root.snapshot.id, path=inner):
                        if symbol.name == name.strip():
                            return f"{path}{SEP}{symbol.name}", symbol
            return None
        for root in self._roots:
            found = self._store.code_symbols(root.snapshot.id, qualnames=[spec])
            if found:
                return f"{root.outer(found[0].path)}{SEP}{found[0].name}", found[0]
        return None

    def state(self, ref: EvidenceRef) -> tuple[str, str | None]:
        """Where a symbol ref stands now: ``same``, ``changed``, ``moved`` (with its new
        ``PATH::NAME``) or ``removed``. Raises LookupError when no snapshot covers its
        file, or its file did not parse there."""
        path, _, name = ref.target.partition(SEP)
        for root in self._roots:
            inner = root.inner(path)
            if inner is None:
                continue
            entry = self._store.code_file(root.snapshot.id, inner)
            if entry is not None and entry.status != "parsed":
                raise LookupError(ref.target)
            if entry is not None:
                for symbol in self._symbols(root, inner):
                    if symbol.name == name:
                        return ("same" if symbol.body_hash == ref.hash else "changed"), None
            moved = self._moved(ref)
            return ("moved", moved) if moved is not None else ("removed", None)
        raise LookupError(ref.target)

    def _symbols(self, root: _Root, inner: str) -> list[Symbol]:
        """The symbols of one file of a root's snapshot, read with every pending file of
        that root in one query."""
        key = (root.snapshot.id, inner)
        if key not in self._files:
            wanted = {inner} | {p for p in (root.inner(path) for path in self._pending) if p is not None}
            wanted = {p for p in wanted if (root.snapshot.id, p) not in self._files}
            for path in wanted:
                self._files[(root.snapshot.id, path)] = []
            for symbol in self._store.code_symbols(root.snapshot.id, paths=sorted(wanted)):
                self._files[(root.snapshot.id, symbol.path)].append(symbol)
        return self._files[key]

    def _moved(self, ref: EvidenceRef) -> str | None:
        """Another place holding the ref's body (a rename or a move), the same short name
        first; None when there is none."""
        if ref.hash is None:
            return None
        if self._bodies is None:
            self._bodies = {}
            for root in self._roots:
                for symbol in self._store.code_symbols(root.snapshot.id):
                    if symbol.kind != "module":
                        self._bodies.setdefault(symbol.body_hash, []).append(
                            f"{root.outer(symbol.path)}{SEP}{symbol.name}")
        short = ref.target.rpartition(".")[2].rpartition(SEP)[2]
        places = sorted((p for p in self._bodies.get(ref.hash, []) if p != ref.target),
                        key=lambda p: (p.rpartition(".")[2].rpartition(SEP)[2] != short, p))
        return places[0] if places else None


def bind_symbols(store: Store, root: Path | None,
                 symbols: Sequence[str]) -> tuple[tuple[str, ...], tuple[EvidenceRef, ...]]:
    """The bound symbols as the record keeps them (the code graph's qualified name when a
    snapshot has the symbol, else as written) and a ``symbol`` ref with the body hash for
    each one found."""
    if not symbols or root is None:
        return tuple(symbols), ()
    view = CodeView(store, root)
    names: list[str] = []
    refs: list[EvidenceRef] = []
    for spec in symbols:
        found = view.resolve(spec)
        if found is None:
            names.append(spec)
            continue
        target, symbol = found
        names.append(symbol.qualname)
        refs.append(EvidenceRef("symbol", target, symbol.body_hash, symbol.start_line, symbol.end_line))
    return tuple(dict.fromkeys(names)), tuple(dict.fromkeys(refs))


def symbol_checker(store: Store, root: Path | None, expected: Sequence[EvidenceRef] = ()) -> SymbolState:
    """The freshness check of symbol refs under ``root`` (snapshots read on first use;
    the files of the ``expected`` refs read together)."""
    view: list[CodeView] = []

    def state(ref: EvidenceRef) -> tuple[str, str | None]:
        if root is None:
            raise LookupError(ref.target)
        if not view:
            view.append(CodeView(store, root, expected))
        return view[0].state(ref)

    return state


# --- producers of source-changed signals --------------------------------------------------


def index_run_signals(store: Store, project_of: ProjectOf, run_id: int) -> list[tuple[str, str, str | None]]:
    """A source-changed signal for every record whose evidence cites a document the index
    run changed (text changed, renamed away, deleted): passage refs by docid, bound-file
    refs by the file's path in its project. One indexed lookup per changed document."""
    changes = [c for c in store.run_changes(run_id)
               if c.kind != "create" and not (c.kind == "update" and c.old_text_hash == c.new_text_hash)]
    if not changes:
        return []
    signals: list[tuple[str, str, str | None]] = []
    by_docid: dict[str, str] = {}
    for change in changes:
        by_docid.setdefault(change.docid, change.kind)
    for docid, ids in store.memory_citing("passage", sorted(by_docid)).items():
        signals += [(rid, "source-changed", f"{by_docid[docid]} of {docid} (index run {run_id})") for rid in ids]
    roots = {c.name: Path(c.root) for c in store.list_collections()}
    projects: dict[Path, ProjectInfo] = {}
    seen = {rid for rid, _, _ in signals}
    for change in changes:
        path = change.old_path or change.new_path
        root = roots.get(change.collection)
        if path is None or root is None:
            continue
        absolute = root / path
        if absolute.parent not in projects:
            projects[absolute.parent] = project_of(absolute.parent)
        info = projects[absolute.parent]
        if info.root is None:
            continue
        try:
            relative = absolute.relative_to(info.root).as_posix()
        except ValueError:
            continue
        ids = store.memory_citing("file", [relative]).get(relative, [])
        records = store.memory_records(ids) if ids else {}
        for rid in ids:
            if rid not in seen and records[rid].project == info.identity:
                seen.add(rid)
                signals.append((rid, "source-changed", f"{change.kind} of file {relative} (index run {run_id})"))
    return signals


def code_refresh_signals(store: Store, project_of: ProjectOf, root: str, old: int, new: int,
                         changed: ChangedCode) -> list[tuple[str, str, str | None]]:
    """One source-changed signal per record bound to a file or a symbol that changed
    between snapshots ``old`` and ``new`` of ``root``, naming what changed and the two
    snapshots. A record counts when its project holds ``root`` (a git checkout's top, or
    for a folder without git, ``root`` or a folder above it) and its paths, relative to
    that project, match. A file change reaches a record only if it binds no symbol in
    that file (its symbols say whether the edit touched it). A pair handled before adds
    nothing."""
    found: dict[str, list[str]] = {}
    for info in dict.fromkeys(project_of(folder) for folder in (Path(root), *Path(root).parents)):
        if info.root is None:
            continue
        try:
            rel = Path(root).relative_to(info.root).as_posix()
        except ValueError:
            continue
        for rid, notes in _citing(store, info.identity, "" if rel == "." else rel + "/", changed).items():
            found.setdefault(rid, []).extend(notes)
    if not found:
        return []
    records = store.memory_records(sorted(found))
    tag = CODE_TAG.format(old=old, new=new)
    done = {rid for rid, signals in store.memory_signals(sorted(found)).items()
            if any(s.kind == "source-changed" and (s.note or "").endswith(tag) for s in signals)}
    out: list[tuple[str, str, str | None]] = []
    for rid in sorted(found):
        record = records.get(rid)
        if record is None or rid in done:
            continue
        narrowed = symbol_paths(record.evidence)
        notes = [n for n in dict.fromkeys(found[rid])
                 if not (n.startswith("file_") and n.split(" ", 1)[1] in narrowed)]
        if notes:
            out.append((rid, "source-changed", f"{'; '.join(notes)} {tag}"))
    return out


def _citing(store: Store, project: str, prefix: str, changed: ChangedCode) -> dict[str, list[str]]:
    """Record id -> what changed that it cites, for the records of ``project`` (whose
    paths carry ``prefix`` before the snapshot's)."""
    what: dict[tuple[str, str], list[str]] = {}  # (ref kind, target) -> what to say
    for change in changed.changes:
        path = prefix + change.path
        if change.name is None:
            what.setdefault(("file", path), []).append(f"{change.kind} {path}")
        else:
            target = f"{path}{SEP}{change.name}"
            moved = f" -> {prefix}{change.now}" if change.now else ""
            what.setdefault(("symbol", target), []).append(f"{change.kind} {target}{moved}")
    cited: dict[str, list[tuple[str, str]]] = {}
    for kind in ("symbol", "file"):
        for target, ids in store.memory_citing(kind, [t for k, t in what if k == kind]).items():
            for rid in ids:
                cited.setdefault(rid, []).append((kind, target))
    records = store.memory_records(sorted(cited)) if cited else {}
    return {rid: [note for key in keys for note in what[key]] for rid, keys in cited.items()
            if rid in records and records[rid].project == project}
