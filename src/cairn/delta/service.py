"""The knowledge delta service: ``changes``, ``diff`` and ``impact``.

Pure cores beside it: cursors in :mod:`cairn.delta.journal`, the structural diff in
:mod:`cairn.delta.diff`; this module reads the journal, the revision structures and the
link graph, and wires them together.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from cairn.delta.journal import JournalRetention, Since, encode_cursor, resolve_since
from cairn.errors import NotFoundError, ValidationError
from cairn.ingest.structure import EMPTY, Structure, load_structure, text_structure
from cairn.refs import document_uri, find_any_document, resolve_document
from cairn.store.protocol import Store, StoreOpener
from cairn.store.records import ChangeRecord
from cairn.validation import check_bound

if TYPE_CHECKING:
    from cairn.contracts.delta import (
        Change,
        ChangeFeed,
        Dependent,
        DiffStatus,
        DiffSummary,
        DocumentDiff,
        Impact,
    )
    from cairn.contracts.graph import Neighbors, PathHop

# The contracts are imported where they are used: importing the SDK stays cheap.

#: Most journal entries ``changes`` returns at once.
MAX_CHANGES = 1000
#: Journal entries read per page when summarising many documents.
_PAGE = 1000


class ImpactExtension(Protocol):
    """A source of dependents beyond backlinks and saved capsules: the extension point
    for memory bound to documents (:class:`cairn.memory.impact.MemoryImpact`). Registered
    with :class:`DeltaService` by the composition root."""

    def dependents(self, docid: str, reached: Mapping[str, Sequence[PathHop]]) -> list[Dependent]:
        """Dependents of the document ``docid``. ``reached`` maps every document the impact
        walk reached (``docid`` itself with an empty path) to the links connecting it, so
        a dependent bound to one of them can carry that path."""
        ...


#: ``graph_neighbors(docid, depth=..., direction="in", max_nodes=...)``.
Neighbourhood = Callable[..., "Neighbors"]


@dataclass(frozen=True, slots=True)
class _Current:
    """A document as the index holds it now (None fields: deleted)."""

    path: str
    text_hash: str | None
    kind: str
    text: str | None


class DeltaService:
    """What changed in an index (the change journal), how (structural diffs), and what
    depends on a document (impact)."""

    def __init__(
        self, open_store: StoreOpener, retention: JournalRetention, neighbours: Neighbourhood,
        extensions: Sequence[ImpactExtension] = (),
    ) -> None:
        self._open_store = open_store
        self._retention = retention
        self._neighbours = neighbours
        self._extensions = tuple(extensions)

    # --- changes -------------------------------------------------------------------------

    def changes(self, since: str | None = None, *, collection: str | None = None, limit: int = 100) -> ChangeFeed:
        """Journal entries after ``since`` (a cursor from an earlier call, an ISO date or
        datetime, or None: everything kept), oldest first, each document change exactly
        once: ``create``, ``update``, ``rename``, ``delete``, ``reactivate``, ``fail``, with
        old and new hashes. Returns the ``cursor`` to poll with next. A cursor or date
        older than the journal's retention, or a cursor of another index, raises
        ``cursor_expired``: never a silent gap."""
        from cairn.contracts.delta import ChangeFeed, Retention

        check_bound("limit", limit, MAX_CHANGES)
        store = self._open_store(False)
        self._check_collection(store, collection)
        state = store.journal_state()
        point = resolve_since(since, state)
        rows = store.journal_entries(after=point.after, through=state.last_seq, since_at=point.at,
                                     collection=collection, limit=limit + 1)
        has_more = len(rows) > limit
        rows = rows[:limit]
        cursor = rows[-1].seq if has_more else state.last_seq
        return ChangeFeed(
            changes=[self._change(state.epoch, row) for row in rows],
            cursor=encode_cursor(state.epoch, cursor), has_more=has_more,
            retention=Retention(max_age_days=self._retention.max_age_days,
                                max_entries=self._retention.max_entries, oldest_at=state.oldest_at),
        )

    def cursor_at(self, seq: int) -> str:
        """The opaque cursor of journal position ``seq`` (what ``changes`` hands out): the
        runtime names it in ``index.changed`` events."""
        return encode_cursor(self._open_store(False).journal_state().epoch, seq)

    def prune(self, store: Store) -> int:
        """Apply the journal's retention (called after every index run)."""
        return store.prune_journal(self._retention.max_age_days, self._retention.max_entries)

    @staticmethod
    def _check_collection(store: Store, collection: str | None) -> None:
        if collection is None:
            return
        if collection in {r.name for r in store.list_collections()}:
            return
        if not store.journal_entries(collection=collection, limit=1):  # a removed one still has a past
            raise NotFoundError(f"no collection named {collection!r}")

    @staticmethod
    def _change(epoch: str, row: ChangeRecord) -> Change:
        from cairn.contracts.delta import Change

        return Change.model_validate({
            "id": encode_cursor(epoch, row.seq), "kind": row.kind, "docid": row.docid or None,
            "collection": row.collection,
            "uri": document_uri(row.collection, row.new_path or row.old_path or ""),
            "old_path": row.old_path, "new_path": row.new_path,
            "old_source_hash": row.old_source_hash, "new_source_hash": row.new_source_hash,
            "old_text_hash": row.old_text_hash, "new_text_hash": row.new_text_hash,
            "error": row.detail, "run_id": row.run_id, "at": row.at,
        })

    # --- diff ----------------------------------------------------------------------------

    def diff(
        self, ref: str | None = None, *, since: str | None = None, collection: str | None = None,
        limit: int = 100,
    ) -> DocumentDiff | DiffSummary:
        """The structural diff of a document: headings, paragraph passages (added, removed,
        changed, moved; old and new line spans), links and tags added and removed,
        frontmatter fields changed. Against its previous revision, or against its state at
        ``since`` (a cursor or an ISO date). Without ``ref``, ``since`` is required: one
        summary per document changed since then (of ``collection``), at most ``limit``."""
        from cairn.contracts.delta import DocumentDiff

        check_bound("limit", limit, MAX_CHANGES)
        store = self._open_store(False)
        if ref is None:
            if since is None:
                raise ValidationError("give a document, or a cursor or date to diff every document changed since")
            return self._summary(store, since, collection, limit)
        record, text = find_any_document(store, ref)
        current = _Current(record.path, record.text_hash if record.active else None, record.kind, text)
        if since is None:
            last = store.last_document_change(record.docid)
            first: ChangeRecord | None = last
            baseline = "previous"
            if last is None:  # its history was pruned: nothing to compare with
                return DocumentDiff(
                    docid=record.docid, uri=document_uri(record.collection, record.path),
                    collection=record.collection, path=record.path, status="unknown",
                    baseline=baseline, new_text_hash=current.text_hash, complete=False,
                    reason="baseline_unavailable",
                )
        else:
            state = store.journal_state()
            point = resolve_since(since, state)
            first = self._first_after(store, record.docid, point)
            baseline = since
        return self._document_diff(store, record.docid, record.collection, current, first, baseline)

    @staticmethod
    def _first_after(store: Store, docid: str, point: Since) -> ChangeRecord | None:
        """The first entry of ``docid`` after ``point`` that changed it (failures did not)."""
        for row in store.journal_entries(after=point.after, since_at=point.at, docid=docid, limit=MAX_CHANGES):
            if row.kind != "fail":
                return row
        return None

    def _document_diff(
        self, store: Store, docid: str, collection: str, current: _Current | None,
        first: ChangeRecord | None, baseline: str,
    ) -> DocumentDiff:
        """Diff a document from its state before ``first`` (None: no change since the
        baseline) to ``current`` (None: no longer in the index)."""
        from cairn.contracts.delta import DocumentDiff, IncompleteReason
        from cairn.delta.diff import diff_structures

        new_hash = current.text_hash if current is not None else None
        path = current.path if current is not None else (first.old_path or first.new_path or "" if first else "")
        if first is None:
            old_hash, old_path = new_hash, path
        elif first.kind in ("create", "reactivate"):
            old_hash, old_path = None, None
        else:
            old_hash, old_path = first.old_text_hash, first.old_path
        status = _status(old_hash, new_hash, old_path, path)
        result = {
            "docid": docid, "uri": document_uri(collection, path), "collection": collection, "path": path,
            "old_path": old_path if old_path not in (None, path) else None, "status": status,
            "baseline": baseline, "old_text_hash": old_hash, "new_text_hash": new_hash,
        }
        if old_hash == new_hash:
            return DocumentDiff.model_validate(result)
        reason: IncompleteReason | None = None
        before = EMPTY if old_hash is None else self._structure(store, docid, old_hash, None)
        if before is None:
            reason = "baseline_unavailable"
        after = EMPTY if new_hash is None else self._structure(store, docid, new_hash, current)
        if after is None:
            reason = reason or "current_unavailable"
        if before is None or after is None:
            return DocumentDiff.model_validate({**result, "complete": False, "reason": reason})
        delta = diff_structures(before, after)
        return DocumentDiff.model_validate({
            **result, "headings": delta.headings, "passages": delta.passages, "links": delta.links,
            "tags_added": delta.tags_added, "tags_removed": delta.tags_removed,
            "frontmatter": delta.frontmatter, "counts": delta.counts(),
        })

    @staticmethod
    def _structure(store: Store, docid: str, text_hash: str, current: _Current | None) -> Structure | None:
        """A revision's structure: the current one's from its text, an earlier one's as kept
        when it was replaced."""
        if current is not None and current.text is not None and current.text_hash == text_hash:
            return load_structure(text_structure(current.text, current.kind))
        blob = store.revision_structure(docid, text_hash)
        return None if blob is None else load_structure(blob)

    def _summary(self, store: Store, since: str, collection: str | None, limit: int) -> DiffSummary:
        from cairn.contracts.delta import DiffSummary, DocumentDiffSummary

        self._check_collection(store, collection)
        state = store.journal_state()
        point = resolve_since(since, state)
        firsts: dict[str, ChangeRecord] = {}
        after, cursor, has_more = point.after, state.last_seq, False
        while not has_more:
            rows = store.journal_entries(after=after, through=state.last_seq, since_at=point.at,
                                         collection=collection, limit=_PAGE)
            for row in rows:
                if not row.docid or row.docid in firsts or row.kind == "fail":
                    continue
                if len(firsts) == limit:
                    has_more, cursor = True, row.seq - 1
                    break
                firsts[row.docid] = row
            if len(rows) < _PAGE:
                break
            after = rows[-1].seq
        documents = []
        for docid, first in firsts.items():
            found = store.find_document(docid=docid)
            current = None
            if found is not None and found[0].active:
                record, text = found
                current = _Current(record.path, record.text_hash, record.kind, text)
            diff = self._document_diff(store, docid, first.collection, current, first, since)
            documents.append(DocumentDiffSummary(
                docid=diff.docid, uri=diff.uri, collection=diff.collection, path=diff.path,
                old_path=diff.old_path, status=diff.status, complete=diff.complete, reason=diff.reason,
                counts=diff.counts, headings=[h.text for h in diff.headings if h.change != "moved"],
            ))
        return DiffSummary(since=since, collection=collection, documents=documents,
                           cursor=encode_cursor(state.epoch, cursor), has_more=has_more)

    # --- impact --------------------------------------------------------------------------

    def impact(self, ref: str, *, depth: int = 2, max_nodes: int = 200) -> Impact:
        """What depends on a document, nearest first, each with the path that connects
        it: documents linking to it (backlinks, up to ``depth`` links away, at most
        ``max_nodes``), saved capsules citing it or one of those documents, and what
        registered extensions add (memory bound to it)."""
        from cairn.contracts.delta import Dependent, Impact

        check_bound("depth", depth, 5)
        check_bound("max_nodes", max_nodes, 10_000)
        store = self._open_store(False)
        record, _ = resolve_document(store, ref)
        walk = self._neighbours(record.docid, depth=depth, direction="in", max_nodes=max_nodes)
        by_docid = {n.docid: n for n in walk.neighbors}
        reached: dict[str, list[PathHop]] = {record.docid: []}
        dependents: list[Dependent] = []
        for n in walk.neighbors:
            chain: list[PathHop] = []
            node = n
            while True:
                chain.append(node.via)
                parent = by_docid.get(node.via.from_docid)
                if parent is None or node.via.from_docid == record.docid:
                    break
                node = parent
            reached[n.docid] = chain[::-1]
            dependents.append(Dependent(kind="backlink", id=n.uri, title=n.title, distance=n.distance,
                                        path=reached[n.docid]))
        dependents += _citing_capsules(store, reached)
        for extension in self._extensions:
            dependents += extension.dependents(record.docid, reached)
        dependents.sort(key=lambda d: (d.distance, d.kind, d.id))
        return Impact(docid=record.docid, uri=document_uri(record.collection, record.path), title=record.title,
                      depth=depth, dependents=dependents, truncated=walk.truncated)


