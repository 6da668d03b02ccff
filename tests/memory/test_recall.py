"""Hybrid recall over memory (:mod:`cairn.memory.recall`): BM25 and vectors fused as
``query`` fuses them, session context, content-addressed embeddings."""

from __future__ import annotations

from typing import Any

import pytest

from cairn.memory.governor import canonical
from cairn.memory.recall import embed_text, fused_order, session_neighbours
from cairn.memory.records import Observation
from cairn.retrieval.hybrid import Neighbours
from tests.conftest import needs_minilm


def obs(rid: str, observed: str | None, *, project: str = "p", owner: str | None = "ann") -> Observation:
    return Observation(
        id=rid, type="how-it-works", title=f"Title {rid}", narrative=f"text of {rid}", facts=(), files=(),
        symbols=(), concepts=(), topic_key=None, revision=1, source="import", visibility="project",
        project=project, owner=owner, evidence=(), status="active", created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z", observed_at=observed,
    )


def test_session_neighbours_follow_write_order_within_one_session() -> None:
    records = [obs("a", "2023-05-08"), obs("b", "2023-05-08"), obs("c", "2023-05-08"),
               obs("d", "2023-06-01"), obs("e", None), obs("f", None), obs("g", "2023-06-01", owner="bob")]
    near = session_neighbours(records)
    assert near == {"a": Neighbours(None, "b"), "b": Neighbours("a", "c"), "c": Neighbours("b", None)}


def test_a_reply_joins_under_the_turn_it_answers() -> None:
    records = [obs("q1", "s1"), obs("r1", "s1"), obs("x", "s2"), obs("y", "s2")]
    # BM25 finds two turns; the turn after each in its session borrows half its score,
    # so each joins (below what BM25 found itself) in the order of its lender.
    assert fused_order({"bm25": [("q1", 2.0), ("x", 1.0)]}, records, 10) == ["q1", "x", "r1", "y"]
    assert fused_order({"bm25": [("q1", 2.0)]}, records, 10) == ["q1", "r1"]
    # Without a session (no observed_at), no neighbour joins.
    plain = [obs("q1", None), obs("r1", None)]
    assert fused_order({"bm25": [("q1", 2.0)]}, plain, 10) == ["q1"]


def test_vector_list_fuses_with_bm25() -> None:
    records = [obs("a", None), obs("b", None), obs("c", None)]
    assert fused_order({"bm25": [("a", 3.0)], "vector": [("b", 0.9), ("a", 0.5)]}, records, 10) == ["a", "b"]
    assert fused_order({"bm25": [], "vector": [("c", 0.9)]}, records, 1) == ["c"]


def test_embed_text_is_the_handed_text() -> None:
    record = obs("a", None)
    assert embed_text(record) == "Title a:\ntext of a"


def test_session_context_in_a_plan_without_a_model(mws: Any) -> None:
    """BM25 alone (nothing embedded): the turn that names the subject is found, and the
    reply written after it in the same session joins the plan."""
    mws.memory_import([
        {"title": "Ann, 8 May 2023", "narrative": "How long have you kept the tortoises?", "observed_at": "2023-05-08",
         "source": "import"},
        {"title": "Bob, 8 May 2023", "narrative": "Three years now, since the move.", "observed_at": "2023-05-08",
         "source": "import"},
        {"title": "Bob, 9 June 2023", "narrative": "The garden needs rain.", "observed_at": "2023-06-09",
         "source": "import"},
    ])
    plan = mws.plan("how long has Bob kept tortoises", budget=400)
    handed = [i.title for i in plan.items if i.disposition in ("include", "compact")]
    assert handed[:2] == ["[how-it-works] Ann, 8 May 2023", "[how-it-works] Bob, 8 May 2023"]


@needs_minilm
def test_vectors_recall_by_meaning_and_plans_stay_identical(mws: Any) -> None:
    mws.memory_add("Database choice", "We keep every order in PostgreSQL with nightly backups.", source="manual")
    mws.memory_add("Lunch", "The team likes the noodle place on Fridays.", source="manual")
    assert mws.embed().memory_embedded == 2  # `cairn embed` embeds memory records too
    assert mws.embed().memory_embedded == 0  # content-addressed: nothing twice
    caller = mws.memory_caller()
    recalled = mws._recall.recall("which relational store holds purchases", caller, 5)
    assert recalled[0].qualified.record.title == "Database choice"
    assert recalled[0].cosine is not None and recalled[0].cosine > (recalled[-1].cosine or 0.0) - 1e-9
    first = canonical(mws.plan("which relational store holds purchases", budget=200, explain=True)
                      .model_dump(mode="json"))
    again = canonical(mws.plan("which relational store holds purchases", budget=200, explain=True)
                      .model_dump(mode="json"))
    assert first == again


