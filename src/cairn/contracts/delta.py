"""Contracts of the knowledge delta: the change feed, structural diffs, impact, saved
capsules and their reverification receipts. Same rules as :mod:`cairn.contracts`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from cairn.contracts import Contract
from cairn.contracts.graph import PathHop

#: ``create`` a new document, ``update`` its text or bytes changed, ``rename`` moved
#: (same bytes), ``delete`` its file is gone, ``reactivate`` a deleted path is back,
#: ``fail`` the file newly failed to index (the indexed version, if any, stays).
ChangeKind = Literal["create", "update", "rename", "delete", "reactivate", "fail"]


class Change(Contract):
    """One journal entry: what happened to one document in an index run. Never the body."""

    #: An opaque cursor positioned at this entry: ``changes(since=id)`` resumes after it.
    id: str
    kind: ChangeKind
    #: None for a file that failed before it was ever indexed.
    docid: str | None
    collection: str
    #: Where the document is (its old place for a deletion).
    uri: str
    old_path: str | None = None
    new_path: str | None = None
    old_source_hash: str | None = None
    new_source_hash: str | None = None
    old_text_hash: str | None = None
    new_text_hash: str | None = None
    #: ``fail``: the error code (see ``status``'s failed files for the message).
    error: str | None = None
    #: The index run (0: a collection removed).
    run_id: int
    at: str


class Retention(Contract):
    """What the journal keeps: entries younger than ``max_age_days`` and at most the
    newest ``max_entries`` (``[journal]`` in config.toml)."""

    max_age_days: int
    max_entries: int
    #: Time of the oldest entry kept (None: the journal is empty).
    oldest_at: str | None = None


class ChangeFeed(Contract):
    """``cairn changes``: journal entries oldest first and the cursor to poll with next."""

    changes: list[Change]
    #: Pass it back as ``since`` to get what happened after these entries.
    cursor: str
    #: More entries are waiting (raise ``limit`` or poll again with ``cursor``).
    has_more: bool
    retention: Retention


# --- structural diff -----------------------------------------------------------------------

DeltaKind = Literal["added", "removed", "changed", "moved"]


class HeadingDelta(Contract):
    change: DeltaKind
    level: int
    #: The heading's text now (its old text when removed).
    text: str
    #: ``changed``: the text before.
    old_text: str | None = None
    old_line: int | None = None
    new_line: int | None = None


class PassageDelta(Contract):
    """A paragraph block (a run of non-blank lines; headings apart) added, removed,
    changed in place, or moved (the same text elsewhere). Spans are lines of the old and
    the new normalised text."""

    change: DeltaKind
    old_start_line: int | None = None
    old_end_line: int | None = None
    new_start_line: int | None = None
    new_end_line: int | None = None
    #: Short hashes (16 hex) of the block's text before and after.
    old_hash: str | None = None
    new_hash: str | None = None
    #: The heading the block sits under (now; before, when removed).
    heading: str | None = None


class LinkDelta(Contract):
    change: Literal["added", "removed"]
    kind: str
    target: str
    anchor: str | None = None
    line: int


class FieldDelta(Contract):
    """A frontmatter field added, removed or changed (tags are reported as tags)."""

    key: str
    change: Literal["added", "removed", "changed"]
    before: Any = None
    after: Any = None


class DiffCounts(Contract):
    headings: int = 0
    passages: int = 0
    links: int = 0
    tags: int = 0
    frontmatter: int = 0


#: ``unknown``: the journal no longer holds the document's history (pruned).
DiffStatus = Literal["created", "updated", "renamed", "deleted", "unchanged", "unknown"]
#: Why a diff is incomplete: ``baseline_unavailable`` the earlier revision's structure is
#: not kept (pruned with the journal, or its collection removed); ``current_unavailable``
#: the same for the revision compared with (a document no longer in the index).
IncompleteReason = Literal["baseline_unavailable", "current_unavailable"]


class DocumentDiff(Contract):
    """``cairn diff REF``: what changed in one document's structure between a baseline
    (its previous revision, or its state at a cursor or date) and now."""

    docid: str
    uri: str
    collection: str
    path: str
    #: The path at the baseline when it differs (a rename).
    old_path: str | None = None
    status: DiffStatus
    #: ``previous`` revision, or the ``since`` given (a cursor or a date).
    baseline: str
    old_text_hash: str | None = None
    new_text_hash: str | None = None
    #: False when one side's structure is unknown: then only the status and hashes are.
    complete: bool = True
    reason: IncompleteReason | None = None
    headings: list[HeadingDelta] = Field(default_factory=list)
    passages: list[PassageDelta] = Field(default_factory=list)
    links: list[LinkDelta] = Field(default_factory=list)
    tags_added: list[str] = Field(default_factory=list)
    tags_removed: list[str] = Field(default_factory=list)
    frontmatter: list[FieldDelta] = Field(default_factory=list)
    counts: DiffCounts = Field(default_factory=DiffCounts)


class DocumentDiffSummary(Contract):
    docid: str
    uri: str
    collection: str
    path: str
    old_path: str | None = None
    status: DiffStatus
    complete: bool = True
    reason: IncompleteReason | None = None
    counts: DiffCounts
    #: Headings added, removed or changed, by their text now (or before, when removed).
    headings: list[str] = Field(default_factory=list)


class DiffSummary(Contract):
    """``cairn diff --from X`` without a document: one summary per document that changed
    since X (a cursor or a date), in journal order."""

    since: str
    collection: str | None = None
    documents: list[DocumentDiffSummary]
    #: Poll with it: the journal position these summaries run to.
    cursor: str
    has_more: bool = False


# --- impact -------------------------------------------------------------------------------


class Dependent(Contract):
    """Something that depends on the document, and the path that connects it."""

    #: ``backlink`` a document linking to it (through ``path``), ``capsule`` a saved capsule
    #: citing it or a document on such a path; extensions add their own kinds (memory).
    kind: str
    #: A document URI, a capsule name, ...
    id: str
    title: str
    #: Links between the dependent and the document (0: it cites the document itself).
    distance: int
    #: The links from the document out to the dependent, nearest first (backwards links:
    #: each hop's link is written in the dependent's side).
    path: list[PathHop] = Field(default_factory=list)
    #: ``capsule``: the evidence refs that cite the document at the end of ``path``.
    cites: list[str] = Field(default_factory=list)


class Impact(Contract):
    """``cairn impact REF``: what depends on a document, nearest first."""

    docid: str
    uri: str
    title: str
    depth: int
    dependents: list[Dependent]
    #: The backlink walk hit a bound (documents or links): there may be more.
    truncated: bool = False


# --- saved capsules -------------------------------------------------------------------------


class StaleItem(Contract):
    """An evidence item of a saved capsule that no longer stands as recorded."""

    ref: str
    uri: str
    start_line: int
    end_line: int
    status: Literal["stale", "missing", "moved"]
    reason: str


class Receipt(Contract):
    """One reverification of a saved capsule: ``fresh`` when every evidence item is
    unchanged at its recorded span, else ``stale`` with the items that are not."""

    id: int
    name: str
    capsule_id: str
    status: Literal["fresh", "stale"]
    stale: list[StaleItem]
    checked_at: str


class SavedCapsule(Contract):
    name: str
    capsule_id: str
    goal: str
    saved_at: str
    evidence: int
    docids: list[str]
    last_receipt: Receipt | None = None


class SavedCapsuleList(Contract):
    capsules: list[SavedCapsule]


class ReceiptList(Contract):
    """Receipts oldest first; ``cursor`` is the last receipt id (poll with ``after``)."""

    receipts: list[Receipt]
    cursor: int
