"""``cairn serve`` (REST + MCP over HTTP), ``cairn mcp`` (stdio), ``mcp install``/``status``.

The server libraries (mcp, fastapi, uvicorn) are imported inside the commands only, so
``cairn --version`` and ``cairn search`` start as fast as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cairn.interfaces.cli import DefaultGroup, State, cli, emit_json, output_options, pass_state

if TYPE_CHECKING:
    from cairn.contracts.mcp import McpClientEntry
    from cairn.runtime.events import EventBus
    from cairn.workspace import Workspace

TARGET = click.Choice(["claude-desktop", "claude-code", "cursor", "vscode", "codex"])


def _factory(state: State) -> tuple[Workspace, Callable[[], Workspace]]:
    """Fail early on a bad --home/--index; return a probe workspace and a factory for
    workers. Every worker's Workspace shares the probe's ModelHub: one loaded model and one
    vector cache per process, however many threads serve."""
    from cairn.workspace import open_workspace

    probe = state.workspace
    home, index, models = state.home, state.index, probe.models

    def factory() -> Workspace:
        return open_workspace(home, index, models=models)

    return probe, factory


def _missing_extra() -> None:
    import importlib.util

    missing = [m for m in ("mcp", "fastapi", "uvicorn", "sse_starlette", "watchfiles")
               if importlib.util.find_spec(m) is None]
    if missing:
        from cairn.errors import ValidationError

        raise ValidationError(f"{', '.join(missing)} not installed: pip install 'cairn[serve]'")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. Anything but loopback requires --token.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port (0: any free port; the chosen one is printed).")
@click.option("--token", default=None, metavar="TOKEN",
              help="Bearer token required on every request (default: $CAIRN_TOKEN, else [serve] token in config.toml).")
@click.option("--enable-write", is_flag=True,
              help="Expose capture, collection add and configure, index and embed (REST and MCP).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="HOST",
              help="Also accept this Host header (besides localhost, 127.0.0.1, [::1]).")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Also accept this Origin (e.g. https://app.example).")
@click.option("--max-body", default=1 << 20, show_default=True, type=click.IntRange(1024, 64 << 20),
              help="Largest request body in bytes.")
@click.option("--workers", default=4, show_default=True, type=click.IntRange(1, 64),
              help="Worker threads (each holds its own index connection).")
@click.option("--no-mcp", is_flag=True, help="Do not mount the MCP endpoint at /mcp.")
@click.option("--no-watch", is_flag=True,
              help="Do not run the resident runtime (watching, jobs, live events; see cairn daemon).")
@pass_state
def serve(state: State, host: str, port: int, token: str | None, enable_write: bool,
          allow_hosts: tuple[str, ...], allow_origins: tuple[str, ...], max_body: int, workers: int,
          no_mcp: bool, no_watch: bool) -> None:
    """Serve the REST API (a page at /docs, OpenAPI at /openapi.json) and MCP over streamable HTTP at /mcp."""
    _missing_extra()
    import socket

    import uvicorn

    from cairn.interfaces.http import ServeSettings, create_app

    probe, factory = _factory(state)
    settings = ServeSettings(
        host=host, port=port, token=token or probe.settings.serve_token, enable_write=enable_write, allowed_hosts=allow_hosts,
        allowed_origins=allow_origins, max_body_bytes=max_body, workers=workers, mcp=not no_mcp,
    )
    bus = None
    if not no_watch:  # the resident runtime (issue 16)
        from cairn.runtime.events import EventBus

        bus = EventBus()
    app = create_app(factory, settings, bus=bus)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        from cairn.errors import ValidationError

        raise ValidationError(f"cannot bind {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)  # connections wait in the backlog while the runtime starts (issue 16)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"cairn serve: http://{shown}:{bound} (REST /v1, API page /docs, OpenAPI /openapi.json"
               f"{', MCP /mcp' if not no_mcp else ''}; {'read-write' if enable_write else 'read-only'})",
               err=True)
    sys.stderr.flush()
    index_exists = probe.index_path.exists()
    probe.close()
    from cairn.interfaces.http.wire import uvicorn_config

    config = uvicorn_config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=5)
    started = _start_runtime(factory, bus, index_exists) if bus is not None else None
    if started is None:
        uvicorn.Server(config).run(sockets=[sock])
        return
    stop_runtime: Callable[[], None] = started

    class Server(uvicorn.Server):
        """Stops the runtime as the server shuts down: before uvicorn re-raises SIGTERM."""

        async def shutdown(self, sockets: Any = None) -> None:
            import asyncio

            await super().shutdown(sockets)
            await asyncio.to_thread(stop_runtime)

    stopped = False
    try:
        Server(config).run(sockets=[sock])
        stopped = True
    finally:
        if not stopped:
            stop_runtime()


def _start_runtime(factory: Callable[[], Workspace], bus: EventBus, index_exists: bool) -> Callable[[], None] | None:
    """Start the resident runtime on a Workspace of its own; returns how to stop it (None
    when it did not start: no index yet, or another runtime keeps this index)."""
    from cairn.errors import BusyError

    if not index_exists:
        click.echo("cairn serve: no index yet, runtime not started (add a collection, then restart)", err=True)
        return None
    keeper = factory()
    try:
        runtime = keeper.runtime(bus=bus)
        runtime.start()
    except BusyError:
        keeper.close()
        click.echo("cairn serve: another runtime keeps this index current; /api/events reads its log", err=True)
        return None
    click.echo(f"cairn serve: runtime watching {len(runtime.watched)} collection(s); /api/events streams", err=True)

    def stop() -> None:
        runtime.stop()
        keeper.close()

    return stop


@cli.group(cls=DefaultGroup, default="run")
def mcp() -> None:
    """MCP server over stdio (cairn mcp [--enable-write]); client setup: install, status."""


@mcp.command("run")
@click.option("--enable-write", is_flag=True, help="Expose the write tools (capture, collection_add, collection_configure, index, embed).")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="Worker threads.")
@pass_state
def mcp_run(state: State, enable_write: bool, workers: int) -> None:
    """Serve MCP over stdin/stdout (what AI clients launch). Read-only by default."""
    _missing_extra()
    # Not cairn.interfaces.mcp: the SDK it imports takes over a second to load, and the
    # client's `initialize` is answered before that (see cairn.interfaces.mcp_handshake).
    from cairn.interfaces.mcp_stdio import serve_stdio
    from cairn.interfaces.pool import WorkspacePool

    probe, factory = _factory(state)
    probe.close()
    pool = WorkspacePool(factory, workers)
    try:
        serve_stdio(pool, enable_write=enable_write)
    finally:
        pool.close()


def _entry(state: State, enable_write: bool) -> McpClientEntry:
    """The command a client runs: this cairn, by absolute path, pinned to this data folder."""
    import shutil

    from cairn.contracts.mcp import McpClientEntry

    script = Path(sys.executable).parent / "cairn"
    prefix: list[str] = []
    found = shutil.which("cairn")
    if script.exists():
        command = str(script.absolute())
    elif found:
        command = str(Path(found).absolute())
    else:
        command, prefix = str(Path(sys.executable).absolute()), ["-c", "from cairn.interfaces.cli import main; main()"]
    args = [*prefix, "--home", str(state.workspace.paths.data_dir)]
    if state.index != "default":
        args += ["--index", state.index]
    args.append("mcp")
    if enable_write:
        args.append("--enable-write")
    return McpClientEntry(command=command, args=args)


@mcp.command("install")
@click.option("--target", required=True, type=TARGET, help="Which client's config file to edit.")
@click.option("--name", default="cairn", show_default=True, help="Server name in the client's config.")
@click.option("--enable-write", is_flag=True, help="Let the client use the write tools.")
@click.option("--dry-run", is_flag=True, help="Print the new file; change nothing.")
@click.option("--hooks", is_flag=True,
              help="Also add cairn's agent hooks (claude-code: ~/.claude/settings.json, as `cairn hook install`).")
@output_options()
@pass_state
def mcp_install(state: State, target: str, name: str, enable_write: bool, dry_run: bool, hooks: bool,
                fmt: str | None) -> None:
    """Add cairn to an AI client's MCP config (other servers kept; old file backed up)."""
    from cairn.errors import ValidationError
    from cairn.interfaces.hook_install import HOOK_TARGETS, hook_command, install_hooks
    from cairn.interfaces.mcp_install import install

    command = hook_command(Path(sys.executable), state.workspace.paths.data_dir, state.index)
    if hooks:
        if target not in HOOK_TARGETS:
            raise ValidationError(f"--hooks: {target} has no hooks cairn can configure "
                                  f"(only {', '.join(HOOK_TARGETS)})")
        install_hooks(command, home=Path.home(), dry_run=True)  # a broken settings file stops us before any write
    result = install(target, _entry(state, enable_write), home=Path.home(), platform=sys.platform,  # type: ignore[arg-type]
                     name=name, dry_run=dry_run)
    if hooks:
        result = result.model_copy(update={"hooks": install_hooks(command, home=Path.home(), dry_run=dry_run)})
    if fmt == "json":
        return emit_json(result)
    if dry_run:
        click.echo(f"# {result.path} ({result.action}, dry run: nothing written)")
        click.echo(result.content, nl=False)
        if result.hooks is not None:
            click.echo(f"# {result.hooks.path} ({result.hooks.action}, dry run: nothing written)")
            click.echo(result.hooks.content, nl=False)
        return None
    click.echo(f"{result.action} {result.path}: server {result.server_name!r} → "
               f"{result.entry.command} {' '.join(result.entry.args)}")
    if result.backup:
        click.echo(f"previous file saved as {result.backup}")
    if result.hooks is not None:
        click.echo(f"{result.hooks.action} {result.hooks.path}: hooks for {', '.join(result.hooks.events)}")
        if result.hooks.backup:
            click.echo(f"previous file saved as {result.hooks.backup}")
    if result.action != "unchanged" or (result.hooks is not None and result.hooks.action != "unchanged"):
        click.echo(f"restart {target} to load it")
    return None


@mcp.command("status")
@click.option("--name", default="cairn", show_default=True, help="Server name in the clients' configs.")
@output_options()
@pass_state
def mcp_status(state: State, name: str, fmt: str | None) -> None:
    """Show which AI clients have cairn configured, and whether the entry is current."""
    from cairn.interfaces.mcp_install import status

    result = status(_entry(state, False), home=Path.home(), platform=sys.platform, name=name)
    if fmt == "json":
        return emit_json(result)
    for row in result.targets:
        if row.error:
            mark = f"unreadable: {row.error}"
        elif row.installed:
            mark = "installed" + ("" if row.current else " (differs from this cairn: rerun mcp install)")
        else:
            mark = "not installed" if row.file_exists else "no config file"
        click.echo(f"{row.target:15} {mark:16} {row.path}")
    return None