def test_recall_fusion_is_query_fusion() -> None:
    """Recall's lean fusion gives :func:`cairn.retrieval.hybrid.fuse`'s units, order and
    scores (ties, repeated ids, empty and zero-weight stages included)."""
    import random

    from cairn.memory.recall import _fuse, _fused_ids
    from cairn.retrieval.hybrid import DEFAULT_SETTINGS, fuse
    from cairn.store.records import light_hit

    rng = random.Random(7)
    ids = [f"r{n}" for n in range(60)]
    ordinal = {rid: n for n, rid in enumerate(ids)}
    for case in range(300):
        rankings = {stage: [(rng.choice(ids), rng.random()) for _ in range(rng.randrange(0, 40))]
                    for stage in ("bm25", "vector", "bm25x", "vectorx")[: 1 + case % 4]}
        weights = {s: rng.choice([0.0, 0.5, 1.0, 1.5]) for s in rankings} if case % 3 else None
        hits = {s: [light_hit(ordinal[rid], rid, score) for rid, score in r] for s, r in rankings.items() if r}
        expected = fuse(hits, k=DEFAULT_SETTINGS.rrf_k,
                        weights=DEFAULT_SETTINGS.weights if weights is None else weights)
        got = _fuse(rankings, ordinal, weights, DEFAULT_SETTINGS)
        assert [(f.hit.docid, f.hit.passage_id, f.score) for f in got] == \
            [(f.hit.docid, f.hit.passage_id, f.score) for f in expected]
        assert _fused_ids(rankings, ordinal, weights, DEFAULT_SETTINGS) == [f.hit.docid for f in expected]
        first = rng.randrange(0, 70)
        assert _fused_ids(rankings, ordinal, weights, DEFAULT_SETTINGS, first) == \
            [f.hit.docid for f in expected][:first]


def test_first_units_of_the_fusion_with_near_ties() -> None:
    """The first units alone (a partial selection of the units near the cut) are the full
    fusion's first, also when scores differ below the rounding of the sort key (8 places)."""
    import random

    from cairn.memory.recall import _fused_scores
    from cairn.retrieval.hybrid import DEFAULT_SETTINGS

    rng = random.Random(11)
    ids = [f"r{n}" for n in range(300)]
    ordinal = {rid: n for n, rid in enumerate(ids)}
    for _ in range(200):
        rankings = {stage: [(rng.choice(ids), 0.0) for _ in range(rng.randrange(0, 250))]
                    for stage in ("bm25", "vector", "bm25x", "vectorx")}
        weights = {s: rng.choice([1.0, 1.0 + 3e-9, 1.0 - 3e-9, 1.0 + 4e-7, 0.5]) for s in rankings}
        full = _fused_scores(rankings, ordinal, weights, DEFAULT_SETTINGS)
        for first in (0, 1, 3, 5, 50, 120, 400):
            assert _fused_scores(rankings, ordinal, weights, DEFAULT_SETTINGS, first) == full[:first]


def test_fused_order_takes_the_first_alone_only_when_nothing_lends() -> None:
    """Without session neighbours among the units, :func:`fused_order` selects its first
    ``limit`` by a partial selection: the same ids as the full fusion's first ``limit``."""
    import random

    from cairn.memory.recall import _fuse
    from cairn.retrieval.hybrid import DEFAULT_SETTINGS

    rng = random.Random(11)
    ids = [f"r{n}" for n in range(80)]
    records = [obs(rid, None) for rid in ids]
    ordinal = {rid: n for n, rid in enumerate(ids)}
    for case in range(100):
        rankings = {stage: [(rng.choice(ids), rng.random()) for _ in range(rng.randrange(0, 50))]
                    for stage in ("bm25", "vector")[: 1 + case % 2]}
        limit = rng.randrange(0, 90)
        full = [f.hit.docid for f in _fuse(rankings, ordinal, None, DEFAULT_SETTINGS)]
        assert fused_order(rankings, records, limit) == full[:limit]


def test_session_neighbours_of_keys_are_those_of_records() -> None:
    """Recall reads record keys (:class:`~cairn.memory.records.RecordKey`), not records:
    the same sessions (a claim has none)."""
    from cairn.memory.records import RecordKey
    from cairn.memory.texts import embed_hash

    records = [obs("a", "s1"), obs("b", "s1"), obs("c", None), obs("d", "s2"), obs("e", "s2", owner="bob"),
               obs("f", "s2", owner="bob")]
    keys = [RecordKey(r.id, "observation", r.project, r.owner, r.visibility, r.observed_at, embed_hash(r))
            for r in records]
    assert session_neighbours(keys) == session_neighbours(records)
    claim = RecordKey("x", "claim", "p", "ann", "project", "s1", "h")
    assert session_neighbours([keys[0], claim, keys[1]]) == {}


