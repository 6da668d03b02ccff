"""Plain records passed between the ingest pipeline, services and a store."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

# One encoder for every row: json.dumps with non-default options builds a new encoder per
# call, which costs more than encoding a short list.
dumps_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def json_list(values: Sequence[str]) -> str:
    """The stored JSON form of a list of strings (heading paths, tags, aliases)."""
    return dumps_json(list(values)) if values else "[]"


class FileFailure(NamedTuple):
    """A file that could not be indexed (or was indexed with a warning), as recorded.

    ``size``/``mtime_ns``/``source_hash`` are the file's state when its content failed:
    an unchanged failed file is not read again (see :class:`cairn.ingest.pipeline.Indexer`).
    They are None for errors that say nothing of the content (a refused name, a warning).
    """

    path: str
    code: str
    message: str
    size: int | None = None
    mtime_ns: int | None = None
    source_hash: str | None = None


@dataclass(frozen=True, slots=True)
class CollectionRecord:
    id: int
    name: str
    root: str
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    context: str | None
    created_at: str
    last_indexed_at: str | None
    sequence: bool = False


@dataclass(frozen=True, slots=True)
class KnownFile:
    """What the store remembers of a path, enough to skip unchanged files without reading them."""

    id: int
    docid: str
    path: str
    size: int
    mtime_ns: int
    source_hash: str
    text_hash: str
    active: bool


class PassageRow(NamedTuple):
    """One passage as ingested (a NamedTuple: built and pickled for every passage)."""

    seq: int
    start_line: int
    end_line: int
    heading_path: tuple[str, ...]
    text: str
    passage_hash: str
    token_count: int
    cjk_text: str  # overlapping CJK bigrams, "" when the passage has no CJK text
    page: int | None = None  # page, slide or sheet of the first line (converted documents)
    #: ``json_list(heading_path)``, made where the passage is parsed (an ingest worker),
    #: so the single writer does not spend its time encoding; "" when not given.
    heading_json: str = ""


class LinkRow(NamedTuple):
    """One link as written in the source."""

    kind: str
    target: str
    anchor: str | None
    alias: str | None
    embed: bool
    line: int
    column: int
    raw: str


@dataclass(frozen=True, slots=True)
class DocumentWrite:
    """A fully ingested document, ready to be written in one transaction."""

    path: str
    title: str
    kind: str
    converter: str
    converter_version: str
    size: int
    mtime_ns: int
    source_hash: str
    text_hash: str
    encoding: str
    text: str
    line_count: int
    metadata: dict[str, Any]
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    doc_date: str
    author: str | None
    headings: tuple[tuple[int, str, int], ...]  # (level, text, line)
    links: tuple[LinkRow, ...]
    passages: tuple[PassageRow, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    id: int
    docid: str
    collection: str
    path: str
    title: str
    kind: str
    size: int
    source_hash: str
    text_hash: str
    line_count: int
    tags: tuple[str, ...]
    active: bool
    indexed_at: str
    passages: int


class PassageHit(NamedTuple):
    """A ranked passage (a NamedTuple: built for every candidate of every search)."""

    passage_id: int
    docid: str
    collection: str
    path: str
    title: str
    start_line: int
    end_line: int
    heading_path: tuple[str, ...]
    snippet: str
    score: float


def light_hit(passage_id: int, docid: str, score: float) -> PassageHit:
    """A candidate hit: passage id, docid and score only (metadata is filled in by
    ``complete_hits`` of a store for the hits that are returned)."""
    return PassageHit(passage_id, docid, "", "", "", 0, 0, (), "", score)


class NoteRow(NamedTuple):
    """An active document as the link graph sees it."""

    id: int  # the store's row id of the document (the graph's node key)
    docid: str
    collection: str
    path: str
    title: str
    aliases: tuple[str, ...]
    #: Parsed frontmatter when asked for and not empty, else None.
    metadata: Any


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """One entry of the change journal: a document created, updated, renamed, deleted or
    reactivated by an index run. Never the body."""

    seq: int  # monotonic position in the journal
    run_id: int
    kind: str  # create | update | rename | delete | reactivate | fail
    docid: str  # "" for a file that failed before it was ever indexed
    collection: str
    old_path: str | None
    new_path: str | None
    old_source_hash: str | None
    new_source_hash: str | None
    old_text_hash: str | None
    new_text_hash: str | None
    at: str
    detail: str | None = None  # fail: the error code


@dataclass(frozen=True, slots=True)
class SearchFilter:
    collections: tuple[str, ...] = ()
    tags_any: tuple[str, ...] = ()
    tags_all: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None


# --- the resident runtime (issue 16): jobs, heartbeat, events --------------------------

JobKind = Literal["index", "embed", "reverify"]
JobState = Literal["queued", "running", "done", "failed"]


@dataclass(frozen=True, slots=True)
class JobRecord:
    """A durable job of the resident runtime's queue."""

    id: int
    kind: JobKind
    #: Deduplication key: a queued job with the same kind and key absorbs a new one.
    key: str | None
    payload: dict[str, Any]
    state: JobState
    attempts: int
    error: str | None
    created_at: str  # when the oldest change it carries was seen (ISO, milliseconds)
    started_at: str | None
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class HeartbeatRecord:
    """The resident runtime's last sign of life (one row per index)."""

    pid: int
    started_at: str
    last_beat: str
    #: Age in milliseconds of the oldest change not yet processed (0: caught up).
    lag_ms: int
    last_error: str | None
    #: Set on a graceful shutdown; None while running (or after a crash).
    stopped_at: str | None


@dataclass(frozen=True, slots=True)
class EventRecord:
    """A committed event of the runtime (``index.changed``, ``job.failed``, ...)."""

    id: int  # monotonic: the SSE event id a client resumes from
    kind: str
    data: dict[str, Any]
    at: str
# --- knowledge delta (issue 16) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JournalState:
    """Where the change journal stands: its epoch (random per index, so a cursor of
    another index is recognised), its last position, and how far retention pruned it."""

    epoch: str
    last_seq: int
    #: Highest position pruned (0: nothing pruned yet); a cursor below it has lost entries.
    pruned_through: int
    #: Time of the latest pruned entry (None: nothing pruned yet).
    pruned_until: str | None
    #: Time of the oldest entry kept (None: the journal is empty).
    oldest_at: str | None


@dataclass(frozen=True, slots=True)
class SavedCapsuleRecord:
    """A capsule saved under a name: its canonical JSON (signed, as built) and the
    documents it cites."""

    name: str
    capsule_id: str
    goal: str
    capsule: str
    saved_at: str
    docids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReceiptRecord:
    """One reverification of a saved capsule: fresh or stale, with the stale items (JSON)."""

    id: int
    name: str
    capsule_id: str
    status: str  # fresh | stale
    stale: str  # JSON list
    checked_at: str
