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
    from cairn.memory.records import Qualified
    from cairn.memory.service import MemoryService


class StoredMemory:
    def __init__(self, memory: MemoryService) -> None:
        self._memory = memory

    def recall(self, task: str, *, project: str, user: str | None, limit: int) -> Sequence[Qualified]:
        """The active records ``user`` may see in ``project`` that best match ``task`` (BM25)."""
        return [q for q, _ in self._memory.recall(task, Caller(project, user), limit)]

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
