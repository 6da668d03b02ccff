"""Matrix-vector products with NumPy's BLAS on one thread.

cairn's products are small (a query vector against a few thousand to tens of thousands
of 384-dimension rows: about a millisecond on one core). NumPy's OpenBLAS splits them
over its thread pool, whose threads then spin waiting for more work and slow the SQLite,
tokenizer and ONNX work around them: on the loaded 2-core bench machine a warm ``query``
took 65 ms with the pool and 48 ms with BLAS on one thread, a ``plan`` 242 and 142 ms
(bench/RESULTS.md, "Agent memory: plan speed, fourth round"). Limiting the pool only
while a product runs does not help: raising the count again after each product wakes
the pool. The bits of a product also depend on how its rows are split between threads.

So the first product of a process sets the BLAS pools (``threadpoolctl``, when
installed) to ``CAIRN_BLAS_THREADS`` threads, default 1, once: process-wide, since BLAS
has one pool. ``CAIRN_BLAS_THREADS=keep`` leaves NumPy's pool as it is; so do the
standard ``OPENBLAS_NUM_THREADS`` / ``OMP_NUM_THREADS`` / ``MKL_NUM_THREADS`` variables
when set (the caller has chosen). Without ``threadpoolctl`` nothing is changed.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Variables by which a process chooses its BLAS threads itself (cairn then leaves them).
STANDARD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def wanted_threads(environ: dict[str, str] | os._Environ[str] = os.environ) -> int | None:
    """The BLAS thread count cairn sets (None: leave the pool as it is)."""
    value = environ.get("CAIRN_BLAS_THREADS", "").strip().lower()
    if value == "keep" or (not value and any(environ.get(v) for v in STANDARD_VARIABLES)):
        return None
    if not value:
        return 1
    try:
        threads = int(value)
    except ValueError:
        return 1
    return threads if threads >= 1 else None


@functools.lru_cache(maxsize=1)
def configure() -> int | None:
    """Set the BLAS pools to :func:`wanted_threads` once per process; the count set
    (None when nothing was changed)."""
    threads = wanted_threads()
    if threads is None:
        return None
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:
        return None
    try:
        threadpool_limits(threads, user_api="blas")
    except Exception:  # an unexpected library layout: leave BLAS as it is
        return None
    return threads


def matvec(matrix: NDArray[np.float32], vector: NDArray[np.float32]) -> NDArray[np.float32]:
    """``matrix @ vector``, BLAS configured first (:func:`configure`)."""
    import numpy as np

    configure()
    return np.asarray(matrix @ vector)
