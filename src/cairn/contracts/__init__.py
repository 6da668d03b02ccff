"""Pydantic models of every public output.

The CLI's ``--json`` output of a command is exactly ``model.model_dump(mode="json")``
of the object the matching :class:`cairn.workspace.Workspace` method returns.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Contract(BaseModel):
    """Base of public contracts: immutable, strict about unknown fields."""

    # defer_build: validators are built on first use, not at import, so a command pays
    # only for the contracts it returns (start-up time of every CLI call).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ErrorDetail(Contract):
    code: str
    message: str


class ErrorBody(Contract):
    """The JSON error body of every face."""

    error: ErrorDetail


# --- collections -----------------------------------------------------------------


class Collection(Contract):
    """A named root folder with include/exclude globs and optional guidance text."""

    name: str
    root: str
    include: list[str]
    exclude: list[str]
    context: str | None = None
    #: Numbered sibling files follow one another (chat turns, journal days); ``query``
    #: lets each document share its neighbours' relevance.
    sequence: bool = False
    created_at: str
    documents: int = 0
    passages: int = 0
    last_indexed_at: str | None = None


class CollectionList(Contract):
    collections: list[Collection]


class CollectionRemoved(Contract):
    name: str
    documents_removed: int


# --- indexing ---------------------------------------------------------------------


class FileError(Contract):
    """A file that could not be ingested, as recorded by the last run that saw it."""

    collection: str
    path: str
    code: str
    message: str
    seen_at: str


class IndexCounts(Contract):
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    renamed: int = 0
    removed: int = 0
    reactivated: int = 0
    failed: int = 0
    #: Files whose bytes were read and parsed this run (0 on an unchanged corpus).
    parsed: int = 0


class IndexSummary(Contract):
    """Result of ``cairn index``: counts per outcome and elapsed time."""

    run_id: int
    collections: list[str]
    counts: IndexCounts
    passages_written: int
    elapsed_ms: int
    errors: list[FileError] = Field(default_factory=list)


# --- search -------------------------------------------------------------------------

Stage = Literal["bm25", "vector", "graph", "sequence", "rerank"]


def _bm25_only() -> list[Stage]:
    return ["bm25"]


class StageExplain(Contract):
    """What one retrieval stage said about a result (``--explain``)."""

    rank: int
    score: float


class ResultExplain(Contract):
    fused_score: float
    stages: dict[str, StageExplain]
    #: How the result entered the candidates when not by its own match (e.g. a graph hop).
    via: str | None = None


class SearchResult(Contract):
    """One ranked passage with its exact location."""

    uri: str
    docid: str
    title: str
    collection: str
    score: float
    start_line: int
    end_line: int
    snippet: str
    headings: list[str]
    stages: list[Stage] = Field(default_factory=_bm25_only)
    explain: ResultExplain | None = None


class SearchFilters(Contract):
    collections: list[str] = Field(default_factory=list)
    tags_any: list[str] = Field(default_factory=list)
    tags_all: list[str] = Field(default_factory=list)
    since: str | None = None
    until: str | None = None


class SearchMeta(Contract):
    query: str
    #: What actually ran: a vector or hybrid request without a model degrades to "bm25".
    mode: Literal["bm25", "vector", "hybrid", "similar"]
    requested_mode: Literal["bm25", "vector", "hybrid", "similar"] | None = None
    limit: int
    count: int
    filters: SearchFilters
    capabilities: dict[str, bool] = Field(default_factory=dict)
    hints: list[str] = Field(default_factory=list)
    #: Fusion formula version (hybrid only), so changed rankings are detectable.
    fusion: str | None = None
    #: The weights this query's fusion used (hybrid only): the mode's base weights, the
    #: vector side scaled per query (``fusion_reasons`` says why, empty when unchanged).
    fusion_weights: dict[str, float] | None = None
    fusion_reasons: list[str] = Field(default_factory=list)
    #: Stages that ran, in order (hybrid only), e.g. ["bm25", "vector", "fuse"].
    stages_run: list[str] = Field(default_factory=list)
    #: Model fingerprint of the vectors used, when any.
    embedder: str | None = None


class SearchResponse(Contract):
    results: list[SearchResult]
    meta: SearchMeta


class EmbedSummary(Contract):
    """Result of ``cairn embed``."""

    embedder: str
    embedded: int
    pending_before: int
    pending_after: int
    batches: int
    elapsed_ms: int
    tokens: int
    #: Memory records embedded after the passages (agent memory, issue 14).
    memory_embedded: int = 0


class DiagnoseStage(Contract):
    stage: str
    ran: bool
    found: bool
    rank: int | None = None
    score: float | None = None
    note: str


class DiagnoseReport(Contract):
    """Where a target document went, stage by stage, for one query."""

    query: str
    target: str
    target_docid: str
    stages: list[DiagnoseStage]
    final_rank: int | None
    verdict: str


# --- retrieval ------------------------------------------------------------------------


class DocumentSlice(Contract):
    """Exact lines of a document's normalised text, as ``cairn get`` prints them."""

    uri: str
    docid: str
    title: str
    collection: str
    path: str
    start_line: int
    end_line: int
    total_lines: int
    text: str
    source_hash: str
    text_hash: str


