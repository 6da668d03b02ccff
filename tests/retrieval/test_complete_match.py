"""Sessions 10 and 10b of issue 17 (item 1): complete lexical matches. When BM25's top
passage holds every word of the query and the vector list's top passage does not, the query
reads as a line of BM25's page (tldr's example lines): its document ranks first (``first``)
or every complete match of BM25's top ``limit`` keeps at least its BM25 rank (``rank``; ``any``,
session 11: whenever the vector top lacks a query word).
``HybridSettings.complete_matches`` says which (bench/RESULTS.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cairn.retrieval.hybrid import (
    COMPLETE_ANY_REASON,
    COMPLETE_RANK_REASON,
    COMPLETE_REASON,
    DEFAULT_SETTINGS,
    FUSION_VERSION,
    Fused,
    HybridSettings,
    StageRank,
    complete_match,
    holds_every_word,
    keep_ranks,
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


def test_a_floor_of_one_moves_a_unit_to_the_front() -> None:
    before = fused("a", "b", "c", "d")
    after = keep_ranks(before, {"c": 1})
    assert [f.hit.docid for f in after] == ["c", "a", "b", "d"]
    assert after[0].score == before[0].score  # scores stay non-increasing
    assert [f.score for f in after] == sorted((f.score for f in after), reverse=True)
    assert after[0].stages["complete"] == StageRank(1, before[2].score)  # its score before the move
    assert after[0].stages["bm25"] == before[2].stages["bm25"]
    assert keep_ranks(before, {"a": 1}) == before  # first already
    assert keep_ranks(before, {"zz": 1}) == before  # not a unit
    assert [f.hit.passage_id for f in keep_ranks(before, {4: 1}, per_document=False)] == [4, 1, 2, 3]


def test_units_keep_at_least_their_floor_and_the_rest_their_order() -> None:
    before = fused("a", "b", "c", "d", "e", "f", "g")
    after = keep_ranks(before, {"f": 2, "g": 3, "b": 5, "zz": 4})
    assert [f.hit.docid for f in after] == ["a", "f", "g", "b", "c", "d", "e"]
    assert [f.score for f in after] == sorted((f.score for f in after), reverse=True)
    assert after[1].score == after[2].score == before[1].score  # both take the score of b, which they precede
    assert after[1].stages["complete"] == StageRank(2, before[5].score)
    assert "complete" not in after[3].stages  # b stays above its floor: not moved
    # a unit already above its floor stays where fusion put it
    assert keep_ranks(before, {"a": 3, "b": 4}) == before
    # a floor below the list's end changes nothing
    assert keep_ranks(before, {"g": 9}) == before
    assert keep_ranks([], {"a": 1}) == []


def test_every_floor_is_met() -> None:
    import random

    rng = random.Random(5)
    for _ in range(200):
        units = [chr(97 + i) for i in range(rng.randint(1, 12))]
        pinned = rng.sample(units, rng.randint(0, len(units)))
        floors = dict(zip(pinned, rng.sample(range(1, 13), len(pinned)), strict=True))
        after = [f.hit.docid for f in keep_ranks(fused(*units), floors)]
        assert sorted(after) == sorted(units)
        assert all(after.index(u) + 1 <= rank for u, rank in floors.items() if rank <= len(units))
        rest = [u for u in after if u not in floors]
        assert rest == [u for u in units if u not in floors]  # the others keep their fused order


def test_the_fusion_version_names_the_rule() -> None:
    assert DEFAULT_SETTINGS.complete_matches == "any" and ",complete-any)" in FUSION_VERSION
    assert "complete-" not in HybridSettings(complete_matches="off").fusion_version
    assert ",complete-first)" in HybridSettings(complete_matches="first").fusion_version
    assert ",complete-rank)" in HybridSettings(complete_matches="rank").fusion_version


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


def pages_with_vectors(ws: Any, tmp_path: Path, pages: dict[str, str],
                       rows: dict[str, tuple[float, float, float]]) -> tuple[Any, Any, dict[str, str]]:
    """Index ``pages``; the pipeline's ports with each page's passages at its row's vector
    and every query at (1, 0, 0); the filters; path -> docid."""
    from cairn.retrieval.pipeline import VectorSide
    from cairn.retrieval.vector import VectorMatrix

    folder = tmp_path / "pages"
    folder.mkdir()
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    ws.add_collection(folder, name="pages")
    ws.index()
    store, filters, _ = ws._retrieval.setup(10, [], [], [], None, None)
    docs = {d.path: d.docid for d in ws.ls().documents}
    ids, vectors, docids = [], [], []
    for path, row in rows.items():
        for pid in store.document_passage_ids(docs[path]):
            ids.append(pid)
            vectors.append(np.asarray(row, dtype=np.float32))
            docids.append(docs[path])
    matrix = VectorMatrix(np.asarray(ids, dtype=np.int64), np.stack(vectors), tuple(docids))
    side = VectorSide(FixedEmbedder(np.asarray((1.0, 0.0, 0.0), dtype=np.float32)), matrix, None)  # type: ignore[arg-type]
    return dataclasses.replace(ws._retrieval.pipeline(store).ports, vectors=lambda _: side), filters, docs


def test_the_pipeline_puts_a_complete_match_first(ws: Any, tmp_path: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    # the vectors rank flames first, then calendar, then fire (the page the query quotes)
    rows = {"flames.md": (1.0, 0.0, 0.0), "calendar.md": (0.6, 0.8, 0.0), "fire.md": (0.0, 0.6, 0.8)}
    ports, filters, docs = pages_with_vectors(ws, tmp_path, PAGES, rows)

    def run(settings: HybridSettings) -> Any:
        return HybridPipeline(ports, settings).run("Display the ASCII fire", filters, 10, mode="default",
                                                   graph=False, all_passages=False)

    off, on = run(HybridSettings(complete_matches="off")), run(HybridSettings(complete_matches="first"))
    assert off.rankings["bm25"][0].docid == docs["fire.md"] and off.rankings["vector"][0].docid == docs["flames.md"]
    assert off.fused[0].hit.docid != docs["fire.md"]  # fused, the paraphrase wins
    assert "complete-first" not in off.stages_run
    assert on.fused[0].hit.docid == docs["fire.md"] and "complete" in on.fused[0].stages
    assert [f.hit.docid for f in on.fused[1:]] == [f.hit.docid for f in off.fused if f.hit.docid != docs["fire.md"]]
    assert "complete-first" in on.stages_run
    assert on.weights is not None and on.weights.reasons[-1] == COMPLETE_REASON
    assert on.weights.weights == off.weights.weights  # the weights are not what changes
    # a query the vector top matches as completely leaves the fused order alone
    both = HybridPipeline(ports, HybridSettings(complete_matches="first")).run(
        "Display", filters, 10, mode="default", graph=False, all_passages=False)
    assert "complete-first" not in both.stages_run


def test_the_pipeline_keeps_complete_matches_at_their_bm25_rank(ws: Any, tmp_path: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    pages = {**PAGES, "campfire.md": "# campfire\n\nDisplay an ASCII campfire, with fire sounds, in a long "
             "terminal window with many other words around it.\n",
             "clock.md": "# clock\n\nDisplay a clock.\n"}
    # the vectors: flames, calendar, clock, fire, campfire
    rows = {"flames.md": (1.0, 0.0, 0.0), "calendar.md": (0.8, 0.6, 0.0), "clock.md": (0.6, 0.8, 0.0),
            "fire.md": (0.0, 0.6, 0.8), "campfire.md": (0.0, 0.0, 1.0)}
    ports, filters, docs = pages_with_vectors(ws, tmp_path, pages, rows)

    def run(rule: str) -> Any:
        return HybridPipeline(ports, HybridSettings(complete_matches=rule)).run(  # type: ignore[arg-type]
            "Display the ASCII fire", filters, 10, mode="default", graph=False, all_passages=False)

    off, on = run("off"), run("rank")
    bm25 = list(dict.fromkeys(hit.docid for hit in off.rankings["bm25"]))
    assert bm25[:2] == [docs["fire.md"], docs["campfire.md"]]  # both hold every query word
    fused = [f.hit.docid for f in on.fused]
    assert fused.index(docs["fire.md"]) == 0 and fused.index(docs["campfire.md"]) <= 1
    assert [f.hit.docid for f in off.fused].index(docs["campfire.md"]) > 1  # fusion alone drops it
    assert "complete-rank" in on.stages_run and on.weights is not None
    assert on.weights.reasons[-1] == COMPLETE_RANK_REASON
    rest = [d for d in fused if d not in (docs["fire.md"], docs["campfire.md"])]
    assert rest == [f.hit.docid for f in off.fused if f.hit.docid not in (docs["fire.md"], docs["campfire.md"])]


def test_any_keeps_complete_matches_below_an_incomplete_bm25_top(ws: Any, tmp_path: Path) -> None:
    from cairn.retrieval.pipeline import HybridPipeline

    pages = {**PAGES, "ascii.md": "# ascii\n\nASCII fire, ASCII fire, ASCII fire.\n",
             "clock.md": "# clock\n\nDisplay a clock.\n"}
    # the vectors: flames, calendar, clock, ascii, fire
    rows = {"flames.md": (1.0, 0.0, 0.0), "calendar.md": (0.8, 0.6, 0.0), "clock.md": (0.6, 0.8, 0.0),
            "ascii.md": (0.0, 0.6, 0.8), "fire.md": (0.0, 0.0, 1.0)}
    ports, filters, docs = pages_with_vectors(ws, tmp_path, pages, rows)

    def run(rule: str) -> Any:
        return HybridPipeline(ports, HybridSettings(complete_matches=rule)).run(  # type: ignore[arg-type]
            "Display the ASCII fire", filters, 10, mode="default", graph=False, all_passages=False)

    rank, any_ = run("rank"), run("any")
    bm25 = list(dict.fromkeys(hit.docid for hit in rank.rankings["bm25"]))
    assert bm25[:2] == [docs["ascii.md"], docs["fire.md"]]  # BM25's top lacks "display"
    assert "complete-rank" not in rank.stages_run  # rank needs BM25's top to hold every word
    assert [f.hit.docid for f in rank.fused].index(docs["fire.md"]) > 1
    assert [f.hit.docid for f in any_.fused].index(docs["fire.md"]) <= 1
    assert "complete-any" in any_.stages_run and any_.weights is not None
    assert any_.weights.reasons[-1] == COMPLETE_ANY_REASON
    assert ",complete-any)" in HybridSettings(complete_matches="any").fusion_version
