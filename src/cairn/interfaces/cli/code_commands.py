"""``cairn code refresh|snapshots|diff|impact|symbols|show``: the code graph.

Every command is declared from its operation; written here is how each prints
(``--json``: the contract).
"""

from __future__ import annotations

import os
from typing import Any

import click

from cairn.contracts.code import (
    CodeDiff,
    CodeImpact,
    CodeRefresh,
    CodeShow,
    CodeSnapshotList,
    CodeSymbols,
)
from cairn.interfaces.cli import (
    cli,
    field_argument,
    field_option,
    operation_command,
    output_options,
)
from cairn.interfaces.operations import operation

_REFRESH = operation("code_refresh").input
_DIFF = operation("code_diff").input
_IMPACT = operation("code_impact").input
_SYMBOLS = operation("code_symbols").input
_SHOW = operation("code_show").input
_SNAPSHOTS = operation("code_snapshots").input


@cli.group()
def code() -> None:
    """The code graph: refresh a snapshot, diff snapshots, walk impact, list and show symbols."""


def _print_refresh(result: CodeRefresh, args: dict[str, Any]) -> None:
    snap = result.snapshot
    state = "complete" if snap.complete else f"INCOMPLETE ({snap.reason})"
    revision = f" at {snap.git_revision[:12]}" if snap.git_revision else ""
    click.echo(f"snapshot {snap.id} of {snap.root}{revision}: {snap.files} files, {snap.symbols} symbols, "
               f"{snap.edges} edges; {result.parsed} parsed, {result.reused} reused; {state}")
    for cov in result.coverage:
        if cov.provider == "none":
            if cov.files_skipped:
                click.echo(f"  {len(cov.files_skipped)} file(s) in languages no provider reads", err=True)
            continue
        click.echo(f"  {cov.provider}: {cov.files_parsed} parsed, {cov.files_failed} failed, "
                   f"{len(cov.files_skipped)} skipped; relations: {', '.join(cov.relation_kinds)}")
    for failure in result.failed[:20]:
        click.echo(f"  failed  {failure.path}: {failure.reason}", err=True)


def _print_snapshots(result: CodeSnapshotList, args: dict[str, Any]) -> None:
    for snap in result.snapshots:
        flag = "" if snap.complete else f"  INCOMPLETE: {snap.reason}"
        revision = snap.git_revision[:12] if snap.git_revision else "-"
        click.echo(f"{snap.id:5d}  {snap.created_at}  {revision:12s}  {snap.files:6d} files  {snap.root}{flag}")
    if not result.snapshots:
        click.echo("no code snapshots; run: cairn code refresh PATH", err=True)


def _print_diff(result: CodeDiff, args: dict[str, Any]) -> None:
    click.echo(f"snapshot {result.from_snapshot.id} → {result.to_snapshot.id} of {result.to_snapshot.root}")
    for f in result.files:
        click.echo(f"  file    {f.change:8s} {f.path}")
    for s in result.symbols:
        if s.old and s.new and s.change in ("renamed", "moved"):
            what = f"{s.old.qualname} → {s.new.qualname}"
        else:
            either = s.new or s.old
            what = either.qualname if either else "?"
        aspects = [a for a, on in (("body", s.body_changed), ("signature", s.signature_changed)) if on]
        note = f"  ({', '.join(aspects)})" if aspects else ""
        click.echo(f"  symbol  {s.change:8s} {what}{note}")
    for e in result.edges:
        click.echo(f"  edge    {e.change:8s} {e.edge.kind}: {e.edge.source} → {e.edge.target}  ({e.edge.path}:{e.edge.line})")
    if not (result.files or result.symbols or result.edges):
        click.echo("  no changes")


def _print_impact(result: CodeImpact, args: dict[str, Any]) -> None:
    for node in result.nodes:
        chain = " → ".join([node.node, *(e.target for e in node.via)])
        where = f"  [{node.path}]" if node.path else ""
        click.echo(f"{node.distance}  {node.kind:8s} {node.node}{where}\n     via {chain}")
    if not result.nodes:
        click.echo(f"nothing depends on {result.target}", err=True)
    if result.truncated:
        click.echo(f"truncated: {result.truncation}", err=True)


def _print_symbols(result: CodeSymbols, args: dict[str, Any]) -> None:
    for s in result.symbols:
        click.echo(f"{s.start_line:6d}-{s.end_line:<6d} {s.kind:8s} {s.qualname}")


def _print_show(result: CodeShow, args: dict[str, Any]) -> None:
    s = result.symbol
    click.echo(f"# {s.qualname}  {s.path}:{s.start_line}-{s.end_line}", err=True)
    if not result.current:
        click.echo("# the file changed since the snapshot: refresh for exact lines", err=True)
    click.echo(result.text, nl=False)


def _absolute(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    return os.path.abspath(value)


operation_command(code, "code_refresh", "refresh", render=_print_refresh,
                  help="Snapshot the code under PATH (default: the current directory), incrementally.",
                  params=[field_argument(_REFRESH, "path", default=".", required=False, callback=_absolute),
                          field_option(_REFRESH, "keep"), output_options()])
operation_command(code, "code_snapshots", "snapshots", render=_print_snapshots,
                  help="Stored code snapshots, newest first.",
                  params=[field_option(_SNAPSHOTS, "root", metavar="PATH"), output_options()])
operation_command(code, "code_diff", "diff", render=_print_diff,
                  help="Files, symbols and edges that changed between two snapshots (default: the last two).",
                  params=[field_option(_DIFF, "from_snapshot", "--from", metavar="SNAP"),
                          field_option(_DIFF, "to_snapshot", "--to", metavar="SNAP"),
                          field_option(_DIFF, "root", metavar="PATH"), output_options()])
operation_command(code, "code_impact", "impact", render=_print_impact,
                  help="What depends on TARGET (a file path or a qualified symbol name), hop by hop.",
                  params=[field_argument(_IMPACT, "target"), field_option(_IMPACT, "depth"),
                          field_option(_IMPACT, "max_nodes"), field_option(_IMPACT, "snapshot", metavar="SNAP"),
                          field_option(_IMPACT, "root", metavar="PATH"), output_options()])
operation_command(code, "code_symbols", "symbols", render=_print_symbols,
                  help="The symbols of one file, with their lines.",
                  params=[field_argument(_SYMBOLS, "path"), field_option(_SYMBOLS, "snapshot", metavar="SNAP"),
                          field_option(_SYMBOLS, "root", metavar="PATH"), output_options()])
operation_command(code, "code_show", "show", render=_print_show,
                  help="The exact lines of a symbol (like `cairn get`).",
                  params=[field_argument(_SHOW, "symbol"), field_option(_SHOW, "snapshot", metavar="SNAP"),
                          field_option(_SHOW, "root", metavar="PATH"), output_options()])
