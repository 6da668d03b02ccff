"""A memory record with its derived state as the faces show it (:class:`MemoryItem`)."""

from __future__ import annotations

from cairn.contracts.memory import MemoryEvidence, MemoryItem
from cairn.memory.codec import evidence_dict, record_dict
from cairn.memory.records import Qualified


def memory_item(qualified: Qualified, signals: int = 0) -> MemoryItem:
    """The contract of one qualified record."""
    data = record_dict(qualified.record)
    data["evidence"] = [MemoryEvidence(**evidence_dict(e)) for e in qualified.record.evidence]
    return MemoryItem(
        **data, quality=qualified.quality, freshness=qualified.freshness,
        stale_reasons=list(qualified.stale_reasons), pinned=qualified.pinned,
        contested_with=list(qualified.contested_with), signals=signals,
    )
