"""``cairn links``, ``backlinks``, ``graph`` (summary, path, neighbors) and ``tags``.

All but ``graph summary`` are declared from their operations; written here is how each prints
(``--json``: the contract).
"""

from __future__ import annotations

from typing import Any

import click

from cairn.contracts.graph import GraphLink, GraphPath, LinkList, Neighbors, PathHop, TagList
from cairn.interfaces.cli import (
    DefaultGroup,
    State,
    cli,
    collection_option,
    emit_json,
    field_argument,
    field_option,
    operation_command,
    output_options,
    pass_state,
)
from cairn.interfaces.operations import operation

_LINKS = operation("links").input
_PATH = operation("graph_path").input
_NEIGHBORS = operation("graph_neighbors").input


def _describe(link: GraphLink) -> str:
    target = link.target_uri or f"({link.resolution})"
    notes: list[str] = [link.resolution]
    if link.type:
        notes.append(f"type={link.type}")
    if link.embed:
        notes.append("embed")
    if link.anchor_found is False:
        notes.append(f"anchor #{link.anchor} missing")
    if link.tie_break:
        notes.append(f"{len(link.candidates)} candidates, by {link.tie_break}")
    return f"{link.raw}  → {target}  [{', '.join(notes)}]"


def _print_links(result: LinkList, args: dict[str, Any]) -> None:
    for link in result.links:
        prefix = f"{link.source_uri}:" if result.direction == "in" else ""
        click.echo(f"{prefix}{link.line}:{link.column}  {_describe(link)}")
    if result.truncated:
        click.echo(f"… {result.count - len(result.links)} more (raise --limit)", err=True)
    if not result.links:
        click.echo("no links" if result.direction == "out" else "no backlinks", err=True)


def _hop(hop: PathHop) -> str:
    arrow = "→" if hop.direction == "forward" else "←"
    link = hop.link
    return (f"{hop.from_uri} {arrow} {hop.to_uri}\n"
            f"    {link.source_uri}:{link.line}:{link.column}  {link.raw}  [{link.resolution}]")


for _name, _help in (("links", "Outgoing links of REF, resolved (target, reason, anchor check)."),
                     ("backlinks", "Links from other documents that resolve to REF.")):
    operation_command(cli, _name, help=_help, render=_print_links, params=[
        field_argument(_LINKS, "ref"),
        field_option(_LINKS, "limit", help="At most N links."),
        output_options(),
    ])


@cli.group(cls=DefaultGroup, default="summary")
def graph() -> None:
    """The link graph: cairn graph [summary], cairn graph path A B, cairn graph neighbors REF."""


@graph.command("summary")
@collection_option
@click.option("--max-nodes", default=10_000, show_default=True, type=int, help="At most N nodes.")
@click.option("--max-edges", default=50_000, show_default=True, type=int, help="At most N edges.")
@click.option("--max-unresolved", default=1000, show_default=True, type=int,
              help="At most N unresolved links listed.")
@output_options()
@pass_state
def graph_summary(state: State, collection: str | None, max_nodes: int, max_edges: int,
                  max_unresolved: int, fmt: str | None) -> None:
    """Counts, most linked documents and unresolved links (the default)."""
    result = state.workspace.graph(
        collection, max_nodes=max_nodes, max_edges=max_edges, max_unresolved=max_unresolved,
    )
    if fmt == "json":
        return emit_json(result)
    n = result.counts
    click.echo(f"{n.documents} documents, {n.edges} edges from {n.links} links: {n.resolved} resolved "
               f"({n.ambiguous} ambiguous), {n.unresolved} unresolved, {n.external} external, "
               f"{n.attachments} attachments, {n.anchors_missing} missing anchors, {n.orphans} orphans")
    hubs = sorted(result.nodes, key=lambda node: (-node.in_degree, node.uri))[:10]
    for node in hubs:
        if node.in_degree:
            click.echo(f"  {node.in_degree:5d} ←  {node.uri}  {node.title}")
    for link in result.unresolved[:20]:
        click.echo(f"  unresolved  {link.source_uri}:{link.line}:{link.column}  {link.raw}")
    if result.truncated:
        click.echo("truncated: " + ", ".join(c.name for c in result.caps if c.hit), err=True)
    return None


def _print_path(result: GraphPath, args: dict[str, Any]) -> None:
    if not result.found:
        cut = " (search cut short: " + ", ".join(c.name for c in result.caps if c.hit) + ")" if result.truncated else ""
        click.echo(f"no path from {result.from_uri} to {result.to_uri}{cut}", err=True)
        return
    click.echo(f"{result.length} hop(s)")
    for hop in result.hops:
        click.echo(_hop(hop))


def _print_neighbors(result: Neighbors, args: dict[str, Any]) -> None:
    for item in result.neighbors:
        arrow = "→" if item.via.direction == "forward" else "←"
        click.echo(f"{item.distance}  {arrow} {item.uri}  {item.title}  (via {item.via.link.raw})")
    if result.truncated:
        click.echo("truncated: " + ", ".join(c.name for c in result.caps if c.hit), err=True)


operation_command(
    graph, "graph_path", "path", help="A shortest path of links from A to B, each hop explained.",
    params=[
        field_argument(_PATH, "a"),
        field_argument(_PATH, "b"),
        field_option(_PATH, "direction", help="out: follow links forward only; both: also backwards."),
        field_option(_PATH, "max_depth", help="At most N hops."),
        click.option("--max-nodes", default=10_000, show_default=True, type=int,
                     help="Explore at most N documents."),
        output_options(),
    ],
    render=_print_path,
)
operation_command(
    graph, "graph_neighbors", "neighbors", help="Documents within --depth links of REF, breadth first.",
    params=[
        field_argument(_NEIGHBORS, "ref"),
        field_option(_NEIGHBORS, "depth", help="Links away (1-5)."),
        field_option(_NEIGHBORS, "direction", help="out: links REF makes; in: links to REF; both."),
        field_option(_NEIGHBORS, "max_nodes", help="At most N documents."),
        click.option("--max-edges", default=10_000, show_default=True, type=int, help="Examine at most N links."),
        output_options(),
    ],
    render=_print_neighbors,
)


def _print_tags(result: TagList, args: dict[str, Any]) -> None:
    for tag in result.tags:
        leaf = tag.tag.rpartition("/")[2]
        own = f" ({tag.direct} direct)" if tag.children and tag.direct else ""
        click.echo(f"{'  ' * tag.depth}#{leaf if tag.depth else tag.tag}  {tag.count}{own}")


operation_command(
    cli, "tags", help="Tags with document counts; a parent tag (a) counts its children (a/b) too.",
    params=[collection_option, output_options()], render=_print_tags,
)
