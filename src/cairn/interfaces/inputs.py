"""The typed inputs of the operations in :mod:`cairn.interfaces.operations`: one pydantic
model per operation (typed, described, bounded; its fields are the Workspace method's keyword
arguments) and the field types they share. Unknown fields are refused, nothing is coerced."""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

#: Largest ``limit`` a face accepts (the SDK allows up to 1000).
FACE_MAX_LIMIT = 100


class OpInput(BaseModel):
    """Base of operation inputs: unknown fields are refused, not ignored."""

    # strict: no silent coercion (``true`` is not a limit, ``"1"`` is not a number).
    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _integral_floats(cls, data: Any) -> Any:
        """An integral JSON number (``72.0``) is a valid integer in JSON Schema, so an
        integer field takes it; ``72.5``, ``true`` and ``"72"`` are still refused."""
        if not isinstance(data, dict):
            return data
        ints = _integer_fields(cls)
        return {key: int(value) if key in ints and type(value) is float and value.is_integer() else value
                for key, value in data.items()}


def _integer_fields(model: type[BaseModel]) -> frozenset[str]:
    """Names of the fields typed ``int`` or ``int | None``."""
    names = set()
    for name, info in model.model_fields.items():
        annotation = info.annotation
        members = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
        if int in members:
            names.add(name)
    return frozenset(names)


Ref = Annotated[str, Field(min_length=1, max_length=2048,
                           description="A document: cairn://collection/path, collection/path or a docid.")]
Name = Annotated[str, Field(min_length=1, max_length=64, description="A collection name.")]
Limit = Annotated[int, Field(ge=1, le=FACE_MAX_LIMIT, description="Number of results.")]
#: An ISO date or datetime (checked again, for real calendar values, by the Workspace).
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"
IsoDate = Annotated[str, Field(max_length=40, pattern=DATE_PATTERN)]
QueryText = Annotated[str, Field(min_length=1, max_length=2000,
                                 description='Plain words (OR-ed), "quoted phrases" (required), -word excludes.')]
#: ``query`` reads text as natural language: nothing filters.
NaturalQueryText = Annotated[str, Field(
    min_length=1, max_length=2000,
    description='Natural language or pasted text: words OR-ed, "quoted phrases" boost, dashes are words.')]


class SearchInput(OpInput):
    query: QueryText
    limit: Limit = 10
    collections: list[Name] = Field(default_factory=list, max_length=50, description="Only these collections.")
    tags_any: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=50, description="Documents with any of these tags.")
    tags_all: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=50, description="Documents with all of these tags.")
    since: IsoDate | None = Field(None, description="Documents dated on or after (ISO date).")
    until: IsoDate | None = Field(None, description="Documents dated on or before (ISO date).")


class QueryInput(SearchInput):
    query: NaturalQueryText
    mode: Literal["fast", "default", "thorough"] = Field(
        "default", description="fast: BM25 + vectors and one feedback round over the candidates only (no second pass over the index, no rerank); default: one pseudo-relevance feedback round over the whole index and a reranker if configured; thorough: wider feedback.")
    explain: bool = Field(False, description="Add each stage's rank and score per result.")
    graph: bool = Field(False, description="Add one bounded hop of linked documents.")
    all_passages: bool = Field(False, description="Several passages per document.")


class GetInput(OpInput):
    ref: Ref
    from_line: int | None = Field(None, ge=1, le=10_000_000, description="First line (1-based).")
    lines: int | None = Field(None, ge=1, le=100_000, description="Number of lines.")


class MultiGetInput(OpInput):
    refs: list[Ref] = Field(min_length=1, max_length=50, description="Documents to read.")
    max_lines: int | None = Field(None, ge=1, le=100_000, description="At most this many lines per document.")


class LsInput(OpInput):
    prefix: str | None = Field(None, max_length=2048,
                               description="A collection name, collection/folder/ or cairn:// URI prefix.")
    limit: int = Field(1000, ge=1, le=10_000, description="At most this many documents.")


class NoInput(OpInput):
    pass


class LinksInput(OpInput):
    ref: Ref
    limit: int = Field(1000, ge=1, le=10_000, description="At most this many links.")


class SimilarInput(OpInput):
    ref: Ref
    limit: Limit = 10
    collections: list[Name] = Field(default_factory=list, max_length=50, description="Only these collections.")


Direction = Literal["out", "in", "both"]


class NeighborsInput(OpInput):
    ref: Ref
    depth: int = Field(1, ge=1, le=5, description="Links to follow (1-5).")
    direction: Direction = Field("both", description="out: links forward; in: backlinks; both.")
    max_nodes: int = Field(200, ge=1, le=10_000, description="At most this many documents.")


