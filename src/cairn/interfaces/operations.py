"""The one table of operations that the MCP tools, the REST routes and the CLI commands
are generated from.

Each :class:`Operation` names a :class:`~cairn.workspace.Workspace` method, a pydantic
input model (typed, described, bounded; its fields are the method's keyword arguments),
the output contract, the MCP annotation hints and whether it writes. MCP tools and REST
routes are derived from this table, and the CLI declares its commands from it
(:mod:`cairn.interfaces.cli`), so the faces cannot drift apart. ``tests/test_mcp.py``
checks every entry's input model against its method's signature, ``tests/test_parity.py``
that every entry answers the same through every face.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from dataclasses import dataclass
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
        "default", description="fast: BM25 + vectors (int8 query encoder); default: + one pseudo-relevance feedback round and a reranker if configured; thorough: wider feedback.")
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


def _capsule_text(capsule: Any) -> Any:
    """A capsule as the service reads it, JSON text: MCP and REST send the object, the CLI
    a saved file's bytes."""
    import json

    return capsule if capsule is None or isinstance(capsule, (str, bytes)) else json.dumps(capsule, ensure_ascii=False)


def _context_verify(ws: Any, args: dict[str, Any]) -> BaseModel:
    result: BaseModel = ws.context_verify(_capsule_text(args["capsule"]))
    return result


def _check_draft(ws: Any, args: dict[str, Any]) -> BaseModel:
    result: BaseModel = ws.check_draft(**{**args, "capsule": _capsule_text(args.get("capsule"))})
    return result


def _ask(ws: Any, args: dict[str, Any]) -> BaseModel:
    """``verify`` (exactly ``True``) picks the verified ask; ``answer`` only the plain one."""
    rest = {k: v for k, v in args.items() if k not in ("verify", "answer")}
    result: BaseModel = (ws.ask_verified(**rest) if args.get("verify") is True
                         else ws.ask(**rest, answer=args.get("answer", False)))
    return result


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


@dataclass(frozen=True, slots=True)
class Operation:
    """One capability as the faces expose it."""

    name: str
    method: str
    input: type[OpInput]
    #: ``module:Class`` of the output contract, imported lazily.
    output: str
    description: str
    route: str
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False
    #: Exposed only when the server runs with ``--enable-write``.
    write: bool = False
    #: How to call the Workspace when the input fields are not simply its keyword arguments
    #: (given the keyword arguments: the input's fields, plus any a face adds, such as the
    #: CLI's ``--max-tokens``).
    call: Callable[[Any, dict[str, Any]], BaseModel] | None = None

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").capitalize()

    def output_model(self) -> Any:
        """The output contract class; ``A|B`` in :attr:`output` gives the union of both."""
        models = []
        for spec in self.output.split("|"):
            module, _, cls = spec.partition(":")
            models.append(getattr(importlib.import_module(module), cls))
        if len(models) == 1:
            return models[0]
        return Union[tuple(models)]  # noqa: UP007 - built at run time

    def output_schema(self) -> dict[str, Any]:
        """JSON Schema of the output (root ``type: object``, as MCP requires)."""
        from pydantic import TypeAdapter

        schema = TypeAdapter(self.output_model()).json_schema(mode="serialization")
        return {"type": "object", **schema}

    def invoke(self, workspace: Any, params: OpInput) -> BaseModel:
        """Call the Workspace method with the validated input as keyword arguments."""
        return self.call_with(workspace, params.model_dump())

    def call_with(self, workspace: Any, args: dict[str, Any]) -> BaseModel:
        """Call the Workspace method with keyword arguments (the CLI's path: the Workspace
        validates them, as it does for the SDK)."""
        if self.call is not None:
            return self.call(workspace, args)
        method: Callable[..., BaseModel] = getattr(workspace, self.method)
        return method(**args)


_C = "cairn.contracts"
_G = "cairn.contracts.graph"

