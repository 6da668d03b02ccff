"""The graph service: links, backlinks, summary, paths, neighbors, one-hop expansion, tags.

Resolution happens when the graph is read, from the stored link rows (see
:mod:`cairn.graph.resolve`): nothing goes stale when a note is added, renamed or deleted.
Backlinks and expansion pre-filter link rows in SQL by target name; anchors and frontmatter
positions are resolved only for the links returned. Measured by ``bench/graph_bench.py``:
on 10k notes / 150k links, whole-graph operations (summary, path, neighbors) take seconds,
so materialising resolutions per index run is the planned next step.
Every method returns a :mod:`cairn.contracts.graph` object.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from cairn.contracts import graph as g
from cairn.errors import ValidationError
from cairn.graph.load import (
    frontmatter_positions,
    load_block_ids,
    load_headings,
    load_links,
    load_notes,
    load_tagged_documents,
)
from cairn.graph.resolve import LinkSpec, Note, NoteIndex, anchor_found, could_name, resolve_link
from cairn.graph.tags import tag_tree
from cairn.graph.traverse import Caps, Direction, Hop, LinkGraph, ResolvedLink, link_order
from cairn.refs import resolve_document
from cairn.store.protocol import LinkStore, Store
from cairn.validation import check_bound

UriOf = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class GraphLimits:
    """Default bounds (each can be lowered or raised per call, up to ``hard``)."""

    links: int = 1000
    nodes: int = 10_000
    edges: int = 50_000
    unresolved: int = 1000
    depth: int = 6
    hard: int = 1_000_000


class GraphReader:
    """Reads the store, resolves links and answers graph questions about notes."""

    def __init__(self, store: LinkStore, link_keys: Collection[str], uri_of: UriOf) -> None:
        self.store = store
        self.link_keys = tuple(link_keys)
        self.uri_of = uri_of

    # --- reading and resolving ---------------------------------------------------------

    def _scope(self, collections: Sequence[str] | None) -> tuple[list[Note], NoteIndex, dict[int, dict[str, object]]]:
        notes, typed = load_notes(self.store, collections, self.link_keys)
        return notes, NoteIndex.build(notes), typed

    def _all_links(
        self, notes: list[Note], index: NoteIndex, typed: dict[int, dict[str, object]],
        *, sources: Collection[int] | None = None, like: Sequence[str] | None = None,
        prefilter: Callable[[LinkSpec], bool] | None = None,
        keep: Callable[[ResolvedLink], bool] | None = None,
    ) -> list[ResolvedLink]:
        """Resolve links (anchors unchecked, frontmatter positions unset: see ``_finish``)."""
        rows = load_links(self.store, notes, typed, self.link_keys, sources=sources, like=like,
                          positions=False)
        out = []
        for key in sorted(rows, key=lambda k: (index.notes[k].collection, index.notes[k].path)
                          if k in index.notes else ("", "")):
            source = index.notes.get(key)
            if source is None:
                continue
            for spec in rows[key]:
                if prefilter is not None and not prefilter(spec):
                    continue
                rl = ResolvedLink(source, spec, resolve_link(spec, source, index), None)
                if keep is None or keep(rl):
                    out.append(rl)
        return out

    def _finish(
        self, links: Sequence[ResolvedLink], typed: dict[int, dict[str, object]],
    ) -> list[ResolvedLink]:
        """Check anchors against the targets' headings and block ids, and locate frontmatter
        links in their notes' text; done only for the links a caller returns (or counts)."""
        heading_keys = {
            rl.target.key for rl in links
            if rl.target is not None and rl.link.anchor and not rl.link.anchor.startswith("^")
        }
        block_keys = {
            rl.target.key for rl in links
            if rl.target is not None and rl.link.anchor and rl.link.anchor.startswith("^")
        }
        headings = load_headings(self.store, heading_keys) if heading_keys else {}
        blocks = load_block_ids(self.store, block_keys) if block_keys else {}
        fm_keys = {rl.source.key for rl in links if rl.link.kind == "frontmatter"}
        located = frontmatter_positions(self.store, typed, self.link_keys, fm_keys) if fm_keys else {}
        out = []
        for rl in links:
            spec = rl.link
            if spec.kind == "frontmatter":
                spec = located.get((rl.source.key, spec.seq), spec)
            found: bool | None = None
            if rl.target is not None and spec.anchor:
                key = rl.target.key
                found = anchor_found(
                    spec.anchor, headings.get(key, []), blocks.get(key),
                    percent_encoded=spec.syntax == "markdown",
                )
            out.append(ResolvedLink(rl.source, spec, rl.resolution, found))
        return out

    def _finish_hops(self, hops: Sequence[Hop], typed: dict[int, dict[str, object]]) -> list[Hop]:
        done = self._finish([h.via for h in hops], typed)
        return [Hop(h.start, h.end, h.way, rl) for h, rl in zip(hops, done, strict=True)]

    def _graph(
        self, collections: Sequence[str] | None,
    ) -> tuple[LinkGraph, list[ResolvedLink], dict[int, dict[str, object]]]:
        notes, index, typed = self._scope(collections)
        links = self._all_links(notes, index, typed)
        return LinkGraph(notes, links), links, typed

    # --- contracts -----------------------------------------------------------------------

    def _uri(self, note: Note) -> str:
        return self.uri_of(note.collection, note.path)

    def link(self, rl: ResolvedLink) -> g.GraphLink:
        spec, res, target = rl.link, rl.resolution, rl.target
        return g.GraphLink(
            source_uri=self._uri(rl.source), source_docid=rl.source.docid, line=spec.line,
            column=spec.column, raw=spec.raw, kind=spec.kind, type=spec.type, embed=spec.embed,
            target=spec.target, anchor=spec.anchor, alias=spec.alias,
            target_uri=self._uri(target) if target is not None else None,
            target_docid=target.docid if target is not None else None,
            target_title=target.title if target is not None else None,
            resolution=res.reason, anchor_found=rl.anchor_found,
            candidates=[self._uri(n) for n in res.candidates], tie_break=res.tie_break,
        )

    def _hop(self, hop: Hop) -> g.PathHop:
        return g.PathHop(
            from_uri=self._uri(hop.start), from_docid=hop.start.docid, to_uri=self._uri(hop.end),
            to_docid=hop.end.docid, direction=hop.way, link=self.link(hop.via),
        )

    @staticmethod
    def _caps(caps: Caps, ignore: Collection[str] = ()) -> tuple[bool, list[g.Cap]]:
        listed = [g.Cap(name=n, limit=v, hit=n in caps.hit) for n, v in caps.limits.items()]
        return bool(caps.hit - set(ignore)), listed

    # --- operations ----------------------------------------------------------------------

    def links(self, note: Note, *, limit: int) -> g.LinkList:
        """Outgoing links of ``note``, resolved, in document order."""
        notes, index, typed = self._scope([note.collection])
        links = self._all_links(notes, index, typed, sources=[note.key])
        return self._link_list(index.notes.get(note.key, note), "out", links, limit, typed)

    def backlinks(self, note: Note, *, limit: int) -> g.LinkList:
        """Links from other notes that resolve to ``note``, by source path and position."""
        notes, index, typed = self._scope([note.collection])
        target = index.notes.get(note.key, note)
        links = self._all_links(
            notes, index, typed, like=_names_of([target]),
            prefilter=lambda spec: could_name(spec, target),
            keep=lambda rl: rl.target is not None and rl.target.key == target.key
            and rl.source.key != target.key,
        )
        return self._link_list(target, "in", links, limit, typed)

    def _link_list(
        self, note: Note, direction: str, links: list[ResolvedLink], limit: int,
        typed: dict[int, dict[str, object]],
    ) -> g.LinkList:
        links = self._finish(sorted(links, key=link_order)[:limit + 1], typed)
        caps = Caps.of(limit=limit)
        total = len(links)
        if total > limit:
            caps.hit.add("limit")
        truncated, listed = self._caps(caps)
        return g.LinkList(
            uri=self._uri(note), docid=note.docid, title=note.title,
            direction="out" if direction == "out" else "in", count=min(total, limit),
            links=[self.link(rl) for rl in links[:limit]], truncated=truncated, caps=listed,
        )

    def summary(
        self, collection: str | None, *, max_nodes: int, max_edges: int, max_unresolved: int,
    ) -> g.GraphSummary:
        """Nodes, merged edges and unresolved links of one or all collections."""
        graph, links, typed = self._graph([collection] if collection else None)
        links = self._finish(links, typed)
        graph = LinkGraph(graph.notes.values(), links)
        merged: dict[tuple[int, int], list[ResolvedLink]] = {}
        for key in graph.out:
            for rl in graph.out[key]:
                assert rl.target is not None
                merged.setdefault((key, rl.target.key), []).append(rl)
        reasons = [rl.resolution.reason for rl in links]
        counts = g.GraphCounts(
            documents=len(graph.notes), links=len(links), edges=len(merged),
            resolved=sum(r not in ("unresolved", "external", "attachment") for r in reasons),
            ambiguous=reasons.count("ambiguous"), unresolved=reasons.count("unresolved"),
            external=reasons.count("external"), attachments=reasons.count("attachment"),
            self_links=sum(1 for rl in links if rl.target is not None and rl.target.key == rl.source.key),
            anchors_missing=sum(1 for rl in links if rl.anchor_found is False),
            orphans=sum(1 for k in graph.notes if k not in graph.out and k not in graph.inc),
        )
        caps = Caps.of(max_nodes=max_nodes, max_edges=max_edges, max_unresolved=max_unresolved)
        nodes = list(graph.notes.values())
        if len(nodes) > max_nodes:
            caps.hit.add("max_nodes")
            nodes = nodes[:max_nodes]
        kept = {n.key for n in nodes}
        edge_items = [
            (pair, rls) for pair, rls in sorted(
                merged.items(),
                key=lambda item: (link_order(item[1][0])[:2], graph.notes[item[0][1]].collection,
                                  graph.notes[item[0][1]].path),
            )
            if pair[0] in kept and pair[1] in kept
        ]
        if len(edge_items) > max_edges:
            caps.hit.add("max_edges")
            edge_items = edge_items[:max_edges]
        unresolved = [rl for rl in links if rl.resolution.reason == "unresolved"]
        if len(unresolved) > max_unresolved:
            caps.hit.add("max_unresolved")
            unresolved = unresolved[:max_unresolved]
        truncated, listed = self._caps(caps)
        return g.GraphSummary(
            collection=collection, counts=counts,
            nodes=[
                g.GraphNode(
                    uri=self._uri(n), docid=n.docid, title=n.title, collection=n.collection,
                    out_degree=len({rl.target.key for rl in graph.out.get(n.key, []) if rl.target}),
                    in_degree=len({rl.source.key for rl in graph.inc.get(n.key, [])}),
                )
                for n in nodes
            ],
            edges=[
                g.GraphEdge(
                    source=graph.notes[s].docid, target=graph.notes[t].docid, links=len(rls),
                    kinds=sorted({rl.link.kind for rl in rls}),
                    types=sorted({rl.link.type for rl in rls if rl.link.type}),
                    embed=any(rl.link.embed for rl in rls),
                )
                for (s, t), rls in edge_items
            ],
            unresolved=[self.link(rl) for rl in unresolved],
            truncated=truncated, caps=listed,
        )

    def path(
        self, start: Note, goal: Note, *, direction: Direction, max_depth: int, max_nodes: int,
    ) -> g.GraphPath:
        """A shortest path from ``start`` to ``goal``, each hop explained by its link."""
        collections = sorted({start.collection, goal.collection})
        graph, _, typed = self._graph(collections)
        hops, explored, caps = graph.shortest_path(
            start.key, goal.key, direction=direction, max_depth=max_depth, max_nodes=max_nodes,
        )
        truncated, listed = self._caps(caps)
        a, b = graph.notes.get(start.key, start), graph.notes.get(goal.key, goal)
        return g.GraphPath(
            from_uri=self._uri(a), to_uri=self._uri(b), direction=direction, found=hops is not None,
            length=len(hops) if hops is not None else None,
            hops=[self._hop(h) for h in self._finish_hops(hops or [], typed)], explored=explored,
            truncated=truncated and hops is None, caps=listed,
        )

    def neighbors(
        self, note: Note, *, depth: int, direction: Direction, max_nodes: int, max_edges: int,
    ) -> g.Neighbors:
        """Notes within ``depth`` links of ``note``, breadth first."""
        graph, _, typed = self._graph([note.collection])
        center = graph.notes.get(note.key, note)
        found, caps = graph.neighbors(
            note.key, depth=depth, direction=direction, max_nodes=max_nodes, max_edges=max_edges,
        )
        truncated, listed = self._caps(caps, ignore=("depth",))
        hops = self._finish_hops([h for h, _ in found], typed)
        return g.Neighbors(
            uri=self._uri(center), docid=center.docid, title=center.title, depth=depth,
            direction=direction,
            neighbors=[
                g.Neighbor(uri=self._uri(h.end), docid=h.end.docid, title=h.end.title,
                           distance=d, via=self._hop(h))
                for h, (_, d) in zip(hops, found, strict=True)
            ],
            truncated=truncated, caps=listed,
        )

    def expand(
        self, seeds: Sequence[Note], *, direction: Direction, per_seed: int, max_total: int,
    ) -> g.GraphExpansion:
        """One hop of linked notes from ``seeds`` (in seed order), each with the link that
        brought it; seeds themselves and notes already added are skipped."""
        collections = sorted({s.collection for s in seeds})
        notes, index, typed = self._scope(collections)
        seed_keys = {s.key for s in seeds}
        targets = [index.notes[k] for k in sorted(seed_keys) if k in index.notes]
        links: list[ResolvedLink] = []
        if direction in ("out", "both"):
            links += self._all_links(notes, index, typed, sources=seed_keys)
        if direction in ("in", "both"):
            links += self._all_links(
                notes, index, typed, like=_names_of(targets),
                prefilter=lambda spec: any(could_name(spec, t) for t in targets),
                keep=lambda rl: rl.target is not None and rl.target.key in seed_keys,
            )
        graph = LinkGraph(notes, links)
        caps = Caps.of(per_seed=per_seed, max_total=max_total)
        added: dict[int, Hop] = {}
        for seed in seeds:
            if seed.key not in graph.notes:
                continue
            taken = 0
            for hop in graph.steps(seed.key, direction):
                if hop.end.key in seed_keys or hop.end.key in added:
                    continue
                if taken >= per_seed:
                    caps.hit.add("per_seed")
                    break
                if len(added) >= max_total:
                    caps.hit.add("max_total")
                    break
                taken += 1
                added[hop.end.key] = hop
        truncated, listed = self._caps(caps)
        return g.GraphExpansion(
            seeds=[s.docid for s in seeds],
            documents=[
                g.ExpandedDocument(
                    uri=self._uri(hop.end), docid=hop.end.docid, title=hop.end.title,
                    collection=hop.end.collection, seed_docid=hop.start.docid, via=self._hop(hop),
                )
                for hop in self._finish_hops(list(added.values()), typed)
            ],
            truncated=truncated, caps=listed,
        )

    def tags(self, collection: str | None) -> g.TagList:
        """Tags with document counts; a parent tag counts documents of its descendants."""
        docs, per_doc = load_tagged_documents(self.store, collection)
        return g.TagList(
            collection=collection, documents=docs,
            tags=[
                g.TagCount(tag=t.tag, count=t.count, direct=t.direct, depth=t.depth,
                           parent=t.parent, children=list(t.children))
                for t in tag_tree(per_doc.values())
            ],
        )