class PathInput(OpInput):
    a: Ref
    b: Ref
    direction: Direction = Field("both", description="out follows links forward only; both also backwards.")
    max_depth: int = Field(6, ge=1, le=50, description="Longest path considered.")


class TagsInput(OpInput):
    collection: Name | None = Field(None, description="Only this collection.")


class CaptureInput(OpInput):
    collection: Name
    title: str = Field(min_length=1, max_length=300, description="One line; becomes the note's title.")
    text: str = Field(max_length=1_000_000, description="The note's Markdown body.")
    path: str | None = Field(None, min_length=1, max_length=512,
                             description="Relative path inside the collection (default: a slug of the title).")


class CollectionAddInput(OpInput):
    path: str = Field(min_length=1, max_length=4096, description="Absolute path of the folder.")
    name: Name | None = None
    include: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        default_factory=list, max_length=100, description="Extra include globs (e.g. **/*.py).")
    exclude: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        default_factory=list, max_length=100, description="Exclude globs.")
    context: str | None = Field(None, max_length=4000, description="Guidance text describing the collection.")
    sequence: bool = Field(False, description="Numbered sibling files follow one another (chat turns "
                                              "D1-3.md, D1-4.md; journal days): query lets each share "
                                              "its neighbours' relevance.")

    @field_validator("path")
    @classmethod
    def _plausible_path(cls, value: str) -> str:
        # The OS refuses these with errors other than "not found" (ENAMETOOLONG, NUL).
        if "\x00" in value or any(len(part.encode()) > 255 for part in value.split("/")):
            raise ValueError("not a usable folder path (NUL or a name over 255 bytes)")
        return value


class CollectionConfigureInput(OpInput):
    name: Name
    sequence: bool | None = Field(None, description="Declare (true) or undeclare (false) the collection a sequence.")
    context: str | None = Field(None, max_length=4000, description="New guidance text (\"\" clears it).")


class CollectionInput(OpInput):
    collection: Name | None = Field(None, description="Only this collection (default: all).")


class IndexInput(CollectionInput):
    retry_failed: bool = Field(
        False, description="Read and convert again every file that failed before, even if unchanged "
                           "(by default a failed file is retried once its size, mtime or bytes change).")


# --- evidence: context capsules and ask (issue 5) -----------------------------------------


class EvidenceScope(OpInput):
    budget_tokens: int | None = Field(1200, ge=1, le=100_000, description="Token budget of the evidence.")
    collections: list[Name] = Field(default_factory=list, max_length=50, description="Only these collections.")
    tags_any: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=50, description="Documents with any of these tags.")
    tags_all: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=50, description="Documents with all of these tags.")
    since: IsoDate | None = Field(None, description="Documents dated on or after (ISO date).")
    until: IsoDate | None = Field(None, description="Documents dated on or before (ISO date).")
    graph: bool = Field(False, description="Add one bounded hop of linked documents to the candidates.")


class ContextBuildInput(EvidenceScope):
    goal: str = Field(min_length=1, max_length=2000, description="What the evidence is for.")
    budget_bytes: int | None = Field(None, ge=256, le=10_000_000,
                                     description="Byte budget of the capsule's canonical JSON.")


class ContextVerifyInput(OpInput):
    capsule: dict[str, Any] = Field(description="A capsule exactly as context_build returned it.")


class AskInput(EvidenceScope):
    question: str = Field(min_length=1, max_length=2000)
    budget_tokens: int | None = Field(700, ge=1, le=100_000, description="Token budget of the evidence.")
    # StrictBool: only the JSON literal ``true`` asks for verification ("true", 1 are refused).
    verify: StrictBool = Field(False, description="Send exactly true for a verified answer: it abstains "
                                                  "unless every claim is supported by the evidence.")
    answer: bool = Field(False, description="Without verify: also draft a short (unverified) answer.")
    mode: Literal["auto", "extractive", "generative"] = Field(
        "auto", description="How to answer: extractive quotes the evidence sentences that answer (no model); "
                            "generative drafts with the configured generator; auto: generative only when a "
                            "capable generator is configured.")


class CheckDraftInput(OpInput):
    draft: str = Field(min_length=1, max_length=100_000,
                       description="The text to check, with or without [E1]-style citations.")
    capsule: dict[str, Any] | None = Field(
        None, description="A capsule exactly as context_build returned it; without one, evidence is "
                          "retrieved for each claim.")
    collections: list[Name] = Field(default_factory=list, max_length=50,
                                    description="Without a capsule: retrieve only from these collections.")
    budget_tokens: int | None = Field(700, ge=1, le=100_000,
                                      description="Without a capsule: token budget of each claim's evidence.")