OPERATIONS: tuple[Operation, ...] = (
    Operation("search", "search", SearchInput, f"{_C}:SearchResponse", route="/v1/search",
              description="BM25 keyword search over passages; each result names uri, docid and line span."),
    Operation("vsearch", "vsearch", SearchInput, f"{_C}:SearchResponse", route="/v1/vsearch",
              description="Semantic (vector) search; falls back to BM25 without vectors and says so in meta."),
    Operation("query", "query", QueryInput, f"{_C}:SearchResponse", route="/v1/query",
              description="Hybrid search (BM25 + vectors, fused), one result per document. Start here."),
    Operation("get", "get", GetInput, f"{_C}:DocumentSlice", route="/v1/get",
              description="Exact lines of a document by URI, collection/path or docid, with content hashes."),
    Operation("multi_get", "multi_get", MultiGetInput, f"{_C}:MultiGetResponse", route="/v1/multi-get",
              description="Several documents at once; a reference that fails carries its own error."),
    Operation("ls", "ls", LsInput, f"{_C}:Listing", route="/v1/ls",
              description="List indexed documents, optionally of one collection or under a path prefix."),
    Operation("status", "status", NoInput, f"{_C}:Status", route="/v1/status",
              description="Collections, counts, last index run, failed files, vectors and capabilities."),
    Operation("links", "links", LinksInput, f"{_G}:LinkList", route="/v1/links",
              description="Outgoing links of a document, each resolved to its target with a reason."),
    Operation("backlinks", "backlinks", LinksInput, f"{_G}:LinkList", route="/v1/backlinks",
              description="Links from other documents that resolve to this document."),
    Operation("similar", "similar", SimilarInput, f"{_C}:SearchResponse", route="/v1/similar",
              description="Documents semantically nearest to a document (BM25 'more like this' without vectors)."),
    Operation("graph_neighbors", "graph_neighbors", NeighborsInput, f"{_G}:Neighbors",
              route="/v1/graph/neighbors",
              description="Documents within N links of a document, each with the link that reached it."),
    Operation("graph_path", "graph_path", PathInput, f"{_G}:GraphPath", route="/v1/graph/path",
              description="A shortest chain of links from document a to document b."),
    Operation("tags", "tags", TagsInput, f"{_G}:TagList", route="/v1/tags",
              description="Tags with document counts (hierarchical: 'a' counts 'a/...')."),
    # Evidence (issue 5).
    Operation("context_build", "context_build", ContextBuildInput, "cairn.contracts.capsule:Capsule",
              route="/v1/context/build",
              description="A budgeted Context Capsule of exact line-span evidence for a goal, with gaps "
                          "and a capsule_id; keep it and check it later with context_verify."),
    Operation("context_verify", "context_verify", ContextVerifyInput, "cairn.contracts.capsule:VerifyReceipt",
              route="/v1/context/verify", call=_context_verify,
              description="Re-check a capsule's evidence against the current files: unchanged, stale, "
                          "missing or moved (no model)."),
    Operation("ask", "ask", AskInput,
              "cairn.contracts.answer:AskResponse|cairn.contracts.answer:VerifiedAskResponse",
              route="/v1/ask", call=_ask, idempotent=True,
              description="Cited evidence for a question (optionally a draft answer); with verify: true, an "
                          "answer only when every claim is supported, else it abstains."),
    Operation("check_draft", "check_draft", CheckDraftInput, "cairn.contracts.answer:CheckReport",
              route="/v1/check", call=_check_draft, idempotent=True,
              description="Check a draft (e.g. your own answer): each claim's verdict with the evidence "
                          "span it aligns with, against a saved capsule or evidence retrieved per claim."),
    # Memory: the evidence governor (issue 14).
    Operation("memory_plan", "plan", PlanInput, "cairn.contracts.plan:Plan", route="/v1/memory/plan",
              description="What to hand over for a task: abstain (nothing qualifies), a compact card or a "
                          "workset of current, in-scope, source-backed items, each with reason codes."),
    Operation("memory_resume", "resume", ResumeInput, "cairn.contracts.plan:Plan", route="/v1/memory/resume",
              description="A card for the start of a session: pinned and verified decisions/gotchas of "
                          "this project and its git state, through the same governor."),
    # Writes: only with --enable-write.
    Operation("capture", "capture", CaptureInput, "cairn.contracts.capture:CaptureResult", route="/v1/capture",
              description="Write a NEW Markdown note into a collection's folder (never overwrites), then index it.",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("collection_add", "add_collection", CollectionAddInput, f"{_C}:Collection", route="/v1/collections",
              description="Register a folder as a collection (then run index).",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("collection_configure", "configure_collection", CollectionConfigureInput, f"{_C}:Collection",
              route="/v1/collections/configure",
              description="Change a collection's settings (sequence, guidance text) without re-indexing.",
              read_only=False, destructive=False, idempotent=True, write=True),
    Operation("index", "index", IndexInput, f"{_C}:IndexSummary", route="/v1/index",
              description="Bring the index up to date with the collections' files (incremental).",
              read_only=False, destructive=False, idempotent=True, write=True),
    Operation("embed", "embed", CollectionInput, f"{_C}:EmbedSummary", route="/v1/embed",
              description="Embed passages that have no vector for the configured model (resumable).",
              read_only=False, destructive=False, idempotent=True, write=True),
)


def available_operations(*, write: bool) -> list[Operation]:
    """The operations a server exposes: all of them, the writes only if ``write``."""
    return [op for op in OPERATIONS if write or not op.write]


def operation(name: str) -> Operation:
    """The table's entry called ``name``."""
    for op in OPERATIONS:
        if op.name == name:
            return op
    raise KeyError(name)


def parse_input(op: Operation, arguments: Any) -> OpInput:
    """Validate raw arguments against the operation's input model (``invalid_input`` if bad)."""
    import pydantic

    from cairn.errors import ValidationError

    try:
        return op.input.model_validate(arguments if arguments is not None else {})
    except pydantic.ValidationError as exc:
        raise ValidationError(describe_validation_error(exc)) from None


def describe_validation_error(exc: Any) -> str:
    """One line per problem: ``field.path: message``."""
    parts = []
    for err in exc.errors()[:10]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",)) or "input"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid input"


def as_cairn_error(exc: BaseException) -> Any:
    """Any exception as a :class:`~cairn.errors.CairnError` (unknown ones become ``internal``)."""
    from cairn.errors import CairnError

    if isinstance(exc, CairnError):
        return exc
    error = CairnError(f"internal error: {type(exc).__name__}", code="internal")
    return error
