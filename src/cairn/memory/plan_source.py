"""The memory store as the plan service's :class:`~cairn.memory.candidates.MemorySource`:
``cairn plan`` and ``cairn resume`` read the observations and claims that
:class:`~cairn.memory.service.MemoryService` keeps, qualified (quality from the signals,
freshness from the evidence) and already filtered by scope (the governor judges scope
again)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cairn.memory.scope import Caller

if TYPE_CHECKING:
    from cairn.memory.facts import TextFacts
    from cairn.memory.recall import HybridRecall, Recalled
    from cairn.memory.records import Qualified
    from cairn.memory.service import MemoryService
    from cairn.retrieval.vector import SharedQueryVector


class StoredMemory:
    def __init__(self, memory: MemoryService, recall: HybridRecall) -> None:
        self._memory = memory
        self._recall = recall

    def recall(self, task: str, *, project: str, user: str | None, limit: int,
               shared: SharedQueryVector | None = None) -> Sequence[Recalled]:
        """The active records ``user`` may see in ``project`` that best match ``task``: BM25
        and vectors fused, with session context (:mod:`cairn.memory.recall`)."""
        return self._recall.recall(task, Caller(project, user), limit, shared=shared)

    def text_facts(self, hashes: Sequence[str]) -> dict[str, TextFacts]:
        """The stored token counts and stems of texts by hash (:mod:`cairn.memory.facts`)."""
        return self._recall.text_facts(hashes)

    def recent(self, *, project: str, user: str | None, limit: int) -> Sequence[Qualified]:
        """The most recently updated active records, pinned ones first."""
        records = self._memory.visible_records(Caller(project, user))
        records.sort(key=lambda q: q.record.updated_at, reverse=True)
        records.sort(key=lambda q: not q.pinned)  # stable: pinned first, each newest first
        return records[:limit]

    def caller(self, project: str | None) -> tuple[str, str | None]:
        """The project identity (``project``: None for the current folder's, a folder or an
        identity) and the user, resolved as every memory operation resolves them."""
        who = self._memory.caller(project)
        return who.project, who.user
