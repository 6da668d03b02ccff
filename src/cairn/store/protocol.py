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
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cairn.store.code_protocol import CodeStore  # the code graph (issue 15)
from cairn.store.records import (
    ChangeRecord,
    CollectionRecord,
    DocumentRecord,
    DocumentWrite,
    EventRecord,
    FileFailure,
    HeartbeatRecord,
    JobKind,
    JobRecord,
    JobState,
    JournalState,
    KnownFile,
    LinkRow,
    NoteRow,
    PassageHit,
    ReceiptRecord,
    SavedCapsuleRecord,
    SearchFilter,
)

if TYPE_CHECKING:
    from cairn.memory.records import Claim, HistoryEntry, Observation, RecordKey, Signal
    from cairn.text.query import ParsedQuery  # imported by the first search, not with the store

__all__ = [
    "CodeStore",
    "CollectionStore",
    "DeltaJournal",
    "DocumentStore",
    "EventLog",
    "JobQueue",
    "LexicalIndex",
    "LinkStore",
    "MemoryStore",
    "RunJournal",
    "RuntimeBeat",
    "SavedCapsuleStore",
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
        light: bool = False, only: Sequence[int] | None = None,
    ) -> list[tuple[PassageHit, str]]:
        """The ``limit`` best passages, best first (ties by passage id), filters applied
        before the cut, as (hit, text if ``with_text`` else "") pairs; ``light`` hits carry only
        passage id, docid and score; ``only``: score just these (already filtered) passages."""
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

    # memory embeddings (issue 14, session 6): records are embedded by their text hash
    def vectors_for(self, fingerprint: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """The vector blobs of these text hashes for ``fingerprint`` (hashes with none absent)."""
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


# --- agent memory (issue 14) ---


@runtime_checkable
class MemoryStore(Protocol):
    """Agent memory: observations and claims with their evidence refs, append-only
    signals and history, hook events, and BM25 over memory. Nothing is deleted."""

    def memory_write(
        self, writes: Sequence[tuple[Observation | Claim, str]],
        signals: Sequence[tuple[str, str, str | None]] = (), *, actor: str | None = None,
    ) -> None:
        """Write record states and append (record id, kind, note) signals in ONE
        transaction; each write appends a history row ``action`` (before and after)."""
        ...

    def memory_records(self, ids: Sequence[str]) -> dict[str, Observation | Claim]:
        """The records with these ids (any status), by id."""
        ...

    def memory_topic(self, project: str, topic_key: str) -> list[Observation]:
        """The observations of ``project`` with this topic key, oldest first."""
        ...

    def memory_competing(self, project: str, conflict_key: str) -> list[Claim]:
        """Every claim of ``project`` with this conflict key, oldest first."""
        ...

    def memory_search(
        self, query: ParsedQuery, projects: Sequence[str], limit: int, *, include_archived: bool = False,
    ) -> list[tuple[str, float]]:
        """(id, BM25 score) of the best records of ``projects`` and team records, best first."""
        ...

    def memory_list(
        self, projects: Sequence[str] | None, *, include_archived: bool = False, limit: int = 10_000,
    ) -> list[Observation | Claim]:
        """Records of ``projects`` (None: all; team records always), oldest first."""
        ...

    def memory_keys(self, projects: Sequence[str]) -> list[RecordKey]:
        """Keys of the active records of ``projects`` and team records, oldest first (no decoding)."""
        ...

    def memory_signals(self, ids: Sequence[str]) -> dict[str, list[Signal]]:
        """The signals of each record, in order."""
        ...

    def memory_history(self, record_id: str) -> list[HistoryEntry]:
        """Every transition of a record, oldest first."""
        ...

    def memory_citing(self, kind: str, targets: Sequence[str]) -> dict[str, list[str]]:
        """Ids of the records whose evidence cites each target, by target."""
        ...

    def memory_counts(self) -> dict[str, int]:
        """Records by kind and status, signals, history rows and hook events."""
        ...

    # hybrid memory recall (issue 14, session 6): a cheap cache key
    def memory_version(self) -> int:
        """Grows with every record write (the last history position; 0 when none)."""
        ...

    def append_hook_event(self, event: str, session_id: str | None, cwd: str | None,
                          payload: dict[str, object]) -> int:
        """Append one hook event; returns its position."""
        ...

    def events(self, after: int = 0, limit: int = 1000) -> list[tuple[int, str, str, str | None, str | None, str]]:
        """(seq, at, event, session id, cwd, payload JSON) of hook events after ``after``."""
        ...

    def run_changes(self, run_id: int) -> list[ChangeRecord]:
        """The change journal entries of one index run, oldest first."""
        ...


# --- the resident runtime (issue 16) -------------------------------------------------


@runtime_checkable
class JobQueue(Protocol):
    """The runtime's durable job queue: one writer (the runtime), every move one transaction."""

    def enqueue_job(
        self, kind: JobKind, payload: dict[str, Any], *, key: str | None = None,
        merge: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None,
    ) -> int:
        """Queue a job; returns its id. With ``key``, a queued job of the same kind and key
        absorbs it instead (its payload becomes ``merge(old, new)``, its age is kept)."""
        ...

    def claim_job(self) -> JobRecord | None:
        """Move the oldest queued job to running (one more attempt); None when idle."""
        ...

    def finish_job(self, job_id: int, *, error: str | None = None, retry: bool = False) -> None:
        """Done (no error), failed (error), or back to queued with the error (``retry``)."""
        ...

    def requeue_job(self, job_id: int) -> None:
        """Put a running job back unfinished (a graceful shutdown): the attempt is not counted."""
        ...

    def requeue_running(self, max_attempts: int) -> tuple[int, int]:
        """At start: jobs left running by a process that died go back to queued, or to
        failed after ``max_attempts``; returns (requeued, failed)."""
        ...

    def jobs(self, state: JobState | None = None, limit: int = 100) -> list[JobRecord]:
        """Jobs in ``state`` oldest first, or the latest jobs of any state newest first."""
        ...

    def job_counts(self) -> dict[str, int]:
        """Jobs per state (every state present, 0 if none)."""
        ...

    def oldest_pending_at(self) -> str | None:
        """Creation time of the oldest queued or running job (None: nothing pending)."""
        ...

    def prune_jobs(self, keep: int) -> int:
        """Forget finished jobs but the latest ``keep``; returns how many were removed."""
        ...


# --- knowledge delta (issue 16) -------------------------------------------------------------


@runtime_checkable
class DeltaJournal(Protocol):
    """Reading and pruning the change journal; the structure of document revisions."""

    def journal_state(self) -> JournalState:
        """The journal's epoch, last position and retention marks."""
        ...

    def journal_entries(
        self, *, after: int = 0, through: int | None = None, since_at: str | None = None,
        collection: str | None = None, docid: str | None = None, limit: int = 1000,
    ) -> list[ChangeRecord]:
        """Entries after ``after`` up to ``through`` (inclusive), at or after ``since_at``,
        of one collection or document, oldest first."""
        ...

    def last_document_change(self, docid: str) -> ChangeRecord | None:
        """The latest create, update, reactivate or delete entry of ``docid``."""
        ...

    def prune_journal(self, max_age_days: int, max_entries: int) -> int:
        """Apply retention (age, count); record how far it pruned; drop unreferenced
        revision structures. Returns the entries dropped."""
        ...

    def revision_structure(self, docid: str, text_hash: str) -> bytes | None:
        """The structure snapshot of a document revision, if kept."""
        ...

    def keep_revisions(self, rows: Sequence[tuple[str, str, bytes]]) -> None:
        """Keep (docid, text_hash, snapshot) rows of revisions (an existing one stays)."""
        ...


@runtime_checkable
class RuntimeBeat(Protocol):
    """The heartbeat of the runtime attached to an index."""

    def beat(self, pid: int, started_at: str, lag_ms: int, last_error: str | None) -> None:
        """Record a sign of life now (clears a previous stop)."""
        ...

    def mark_stopped(self, pid: int) -> None:
        """Record a graceful stop of the runtime ``pid``."""
        ...

    def heartbeat(self) -> HeartbeatRecord | None:
        """The last heartbeat, or None if no runtime ever ran on this index."""
        ...


@runtime_checkable
class EventLog(Protocol):
    """Committed runtime events with monotonic ids, pruned by count."""

    def append_event(self, kind: str, data: dict[str, Any], *, keep: int) -> EventRecord:
        """Append an event (its own transaction) and keep only the latest ``keep``."""
        ...

    def events_after(self, after: int, limit: int = 1000) -> list[EventRecord]:
        """Events with an id above ``after``, oldest first."""
        ...

    def first_event_id(self) -> int:
        """The oldest id still kept (0: none): a resume point below it lost events."""
        ...

    def journal_position(self) -> int:
        """The latest position of the change journal (0: empty): events cite it."""
        ...


@runtime_checkable
class SavedCapsuleStore(Protocol):
    """Capsules saved by name and the receipts of their reverification."""

    def save_capsule(self, record: SavedCapsuleRecord, *, replace: bool) -> None:
        """Store a capsule under its name; ConflictError if taken and not ``replace``."""
        ...

    def delete_capsule(self, name: str) -> None:
        """Forget a saved capsule and its receipts; NotFoundError if unknown."""
        ...

    def saved_capsules(self, names: Sequence[str] | None = None) -> list[SavedCapsuleRecord]:
        """Saved capsules by name (all when None); NotFoundError for an unknown name."""
        ...

    def capsules_citing(self, docids: Sequence[str]) -> dict[str, list[str]]:
        """Names of the saved capsules citing each docid."""
        ...

    def add_receipt(self, name: str, capsule_id: str, status: str, stale: str) -> ReceiptRecord:
        """Record one reverification."""
        ...

    def receipts(self, names: Sequence[str] | None = None, *, after: int = 0, limit: int = 100,
                 latest: bool = False) -> list[ReceiptRecord]:
        """Receipts after id ``after``, oldest first; ``latest``: the newest per capsule."""
        ...


# --- plan speed (issue 14): memory's BM25 inputs outside FTS5 -----------------------------


@runtime_checkable
class MemoryTermIndex(Protocol):
    """What a caller needs to score a plain OR query over memory as the memory BM25 does:
    each phrase's rows with their column-weighted frequency and every record's length (a
    phrase that is not one token is scored by the backend alone)."""

    def memory_term_rows(self) -> tuple[int, list[tuple[int, str, int]]]:
        """The memory index's row count, and (doc, record id, token count) of every record."""
        ...

    def memory_query_phrases(self, query: ParsedQuery) -> list[tuple[str, str | None]] | None:
        """The phrases of ``query`` in scoring order, each with its one token (None: score it
        with :meth:`memory_phrase_scores`); None when the query is not a plain OR."""
        ...

    def memory_postings(self, token: str) -> tuple[str, str]:
        """The docs holding ``token`` and its column-weighted frequency in each: two exact
        comma-separated decimal lists in one row ("" when none), not a tuple a posting."""
        ...

    def memory_phrase_scores(self, phrase: str) -> tuple[list[int], list[float]]:
        """The docs matching one phrase and its BM25 share in each."""
        ...


@runtime_checkable
class Store(
    StoreLifecycle, WriterLock, CollectionStore, DocumentStore, LexicalIndex, VectorIndex, LinkStore,
    RunJournal, MemoryStore,  # MemoryStore: agent memory (issue 14)
    JobQueue, RuntimeBeat, EventLog,  # the resident runtime (issue 16)
    DeltaJournal, SavedCapsuleStore,  # knowledge delta (issue 16)
    CodeStore,  # the code graph (issue 15)
    MemoryTermIndex,  # plan speed (issue 14)
    Protocol,
):
    """Everything one index holds: every concern above, one backend."""


#: How a service reaches its index: ``open_store(create)`` gives the Workspace's one store,
#: opened lazily (``create=False`` refuses an index that does not exist yet).
StoreOpener = Callable[[bool], Store]
