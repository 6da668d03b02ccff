"""The backend-contract fixtures: every test in ``tests/store/`` runs once per backend.

A backend registers a factory in :data:`BACKENDS` (a PostgreSQL one would read its DSN
from the environment and skip when none is set); the tests only see the protocols.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cairn.store.protocol import Store
from cairn.store.records import CollectionRecord, DocumentWrite, LinkRow, PassageRow
from cairn.text.cjk import cjk_bigrams


def _sqlite(tmp_path: Path, name: str) -> Store:
    from cairn.store.sqlite import SQLiteStore

    return SQLiteStore(tmp_path / f"{name}.sqlite")


#: Backend name -> factory of a fresh, empty store (named, so a test can open two).
BACKENDS: dict[str, Callable[[Path, str], Store]] = {"sqlite": _sqlite}

OpenStore = Callable[[str], Store]


@pytest.fixture(params=sorted(BACKENDS))
def store_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_store(store_backend: str, tmp_path: Path) -> Iterator[OpenStore]:
    """Opens stores of the backend under test (the same name: the same index)."""
    opened: list[Store] = []

    def make(name: str = "index") -> Store:
        store = BACKENDS[store_backend](tmp_path, name)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: OpenStore) -> Store:
    return open_store("index")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def document(
    path: str, title: str, passages: list[str], *, tags: tuple[str, ...] = (),
    links: tuple[LinkRow, ...] = (), metadata: dict[str, object] | None = None,
    aliases: tuple[str, ...] = (), doc_date: str = "2026-01-01",
    headings: tuple[tuple[int, str, int], ...] = (),
) -> DocumentWrite:
    """A document as the ingest pipeline hands it to a store: one passage per paragraph."""
    text = "\n\n".join(passages) + "\n"
    rows = []
    line = 1
    for seq, body in enumerate(passages):
        end = line + body.count("\n")
        rows.append(PassageRow(
            seq=seq, start_line=line, end_line=end, heading_path=(title,), text=body,
            passage_hash=sha(body), token_count=len(body.split()), cjk_text=cjk_bigrams(body),
        ))
        line = end + 2
    return DocumentWrite(
        path=path, title=title, kind="markdown", converter="markdown", converter_version="1",
        size=len(text.encode()), mtime_ns=1, source_hash=sha("src:" + text), text_hash=sha(text),
        encoding="utf-8", text=text, line_count=text.count("\n"), metadata=dict(metadata or {}),
        tags=tags, aliases=aliases, doc_date=doc_date, author=None, headings=headings,
        links=links, passages=tuple(rows),
    )


def write(store: Store, collection: CollectionRecord, *docs: DocumentWrite) -> int:
    """Write new documents in one batch of one run; returns the run id."""
    run = store.start_run([collection.name])
    taken = len(store.all_docids())
    store.write_documents(
        collection, run, [(d, None, f"doc{taken + i:03d}") for i, d in enumerate(docs)], [], [], [],
    )
    store.finish_run(run, {"added": len(docs)}, [collection.id])
    return run
