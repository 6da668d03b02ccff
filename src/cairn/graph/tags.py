"""Hierarchical tag counts: ``a/b/c`` counts towards ``a/b`` and ``a`` (one per document)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TagStat:
    tag: str
    count: int  # documents tagged with this tag or a descendant
    direct: int  # documents tagged with exactly this tag
    depth: int  # 0 for a top-level tag
    parent: str | None
    children: tuple[str, ...]


def tag_tree(documents: Iterable[Sequence[str]]) -> list[TagStat]:
    """Every tag and every ancestor of one, sorted by path, from each document's tags."""
    count: dict[str, int] = {}
    direct: dict[str, int] = {}
    for tags in documents:
        exact = {t.strip("/") for t in tags if t.strip("/")}
        prefixes: set[str] = set()
        for tag in exact:
            direct[tag] = direct.get(tag, 0) + 1
            parts = tag.split("/")
            prefixes.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        for prefix in prefixes:
            count[prefix] = count.get(prefix, 0) + 1
    children: dict[str, list[str]] = {}
    for tag in count:
        parent = tag.rpartition("/")[0]
        if parent:
            children.setdefault(parent, []).append(tag)
    return [
        TagStat(
            tag=tag, count=count[tag], direct=direct.get(tag, 0), depth=tag.count("/"),
            parent=tag.rpartition("/")[0] or None, children=tuple(sorted(children.get(tag, []))),
        )
        for tag in sorted(count)
    ]
