"""The parallel ingest path gives exactly what the sequential one gives."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

import cairn
import cairn.ingest.pipeline as pipeline
from cairn.ingest.chunker import estimate_tokens
from cairn.ingest.prepare import IngestLimits, Prepared, prepare_file
from cairn.ingest.walker import walk_collection
from cairn.ingest.workers import _decode, _encode


def make_vault(root: Path, n: int) -> None:
    for i in range(n):
        folder = root / f"f{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        front = f"---\ntitle: Note {i}\ntags: [t{i % 5}, area/x{i % 3}]\ndate: 2024-01-{i % 28 + 1:02d}\n---\n" if i % 2 else ""
        body = f"# Heading {i}\n\nText about [[note{(i + 1) % n}]] and #tag{i % 4}.\n\n## Part\n\n" + "word " * (i % 300)
        (folder / f"note{i}.md").write_text(front + body + "\n北京 " * (i % 2), encoding="utf-8")


def dump(home: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(home / "indexes" / "default.sqlite")
    rows: list[tuple[object, ...]] = []
    for sql in (
        "SELECT docid, path, title, kind, source_hash, text_hash, line_count, metadata, tags, aliases, doc_date FROM documents ORDER BY path",
        "SELECT d.path, p.seq, p.start_line, p.end_line, p.heading_path, p.passage_hash, p.token_count, p.page FROM passages p JOIN documents d ON d.id = p.document_id ORDER BY d.path, p.seq",
        "SELECT d.path, l.seq, l.kind, l.target, l.anchor, l.alias, l.embed, l.line, l.col, l.raw FROM links l JOIN documents d ON d.id = l.document_id ORDER BY d.path, l.seq",
        "SELECT d.path, t.text FROM document_text t JOIN documents d ON d.id = t.document_id ORDER BY d.path",
    ):
        rows += conn.execute(sql).fetchall()
    conn.close()
    return rows


def test_parallel_and_sequential_ingest_store_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = tmp_path / "vault"
    n = pipeline.PARALLEL_MIN_FILES + 100
    make_vault(vault, n)
    results = []
    for parallel in (True, False):
        if not parallel:
            monkeypatch.setattr(pipeline, "PARALLEL_MIN_FILES", 10**9)
        home = tmp_path / f"home-{parallel}"
        with cairn.open(home=home) as ws:
            ws.add_collection(vault, name="v")
            summary = ws.index()
            assert summary.counts.added == n and summary.counts.failed == 0
        results.append(dump(home))
    assert results[0] == results[1]


def test_worker_encoding_round_trips_and_falls_back_to_pickle(tmp_path: Path) -> None:
    make_vault(tmp_path / "v", 6)
    walk = walk_collection(tmp_path / "v", ["**/*.md"], [])
    limits = IngestLimits(10**6, 256, 48, 100)
    prepared = [prepare_file(f, None, frozenset(), limits, estimate_tokens) for f in walk.files]
    prepared.append(Prepared(walk.files[0], "", None, ("binary", "not text")))
    assert _encode(prepared)[:1] == b"M"
    assert _decode(_encode(prepared)) == prepared
    odd = prepared[0]
    assert odd.doc is not None
    exotic = Prepared(odd.found, odd.source_hash, dataclasses.replace(odd.doc, metadata={"x": Path("odd")}), None)
    blob = _encode([exotic])
    assert blob[:1] == b"P" and _decode(blob) == [exotic]


def test_a_file_that_changed_size_since_the_walk_is_read_whole_or_refused(tmp_path: Path) -> None:
    from cairn.ingest.walker import FoundFile

    limits = IngestLimits(max_file_bytes=1000, chunk_max_tokens=256, chunk_min_tokens=48, batch_files=10)
    note = tmp_path / "grown.md"
    note.write_text("# Grown\n\n" + "more text " * 50, encoding="utf-8")
    size = note.stat().st_size
    for walked in (0, 5, size - 1, size, size + 10):  # stale sizes from the walk
        prepared = prepare_file(FoundFile("grown.md", str(note), walked, 0), None, frozenset(), limits, estimate_tokens)
        assert prepared.doc is not None and prepared.doc.size == size
        assert prepared.doc.text.endswith("more text ")
    note.write_text("x" * 1500, encoding="utf-8")  # grew over the limit after the walk saw 10 bytes
    prepared = prepare_file(FoundFile("grown.md", str(note), 10, 0), None, frozenset(), limits, estimate_tokens)
    assert prepared.doc is None and prepared.error is not None and prepared.error[0] == "too_large"
