"""Text embedders: one narrow protocol, a local ONNX default and an HTTP backend.

Every backend implements :class:`Embedder`. Backends are created from plain
configuration through a small registry (:func:`register_embedder`,
:func:`create_embedder`); the built-ins register themselves with the same
function a third party would use.

numpy, onnxruntime and tokenizers belong to the optional ``embed`` extra, so this
module imports none of them at import time: ``cairn status`` / ``doctor`` must be
able to call :func:`available_embedders` on a minimal install.
"""

from __future__ import annotations

import json
import math
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cairn.errors import ModelUnavailable, ValidationError
from cairn.models.embedding import (
    INSTALL_HINT,
    Embedder,
    EmbeddingKind,
    _check_texts,
    _is_installed,
    _l2_normalise,
    _no_vectors,
    _scripts_option,
)
from cairn.models.minilm import OnnxMiniLMEmbedder, _check_onnx_minilm
from cairn.models.registry import BackendInfo, BackendRegistry, always_available

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "INSTALL_HINT",
    "Embedder",
    "EmbedderFactory",
    "EmbedderInfo",
    "EmbeddingKind",
    "OnnxMiniLMEmbedder",
    "OpenAIEmbedder",
    "available_embedders",
    "create_embedder",
    "register_embedder",
]

# ------------------------------------------------------ OpenAI-compatible endpoint


