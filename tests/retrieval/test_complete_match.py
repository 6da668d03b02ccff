"""Session 10 of issue 17 (item 1): a complete lexical match first. When BM25's top passage
holds every word of the query and the vector list's top passage does not, the query reads
as a line of BM25's page (tldr's example lines), and its document ranks first. Measured, not
shipped: ``HybridSettings.complete_first`` is off by default (bench/RESULTS.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cairn.retrieval.hybrid import (
    COMPLETE_REASON,
    DEFAULT_SETTINGS,
    FUSION_VERSION,
    Fused,
    HybridSettings,
    StageRank,
    complete_first,
    complete_match,
    holds_every_word,
    query_stems,
)
from cairn.store.records import light_hit


def test_query_stems_are_the_words_bm25_searches() -> None:
    # stopwords dropped, Porter stems as the index's tokenizer makes them, case folded
    assert query_stems("List all the running Containers") == {"list", "run", "contain"}
    assert query_stems("the and of") == {"the", "and", "of"}  # only stopwords: they are searched
    assert query_stems("圧縮 files") == {"file"}  # CJK runs are searched by their bigrams


def test_holds_every_word_compares_stems() -> None:
    stems = query_stems("List running containers")
    assert holds_every_word(stems, "- Lists every container that runs:\n\n`docker ps`")
    assert not holds_every_word(stems, "List the images")
    assert not holds_every_word(frozenset(), "anything at all")


@pytest.mark.parametrize(("bm25_top", "vector_top", "expected"), [
    ("Display the ASCII fire", "Show burning flames on screen", True),
    ("Display the ASCII fire", "Display an ASCII fire animation", False),  # both hold every word
    ("Display the fire", "Show burning flames on screen", False),  # BM25's top lacks "ASCII"
    ("", "", False),
])
def test_complete_match(bm25_top: str, vector_top: str, expected: bool) -> None:
    assert complete_match("Display the ASCII fire", bm25_top, vector_top) is expected


def fused(*docids: str) -> list[Fused]:
    return [Fused(light_hit(i, d, 0.0), round(1.0 - i / 10, 8), {"bm25": StageRank(i, 1.0)})
            for i, d in enumerate(docids, 1)]


def test_complete_first_moves_one_unit_to_the_front() -> None:
    before = fused("a", "b", "c", "d")
    after = complete_first(before, "c")
    assert [f.hit.docid for f in after] == ["c", "a", "b", "d"]
    assert after[0].score == before[0].score  # scores stay non-increasing
    assert [f.score for f in after] == sorted((f.score for f in after), reverse=True)
    assert after[0].stages["complete"] == StageRank(1, before[2].score)  # its score before the move
    assert after[0].stages["bm25"] == before[2].stages["bm25"]
    assert complete_first(before, "a") == before  # first already
    assert complete_first(before, "zz") == before  # not a unit
    assert [f.hit.passage_id for f in complete_first(before, 4, per_document=False)] == [4, 1, 2, 3]


def test_the_fusion_version_names_the_rule() -> None:
    assert not DEFAULT_SETTINGS.complete_first and "complete-first" not in FUSION_VERSION
    assert ",complete-first)" in HybridSettings(complete_first=True).fusion_version


PAGES = {
    "fire.md": "# fire\n\nDisplay the ASCII fire in a terminal window.\n",
    "flames.md": "# flames\n\nDisplay a fire of burning flames on the screen.\n",
    "calendar.md": "# calendar\n\nDisplay a calendar for the month.\n",
}


class FixedEmbedder:
    """Every query embeds as one fixed unit vector (so the vector list is known)."""

    fingerprint = "fixed"
    scripts = None

    def __init__(self, vector: Any) -> None:
        self.vector = vector

    def embed(self, texts: Any, *, kind: str = "passage") -> Any:
        return np.stack([self.vector for _ in texts])


def test_the_pipeline_puts_a_complete_match_first(ws: Any, tmp_path: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline, VectorSide
    from cairn.retrieval.vector import VectorMatrix

    folder = tmp_path / "pages"
    folder.mkdir()
    for name, text in PAGES.items():
        (folder / name).write_text(text, encoding="utf-8")
    ws.add_collection(folder, name="pages")
    ws.index()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    docs = {d.path: d.docid for d in ws.ls().documents}
    # the vectors rank flames first, then calendar, then fire (the page the query quotes)
    rows = {"flames.md": (1.0, 0.0, 0.0), "calendar.md": (0.6, 0.8, 0.0), "fire.md": (0.0, 0.6, 0.8)}
    ids, vectors, docids = [], [], []
    for path, row in rows.items():
        for pid in store.document_passage_ids(docs[path]):
            ids.append(pid)
            vectors.append(np.asarray(row, dtype=np.float32))
            docids.append(docs[path])
    matrix = VectorMatrix(np.asarray(ids, dtype=np.int64), np.stack(vectors), tuple(docids))
    side = VectorSide(FixedEmbedder(np.asarray((1.0, 0.0, 0.0), dtype=np.float32)), matrix, None)  # type: ignore[arg-type]
    ports = dataclasses.replace(ws._retrieval.pipeline(store).ports, vectors=lambda _: side)

    def run(settings: HybridSettings) -> Any:
        return HybridPipeline(ports, settings).run("Display the ASCII fire", filters, 10, mode="default",
                                                   graph=False, all_passages=False)

    off, on = run(DEFAULT_SETTINGS), run(HybridSettings(complete_first=True))
    assert off.rankings["bm25"][0].docid == docs["fire.md"] and off.rankings["vector"][0].docid == docs["flames.md"]
    assert off.fused[0].hit.docid != docs["fire.md"]  # fused, the paraphrase wins
    assert "complete-first" not in off.stages_run
    assert on.fused[0].hit.docid == docs["fire.md"] and "complete" in on.fused[0].stages
    assert [f.hit.docid for f in on.fused[1:]] == [f.hit.docid for f in off.fused if f.hit.docid != docs["fire.md"]]
    assert "complete-first" in on.stages_run
    assert on.weights is not None and on.weights.reasons[-1] == COMPLETE_REASON
    assert on.weights.weights == off.weights.weights  # the weights are not what changes
    # a query the vector top matches as completely leaves the fused order alone
    both = HybridPipeline(ports, HybridSettings(complete_first=True)).run(
        "Display", filters, 10, mode="default", graph=False, all_passages=False)
    assert "complete-first" not in both.stages_run
