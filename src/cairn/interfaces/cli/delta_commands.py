"""``cairn changes``, ``cairn diff``, ``cairn impact`` and the saved-capsule commands of
``cairn context``: ``save``, ``list``, ``reverify``, ``receipts``, ``watch``.

Each is declared from its operation (``watch`` polls ``context_receipts``); written here
is how it prints. ``context reverify`` exits 0 when every capsule is fresh, 3 when any
is stale (as ``context verify`` does for a changed capsule).
"""

from __future__ import annotations

import json
import time
from typing import Any

import click

from cairn.contracts.delta import (
    ChangeFeed,
    DiffSummary,
    DocumentDiff,
    Impact,
    Receipt,
    ReceiptList,
    SavedCapsule,
    SavedCapsuleList,
)
from cairn.interfaces.cli import (
    State,
    cli,
    field_argument,
    field_option,
    operation_command,
    output_options,
    pass_state,
)
from cairn.interfaces.cli.capsule_commands import EXIT_CHANGED, context
from cairn.interfaces.operations import operation

_CHANGES = operation("changes").input
_DIFF = operation("diff").input
_IMPACT = operation("impact").input
_SAVE = operation("context_save").input
_REVERIFY = operation("context_reverify").input
_RECEIPTS = operation("context_receipts").input


def _print_changes(feed: ChangeFeed, args: dict[str, Any]) -> None:
    for change in feed.changes:
        where = change.uri
        if change.kind == "rename":
            where = f"{change.old_path} → {change.uri}"
        detail = f"  ({change.error})" if change.error else ""
        text = (change.new_text_hash or change.old_text_hash or "")[:12]
        click.echo(f"{change.at}  {change.kind:10} {where}  {text}{detail}")
    if not feed.changes:
        click.echo("no changes", err=True)
    more = " (more: run again with it)" if feed.has_more else ""
    click.echo(f"cursor: {feed.cursor}{more}", err=True)


operation_command(
    cli, "changes", help="What changed in the index after a cursor or date: created, updated, renamed,\n"
                         "    deleted, reactivated and failed documents with their hashes, and the cursor to\n"
                         "    pass next time (a cursor older than the journal keeps is cursor_expired).",
    params=[
        field_option(_CHANGES, "since", metavar="CURSOR|DATE"),
        field_option(_CHANGES, "collection", "--collection", "-c", metavar="NAME"),
        field_option(_CHANGES, "limit", "-n"),
        output_options(),
    ],
    render=_print_changes,
)


def _span(start: int | None, end: int | None) -> str:
    return "-" if start is None else f"{start}-{end}"


def _print_document_diff(diff: DocumentDiff) -> None:
    renamed = f" (was {diff.old_path})" if diff.old_path else ""
    click.echo(f"{diff.uri}{renamed}: {diff.status} since {diff.baseline}")
    if not diff.complete:
        click.echo(f"  structure unknown: {diff.reason}")
    for h in diff.headings:
        was = f" (was {h.old_text!r})" if h.old_text is not None else ""
        click.echo(f"  heading  {h.change:8} {'#' * h.level} {h.text}{was}  "
                   f"line {h.old_line or '-'} → {h.new_line or '-'}")
    for p in diff.passages:
        under = f"  [{p.heading}]" if p.heading else ""
        click.echo(f"  passage  {p.change:8} lines {_span(p.old_start_line, p.old_end_line)} → "
                   f"{_span(p.new_start_line, p.new_end_line)}{under}")
    for link in diff.links:
        anchor = f"#{link.anchor}" if link.anchor else ""
        click.echo(f"  link     {link.change:8} {link.kind} {link.target}{anchor}  line {link.line}")
    for tag in diff.tags_added:
        click.echo(f"  tag      added    #{tag}")
    for tag in diff.tags_removed:
        click.echo(f"  tag      removed  #{tag}")
    for f in diff.frontmatter:
        click.echo(f"  field    {f.change:8} {f.key}: {json.dumps(f.before)} → {json.dumps(f.after)}")


def _print_diff(result: DocumentDiff | DiffSummary, args: dict[str, Any]) -> None:
    if isinstance(result, DocumentDiff):
        return _print_document_diff(result)
    for doc in result.documents:
        n = doc.counts
        renamed = f" (was {doc.old_path})" if doc.old_path else ""
        unknown = "  (structure unknown)" if not doc.complete else ""
        click.echo(f"{doc.status:9} {doc.uri}{renamed}  headings {n.headings}, passages {n.passages}, "
                   f"links {n.links}, tags {n.tags}, fields {n.frontmatter}{unknown}")
    if not result.documents:
        click.echo(f"nothing changed since {result.since}", err=True)
    click.echo(f"cursor: {result.cursor}{' (more)' if result.has_more else ''}", err=True)
    return None


operation_command(
    cli, "diff", help="The structural diff of REF (headings, passages with line spans, links, tags,\n"
                      "    frontmatter) since its previous revision or --from CURSOR|DATE; without REF,\n"
                      "    one summary per document changed since --from.",
    params=[
        field_argument(_DIFF, "ref", required=False),
        field_option(_DIFF, "since", "--from", metavar="CURSOR|DATE"),
        field_option(_DIFF, "collection", "--collection", "-c", metavar="NAME"),
        field_option(_DIFF, "limit", "-n"),
        output_options(),
    ],
    render=_print_diff,
)


