"""The feedback round's pool re-scoring and the partly quantized query encoder, measured
in bench/RESULTS.md ("Retrieval, session 9")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cairn.retrieval.bm25 import bm25_search
from cairn.retrieval.hybrid import HybridSettings
from cairn.store.records import SearchFilter
from tests.conftest import needs_minilm


def test_pool_rescoring_gives_the_full_query_scores(ws: Any, notes: Path) -> None:
    """BM25 over a few passages equals the full query's scores for them (the index's own
    document frequencies and lengths), and ignores the rest."""
    ws.add_collection(notes, name="notes")
    ws.index()
    store, _, _ = ws._retrieval.setup(10, [], [], [], None, None)
    for text in ("backup strategy offline data maps", "zstd compression level travel"):
        full = bm25_search(store, text, SearchFilter(), 100, candidates=True, strict=False)
        assert len(full) >= 2
        pool = [hit.passage_id for hit in full[::2]]
        rescored = ws._retrieval.pipeline(store).ports.rescore(text, [*pool, *pool])  # duplicates are fine
        assert [(h.passage_id, h.docid, h.score) for h in rescored] == [
            (h.passage_id, h.docid, h.score) for h in full if h.passage_id in set(pool)]
    assert ws._retrieval.pipeline(store).ports.rescore("backup", []) == []


def test_text_pool_half_names_itself() -> None:
    assert "prf=text-pool+vector,terms=6" in HybridSettings(fast_feedback=("text-pool", "vector")).fusion_version
    assert ",encoder=int8-mid" in HybridSettings(fast_encoder="int8-mid").fusion_version


@needs_minilm
def test_fast_with_the_pool_text_half_and_the_mid_encoder(ws: Any, notes: Path) -> None:
    """``text-pool``: bm25x ranks only the candidates BM25 and the vector search found.
    ``int8-mid``: --fast embeds with the int8 model whose first and last layer stay float."""
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports
    settings = HybridSettings(fast_feedback=("text-pool", "vector"), fast_encoder="int8-mid")
    run = HybridPipeline(ports, settings).run("backup strategy", filters, 10, mode="fast", graph=False,
                                              all_passages=False)
    assert run.stages_run[:4] == ["bm25", "vector:int8-mid", "expand:pool", "vector-feedback"]
    found = {hit.passage_id for stage in ("bm25", "vector") for hit in run.rankings[stage]}
    assert run.rankings["bm25x"] and {hit.passage_id for hit in run.rankings["bm25x"]} <= found
