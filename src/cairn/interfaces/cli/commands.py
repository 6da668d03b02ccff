"""Collections, indexing, search and documents: ``cairn collection ...``, ``index``,
``search``, ``vsearch``, ``query``, ``similar``, ``get``, ``multi-get``, ``ls``, ``status``,
``capture``, ``embed`` and ``doctor``.

Commands that serve an operation are declared from it (:func:`operation_command`); what is
written here per command is its human rendering.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from cairn.interfaces.cli import (
    DefaultGroup,
    OperationCommand,
    State,
    cli,
    collection_option,
    decorators,
    emit_json,
    field_argument,
    field_option,
    filter_options,
    limit_option,
    mode_options,
    operation_command,
    output_options,
    pass_state,
    progress_bar,
)
from cairn.interfaces.inputs import IndexInput
from cairn.interfaces.operations import Operation, operation

if TYPE_CHECKING:
    from cairn.contracts import (
        Collection,
        DocumentSlice,
        EmbedSummary,
        IndexSummary,
        Listing,
        MultiGetResponse,
        SearchResponse,
        Status,
    )
    from cairn.contracts.capture import CaptureResult
    from cairn.workspace import Workspace

# --- collections --------------------------------------------------------------------


@cli.group()
def collection() -> None:
    """Add, configure, list and remove collections (named folders to index)."""


_ADD = operation("collection_add").input
_CONFIGURE = operation("collection_configure").input


def _print_added(result: Collection, args: dict[str, Any]) -> None:
    click.echo(f"added collection {result.name} → {result.root}" + (" (a sequence)" if result.sequence else ""))
    click.echo("next: cairn index")


def _print_configured(result: Collection, args: dict[str, Any]) -> None:
    click.echo(f"collection {result.name}: sequence {'on' if result.sequence else 'off'}"
               + (f"; context: {result.context}" if result.context else ""))


operation_command(
    collection, "collection_add", "add", help="Register the folder PATH as a collection.",
    params=[
        field_argument(_ADD, "path", type=click.Path()),
        field_option(_ADD, "name", help="Collection name (default: the folder's name)."),
        field_option(_ADD, "include", metavar="GLOB",
                     help="Also index files matching GLOB (e.g. '**/*.py'); Markdown and text always are."),
        field_option(_ADD, "exclude", metavar="GLOB", help="Skip files matching GLOB."),
        field_option(_ADD, "context", help="Guidance text describing the collection (for agents)."),
        field_option(_ADD, "sequence",
                     help="Numbered sibling files follow one another (chat turns D1-3.md, D1-4.md; journal "
                          "days): query lets each share its neighbours' relevance."),
        output_options(),
    ],
    render=_print_added,
)
operation_command(
    collection, "collection_configure", "configure",
    help="Change the settings of collection NAME (no re-indexing needed).",
    params=[
        field_argument(_CONFIGURE, "name"),
        field_option(_CONFIGURE, "sequence",
                     help="Declare (or undeclare) the collection a sequence of numbered sibling files."),
        field_option(_CONFIGURE, "context", help="New guidance text ('' clears it)."),
        output_options(),
    ],
    render=_print_configured,
)


@collection.command("list")
@output_options()
@pass_state
def collection_list(state: State, fmt: str | None) -> None:
    """List collections with their document counts."""
    result = state.workspace.list_collections()
    if fmt == "json":
        return emit_json(result)
    if not result.collections:
        click.echo("no collections; add one with: cairn collection add PATH")
    for col in result.collections:
        click.echo(f"{col.name}\t{col.documents} docs\t{col.passages} passages\t{col.root}"
                   + ("\tsequence" if col.sequence else ""))


@collection.command("remove")
@click.argument("name")
@output_options()
@pass_state
def collection_remove(state: State, name: str, fmt: str | None) -> None:
    """Forget collection NAME and its index entries (files are not touched)."""
    result = state.workspace.remove_collection(name)
    if fmt == "json":
        return emit_json(result)
    click.echo(f"removed collection {result.name} ({result.documents_removed} documents)")


# --- indexing -------------------------------------------------------------------------


def _index(state: State, collection: str | None, fmt: str | None, embed: bool, retry_failed: bool) -> None:
    import json

    result = state.workspace.index(collection, progress=progress_bar("files", fmt), retry_failed=retry_failed)
    if embed:
        embedded = state.workspace.embed(collection, progress=progress_bar("passages", fmt))
        if fmt == "json":
            click.echo(json.dumps({"index": result.model_dump(mode="json"),
                                   "embed": embedded.model_dump(mode="json")}, ensure_ascii=False, indent=2))
            return None
    if fmt == "json":
        return emit_json(result)
    _print_indexed(result)
    if embed:
        click.echo(f"embedded {embedded.embedded} passages ({embedded.pending_after} pending)")
    return None


def _print_indexed(result: IndexSummary) -> None:
    n = result.counts
    click.echo(
        f"indexed {', '.join(result.collections)} in {result.elapsed_ms / 1000:.2f}s: "
        f"{n.added} added, {n.updated} updated, {n.unchanged} unchanged, {n.renamed} renamed, "
        f"{n.removed} removed, {n.reactivated} reactivated, {n.failed} failed"
    )
    for err in result.errors[:20]:
        click.echo(f"  failed {err.collection}/{err.path}: {err.code}: {err.message}", err=True)
    if len(result.errors) > 20:
        click.echo(f"  … and {len(result.errors) - 20} more (cairn status)", err=True)


index_options = decorators(
    collection_option,
    click.option("--embed", is_flag=True, help="Then embed pending passages (cairn embed)."),
    field_option(IndexInput, "retry_failed"),
    output_options(),
)


# By hand: with --embed, index runs two operations and prints both.
@cli.command("index", cls=OperationCommand, operation="index")
@index_options
@pass_state
def index_cmd(state: State, collection: str | None, embed: bool, retry_failed: bool, fmt: str | None) -> None:
    """Index new, changed, renamed and deleted files (alias: update)."""
    _index(state, collection, fmt, embed, retry_failed)


@cli.command("update", cls=OperationCommand, operation="index")
@index_options
@pass_state
def update_cmd(state: State, collection: str | None, embed: bool, retry_failed: bool, fmt: str | None) -> None:
    """Alias of index."""
    _index(state, collection, fmt, embed, retry_failed)


def _print_embedded(result: EmbedSummary, args: dict[str, Any]) -> None:
    click.echo(f"embedded {result.embedded} passages in {result.elapsed_ms / 1000:.1f}s "
               f"({result.pending_after} pending) with {result.embedder}")


operation_command(
    cli, "embed", help="Embed passages that have no vector for the configured model (resumable).",
    params=[
        collection_option,
        click.option("--batch", default=64, show_default=True, type=int, help="Passages per write transaction."),
        output_options(),
    ],
    render=_print_embedded, progress="passages",
)


# --- search ----------------------------------------------------------------------------

#: Most results one --files call asks for while it looks for N distinct documents.
FILES_MAX_RESULTS = 1000


def search_call(op: Operation, workspace: Workspace, args: dict[str, Any], fmt: str | None) -> Any:
    """The search; with ``--files`` widened until ``-n`` distinct documents are found (or
    there are no more), since several passages of one document count once there."""
    result: Any = op.call_with(workspace, args)
    want = args["limit"]
    asked = want
    while (fmt == "files" and asked < FILES_MAX_RESULTS and len(result.results) >= asked
           and len({r.uri for r in result.results}) < want):
        asked = min(asked * 4, FILES_MAX_RESULTS)
        result = op.call_with(workspace, {**args, "limit": asked})
    return result


def print_results(result: SearchResponse, args: dict[str, Any]) -> None:
    fmt = args["fmt"]
    if fmt == "files":
        for uri in list(dict.fromkeys(r.uri for r in result.results))[:args["limit"]]:
            click.echo(uri)
        return None
    for hint in result.meta.hints:
        click.echo(f"note: {hint}", err=True)
    if fmt == "md":
        click.echo(f"# Search: {args.get('query', args.get('ref'))}\n")
        for i, r in enumerate(result.results, 1):
            heading = f" › {' › '.join(r.headings)}" if r.headings else ""
            click.echo(f"{i}. **{r.title}**{heading} — `{r.uri}` lines {r.start_line}–{r.end_line} (score {r.score:.4g})")
            click.echo(f"   > {r.snippet}\n")
        return None
    if not result.results:
        click.echo("no results", err=True)
    for r in result.results:
        click.echo(f"{r.score:8.4g}  {r.uri}:{r.start_line}-{r.end_line}  {r.title}  #{r.docid}")
        if r.snippet:
            click.echo(f"          {r.snippet}")
        if r.explain is not None:
            parts = [f"{stage} #{s.rank} ({s.score:.4g})" for stage, s in r.explain.stages.items()]
            via = f"; via {r.explain.via}" if r.explain.via else ""
            click.echo(f"          explain: fused {r.explain.fused_score:.4g} = {', '.join(parts)}{via}")
    if result.meta.stages_run:
        click.echo(f"stages: {' → '.join(result.meta.stages_run)}  ({result.meta.fusion})", err=True)
    return None


search_outputs = output_options("json", "md", "files")
_SEARCH = operation("search").input
_QUERY = operation("query").input
_SIMILAR = operation("similar").input

for _name, _help in (("search", 'BM25 search: plain words, "quoted phrases", -negation.'),
                     ("vsearch", "Semantic search with the local embedding model (falls back to BM25 "
                                 "without vectors).")):
    operation_command(cli, _name, help=_help, render=print_results, call=search_call,
                      params=[field_argument(_SEARCH, "query"), filter_options, search_outputs])


@cli.group(cls=DefaultGroup, default="run")
def query() -> None:
    """Hybrid search (BM25 + vectors, fused): cairn query TEXT. Also: cairn query diagnose."""


operation_command(
    query, "query", "run", help="Hybrid search: BM25 and vector rankings fused, one result per document.",
    params=[
        field_argument(_QUERY, "query"),
        filter_options,
        mode_options,
        field_option(_QUERY, "explain", help="Show each stage's rank and score per result."),
        field_option(_QUERY, "graph"),
        field_option(_QUERY, "all_passages"),
        search_outputs,
    ],
    render=print_results, call=search_call,
)


@query.command("diagnose")
@click.argument("query")
@click.option("--target", required=True, metavar="REF", help="The document you expected to find.")
@filter_options
@mode_options
@output_options()
@pass_state
def query_diagnose(state: State, /, query: str, target: str, fmt: str | None, **filters: Any) -> None:
    """Explain, stage by stage, whether and where QUERY finds the document REF."""
    result = state.workspace.query_diagnose(query, target, **filters)
    if fmt == "json":
        return emit_json(result)
    click.echo(f"target {result.target} (#{result.target_docid}) for query {result.query!r}")
    for st in result.stages:
        mark = "found" if st.found else ("skipped" if not st.ran else "missed")
        click.echo(f"  {st.stage:8} {mark:8} {st.note}")
    click.echo(f"verdict: {result.verdict}")
    return None


operation_command(
    cli, "similar", help="Documents semantically nearest to REF.",
    params=[
        field_argument(_SIMILAR, "ref"),
        limit_option,
        field_option(_SIMILAR, "collections", "-c", "--collection", metavar="NAME"),
        search_outputs,
    ],
    render=print_results, call=search_call,
)


# --- documents ---------------------------------------------------------------------------

_GET = operation("get").input
_MULTI_GET = operation("multi_get").input
line_numbers_option = click.option("--line-numbers", is_flag=True, help="Prefix each line with its number.")


def _print_lines(text: str, start: int, numbered: bool) -> None:
    if not numbered:
        click.echo(text)
        return
    for offset, line in enumerate(text.split("\n")):
        click.echo(f"{start + offset:6d}  {line}")


def _print_slice(result: DocumentSlice, args: dict[str, Any]) -> None:
    _print_lines(result.text, result.start_line, args["line_numbers"])


def _print_documents(result: MultiGetResponse, args: dict[str, Any]) -> None:
    for item in result.items:
        if item.document is not None:
            click.echo(f"==> {item.document.uri} <==")
            _print_lines(item.document.text, item.document.start_line, args["line_numbers"])
        elif item.error is not None:
            click.echo(f"error: {item.ref}: {item.error.message}", err=True)


def _print_listing(result: Listing, args: dict[str, Any]) -> None:
    for doc in result.documents:
        click.echo(f"{doc.uri}\t#{doc.docid}\t{doc.lines} lines\t{doc.title}")


operation_command(
    cli, "get", help="Print a document's exact lines. REF: cairn://collection/path, collection/path or a docid; "
         "a trailing :START-END, as search prints it, reads those lines.",
    params=[
        field_argument(_GET, "ref"),
        field_option(_GET, "from_line", "--from", metavar="LINE"),
        field_option(_GET, "lines", metavar="N"),
        line_numbers_option,
        output_options(),
    ],
    render=_print_slice, view=["line_numbers"],
)
operation_command(
    cli, "multi_get", "multi-get", help="Print several documents; exits 1 if any reference failed.",
    params=[
        field_argument(_MULTI_GET, "refs"),
        field_option(_MULTI_GET, "max_lines", "--lines", metavar="N", help="At most N lines per document."),
        line_numbers_option,
        output_options(),
    ],
    render=_print_documents, view=["line_numbers"],
    exit_code=lambda result: 1 if any(item.error for item in result.items) else 0,
)
operation_command(
    cli, "ls", help="List documents, optionally of COLLECTION or under a cairn:// URI prefix.",
    params=[field_argument(operation("ls").input, "prefix", required=False), output_options()],
    render=_print_listing,
)


def _print_status(result: Status, args: dict[str, Any]) -> None:
    click.echo(f"index {result.index} at {result.index_path} ({result.index_bytes / 1e6:.1f} MB, schema v{result.schema_version})")
    click.echo(f"{result.documents} documents, {result.passages} passages, {result.inactive_documents} inactive")
    for col in result.collections:
        click.echo(f"  {col.name}: {col.documents} docs, {col.passages} passages, {col.root} (last indexed {col.last_indexed_at or 'never'})")
    if result.last_run:
        click.echo(f"last run #{result.last_run.run_id}: {result.last_run.status}, started {result.last_run.started_at}")
    click.echo("capabilities: " + ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in result.capabilities.items()))
    click.echo(f"token counts: {result.token_counter}")
    if result.vectors is not None:
        v = result.vectors
        if v.available:
            click.echo(f"vectors: {v.vectors} ({v.embedder}), {v.pending_passages} passages pending, {v.stale_vectors} stale")
        else:
            click.echo(f"vectors: unavailable ({v.hint})")
    if result.runtime is not None and result.runtime.state != "never":  # issue 16
        from cairn.interfaces.cli.runtime_commands import runtime_line

        click.echo(runtime_line(result.runtime))
    if result.errors:
        click.echo(f"{len(result.errors)} file(s) failed:")
        for err in result.errors:
            click.echo(f"  {err.collection}/{err.path}: {err.code}: {err.message}")


operation_command(cli, "status", help="Collections, counts, index size, last run, file errors and capabilities.",
                  params=[output_options()], render=_print_status)


# --- capture --------------------------------------------------------------------------

_CAPTURE = operation("capture").input


def _read_text(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    return sys.stdin.read() if value == "-" else value


def _print_captured(result: CaptureResult, args: dict[str, Any]) -> None:
    click.echo(f"captured {result.uri} ({result.bytes} bytes)"
               + (f" #{result.docid}" if result.docid else " (not indexed)"))


operation_command(
    cli, "capture", help="Write a NEW Markdown note TITLE into COLLECTION's folder (never overwrites), "
                         "then index it.",
    params=[
        field_argument(_CAPTURE, "collection"),
        field_argument(_CAPTURE, "title"),
        field_option(_CAPTURE, "text", default="-", show_default=True, callback=_read_text,
                     help="The note's Markdown body ('-': read it from stdin)."),
        field_option(_CAPTURE, "path"),
        output_options(),
    ],
    render=_print_captured,
)


# --- checks -------------------------------------------------------------------------------


@cli.command()
@output_options()
@pass_state
def doctor(state: State, fmt: str | None) -> None:
    """Check the installation, the index and the collections; exits 2 on a failed check."""
    result = state.workspace.doctor()
    if fmt == "json":
        emit_json(result)
    else:
        for check in result.checks:
            click.echo(f"{check.status:4}  {check.name}: {check.detail}")
    if not result.ok:
        sys.exit(2)
