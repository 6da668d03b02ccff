"""``cairn memory add|search|show|pin|correct|resolve|signal|history|archive|restore|export``
and ``cairn hook EVENT`` (agent memory, issue 14).

Each ``memory`` command is declared from its operation; written here is how it prints
(``--json``: the contract). ``cairn hook`` reads a coding agent's hook JSON on stdin and
appends one event (:mod:`cairn.interfaces.hook`; the console script reaches it without
loading this package).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from cairn.interfaces.cli import (
    State,
    cli,
    field_argument,
    field_option,
    operation_command,
    output_options,
)
from cairn.interfaces.hook import HOOK_EVENTS
from cairn.interfaces.operations import Operation, operation

if TYPE_CHECKING:
    from cairn.contracts.memory import (
        MemoryExport,
        MemoryHistory,
        MemoryItem,
        MemorySearchResult,
        MemoryWriteResult,
    )
    from cairn.workspace import Workspace


@cli.group()
def memory() -> None:
    """Agent memory: observations and claims with evidence, signals and history."""


def _project(model: Any) -> Any:
    return field_option(model, "project", metavar="PROJECT")


def _state(item: MemoryItem) -> str:
    marks = [item.status, item.quality, item.freshness]
    if item.pinned:
        marks.append("pinned")
    if item.contested_with:
        marks.append("contested")
    if item.superseded_by:
        marks.append(f"superseded by {item.superseded_by}")
    return ", ".join(marks)


def _headline(item: MemoryItem) -> str:
    if item.kind == "claim":
        return f"{item.subject} — {item.predicate} — {item.object}"
    return f"[{item.type}] {item.title}"


def _print_item(item: MemoryItem, args: dict[str, Any]) -> None:
    click.echo(f"{item.id}  {_headline(item)}  ({_state(item)})")
    if item.narrative:
        click.echo(item.narrative)
    for fact in item.facts:
        click.echo(f"  - {fact}")
    for ev in item.evidence:
        span = f":{ev.start}-{ev.end}" if ev.start is not None else ""
        click.echo(f"  {ev.relation} {ev.kind}:{ev.target}{span}")
    for reason in item.stale_reasons:
        click.echo(f"  ! {reason}")
    click.echo(f"  {item.visibility} · {item.project} · revision {item.revision or 1} · {item.updated_at}")


def _print_write(result: MemoryWriteResult, args: dict[str, Any]) -> None:
    click.echo(f"{result.action}: {result.item.id}  {_headline(result.item)}  ({_state(result.item)})")
    if result.redactions:
        click.echo(f"{result.redactions} secret(s) redacted before writing", err=True)
    if result.affected:
        click.echo("also changed: " + ", ".join(result.affected))
    for hint in result.hints:
        click.echo(hint, err=True)


def _print_search(result: MemorySearchResult, args: dict[str, Any]) -> None:
    for hit in result.results:
        click.echo(f"{hit.score:8.4g}  {hit.item.id}  {_headline(hit.item)}  ({_state(hit.item)})")
    if not result.results:
        click.echo(f"no memory matches (project {result.project})", err=True)


def _print_history(result: MemoryHistory, args: dict[str, Any]) -> None:
    events: list[tuple[int, str, str, str | None, str | None]] = [
        (e.seq, e.at, e.action, e.actor, None) for e in result.entries]
    events += [(s.seq, s.at, f"signal {s.kind}", s.actor, s.note) for s in result.signals]
    for _, at, what, actor, note in sorted(events, key=lambda e: (e[1], e[2].startswith("signal"), e[0])):
        click.echo(f"{at}  {what}" + (f"  by {actor}" if actor else "") + (f"  — {note}" if note else ""))
    click.echo(f"quality: {result.quality}")


def _print_export(result: MemoryExport, args: dict[str, Any]) -> None:
    if result.path:
        click.echo(f"wrote {result.records} record(s) to {result.path}", err=True)
    else:
        click.echo(result.markdown, nl=False)


def _export_call(op: Operation, workspace: Workspace, args: dict[str, Any], fmt: str | None) -> Any:
    output = args.pop("output", None)
    return workspace.memory_export(output, **args)


_SEARCH = operation("memory_search").input
_ID = operation("memory_show").input
_ADD = operation("memory_add").input
_PIN = operation("memory_pin").input
_CORRECT = operation("memory_correct").input
_RESOLVE = operation("memory_resolve").input
_SIGNAL = operation("memory_signal").input
_EXPORT = operation("memory_export").input

operation_command(memory, "memory_add", "add", render=_print_write, help=(
    "Store an observation (TITLE [NARRATIVE]) or, with --subject/--predicate/--object, a claim. "
    "Secrets are redacted first; --topic-key revises the observation with that key."), params=[
    field_argument(_ADD, "title", required=False),
    field_argument(_ADD, "narrative", required=False, default=""),
    # A plain string: an unknown type is the service's invalid_input, as on every face.
    field_option(_ADD, "type", "--type", "-t", type=str, metavar="TYPE",
                 help="decision, gotcha, fix, how-it-works, problem-solution, trade-off, preference "
                      "or what-changed."),
    field_option(_ADD, "facts", "--fact", metavar="TEXT", help="A short fact (repeatable)."),
    field_option(_ADD, "files", "--file", metavar="PATH", help="A bound file, relative to the project root (repeatable)."),
    field_option(_ADD, "symbols", "--symbol", metavar="SYMBOL",
                 help="A bound symbol, as `cairn code symbols` names it (pkg.mod.func) or PATH::NAME; "
                      "checked by body hash against the code snapshot (repeatable)."),
    field_option(_ADD, "concepts", "--concept", csv=True, metavar="a,b", help="Concepts or tags."),
    field_option(_ADD, "topic_key", metavar="KEY"),
    field_option(_ADD, "source"),
    field_option(_ADD, "visibility"),
    field_option(_ADD, "evidence", "--evidence", "-e", metavar="REF",
                 help="DOCID:START-END, file:PATH or commit:SHA; verifies@/contradicts@ prefix (repeatable)."),
    field_option(_ADD, "observed_at", metavar="DATE"),
    field_option(_ADD, "subject", metavar="TEXT"),
    field_option(_ADD, "predicate", metavar="TEXT"),
    field_option(_ADD, "object", metavar="TEXT"),
    field_option(_ADD, "supersedes", metavar="ID"),
    _project(_ADD),
    output_options(),
])
operation_command(memory, "memory_search", "search", render=_print_search,
                  help="BM25 over the memory you may see (your project, your personal records, team records).",
                  params=[field_argument(_SEARCH, "text"), field_option(_SEARCH, "limit", "-n"),
                          field_option(_SEARCH, "include_archived"), _project(_SEARCH), output_options()])
operation_command(memory, "memory_show", "show", render=_print_item,
                  help="One record with its evidence, quality, freshness and conflict state.",
                  params=[field_argument(_ID, "id"), _project(_ID), output_options()])
operation_command(memory, "memory_pin", "pin", render=_print_write, help="Pin a record (a user-pin signal).",
                  params=[field_argument(_PIN, "id"), field_option(_PIN, "note"), _project(_PIN), output_options()])
operation_command(memory, "memory_correct", "correct", render=_print_write,
                  help="Correct a record (TEXT: new narrative, or a claim's new object): a new revision "
                       "and a user-correction signal.",
                  params=[field_argument(_CORRECT, "id"), field_argument(_CORRECT, "text", required=False),
                          field_option(_CORRECT, "title"),
                          field_option(_CORRECT, "facts", "--fact", metavar="TEXT"),
                          field_option(_CORRECT, "concepts", "--concept", csv=True, metavar="a,b"),
                          field_option(_CORRECT, "note"), _project(_CORRECT), output_options()])
operation_command(memory, "memory_resolve", "resolve", render=_print_write,
                  help="Settle contested claims about TARGET (subject|predicate or a claim id): --keep ID "
                       "stands, the others are superseded (kept, with history).",
                  params=[field_argument(_RESOLVE, "target"), field_option(_RESOLVE, "keep", required=True),
                          field_option(_RESOLVE, "note"), _project(_RESOLVE), output_options()])
operation_command(memory, "memory_signal", "signal", render=_print_write,
                  help="Append an outcome signal: cairn memory signal ID test-pass|test-fail|manual-review|... "
                       "[--note TEXT].",
                  params=[field_argument(_SIGNAL, "id"),
                          field_argument(_SIGNAL, "kind", type=click.Choice(
                              _SIGNAL.model_fields["kind"].annotation.__args__)),  # type: ignore[union-attr]
                          field_option(_SIGNAL, "note"), _project(_SIGNAL), output_options()])
operation_command(memory, "memory_history", "history", render=_print_history,
                  help="Every transition and signal of a record, oldest first.",
                  params=[field_argument(_ID, "id"), _project(_ID), output_options()])
operation_command(memory, "memory_archive", "archive", render=_print_write,
                  help="Archive a record (out of search and plans; restore brings it back).",
                  params=[field_argument(_PIN, "id"), field_option(_PIN, "note"), _project(_PIN), output_options()])
operation_command(memory, "memory_restore", "restore", render=_print_write, help="Bring an archived record back.",
                  params=[field_argument(_ID, "id"), _project(_ID), output_options()])
operation_command(memory, "memory_export", "export", render=_print_export, call=_export_call,
                  help="The memory you may see as plain Markdown, on stdout or --output FILE (a new file).",
                  params=[click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
                                       help="Write to this new file instead of stdout."),
                          field_option(_EXPORT, "include_archived", "--include-archived/--active-only", default=True,
                                       show_default=True),
                          _project(_EXPORT), output_options()])


@cli.group("hook")
def hook() -> None:
    """Coding-agent hooks: record session-start, prompt, post-edit and stop events (JSON on stdin).

    Each call appends one event row and returns at once (no scan, no model). Malformed JSON:
    an invalid_input error on stderr and exit code 2, nothing written."""


def _hook_event(event: str) -> None:
    @hook.command(event, help=f"Record a {event} event: the agent's hook JSON on stdin.")
    @click.pass_obj
    def record(state: State) -> None:
        from cairn.interfaces.hook import run_hook

        sys.exit(run_hook(event, sys.stdin.read(), state.home, state.index))


for _event in HOOK_EVENTS:
    _hook_event(_event)


@hook.command("install")
@click.option("--dry-run", is_flag=True, help="Print the new settings; change nothing.")
@output_options()
@click.pass_obj
def hook_install(state: State, dry_run: bool, fmt: str | None) -> None:
    """Add cairn's hooks to Claude Code (~/.claude/settings.json; other hooks kept, old file backed up)."""
    from pathlib import Path

    from cairn.interfaces.cli import emit_json
    from cairn.interfaces.hook_install import hook_command, install_hooks

    command = hook_command(Path(sys.executable), state.workspace.paths.data_dir, state.index)
    result = install_hooks(command, home=Path.home(), dry_run=dry_run)
    if fmt == "json":
        return emit_json(result)
    if dry_run:
        click.echo(f"# {result.path} ({result.action}, dry run: nothing written)")
        click.echo(result.content, nl=False)
        return None
    click.echo(f"{result.action} {result.path}: hooks for {', '.join(result.events)}")
    if result.backup:
        click.echo(f"previous file saved as {result.backup}")
    return None
