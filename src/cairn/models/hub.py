"""The models of one process: embedder, generator and reranker, created once from the
settings and loaded on first use, plus what is derived from them and worth sharing.

A :class:`ModelHub` is built by the composition root (:mod:`cairn.workspace`). Every
Workspace given the same hub (the server's worker threads, a resident runtime) shares
one loaded model and one cache of vector matrices: the embedder and generator load once,
under a lock, and their sessions are safe to call from several threads.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from cairn.config import Settings
from cairn.errors import ValidationError
from cairn.retrieval.vector import VectorCache

if TYPE_CHECKING:
    from cairn.models.embedders import Embedder
    from cairn.models.generators import Generator
    from cairn.retrieval.hybrid import Reranker


class ModelHub:
    """Lazily created models for one set of settings, shared across threads."""

    def __init__(self, settings: Settings, models_dir: Path) -> None:
        """Models as ``settings`` configure them (``[embed]``, ``[generate]``, ``[rerank]``);
        ``models_dir`` is where derived model files are cached."""
        self._embed_config = dict(settings.embed)
        self._generate_config: object = settings.raw.get("generate", {"backend": "xllamacpp"})
        self._generate_configured = "generate" in settings.raw
        self._rerank_config: object = settings.raw.get("rerank")
        self.models_dir = models_dir
        self.vectors = VectorCache()
        self._lock = threading.Lock()
        self._embedder: Embedder | None = None
        self._generator: Generator | None = None
        self._background: ThreadPoolExecutor | None = None

    def embedder(self) -> Embedder:
        """The configured embedder (created once; the model itself loads on first use)."""
        with self._lock:
            if self._embedder is None:
                from cairn.models.embedders import create_embedder

                config = dict(self._embed_config)
                if config.get("backend") == "onnx-minilm" and "fast_query_dir" not in config:
                    # The derived int8 query model of `query --fast` is cached with the data.
                    config["fast_query_dir"] = str(self.models_dir)
                self._embedder = create_embedder(config)
            return self._embedder

    def generator(self) -> Generator:
        """The configured generator (``[generate]`` in config.toml; default: local SmolLM2)."""
        with self._lock:
            if self._generator is None:
                from cairn.models.generators import create_generator

                section = self._generate_config
                if not isinstance(section, dict):
                    raise ValidationError("config: [generate] must be a table")
                options = {k: v for k, v in section.items() if k != "capable"}
                self._generator = create_generator({"backend": "xllamacpp", **options})
            return self._generator

    def generator_capable(self) -> bool:
        """Whether answers should be drafted by the generator rather than quoted
        (extractive). True for a configured OpenAI-compatible endpoint or a GGUF model the
        user chose (``model_path``), or ``capable = true`` in ``[generate]``; False for
        the bundled SmolLM2-135M, which measurably does not help (bench/RESULTS.md,
        "Extractive answers"), and ``capable = false`` forces the extractive mode."""
        section = self._generate_config
        if not self._generate_configured or not isinstance(section, dict):
            return False
        if "capable" in section:
            return section["capable"] is True
        return section.get("backend") == "openai" or "model_path" in section

    def reranker(self) -> Reranker | None:
        """The configured rerank endpoint (``[rerank] url``), or None."""
        from cairn.retrieval.hybrid import HTTPReranker

        section = self._rerank_config
        if not isinstance(section, dict) or not section.get("url"):
            return None
        return HTTPReranker(url=str(section["url"]), model=str(section.get("model", "")),
                            api_key=section.get("api_key"), timeout=float(section.get("timeout", 30)))

    def background(self) -> ThreadPoolExecutor:
        """One helper thread for work that overlaps a foreground stage (the vector stage
        of a hybrid query runs there while BM25 runs on the caller's thread)."""
        with self._lock:
            if self._background is None:
                self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-bg")
            return self._background

    def close(self) -> None:
        """Stop the helper thread (models are released with the hub)."""
        with self._lock:
            if self._background is not None:
                self._background.shutdown(wait=True)
                self._background = None
