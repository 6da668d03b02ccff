"""``cairn links``, ``backlinks``, ``graph`` (summary, path, neighbors) and ``tags``.

Each command parses options, calls one Workspace method and prints it (``--json``: the contract).
"""

from __future__ import annotations

import click

from cairn.contracts.graph import GraphLink, LinkList, PathHop
from cairn.interfaces.cli import State, cli, emit_json, json_option, pass_state

DIRECTION = click.Choice(["out", "in", "both"])


class _SummaryByDefault(click.Group):
    """``cairn graph [OPTIONS]`` runs ``cairn graph summary [OPTIONS]``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (not args or args[0] not in self.commands) and not (args and args[0] in ("-h", "--help")):
            args = ["summary", *args]
        return super().parse_args(ctx, args)


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


def _print_links(result: LinkList) -> None:
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


@cli.command()
@click.argument("ref")
@click.option("--limit", default=1000, show_default=True, type=int, help="At most N links.")
@json_option
@pass_state
def links(state: State, ref: str, limit: int, as_json: bool) -> None:
    """Outgoing links of REF, resolved (target, reason, anchor check)."""
    result = state.workspace.links(ref, limit=limit)
    if as_json:
        return emit_json(result)
    _print_links(result)


@cli.command()
@click.argument("ref")
@click.option("--limit", default=1000, show_default=True, type=int, help="At most N links.")
@json_option
@pass_state
def backlinks(state: State, ref: str, limit: int, as_json: bool) -> None:
    """Links from other documents that resolve to REF."""
    result = state.workspace.backlinks(ref, limit=limit)
    if as_json:
        return emit_json(result)
    _print_links(result)


@cli.group(cls=_SummaryByDefault)
def graph() -> None:
    """The link graph: cairn graph [summary], cairn graph path A B, cairn graph neighbors REF."""


@graph.command("summary")
@click.option("--collection", "-c", metavar="NAME", help="Only this collection.")
@click.option("--max-nodes", default=10_000, show_default=True, type=int, help="At most N nodes.")
@click.option("--max-edges", default=50_000, show_default=True, type=int, help="At most N edges.")
@click.option("--max-unresolved", default=1000, show_default=True, type=int,
              help="At most N unresolved links listed.")
@json_option
@pass_state
def graph_summary(state: State, collection: str | None, max_nodes: int, max_edges: int,
                  max_unresolved: int, as_json: bool) -> None:
    """Counts, most linked documents and unresolved links (the default)."""
    result = state.workspace.graph(
        collection, max_nodes=max_nodes, max_edges=max_edges, max_unresolved=max_unresolved,
    )
    if as_json:
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


@graph.command("path")
@click.argument("a")
@click.argument("b")
@click.option("--direction", type=DIRECTION, default="both", show_default=True,
              help="out: follow links forward only; both: also backwards.")
@click.option("--max-depth", default=6, show_default=True, type=int, help="At most N hops.")
@click.option("--max-nodes", default=10_000, show_default=True, type=int,
              help="Explore at most N documents.")
@json_option
@pass_state
def graph_path(state: State, a: str, b: str, direction: str, max_depth: int, max_nodes: int,
               as_json: bool) -> None:
    """A shortest path of links from A to B, each hop explained."""
    result = state.workspace.graph_path(a, b, direction=direction, max_depth=max_depth, max_nodes=max_nodes)
    if as_json:
        return emit_json(result)
    if not result.found:
        cut = " (search cut short: " + ", ".join(c.name for c in result.caps if c.hit) + ")" if result.truncated else ""
        click.echo(f"no path from {result.from_uri} to {result.to_uri}{cut}", err=True)
        return None
    click.echo(f"{result.length} hop(s)")
    for hop in result.hops:
        click.echo(_hop(hop))


@graph.command("neighbors")
@click.argument("ref")
@click.option("--depth", default=1, show_default=True, type=int, help="Links away (1-5).")
@click.option("--direction", type=DIRECTION, default="both", show_default=True,
              help="out: links REF makes; in: links to REF; both.")
@click.option("--max-nodes", default=200, show_default=True, type=int, help="At most N documents.")
@click.option("--max-edges", default=10_000, show_default=True, type=int, help="Examine at most N links.")
@json_option
@pass_state
def graph_neighbors(state: State, ref: str, depth: int, direction: str, max_nodes: int,
                    max_edges: int, as_json: bool) -> None:
    """Documents within --depth links of REF, breadth first."""
    result = state.workspace.graph_neighbors(
        ref, depth=depth, direction=direction, max_nodes=max_nodes, max_edges=max_edges,
    )
    if as_json:
        return emit_json(result)
    for item in result.neighbors:
        arrow = "→" if item.via.direction == "forward" else "←"
        click.echo(f"{item.distance}  {arrow} {item.uri}  {item.title}  (via {item.via.link.raw})")
    if result.truncated:
        click.echo("truncated: " + ", ".join(c.name for c in result.caps if c.hit), err=True)


@cli.command()
@click.option("--collection", "-c", metavar="NAME", help="Only this collection.")
@json_option
@pass_state
def tags(state: State, collection: str | None, as_json: bool) -> None:
    """Tags with document counts; a parent tag (a) counts its children (a/b) too."""
    result = state.workspace.tags(collection)
    if as_json:
        return emit_json(result)
    for tag in result.tags:
        leaf = tag.tag.rpartition("/")[2]
        own = f" ({tag.direct} direct)" if tag.children and tag.direct else ""
        click.echo(f"{'  ' * tag.depth}#{leaf if tag.depth else tag.tag}  {tag.count}{own}")
