"""Kill ``cairn index`` with SIGKILL mid-run, rerun it, and find a consistent, complete index."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import cairn
from tests.conftest import CAIRN_BIN


def make_corpus(root: Path, n: int) -> None:
    for i in range(n):
        folder = root / f"d{i % 20:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "\n\n".join(
            f"## Section {j}\n\nNote {i} section {j} talks about topic{i % 97} and item{i}." * 3
            for j in range(6)
        )
        (folder / f"note{i:05d}.md").write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")


def active_docs(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return int(conn.execute("SELECT count(*) FROM documents WHERE active = 1").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_sigkill_mid_index_then_rerun(tmp_path: Path, cairn_home: Path) -> None:
    n = 3000
    corpus = tmp_path / "corpus"
    make_corpus(corpus, n)
    (cairn_home / "config.toml").write_text("[index]\nbatch_files = 40\n")
    with cairn.open() as ws:
        ws.add_collection(corpus, name="c")
    db = cairn_home / "indexes" / "default.sqlite"

    killed_at = []
    for threshold in (300, 1500):
        proc = subprocess.Popen([str(CAIRN_BIN), "index"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=dict(os.environ))
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            count = active_docs(db)
            if count >= threshold:
                proc.send_signal(signal.SIGKILL)
                killed_at.append(count)
                break
            time.sleep(0.005)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "index finished before it could be killed"
    assert killed_at and all(k < n for k in killed_at)

    with cairn.open() as ws:
        assert ws.status().last_run.status == "interrupted"
        summary = ws.index()
        assert summary.counts.failed == 0
        assert summary.counts.added + summary.counts.unchanged == n
        status = ws.status()
        assert status.documents == n
        assert status.last_run.status == "completed"
        # every file's indexed bytes are the file's bytes, and every passage is searchable
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO passages_fts(passages_fts) VALUES ('integrity-check')")
        passages = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
        fts_rows = conn.execute("SELECT count(*) FROM passages_fts").fetchone()[0]
        assert passages == fts_rows == status.passages
        orphans = conn.execute(
            "SELECT count(*) FROM passages_fts WHERE rowid NOT IN (SELECT id FROM passages)"
        ).fetchone()[0]
        assert orphans == 0
        docs_without_text = conn.execute(
            "SELECT count(*) FROM documents d WHERE active = 1 AND NOT EXISTS"
            " (SELECT 1 FROM document_text t WHERE t.document_id = d.id)"
        ).fetchone()[0]
        assert docs_without_text == 0
        conn.close()
        import hashlib

        for i in (0, 1234, n - 1):
            rel = f"d{i % 20:02d}/note{i:05d}.md"
            got = ws.get(f"c/{rel}")
            assert got.source_hash == hashlib.sha256((corpus / rel).read_bytes()).hexdigest()
            assert ws.search(f"item{i}").results[0].uri == f"cairn://c/{rel}"
        assert ws.index().counts.unchanged == n