class MultiGetItem(Contract):
    ref: str
    document: DocumentSlice | None = None
    error: ErrorDetail | None = None


class MultiGetResponse(Contract):
    items: list[MultiGetItem]


class DocumentEntry(Contract):
    uri: str
    docid: str
    title: str
    collection: str
    path: str
    kind: str
    lines: int
    size: int
    passages: int
    tags: list[str]
    indexed_at: str


class Listing(Contract):
    prefix: str | None
    documents: list[DocumentEntry]


# --- status / doctor -----------------------------------------------------------------


class RunInfo(Contract):
    run_id: int
    started_at: str
    finished_at: str | None
    status: Literal["running", "completed", "interrupted"]
    counts: IndexCounts | None = None


class VectorStatus(Contract):
    embedder: str | None
    fingerprint: str | None
    available: bool
    hint: str | None = None
    vectors: int
    stale_vectors: int
    pending_passages: int | None


class Status(Contract):
    index: str
    index_path: str
    index_bytes: int
    schema_version: int
    collections: list[Collection]
    documents: int
    inactive_documents: int
    passages: int
    last_run: RunInfo | None
    errors: list[FileError]
    capabilities: dict[str, bool]
    token_counter: str
    vectors: VectorStatus | None = None
    #: The resident runtime attached to this index (issue 16); None: none ever ran.
    runtime: RuntimeStatus | None = None


class DoctorCheck(Contract):
    name: str
    status: Literal["ok", "warn", "fail"]
    detail: str


class DoctorReport(Contract):
    ok: bool
    checks: list[DoctorCheck]


# --- the resident runtime (issue 16) -------------------------------------------------


class JobInfo(Contract):
    """A job of the runtime's queue."""

    id: int
    kind: Literal["index", "embed", "reverify"]
    state: Literal["queued", "running", "done", "failed"]
    attempts: int
    error: str | None
    payload: dict[str, object]
    created_at: str
    finished_at: str | None


class RuntimeStatus(Contract):
    """Whether a runtime keeps this index current: ``running`` (fresh heartbeat),
    ``stopped`` (stopped gracefully, or its heartbeat is stale: it died), or ``never``."""

    state: Literal["running", "stopped", "never"]
    pid: int | None = None
    started_at: str | None = None
    last_beat: str | None = None
    #: Seconds since the last heartbeat (None: never).
    beat_age_s: float | None = None
    #: Age in ms of the oldest change not yet processed, at the last heartbeat.
    lag_ms: int | None = None
    last_error: str | None = None
    #: A heartbeat older than this means the runtime is gone.
    stale_after_s: float
    jobs: dict[str, int]
    #: The latest failed jobs (at most 10), newest first.
    failed_jobs: list[JobInfo] = Field(default_factory=list)


class RuntimeEvent(Contract):
    """A committed runtime event (the SSE stream's ``id``, ``event`` and ``data``)."""

    id: int
    kind: str
    data: dict[str, object]
    at: str


class RuntimeEvents(Contract):
    """Events after a resume point, oldest first; ``first_kept`` is the oldest id the log
    still holds (a resume point below it lost events)."""

    events: list[RuntimeEvent]
    first_kept: int