def _names_of(notes: Sequence[Note]) -> list[str]:
    """Lowercase strings one of which a link to one of ``notes`` must contain (see ``could_name``)."""
    names: set[str] = set()
    for note in notes:
        name = note.path.rsplit("/", 1)[-1].lower()
        stem = name.rsplit(".", 1)[0] if "." in name else name
        names.add(stem)
        names.update(a.strip().lower() for a in note.aliases if a.strip())
    return sorted(names)


class GraphService:
    """The link graph of one index, addressed by document references (URI, path, docid):
    bounds checked, references resolved, then answered by a :class:`GraphReader`."""

    def __init__(self, open_store: Callable[[bool], Store], link_keys: object, uri_of: UriOf) -> None:
        """``link_keys`` is the configured ``graph.link_keys`` (checked on first use, so a
        bad value fails graph operations with a clear error, not every command)."""
        self._open_store = open_store
        self._link_keys = link_keys
        self._uri_of = uri_of

    def _reader(self, *, keys: bool = True) -> tuple[Store, GraphReader]:
        store = self._open_store(False)
        link_keys = self._link_keys
        if not keys:
            return store, GraphReader(store, (), self._uri_of)
        if not isinstance(link_keys, (list, tuple)) or not all(isinstance(k, str) for k in link_keys):
            raise ValidationError("config: graph.link_keys must be a list of frontmatter key names")
        return store, GraphReader(store, link_keys, self._uri_of)

    @staticmethod
    def _note(store: Store, ref: str) -> Note:
        record, _ = resolve_document(store, ref)
        return Note(record.id, record.docid, record.collection, record.path, record.title)

    def links(self, ref: str, *, limit: int = 1000) -> g.LinkList:
        """Outgoing links of a document, each resolved (target, reason, anchor check)."""
        check_bound("limit", limit)
        store, reader = self._reader()
        return reader.links(self._note(store, ref), limit=limit)

    def backlinks(self, ref: str, *, limit: int = 1000) -> g.LinkList:
        """Links from other documents of its collection that resolve to this document."""
        check_bound("limit", limit)
        store, reader = self._reader()
        return reader.backlinks(self._note(store, ref), limit=limit)

    def graph(
        self, collection: str | None = None, *, max_nodes: int = 10_000, max_edges: int = 50_000,
        max_unresolved: int = 1000,
    ) -> g.GraphSummary:
        """The link graph of one or all collections: nodes, merged edges, unresolved links."""
        for name, value in (("max_nodes", max_nodes), ("max_edges", max_edges),
                            ("max_unresolved", max_unresolved)):
            check_bound(name, value)
        store, reader = self._reader()
        if collection is not None:
            store.get_collection(collection)
        return reader.summary(
            collection, max_nodes=max_nodes, max_edges=max_edges, max_unresolved=max_unresolved,
        )

    def graph_path(
        self, a: str, b: str, *, direction: str = "both", max_depth: int = 6, max_nodes: int = 10_000,
    ) -> g.GraphPath:
        """A shortest path of links from A to B; each hop names its link (line, raw text, reason).
        ``direction``: ``out`` follows links forward only, ``both`` also walks them backwards."""
        check_bound("max_depth", max_depth, 50)
        check_bound("max_nodes", max_nodes)
        store, reader = self._reader()
        return reader.path(
            self._note(store, a), self._note(store, b), direction=_direction(direction),
            max_depth=max_depth, max_nodes=max_nodes,
        )

    def graph_neighbors(
        self, ref: str, *, depth: int = 1, direction: str = "both", max_nodes: int = 200,
        max_edges: int = 10_000,
    ) -> g.Neighbors:
        """Documents within ``depth`` links (1-5), breadth first, each with the link that reached it."""
        check_bound("depth", depth, 5)
        check_bound("max_nodes", max_nodes)
        check_bound("max_edges", max_edges)
        store, reader = self._reader()
        return reader.neighbors(
            self._note(store, ref), depth=depth, direction=_direction(direction),
            max_nodes=max_nodes, max_edges=max_edges,
        )

    def graph_expand(
        self, docids: Sequence[str], *, direction: str = "both", per_seed: int = 5, max_total: int = 20,
    ) -> g.GraphExpansion:
        """One bounded hop from seed documents (docids or refs): the linked documents, each
        with its seed and the link that brought it. Used by ``query --graph``."""
        check_bound("per_seed", per_seed)
        check_bound("max_total", max_total)
        store, reader = self._reader()
        seeds = list({n.key: n for n in (self._note(store, ref) for ref in docids)}.values())
        return reader.expand(seeds, direction=_direction(direction), per_seed=per_seed, max_total=max_total)

    def tags(self, collection: str | None = None) -> g.TagList:
        """Tags (frontmatter and inline) with document counts; ``a`` counts ``a/...`` too."""
        store, reader = self._reader(keys=False)
        if collection is not None:
            store.get_collection(collection)
        return reader.tags(collection)


def _direction(value: str) -> Direction:
    match value:
        case "out" | "in" | "both":
            return value
    raise ValidationError(f"direction must be out, in or both, not {value!r}")
