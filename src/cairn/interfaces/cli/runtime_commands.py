"""``cairn daemon``: the resident runtime in the foreground; ``cairn daemon status``;
``cairn daemon events`` (issue 16)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cairn.interfaces.cli import (
    DefaultGroup,
    State,
    cli,
    emit_json,
    operation_command,
    output_options,
    pass_state,
)

if TYPE_CHECKING:
    from cairn.contracts import RuntimeStatus


def runtime_line(status: RuntimeStatus) -> str:
    """One line for ``cairn status``: attached or not, lag, last error."""
    jobs = status.jobs
    queue = f"{jobs.get('queued', 0)} queued, {jobs.get('running', 0)} running, {jobs.get('failed', 0)} failed"
    match status.state:
        case "running":
            line = (f"runtime: running (pid {status.pid}, last beat {status.beat_age_s:.0f} s ago, "
                    f"lag {(status.lag_ms or 0) / 1000:.1f} s; jobs: {queue})")
        case "stopped":
            line = f"runtime: stopped (last beat {status.beat_age_s:.0f} s ago; jobs: {queue})"
        case "never":
            line = f"runtime: none (start one with: cairn daemon; jobs: {queue})"
    if status.last_error:
        line += f"\nruntime last error: {status.last_error}"
    return line


def _print_runtime(result: RuntimeStatus, args: dict[str, Any]) -> None:
    click.echo(runtime_line(result))
    for job in result.failed_jobs:
        click.echo(f"  failed job {job.id} ({job.kind}, {job.attempts} attempts): {job.error}")


@cli.group(cls=DefaultGroup, default="run")
def daemon() -> None:
    """The resident runtime: watch the collections and keep the index current (cairn daemon)."""


@daemon.command("run")
@click.option("--debounce", "debounce_ms", default=1600, show_default=True, type=click.IntRange(50, 60_000),
              help="Group file changes for at most this many ms (a batch goes once changes pause 50 ms).")
@click.option("--embed/--no-embed", "embed", default=None,
              help="Embed new passages after indexing (default: when the index has vectors).")
@click.option("--no-catch-up", is_flag=True, help="Do not reconcile every collection at start.")
@pass_state
def daemon_run(state: State, debounce_ms: int, embed: bool | None, no_catch_up: bool) -> None:
    """Watch every collection's folder and re-index the changed paths, then embed new
    passages and reverify saved capsules, until SIGINT or SIGTERM. One runtime per index;
    `cairn status` shows whether it runs, its lag and last error."""
    import logging
    import os

    from cairn.runtime.daemon import RuntimeSettings
    from cairn.workspace import RUNTIME_HEARTBEAT_S

    logging.basicConfig(level=logging.WARNING, format="cairn daemon: %(message)s")
    ws = state.workspace
    settings = RuntimeSettings(debounce_ms=debounce_ms, embed=embed, catch_up=not no_catch_up,
                               heartbeat_s=RUNTIME_HEARTBEAT_S)
    runtime = ws.runtime(settings=settings)
    collections = ws.list_collections().collections
    click.echo(f"cairn daemon: pid {os.getpid()}, watching {len(collections)} collection(s) of index "
               f"{ws.index_name!r} (debounce {debounce_ms} ms); stop with Ctrl-C or SIGTERM", err=True)
    runtime.run_forever()
    click.echo("cairn daemon: stopped", err=True)


operation_command(daemon, "runtime_status", "status",
                  help="Whether a runtime keeps the index current, its lag, last error and jobs.",
                  params=[output_options()], render=_print_runtime)


@daemon.command("events")
@click.option("--after", default=0, show_default=True, type=click.IntRange(0), help="Events after this id.")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 1000), help="At most N events.")
@output_options()
@pass_state
def daemon_events(state: State, after: int, limit: int, fmt: str | None) -> None:
    """The runtime's committed events after an id (what GET /api/events streams)."""
    result = state.workspace.runtime_events(after=after, limit=limit)
    if fmt == "json":
        return emit_json(result)
    for event in result.events:
        click.echo(f"{event.id} {event.at} {event.kind} {event.data}")
    return None
