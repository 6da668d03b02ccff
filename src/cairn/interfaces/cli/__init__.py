"""The ``cairn`` command line, declared from the operation table.

A command that serves an operation (:mod:`cairn.interfaces.operations`) is declared with
:func:`operation_command`: its arguments and options come from the operation's input
model (:func:`field_argument`, :func:`field_option`: name, type, default and description
of each field, overridden only where the CLI differs, such as ``-n`` for ``limit``), the
option groups several commands share are decorators (:func:`filter_options`,
:func:`output_options`), and one generic body calls the Workspace and prints: ``--json``
the contract, otherwise the command's human renderer. Commands that are not operations
(``serve``, ``mcp``, ``doctor``, ...) are written by hand with the same decorators.

Exit codes: 0 ok, 1 usage or validation error, 2 runtime error. With ``--json`` an
error is printed as ``{"error": {"code", "message"}}`` on stdout.
"""

from __future__ import annotations

import json
import sys
import time
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, Union, get_args, get_origin

import click

from cairn import __version__
from cairn.interfaces.operations import Operation, operation

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cairn.workspace import Workspace

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
#: Prints a result for people; gets the command's arguments and options by name (``fmt`` too).
Render = Callable[[Any, dict[str, Any]], None]
#: Calls the Workspace for a command: (operation, workspace, keyword arguments, format).
Call = Callable[[Operation, "Workspace", dict[str, Any], "str | None"], Any]


class State:
    """Global options, and the workspace opened from them on first use."""

    def __init__(self, home: str | None, index: str, quiet: bool = False) -> None:
        self.home = home
        self.index = index
        self.quiet = quiet
        self._workspace: Workspace | None = None

    @property
    def workspace(self) -> Workspace:
        if self._workspace is None:
            import cairn

            self._workspace = cairn.open(self.home, self.index)
        return self._workspace


pass_state = click.make_pass_decorator(State)


def emit_json(model: BaseModel) -> None:
    click.echo(json.dumps(model.model_dump(mode="json"), ensure_ascii=False, indent=2))


