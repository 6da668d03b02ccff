"""Contracts of Context Capsules and their verify receipts.

Same rules as :mod:`cairn.contracts`: frozen, unknown fields forbidden. A Capsule is
serialised as canonical JSON (:func:`cairn.capsule.canonical.canonical_json`): sorted
keys, no whitespace, UTF-8, no timestamps, so the same index and request give the same
bytes, and ``capsule_id`` is the SHA-256 of those bytes (with ``capsule_id`` empty and
without ``signature``). ``signature`` is an HMAC-SHA256, with this install's capsule key,
of the canonical JSON without ``signature`` (so it covers ``capsule_id`` and everything
else). ``capsule_id`` does not cover the signature (only its fixed size, through
``budget.bytes_used``), so the same index and request give the same id on every install,
whichever key signed it.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from cairn.contracts import Contract

CAPSULE_SCHEMA: Final = "cairn.capsule/1"
VERIFY_SCHEMA: Final = "cairn.capsule-verify/1"

#: Why a candidate passage was left out of a capsule (stable codes):
#: ``duplicate`` same text as a selected passage, ``overlap`` its lines overlap a selected
#: span of the same document, ``document_cap`` its document already holds its share of
#: the budget, ``budget_tokens`` / ``budget_bytes`` it does not fit what is left.
OmissionReason = Literal["duplicate", "overlap", "document_cap", "budget_tokens", "budget_bytes"]
#: Why a facet of the goal has no evidence: ``no_match`` nothing in scope mentions it,
#: ``filtered`` only documents outside the filters do, ``not_retrieved`` matching passages
#: exist but ranked below the candidates, ``budget_exhausted`` / ``document_cap`` matching
#: candidates were omitted for that reason.
GapReason = Literal["no_match", "filtered", "not_retrieved", "budget_exhausted", "document_cap"]


class CapsuleScope(Contract):
    """What the capsule was drawn from: the index and the filters of the request."""

    index: str
    collections: list[str] = Field(default_factory=list)
    tags_any: list[str] = Field(default_factory=list)
    tags_all: list[str] = Field(default_factory=list)
    since: str | None = None
    until: str | None = None


class RetrievalSettings(Contract):
    """How candidates were found: enough to explain (and re-run) the selection."""

    #: What ran: "hybrid" (BM25 + vectors fused) or "bm25" when no vectors were usable.
    mode: Literal["hybrid", "bm25"]
    stages_run: list[str]
    fusion: str
    graph: bool
    #: Most candidate passages considered.
    candidates: int
    #: Largest share of the token budget one document may take (its first passage always may).
    max_document_share: float
    hints: list[str] = Field(default_factory=list)


class Fingerprints(Contract):
    """Model fingerprints the capsule depends on (None: not used)."""

    embedder: str | None = None
    #: How tokens were counted: the MiniLM WordPiece tokenizer, or a declared estimate.
    token_counter: str


class IndexState(Contract):
    """The index as the capsule saw it; verify reports any difference."""

    schema_version: int
    #: Active documents / passages in scope.
    documents: int
    passages: int
    #: SHA-256 over (docid, text_hash) of the active documents in scope.
    corpus_hash: str


class Budget(Contract):
    """Requested and used budget. Tokens count the evidence texts; bytes are the length
    of this capsule's own canonical JSON."""

    tokens_requested: int | None
    tokens_used: int
    bytes_requested: int | None
    bytes_used: int


class EvidenceItem(Contract):
    """Exact text of one passage, where it is, and the hashes that make it checkable."""

    #: SHA-256 of (uri, docid, start_line, end_line, text_hash, passage_hash).
    id: str
    #: Short handle used in prompts and citations: "E1", "E2", ...
    ref: str
    uri: str
    docid: str
    collection: str
    path: str
    title: str
    start_line: int
    end_line: int
    heading: list[str]
    text: str
    source_hash: str
    text_hash: str
    passage_hash: str
    tokens: int
    score: float
    #: Facets of the goal this passage mentions.
    facets: list[str]
    trust: Literal["untrusted"] = "untrusted"


class FacetCoverage(Contract):
    facet: str
    kind: Literal["phrase", "term"]
    covered: bool
    #: Refs of the evidence items that mention the facet.
    evidence: list[str]
    gap_reason: GapReason | None = None


