"""A plan's one task embedding, shared by its memory recall and its passage run."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from cairn.retrieval.vector import SharedQueryVector


class CountingEmbedder:
    def __init__(self, fingerprint: str) -> None:
        self.fingerprint = fingerprint
        self.calls: list[tuple[tuple[str, ...], str]] = []
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, kind: str = "passage") -> np.ndarray:
        with self._lock:
            self.calls.append((tuple(texts), kind))
        time.sleep(0.05)  # a model's time: the second asker arrives while the first embeds
        return np.full((len(texts), 4), float(len(self.calls)), dtype=np.float32)


def test_the_text_is_embedded_once_for_every_asker() -> None:
    embedder = CountingEmbedder("m1")
    shared = SharedQueryVector("list files with ls")
    with ThreadPoolExecutor(max_workers=4) as pool:
        vectors = list(pool.map(lambda _: shared.embed(embedder), range(4)))  # type: ignore[arg-type]
    assert embedder.calls == [(("list files with ls",), "query")]
    assert all(v is vectors[0] for v in vectors)
    other = CountingEmbedder("m2")  # another model: its own vector
    assert shared.embed(other).tolist() == [1.0] * 4  # type: ignore[arg-type]
    assert other.calls == [(("list files with ls",), "query")]
