"""The structural diff of two revisions of a document: a pure function of their
structure snapshots (:mod:`cairn.ingest.structure`).

- headings and paragraph blocks are aligned as sequences (a longest common subsequence,
  so the fewest items count as moved; ``difflib``'s heuristic past ``LCS_CELLS``); an item removed
  in one place and added, identical, in another is **moved** (one entry with both
  spans), never removed + added; what is left of a replaced run is paired in order as
  **changed** (same place, new text), the rest added or removed;
- links are compared as a multiset of (kind, target, anchor), tags as a set;
- frontmatter fields by key (tags are reported as tags, not as the ``tags`` field).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, TypeVar

from cairn.contracts.delta import DiffCounts, FieldDelta, HeadingDelta, LinkDelta, PassageDelta
from cairn.ingest.structure import Block, Structure

T = TypeVar("T")
#: Frontmatter keys whose change is reported as tags.
TAG_KEYS = frozenset({"tags", "tag"})


@dataclass(frozen=True, slots=True)
class StructuralDiff:
    headings: list[HeadingDelta] = field(default_factory=list)
    passages: list[PassageDelta] = field(default_factory=list)
    links: list[LinkDelta] = field(default_factory=list)
    tags_added: list[str] = field(default_factory=list)
    tags_removed: list[str] = field(default_factory=list)
    frontmatter: list[FieldDelta] = field(default_factory=list)

    def counts(self) -> DiffCounts:
        return DiffCounts(
            headings=len(self.headings), passages=len(self.passages), links=len(self.links),
            tags=len(self.tags_added) + len(self.tags_removed), frontmatter=len(self.frontmatter),
        )


@dataclass(frozen=True, slots=True)
class Aligned:
    """Sequence alignment of two lists: index pairs per kind of change."""

    moved: list[tuple[int, int]]
    changed: list[tuple[int, int]]
    removed: list[int]
    added: list[int]


def align(old: Sequence[Hashable], new: Sequence[Hashable]) -> Aligned:
    """Align two sequences of keys: moved, changed in place, removed and added items."""
    removed: list[int] = []
    added: list[int] = []
    runs: list[tuple[list[int], list[int]]] = []
    i0 = j0 = 0
    for i, j in [*_matches(old, new), (len(old), len(new))]:
        if i > i0 or j > j0:
            runs.append((list(range(i0, i)), list(range(j0, j))))
            removed += range(i0, i)
            added += range(j0, j)
        i0, j0 = i + 1, j + 1
    # An identical item gone from one place and arrived at another is a move.
    waiting: dict[Hashable, list[int]] = {}
    for j in added:
        waiting.setdefault(new[j], []).append(j)
    moved: list[tuple[int, int]] = []
    for i in removed:
        slots = waiting.get(old[i])
        if slots:
            moved.append((i, slots.pop(0)))
    gone = {i for i, _ in moved}
    came = {j for _, j in moved}
    changed: list[tuple[int, int]] = []
    for olds, news in runs:
        left = [i for i in olds if i not in gone]
        right = [j for j in news if j not in came]
        changed += zip(left, right, strict=False)
    paired_old = gone | {i for i, _ in changed}
    paired_new = came | {j for _, j in changed}
    return Aligned(
        moved=moved, changed=changed,
        removed=[i for i in removed if i not in paired_old],
        added=[j for j in added if j not in paired_new],
    )


#: Above this many cells the alignment falls back from an exact longest common
#: subsequence to difflib's faster heuristic.
LCS_CELLS = 250_000


def _matches(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[tuple[int, int]]:
    """Index pairs of equal items kept in place: the common prefix and suffix, and a
    longest common subsequence of what lies between (the fewest items seen as moved)."""
    n, m = len(old), len(new)
    head = 0
    while head < min(n, m) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and old[n - 1 - tail] == new[m - 1 - tail]:
        tail += 1
    a, b = old[head:n - tail], new[head:m - tail]
    middle: list[tuple[int, int]] = []
    if a and b and len(a) * len(b) <= LCS_CELLS:
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for x in range(len(a) - 1, -1, -1):
            row, below = table[x], table[x + 1]
            for y in range(len(b) - 1, -1, -1):
                row[y] = below[y + 1] + 1 if a[x] == b[y] else max(below[y], row[y + 1])
        x = y = 0
        while x < len(a) and y < len(b):
            if a[x] == b[y]:
                middle.append((head + x, head + y))
                x, y = x + 1, y + 1
            elif table[x + 1][y] >= table[x][y + 1]:
                x += 1
            else:
                y += 1
    elif a and b:
        for block in SequenceMatcher(None, list(a), list(b), autojunk=False).get_matching_blocks():
            middle += [(head + block.a + k, head + block.b + k) for k in range(block.size)]
    return ([(k, k) for k in range(head)] + middle
            + [(n - tail + k, m - tail + k) for k in range(tail)])


def _heading_at(headings: Sequence[tuple[int, str, int]]) -> Callable[[int], str | None]:
    def under(line: int) -> str | None:
        found = None
        for _, text, at in headings:
            if at >= line:
                break
            found = text
        return found

    return under


def _order(delta: PassageDelta | HeadingDelta) -> int:
    if isinstance(delta, PassageDelta):
        return delta.new_start_line if delta.new_start_line is not None else delta.old_start_line or 0
    return delta.new_line if delta.new_line is not None else delta.old_line or 0


def diff_structures(old: Structure, new: Structure) -> StructuralDiff:
    """What changed from ``old`` to ``new`` (either may be empty: created or deleted)."""
    return StructuralDiff(
        headings=_headings(old.headings, new.headings),
        passages=_blocks(old, new),
        links=_links(old.links, new.links),
        tags_added=sorted(set(new.tags) - set(old.tags)),
        tags_removed=sorted(set(old.tags) - set(new.tags)),
        frontmatter=_fields(old.frontmatter, new.frontmatter),
    )


def _headings(old: Sequence[tuple[int, str, int]], new: Sequence[tuple[int, str, int]]) -> list[HeadingDelta]:
    a = align([(lvl, text) for lvl, text, _ in old], [(lvl, text) for lvl, text, _ in new])
    out = [HeadingDelta(change="moved", level=new[j][0], text=new[j][1], old_line=old[i][2], new_line=new[j][2])
           for i, j in a.moved]
    out += [HeadingDelta(change="changed", level=new[j][0], text=new[j][1], old_text=old[i][1],
                         old_line=old[i][2], new_line=new[j][2]) for i, j in a.changed]
    out += [HeadingDelta(change="removed", level=old[i][0], text=old[i][1], old_line=old[i][2]) for i in a.removed]
    out += [HeadingDelta(change="added", level=new[j][0], text=new[j][1], new_line=new[j][2]) for j in a.added]
    return sorted(out, key=_order)


def _blocks(old: Structure, new: Structure) -> list[PassageDelta]:
    a = align([b.hash for b in old.blocks], [b.hash for b in new.blocks])
    under_old, under_new = _heading_at(old.headings), _heading_at(new.headings)

    def delta(change: str, before: Block | None, after: Block | None) -> PassageDelta:
        return PassageDelta.model_validate({
            "change": change,
            "old_start_line": before.start_line if before else None,
            "old_end_line": before.end_line if before else None,
            "new_start_line": after.start_line if after else None,
            "new_end_line": after.end_line if after else None,
            "old_hash": before.hash if before else None,
            "new_hash": after.hash if after else None,
            "heading": under_new(after.start_line) if after else under_old(before.start_line) if before else None,
        })

    ob, nb = old.blocks, new.blocks
    out = [delta("moved", ob[i], nb[j]) for i, j in a.moved]
    out += [delta("changed", ob[i], nb[j]) for i, j in a.changed]
    out += [delta("removed", ob[i], None) for i in a.removed]
    out += [delta("added", None, nb[j]) for j in a.added]
    return sorted(out, key=_order)


def _links(old: Sequence[tuple[str, str, str | None, int]],
           new: Sequence[tuple[str, str, str | None, int]]) -> list[LinkDelta]:
    def key(link: tuple[str, str, str | None, int]) -> tuple[str, str, str | None]:
        return link[0], link[1], link[2]

    before, after = Counter(key(x) for x in old), Counter(key(x) for x in new)
    out: list[LinkDelta] = []
    for change, side, extra in (("removed", old, before - after), ("added", new, after - before)):
        for link in side:
            if extra[key(link)] > 0:
                extra[key(link)] -= 1
                out.append(LinkDelta.model_validate(
                    {"change": change, "kind": link[0], "target": link[1], "anchor": link[2], "line": link[3]}))
    return sorted(out, key=lambda d: (d.line, d.change))


def _fields(old: dict[str, Any] | Any, new: dict[str, Any] | Any) -> list[FieldDelta]:
    out: list[FieldDelta] = []
    for k in sorted(set(old) | set(new)):
        if k in TAG_KEYS:
            continue
        if k not in old:
            out.append(FieldDelta(key=k, change="added", after=new[k]))
        elif k not in new:
            out.append(FieldDelta(key=k, change="removed", before=old[k]))
        elif old[k] != new[k]:
            out.append(FieldDelta(key=k, change="changed", before=old[k], after=new[k]))
    return out