# --- the code graph (issue 15) ---
CodePath = Annotated[str, Field(min_length=1, max_length=4096,
                                description="A file path, relative to the code root or absolute.")]
CodeRoot = Annotated[str | None, Field(min_length=1, max_length=4096,
                                       description="The project root (default: the newest snapshot's).")]
SnapshotId = Annotated[int | None, Field(ge=1, description="A snapshot id (default: the newest).")]


class CodeRefreshInput(OpInput):
    path: CodePath = Field(description="The project root to snapshot.")
    keep: int = Field(10, ge=1, le=1000, description="Snapshots of this root to keep (older ones are pruned).")


class CodeSnapshotsInput(OpInput):
    root: CodeRoot = None


class CodeDiffInput(OpInput):
    from_snapshot: int | None = Field(None, ge=1, description="The older snapshot (default: the one before to).")
    to_snapshot: int | None = Field(None, ge=1, description="The newer snapshot (default: the newest).")
    root: CodeRoot = None


class CodeImpactInput(OpInput):
    target: str = Field(min_length=1, max_length=4096,
                        description="A file path or a symbol's qualified name (pkg.module.Class.method).")
    depth: int = Field(5, ge=1, le=50, description="Hops to follow (1-50).")
    max_nodes: int = Field(200, ge=1, le=100_000, description="At most this many impacted nodes.")
    snapshot: SnapshotId = None
    root: CodeRoot = None


class CodeSymbolsInput(OpInput):
    path: CodePath
    snapshot: SnapshotId = None
    root: CodeRoot = None


class CodeShowInput(OpInput):
    symbol: str = Field(min_length=1, max_length=4096, description="A symbol's qualified name.")
    snapshot: SnapshotId = None
    root: CodeRoot = None


# --- agent memory (issue 14) ---------------------------------------------------------------

MemoryId = Annotated[str, Field(pattern=r"^(obs|clm)_[0-9a-f]{12}$", description="A memory record id (obs_... or clm_...).")]
ProjectName = Annotated[str, Field(min_length=1, max_length=2048, description=(
    "The project: its identity (normalised git remote, e.g. github.com/owner/repo) or a folder; "
    "default: the project of the server's current folder."))]
MemoryNote = Annotated[str, Field(max_length=2000, description="Why (kept with the signal).")]
MemoryText = Annotated[str, Field(max_length=1000)]
_OBSERVATION_TYPES = Literal["decision", "gotcha", "fix", "how-it-works", "problem-solution", "trade-off",
                             "preference", "what-changed"]
_SIGNAL_KINDS = Literal["test-pass", "test-fail", "verified-reuse", "user-pin", "user-correction",
                        "source-changed", "conflict-confirmed", "manual-review"]


class MemorySearchInput(OpInput):
    text: NaturalQueryText
    project: ProjectName | None = None
    limit: Limit = 10
    include_archived: bool = Field(False, description="Also archived records and superseded claims.")


class MemoryIdInput(OpInput):
    id: MemoryId
    project: ProjectName | None = None


class MemoryExportInput(OpInput):
    project: ProjectName | None = None
    include_archived: bool = Field(True, description="Also archived records.")


class MemoryAddInput(OpInput):
    title: str | None = Field(None, max_length=300, description="An observation's one-line title.")
    narrative: str = Field("", max_length=16_384, description="What was learned (at most 16 KiB).")
    type: _OBSERVATION_TYPES = Field("how-it-works", description="The kind of observation.")
    facts: list[MemoryText] = Field(default_factory=list, max_length=50, description="Short facts.")
    files: list[MemoryText] = Field(default_factory=list, max_length=50,
                                    description="Bound files, relative to the project root (hashed now).")
    symbols: list[MemoryText] = Field(default_factory=list, max_length=50, description=(
        "Bound symbols: qualified names as `code symbols` lists them (pkg.mod.func) or PATH::NAME; "
        "checked by body hash against the newest code snapshot."))
    concepts: list[MemoryText] = Field(default_factory=list, max_length=50, description="Concepts or tags.")
    topic_key: str | None = Field(None, max_length=300,
                                  description="Upsert key: a write with the key of an existing observation revises it.")
    source: Literal["agent", "git", "manual", "import"] = Field("agent", description="Who wrote it.")
    visibility: Literal["personal", "project", "team"] | None = Field(
        None, description="personal: you only; project: this project (the default); team: every project. "
                          "A revision keeps its record's unless given.")
    evidence: list[Annotated[str, Field(min_length=1, max_length=2100)]] = Field(
        default_factory=list, max_length=50,
        description="Evidence refs: DOCID:START-END (a passage), file:PATH, commit:SHA; prefix verifies@ or contradicts@.")
    observed_at: IsoDate | None = Field(None, description="When the observed thing happened (ISO date).")
    subject: MemoryText | None = Field(None, description="A claim's subject (with predicate and object).")
    predicate: MemoryText | None = Field(None, description="A claim's predicate.")
    object: MemoryText | None = Field(None, description="A claim's object.")
    supersedes: MemoryId | None = Field(None, description="A claim this one replaces (kept, not deleted).")
    project: ProjectName | None = None