def _embeddings_url(base_url: str) -> str:
    """``http://h:8080`` / ``http://h:8080/v1`` / ``.../v1/embeddings`` -> the embeddings URL."""
    url = base_url.rstrip("/")
    if url.endswith("/embeddings"):
        return url
    if url.endswith("/v1"):
        return url + "/embeddings"
    return url + "/v1/embeddings"


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint.

    Works with OpenAI, llama.cpp's ``llama-server --embeddings`` and Ollama. Uses
    only the standard library. ``base_url`` may be the server root, ``.../v1`` or
    the full ``.../v1/embeddings`` URL.

    The vector size is learnt from the first response unless ``dimensions`` is
    given (it is then checked, not sent). Reading :attr:`dimensions` or
    :attr:`fingerprint` before any :meth:`embed` therefore makes one small probe
    request. The fingerprint is ``openai:<host[:port]/path>:<model>:<dims>``.

    The server's tokenizer is not reachable through this API: :meth:`count_tokens`
    is exact only with ``tokenizer_path`` (a ``tokenizer.json``); otherwise it is a
    deliberate over-estimate (one token per 3 UTF-8 bytes), so chunks sized with it
    stay within ``max_tokens``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 60.0,
        batch_size: int = 64,
        max_tokens: int = 512,
        dimensions: int | None = None,
        tokenizer_path: str | Path | None = None,
        query_prefix: str = "",
        passage_prefix: str = "",
        scripts: Sequence[str] | None = None,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValidationError(f"base_url must be an http(s) URL, got {base_url!r}")
        if not model:
            raise ValidationError("model must be a non-empty string")
        if batch_size < 1 or max_tokens < 1 or timeout <= 0:
            raise ValidationError("batch_size, max_tokens and timeout must be positive")
        self.base_url = base_url
        self.model = model
        #: Scripts the served model knows (None, the default: assume every script).
        self.scripts: frozenset[str] | None = _scripts_option(scripts)
        self.url = _embeddings_url(base_url)
        self._api_key = api_key
        self.timeout = timeout
        self.batch_size = batch_size
        self._max_tokens = max_tokens
        self._dimensions = dimensions
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._tokenizer: Any = None
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never show the api key
        return f"OpenAIEmbedder(url={self.url!r}, model={self.model!r})"

    @property
    def dimensions(self) -> int:
        """Vector length: as configured, else learnt from the first response."""
        if self._dimensions is None:
            self.embed(["dimension probe"])
        assert self._dimensions is not None
        return self._dimensions

    @property
    def max_tokens(self) -> int:
        """The configured context limit (the API does not report it)."""
        return self._max_tokens

    @property
    def fingerprint(self) -> str:
        """``openai:<host[:port]/path of base_url>:<model>:<dims>`` (+ prefixes if any)."""
        parsed = urllib.parse.urlsplit(self.url.removesuffix("/embeddings"))
        fingerprint = f"openai:{parsed.netloc}{parsed.path}:{self.model}:{self.dimensions}"
        if self.query_prefix or self.passage_prefix:
            fingerprint += f":q={self.query_prefix!r}:p={self.passage_prefix!r}"
        return fingerprint

    def embed(
        self, texts: Sequence[str], *, kind: EmbeddingKind = "passage"
    ) -> NDArray[np.float32]:
        """Embed ``texts`` in batches of ``batch_size``; rows come back in input order."""
        _check_texts(texts)
        if not texts:
            return _no_vectors(self.dimensions)
        import numpy as np

        match kind:
            case "query":
                prefix = self.query_prefix
            case "passage":
                prefix = self.passage_prefix
        inputs = [prefix + text for text in texts]
        parts = [
            self._request(inputs[start : start + self.batch_size])
            for start in range(0, len(inputs), self.batch_size)
        ]
        return _l2_normalise(np.concatenate(parts, axis=0))

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Exact counts with ``tokenizer_path``; otherwise a conservative estimate."""
        if isinstance(texts, str):
            raise TypeError("count_tokens() takes a sequence of texts, not a single string")
        if self._tokenizer_path is None:
            return [math.ceil(len(text.encode("utf-8")) / 3) for text in texts]
        if self._tokenizer is None:
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise ModelUnavailable(f"tokenizers is not installed; {INSTALL_HINT}") from exc
            try:
                tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
            except Exception as exc:
                raise ModelUnavailable(
                    f"cannot read tokenizer {self._tokenizer_path}: {exc}"
                ) from exc
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._tokenizer = tokenizer
        return [
            len(e.ids) for e in self._tokenizer.encode_batch(list(texts), add_special_tokens=False)
        ]

    # -- internals

    def _request(self, inputs: list[str]) -> NDArray[np.float32]:
        import numpy as np

        body = json.dumps({"model": self.model, "input": inputs}).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        where = f"embedding endpoint {self.url}"
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read(300).decode("utf-8", "replace").strip()
            hint = (
                "check api_key"
                if exc.code in (401, 403)
                else f"check that model {self.model!r} is served there"
                if exc.code == 404
                else "check the server log"
            )
            raise ModelUnavailable(
                f"{where} answered HTTP {exc.code}: {detail or exc.reason}; {hint}"
            ) from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ModelUnavailable(
                f"{where} is not reachable ({reason}); is the server running?"
            ) from exc
        try:
            payload = json.loads(raw)
        except ValueError as exc:
            raise ModelUnavailable(f"{where} returned invalid JSON: {raw[:120]!r}") from exc
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list) or len(data) != len(inputs):
            got = len(data) if isinstance(data, list) else "no 'data' list"
            raise ModelUnavailable(
                f"{where} returned {got} embeddings for {len(inputs)} inputs; "
                "is it an OpenAI-compatible embeddings API?"
            )
        rows: list[Any] = [None] * len(inputs)
        for position, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("embedding"), list):
                raise ModelUnavailable(f"{where}: data[{position}] has no 'embedding' list")
            index = item.get("index", position)
            if (
                not isinstance(index, int)
                or not 0 <= index < len(inputs)
                or rows[index] is not None
            ):
                raise ModelUnavailable(f"{where}: data[{position}] has a bad 'index' {index!r}")
            rows[index] = item["embedding"]
        try:
            vectors = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise ModelUnavailable(f"{where} returned non-numeric or ragged embeddings") from exc
        if vectors.ndim != 2 or vectors.shape[1] == 0 or not np.isfinite(vectors).all():
            raise ModelUnavailable(f"{where} returned malformed embeddings {vectors.shape}")
        with self._lock:
            if self._dimensions is None:
                self._dimensions = int(vectors.shape[1])
        if vectors.shape[1] != self._dimensions:
            raise ModelUnavailable(
                f"{where} returned {vectors.shape[1]}-dimensional vectors, "
                f"expected {self._dimensions}"
            )
        result: NDArray[np.float32] = vectors
        return result


# ------------------------------------------------------------------------ registry

#: Builds a embedder from the options of its config table (everything but ``backend``).
EmbedderFactory = Callable[..., Embedder]
EmbedderInfo = BackendInfo

_BACKENDS: BackendRegistry[Embedder] = BackendRegistry("embedder")


def register_embedder(
    name: str, factory: EmbedderFactory, *, description: str = "",
    check: Callable[[], str | None] = always_available, replace: bool = False,
) -> None:
    """Make ``factory`` available as ``{"backend": name, ...}`` (see :class:`BackendRegistry`)."""
    _BACKENDS.register(name, factory, description=description, check=check, replace=replace)


def create_embedder(config: Mapping[str, Any]) -> Embedder:
    """Build the embedder described by ``config``, e.g. ``{"backend": "..."}``."""
    return _BACKENDS.create(config)


def available_embedders() -> list[BackendInfo]:
    """Every registered embedder backend and whether it can run here, without loading a model."""
    return _BACKENDS.available()


def _check_openai() -> str | None:
    return None if _is_installed("numpy") else f"numpy is not installed; {INSTALL_HINT}"


register_embedder(
    "onnx-minilm",
    OnnxMiniLMEmbedder,
    description="all-MiniLM-L6-v2, int8 ONNX, local CPU (384 dims, 256 tokens)",
    check=_check_onnx_minilm,
)
register_embedder(
    "openai",
    OpenAIEmbedder,
    description="OpenAI-compatible /v1/embeddings endpoint (OpenAI, llama.cpp, Ollama)",
    check=_check_openai,
)
