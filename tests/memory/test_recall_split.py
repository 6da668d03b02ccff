"""A recall's pass over the vector matrix in two halves on two threads gives the bits of
one product (memory/recall.py ``split_products``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, wait

import pytest

from cairn.blas import matvec
from cairn.memory import recall

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("rows", [1, 100, recall.SPLIT_ROWS - 1, recall.SPLIT_ROWS, recall.SPLIT_ROWS + 3,
                                  20_001, 50_000])
@pytest.mark.parametrize("here", [True, False])
def test_halves_give_the_bits_of_one_product(rows: int, here: bool) -> None:
    rng = np.random.default_rng(rows)
    matrix = rng.standard_normal((rows, 384)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    with ThreadPoolExecutor(max_workers=2) as side:
        for _ in range(5):
            query = rng.standard_normal(384).astype(np.float32)
            query /= np.linalg.norm(query)
            out, parts = recall.split_products(matrix, query, side, here=here)
            wait(parts)
            assert len(parts) == (2 - here if rows >= recall.SPLIT_ROWS else 1 - here)
            assert np.array_equal(out, matvec(matrix, query))
            assert np.array_equal(recall._rounded(out), recall.cosines(matrix, query))


def test_the_second_half_starts_on_an_aligned_row() -> None:
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((recall.SPLIT_ROWS * 2 + 5, 16)).astype(np.float32)
    starts: list[int] = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            starts.append(args[3])
            return super().submit(fn, *args, **kwargs)

    with Recording(max_workers=2) as side:
        _, parts = recall.split_products(matrix, matrix[0], side, here=False)
        wait(parts)
    assert starts[0] == 0 and starts[1] % recall.SPLIT_ALIGN == 0 and 0 < starts[1] < matrix.shape[0]