def test_a_fresh_process_decodes_only_the_records_it_recalls(mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall reads every visible record's key from the store's columns and decodes only
    the records it returns or reads the text of (a fresh process's first plan used to
    decode every record): the same records, in the same order, as with all decoded."""
    import cairn
    from cairn.store.sqlite import memory as sqlite_memory

    mws.memory_import([{"title": f"Llama note {n}", "narrative": f"llamas graze on hill {n} at dawn"
                        + (" with alpacas" if n % 7 == 0 else ""), "source": "import"} for n in range(120)])
    caller = mws.memory_caller()
    expected = [r.qualified.record.id for r in mws._recall.recall("alpacas on the hill", caller, 10)]
    fresh = cairn.open()  # a new workspace: nothing cached
    decoded: list[str] = []
    decode = sqlite_memory.record_from_json

    def counting(body: str) -> Any:
        record = decode(body)
        decoded.append(record.id)
        return record

    monkeypatch.setattr(sqlite_memory, "record_from_json", counting)
    try:
        got = [r.qualified.record.id for r in fresh._recall.recall("alpacas on the hill", caller, 10)]
        assert got == expected
        assert 0 < len(decoded) <= 15  # the 10 returned and the feedback round's first 5 texts
        assert set(got) <= set(decoded)
    finally:
        fresh.close()


@needs_minilm
def test_a_write_reads_only_the_new_vectors(mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a memory write, recall reads the vectors of the texts its last matrix did not
    hold, and keeps the rest: the matrix, the recall and the plan are those of a process
    that reads everything afresh."""
    import cairn
    from cairn.store.sqlite.vectors import VectorsMixin

    mws.memory_add("Database choice", "We keep every order in PostgreSQL with nightly backups.", source="manual")
    mws.memory_add("Lunch", "The team likes the noodle place on Fridays.", source="manual")
    mws.memory_add("Deploys", "Releases go out on Tuesdays after the backup check.", source="manual")
    mws.embed()
    caller = mws.memory_caller()
    task = "which relational store holds purchases and when are backups taken"
    mws._recall.recall(task, caller, 5)  # the matrix of three vectors, kept
    asked: list[list[str]] = []
    reads = VectorsMixin.vectors_for
    monkeypatch.setattr(VectorsMixin, "vectors_for",
                        lambda self, fp, hashes: asked.append(list(hashes)) or reads(self, fp, hashes))
    mws.memory_add("Backups", "Backups of the orders database run nightly at two.", source="manual")
    mws.embed()
    mws.memory_add("Pending", "A note about backups that has no vector yet.", source="manual")  # not embedded
    asked.clear()  # (the embedding pass asked for every record's)
    warm = mws._recall.recall(task, caller, 5)
    assert [len(h) for h in asked] == [2]  # the two new texts alone (one has a vector)
    seen = next(v for _, v in mws._recall._cache.values())
    fresh = cairn.open()
    try:
        cold = fresh._recall.recall(task, caller, 5)
        again = next(v for _, v in fresh._recall._cache.values())
        assert seen.rows == again.rows and len(seen.rows) == 4
        assert seen.matrix.tobytes() == again.matrix.tobytes() and seen.matrix.dtype == again.matrix.dtype
        assert [(r.qualified.record.id, r.cosine) for r in warm] == [(r.qualified.record.id, r.cosine) for r in cold]
        assert canonical(mws.plan(task, budget=300, explain=True).model_dump(mode="json")) == canonical(
            fresh.plan(task, budget=300, explain=True).model_dump(mode="json"))
    finally:
        fresh.close()


def test_a_matrix_from_kept_and_read_rows_is_the_full_read() -> None:
    """Kept rows first (records appended) or anywhere (a record embedded late): the same
    bytes, dtype and shape as one full read."""
    import numpy as np

    from cairn.memory.recall import _matrix
    from cairn.memory.records import RecordKey

    vectors = {f"h{i}": np.arange(i, i + 3, dtype="<f4") / 7 for i in range(6)}
    keys = [RecordKey(f"r{i}", "observation", "p", None, "project", None, f"h{i}") for i in range(6)]
    blobs = {h: v.tobytes() for h, v in vectors.items()}
    full = _matrix(keys, blobs, {}, None)
    for kept in (["h0", "h1", "h2"], ["h1", "h3", "h5"], ["h5"], list(vectors)):
        previous = np.stack([vectors[h] for h in reversed(kept)]).astype("<f4")
        held = {h: len(kept) - 1 - n for n, h in enumerate(kept)}
        made = _matrix(keys, {h: b for h, b in blobs.items() if h not in held}, held, previous)
        assert made.tobytes() == full.tobytes() and made.dtype == full.dtype and made.shape == full.shape


def test_the_feedback_vector_ranks_the_pool_with_scores_of_each_row_alone() -> None:
    """``vectorx`` over the candidate pool: only the records the other lists hold (with a
    vector), best first, ties by write position, the first ``depth``; each record's score
    is the same whatever else is in the pool and wherever its row lies."""
    import numpy as np

    from cairn.memory.recall import _pool_nearest, _Visible

    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((41, 384)).astype("<f4")  # the model's dimensions
    matrix[9] = matrix[30]  # a tie: the earlier row first
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    rows = [f"r{n}" for n in range(41)]
    seen = _Visible([], {}, {}, rows, matrix, row_of={rid: n for n, rid in enumerate(rows)})
    vector = matrix[30] + np.float32(0.01) * matrix[3]
    vector = (vector / np.linalg.norm(vector)).astype("<f4")
    pool = [[("r30", 1.0), ("r9", 0.5), ("nov", 0.4)], [("r3", 0.9), ("r30", 0.8)], [("r17", 2.0), ("r2", 1.0)]]
    ranked = _pool_nearest(seen, vector, pool, 10)
    assert [rid for rid, _ in ranked][:2] == ["r9", "r30"]  # equal rows tie: write position
    assert {rid for rid, _ in ranked} == {"r30", "r9", "r3", "r17", "r2"}  # the pool alone
    own = {rid: round(float(np.dot(matrix[n].astype(np.float64), vector.astype(np.float64))), 6)
           for n, rid in enumerate(rows)}
    assert all(score == own[rid] for rid, score in ranked)
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert _pool_nearest(seen, vector, pool, 2) == ranked[:2]
    for size in (1, 3, 4, 5, 8, 13, 40) * 5:  # any pool, any place: a record's score is its own
        picked = rng.choice(41, size=size, replace=False)
        for rid, score in _pool_nearest(seen, vector, [[(rows[n], 0.0) for n in picked]], 41):
            assert score == own[rid]
    assert _pool_nearest(seen, vector, [[("nov", 1.0)]], 5) == []


@needs_minilm
def test_plans_with_pool_feedback_are_the_same_twice_and_across_processes(
        mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the feedback round's vector ranking over the pool, one task gives the same
    plan byte for byte: twice in one process, in a fresh workspace, and in another process."""
    import hashlib
    import os
    import subprocess
    import sys

    import cairn
    from cairn.memory import recall as recall_module

    topics = ["PostgreSQL backups run nightly", "the noodle place on Fridays", "releases go out on Tuesdays",
              "the orders database is replicated", "alpacas graze on the hill", "the VPN needs a token"]
    mws.memory_import([{"title": f"Note {n}", "narrative": f"Note {n}: {topics[n % len(topics)]}, case {n % 5}.",
                        "observed_at": f"2023-05-{1 + n // 10:02d}", "source": "import"} for n in range(60)])
    mws.embed()
    pools: list[int] = []
    pooled = recall_module._pool_nearest

    def counting(seen: Any, vector: Any, rankings: Any, depth: int) -> Any:
        ranked = pooled(seen, vector, rankings, depth)
        pools.append(len(ranked))
        return ranked

    monkeypatch.setattr(recall_module, "_pool_nearest", counting)
    task = "when are backups of the orders database taken"

    def digest(ws: Any) -> str:
        plan = ws.plan(task, budget=300, explain=True).model_dump(mode="json")
        return hashlib.sha256(canonical(plan)).hexdigest()

    first = digest(mws)
    assert pools and pools[0] > 0  # the feedback round ranked the pool
    assert digest(mws) == first
    fresh = cairn.open()
    try:
        assert digest(fresh) == first
    finally:
        fresh.close()
    code = ("import hashlib, cairn\nfrom cairn.memory.governor import canonical\nws = cairn.open()\n"
            f"plan = ws.plan({task!r}, budget=300, explain=True).model_dump(mode='json')\n"
            "print(hashlib.sha256(canonical(plan)).hexdigest())\nws.close()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, timeout=300)
    assert other.stdout.strip() == first
