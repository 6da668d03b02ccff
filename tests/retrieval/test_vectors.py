"""Embedding, vector search and hybrid query with the real local model on small fixtures."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import cairn
from cairn.errors import ValidationError
from tests.conftest import CAIRN_BIN, cli_json, needs_minilm, run_cli
from tests.loopback import model_server
from tests.schemas import assert_valid

pytestmark = needs_minilm


def embedded(ws: Any, notes: Path) -> Any:
    ws.add_collection(notes, name="notes")
    ws.index()
    return ws.embed()


def test_embed_then_vsearch(ws: Any, notes: Path) -> None:
    summary = embedded(ws, notes)
    assert summary.embedded == ws.status().passages == 6
    assert summary.pending_after == 0 and summary.tokens > 0
    assert summary.embedder.startswith("onnx:all-MiniLM-L6-v2")
    # meaning, not words: no query word occurs in the backups note
    result = ws.vsearch("how do we keep duplicates of our data safe?")
    assert result.meta.mode == "vector" and result.meta.embedder == summary.embedder
    assert result.results[0].uri == "cairn://notes/howto/backups.md"
    assert result.results[0].stages == ["vector"]
    assert ws.search("how do we keep duplicates of our data safe?").results[0].uri != (
        "cairn://notes/howto/backups.md"
    )
    # exact token counts replaced the estimate
    store = ws._open_store(create=False)
    counts = dict(store.conn.execute("SELECT passage_hash, token_count FROM vectors").fetchall())
    assert all(n > 0 for n in counts.values())
    # nothing left to do; a second run embeds nothing
    assert ws.embed().embedded == 0


def test_only_changed_passages_are_embedded(ws: Any, notes: Path) -> None:
    embedded(ws, notes)
    (notes / "glossary.txt").write_text("Glossary\n\nRRF: reciprocal rank fusion.\n")
    (notes / "copy-of-index.md").write_text((notes / "index.md").read_text())  # same text
    ws.index()
    assert ws.status().vectors.pending_passages == 1
    assert ws.embed().embedded == 1


def test_filters_apply_inside_vector_search(ws: Any, tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for i in range(40):
        (root / f"n{i:02d}.md").write_text(f"# Backups {i}\nNightly backups copy every dataset off-site ({i}).\n")
    (root / "rare.md").write_text("---\ntags: [rare]\n---\n# Gardening\nTomatoes need sun and water.\n")
    ws.add_collection(root, name="many")
    ws.index()
    ws.embed()
    top = ws.vsearch("backup copies off-site", limit=3)
    assert all("rare" not in r.uri for r in top.results)
    only = ws.vsearch("backup copies off-site", limit=3, tags_any=["rare"])
    assert [r.uri for r in only.results] == ["cairn://many/rare.md"]
    fused = ws.query("backup copies off-site", limit=3, tags_any=["rare"])
    assert [r.uri for r in fused.results] == ["cairn://many/rare.md"]


def test_hybrid_query_explain_and_one_result_per_document(ws: Any, notes: Path) -> None:
    embedded(ws, notes)
    result = ws.query("where do backups go and how long are snapshots kept", explain=True)
    assert_valid("search", result)
    assert result.meta.mode == "hybrid"
    assert result.meta.fusion and result.meta.fusion.startswith("rrf-")
    assert result.meta.stages_run[:2] == ["bm25", "vector"] and result.meta.stages_run[-1] == "fuse"
    top = result.results[0]
    assert top.uri == "cairn://notes/howto/backups.md"
    assert set(top.stages) == {"bm25", "vector"}
    assert top.explain is not None and {"bm25", "vector"} <= set(top.explain.stages)
    assert len({r.docid for r in result.results}) == len(result.results)
    assert ws.query("backups", explain=False).results[0].explain is None
    # same index + same request -> same bytes
    again = ws.query("where do backups go and how long are snapshots kept", explain=True)
    assert again.model_dump_json() == result.model_dump_json()


def test_strong_signal_and_thorough_expansion(ws: Any, notes: Path) -> None:
    embedded(ws, notes)
    strong = ws.query("zstd", mode="thorough")
    assert "strong-signal" in strong.meta.stages_run and "expand" not in strong.meta.stages_run
    weak = ws.query("backup strategy", mode="thorough", explain=True)
    assert "expand" in weak.meta.stages_run
    # BM25 decisive: fast skips its feedback half too
    assert ws.query("offline maps data", mode="fast").meta.stages_run == ["bm25", "vector", "strong-signal", "fuse"]


def test_fast_queries_use_a_derived_int8_model_close_to_the_exact_one(ws: Any, notes: Path, cairn_home: Path) -> None:
    import numpy as np

    from cairn.models.minilm import OnnxMiniLMEmbedder

    # --fast embeds with the exact model since session 12: embed() derives no query model
    embedded(ws, notes)
    assert not list((cairn_home / "models").glob("minilm-q8*.onnx"))
    exact = OnnxMiniLMEmbedder()
    fast = OnnxMiniLMEmbedder(fast_query_dir=cairn_home / "models")
    assert fast.prepare_fast_query("int8-mid") is None  # derived on demand, once
    derived = list((cairn_home / "models").glob("minilm-q8mid-*.onnx"))
    assert len(derived) == 1 and not list((cairn_home / "models").glob(".derive-*"))
    built = derived[0].stat().st_mtime_ns
    assert fast.prepare_fast_query("int8-mid") is None and derived[0].stat().st_mtime_ns == built
    for query in ("where do backups go", "offline maps data for travel", "zstd compression level"):
        for kind in ("int8-mid", "int8"):
            vector, encoder = fast.embed_query_fast(query, kind)
            assert encoder == kind and vector.shape == (384,) and vector.dtype == np.float32
            assert float(vector @ exact.embed([query], kind="query")[0]) > 0.97
            assert abs(float(np.linalg.norm(vector)) - 1) < 1e-5
    assert exact.embed_query_fast("backups")[1] == "exact"  # no cache folder: the exact model
    blocked = cairn_home / "not-a-folder"
    blocked.write_text("", encoding="utf-8")
    fallback = OnnxMiniLMEmbedder(fast_query_dir=blocked)
    assert fallback.embed_query_fast("backups")[1] == "exact"
    assert fallback.prepare_fast_query() is not None  # says why
    with pytest.raises(ValidationError, match="fast_query_dir"):
        OnnxMiniLMEmbedder(fast_query_dir=5)  # type: ignore[arg-type]
    result = ws.query("where do backups go", mode="fast")
    assert result.meta.mode == "hybrid" and "vector" in result.meta.stages_run
    assert not any("--fast" in hint for hint in result.meta.hints)
    assert "prf=text-pool+pool" in result.meta.fusion and "encoder=exact" in result.meta.fusion


def test_fast_without_onnx_says_so_and_uses_the_exact_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cairn.models import minilm
    from cairn.retrieval.pipeline import _fast_encoder_hint

    real = minilm._is_installed
    monkeypatch.setattr(minilm, "_is_installed", lambda name: name != "onnx" and real(name))
    embedder = minilm.OnnxMiniLMEmbedder(fast_query_dir=tmp_path / "models")
    assert embedder.embed_query_fast("where do backups go", "int8-mid")[1] == "exact"
    hint = _fast_encoder_hint(embedder, "int8-mid")
    assert "int8-mid" in hint and "pip install onnx" in hint and "exact model" in hint


def test_reranker_stage_over_http(ws: Any, notes: Path, cairn_home: Path) -> None:
    with model_server() as server:
        (cairn_home / "config.toml").write_text(f'[rerank]\nurl = "{server.url}/v1/rerank"\n')
        ws = cairn.open()
        embedded(ws, notes)
        result = ws.query("backup strategy", explain=True)
        assert "rerank" in result.meta.stages_run
        assert "rerank" in result.results[0].stages
        assert server.requests and server.requests[0]["query"] == "backup strategy"
        assert ws.query("offline maps", mode="fast").meta.stages_run.count("rerank") == 0
        server.fail = True
        failed = ws.query("backup strategy")
        assert "rerank" not in failed.meta.stages_run
        assert any("rerank skipped" in h for h in failed.meta.hints)
        ws.close()


def test_similar(ws: Any, notes: Path) -> None:
    embedded(ws, notes)
    result = ws.similar("notes/howto/backups.md", limit=3)
    assert result.meta.mode == "similar"
    assert "cairn://notes/howto/backups.md" not in {r.uri for r in result.results}
    assert len(result.results) == 3


def test_diagnose(ws: Any, notes: Path) -> None:
    embedded(ws, notes)
    ok = ws.query_diagnose("offline vector maps", "notes/projects/atlas.md")
    assert ok.verdict == "returned" and ok.final_rank == 1
    assert {s.stage for s in ok.stages} >= {"filters", "bm25", "vector", "fuse"}
    filtered = ws.query_diagnose("offline vector maps", "notes/projects/atlas.md", tags_any=["ops"])
    assert "removed by filters" in filtered.verdict
    cut = ws.query_diagnose("offline vector maps", "notes/glossary.txt", limit=1)
    assert cut.final_rank is None and "limit" in cut.verdict


def test_without_vectors_everything_degrades_to_bm25(ws: Any, notes: Path) -> None:
    ws.add_collection(notes, name="notes")
    ws.index()
    for result in (ws.vsearch("backup"), ws.query("backup")):
        assert result.meta.mode == "bm25" and result.meta.capabilities["vectors"] is False
        assert len(result.meta.hints) == 1 and "cairn embed" in result.meta.hints[0]
        assert result.results[0].uri == "cairn://notes/howto/backups.md"
    assert ws.similar("notes/howto/backups.md").meta.mode == "bm25"


def test_endpoint_down_degrades_and_status_says_so(notes: Path, cairn_home: Path) -> None:
    (cairn_home / "config.toml").write_text(
        '[embed]\nbackend = "openai"\nbase_url = "http://127.0.0.1:9"\nmodel = "m"\ntimeout = 2\n'
    )
    with cairn.open() as ws:
        ws.add_collection(notes, name="notes")
        ws.index()
        result = ws.vsearch("backup")
        assert result.meta.mode == "bm25" and "127.0.0.1:9" in result.meta.hints[0]
        assert ws.query("backup").results
        status = ws.status()
        assert status.vectors is not None and status.vectors.available is False
        from cairn.errors import ModelUnavailable

        with pytest.raises(ModelUnavailable):
            ws.embed()
    proc = run_cli("embed", "--json", check=False)
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "model_unavailable"


def test_switching_models_marks_vectors_stale(ws: Any, notes: Path, cairn_home: Path) -> None:
    embedded(ws, notes)
    ws.close()
    with model_server() as server:
        (cairn_home / "config.toml").write_text(
            f'[embed]\nbackend = "openai"\nbase_url = "{server.url}"\nmodel = "fake"\n'
        )
        with cairn.open() as ws2:
            status = ws2.status().vectors
            assert status is not None and status.stale_vectors == 6 and status.vectors == 0
            assert status.pending_passages == 6 and "stale" in (status.hint or "")
            result = ws2.vsearch("backup")
            assert result.meta.mode == "bm25" and "stale" in result.meta.hints[0]
            assert ws2.embed().embedded == 6
            assert ws2.vsearch("backup").meta.mode == "vector"
            assert ws2.status().vectors.stale_vectors == 6  # the MiniLM vectors stay, unused


def test_search_never_loads_a_model(notes: Path) -> None:
    with cairn.open() as ws:
        embedded(ws, notes)
    code = (
        "import sys, cairn\n"
        "ws = cairn.open()\n"
        "ws.search('backup'); ws.get('notes/index.md'); ws.status()\n"
        "print(sorted(m for m in ('onnxruntime', 'tokenizers', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cli_vector_commands_match_sdk(notes: Path) -> None:
    run_cli("collection", "add", str(notes), "--name", "notes")
    both = cli_json("index", "--embed")
    assert both["index"]["counts"]["added"] == 6 and both["embed"]["embedded"] == 6
    with cairn.open() as ws:
        assert cli_json("vsearch", "keeping data safe", "-n", "3") == ws.vsearch("keeping data safe", limit=3).model_dump(mode="json")
        cli_q, sdk_q = cli_json("query", "keeping data safe", "--explain"), ws.query("keeping data safe", explain=True).model_dump(mode="json")
        assert cli_q["meta"] == sdk_q["meta"], (cli_q["meta"], sdk_q["meta"])
        assert cli_q == sdk_q
        assert cli_json("query", "--fast", "maps") == ws.query("maps", mode="fast").model_dump(mode="json")
        assert cli_json("query", "diagnose", "maps", "--target", "notes/projects/atlas.md") == (
            ws.query_diagnose("maps", "notes/projects/atlas.md").model_dump(mode="json")
        )
        assert cli_json("similar", "notes/index.md") == ws.similar("notes/index.md").model_dump(mode="json")
    assert "stages: bm25" in run_cli("query", "maps", "--explain").stderr
    assert run_cli("query", "diagnose", "maps", check=False).returncode == 1  # --target missing


def test_embed_resumes_after_sigkill(tmp_path: Path, cairn_home: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for i in range(400):
        (root / f"n{i:03d}.md").write_text(f"# Note {i}\nThis note is about topic number {i} and item {i * 7}.\n")
    with cairn.open() as ws:
        ws.add_collection(root, name="many")
        ws.index()
    db = cairn_home / "indexes" / "default.sqlite"
    proc = subprocess.Popen([str(CAIRN_BIN), "embed", "--batch", "16"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 120
    count = 0
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
            count = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
            conn.close()
        except sqlite3.Error:
            pass
        if count >= 48:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL and 48 <= count < 400
    with cairn.open() as ws:
        summary = ws.embed()
        assert summary.pending_before == 400 - count
        assert summary.embedded + count == 400 and summary.pending_after == 0
        assert ws.status().vectors.vectors == 400