class MemoryPinInput(MemoryIdInput):
    note: MemoryNote | None = None


class MemoryCorrectInput(MemoryIdInput):
    text: str | None = Field(None, max_length=16_384,
                             description="The corrected narrative (observation) or object (claim).")
    title: str | None = Field(None, max_length=300, description="A corrected title.")
    facts: list[MemoryText] | None = Field(None, max_length=50, description="Corrected facts (replace them all; empty keeps them).")
    concepts: list[MemoryText] | None = Field(None, max_length=50, description="Corrected concepts.")
    note: MemoryNote | None = None


class MemoryResolveInput(OpInput):
    target: str = Field(min_length=1, max_length=2100, description="A conflict key (subject|predicate) or a claim id.")
    keep: MemoryId = Field(description="The claim that stands; the others are superseded.")
    note: MemoryNote | None = None
    project: ProjectName | None = None


class MemorySignalInput(MemoryIdInput):
    kind: _SIGNAL_KINDS = Field(description="The outcome.")
    note: MemoryNote | None = None
# --- knowledge delta (issue 16) -------------------------------------------------------------

Since = Annotated[str, Field(min_length=1, max_length=200,
                             description="A cursor from an earlier answer, or an ISO date or datetime.")]
CapsuleName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
                                   description="A saved capsule's name (letters, digits, '.', '_', '-').")]


class ChangesInput(OpInput):
    since: Since | None = Field(None, description="Entries after this cursor (from an earlier answer) or since "
                                                  "this date; default: everything the journal keeps.")
    collection: Name | None = Field(None, description="Only this collection.")
    limit: int = Field(100, ge=1, le=1000, description="At most this many entries.")


class DiffInput(OpInput):
    ref: Ref | None = Field(None, description="A document (cairn://collection/path, collection/path or a docid); "
                                              "without one, every document changed since `since`.")
    since: Since | None = Field(None, description="Compare with the state at this cursor or date "
                                                  "(default: the document's previous revision).")
    collection: Name | None = Field(None, description="Without ref: only this collection.")
    limit: int = Field(100, ge=1, le=1000, description="Without ref: at most this many documents.")


class ImpactInput(OpInput):
    ref: Ref
    depth: int = Field(2, ge=1, le=5, description="Backlinks followed (1-5 links away).")
    max_nodes: int = Field(200, ge=1, le=10_000, description="At most this many linking documents.")


class ContextSaveInput(OpInput):
    name: CapsuleName
    capsule: dict[str, Any] = Field(description="A capsule exactly as context_build returned it.")
    replace: bool = Field(False, description="Overwrite a capsule saved under this name.")


class ContextReverifyInput(OpInput):
    names: list[CapsuleName] = Field(default_factory=list, max_length=100,
                                     description="Saved capsules to reverify (default: all).")


class ContextReceiptsInput(OpInput):
    name: CapsuleName | None = Field(None, description="Only this saved capsule.")
    after: int = Field(0, ge=0, le=2**62, description="Receipts after this receipt id (a previous cursor).")
    limit: int = Field(100, ge=1, le=1000, description="At most this many receipts.")


# --- memory: the evidence governor (issue 14) ------------------------------------------


class PlanInput(OpInput):
    task: str = Field(min_length=1, max_length=2000, description="What the agent is about to do.")
    budget: int = Field(800, ge=1, le=100_000, description="Token budget of what is handed over.")
    project: str | None = Field(None, min_length=1, max_length=500,
                                description="Project identity (default: this checkout's git remote or root).")
    explain: bool = Field(False, description="Add the trace of every governor step.")
    collections: list[Name] = Field(default_factory=list, max_length=50,
                                    description="Only passages of these collections.")


class ResumeInput(OpInput):
    project: str | None = Field(None, min_length=1, max_length=500,
                                description="Project identity (default: this checkout's git remote or root).")
    budget: int = Field(400, ge=1, le=100_000, description="Token budget of the card.")
    explain: bool = Field(False, description="Add the trace of every governor step.")
