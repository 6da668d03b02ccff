"""Contracts of agent memory: records as the faces show them, writes, search, history,
export and hook events."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cairn.contracts import Contract


class MemoryEvidence(Contract):
    """One evidence ref: a passage (docid + lines + span hash), a file (+ content hash), a commit."""

    kind: str
    target: str
    hash: str | None = None
    start: int | None = None
    end: int | None = None
    relation: str = "supports"


class MemoryItem(Contract):
    """An observation or a claim with its derived state (quality from its signals,
    freshness from its evidence against the current sources)."""

    id: str
    kind: str  # observation | claim
    status: str  # active | archived
    project: str
    owner: str | None
    visibility: str
    source: str
    created_at: str
    updated_at: str
    # observations
    type: str | None = None
    title: str | None = None
    narrative: str | None = None
    facts: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    symbols: list[str] = Field(default_factory=list)
    concepts: list[str] = Field(default_factory=list)
    topic_key: str | None = None
    revision: int | None = None
    observed_at: str | None = None
    # claims
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    claim_key: str | None = None
    conflict_key: str | None = None
    review: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    #: Active claims that compete with this one (same conflict key, another object).
    contested_with: list[str] = Field(default_factory=list)
    evidence: list[MemoryEvidence] = Field(default_factory=list)
    quality: str
    freshness: str
    stale_reasons: list[str] = Field(default_factory=list)
    pinned: bool = False
    signals: int = 0


class MemoryWriteResult(Contract):
    """What a memory write did: ``action`` is the history row it wrote (created, revised,
    pinned, corrected, resolved, archived, restored, signal, unchanged)."""

    action: str
    item: MemoryItem
    #: Secrets replaced before anything was written.
    redactions: int = 0
    #: Other records the write changed (losers of a resolve, claims now contested).
    affected: list[str] = Field(default_factory=list)
    hints: list[str] = Field(default_factory=list)


class MemoryHit(Contract):
    score: float
    item: MemoryItem


class MemorySearchResult(Contract):
    """BM25 over memory, restricted to what the caller may see."""

    query: str
    project: str
    results: list[MemoryHit]


class MemorySignalRow(Contract):
    seq: int
    kind: str
    note: str | None
    at: str
    actor: str | None


class MemoryHistoryRow(Contract):
    seq: int
    action: str
    at: str
    actor: str | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class MemoryHistory(Contract):
    """Every transition of a record and every signal about it, oldest first."""

    id: str
    quality: str
    entries: list[MemoryHistoryRow]
    signals: list[MemorySignalRow]


class MemoryExport(Contract):
    """Memory as one plain Markdown document."""

    project: str | None
    records: int
    markdown: str
    #: Where it was written, when a path was given.
    path: str | None = None


class HookReceipt(Contract):
    """One hook event appended (``cairn hook``)."""

    event: str
    seq: int


class HookInstallResult(Contract):
    """cairn's hooks added to a coding agent's settings (``cairn hook install``)."""

    path: str
    action: str  # created | updated | unchanged
    dry_run: bool
    backup: str | None = None
    events: list[str]
    content: str
