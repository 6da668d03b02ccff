"""Verifying a saved capsule against the current index and files, without any model.

:func:`parse_capsule` rejects anything that is not an intact capsule: malformed JSON or
fields (``capsule_malformed``), an unknown ``schema_version`` (``capsule_schema_unknown``),
content that does not match its own hashes (``capsule_tampered``: edited evidence text, a
wrong passage hash or evidence id, a capsule id or byte count that does not match), or
content the builder could not have produced (``capsule_inconsistent``, every violation
listed: see :func:`consistency_problems`). Those hashes are unkeyed, so an editor can
recompute them ("reseal"); what a reseal cannot fake is caught by the consistency checks,
by comparing every recorded hash with the one recomputed from the current sources
(:func:`check_evidence`), and by the signature (:mod:`cairn.capsule.signing`).
:func:`verify_capsule` puts the receipt together.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

import pydantic

from cairn.capsule.build import facets_mentioned, goal_facets
from cairn.capsule.canonical import canonical_json, capsule_digest, evidence_id, signed_payload
from cairn.capsule.signing import CapsuleKey, authenticity
from cairn.capsule.source import CurrentDocument
from cairn.contracts.capsule import (
    CAPSULE_SCHEMA,
    Capsule,
    CurrentLocation,
    EvidenceCheck,
    EvidenceItem,
    Fingerprints,
    HashMismatch,
    IndexState,
    StateChange,
    VerifyCounts,
    VerifyReceipt,
)
from cairn.errors import ValidationError
from cairn.models.tokens import TokenCounter

__all__ = ["check_evidence", "consistency_problems", "parse_capsule", "verify_capsule"]


def _reject(code: str, message: str) -> ValidationError:
    return ValidationError(message, code=code)


def parse_capsule(raw: bytes | str, counter: TokenCounter | None = None) -> Capsule:
    """Parse and integrity-check a saved capsule (any JSON formatting is accepted). With
    the ``counter`` the capsule names (``fingerprints.token_counter``), every item's token
    count is recounted too."""
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
    problems = consistency_problems(capsule)
    if counter is not None and counter.name == capsule.fingerprints.token_counter:
        counts = counter.count([item.text for item in capsule.evidence])
        problems += [f"{item.ref} records {item.tokens} tokens, its text has {n} ({counter.name})"
                     for item, n in zip(capsule.evidence, counts, strict=True) if item.tokens != n]
    if problems:
        raise _reject("capsule_inconsistent", "capsule is inconsistent (edited and resealed?): "
                      + "; ".join(problems))
    return capsule


def consistency_problems(capsule: Capsule) -> list[str]:
    """What in ``capsule`` the builder (:mod:`cairn.capsule.build`) could not have produced,
    one message per violation, each naming the evidence ref or field: refs not E1..En in
    order; an item repeating another (same id or text) or overlapping another's span of the
    same document; items out of selection order; item facets, coverage facets or coverage
    refs that do not follow from the goal and the evidence texts (an edited goal, a dropped
    item, coverage citing an item that does not exist); a token count that is not the sum
    of the items' or exceeds the request; more candidates selected and omitted than were
    retrieved; omissions not one sorted entry per reason."""
    problems: list[str] = []
    items = capsule.evidence
    for n, item in enumerate(items, 1):
        if item.ref != f"E{n}":
            problems.append(f"evidence #{n} has ref {item.ref!r}, expected 'E{n}' (refs run E1..En in order)")
    for i, item in enumerate(items):
        for earlier in items[:i]:
            if item.id == earlier.id:
                problems.append(f"{item.ref} duplicates {earlier.ref}")
            elif item.passage_hash == earlier.passage_hash:
                problems.append(f"{item.ref} repeats the text of {earlier.ref}")
            elif (item.docid == earlier.docid and item.start_line <= earlier.end_line
                  and earlier.start_line <= item.end_line):
                problems.append(f"{item.ref} overlaps {earlier.ref} in {item.uri}")
            else:
                continue
            break
        if not 1 <= item.start_line <= item.end_line:
            problems.append(f"{item.ref} has an impossible span {item.start_line}-{item.end_line}")
    facets = goal_facets(capsule.goal)
    hits: list[list[str]] = []
    for item in items:
        hits.append([facets[i].text for i in sorted(facets_mentioned(item.text, facets))])
        if item.facets != hits[-1]:
            problems.append(f"{item.ref} facets {item.facets} do not follow from the goal and its text "
                            f"(expected {hits[-1]})")
    if [(c.facet, c.kind) for c in capsule.coverage] != [(f.text, f.kind) for f in facets]:
        problems.append("coverage facets do not match the goal's facets (goal or coverage edited)")
    refs = {item.ref for item in items}
    for c in capsule.coverage:
        missing = [r for r in c.evidence if r not in refs]
        if missing:
            problems.append(f"coverage of {c.facet!r} cites evidence that does not exist: {', '.join(missing)}")
        expected = [item.ref for item, hit in zip(items, hits, strict=True) if c.facet in hit]
        if not missing and c.evidence != expected:
            problems.append(f"coverage of {c.facet!r} cites {c.evidence}, the evidence mentioning it is {expected}")
        if c.covered != bool(c.evidence) or (c.gap_reason is None) != c.covered:
            problems.append(f"coverage of {c.facet!r}: covered, evidence and gap_reason disagree")
    problems += _order_problems(capsule, hits)
    budget = capsule.budget
    if budget.tokens_used != sum(item.tokens for item in items):
        problems.append(f"budget.tokens_used {budget.tokens_used} is not the sum of the items' tokens "
                        f"({sum(item.tokens for item in items)})")
    if budget.tokens_requested is not None and budget.tokens_used > budget.tokens_requested:
        problems.append("budget.tokens_used exceeds budget.tokens_requested")
    if budget.bytes_requested is not None and budget.bytes_used > budget.bytes_requested:
        problems.append("budget.bytes_used exceeds budget.bytes_requested")
    considered = len(items) + sum(o.count for o in capsule.omissions)
    if considered > capsule.retrieval.candidates:
        problems.append(f"{considered} candidates selected or omitted, more than retrieval.candidates "
                        f"({capsule.retrieval.candidates})")
    reasons = [o.reason for o in capsule.omissions]
    if reasons != sorted(set(reasons)) or any(o.count < 1 for o in capsule.omissions):
        problems.append("omissions are not one entry per reason, sorted, each counted")
    return problems


def _order_problems(capsule: Capsule, hits: Sequence[Sequence[str]]) -> list[str]:
    """Replay the selection over the selected items: each pick is a best-ranked remaining
    item that mentions a facet not yet covered, or, when none does, a best-ranked remaining
    one (omitted candidates never change what is covered, and byte trimming drops from the
    end, so the selected items alone replay the order). Ranks are the scores, except after
    a reranker (which reorders without changing scores): then only the facet rule holds.
    Equal rounded scores may come in either order."""
    by_score = "rerank" not in capsule.retrieval.stages_run
    remaining = list(range(len(capsule.evidence)))
    covered: set[str] = set()
    for i in range(len(capsule.evidence)):
        eligible = [r for r in remaining if set(hits[r]) - covered] or remaining
        best = max(capsule.evidence[r].score for r in eligible)
        if i not in eligible or (by_score and capsule.evidence[i].score < best):
            return [f"{capsule.evidence[i].ref} is out of selection order (items reordered?)"]
        remaining.remove(i)
        covered |= set(hits[i])
    return []


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


def _mismatches(item: EvidenceItem, current: CurrentDocument, at_span: str | None) -> list[HashMismatch]:
    """The item's recorded hashes that differ from those recomputed from ``current``: the
    capsule's own hash fields are never taken on trust."""
    now = {
        "source_hash": current.source_hash,
        "text_hash": current.text_hash,
        "passage_hash": None if at_span is None else hashlib.sha256(at_span.encode("utf-8")).hexdigest(),
    }
    recorded = {"source_hash": item.source_hash, "text_hash": item.text_hash, "passage_hash": item.passage_hash}
    return [HashMismatch(field=f, recorded=recorded[f], current=now[f])
            for f in ("source_hash", "text_hash", "passage_hash") if recorded[f] != now[f]]


