"""Bad input to memory writes: a clear invalid_input error and nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from cairn.errors import ValidationError
from cairn.memory.service import MAX_NARRATIVE_BYTES
from tests.memory.conftest import docid


def _counts(ws: Any) -> dict[str, int]:
    return dict(ws._memory._open_store(True).memory_counts())


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"title": "t", "narrative": "n", "type": "rumour"}, "unknown observation type"),
    ({"title": "t", "narrative": "x" * (MAX_NARRATIVE_BYTES + 1)}, "over the 16384-byte limit"),
    ({"title": "t", "narrative": "é" * (MAX_NARRATIVE_BYTES // 2 + 1)}, "over the 16384-byte limit"),
    ({"subject": "db", "predicate": "is", "object": "sqlite", "evidence": ["nosuchdoc:1-2"]},
     "no such document"),
    ({"subject": "db", "predicate": "is", "object": "sqlite", "evidence": ["commit:not-a-sha"]},
     "not a commit id"),
    ({"subject": "db", "predicate": "is"}, "subject, predicate and object"),
    ({"title": "t", "narrative": "n", "evidence": ["file:src/missing.py"]}, "no such file"),
    ({"title": "t", "narrative": "n", "files": ["../outside.py"]}, "relative to the project root"),
    ({"title": "t", "narrative": "n", "visibility": "public"}, "visibility"),
    ({"title": "t", "narrative": "n", "source": "rumour"}, "source"),
    ({"title": "", "narrative": "n"}, "title: required"),
    ({"title": "t", "narrative": "n", "facts": ["f"] * 51}, "at most 50"),
    ({"title": "t", "narrative": "n", "observed_at": "yesterday"}, "observed_at"),
])
def test_bad_writes_are_refused_whole(mws: Any, kwargs: dict[str, Any], message: str) -> None:
    mws.memory_add("Existing", "one record")
    before = _counts(mws)
    with pytest.raises(ValidationError) as caught:
        mws.memory_add(**kwargs)
    assert caught.value.code == "invalid_input" and message in caught.value.message
    assert _counts(mws) == before


def test_a_span_outside_the_document(mws: Any) -> None:
    with pytest.raises(ValidationError, match="outside the document"):
        mws.memory_add("t", "n", evidence=[f"{docid(mws, 'howto/backups.md')}:5-999"])


def test_narrative_at_the_limit_is_fine(mws: Any) -> None:
    assert mws.memory_add("big", "x" * MAX_NARRATIVE_BYTES).action == "created"
