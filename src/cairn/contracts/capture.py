"""Contract of ``Workspace.capture``: a new note written atomically into a collection."""

from __future__ import annotations

from pydantic import Field

from cairn.contracts import Contract, IndexSummary


class CaptureResult(Contract):
    """A note captured as a NEW file inside a collection's folder, then indexed."""

    uri: str
    #: None when the note was written but is not indexed (writer busy, excluded by globs).
    docid: str | None
    collection: str
    #: POSIX path relative to the collection's root.
    path: str
    title: str
    bytes: int
    #: sha256 of the file's bytes.
    source_hash: str
    index: IndexSummary | None = None
    hints: list[str] = Field(default_factory=list)
