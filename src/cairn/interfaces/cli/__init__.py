"""The ``cairn`` command line: parse options, call one Workspace method, print.

Exit codes: 0 ok, 1 usage or validation error, 2 runtime error. With ``--json`` an
error is printed as ``{"error": {"code", "message"}}`` on stdout.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from cairn import __version__

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cairn.contracts import SearchResponse
    from cairn.workspace import QueryMode, Workspace


class State:
    """Global options, and the workspace opened from them on first use."""

    def __init__(self, home: str | None, index: str) -> None:
        self.home = home
        self.index = index
        self._workspace: Workspace | None = None

    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            import cairn

            self._workspace = cairn.open(self.home, self.index)
        return self._workspace


pass_state = click.make_pass_decorator(State)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")


def emit_json(model: BaseModel) -> None:
    click.echo(json.dumps(model.model_dump(mode="json"), ensure_ascii=False, indent=2))


def split_csv(values: Sequence[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="cairn", message="%(prog)s %(version)s")
@click.option("--index", "index", default="default", show_default=True, metavar="NAME",
              help="Which index to use (one SQLite file each).")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help="Data folder (default: $CAIRN_HOME, else the platform's user data folder).")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, index: str, home: str | None, debug: bool) -> None:
    """cairn: exact, verifiable evidence from your notes, documents and code."""
    ctx.obj = State(home, index)
    ctx.meta["debug"] = debug


# --- collections --------------------------------------------------------------------


@cli.group()
def collection() -> None:
    """Add, configure, list and remove collections (named folders to index)."""


@collection.command("add")
@click.argument("path", type=click.Path())
@click.option("--name", help="Collection name (default: the folder's name).")
@click.option("--include", multiple=True, metavar="GLOB",
              help="Also index files matching GLOB (e.g. '**/*.py'); Markdown and text always are.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching GLOB.")
@click.option("--context", help="Guidance text describing the collection (for agents).")
@click.option("--sequence", is_flag=True,
              help="Numbered sibling files follow one another (chat turns D1-3.md, D1-4.md; journal "
                   "days): query lets each share its neighbours' relevance.")
@json_option
@pass_state
def collection_add(state: State, path: str, name: str | None, include: tuple[str, ...],
                   exclude: tuple[str, ...], context: str | None, sequence: bool, as_json: bool) -> None:
    """Register the folder PATH as a collection."""
    result = state.workspace.add_collection(path, name=name, include=include, exclude=exclude,
                                            context=context, sequence=sequence)
    if as_json:
        return emit_json(result)
    click.echo(f"added collection {result.name} → {result.root}" + (" (a sequence)" if result.sequence else ""))
    click.echo("next: cairn index")


@collection.command("configure")
@click.argument("name")
@click.option("--sequence/--no-sequence", default=None,
              help="Declare (or undeclare) the collection a sequence of numbered sibling files.")
@click.option("--context", help="New guidance text ('' clears it).")
@json_option
@pass_state
def collection_configure(state: State, name: str, sequence: bool | None, context: str | None,
                         as_json: bool) -> None:
    """Change the settings of collection NAME (no re-indexing needed)."""
    result = state.workspace.configure_collection(name, sequence=sequence, context=context)
    if as_json:
        return emit_json(result)
    click.echo(f"collection {result.name}: sequence {'on' if result.sequence else 'off'}"
               + (f"; context: {result.context}" if result.context else ""))


@collection.command("list")
@json_option
@pass_state
def collection_list(state: State, as_json: bool) -> None:
    """List collections with their document counts."""
    result = state.workspace.list_collections()
    if as_json:
        return emit_json(result)
    if not result.collections:
        click.echo("no collections; add one with: cairn collection add PATH")
    for col in result.collections:
        click.echo(f"{col.name}\t{col.documents} docs\t{col.passages} passages\t{col.root}"
                   + ("\tsequence" if col.sequence else ""))


@collection.command("remove")
@click.argument("name")
@json_option
@pass_state
def collection_remove(state: State, name: str, as_json: bool) -> None:
    """Forget collection NAME and its index entries (files are not touched)."""
    result = state.workspace.remove_collection(name)
    if as_json:
        return emit_json(result)
    click.echo(f"removed collection {result.name} ({result.documents_removed} documents)")


# --- indexing -------------------------------------------------------------------------


class ProgressBar:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, unit: str = "files") -> None:
        self.last = 0.0
        self.unit = unit

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total if total else width
        click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {self.unit}", nl=False, err=True)
        if done >= total:
            click.echo("", err=True)


def _index(state: State, collection_name: str | None, as_json: bool, embed: bool = False) -> None:
    progress = ProgressBar() if not as_json and sys.stderr.isatty() else None
    result = state.workspace.index(collection_name, progress=progress)
    if embed:
        embedded = state.workspace.embed(
            collection_name, progress=ProgressBar("passages") if progress is not None else None
        )
        if as_json:
            click.echo(json.dumps({"index": result.model_dump(mode="json"),
                                   "embed": embedded.model_dump(mode="json")}, ensure_ascii=False, indent=2))
            return None
    if as_json:
        return emit_json(result)
    n = result.counts
    click.echo(
        f"indexed {', '.join(result.collections)} in {result.elapsed_ms / 1000:.2f}s: "
        f"{n.added} added, {n.updated} updated, {n.unchanged} unchanged, {n.renamed} renamed, "
        f"{n.removed} removed, {n.reactivated} reactivated, {n.failed} failed"
    )
    if embed:
        click.echo(f"embedded {embedded.embedded} passages ({embedded.pending_after} pending)")
    for err in result.errors[:20]:
        click.echo(f"  failed {err.collection}/{err.path}: {err.code}: {err.message}", err=True)
    if len(result.errors) > 20:
        click.echo(f"  … and {len(result.errors) - 20} more (cairn status)", err=True)


@cli.command("index")
@click.option("--collection", "-c", "collection_name", metavar="NAME", help="Only this collection.")
@click.option("--embed", is_flag=True, help="Then embed pending passages (cairn embed).")
@json_option
@pass_state
def index_cmd(state: State, collection_name: str | None, embed: bool, as_json: bool) -> None:
    """Index new, changed, renamed and deleted files (alias: update)."""
    _index(state, collection_name, as_json, embed)


@cli.command("update")
@click.option("--collection", "-c", "collection_name", metavar="NAME", help="Only this collection.")
@json_option
@pass_state
def update_cmd(state: State, collection_name: str | None, as_json: bool) -> None:
    """Alias of index."""
    _index(state, collection_name, as_json)


# --- search ----------------------------------------------------------------------------


def filter_options(command: Callable[..., None]) -> Callable[..., None]:
    """The filters shared by search, vsearch and query."""
    for option in reversed([
        click.option("-n", "limit", default=10, show_default=True, type=int, help="Number of results."),
        click.option("-c", "--collection", "collections", multiple=True, metavar="NAME",
                     help="Only these collections (repeatable)."),
        click.option("--tags-any", multiple=True, metavar="a,b", help="Documents with any of these tags."),
        click.option("--tags-all", multiple=True, metavar="a,b", help="Documents with all of these tags."),
        click.option("--since", metavar="DATE", help="Documents dated on or after DATE."),
        click.option("--until", metavar="DATE", help="Documents dated on or before DATE."),
    ]):
        command = option(command)
    return command


def format_options(command: Callable[..., None]) -> Callable[..., None]:
    for option in reversed([
        click.option("--json", "fmt", flag_value="json", help="Print the JSON contract."),
        click.option("--md", "fmt", flag_value="md", help="Print Markdown."),
        click.option("--files", "fmt", flag_value="files", help="Print matching document URIs only."),
    ]):
        command = option(command)
    return command


def print_results(result: SearchResponse, query: str, fmt: str | None) -> None:
    if fmt == "json":
        return emit_json(result)
    if fmt == "files":
        for uri in dict.fromkeys(r.uri for r in result.results):
            click.echo(uri)
        return None
    for hint in result.meta.hints:
        click.echo(f"note: {hint}", err=True)
    if fmt == "md":
        click.echo(f"# Search: {query}\n")
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


@cli.command()
@click.argument("query")
@filter_options
@format_options
@pass_state
def search(state: State, query: str, limit: int, collections: tuple[str, ...], tags_any: tuple[str, ...],
           tags_all: tuple[str, ...], since: str | None, until: str | None, fmt: str | None) -> None:
    """BM25 search: plain words, "quoted phrases", -negation."""
    result = state.workspace.search(
        query, limit=limit, collections=collections, tags_any=split_csv(tags_any),
        tags_all=split_csv(tags_all), since=since, until=until,
    )
    print_results(result, query, fmt)


@cli.command()
@click.argument("query")
@filter_options
@format_options
@pass_state
def vsearch(state: State, query: str, limit: int, collections: tuple[str, ...], tags_any: tuple[str, ...],
            tags_all: tuple[str, ...], since: str | None, until: str | None, fmt: str | None) -> None:
    """Semantic search with the local embedding model (falls back to BM25 without vectors)."""
    result = state.workspace.vsearch(
        query, limit=limit, collections=collections, tags_any=split_csv(tags_any),
        tags_all=split_csv(tags_all), since=since, until=until,
    )
    print_results(result, query, fmt)


class DefaultGroup(click.Group):
    """A group that runs its default command when the first argument is not a subcommand
    (``cairn query TEXT`` and ``cairn query diagnose TEXT --target REF``)."""

    default_command = "run"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (not args or args[0] not in self.commands) and not (args and args[0] in ("-h", "--help")):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


@cli.group(cls=DefaultGroup)
def query() -> None:
    """Hybrid search (BM25 + vectors, fused): cairn query TEXT. Also: cairn query diagnose."""


def mode_options(command: Callable[..., None]) -> Callable[..., None]:
    for option in reversed([
        click.option("--fast", "mode", flag_value="fast",
                     help="BM25 + vectors only (no feedback round, no rerank; int8 query encoder)."),
        click.option("--thorough", "mode", flag_value="thorough",
                     help="Wider pseudo-relevance feedback (10 expansion words instead of 6), and rerank."),
    ]):
        command = option(command)
    return command


@query.command("run")
@click.argument("text", metavar="QUERY")
@filter_options
@mode_options
@click.option("--explain", is_flag=True, help="Show each stage's rank and score per result.")
@click.option("--graph", "graph", is_flag=True, help="Add one bounded hop of linked documents.")
@click.option("--all-passages", is_flag=True, help="Several passages per document.")
@format_options
@pass_state
def query_run(state: State, text: str, limit: int, collections: tuple[str, ...], tags_any: tuple[str, ...],
              tags_all: tuple[str, ...], since: str | None, until: str | None, mode: str | None,
              explain: bool, graph: bool, all_passages: bool, fmt: str | None) -> None:
    """Hybrid search: BM25 and vector rankings fused, one result per document."""
    result = state.workspace.query(
        text, limit=limit, mode=_mode(mode), explain=explain, graph=graph, all_passages=all_passages,
        collections=collections, tags_any=split_csv(tags_any), tags_all=split_csv(tags_all),
        since=since, until=until,
    )
    print_results(result, text, fmt)


def _mode(mode: str | None) -> QueryMode:
    return "fast" if mode == "fast" else "thorough" if mode == "thorough" else "default"


@query.command("diagnose")
@click.argument("text", metavar="QUERY")
@click.option("--target", required=True, metavar="REF", help="The document you expected to find.")
@filter_options
@mode_options
@json_option
@pass_state
def query_diagnose(state: State, text: str, target: str, limit: int, collections: tuple[str, ...],
                   tags_any: tuple[str, ...], tags_all: tuple[str, ...], since: str | None,
                   until: str | None, mode: str | None, as_json: bool) -> None:
    """Explain, stage by stage, whether and where QUERY finds the document REF."""
    result = state.workspace.query_diagnose(
        text, target, limit=limit, mode=_mode(mode), collections=collections,
        tags_any=split_csv(tags_any), tags_all=split_csv(tags_all), since=since, until=until,
    )
    if as_json:
        return emit_json(result)
    click.echo(f"target {result.target} (#{result.target_docid}) for query {result.query!r}")
    for st in result.stages:
        mark = "found" if st.found else ("skipped" if not st.ran else "missed")
        click.echo(f"  {st.stage:8} {mark:8} {st.note}")
    click.echo(f"verdict: {result.verdict}")
    return None


@cli.command()
@click.argument("ref")
@click.option("-n", "limit", default=10, show_default=True, type=int, help="Number of results.")
@click.option("-c", "--collection", "collections", multiple=True, metavar="NAME", help="Only these collections.")
@format_options
@pass_state
def similar(state: State, ref: str, limit: int, collections: tuple[str, ...], fmt: str | None) -> None:
    """Documents semantically nearest to REF."""
    result = state.workspace.similar(ref, limit=limit, collections=collections)
    print_results(result, ref, fmt)


@cli.command()
@click.option("--collection", "-c", "collection_name", metavar="NAME", help="Only this collection.")
@click.option("--batch", default=64, show_default=True, type=int, help="Passages per write transaction.")
@json_option
@pass_state
def embed(state: State, collection_name: str | None, batch: int, as_json: bool) -> None:
    """Embed passages that have no vector for the configured model (resumable)."""
    progress = ProgressBar("passages") if not as_json and sys.stderr.isatty() else None
    result = state.workspace.embed(collection_name, progress=progress, batch=batch)
    if as_json:
        return emit_json(result)
    click.echo(f"embedded {result.embedded} passages in {result.elapsed_ms / 1000:.1f}s "
               f"({result.pending_after} pending) with {result.embedder}")
    return None


# --- retrieval ---------------------------------------------------------------------------


@cli.command()
@click.argument("ref")
@click.option("--from", "from_line", type=int, metavar="LINE", help="First line (1-based).")
@click.option("--lines", type=int, metavar="N", help="Number of lines.")
@click.option("--line-numbers", is_flag=True, help="Prefix each line with its number.")
@json_option
@pass_state
def get(state: State, ref: str, from_line: int | None, lines: int | None, line_numbers: bool, as_json: bool) -> None:
    """Print a document's exact lines. REF: cairn://collection/path, collection/path or a docid."""
    result = state.workspace.get(ref, from_line=from_line, lines=lines)
    if as_json:
        return emit_json(result)
    _print_lines(result.text, result.start_line, line_numbers)


