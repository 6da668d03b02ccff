"""Memory records as JSON and back: how the store keeps them, how history rows show them
and what ``memory export`` prints. Canonical: sorted keys, no whitespace, UTF-8."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from cairn.memory.records import Claim, EvidenceRef, Observation

MemoryRecord = Observation | Claim

_TUPLES = ("facts", "files", "symbols", "concepts")


def record_dict(record: MemoryRecord) -> dict[str, Any]:
    """The record as plain JSON data, with ``kind`` (observation | claim)."""
    data = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    data["evidence"] = [evidence_dict(e) for e in record.evidence]
    for key in _TUPLES:
        if key in data:
            data[key] = list(data[key])
    data["kind"] = "observation" if isinstance(record, Observation) else "claim"
    return data


def evidence_dict(ref: EvidenceRef) -> dict[str, Any]:
    return {f.name: getattr(ref, f.name) for f in dataclasses.fields(ref)}


def evidence_from(data: dict[str, Any]) -> EvidenceRef:
    return EvidenceRef(**data)


def record_json(record: MemoryRecord) -> str:
    """Canonical JSON of a record."""
    return json.dumps(record_dict(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_from_dict(data: dict[str, Any]) -> MemoryRecord:
    """The record a :func:`record_dict` describes."""
    values = {k: v for k, v in data.items() if k != "kind"}
    values["evidence"] = tuple(evidence_from(e) for e in values.get("evidence", ()))
    if data.get("kind") == "claim":
        return Claim(**values)
    for key in _TUPLES:
        values[key] = tuple(values.get(key, ()))
    return Observation(**values)


def record_from_json(text: str) -> MemoryRecord:
    """The record a :func:`record_json` wrote."""
    return record_from_dict(json.loads(text))
