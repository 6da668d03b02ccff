"""cairn.blas: BLAS on one thread for cairn's products (process-wide, once)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.blas import wanted_threads

pytest.importorskip("numpy")
pytest.importorskip("threadpoolctl")

SRC = str(Path(__file__).resolve().parent.parent / "src")

PROBE = """
import json
import numpy as np
from threadpoolctl import threadpool_info
from cairn.blas import configure, matvec
before = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
rng = np.random.default_rng(7)
m = rng.standard_normal((5000, 384)).astype(np.float32)
v = rng.standard_normal(384).astype(np.float32)
got = matvec(m, v)
after = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
print(json.dumps({"before": before, "after": after, "set": configure(),
                  "close": bool(np.allclose(got, m @ v, atol=1e-4)), "again": bool((matvec(m, v) == got).all())}))
"""


def _probe(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                          "CAIRN_BLAS_THREADS")}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120,
                          env={**clean, "PYTHONPATH": SRC, **env})
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_wanted_threads() -> None:
    assert wanted_threads({}) == 1
    assert wanted_threads({"CAIRN_BLAS_THREADS": "3"}) == 3
    assert wanted_threads({"CAIRN_BLAS_THREADS": "keep"}) is None
    assert wanted_threads({"CAIRN_BLAS_THREADS": "0"}) is None
    assert wanted_threads({"CAIRN_BLAS_THREADS": "many"}) == 1
    assert wanted_threads({"OPENBLAS_NUM_THREADS": "2"}) is None  # the caller chose
    assert wanted_threads({"OMP_NUM_THREADS": "4", "CAIRN_BLAS_THREADS": "1"}) == 1


def test_first_product_sets_one_thread_and_keeps_the_result() -> None:
    out = _probe()
    assert out["set"] == 1
    assert out["after"] and all(n == 1 for n in out["after"])  # type: ignore[union-attr]
    assert out["close"] is True and out["again"] is True


def test_standard_variable_or_keep_leaves_the_pool() -> None:
    out = _probe(CAIRN_BLAS_THREADS="keep")
    assert out["set"] is None and out["after"] == out["before"]
    out = _probe(OPENBLAS_NUM_THREADS="2")
    assert out["set"] is None and out["after"] == out["before"]