def _print_lines(text: str, start: int, numbered: bool) -> None:
    if not numbered:
        click.echo(text)
        return
    for offset, line in enumerate(text.split("\n")):
        click.echo(f"{start + offset:6d}  {line}")


@cli.command("multi-get")
@click.argument("refs", nargs=-1, required=True)
@click.option("--lines", type=int, metavar="N", help="At most N lines per document.")
@click.option("--line-numbers", is_flag=True, help="Prefix each line with its number.")
@json_option
@pass_state
def multi_get(state: State, refs: tuple[str, ...], lines: int | None, line_numbers: bool, as_json: bool) -> None:
    """Print several documents; exits 1 if any reference failed."""
    result = state.workspace.multi_get(refs, max_lines=lines)
    if as_json:
        emit_json(result)
    else:
        for item in result.items:
            if item.document is not None:
                click.echo(f"==> {item.document.uri} <==")
                _print_lines(item.document.text, item.document.start_line, line_numbers)
            elif item.error is not None:
                click.echo(f"error: {item.ref}: {item.error.message}", err=True)
    if any(item.error for item in result.items):
        sys.exit(1)


@cli.command()
@click.argument("prefix", required=False)
@json_option
@pass_state
def ls(state: State, prefix: str | None, as_json: bool) -> None:
    """List documents, optionally of COLLECTION or under a cairn:// URI prefix."""
    result = state.workspace.ls(prefix)
    if as_json:
        return emit_json(result)
    for doc in result.documents:
        click.echo(f"{doc.uri}\t#{doc.docid}\t{doc.lines} lines\t{doc.title}")