class Omission(Contract):
    reason: OmissionReason
    count: int


class CapsuleSignature(Contract):
    """Who sealed the capsule: an HMAC-SHA256 with a key local to one cairn install."""

    alg: Literal["hmac-sha256"]
    #: First 16 hex digits of SHA-256 of the key (with a domain prefix): names the key, reveals nothing.
    key_id: str = Field(pattern=r"^[0-9a-f]{16}$")
    #: Hex HMAC-SHA256 of the capsule's canonical JSON without ``signature``.
    value: str = Field(pattern=r"^[0-9a-f]{64}$")


class Capsule(Contract):
    """A budgeted, verifiable bundle of exact evidence for a goal."""

    schema_version: Literal["cairn.capsule/1"] = CAPSULE_SCHEMA
    capsule_id: str
    goal: str
    scope: CapsuleScope
    retrieval: RetrievalSettings
    fingerprints: Fingerprints
    index: IndexState
    budget: Budget
    evidence: list[EvidenceItem]
    coverage: list[FacetCoverage]
    omissions: list[Omission]
    #: None: unsigned (a capsule from before signing, or with its signature stripped).
    signature: CapsuleSignature | None = None


# --- verify ------------------------------------------------------------------------

EvidenceStatus = Literal["unchanged", "stale", "missing", "moved"]


class CurrentLocation(Contract):
    """Where the evidence's text is now (or what now stands at its old span)."""

    uri: str
    start_line: int
    end_line: int
    source_hash: str
    text_hash: str
    #: Hash of the text now at (start_line, end_line); equals the evidence's when found.
    passage_hash: str | None


class HashMismatch(Contract):
    """A hash the capsule records for an evidence item that differs from the one recomputed
    from the current sources: the document changed since the capsule was built, or the
    capsule's hash was wrong (forged) to begin with."""

    field: Literal["source_hash", "text_hash", "passage_hash"]
    recorded: str
    #: Recomputed now (``passage_hash``: of the text now at the recorded span; None when
    #: the span is past the end of the document).
    current: str | None


class EvidenceCheck(Contract):
    id: str
    ref: str
    status: EvidenceStatus
    #: Stable reason: ``same_span``, ``found_elsewhere``, ``renamed``, ``text_changed``,
    #: ``span_out_of_range``, ``document_deleted``, ``file_missing``, ``file_unreadable``.
    reason: str
    uri: str
    start_line: int
    end_line: int
    current: CurrentLocation | None = None
    #: Where the current text was read: the index, or the file on disk when it differs
    #: from the index (changed and not yet re-indexed).
    read_from: Literal["index", "disk"] | None = None
    #: Recorded hashes that differ from the current document's (empty when the document is
    #: missing: nothing to recompute from).
    mismatches: list[HashMismatch] = Field(default_factory=list)


class StateChange(Contract):
    field: str
    before: str | int | None
    after: str | int | None


class VerifyCounts(Contract):
    unchanged: int = 0
    stale: int = 0
    missing: int = 0
    moved: int = 0
    #: Items (of any status) with at least one recorded hash that differs from the sources.
    mismatched: int = 0


#: ``signed-by-this-install``: signed with this install's key and the signature matches;
#: ``signature-invalid``: claims this install's key but does not match (edited after
#: signing); ``signed-by-another-key``: signed with a key this install does not hold (it
#: cannot be checked here: treat the content as unauthenticated); ``unsigned``: no signature.
Authenticity = Literal["signed-by-this-install", "signed-by-another-key", "unsigned", "signature-invalid"]


class VerifyReceipt(Contract):
    """Result of re-checking a saved capsule against the current index and files, model-free.

    ``status`` is ``unchanged`` only when every evidence item is unchanged with every
    recorded hash equal to the one recomputed from the current sources, and neither the
    index state nor a fingerprint changed. ``authenticity`` says who sealed the capsule;
    it does not change ``status``."""

    schema_version: Literal["cairn.capsule-verify/1"] = VERIFY_SCHEMA
    capsule_id: str
    status: Literal["unchanged", "changed"]
    counts: VerifyCounts
    evidence: list[EvidenceCheck]
    index_changes: list[StateChange]
    fingerprint_changes: list[StateChange]
    authenticity: Authenticity
    #: The ``key_id`` the capsule's signature names (None when unsigned).
    signed_by: str | None = None
