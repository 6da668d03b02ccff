"""The recall's first vector pass over a large memory matrix, certified by an int8 copy.

The exact pass (:func:`cairn.memory.recall.cosines`) reads every row of the float32
memory matrix: 50,000 records x 384 dimensions are 77 MB, a memory-bound product of
≈ 7 ms CPU a plan. Here an int8 copy of the matrix (19 MB; each row's codes and scale)
is multiplied by the task's vector in one onnxruntime ``MatMulInteger`` (the copy is a
constant of the session, packed once: ≈ 1.4 ms), and each row's error is bounded:

    x = s_x * x8 + r_x            (the row: scale, int8 codes, residual, whose norm is kept)
    q = h * q_hi + l * q_lo + r_q (the task's vector in two int8 parts, and what is left)
    |x.q - approx| <= |r_x| |q| + |s_x x8| |r_q|                  (Cauchy-Schwarz)

plus the float32 product's own error and the rounding to 6 places. Every row whose upper
bound reaches the ``depth``-th best lower bound is scored exactly: this holds the exact
top ``depth`` and every row tied with its last. Those rows get the full product's own
bits: OpenBLAS computes the rows of a product in groups of four, each group alone, so
whole aligned groups gathered into a smaller matrix give the same bits (checked on each
matrix when its copy is built; where the check fails, the exact pass runs), and the last
``n mod 4`` rows go through another kernel, so they are taken with the group before them.

The list is then the exact pass's: the ``depth`` best by exact cosine, ties by write
position (:func:`cairn.memory.recall.nearest`), whichever pass ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cairn.blas import matvec

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Matrices with fewer rows take the exact pass (it is then within the CPU's caches).
MIN_ROWS = 8_192
#: Allowance for a float32 product's error relative to |x||q| (at most 384 * 2^-24 ≈ 2.3e-5
#: for 384 dimensions, whatever the summation order) and for the float64 arithmetic here.
RELATIVE_SLACK = 1e-4
#: Allowance for the rounding of cosines to 6 places (5e-7) and the float64 sums.
ABSOLUTE_SLACK = 2e-6


@dataclass(frozen=True, slots=True)
class Int8Matrix:
    """The int8 copy of one float32 matrix: an onnxruntime session holding its codes,
    each row's scale, the norm of its coded part, and the norm of its residual plus the
    float32 product's allowance (``spread``, to be multiplied by the vector's norm)."""

    session: Any
    scale: NDArray[np.float64]
    coded: NDArray[np.float64]
    spread: NDArray[np.float64]
    rows: int


#: Rows quantised per step of the build (float64 scratch of a few MB, within the caches).
BUILD_ROWS = 4_096


def int8_matrix(matrix: NDArray[np.float32]) -> Int8Matrix | None:
    """The int8 copy of ``matrix`` (None: too small to pay, onnxruntime missing, or a
    check failed: the exact pass then runs). The codes are unsigned with zero point 128
    (onnxruntime's signed-by-unsigned kernel saturates 16-bit pair sums on AVX2)."""
    import numpy as np

    rows, dims = matrix.shape
    if rows < MIN_ROWS:
        return None
    try:
        import onnxruntime
    except ImportError:
        return None
    codes = np.empty((dims, rows), dtype=np.uint8)  # transposed: the product's right side
    scale = np.empty(rows, dtype=np.float64)
    coded = np.empty(rows, dtype=np.float64)
    residual = np.empty(rows, dtype=np.float64)
    for start in range(0, rows, BUILD_ROWS):
        part = matrix[start:start + BUILD_ROWS].astype(np.float64)
        peak = np.abs(part).max(axis=1)
        step = np.where(peak > 0, peak / 127.0, 1.0)
        ints = np.clip(np.rint(part / step[:, None]), -127, 127)
        codes[:, start:start + part.shape[0]] = (ints + 128).astype(np.uint8).T
        ints *= step[:, None]
        scale[start:start + part.shape[0]] = step
        coded[start:start + part.shape[0]] = np.sqrt(np.einsum("ij,ij->i", ints, ints))
        part -= ints
        residual[start:start + part.shape[0]] = np.sqrt(np.einsum("ij,ij->i", part, part))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = onnxruntime.InferenceSession(_model(codes), options, providers=["CPUExecutionProvider"])
    except Exception:  # onnxruntime raises its own unexported exception types
        return None
    spread = residual + RELATIVE_SLACK * (coded + residual)
    copy = Int8Matrix(session, scale, coded, spread, rows)
    if not (_integers_right(copy, codes) and _groups_reproduce(matrix)):
        return None
    return copy


def _integers_right(copy: Int8Matrix, codes: NDArray[np.uint8]) -> bool:
    """Whether the session's integer products equal NumPy's (the largest codes, both signs)."""
    import numpy as np

    parts = np.stack([np.full(codes.shape[0], 255), np.tile([1, 255], codes.shape[0] // 2 + 1)[:codes.shape[0]]])
    (y,) = copy.session.run(["y"], {"q": parts.astype(np.uint8)})
    left = parts.astype(np.float64) - 128.0
    for start in range(0, codes.shape[1], BUILD_ROWS):  # float64 sums of these integers are exact
        right = codes[:, start:start + BUILD_ROWS].astype(np.float64) - 128.0
        if not np.array_equal(y[:, start:start + BUILD_ROWS], left @ right):
            return False
    return True


def _model(codes: NDArray[np.uint8]) -> bytes:
    """An ONNX model (protobuf, written here: the ``onnx`` package takes seconds to import)
    of one ``MatMulInteger``: input ``q`` (uint8, 2 x dims, zero point 128) times the
    constant ``codes`` (uint8, dims x rows, zero point 128), output ``y`` (int32)."""
    dims, rows = codes.shape

    def tensor(name: str, shape: tuple[int, ...], data: bytes) -> bytes:  # TensorProto, uint8 (2)
        return b"".join(_field(1, _varint(n)) for n in shape) + _field(2, _varint(2)) + _bytes(8, name.encode()) \
            + _bytes(9, data)

    def value(name: str, elem: int, shape: tuple[int, ...]) -> bytes:  # ValueInfoProto
        dim = b"".join(_bytes(1, _field(1, _varint(n))) for n in shape)
        return _bytes(1, name.encode()) + _bytes(2, _bytes(1, _field(1, _varint(elem)) + _bytes(2, dim)))

    node = b"".join(_bytes(1, n) for n in (b"q", b"codes", b"zero", b"zero")) + _bytes(2, b"y") \
        + _bytes(4, b"MatMulInteger")
    graph = _bytes(1, node) + _bytes(2, b"first_pass") + _bytes(5, tensor("codes", (dims, rows), codes.tobytes())) \
        + _bytes(5, tensor("zero", (), bytes([128]))) + _bytes(11, value("q", 2, (2, dims))) \
        + _bytes(12, value("y", 6, (2, rows)))
    return _field(1, _varint(8)) + _bytes(7, graph) + _bytes(8, _field(2, _varint(13)))  # IR 8, opset 13


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, varint: bytes) -> bytes:
    """A varint field (wire type 0)."""
    return _varint(number << 3) + varint


def _bytes(number: int, data: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _groups_reproduce(matrix: NDArray[np.float32]) -> bool:
    """Whether :func:`exact_cosines` gives the full product's bits on this matrix (a seeded
    vector, some groups of four and the last rows)."""
    import numpy as np

    rng = np.random.default_rng(20261202)
    vector = np.asarray(rng.standard_normal(matrix.shape[1]), dtype=np.float32)
    vector /= np.linalg.norm(vector)
    full = matvec(matrix, vector)
    rows = np.unique(np.concatenate([rng.integers(0, matrix.shape[0], 256), np.arange(matrix.shape[0] - 8,
                                                                                      matrix.shape[0])]))
    return bool(np.array_equal(_products(matrix, vector, rows), full[rows]))


def _products(matrix: NDArray[np.float32], vector: NDArray[np.float32], rows: NDArray[np.intp]) -> Any:
    """The float32 products of ``rows`` (sorted, distinct) with the full product's bits."""
    import numpy as np

    n = matrix.shape[0]
    body = n - n % 4
    out = np.empty(rows.shape[0], dtype=np.float32)
    inner = rows < body
    if inner.any():
        groups = np.unique(rows[inner] // 4)
        gathered = matvec(matrix[(groups[:, None] * 4 + np.arange(4)).ravel()], vector)
        where = np.searchsorted(groups, rows[inner] // 4) * 4 + rows[inner] % 4
        out[inner] = gathered[where]
    if not inner.all():  # the last n mod 4 rows, with the group before them
        start = max(0, body - 4)
        out[~inner] = matvec(matrix[start:], vector)[rows[~inner] - start]
    return out


def exact_cosines(matrix: NDArray[np.float32], query: NDArray[np.float32], rows: NDArray[np.intp]) -> Any:
    """The cosines of ``rows`` (sorted, distinct) as :func:`cairn.memory.recall.cosines`
    gives them (the same float32 bits, rounded to 6 places)."""
    import numpy as np

    scores = _products(matrix, query.astype(np.float32), rows).astype(np.float64)
    return scores.round(6)  # np.round(scores, 6), as cosines() rounds


def certified_rows(copy: Int8Matrix, matrix: NDArray[np.float32], query: NDArray[np.float32],
                   depth: int) -> tuple[Any, Any]:
    """The rows that can be among the ``depth`` best by exact cosine (every one of them,
    and every row tied with the last), sorted, and their exact cosines."""
    import numpy as np

    wide = query.astype(np.float32).astype(np.float64)
    high_scale = float(np.abs(wide).max()) / 127.0 or 1.0
    high = np.rint(wide / high_scale)
    left = wide - high * high_scale
    low_scale = float(np.abs(left).max()) / 127.0 or 1.0
    low = np.rint(left / low_scale)
    rest = float(np.linalg.norm(left - low * low_scale))
    parts = (np.stack([high, low]) + 128).astype(np.uint8)  # |high|, |low| <= 127
    (y,) = copy.session.run(["y"], {"q": parts})
    approx = (y[0].astype(np.float64) * high_scale + y[1].astype(np.float64) * low_scale) * copy.scale
    bound = copy.spread * float(np.linalg.norm(wide))
    bound += copy.coded * rest
    bound += ABSOLUTE_SLACK
    k = min(depth, copy.rows)
    floor = np.partition(approx - bound, copy.rows - k)[copy.rows - k]  # the k-th best lower bound
    rows = np.flatnonzero(approx + bound >= floor)
    return rows, exact_cosines(matrix, query, rows)
