"""What capsules read from the index and the files: passage hashes, the index state in
scope, and a document's current text (from disk when it changed since indexing).

These are the only functions of the capsule package that touch the store or the disk.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cairn.contracts.capsule import IndexState
from cairn.store.protocol import DocumentStore, Store


def passage_hashes(store: DocumentStore, passage_ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
    """(passage_hash, source_hash, text_hash) of passages by id."""
    return store.passage_hashes(passage_ids) if passage_ids else {}


def index_state(store: Store, collections: Sequence[str]) -> IndexState:
    """Counts and a content hash of the active documents of ``collections`` (all if empty)."""
    docs = store.document_states(collections)
    digest = hashlib.sha256()
    for docid, text_hash, _ in docs:
        digest.update(f"{docid}\x00{text_hash}\n".encode())
    return IndexState(
        schema_version=store.schema_version, documents=len(docs),
        passages=sum(n for _, _, n in docs), corpus_hash=digest.hexdigest(),
    )


@dataclass(frozen=True, slots=True)
class CurrentDocument:
    """A document as it is now, or why it cannot be read."""

    uri: str
    text: str | None
    source_hash: str
    text_hash: str
    read_from: str  # "index" | "disk"
    problem: str | None = None  # document_deleted | file_missing | file_unreadable


#: Normalised text of a file's bytes, as the indexer would produce it: (text, text_hash).
Normaliser = Callable[[str, bytes], tuple[str, str]]


def current_document(
    store: Store, docid: str, uri_of: Callable[[str, str], str], normalise: Normaliser,
) -> CurrentDocument | None:
    """The current text of ``docid``: the indexed text when the file on disk still has the
    indexed bytes, else the file re-read and normalised (a change not yet indexed).
    None when the index has never heard of the docid."""
    found = store.find_document(docid=docid)
    if found is None:
        return None
    record, text = found
    uri = uri_of(record.collection, record.path)
    if not record.active or text is None:
        return CurrentDocument(uri, None, record.source_hash, record.text_hash, "index", "document_deleted")
    root = Path(store.get_collection(record.collection).root)
    path = root / record.path
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return CurrentDocument(uri, None, record.source_hash, record.text_hash, "disk", "file_missing")
    except OSError:
        return CurrentDocument(uri, None, record.source_hash, record.text_hash, "disk", "file_unreadable")
    source_hash = hashlib.sha256(data).hexdigest()
    if source_hash == record.source_hash:
        return CurrentDocument(uri, text, record.source_hash, record.text_hash, "index")
    try:
        disk_text, text_hash = normalise(record.path, data)
    except Exception:  # a converter failing on the new bytes: the text cannot be checked
        return CurrentDocument(uri, None, source_hash, "", "disk", "file_unreadable")
    return CurrentDocument(uri, disk_text, source_hash, text_hash, "disk")
