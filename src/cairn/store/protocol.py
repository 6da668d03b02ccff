"""What cairn asks of a store, as narrow protocols by concern.

A backend implements all of them (:class:`Store`); a module outside ``cairn.store``
types its argument with the narrowest protocol it needs, never with a backend class.
The SQLite backend (:mod:`cairn.store.sqlite`) implements each concern in its own
module; a PostgreSQL backend plugs into the same protocols and the same contract tests
(``tests/store/``).

Identifiers: ``document id`` / ``passage id`` are a backend's integer row ids (stable
while the row exists, never shown to users); ``docid`` is the public stable document id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, runtime_checkable

from cairn.code.model import Edge, FileEntry, FileFacts, Snapshot, SnapshotWrite, Symbol
from cairn.store.records import (
    ChangeRecord,
    CollectionRecord,
    DocumentRecord,
    DocumentWrite,
    FileFailure,
    KnownFile,
    LinkRow,
    NoteRow,
    PassageHit,
    SearchFilter,
)
from cairn.text.query import ParsedQuery

__all__ = [
    "CodeStore",
    "CollectionStore",
    "DocumentStore",
    "LexicalIndex",
    "LinkStore",
    "RunJournal",
    "Store",
    "StoreLifecycle",
    "VectorIndex",
    "WriterLock",
]


@runtime_checkable
class StoreLifecycle(Protocol):
    """Opening is the backend's constructor; this is the rest of an index's life."""

    @property
    def location(self) -> str:
        """Where the index lives (a file path, a DSN): a cache key, shown in messages."""
        ...

    @property
    def schema_version(self) -> int:
        """The highest migration applied."""
        ...

    def close(self) -> None:
        """Release the index (and the writer lock if held)."""
        ...

    def size_bytes(self) -> int:
        """Storage used by the index."""
        ...

    def quick_check(self) -> str:
        """An integrity check: "ok" or a description of the first problems."""
        ...


@runtime_checkable
class WriterLock(Protocol):
    """One writer per index at a time, across processes; readers never wait."""

    def acquire_writer(self) -> None:
        """Take the writer lock, or raise :class:`~cairn.errors.BusyError` at once."""
        ...

    def release_writer(self) -> None:
        """Release the writer lock if this store holds it."""
        ...

    def writer_lock_held(self) -> bool:
        """Whether some process currently holds the writer lock."""
        ...

    def held_fds(self) -> tuple[int, ...]:
        """File descriptors a forked helper process must close."""
        ...

    def bulk_writes(self) -> AbstractContextManager[None]:
        """A run of many write transactions (a backend may defer housekeeping to its end)."""
        ...


@runtime_checkable
class CollectionStore(Protocol):
    """Named folders with their globs, guidance text and settings."""

    def add_collection(
        self, name: str, root: str, include: Sequence[str], exclude: Sequence[str], context: str | None,
        *, sequence: bool = False,
    ) -> CollectionRecord:
        """Register a collection; :class:`~cairn.errors.ConflictError` if the name is taken."""
        ...

    def configure_collection(
        self, name: str, *, sequence: bool | None = None, context: str | None = None,
    ) -> CollectionRecord:
        """Change a collection's settings; ``None`` leaves a setting as it is."""
        ...

    def remove_collection(self, name: str) -> int:
        """Delete a collection and everything derived from it; returns documents removed."""
        ...

    def list_collections(self) -> list[CollectionRecord]:
        """Every collection, by name."""
        ...

    def get_collection(self, name: str) -> CollectionRecord:
        """One collection; :class:`~cairn.errors.NotFoundError` if unknown."""
        ...

    def collection_counts(self) -> dict[int, tuple[int, int]]:
        """(active documents, passages) per collection id."""
        ...

    def has_sequence_collections(self) -> bool:
        """Whether any collection is declared a sequence."""
        ...