@cli.command()
@json_option
@pass_state
def status(state: State, as_json: bool) -> None:
    """Collections, counts, index size, last run, file errors and capabilities."""
    result = state.workspace.status()
    if as_json:
        return emit_json(result)
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
    if result.errors:
        click.echo(f"{len(result.errors)} file(s) failed:")
        for err in result.errors:
            click.echo(f"  {err.collection}/{err.path}: {err.code}: {err.message}")


@cli.command()
@json_option
@pass_state
def doctor(state: State, as_json: bool) -> None:
    """Check the installation, the index and the collections; exits 2 on a failed check."""
    result = state.workspace.doctor()
    if as_json:
        emit_json(result)
    else:
        for check in result.checks:
            click.echo(f"{check.status:4}  {check.name}: {check.detail}")
    if not result.ok:
        sys.exit(2)


# --- entry point -------------------------------------------------------------------------


def _fail(message: str, code: str, exit_code: int, as_json: bool) -> NoReturn:
    if as_json:
        click.echo(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        click.echo(f"error: {message}", err=True)
    sys.exit(exit_code)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: maps every error to an exit code, never a traceback."""
    from cairn.errors import CairnError

    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    ctx_debug = "--debug" in args
    try:
        rv: Any = cli.main(args=args, prog_name="cairn", standalone_mode=False)
        if isinstance(rv, int) and rv:
            sys.exit(rv)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        _fail("aborted", "aborted", 1, as_json)
    except click.ClickException as exc:
        message = exc.format_message()
        if isinstance(exc, click.UsageError) and exc.ctx is not None and not as_json:
            click.echo(exc.ctx.get_usage(), err=True)
        _fail(message, "usage", 1, as_json)
    except CairnError as exc:
        _fail(exc.message, exc.code, exc.exit_code, as_json)
    except KeyboardInterrupt:
        _fail("interrupted", "interrupted", 2, as_json)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:
        if ctx_debug:
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)",
              "internal", 2, as_json)


# --- link graph and tags (issue 4) ------------------------------------------------------
# (capsule_commands: context build/verify and ask, issue 5)
from cairn.interfaces.cli import capsule_commands as _capsule_commands  # noqa: E402,F401
from cairn.interfaces.cli import graph_commands as _graph_commands  # noqa: E402,F401
from cairn.interfaces.cli import serve_commands as _serve_commands  # noqa: E402,F401