def check_evidence(item: EvidenceItem, current: CurrentDocument | None) -> EvidenceCheck:
    """``unchanged`` (same text at the same span of the same document), ``moved`` (the same
    text elsewhere in it, or the document renamed), ``stale`` (the text is gone from the
    document) or ``missing`` (the document or its file is gone). ``mismatches`` lists the
    recorded hashes (source, text, passage at the recorded span) that differ from the
    current document's, whatever the status: a passage can stand unchanged in a document
    whose other lines changed, or under a forged document hash."""
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
    # A passage cut from one over-long line holds part of that line (see ingest.chunker):
    # its passage hash is that of the part.
    part_of_line = (at_span is not None and item.start_line == item.end_line and "\n" not in item.text
                    and len(item.text) < len(at_span) and item.text in at_span)
    mismatches = _mismatches(item, current, item.text if part_of_line else at_span)
    if at_span == item.text or part_of_line:
        here = location(item.start_line, item.end_line, item.passage_hash)
        if current.uri == item.uri:
            return EvidenceCheck(**base, status="unchanged", reason="same_span", current=here,
                                 read_from=read_from, mismatches=mismatches)
        return EvidenceCheck(**base, status="moved", reason="renamed", current=here, read_from=read_from,
                             mismatches=mismatches)
    found = _find_span(lines, item.text.split("\n"), item.start_line)
    if found is None and item.start_line == item.end_line and "\n" not in item.text:
        found = _find_in_line(lines, item.text, item.start_line)
    if found is not None:
        return EvidenceCheck(**base, status="moved", reason="found_elsewhere",
                             current=location(*found, item.passage_hash), read_from=read_from,
                             mismatches=mismatches)
    now = None if at_span is None else hashlib.sha256(at_span.encode("utf-8")).hexdigest()
    return EvidenceCheck(
        **base, status="stale", reason="text_changed" if in_range else "span_out_of_range",
        current=location(item.start_line, min(item.end_line, len(lines)), now), read_from=read_from,
        mismatches=mismatches,
    )