def _citing_capsules(store: Store, reached: Mapping[str, list[PathHop]]) -> list[Dependent]:
    """Saved capsules citing a document of ``reached``, each once, by its nearest one."""
    from cairn.contracts.delta import Dependent

    citing = store.capsules_citing(list(reached))
    names = sorted({name for names in citing.values() for name in names})
    if not names:
        return []
    records = {r.name: r for r in store.saved_capsules(names)}
    best: dict[str, Dependent] = {}
    for docid, path in reached.items():
        for name in citing.get(docid, ()):
            record = records[name]
            refs = [item["ref"] for item in json.loads(record.capsule).get("evidence", [])
                    if item.get("docid") == docid]
            candidate = Dependent(kind="capsule", id=name, title=record.goal, distance=len(path),
                                  path=list(path), cites=refs)
            if name not in best or candidate.distance < best[name].distance:
                best[name] = candidate
    return list(best.values())


def _status(old_hash: str | None, new_hash: str | None, old_path: str | None, path: str) -> DiffStatus:
    if old_hash is None and new_hash is None:
        return "unchanged"
    if old_hash is None:
        return "created"
    if new_hash is None:
        return "deleted"
    if old_hash != new_hash:
        return "updated"
    return "renamed" if old_path not in (None, path) else "unchanged"
