"""Real HTTP servers on 127.0.0.1 speaking the model APIs cairn talks to (for tests)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import numpy as np


def fake_vector(text: str, dims: int) -> list[float]:
    """A deterministic pseudo-embedding: the same text always gives the same vector."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return [float(x) for x in np.random.default_rng(seed).normal(size=dims)]


class _Handler(BaseHTTPRequestHandler):
    server: ModelServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, **body})
        if self.server.fail:
            return self._send(500, {"error": {"message": "model crashed"}})
        if self.path.endswith("/embeddings"):
            data = [{"object": "embedding", "index": i, "embedding": fake_vector(t, self.server.dims)}
                    for i, t in enumerate(body["input"])]
            return self._send(200, {"object": "list", "data": data, "model": body.get("model")})
        if self.path.endswith("/rerank"):
            query_words = set(body["query"].lower().split())
            results = [
                {"index": i, "relevance_score": float(len(query_words & set(doc.lower().split())))}
                for i, doc in enumerate(body["documents"])
            ]
            return self._send(200, {"results": results})
        return self._send(404, {"error": {"message": "unknown path"}})

    def _send(self, status: int, payload: Any) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True
    dims = 16
    fail = False
    requests: list[dict[str, Any]]

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


S = TypeVar("S", bound=ThreadingHTTPServer)


@contextmanager
def serving(httpd: S) -> Iterator[S]:
    """Run ``httpd`` on a background thread for the duration of the block."""
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@contextmanager
def model_server() -> Iterator[ModelServer]:
    """An OpenAI-style ``/v1/embeddings`` and a ``/v1/rerank`` endpoint on loopback."""
    httpd = ModelServer(("127.0.0.1", 0), _Handler)
    httpd.requests = []
    with serving(httpd) as running:
        yield running
