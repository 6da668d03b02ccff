"""The resolved link graph and bounded walks over it: neighbors, shortest paths, summary.

Pure: built from resolved links, no store. Every walk is bounded (depth, nodes, edges
examined) and reports which bound cut it short. Order is deterministic: notes by
(collection, path), links by (source, line, column).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from cairn.graph.resolve import LinkSpec, Note, Resolution

Direction = Literal["out", "in", "both"]
Way = Literal["forward", "backward"]


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    source: Note
    link: LinkSpec
    resolution: Resolution
    anchor_found: bool | None

    @property
    def target(self) -> Note | None:
        return self.resolution.target


@dataclass(frozen=True, slots=True)
class Hop:
    """A step from one note to another over a link (``backward``: the link points at ``start``)."""

    start: Note
    end: Note
    way: Way
    via: ResolvedLink


@dataclass(slots=True)
class Caps:
    """Bounds of one walk: name → (limit, hit)."""

    limits: dict[str, int]
    hit: set[str]

    @classmethod
    def of(cls, **limits: int) -> Caps:
        return cls(dict(limits), set())

    @property
    def truncated(self) -> bool:
        return bool(self.hit)


def link_order(rl: ResolvedLink) -> tuple[str, str, int, int]:
    return (rl.source.collection, rl.source.path, rl.link.line, rl.link.column)


class LinkGraph:
    """Notes and the links between them (self-links and links leaving the notes dropped)."""

    def __init__(self, notes: Iterable[Note], links: Iterable[ResolvedLink]) -> None:
        self.notes = {n.key: n for n in sorted(notes, key=lambda n: (n.collection, n.path))}
        self.out: dict[int, list[ResolvedLink]] = {}
        self.inc: dict[int, list[ResolvedLink]] = {}
        for rl in sorted(links, key=link_order):
            target = rl.target
            if target is None or target.key == rl.source.key or target.key not in self.notes:
                continue
            self.out.setdefault(rl.source.key, []).append(rl)
            self.inc.setdefault(target.key, []).append(rl)

    def steps(self, key: int, direction: Direction) -> Iterator[Hop]:
        """Hops out of ``key``: links it makes (forward), then links to it (backward)."""
        start = self.notes[key]
        if direction in ("out", "both"):
            for rl in self.out.get(key, ()):
                assert rl.target is not None
                yield Hop(start, rl.target, "forward", rl)
        if direction in ("in", "both"):
            for rl in self.inc.get(key, ()):
                yield Hop(start, rl.source, "backward", rl)

    def neighbors(
        self, start: int, *, depth: int, direction: Direction, max_nodes: int, max_edges: int,
    ) -> tuple[list[tuple[Hop, int]], Caps]:
        """Notes within ``depth`` hops, breadth first, each with the first hop that reached it."""
        caps = Caps.of(depth=depth, max_nodes=max_nodes, max_edges=max_edges)
        seen = {start}
        found: list[tuple[Hop, int]] = []
        frontier = [start]
        examined = 0
        for distance in range(1, depth + 1):
            nxt: list[int] = []
            for key in frontier:
                for hop in self.steps(key, direction):
                    examined += 1
                    if examined > max_edges:
                        caps.hit.add("max_edges")
                        return found, caps
                    if hop.end.key in seen:
                        continue
                    if len(found) >= max_nodes:
                        caps.hit.add("max_nodes")
                        return found, caps
                    seen.add(hop.end.key)
                    found.append((hop, distance))
                    nxt.append(hop.end.key)
            frontier = nxt
            if not frontier:
                break
        else:
            if any(h.end.key not in seen for k in frontier for h in self.steps(k, direction)):
                caps.hit.add("depth")
        return found, caps

    def shortest_path(
        self, start: int, goal: int, *, direction: Direction, max_depth: int, max_nodes: int,
    ) -> tuple[list[Hop] | None, int, Caps]:
        """A shortest path (fewest hops; ties broken by link order) and how many notes were explored."""
        caps = Caps.of(max_depth=max_depth, max_nodes=max_nodes)
        if start == goal:
            return [], 1, caps
        parent: dict[int, Hop | None] = {start: None}
        queue: deque[tuple[int, int]] = deque([(start, 0)])
        while queue:
            key, dist = queue.popleft()
            if dist >= max_depth:
                if any(h.end.key not in parent for h in self.steps(key, direction)):
                    caps.hit.add("max_depth")
                continue
            for hop in self.steps(key, direction):
                nxt = hop.end.key
                if nxt in parent:
                    continue
                if len(parent) >= max_nodes:
                    caps.hit.add("max_nodes")
                    return None, len(parent), caps
                parent[nxt] = hop
                if nxt == goal:
                    path: list[Hop] = []
                    cursor: Hop | None = hop
                    while cursor is not None:
                        path.append(cursor)
                        cursor = parent[cursor.start.key]
                    return path[::-1], len(parent), caps
                queue.append((nxt, dist + 1))
        return None, len(parent), caps