def _print_impact(impact: Impact, args: dict[str, Any]) -> None:
    click.echo(f"{impact.uri}  {impact.title}")
    for d in impact.dependents:
        cites = f" cites {', '.join(d.cites)}" if d.cites else ""
        click.echo(f"  {d.distance}  {d.kind:8} {d.id}  {d.title}{cites}")
        for hop in d.path:
            link = hop.link
            click.echo(f"       {link.source_uri}:{link.line}  {link.raw}")
    if not impact.dependents:
        click.echo("nothing depends on it", err=True)
    if impact.truncated:
        click.echo("truncated: raise --max-nodes", err=True)


operation_command(
    cli, "impact", help="What depends on REF: documents linking to it (up to --depth links away) and saved\n"
                        "    capsules citing it, each with the links that connect it.",
    params=[
        field_argument(_IMPACT, "ref"),
        field_option(_IMPACT, "depth", metavar="N"),
        field_option(_IMPACT, "max_nodes", metavar="N"),
        output_options(),
    ],
    render=_print_impact,
)


# --- saved capsules: cairn context save | list | reverify | receipts | watch ------------------


def _print_receipt(receipt: Receipt) -> None:
    click.echo(f"{receipt.checked_at}  {receipt.name}: {receipt.status}  (receipt {receipt.id}, "
               f"capsule {receipt.capsule_id[:12]})")
    for item in receipt.stale:
        click.echo(f"    {item.ref:4} {item.status:8} {item.uri}:{item.start_line}-{item.end_line}  ({item.reason})")


def _print_receipts(result: ReceiptList, args: dict[str, Any]) -> None:
    for receipt in result.receipts:
        _print_receipt(receipt)
    if not result.receipts:
        click.echo("no receipts", err=True)


def _print_saved(saved: SavedCapsule, args: dict[str, Any]) -> None:
    last = saved.last_receipt
    state = f"{last.status} at {last.checked_at}" if last else "not reverified yet"
    click.echo(f"{saved.name}  {saved.capsule_id[:12]}  {saved.evidence} evidence from {len(saved.docids)} "
               f"documents  {state}  \"{saved.goal}\"")


def _print_saved_list(result: SavedCapsuleList, args: dict[str, Any]) -> None:
    for saved in result.capsules:
        _print_saved(saved, args)
    if not result.capsules:
        click.echo("no saved capsules (save one with: cairn context save NAME FILE)", err=True)


def _read_capsule(_ctx: click.Context, _param: click.Parameter, value: Any) -> bytes:
    data: bytes = value.read()
    return data


operation_command(
    context, "context_save", "save", help="Save a capsule (FILE from context build --json, or - for stdin)\n"
                                          "    under NAME in the index, to reverify it later.",
    params=[
        field_argument(_SAVE, "name"),
        field_argument(_SAVE, "capsule", type=click.File("rb"), metavar="FILE|-", callback=_read_capsule),
        field_option(_SAVE, "replace"),
        output_options(),
    ],
    render=_print_saved,
)

operation_command(
    context, "context_list", "list", help="Saved capsules, the documents they cite and their latest receipt.",
    params=[output_options()], render=_print_saved_list,
)

operation_command(
    context, "context_reverify", "reverify",
    help="Re-check saved capsules (NAME..., default all) against the current files and record a\n"
         "    receipt for each. Exits 0 when all are fresh, 3 when any is stale.",
    params=[
        field_argument(_REVERIFY, "names", required=False, metavar="[NAME]..."),
        output_options(),
    ],
    render=_print_receipts,
    exit_code=lambda result: EXIT_CHANGED if any(r.status == "stale" for r in result.receipts) else 0,
)

operation_command(
    context, "context_receipts", "receipts", help="Receipts of saved capsules (of NAME) after a receipt id.",
    params=[
        field_argument(_RECEIPTS, "name", required=False),
        field_option(_RECEIPTS, "after", metavar="ID"),
        field_option(_RECEIPTS, "limit", "-n"),
        output_options(),
    ],
    render=_print_receipts,
)


@context.command("watch")
@click.argument("name")
@click.option("--interval", type=click.FloatRange(min=0.05), default=2.0, show_default=True,
              metavar="SECONDS", help="How often to look for new receipts.")
@click.option("--count", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after printing N receipts.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Stop after this long.")
@output_options(json_help="Print one receipt per line (JSON lines).")
@pass_state
def context_watch(state: State, name: str, interval: float, count: int | None, timeout: float | None,
                  fmt: str | None) -> None:
    """Print NAME's receipts as they are recorded: its latest one first, then each new one
    (the runtime reverifies saved capsules after every index change; ``context reverify``
    records one too). Runs until interrupted, --count or --timeout."""
    ws = state.workspace
    history = ws.context_receipts(name, limit=1000)
    while len(history.receipts) == 1000:  # skip to the newest receipt
        history = ws.context_receipts(name, after=history.cursor, limit=1000)
    pending = history.receipts[-1:]
    cursor = history.cursor
    printed = 0
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        for receipt in pending:
            if fmt == "json":
                click.echo(json.dumps(receipt.model_dump(mode="json"), ensure_ascii=False))
            else:
                _print_receipt(receipt)
            printed += 1
            if count is not None and printed >= count:
                return
        if deadline is not None and time.monotonic() >= deadline:
            return
        time.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))
        fresh = ws.context_receipts(name, after=cursor, limit=100)
        pending, cursor = fresh.receipts, fresh.cursor