@runtime_checkable
class DocumentStore(Protocol):
    """Documents and their passages: the ingest writes and every read of them."""

    # --- ingest ---

    def known_files(self, collection_id: int) -> dict[str, KnownFile]:
        """Everything the store remembers of a collection's paths (active or not), by path."""
        ...

    def all_docids(self) -> set[str]:
        """Every docid ever assigned in this index (docids are never reused)."""
        ...

    def write_documents(
        self,
        collection: CollectionRecord,
        run_id: int,
        writes: Sequence[tuple[DocumentWrite, KnownFile | None, str]],
        touches: Sequence[tuple[int, int, int]],
        errors: Sequence[FileFailure],
        cleared: Sequence[str],
    ) -> int:
        """Write one batch atomically, journalled; returns the number of passages written.
        ``errors`` replace the recorded errors of their paths; ``cleared`` paths lose theirs."""
        ...

    def rename_document(
        self, collection: CollectionRecord, run_id: int, known: KnownFile, new_path: str,
        title: str, size: int, mtime_ns: int,
    ) -> None:
        """Move a document to a new path, keeping its docid, text and passages; journalled."""
        ...

    def deactivate_documents(
        self, collection: CollectionRecord, run_id: int, known: Iterable[KnownFile]
    ) -> int:
        """Mark documents whose files are gone inactive (out of every index); journalled."""
        ...

    def failed_files(self, collection_id: int) -> dict[str, FileFailure]:
        """Recorded errors that carry the file's state (content failures), by path."""
        ...

    def clear_errors_except(self, collection_id: int, present: set[str]) -> None:
        """Forget recorded errors of files that no longer exist."""
        ...

    # --- documents ---

    def find_document(self, *, docid: str | None = None, collection: str | None = None,
                      path: str | None = None) -> tuple[DocumentRecord, str | None] | None:
        """A document by docid or by (collection, path), with its text (None when inactive)."""
        ...

    def list_documents(self, collection: str | None, path_prefix: str | None,
                       limit: int) -> list[DocumentRecord]:
        """Active documents by collection and path."""
        ...

    def counts(self) -> dict[str, int]:
        """``documents``, ``inactive_documents`` and ``passages`` of the whole index."""
        ...

    def file_errors(self, limit: int = 200) -> list[tuple[str, str, str, str, str]]:
        """(collection, path, code, message, seen at) of files that failed to index."""
        ...

    def document_states(self, collections: Sequence[str]) -> list[tuple[str, str, int]]:
        """(docid, text_hash, passages) of the active documents of ``collections`` (all
        if empty), by docid."""
        ...

    def sequence_documents(self, docids: Sequence[str]) -> list[tuple[str, int, str]]:
        """(docid, collection id, path) of those active ``docids`` in sequence collections."""
        ...

    def documents_at(self, places: Sequence[tuple[int, str]]) -> dict[tuple[int, str], tuple[str, int]]:
        """Active documents at (collection id, path): docid and first passage id."""
        ...

    # --- passages ---

    def document_passage_ids(self, docid: str) -> list[int]:
        """Passage ids of a document, in order."""
        ...

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The exact text of passages by id."""
        ...

    def passage_hashes(self, passage_ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
        """(passage_hash, source_hash, text_hash) of passages by id."""
        ...

    def passage_hits(self, scored: Sequence[tuple[int, float]]) -> list[PassageHit]:
        """Hits (without snippets) for (passage id, score) pairs, in the given order."""
        ...

    def complete_hits(self, hits: Sequence[PassageHit]) -> list[PassageHit]:
        """Full hits (metadata, no snippet) for possibly light ones, same order and scores."""
        ...

    def filtered_passage_ids(self, filters: SearchFilter) -> list[int]:
        """Ids of the active passages that pass ``filters``."""
        ...

    def passing_filters(self, passage_ids: Sequence[int], filters: SearchFilter) -> set[int]:
        """Those of ``passage_ids`` that are active and pass ``filters``."""
        ...


@runtime_checkable
class LexicalIndex(Protocol):
    """Full-text search; each backend compiles :class:`ParsedQuery` into its own dialect."""

    def search_lexical(
        self, query: ParsedQuery, filters: SearchFilter, limit: int, *, with_text: bool = False,
        light: bool = False,
    ) -> list[tuple[PassageHit, str]]:
        """The ``limit`` best passages, best first (ties by passage id), filters applied
        before the cut, as (hit without snippet, passage text if ``with_text`` else "")
        pairs; ``light`` hits carry only passage id, docid and score."""
        ...


@runtime_checkable
class VectorIndex(Protocol):
    """Embeddings keyed by passage hash and model fingerprint."""

    def pending_passages(
        self, fingerprint: str, collection_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[str, str]]:
        """Distinct (passage_hash, text) of active passages with no vector for ``fingerprint``."""
        ...

    def count_pending(self, fingerprint: str, collection_ids: Sequence[int] | None = None) -> int:
        """How many distinct passage texts still lack a vector for ``fingerprint``."""
        ...

    def write_vectors(self, fingerprint: str, rows: Sequence[tuple[str, bytes, int, int]]) -> None:
        """Store (passage_hash, float32 little-endian blob, dims, token count) rows atomically."""
        ...

    def vector_rows(self, fingerprint: str) -> tuple[list[int], list[str], list[bytes]]:
        """(passage ids ascending, their docids, vector blobs) of every passage with a vector."""
        ...

    def has_vectors(self, fingerprint: str) -> bool:
        """Whether any vector exists for ``fingerprint``."""
        ...

    def vector_counts(self) -> dict[str, int]:
        """Vectors per model fingerprint."""
        ...

    def data_version(self) -> tuple[int, int, int]:
        """Changes whenever passages or vectors change (a cache key for loaded matrices)."""
        ...


@runtime_checkable
class LinkStore(Protocol):
    """What the link graph reads: notes, links as written, texts, headings and tags."""

    def graph_notes(self, collections: Sequence[str] | None, *, metadata: bool) -> list[NoteRow]:
        """Active documents of some (or all) collections, with parsed frontmatter if asked."""
        ...

    def link_rows(
        self, document_ids: Sequence[int] | None, target_contains: Sequence[str] | None = None,
    ) -> Iterator[tuple[int, LinkRow]]:
        """(document id, link) in ``document_ids`` (None: all), by document and position;
        ``target_contains`` keeps targets holding one of these lowercase strings or a ``%``."""
        ...

    def text_prefixes(self, document_ids: Sequence[int], chars: int) -> dict[int, str]:
        """The first ``chars`` characters of each document's text."""
        ...

    def document_texts(self, document_ids: Sequence[int]) -> dict[int, str]:
        """The whole text of each active document."""
        ...

    def heading_rows(self, document_ids: Collection[int]) -> dict[int, list[tuple[str, int]]]:
        """(text, line) of each heading, in order, for every one of ``document_ids``."""
        ...

    def tagged_documents(self, collection: str | None) -> tuple[int, dict[int, list[str]]]:
        """(active documents, tags of every tagged active document) of one or all collections."""
        ...


