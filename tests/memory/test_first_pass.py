"""The recall's certified first vector pass (:mod:`cairn.memory.first_pass`): the same
list and the same cosines as the exact pass over every row."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from cairn.memory.governor import canonical
from tests.conftest import needs_minilm

np = pytest.importorskip("numpy")
pytest.importorskip("onnxruntime")


def _matrix(rows: int, seed: int) -> Any:
    """Unit rows in the model's 384 dimensions, a third of them repeated (exact ties, as
    records citing one passage share its vector), some close to others."""
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((rows, 384)).astype("<f4")
    matrix[1::3] = matrix[rng.integers(0, rows, size=len(range(1, rows, 3)))]
    matrix[2::7] = matrix[rng.integers(0, rows, size=len(range(2, rows, 7)))] + np.float32(0.01) * matrix[3::7][
        : len(range(2, rows, 7))].mean(axis=0)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.frombuffer(matrix.tobytes(), dtype="<f4").reshape(matrix.shape)  # as recall reads it


def test_the_certified_pass_gives_the_exact_list_and_cosines() -> None:
    from cairn.memory.first_pass import certified_rows, exact_cosines, int8_matrix
    from cairn.memory.recall import cosines, nearest

    for rows, seed in ((9_001, 1), (8_194, 2), (8_192, 3), (8_195, 4)):  # every n mod 4
        matrix = _matrix(rows, seed)
        copy = int8_matrix(matrix)
        assert copy is not None
        rng = np.random.default_rng(seed)
        queries = [matrix[5], matrix[rows - 1], *(rng.standard_normal((6, 384)).astype("<f4"))]
        for query in queries:
            query = (query / np.linalg.norm(query)).astype("<f4")
            every = cosines(matrix, query)
            for depth in (1, 7, 250, 1_000):
                picked, exact = certified_rows(copy, matrix, query, depth)
                assert np.array_equal(exact, every[picked])  # the exact pass's bits
                best = nearest(every, depth)
                assert set(best.tolist()) <= set(picked.tolist())
                assert np.array_equal(picked[nearest(exact, depth)], best)
            some = np.unique(rng.integers(0, rows, size=40))
            assert np.array_equal(exact_cosines(matrix, query, np.append(some, rows - 1)), every[np.append(some, rows - 1)])


def test_nearest_takes_ties_by_position_at_the_last_place_too() -> None:
    from cairn.memory.recall import nearest

    scores = np.array([0.5, 0.9, 0.5, 0.7, 0.5, 0.9, 0.1, 0.5])
    assert nearest(scores, 4).tolist() == [1, 5, 3, 0]
    assert nearest(scores, 5).tolist() == [1, 5, 3, 0, 2]
    assert nearest(scores, 20).tolist() == [1, 5, 3, 0, 2, 4, 7, 6]
    assert nearest(scores, 0).tolist() == []
    rng = np.random.default_rng(3)
    for _ in range(200):
        values = rng.integers(0, 6, size=rng.integers(1, 40)).astype(np.float64)
        depth = int(rng.integers(1, 45))
        expected = sorted(range(values.size), key=lambda n: (-values[n], n))[:depth]
        assert nearest(values, depth).tolist() == expected


def test_small_matrices_take_the_exact_pass() -> None:
    from cairn.memory.first_pass import MIN_ROWS, int8_matrix

    assert int8_matrix(_matrix(MIN_ROWS - 1, 5)) is None


@needs_minilm
def test_a_recall_by_the_int8_copy_is_the_exact_recall(mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the certified pass on a small store (its threshold lowered), a recall's records
    and cosines, and the plan, are those of the exact pass."""
    import cairn
    from cairn.memory import first_pass

    topics = ["PostgreSQL backups run nightly", "the noodle place on Fridays", "releases go out on Tuesdays",
              "the orders database is replicated", "alpacas graze on the hill", "the VPN needs a token"]
    mws.memory_import([{"title": f"Note {n}", "narrative": f"Note {n}: {topics[n % len(topics)]}, case {n % 5}.",
                        "observed_at": f"2023-05-{1 + n // 10:02d}", "source": "import"} for n in range(61)])
    mws.embed()
    caller = mws.memory_caller()
    task = "when are backups of the orders database taken"
    exact = [(r.qualified.record.id, r.cosine) for r in mws._recall.recall(task, caller, 5)]
    plan = hashlib.sha256(canonical(mws.plan(task, budget=300, explain=True).model_dump(mode="json"))).hexdigest()
    assert [c for _, c in exact if c is not None]
    seen = next(v for _, v in mws._recall._cache.values())
    assert seen.vector_copy.built and seen.vector_copy.copy is None  # 61 rows: the exact pass
    monkeypatch.setattr(first_pass, "MIN_ROWS", 8)
    fresh = cairn.open()
    try:
        for depth_limit in (5, 50):
            got = [(r.qualified.record.id, r.cosine) for r in fresh._recall.recall(task, caller, depth_limit)]
            want = [(r.qualified.record.id, r.cosine) for r in mws._recall.recall(task, caller, depth_limit)]
            assert got == want
        assert next(v for _, v in fresh._recall._cache.values()).vector_copy.copy is not None  # the second used it
        again = canonical(fresh.plan(task, budget=300, explain=True).model_dump(mode="json"))
        assert hashlib.sha256(again).hexdigest() == plan
    finally:
        fresh.close()


@needs_minilm
def test_a_write_without_new_vectors_keeps_the_matrix_and_its_copy(mws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record written without a vector (not embedded yet) leaves the matrix's rows as
    they were: recall keeps the matrix and its int8 copy, and recalls what a fresh process
    recalls; a record with a new vector gets a new matrix and copy."""
    import cairn
    from cairn.memory import first_pass

    monkeypatch.setattr(first_pass, "MIN_ROWS", 8)
    mws.memory_import([{"title": f"Note {n}", "narrative": f"Note {n} about backups of database {n % 7}.",
                        "source": "import"} for n in range(30)])
    mws.embed()
    caller = mws.memory_caller()
    task = "when are backups of the orders database taken"
    mws._recall.recall(task, caller, 5)  # the exact pass
    assert next(v for _, v in mws._recall._cache.values()).vector_copy.copy is None
    mws._recall.recall(task, caller, 5)  # the second recall over the matrix builds its copy
    before = next(v for _, v in mws._recall._cache.values())
    assert before.vector_copy.copy is not None
    mws.memory_add("Backups", "Backups of the orders database run nightly at two.", source="manual")  # no vector
    warm = [(r.qualified.record.id, r.cosine) for r in mws._recall.recall(task, caller, 5)]
    after = next(v for _, v in mws._recall._cache.values())
    assert after is not before and after.matrix is before.matrix and after.vector_copy is before.vector_copy
    fresh = cairn.open()
    try:
        assert [(r.qualified.record.id, r.cosine) for r in fresh._recall.recall(task, caller, 5)] == warm
    finally:
        fresh.close()
    mws.embed()  # the new record's vector: another matrix, another copy
    for _ in range(2):
        mws._recall.recall(task, caller, 5)
    embedded = next(v for _, v in mws._recall._cache.values())
    assert embedded.matrix is not before.matrix and embedded.matrix.shape[0] == before.matrix.shape[0] + 1
    assert embedded.vector_copy.copy is not None and embedded.vector_copy.copy is not before.vector_copy.copy
