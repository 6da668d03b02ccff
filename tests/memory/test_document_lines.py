"""Documents' lines for freshness, read in batches and kept by text hash
(:func:`cairn.memory.evidence.documents_lines`): the same answers as one
:func:`~cairn.memory.evidence.document_lines` a docid, before and after the documents change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cairn.memory.evidence import TextHashIndex, document_lines, documents_lines
from tests.memory.conftest import docid


class _OneByOne:
    """A backend without batch reads (only ``find_document``)."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def find_document(self, **kwargs: Any) -> Any:
        return self._store.find_document(**kwargs)


def _expected(store: Any, docids: list[str]) -> dict[str, list[str] | None]:
    return {d: document_lines(store, d) for d in docids}


def test_batched_lines_match_one_by_one(mws: Any, notes: Path) -> None:
    store = mws._open_store(True)
    assert isinstance(store, TextHashIndex)
    backups = docid(mws, "howto/backups.md")
    ids = [backups, "no-such-doc", *{r.docid for r in store.list_documents(None, None, 50)}]
    first = _expected(store, ids)
    assert first[backups] and first["no-such-doc"] is None
    for _ in range(2):  # the second time from the kept lines
        assert documents_lines(store, ids) == first
    assert documents_lines(_OneByOne(store), ids) == first
    assert documents_lines(store, []) == {}

    path = notes / "howto" / "backups.md"
    path.write_text(path.read_text().replace("02:00 UTC", "03:00 UTC"))
    mws.index()
    changed = _expected(store, ids)
    assert changed[backups] != first[backups]
    assert documents_lines(store, ids) == changed

    path.unlink()
    mws.index()
    gone = _expected(store, ids)
    assert gone[backups] is None
    assert documents_lines(store, ids) == gone
