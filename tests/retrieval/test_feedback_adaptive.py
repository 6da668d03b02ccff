"""Session 7 of issue 17: the vector half of the feedback round over the candidate pool
(``pool``), --fast's weights when its vector list is unsure, and no text half for CJK
queries (``HybridSettings.feedback_cjk``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cairn.retrieval.hybrid import DEFAULT_SETTINGS, FeedbackExpander, HybridSettings
from cairn.retrieval.vector import VectorMatrix, pool_candidates
from tests.conftest import needs_minilm


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_pool_candidates_rank_only_the_pool() -> None:
    matrix = VectorMatrix(np.asarray([2, 5, 9, 11], dtype=np.int64),
                          np.stack([unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0), unit(1, 0.1, 0)]),
                          ("a", "b", "c", "d"))
    query = unit(1, 0.2, 0)
    # 11 is nearest of all, but not in the pool; 7 has no vector; repeats count once
    hits = pool_candidates(matrix, query, [9, 5, 5, 7, 2])
    assert [h.passage_id for h in hits] == [2, 9, 5]
    assert [h.docid for h in hits] == ["a", "c", "b"]
    assert hits[0].score == pytest.approx(float(unit(1, 0, 0) @ query), abs=1e-6)
    assert pool_candidates(matrix, query, []) == []
    assert pool_candidates(matrix, query, [7]) == []
    # equal cosines: by passage id
    twins = VectorMatrix(np.asarray([3, 4], dtype=np.int64), np.stack([unit(1, 0), unit(1, 0)]), ("x", "y"))
    assert [h.passage_id for h in pool_candidates(twins, unit(1, 0), [4, 3])] == [3, 4]


def test_expander_can_leave_out_cjk_words() -> None:
    feedback = ["압축 파일을 해제합니다 archive", "파일을 압축합니다 archive", "archive 파일을 보기"]
    assert set(FeedbackExpander(terms=6).expand("압축", feedback).split()) == {"파일을", "archive"}
    assert FeedbackExpander(terms=6, cjk_words=False).expand("압축", feedback) == "archive"


KO_PAGES = {
    "zip.md": "# zip\n\n압축 파일을 만들기: zip 압축 파일을\n\n파일을 압축하기 위한 도구\n",
    "unzip.md": "# unzip\n\n압축 파일을 풀기: unzip 파일을 해제\n\n압축 해제 도구\n",
    "tar.md": "# tar\n\n압축 파일을 묶기: tar 파일을 보관\n\n보관 압축 도구\n",
}


@pytest.mark.parametrize("rule", ["all", "off"])
def test_cjk_queries_skip_the_text_half(ws: Any, tmp_path: Path, rule: str) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    folder = tmp_path / "ko"
    folder.mkdir()
    for name, text in KO_PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    ws.add_collection(folder, name="ko")
    ws.index()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports
    settings = HybridSettings(feedback_cjk=rule)
    run = HybridPipeline(ports, settings).run("압축 도구", filters, 10, mode="default", graph=False, all_passages=False)
    assert "strong-signal" not in run.stages_run
    if rule == "off":
        assert "no-expand:cjk" in run.stages_run and "bm25x" not in run.rankings
    else:
        assert "expand" in run.stages_run and "bm25x" in run.rankings
    # a query without CJK letters expands either way
    latin = HybridPipeline(ports, settings).run("zip unzip tar", filters, 10, mode="default", graph=False,
                                                all_passages=False)
    assert "no-expand:cjk" not in latin.stages_run
    assert DEFAULT_SETTINGS.feedback_cjk == "off" and settings.fusion_version != HybridSettings(
        feedback_cjk="spaced").fusion_version


@needs_minilm
def test_fast_fuses_at_the_unsure_weights_below_the_confidence(ws: Any, notes: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    ports = ws._retrieval.pipeline(store).ports

    def fast(threshold: float | None) -> Any:
        settings = HybridSettings(fast_feedback=("pool",), fast_vector_confidence=threshold)
        return HybridPipeline(ports, settings).run("backup strategy", filters, 10, mode="fast", graph=False,
                                                   all_passages=False)

    sure, unsure, off = fast(0.0), fast(1.01), fast(None)
    for run in (sure, unsure, off):
        assert "vector-feedback:pool" in run.stages_run and "expand" not in run.stages_run
        assert run.weights is not None and "vectorx" in run.rankings
    assert sure.weights.weights == off.weights.weights == dict(DEFAULT_SETTINGS.feedback_weights)
    assert unsure.weights.weights == pytest.approx(dict(DEFAULT_SETTINGS.fast_unsure_weights), abs=1e-6)
    assert any("unsure" in reason for reason in unsure.weights.reasons)
    assert not any("unsure" in reason for reason in sure.weights.reasons)
    # the pool half ranks only candidates the other stages found
    found = {h.passage_id for stage in ("bm25", "vector") for h in unsure.rankings[stage]}
    assert {h.passage_id for h in unsure.rankings["vectorx"]} <= found
    # default mode is not affected by the fast-only threshold
    default = HybridPipeline(ports, HybridSettings(fast_vector_confidence=1.01)).run(
        "backup strategy", filters, 10, mode="default", graph=False, all_passages=False)
    assert default.weights is not None and default.weights.weights == dict(DEFAULT_SETTINGS.feedback_weights)
