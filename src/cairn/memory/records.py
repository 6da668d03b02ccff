"""Agent memory records: what the store keeps and what the governor reads.

This module is the contract between the memory store (observations, claims, history,
outcome signals) and the evidence governor (:mod:`cairn.memory.governor`), which sees
memory only through these plain, immutable records. Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple, get_args

ObservationType = Literal[
    "decision", "gotcha", "fix", "how-it-works", "problem-solution", "trade-off",
    "preference", "what-changed",
]
OBSERVATION_TYPES: tuple[str, ...] = get_args(ObservationType)

#: Who wrote a record.
Source = Literal["agent", "git", "manual", "import"]
SOURCES: tuple[str, ...] = get_args(Source)

#: Who may see a record: its owner only, anyone working in its project, or the team.
Visibility = Literal["personal", "project", "team"]
VISIBILITIES: tuple[str, ...] = get_args(Visibility)

#: Evidence kinds: a cairn passage (docid + line span + hash), a file with its content
#: hash, a code symbol with its body hash (:mod:`cairn.memory.requalify`), a commit.
EvidenceKind = Literal["passage", "file", "symbol", "commit"]
#: How a piece of evidence bears on a claim.
EvidenceRelation = Literal["supports", "contradicts", "verifies"]

SignalKind = Literal[
    "test-pass", "test-fail", "verified-reuse", "user-pin", "user-correction",
    "source-changed", "conflict-confirmed", "manual-review",
]
SIGNAL_KINDS: tuple[str, ...] = get_args(SignalKind)

#: Derived from the signals, never stored over the record.
Quality = Literal["probation", "verified", "degraded", "blocked"]
#: Whether the sources a record is bound to still match what it was written against.
Freshness = Literal["fresh", "suspect", "stale", "unknown"]
#: Lifecycle of a record; ``archived`` is recoverable (``restore``).
Status = Literal["active", "archived"]
ReviewState = Literal["unreviewed", "accepted", "rejected"]


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """One piece of evidence a memory record points at.

    ``passage``: ``target`` is a docid, ``start``/``end`` the 1-based line span and
    ``hash`` the passage text hash at writing time. ``file``: ``target`` is a path
    relative to the project root and ``hash`` its content hash. ``commit``: ``target``
    is the commit id; ``hash`` is None. ``symbol``: ``target`` is ``PATH::NAME`` (the file
    relative to the project root, the name within the file), ``hash`` the symbol's body
    hash in the code snapshot of writing time, ``start``/``end`` its lines there.
    """

    kind: EvidenceKind
    target: str
    hash: str | None = None
    start: int | None = None
    end: int | None = None
    relation: EvidenceRelation = "supports"


@dataclass(frozen=True, slots=True)
class Observation:
    id: str                       # stable id, "obs_" + 12 hex
    type: ObservationType
    title: str
    narrative: str
    facts: tuple[str, ...]
    files: tuple[str, ...]        # bound files, relative to the project root
    symbols: tuple[str, ...]      # bound symbols: qualified names as `cairn code symbols` lists them
    concepts: tuple[str, ...]
    topic_key: str | None         # upsert key: a new write with the same key is a new revision
    revision: int                 # 1 for the first write, +1 per upsert
    source: Source
    visibility: Visibility
    project: str                  # project identity: normalised git remote, else the root path
    owner: str | None             # who wrote it (for personal visibility)
    evidence: tuple[EvidenceRef, ...]
    status: Status
    created_at: str               # ISO 8601 UTC
    updated_at: str
    observed_at: str | None = None  # when the observed thing happened (a session date), if known


@dataclass(frozen=True, slots=True)
class Claim:
    id: str                       # "clm_" + 12 hex
    subject: str
    predicate: str
    object: str
    claim_key: str                # normalised subject + predicate + object
    conflict_key: str             # normalised subject + predicate: claims sharing it compete
    evidence: tuple[EvidenceRef, ...]
    review: ReviewState
    supersedes: str | None        # id of the older claim this one replaces (kept, not deleted)
    superseded_by: str | None
    source: Source
    visibility: Visibility
    project: str
    owner: str | None
    status: Status
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class Signal:
    """An append-only outcome signal about one record."""

    seq: int
    record_id: str
    kind: SignalKind
    note: str | None
    at: str
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One transition of a record (created, revised, archived, restored, superseded, ...)."""

    seq: int
    record_id: str
    action: str
    before: str | None            # JSON of the record before, None on creation
    after: str | None             # JSON of the record after
    at: str
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class Qualified:
    """A memory record as the governor sees it: the record with its derived state."""

    record: Observation | Claim
    quality: Quality
    freshness: Freshness
    stale_reasons: tuple[str, ...] = field(default=())
    pinned: bool = False
    #: Ids of active claims competing with this claim (same conflict key, another object,
    #: not yet resolved); empty for observations. Added by the memory store (issue 14).
    contested_with: tuple[str, ...] = field(default=())


class RecordKey(NamedTuple):
    """What recall reads of every record a caller may see, without decoding the record
    (the store keeps these in columns): its scope, its session (an observation's project,
    owner and ``observed_at``) and the content address of its embedded text
    (:func:`cairn.memory.texts.embed_hash`). A tuple: a store of 50,000 records makes
    50,000 of them per read."""

    id: str
    kind: Literal["observation", "claim"]
    project: str
    owner: str | None
    visibility: Visibility
    observed_at: str | None
    embed_hash: str
