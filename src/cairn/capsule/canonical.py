"""Canonical JSON and the identities derived from it.

Canonical JSON: keys sorted, no insignificant whitespace, UTF-8 (no ``\\u`` escapes for
non-ASCII), floats as Python's shortest round-trip repr. No timestamps ever go into a
capsule, so the same index and request give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

#: Length of a SHA-256 hex digest: ``capsule_id`` always has it, so the capsule's size
#: does not depend on the id's value.
ID_LENGTH = 64


def canonical_json(value: BaseModel | Any) -> bytes:
    """The canonical UTF-8 JSON bytes of a model (its JSON dump) or of plain JSON data."""
    data = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    return json.dumps(
        data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False,
    ).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def evidence_id(uri: str, docid: str, start_line: int, end_line: int, text_hash: str,
                passage_hash: str) -> str:
    """SHA-256 of (uri, docid, start_line, end_line, text_hash, passage_hash), NUL-separated."""
    parts = (uri, docid, str(start_line), str(end_line), text_hash, passage_hash)
    return sha256_hex("\x00".join(parts).encode("utf-8"))


def capsule_digest(data: dict[str, Any]) -> str:
    """The capsule id: SHA-256 of the canonical JSON of ``data`` with ``capsule_id`` empty
    and without ``signature`` (the id names the content, whoever signed it)."""
    content = {k: v for k, v in data.items() if k != "signature"}
    return sha256_hex(canonical_json({**content, "capsule_id": ""}))


def signed_payload(data: dict[str, Any]) -> bytes:
    """What a capsule's signature signs: its canonical JSON without ``signature`` (so
    ``capsule_id``, ``budget.bytes_used`` and every other field are covered)."""
    return canonical_json({k: v for k, v in data.items() if k != "signature"})
