"""The pseudo-relevance feedback round of hybrid query: Rocchio in embedding space
(``vectorx``) and BM25 expansion from the fused top (``bm25x``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cairn.retrieval.hybrid import DEFAULT_SETTINGS, FUSION_VERSION, HybridSettings, fuse
from cairn.retrieval.vector import VectorMatrix, feedback_query
from cairn.store.records import light_hit
from tests.conftest import needs_minilm


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_feedback_query_moves_the_query_towards_the_feedback_centroid() -> None:
    matrix = VectorMatrix(np.asarray([2, 5, 9], dtype=np.int64),
                          np.stack([unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)]), ("a", "b", "c"))
    query = unit(1, 0, 0)
    shifted = feedback_query(matrix, query, [5, 9], beta=1.0)
    assert shifted is not None and shifted.dtype == np.float32
    assert abs(float(np.linalg.norm(shifted)) - 1) < 1e-6
    np.testing.assert_allclose(shifted, unit(1, 0.5, 0.5), atol=1e-6)
    # ids without vectors are ignored; none at all gives None
    np.testing.assert_allclose(feedback_query(matrix, query, [5, 7], beta=2.0), unit(1, 2, 0), atol=1e-6)
    assert feedback_query(matrix, query, [7, 100], beta=1.0) is None
    assert feedback_query(matrix, query, [], beta=1.0) is None
    assert feedback_query(VectorMatrix(np.zeros(0, np.int64), np.zeros((0, 0), np.float32)), query, [2], 1.0) is None


def test_feedback_weights_split_the_vector_weight() -> None:
    feedback_weights, weights = DEFAULT_SETTINGS.feedback_weights, DEFAULT_SETTINGS.weights
    assert feedback_weights["vector"] + feedback_weights["vectorx"] == weights["vector"]
    assert "vectorx" in FUSION_VERSION
    rankings = {
        "bm25": [light_hit(1, "a", 3.0), light_hit(2, "b", 2.0)],
        "vector": [light_hit(2, "b", 0.9)],
        "vectorx": [light_hit(2, "b", 0.8), light_hit(3, "c", 0.7)],
    }
    fused = fuse(rankings, weights=feedback_weights)
    assert [f.hit.docid for f in fused] == ["b", "a", "c"]
    assert set(fused[0].stages) == {"bm25", "vector", "vectorx"}


@needs_minilm
def test_default_mode_runs_the_feedback_round_and_fast_its_text_half(ws: Any, notes: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    weak = ws.query("backup strategy", explain=True)
    assert "vector-feedback" in weak.meta.stages_run and weak.meta.stages_run[-1] == "fuse"
    assert weak.meta.fusion == FUSION_VERSION
    # vectorx is reported as the public stage "vector"; explain keeps its own rank
    assert all(set(r.stages) <= {"bm25", "vector"} for r in weak.results)
    assert any("vectorx" in (r.explain.stages if r.explain else {}) for r in weak.results)
    fast = ws.query("backup strategy", mode="fast")
    # fast runs both halves of the feedback round over the candidate pool only (session 12)
    assert "vector-feedback" not in fast.meta.stages_run and "expand:pool" in fast.meta.stages_run
    assert "vector-feedback:pool" in fast.meta.stages_run
    assert DEFAULT_SETTINGS.fast_feedback == ("text-pool", "pool") and "prf=text-pool+pool,terms=6" in FUSION_VERSION
    assert fast.meta.fusion_weights == {"bm25": 1.0, "vector": 0.5, "bm25x": 0.5, "vectorx": 0.5}
    # without feedback halves, fast fuses with default's final lexical : vector balance (1.5 : 1)
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    bare = HybridPipeline(ws._retrieval.pipeline(store).ports, HybridSettings(fast_feedback=())).run(
        "backup strategy", filters, 10, mode="fast", graph=False, all_passages=False)
    assert bare.weights is not None and bare.weights.weights == {"bm25": 1.0, "vector": round(2 / 3, 6), "graph": 0.3}
    assert "expand" not in bare.stages_run
    # settings.fast_feedback: --fast runs the feedback round too, with the default weights
    both = HybridSettings(fast_feedback=("text", "vector"))
    assert both.fusion_version != FUSION_VERSION and "prf=text+vector" in both.fusion_version
    strong = ws.query("zstd")
    assert "strong-signal" in strong.meta.stages_run and "vector-feedback" not in strong.meta.stages_run
    again = ws.query("backup strategy", explain=True)
    assert again.model_dump_json() == weak.model_dump_json()


@needs_minilm
def test_fast_feedback_runs_the_chosen_halves(ws: Any, notes: Path) -> None:
    """``HybridSettings.fast_feedback``: --fast runs only the feedback halves it names."""
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports
    for halves in (("vector",), ("text", "vector"), ()):
        run = HybridPipeline(ports, HybridSettings(fast_feedback=halves)).run(
            "backup strategy", filters, 10, mode="fast", graph=False, all_passages=False)
        ran = {"expand", "vector-feedback"} & set(run.stages_run)
        assert ("vector-feedback" in ran) == ("vector" in halves)
        assert "expand" not in ran or "text" in halves
        assert run.weights is not None
        assert ("vectorx" in run.weights.weights) == ("vector" in halves)  # feedback weights once vectorx ran
    text_only = HybridPipeline(ports, HybridSettings(fast_feedback=("text",))).run(
        "backup strategy", filters, 10, mode="fast", graph=False, all_passages=False)
    assert "vector-feedback" not in text_only.stages_run and text_only.stages_run[1] == "vector"


@needs_minilm
def test_fast_feedback_weights_apply_once_fast_feedback_ran(ws: Any, notes: Path) -> None:
    """``HybridSettings.fast_feedback_weights``: the weights --fast fuses with after its own
    feedback halves (default mode keeps ``feedback_weights``); they name the fusion version."""
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports
    after = {"bm25": 1.0, "vector": 0.25, "vectorx": 0.25, "graph": 0.3}
    settings = HybridSettings(fast_feedback=("vector",), fast_feedback_weights=after)
    assert settings.fusion_version != HybridSettings(fast_feedback=("vector",)).fusion_version
    fast = HybridPipeline(ports, settings).run(
        "backup strategy", filters, 10, mode="fast", graph=False, all_passages=False)
    assert "vector-feedback" in fast.stages_run and "expand" not in fast.stages_run
    assert fast.weights is not None and fast.weights.weights == after
    default = HybridPipeline(ports, settings).run(
        "backup strategy", filters, 10, mode="default", graph=False, all_passages=False)
    assert default.weights is not None and default.weights.weights == dict(settings.feedback_weights)
