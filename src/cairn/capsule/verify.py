"""Verifying a saved capsule against the current index and files, without any model.

:func:`parse_capsule` rejects anything that is not an intact capsule: malformed JSON or
fields (``capsule_malformed``), an unknown ``schema_version`` (``capsule_schema_unknown``),
or content that does not match its own hashes (``capsule_tampered``: edited evidence
text, a wrong passage hash or evidence id, a capsule id or byte count that does not
match). :func:`check_evidence` compares one evidence item with its document's current
text; :func:`verify_capsule` puts the receipt together.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

import pydantic

from cairn.capsule.canonical import canonical_json, capsule_digest, evidence_id
from cairn.capsule.source import CurrentDocument
from cairn.contracts.capsule import (
    CAPSULE_SCHEMA,
    Capsule,
    CurrentLocation,
    EvidenceCheck,
    EvidenceItem,
    Fingerprints,
    IndexState,
    StateChange,
    VerifyCounts,
    VerifyReceipt,
)
from cairn.errors import ValidationError

__all__ = ["check_evidence", "parse_capsule", "verify_capsule"]


def _reject(code: str, message: str) -> ValidationError:
    return ValidationError(message, code=code)


def parse_capsule(raw: bytes | str) -> Capsule:
    """Parse and integrity-check a saved capsule (any JSON formatting is accepted)."""
    try:
        data: Any = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _reject("capsule_malformed", f"not a capsule: invalid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise _reject("capsule_malformed", "not a capsule: expected a JSON object")
    version = data.get("schema_version")
    if version is None:
        raise _reject("capsule_malformed", "not a capsule: no schema_version")
    if version != CAPSULE_SCHEMA:
        raise _reject("capsule_schema_unknown",
                      f"unknown capsule schema_version {version!r}; this cairn reads {CAPSULE_SCHEMA!r}")
    try:
        capsule = Capsule.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise _reject("capsule_malformed", f"not a valid capsule: {where}: {first['msg']}") from None
    for item in capsule.evidence:
        if hashlib.sha256(item.text.encode("utf-8")).hexdigest() != item.passage_hash:
            raise _reject("capsule_tampered", f"evidence {item.ref}: text does not match its passage_hash")
        if evidence_id(item.uri, item.docid, item.start_line, item.end_line, item.text_hash,
                       item.passage_hash) != item.id:
            raise _reject("capsule_tampered", f"evidence {item.ref}: id does not match its location and hashes")
    dumped = capsule.model_dump(mode="json")
    if capsule_digest(dumped) != capsule.capsule_id:
        raise _reject("capsule_tampered", "capsule_id does not match the capsule's content")
    if len(canonical_json(capsule)) != capsule.budget.bytes_used:
        raise _reject("capsule_tampered", "budget.bytes_used does not match the capsule's size")
    return capsule


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def _find_in_line(lines: Sequence[str], part: str, near: int) -> tuple[int, int] | None:
    """1-based (line, line) of the line holding ``part`` (a passage cut from one long
    line), closest to ``near``."""
    best: int | None = None
    for i, line in enumerate(lines):
        if len(line) > len(part) and part in line and (best is None or abs(i + 1 - near) < abs(best - near)):
            best = i + 1
    return None if best is None else (best, best)


def _find_span(lines: Sequence[str], wanted: Sequence[str], near: int) -> tuple[int, int] | None:
    """1-based (start, end) of ``wanted`` as consecutive whole lines, closest to ``near``."""
    if not wanted:
        return None
    best: tuple[int, int] | None = None
    n = len(wanted)
    for i, line in enumerate(lines):
        if line == wanted[0] and list(lines[i : i + n]) == list(wanted):
            start = i + 1
            if best is None or abs(start - near) < abs(best[0] - near):
                best = (start, start + n - 1)
    return best


def check_evidence(item: EvidenceItem, current: CurrentDocument | None) -> EvidenceCheck:
    """``unchanged`` (same text at the same span of the same document), ``moved`` (the same
    text elsewhere in it, or the document renamed), ``stale`` (the text is gone from the
    document) or ``missing`` (the document or its file is gone)."""
    base = {"id": item.id, "ref": item.ref, "uri": item.uri, "start_line": item.start_line,
            "end_line": item.end_line}
    if current is None:
        return EvidenceCheck(**base, status="missing", reason="document_deleted")
    if current.text is None:
        return EvidenceCheck(**base, status="missing", reason=current.problem or "document_deleted",
                             read_from="disk" if current.read_from == "disk" else "index")
    read_from = "disk" if current.read_from == "disk" else "index"
    lines = _lines(current.text)

    def location(start: int, end: int, passage_hash: str | None) -> CurrentLocation:
        return CurrentLocation(uri=current.uri, start_line=start, end_line=end,
                               source_hash=current.source_hash, text_hash=current.text_hash,
                               passage_hash=passage_hash)

    in_range = item.end_line <= len(lines)
    at_span = "\n".join(lines[item.start_line - 1 : item.end_line]) if in_range else None
    # A passage cut from one over-long line holds part of that line (see ingest.chunker).
    part_of_line = (at_span is not None and item.start_line == item.end_line and "\n" not in item.text
                    and len(item.text) < len(at_span) and item.text in at_span)
    if at_span == item.text or part_of_line:
        here = location(item.start_line, item.end_line, item.passage_hash)
        if current.uri == item.uri:
            return EvidenceCheck(**base, status="unchanged", reason="same_span", current=here, read_from=read_from)
        return EvidenceCheck(**base, status="moved", reason="renamed", current=here, read_from=read_from)
    found = _find_span(lines, item.text.split("\n"), item.start_line)
    if found is None and item.start_line == item.end_line and "\n" not in item.text:
        found = _find_in_line(lines, item.text, item.start_line)
    if found is not None:
        return EvidenceCheck(**base, status="moved", reason="found_elsewhere",
                             current=location(*found, item.passage_hash), read_from=read_from)
    now = None if at_span is None else hashlib.sha256(at_span.encode("utf-8")).hexdigest()
    return EvidenceCheck(
        **base, status="stale", reason="text_changed" if in_range else "span_out_of_range",
        current=location(item.start_line, min(item.end_line, len(lines)), now), read_from=read_from,
    )


def _changes(before: dict[str, Any], after: dict[str, Any]) -> list[StateChange]:
    return [StateChange(field=key, before=before.get(key), after=after.get(key))
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def verify_capsule(
    capsule: Capsule, lookup: Callable[[str], CurrentDocument | None], index_now: IndexState,
    fingerprints_now: Fingerprints,
) -> VerifyReceipt:
    """The receipt: every evidence item checked, index state and fingerprints compared."""
    checks = [check_evidence(item, lookup(item.docid)) for item in capsule.evidence]
    counts = VerifyCounts(**{
        status: sum(1 for c in checks if c.status == status)
        for status in ("unchanged", "stale", "missing", "moved")
    })
    index_changes = _changes(capsule.index.model_dump(), index_now.model_dump())
    fingerprint_changes = _changes(capsule.fingerprints.model_dump(), fingerprints_now.model_dump())
    unchanged = counts.unchanged == len(checks) and not index_changes and not fingerprint_changes
    return VerifyReceipt(
        capsule_id=capsule.capsule_id, status="unchanged" if unchanged else "changed",
        counts=counts, evidence=checks, index_changes=index_changes,
        fingerprint_changes=fingerprint_changes,
    )
