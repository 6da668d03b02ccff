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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

from pydantic import BaseModel

from cairn.interfaces.inputs import (
    AskInput,
    CaptureInput,
    ChangesInput,
    CheckDraftInput,
    CodeDiffInput,
    CodeImpactInput,
    CodeRefreshInput,
    CodeShowInput,
    CodeSnapshotsInput,
    CodeSymbolsInput,
    CollectionAddInput,
    CollectionConfigureInput,
    CollectionInput,
    ContextBuildInput,
    ContextReceiptsInput,
    ContextReverifyInput,
    ContextSaveInput,
    ContextVerifyInput,
    DiffInput,
    GetInput,
    ImpactInput,
    IndexInput,
    LinksInput,
    LsInput,
    MemoryAddInput,
    MemoryCorrectInput,
    MemoryExportInput,
    MemoryIdInput,
    MemoryPinInput,
    MemoryResolveInput,
    MemorySearchInput,
    MemorySignalInput,
    MultiGetInput,
    NeighborsInput,
    NoInput,
    OpInput,
    PathInput,
    PlanInput,
    QueryInput,
    ResumeInput,
    SearchInput,
    SimilarInput,
    TagsInput,
)


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


def _context_save(ws: Any, args: dict[str, Any]) -> BaseModel:
    result: BaseModel = ws.context_save(args["name"], _capsule_text(args["capsule"]),
                                        replace=args.get("replace", False))
    return result


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
_M = "cairn.contracts.memory"
_D = "cairn.contracts.delta"
_K = "cairn.contracts.code"

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
    # Knowledge delta (issue 16). context_reverify records a receipt, yet reads only: read-only.
    Operation("changes", "changes", ChangesInput, f"{_D}:ChangeFeed", route="/v1/changes",
              description="Document changes (create, update, rename, delete, reactivate, fail; old and new "
                          "hashes) after a cursor or date, and the next cursor; a too old cursor: cursor_expired."),
    Operation("diff", "diff", DiffInput, f"{_D}:DocumentDiff|{_D}:DiffSummary", route="/v1/diff",
              description="Structural diff of a document (headings, passages with line spans, links, tags, "
                          "frontmatter) since its previous revision or a cursor/date; no ref: one summary per "
                          "document."),
    Operation("impact", "impact", ImpactInput, f"{_D}:Impact", route="/v1/impact",
              description="What depends on a document: documents linking to it (several hops) and saved "
                          "capsules citing it, each with the links that connect it."),
    Operation("context_list", "context_list", NoInput, f"{_D}:SavedCapsuleList", route="/v1/context/list",
              description="Saved capsules with the documents they cite and their latest receipt."),
    Operation("context_reverify", "context_reverify", ContextReverifyInput, f"{_D}:ReceiptList",
              route="/v1/context/reverify", idempotent=False,
              description="Re-check saved capsules against the current files (no model) and record a receipt "
                          "for each: fresh, or stale with the evidence that no longer stands."),
    Operation("context_receipts", "context_receipts", ContextReceiptsInput, f"{_D}:ReceiptList",
              route="/v1/context/receipts",
              description="Receipts of saved capsules after a receipt id, oldest first (poll to watch a capsule)."),
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
    # Agent memory (issue 14): reads, then writes (only with --enable-write).
    Operation("memory_search", "memory_search", MemorySearchInput, f"{_M}:MemorySearchResult",
              route="/v1/memory/search",
              description="BM25 over agent memory (observations and claims) that you may see: your "
                          "project's records, your personal ones, team records; with quality and freshness."),
    Operation("memory_show", "memory_show", MemoryIdInput, f"{_M}:MemoryItem", route="/v1/memory/show",
              description="One memory record with its evidence, quality, freshness and conflict state."),
    Operation("memory_history", "memory_history", MemoryIdInput, f"{_M}:MemoryHistory",
              route="/v1/memory/history",
              description="Every transition (created, revised, superseded, ...) and signal of a memory record."),
    Operation("memory_export", "memory_export", MemoryExportInput, f"{_M}:MemoryExport",
              route="/v1/memory/export",
              description="The memory you may see as one plain Markdown document."),
    Operation("memory_add", "memory_add", MemoryAddInput, f"{_M}:MemoryWriteResult", route="/v1/memory/add",
              description="Store an observation (title, narrative, type, facts, files, evidence) or a claim "
                          "(subject, predicate, object); secrets are redacted first.",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("memory_pin", "memory_pin", MemoryPinInput, f"{_M}:MemoryWriteResult", route="/v1/memory/pin",
              description="Pin a memory record (a user-pin signal).",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("memory_correct", "memory_correct", MemoryCorrectInput, f"{_M}:MemoryWriteResult",
              route="/v1/memory/correct",
              description="Correct a memory record: a new revision and a user-correction signal.",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("memory_resolve", "memory_resolve", MemoryResolveInput, f"{_M}:MemoryWriteResult",
              route="/v1/memory/resolve",
              description="Settle contested claims: keep one, supersede the others (kept, with history).",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("memory_signal", "memory_signal", MemorySignalInput, f"{_M}:MemoryWriteResult",
              route="/v1/memory/signal",
              description="Append an outcome signal (test-pass, test-fail, manual-review, ...) to a memory record.",
              read_only=False, destructive=False, idempotent=False, write=True),
    Operation("memory_archive", "memory_archive", MemoryPinInput, f"{_M}:MemoryWriteResult",
              route="/v1/memory/archive",
              description="Archive a memory record (recoverable with memory_restore; nothing is deleted).",
              read_only=False, destructive=False, idempotent=True, write=True),
    Operation("memory_restore", "memory_restore", MemoryIdInput, f"{_M}:MemoryWriteResult",
              route="/v1/memory/restore",
              description="Bring an archived memory record back.",
              read_only=False, destructive=False, idempotent=True, write=True),
    # The resident runtime (issue 16); its events stream at GET /api/events (SSE).
    Operation("runtime_status", "runtime_status", NoInput, f"{_C}:RuntimeStatus", route="/v1/runtime/status",
              description="Whether a runtime (cairn daemon / serve) keeps the index current: running or "
                          "stopped (stale heartbeat), its lag, last error and job counts."),
    # Knowledge delta (issue 16): a capsule saved into the index (never into the user's files).
    Operation("context_save", "context_save", ContextSaveInput, f"{_D}:SavedCapsule", route="/v1/context/save",
              call=_context_save,
              description="Save a capsule under a name in the index, to reverify it later (context_reverify).",
              read_only=False, destructive=False, idempotent=False, write=True),
    # The code graph (issue 15).
    Operation("code_symbols", "code_symbols", CodeSymbolsInput, f"{_K}:CodeSymbols", route="/v1/code/symbols",
              description="Symbols of one file of a code snapshot (module, classes, functions, methods) with lines."),
    Operation("code_show", "code_show", CodeShowInput, f"{_K}:CodeShow", route="/v1/code/show",
              description="Exact lines of a symbol by qualified name, and whether its file is unchanged since "
                          "the snapshot."),
    Operation("code_diff", "code_diff", CodeDiffInput, f"{_K}:CodeDiff", route="/v1/code/diff",
              description="Files, symbols (by body hash: renames and moves paired) and import/call edges "
                          "added, changed and removed between two code snapshots."),
    Operation("code_impact", "code_impact", CodeImpactInput, f"{_K}:CodeImpact", route="/v1/code/impact",
              description="What depends on a file or symbol, multi-hop and bounded, each node with the "
                          "chain of imports/calls that reaches it."),
    Operation("code_snapshots", "code_snapshots", CodeSnapshotsInput, f"{_K}:CodeSnapshotList",
              route="/v1/code/snapshots", description="Stored code snapshots, newest first."),
    Operation("code_refresh", "code_refresh", CodeRefreshInput, f"{_K}:CodeRefresh", route="/v1/code/refresh",
              description="Snapshot the code under a project root (incremental: only changed files are parsed).",
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