@runtime_checkable
class RunJournal(Protocol):
    """Index runs and the change journal (written with the documents they describe)."""

    def start_run(self, collections: Sequence[str]) -> int:
        """Record a run as running; returns its id."""
        ...

    def finish_run(self, run_id: int, counts: dict[str, int], collection_ids: Sequence[int]) -> None:
        """Mark a run completed with its counts; stamp the collections as indexed."""
        ...

    def last_run(self) -> tuple[int, str, str | None, str, str | None] | None:
        """(id, started at, finished at, status, counts JSON) of the latest run."""
        ...

    def changes(self, after: int = 0, limit: int = 1000) -> list[ChangeRecord]:
        """Journal entries after position ``after``, oldest first."""
        ...


# --- the code graph (issue 15) ---------------------------------------------------------


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
                     qualnames: Sequence[str] | None = None) -> list[Symbol]:
        """A snapshot's symbols (of one file, or by qualified name), by path and line."""
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


@runtime_checkable
class Store(
    StoreLifecycle, WriterLock, CollectionStore, DocumentStore, LexicalIndex, VectorIndex,
    LinkStore, RunJournal, CodeStore, Protocol,
):
    """Everything one index holds: every concern above, one backend."""


#: How a service reaches its index: ``open_store(create)`` gives the Workspace's one store,
#: opened lazily (``create=False`` refuses an index that does not exist yet).
StoreOpener = Callable[[bool], Store]
