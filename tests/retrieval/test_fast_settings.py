"""Settings of ``query --fast`` measured in bench/RESULTS.md ("Retrieval, session 8", "9",
"9b"): the query encoder (``fast_encoder``; int8-mid shipped in 9b), the early text half
(``text-early``) and the text half over the candidate pool (``text-pool``, shipped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cairn.retrieval.hybrid import FUSION_VERSION, HybridSettings
from tests.conftest import needs_minilm


def test_fast_encoder_names_the_fusion_version_only_when_changed() -> None:
    assert "prf=text-pool+pool,terms=6,encoder=exact" in FUSION_VERSION  # the shipped --fast (session 12)
    assert "encoder=" not in HybridSettings(fast_encoder="int8").fusion_version  # as before 9b
    assert ",encoder=exact" in HybridSettings(fast_encoder="exact").fusion_version
    early = HybridSettings(fast_feedback=("text-early", "vector")).fusion_version
    assert "prf=text-early+vector,terms=6" in early


@needs_minilm
def test_fast_encoder_and_the_early_text_half(ws: Any, notes: Path) -> None:
    """``fast_encoder="exact"``: --fast embeds the query with the exact model. ``text-early``:
    the text half runs from BM25's own top before the vector stage is read, and the lists
    are fused in default mode's order."""
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports

    def run(settings: HybridSettings, query: str = "backup strategy") -> Any:
        return HybridPipeline(ports, settings).run(query, filters, 10, mode="fast", graph=False, all_passages=False)

    shipped = run(HybridSettings())
    assert shipped.stages_run[1:4] == ["vector", "expand:pool", "vector-feedback:pool"] and not shipped.hints
    assert run(HybridSettings(fast_encoder="int8-mid")).stages_run[1] == "vector:int8-mid"
    assert run(HybridSettings(fast_encoder="int8")).stages_run[1] == "vector:int8"
    exact = run(HybridSettings(fast_encoder="exact", fast_feedback=("text",)))
    assert exact.stages_run[1] == "vector" and "expand" in exact.stages_run and not exact.hints
    early = run(HybridSettings(fast_encoder="int8", fast_feedback=("text-early", "vector")))
    assert early.stages_run[:3] == ["bm25", "expand", "vector:int8"]
    assert list(early.rankings) == ["bm25", "vector", "bm25x", "vectorx"]
    assert early.weights is not None and "vectorx" in early.weights.weights
    strong = run(HybridSettings(fast_encoder="int8", fast_feedback=("text-early",)), "zstd")
    assert "strong-signal" in strong.stages_run and "expand" not in strong.stages_run
