"""Per-query fusion weights (issue 17): the vector side weighs as much as the embedder
covers the query's script, and less when BM25 alone is decisive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cairn.models.embedders import OnnxMiniLMEmbedder
from cairn.retrieval.hybrid import (
    DEFAULT_SETTINGS,
    FUSION_VERSION,
    HybridSettings,
    adapt_weights,
    fuse,
    letter_script,
    script_coverage,
)
from cairn.store.records import light_hit
from tests.conftest import needs_minilm

LATIN = frozenset({"Latin"})


def test_letter_scripts() -> None:
    assert [letter_script(c) for c in "aé中のカ한ДΩ"] == ["Latin", "Latin", "Han", "Kana", "Kana", "Hangul",
                                                        "Cyrillic", "Greek"]


@pytest.mark.parametrize(("query", "coverage", "missing"), [
    ("backup strategy", 1.0, []),
    ("café 2024 ...", 1.0, []),  # digits and punctuation are not letters
    ("", 1.0, []),
    ("如何解压缩文件", 0.0, ["Han"]),
    ("압축 파일 풀기", 0.0, ["Hangul"]),
    ("curlでPOST", 8 / 9, ["Kana"]),
    ("用git撤销提交", 3 / 8, ["Han"]),
    ("ファイルを圧縮", 0.0, ["Kana", "Han"]),
])
def test_script_coverage(query: str, coverage: float, missing: list[str]) -> None:
    got, scripts = script_coverage(query, LATIN)
    assert got == pytest.approx(coverage) and scripts == missing
    assert script_coverage(query, None) == (1.0, [])  # an embedder for every script


def test_adapt_weights_scales_only_the_vector_side() -> None:
    base = DEFAULT_SETTINGS.feedback_weights
    same = adapt_weights(base)
    assert same.weights == dict(base) and same.vector_factor == 1.0 and same.reasons == ()
    cjk = adapt_weights(base, coverage=0.0)
    assert cjk.weights["vector"] == 0 and cjk.weights["vectorx"] == 0
    assert cjk.weights["bm25"] == base["bm25"] and cjk.weights["bm25x"] == base["bm25x"]
    assert "covers 0%" in cjk.reasons[0]
    halving = HybridSettings(decisive_vector=0.5)
    decisive = adapt_weights(base, coverage=0.5, decisive=True, settings=halving)
    factor = 0.5 * halving.decisive_vector
    assert decisive.vector_factor == pytest.approx(factor)
    assert decisive.weights["vector"] == pytest.approx(base["vector"] * factor)
    assert len(decisive.reasons) == 2 and "decisive" in decisive.reasons[1]
    # a setting of 1 (the default) turns the decisive rule off (and says nothing)
    off = adapt_weights(base, decisive=True)
    assert off.weights == dict(base) and off.reasons == ()
    with pytest.raises(ValueError, match="coverage"):
        adapt_weights(base, coverage=1.5)


def test_fusion_version_names_the_adaptation() -> None:
    assert ":adapt(script,decisive=" in FUSION_VERSION and ":fast(" in FUSION_VERSION
    assert HybridSettings(decisive_vector=0.25).fusion_version != FUSION_VERSION
    assert HybridSettings(fast_weights={"bm25": 1.0, "vector": 1.0}).fusion_version != FUSION_VERSION


def test_a_zero_weight_list_only_orders_what_the_others_did_not_find() -> None:
    rankings = {
        "bm25": [light_hit(1, "a", 3.0), light_hit(2, "b", 2.0)],
        "vector": [light_hit(9, "z", 0.9), light_hit(2, "b", 0.8), light_hit(5, "y", 0.7), light_hit(3, "x", 0.6)],
    }
    fused = fuse(rankings, weights={"bm25": 1.0, "vector": 0.0})
    # BM25's order first, untouched; then the vector-only documents in the vector order
    # (not by passage id: x has the smaller id but the worse vector rank)
    assert [f.hit.docid for f in fused] == ["a", "b", "z", "y", "x"]
    assert fused[2].score == 0.0


def test_the_minilm_embedder_declares_latin_and_accepts_other_scripts() -> None:
    assert OnnxMiniLMEmbedder().scripts == LATIN
    assert OnnxMiniLMEmbedder(scripts=None).scripts is None
    assert OnnxMiniLMEmbedder(scripts=["Latin", "Han"]).scripts == frozenset({"Latin", "Han"})
    from cairn.errors import ValidationError

    with pytest.raises(ValidationError, match="scripts"):
        OnnxMiniLMEmbedder(scripts="Latin")


@needs_minilm
def test_a_query_in_a_script_the_model_does_not_know_relies_on_bm25(ws: Any, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tar.md").write_text("# tar\n\n创建一个归档文件：tar -cf 归档.tar 文件\n", encoding="utf-8")
    (notes / "backup.md").write_text("# Backups\n\nA backup strategy keeps three copies of data.\n",
                                     encoding="utf-8")
    ws.add_collection(notes, name="notes")
    ws.index()
    ws.embed()
    cjk = ws.query("归档", explain=True)
    assert cjk.meta.mode == "hybrid"
    assert cjk.meta.fusion_weights is not None and cjk.meta.fusion_weights["vector"] == 0
    assert "vectorx" not in cjk.meta.fusion_weights  # no vector feedback round either
    assert any("does not cover" in h and "Han" in h for h in cjk.meta.hints)
    assert any("covers 0%" in r for r in cjk.meta.fusion_reasons)
    assert cjk.results[0].uri.endswith("tar.md")
    english = ws.query("backup strategy")
    assert english.meta.fusion_weights is not None and english.meta.fusion_weights["vector"] > 0
    assert not any("does not cover" in h for h in english.meta.hints)
