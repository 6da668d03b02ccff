"""Reverse dependencies, bounded: who is touched when some code changes (pure functions).

Impact is a breadth-first walk over the reversed edges of a snapshot: a module is reached
through the modules that import it, a symbol through the scopes that call or name it. Each
impacted node keeps the first (hence shortest) path that reached it, so every answer comes
with its explanation. The walk stops at ``depth`` hops or ``max_nodes`` nodes and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from cairn.code.model import Edge, EdgeKind


@dataclass(frozen=True, slots=True)
class Impacted:
    """A node reached at ``distance`` hops; ``path`` is the chain of edges from it to the
    changed code (each edge's source depends on its target)."""

    node: str
    distance: int
    path: tuple[Edge, ...]


@dataclass(frozen=True, slots=True)
class ImpactResult:
    """The impacted nodes nearest first; ``truncated`` says why the walk stopped early
    (``""`` when it reached everything within ``depth``)."""

    starts: tuple[str, ...]
    nodes: tuple[Impacted, ...]
    truncated: str


def reverse_index(edges: Iterable[Edge], kinds: Collection[EdgeKind]) -> dict[str, list[Edge]]:
    """target -> the edges into it, for the given kinds (in a stable order)."""
    into: dict[str, list[Edge]] = {}
    for edge in edges:
        if edge.kind in kinds and edge.source != edge.target:
            into.setdefault(edge.target, []).append(edge)
    for bucket in into.values():
        bucket.sort(key=lambda e: (e.source, e.kind))
    return into


def forward_index(edges: Iterable[Edge], kinds: Collection[EdgeKind]) -> dict[str, list[Edge]]:
    """source -> the edges out of it, for the given kinds."""
    out: dict[str, list[Edge]] = {}
    for edge in edges:
        if edge.kind in kinds and edge.source != edge.target:
            out.setdefault(edge.source, []).append(edge)
    return out


#: Gives the edges at some nodes (into them for a reverse walk, out of them for a forward
#: one), in a stable order: a dictionary's ``get`` or one store query per level.
Neighbours = Callable[[Sequence[str]], Mapping[str, Sequence[Edge]]]


def from_index(index: Mapping[str, Sequence[Edge]]) -> Neighbours:
    """:data:`Neighbours` over an in-memory index (:func:`reverse_index`, :func:`forward_index`)."""
    return lambda nodes: {n: index[n] for n in nodes if n in index}


def walk(neighbours: Neighbours | Mapping[str, Sequence[Edge]], starts: Sequence[str], *, depth: int,
         max_nodes: int, reverse: bool = True) -> ImpactResult:
    """Breadth-first from ``starts``, one level at a time (reverse: follow edges to their
    sources; forward: to their targets), at most ``depth`` hops and ``max_nodes`` nodes."""
    fetch = from_index(neighbours) if isinstance(neighbours, Mapping) else neighbours
    via: dict[str, tuple[int, Edge | None]] = {s: (0, None) for s in starts}
    order: list[str] = []
    frontier = list(dict.fromkeys(starts))
    truncated = ""
    distance = 0
    while frontier and not truncated:
        found = fetch(frontier)
        if distance >= depth:
            if any((e.source if reverse else e.target) not in via
                   for node in frontier for e in found.get(node, ())):
                truncated = f"depth {depth} reached; more nodes lie beyond it"
            break
        following: list[str] = []
        for node in frontier:
            for edge in found.get(node, ()):
                nxt = edge.source if reverse else edge.target
                if nxt in via:
                    continue
                if len(order) >= max_nodes:
                    truncated = f"max_nodes {max_nodes} reached"
                    break
                via[nxt] = (distance + 1, edge)
                order.append(nxt)
                following.append(nxt)
            if truncated:
                break
        frontier = following
        distance += 1
    nodes: list[Impacted] = []
    for node in order:
        chain: list[Edge] = []
        current = node
        while True:
            step = via[current][1]
            if step is None:
                break
            chain.append(step)
            current = step.target if reverse else step.source
        nodes.append(Impacted(node, via[node][0], tuple(chain)))
    return ImpactResult(tuple(starts), tuple(nodes), truncated)
