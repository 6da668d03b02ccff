"""Freshness of evidence refs against the current sources (cairn.memory.freshness)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cairn.memory.freshness import assess, span_hash
from cairn.memory.records import EvidenceRef

LINES = ["# Title", "alpha", "beta", "gamma"]


def lines_of(docid: str) -> Sequence[str] | None:
    return {"d1": LINES, "d2": ["# Title", "alpha", "BETA", "gamma"]}.get(docid)


def hash_of(path: str) -> str | None:
    if path == "outside.py":
        raise LookupError(path)
    return {"a.py": "h1", "b.py": "h2"}.get(path)


def passage(docid: str) -> EvidenceRef:
    return EvidenceRef("passage", docid, span_hash(LINES, 2, 3), 2, 3)


@pytest.mark.parametrize(("refs", "freshness", "reasons"), [
    ((), "unknown", ()),
    ((EvidenceRef("commit", "abc123"),), "unknown", ()),
    ((passage("d1"),), "fresh", ()),
    ((passage("d2"),), "suspect", ("passage_changed:d2",)),
    ((passage("gone"),), "stale", ("document_gone:gone",)),
    ((EvidenceRef("file", "a.py", "h1"),), "fresh", ()),
    ((EvidenceRef("file", "a.py", "old"),), "suspect", ("file_changed:a.py",)),
    ((EvidenceRef("file", "c.py", "h3"),), "stale", ("file_gone:c.py",)),
    ((EvidenceRef("file", "outside.py", "h"),), "unknown", ("file_unchecked:outside.py",)),
    ((passage("d2"), passage("gone")), "stale", ("passage_changed:d2", "document_gone:gone")),
    ((passage("d1"), EvidenceRef("file", "a.py", "old")), "suspect", ("file_changed:a.py",)),
    ((EvidenceRef("passage", "d1", span_hash(LINES, 3, 9), 3, 9),), "suspect", ("passage_changed:d1",)),
])
def test_assess(refs: tuple[EvidenceRef, ...], freshness: str, reasons: tuple[str, ...]) -> None:
    assert assess(refs, lines_of, hash_of) == (freshness, reasons)