def split_csv(values: Sequence[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


class DefaultGroup(click.Group):
    """A group that runs its default subcommand unless the line names another one:
    ``cairn query TEXT`` is ``cairn query run TEXT``.

    A first word that names a subcommand is taken as one only when the rest of the line
    parses as that subcommand (or the whole line does not parse as the default either),
    so ``cairn query run`` and ``cairn query diagnose -n 3`` search for that word. Its
    ``--help`` shows the default subcommand's options, then the subcommands."""

    def __init__(self, *args: Any, default: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.default = default

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not (args and args[0] in ("-h", "--help")) and not self._names_subcommand(ctx, args):
            args = [self.default, *args]
        return super().parse_args(ctx, args)

    def _names_subcommand(self, ctx: click.Context, args: list[str]) -> bool:
        if not args or args[0] not in self.commands:
            return False
        if any(arg in ("-h", "--help") for arg in args[1:]):
            return True
        return (self._parses(ctx, args[0], args[1:])
                or not self._parses(ctx, self.default, args))

    def _parses(self, ctx: click.Context, name: str, args: list[str]) -> bool:
        try:
            with self.commands[name].make_context(name, list(args), parent=ctx):
                return True
        except click.UsageError:
            return False

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        default = self.commands[self.default]
        formatter.write_usage(ctx.command_path, " ".join(default.collect_usage_pieces(ctx)))
        formatter.write_usage(ctx.command_path, "COMMAND [ARGS]...", prefix="   or: ")
        self.format_help_text(ctx, formatter)
        default.format_options(ctx, formatter)
        self.format_commands(ctx, formatter)
        self.format_epilog(ctx, formatter)


class OperationCommand(click.Command):
    """A command that serves one operation of the table (the parity tests find it by that)."""

    def __init__(self, *args: Any, operation: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.operation = operation


# --- options from the input models ------------------------------------------------------


def _field_type(model: type[BaseModel], field: str) -> tuple[Any, bool]:
    """The field's type without ``Annotated`` and ``None``, and whether ``None`` is allowed."""
    annotation = model.model_fields[field].annotation
    nullable = False
    if get_origin(annotation) in (Union, types.UnionType):
        members = [arg for arg in get_args(annotation) if arg is not type(None)]
        nullable = len(members) < len(get_args(annotation))
        annotation = members[0]
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation, nullable


def field_option(model: type[BaseModel], field: str, *decls: str, csv: bool = False,
                 **attrs: Any) -> Decorator:
    """An option for the input model's ``field``: ``--field-name`` (or ``decls``), with the
    field's type, default and description; ``attrs`` override what the CLI says otherwise.

    A list is a repeatable option (``csv``: each value may also be ``a,b``), ``bool`` a flag,
    ``bool | None`` a ``--x/--no-x`` switch, a ``Literal`` a choice."""
    info = model.model_fields[field]
    kind, nullable = _field_type(model, field)
    name = "--" + field.replace("_", "-")
    default = None if info.is_required() else info.get_default(call_default_factory=True)
    options: dict[str, Any] = {"help": info.description}
    if kind is bool and nullable:
        decls = decls or (f"{name}/--no-{name[2:]}",)
        options["default"] = None
    elif kind is bool:
        options["is_flag"] = True
    elif get_origin(kind) is list:
        options["multiple"] = True
    elif get_origin(kind) is Literal:
        options.update(type=click.Choice(get_args(kind)), default=default, show_default=True)
    else:
        options["type"] = kind
        if default is not None:
            options.update(default=default, show_default=True)
    if csv:
        options["callback"] = lambda _ctx, _param, values: split_csv(values)
    options.update(attrs)
    return click.option(*(decls or (name,)), field, **options)


def field_argument(model: type[BaseModel], field: str, **attrs: Any) -> Decorator:
    """A positional argument for the input model's ``field`` (a list takes one or more)."""
    kind, _ = _field_type(model, field)
    options: dict[str, Any] = {"nargs": -1, "required": True} if get_origin(kind) is list else {}
    options.update(attrs)
    return click.argument(field, **options)


def decorators(*items: Decorator) -> Decorator:
    """Several decorators as one, applied so that they read (and show in --help) top-down."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for item in reversed(items):
            command = item(command)
        return command

    return apply


def output_options(*formats: str, json_help: str = "Print the JSON contract.",
                   md_help: str = "Print Markdown.") -> Decorator:
    """``--json`` (and ``--md``, ``--files``): the output format, passed on as ``fmt``."""
    helps = {"json": json_help, "md": md_help, "files": "Print matching document URIs only."}
    return decorators(*(click.option(f"--{fmt}", "fmt", flag_value=fmt, help=helps[fmt])
                        for fmt in formats or ("json",)))


_SEARCH = operation("search").input

#: -c, --tags-any, --tags-all, --since, --until: what search, query, context and ask share.
scope_filters = decorators(
    field_option(_SEARCH, "collections", "-c", "--collection", metavar="NAME",
                 help="Only these collections (repeatable)."),
    field_option(_SEARCH, "tags_any", csv=True, metavar="a,b"),
    field_option(_SEARCH, "tags_all", csv=True, metavar="a,b"),
    field_option(_SEARCH, "since", metavar="DATE", help="Documents dated on or after DATE."),
    field_option(_SEARCH, "until", metavar="DATE", help="Documents dated on or before DATE."),
)
limit_option = field_option(_SEARCH, "limit", "-n")
#: -n and the scope filters of search, vsearch and query.
filter_options = decorators(limit_option, scope_filters)
#: --fast / --thorough: the query mode (default: default).
mode_options = decorators(
    click.option("--fast", "mode", flag_value="fast",
                 help="BM25 + vectors, one feedback round over the candidates only (BM25 with 6 expansion "
                      "words re-scores them, the moved vector ranks them; no second pass over the index, no rerank)."),
    click.option("--thorough", "mode", flag_value="thorough",
                 help="Wider pseudo-relevance feedback (10 expansion words instead of 6), and rerank."),
    click.option("--default-mode", "mode", flag_value="default", default=True, hidden=True),
)
#: -c NAME: one collection (index, embed, tags, graph).
collection_option = field_option(operation("index").input, "collection", "--collection", "-c",
                                 metavar="NAME", help="Only this collection.")


# --- one body for every operation command -------------------------------------------------


#: Seconds between progress lines when stderr is not a terminal ($CAIRN_PROGRESS_INTERVAL).
PROGRESS_INTERVAL = 5.0


def _interval() -> float:
    import os

    try:
        return max(0.05, float(os.environ.get("CAIRN_PROGRESS_INTERVAL", PROGRESS_INTERVAL)))
    except ValueError:
        return PROGRESS_INTERVAL


def _quiet() -> bool:
    ctx = click.get_current_context(silent=True)
    state = ctx.find_object(State) if ctx is not None else None
    return bool(state is not None and state.quiet)


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


class ProgressLines:
    """Progress as plain lines on stderr (for logs and pipes): the first call, then at
    most one line every ``interval`` seconds, and the last."""

    def __init__(self, unit: str, interval: float | None = None) -> None:
        self.unit = unit
        self.interval = _interval() if interval is None else interval
        self.last: float | None = None
        self.finished = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        final = done >= total
        if self.finished or (not final and self.last is not None and now - self.last < self.interval):
            return
        self.last = now
        self.finished = final
        click.echo(f"cairn: {done}/{total} {self.unit}{' done' if final else ''}", err=True)


def progress_bar(unit: str, fmt: str | None) -> ProgressBar | ProgressLines | None:
    """How long work reports progress on stderr: a bar when a person watches (a terminal,
    no ``--json``), periodic lines when stderr is not a terminal, nothing with ``--quiet``."""
    if _quiet():
        return None
    if sys.stderr.isatty():
        return ProgressBar(unit) if fmt is None else None
    return ProgressLines(unit)


class busy:
    """While the block runs: a spinner with the elapsed seconds on a terminal, else a
    line now and one every interval; nothing with ``--quiet``."""

    def __init__(self, what: str, interval: float | None = None) -> None:
        import threading

        self.what = what
        self.interval = _interval() if interval is None else interval
        self.enabled = not _quiet()
        self.tty = sys.stderr.isatty()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> busy:
        if self.enabled:
            if not self.tty:
                click.echo(f"cairn: {self.what}...", err=True)
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.enabled:
            self.thread.join()
            if self.tty:
                click.echo("\r\033[K", nl=False, err=True)

    def _run(self) -> None:
        start = time.monotonic()
        frames = "|/-\\"
        tick = 0
        while not self.done.wait(0.1 if self.tty else self.interval):
            elapsed = time.monotonic() - start
            if self.tty:
                click.echo(f"\r{frames[tick % 4]} {self.what} ({elapsed:.0f} s)", nl=False, err=True)
                tick += 1
            else:
                click.echo(f"cairn: still {self.what} ({elapsed:.0f} s)", err=True)


def operation_command(group: click.Group, op_name: str, name: str | None = None, *,
                      params: Sequence[Decorator], render: Render, help: str,
                      view: Sequence[str] = (), call: Call | None = None,
                      dump: Callable[[Any], None] = emit_json,
                      exit_code: Callable[[Any], int] | None = None,
                      progress: str | None = None) -> click.Command:
    """Declare the command ``name`` of ``group`` that serves operation ``op_name``.

    ``params`` are its arguments and options; each one's value goes to the Workspace as the
    keyword of the same name, except ``fmt`` and the ``view`` options (for ``render`` only).
    ``call`` replaces the plain call, ``dump`` the JSON output, ``exit_code`` says how the
    printed result exits, ``progress`` names the unit of a progress bar on a terminal."""
    op = operation(op_name)

    def body(**values: Any) -> None:
        state = click.get_current_context().find_object(State)
        assert state is not None
        fmt = values.get("fmt")
        args = {key: value for key, value in values.items() if key != "fmt" and key not in view}
        if progress is not None:
            args["progress"] = progress_bar(progress, fmt)
        result = (call or _plain_call)(op, state.workspace, args, fmt)
        if fmt == "json":
            dump(result)
        else:
            render(result, values)
        if exit_code is not None and (code := exit_code(result)):
            sys.exit(code)

    command = decorators(*params)(body)
    return group.command(name or op_name, cls=OperationCommand, operation=op.name, help=help)(command)


def _plain_call(op: Operation, workspace: Workspace, args: dict[str, Any], fmt: str | None) -> Any:
    return op.call_with(workspace, args)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="cairn", message="%(prog)s %(version)s")
@click.option("--index", "index", default="default", show_default=True, metavar="NAME",
              help="Which index to use (one SQLite file each).")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help="Data folder (default: $CAIRN_HOME, else the platform's user data folder).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines or bars on stderr.")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, index: str, home: str | None, quiet: bool, debug: bool) -> None:
    """cairn: exact, verifiable evidence from your notes, documents and code."""
    ctx.obj = State(home, index, quiet)
    ctx.meta["debug"] = debug


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


# --- the commands ------------------------------------------------------------------------
from cairn.interfaces.cli import capsule_commands as _capsule_commands  # noqa: E402,F401
from cairn.interfaces.cli import code_commands as _code_commands  # noqa: E402,F401  (issue 15)
from cairn.interfaces.cli import commands as _commands  # noqa: E402,F401
from cairn.interfaces.cli import delta_commands as _delta_commands  # noqa: E402,F401  (issue 16)
from cairn.interfaces.cli import graph_commands as _graph_commands  # noqa: E402,F401
from cairn.interfaces.cli import memory_commands as _memory_commands  # noqa: E402,F401  # agent memory (issue 14)
from cairn.interfaces.cli import plan_commands as _plan_commands  # noqa: E402,F401 - issue 14
from cairn.interfaces.cli import runtime_commands as _runtime_commands  # noqa: E402,F401
from cairn.interfaces.cli import serve_commands as _serve_commands  # noqa: E402,F401
