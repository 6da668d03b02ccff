"""Contracts of the link graph and tags: links, backlinks, graph summary, paths, neighbors.

Same rules as :mod:`cairn.contracts`: frozen, unknown fields forbidden, and the CLI's
``--json`` output is exactly ``model_dump(mode="json")`` of what the Workspace returns.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cairn.contracts import Contract

#: How a link's target was found (or why it was not). Stable reason codes:
#: ``exact_path`` vault-relative path, ``path_suffix`` a path-qualified link matching the
#: end of one path, ``basename`` case-insensitive file name, ``alias`` a frontmatter alias,
#: ``relative_markdown`` a Markdown link relative to the linking note, ``self`` a same-note
#: anchor (``[[#Heading]]``), ``ambiguous`` several candidates (one picked, see
#: ``tie_break``), ``unresolved`` no document, ``external`` a URL, ``attachment`` a file
#: that is not an indexed document (e.g. ``![[image.png]]``; not checked on disk).
ResolutionReason = Literal[
    "exact_path", "path_suffix", "basename", "alias", "relative_markdown", "self",
    "ambiguous", "unresolved", "external", "attachment",
]
#: How an ambiguous link picked its target: a candidate in the linking note's folder, else
#: the shortest path (fewest folders, then fewest characters), else the first by path.
TieBreak = Literal["same_folder", "shortest_path", "lexicographic"]
LinkKind = Literal["wiki", "markdown", "frontmatter"]
Direction = Literal["out", "in", "both"]


class Cap(Contract):
    """A bound that was applied, and whether it cut the result short."""

    name: str
    limit: int
    hit: bool = False


class GraphLink(Contract):
    """One link as written, and what it resolves to."""

    source_uri: str
    source_docid: str
    line: int
    column: int
    raw: str
    kind: LinkKind
    #: The frontmatter key of a typed link (``related``, ``depends_on``, ...); None in the body.
    type: str | None = None
    embed: bool = False
    target: str
    anchor: str | None = None
    alias: str | None = None
    target_uri: str | None = None
    target_docid: str | None = None
    target_title: str | None = None
    resolution: ResolutionReason
    #: Whether ``#heading`` / ``#^block`` exists in the target; None without anchor or target.
    anchor_found: bool | None = None
    #: URIs of every candidate when ``resolution`` is ``ambiguous`` (the chosen one included).
    candidates: list[str] = Field(default_factory=list)
    tie_break: TieBreak | None = None


class LinkList(Contract):
    """Outgoing links (``cairn links``) or incoming links (``cairn backlinks``) of a document."""

    uri: str
    docid: str
    title: str
    direction: Literal["out", "in"]
    count: int
    links: list[GraphLink]
    truncated: bool = False
    caps: list[Cap] = Field(default_factory=list)


class GraphNode(Contract):
    uri: str
    docid: str
    title: str
    collection: str
    out_degree: int
    in_degree: int


class GraphEdge(Contract):
    """Every resolved link from one document to another, merged."""

    source: str  # docid
    target: str  # docid
    links: int
    kinds: list[LinkKind]
    types: list[str] = Field(default_factory=list)
    embed: bool = False


class GraphCounts(Contract):
    documents: int
    links: int
    edges: int
    resolved: int
    ambiguous: int
    unresolved: int
    external: int
    attachments: int
    self_links: int
    anchors_missing: int
    orphans: int


class GraphSummary(Contract):
    """``cairn graph``: nodes, merged edges and unresolved links of one or all collections."""

    collection: str | None
    counts: GraphCounts
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    unresolved: list[GraphLink]
    truncated: bool = False
    caps: list[Cap] = Field(default_factory=list)


class PathHop(Contract):
    """One step of a path: the link that connects two documents, and which way it points."""

    from_uri: str
    from_docid: str
    to_uri: str
    to_docid: str
    #: ``forward``: from_uri links to to_uri; ``backward``: to_uri links to from_uri.
    direction: Literal["forward", "backward"]
    link: GraphLink


class GraphPath(Contract):
    """``cairn graph path A B``: a shortest path, each hop explained by its link."""

    from_uri: str
    to_uri: str
    direction: Direction
    found: bool
    length: int | None
    hops: list[PathHop]
    explored: int
    truncated: bool = False
    caps: list[Cap] = Field(default_factory=list)


class Neighbor(Contract):
    uri: str
    docid: str
    title: str
    distance: int
    #: The first link (in BFS order) that reached this document.
    via: PathHop


class Neighbors(Contract):
    """``cairn graph neighbors REF``: documents within ``depth`` links, breadth first."""

    uri: str
    docid: str
    title: str
    depth: int
    direction: Direction
    neighbors: list[Neighbor]
    truncated: bool = False
    caps: list[Cap] = Field(default_factory=list)


class ExpandedDocument(Contract):
    """A document added to retrieval candidates by one graph hop, and the link that brought it."""

    uri: str
    docid: str
    title: str
    collection: str
    seed_docid: str
    via: PathHop


class GraphExpansion(Contract):
    """One bounded hop of linked documents from a set of seed documents (``query --graph``)."""

    seeds: list[str]
    documents: list[ExpandedDocument]
    truncated: bool = False
    caps: list[Cap] = Field(default_factory=list)


class TagCount(Contract):
    """A tag and its document counts; ``count`` includes documents of descendant tags."""

    tag: str
    count: int
    direct: int
    depth: int
    parent: str | None = None
    children: list[str] = Field(default_factory=list)


class TagList(Contract):
    collection: str | None
    documents: int
    tags: list[TagCount]