def _changes(before: dict[str, Any], after: dict[str, Any]) -> list[StateChange]:
    return [StateChange(field=key, before=before.get(key), after=after.get(key))
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def verify_capsule(
    capsule: Capsule, lookup: Callable[[str], CurrentDocument | None], index_now: IndexState,
    fingerprints_now: Fingerprints, key: CapsuleKey | None = None,
) -> VerifyReceipt:
    """The receipt: every evidence item checked (text and recorded hashes), index state and
    fingerprints compared, and the signature checked with this install's ``key`` (None:
    this install has no key yet, so no signature can be its own)."""
    checks = [check_evidence(item, lookup(item.docid)) for item in capsule.evidence]
    counts = VerifyCounts(
        **{status: sum(1 for c in checks if c.status == status)
           for status in ("unchanged", "stale", "missing", "moved")},
        mismatched=sum(1 for c in checks if c.mismatches),
    )
    index_changes = _changes(capsule.index.model_dump(), index_now.model_dump())
    fingerprint_changes = _changes(capsule.fingerprints.model_dump(), fingerprints_now.model_dump())
    unchanged = (counts.unchanged == len(checks) and not counts.mismatched and not index_changes
                 and not fingerprint_changes)
    return VerifyReceipt(
        capsule_id=capsule.capsule_id, status="unchanged" if unchanged else "changed",
        counts=counts, evidence=checks, index_changes=index_changes,
        fingerprint_changes=fingerprint_changes,
        authenticity=authenticity(capsule.signature, signed_payload(capsule.model_dump(mode="json")), key),
        signed_by=None if capsule.signature is None else capsule.signature.key_id,
    )
