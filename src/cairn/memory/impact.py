"""Memory in ``cairn impact``: the observations and claims whose evidence cites a document
the impact walk reached, each with the links that connect it (knowledge delta, issue 16).

Registered with :class:`cairn.delta.service.DeltaService` as an impact extension. Scope
comes first: a record the caller may not see (another project's, another user's personal
memory) is never listed, and archived records are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from cairn.memory.records import Claim, Observation
from cairn.memory.scope import Caller, visible

if TYPE_CHECKING:
    from cairn.contracts.delta import Dependent
    from cairn.contracts.graph import PathHop
    from cairn.store.protocol import StoreOpener


class MemoryImpact:
    """Memory bound (by passage evidence) to a document, or to one that links to it."""

    def __init__(self, open_store: StoreOpener, caller: Callable[[], Caller]) -> None:
        self._open_store = open_store
        self._caller = caller

    def dependents(self, docid: str, reached: Mapping[str, Sequence[PathHop]]) -> list[Dependent]:
        from cairn.contracts.delta import Dependent

        store = self._open_store(False)
        cited = store.memory_citing("passage", list(reached))
        if not cited:
            return []
        records = store.memory_records(sorted({rid for ids in cited.values() for rid in ids}))
        caller = self._caller()
        nearest: dict[str, Dependent] = {}
        for target, ids in cited.items():
            path = list(reached[target])
            for rid in ids:
                record = records.get(rid)
                if record is None or record.status != "active" or not visible(record, caller):
                    continue
                if rid in nearest and nearest[rid].distance <= len(path):
                    continue
                cites = [_ref(e.target, e.start, e.end) for e in record.evidence
                         if e.kind == "passage" and e.target == target]
                nearest[rid] = Dependent(kind="memory", id=rid, title=_title(record), distance=len(path),
                                         path=path, cites=cites)
        return list(nearest.values())


def _title(record: Observation | Claim) -> str:
    if isinstance(record, Observation):
        return record.title
    return f"{record.subject} {record.predicate} {record.object}"


def _ref(docid: str, start: int | None, end: int | None) -> str:
    return f"{docid}:{start}-{end}" if start is not None and end is not None else docid
