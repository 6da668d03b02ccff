"""``status`` and ``doctor``: what the index holds, and whether the installation works."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cairn import contracts as c
from cairn.errors import CairnError
from cairn.ingest.service import collection_contract
from cairn.store import Store, check_backend
from cairn.store.protocol import StoreOpener

if TYPE_CHECKING:
    from cairn.models.hub import ModelHub

TOKEN_COUNTER = "estimate ceil(chars/4) at index time; exact model-tokenizer counts once embedded"



class StatusService:
    """Reports on one index file and the installation around it."""

    def __init__(
        self, open_store: StoreOpener, index_name: str, index_path: Path, data_dir: Path,
        embed_backend: str, models: ModelHub,
    ) -> None:
        self._open_store = open_store
        self._index_name = index_name
        self._index_path = index_path
        self._data_dir = data_dir
        self._embed_backend = embed_backend
        self._models = models
        #: The resident runtime's status (issue 16), set by the composition root.
        self.runtime_status: Callable[[], c.RuntimeStatus] | None = None

    def status(self) -> c.Status:
        """Collections, counts, index size, last run, per-file errors and capabilities."""
        capabilities = _capabilities()
        if not self._index_path.exists():
            return c.Status(
                index=self._index_name, index_path=str(self._index_path), index_bytes=0,
                schema_version=0, collections=[], documents=0, inactive_documents=0, passages=0,
                last_run=None, errors=[], capabilities=capabilities, token_counter=TOKEN_COUNTER,
            )
        store = self._open_store(False)
        counts = store.counts()
        per_collection = store.collection_counts()
        last = store.last_run()
        last_run = None
        if last is not None:
            run_id, started, finished, status, counts_json = last
            last_run = c.RunInfo(
                run_id=run_id, started_at=started, finished_at=finished,
                status="completed" if status == "completed" else "interrupted" if finished is None and not store.writer_lock_held() else "running",
                counts=c.IndexCounts(**json.loads(counts_json)) if counts_json else None,
            )
        vectors = self._vector_status(store)
        capabilities["vectors"] = vectors.available and vectors.vectors > 0
        return c.Status(
            vectors=vectors,
            index=self._index_name, index_path=str(self._index_path), index_bytes=store.size_bytes(),
            schema_version=store.schema_version,
            collections=[collection_contract(r, per_collection) for r in store.list_collections()],
            documents=counts["documents"], inactive_documents=counts["inactive_documents"],
            passages=counts["passages"], last_run=last_run,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at=at)
                for col, p, code, msg, at in store.file_errors()
            ],
            capabilities=capabilities, token_counter=TOKEN_COUNTER,
            runtime=self.runtime_status() if self.runtime_status is not None else None,
        )

    def _vector_status(self, store: Store) -> c.VectorStatus:
        """Vectors of the configured model, stale vectors of other models, passages pending."""
        counts = store.vector_counts()
        try:
            fingerprint = self._models.embedder().fingerprint
        except CairnError as exc:
            return c.VectorStatus(
                embedder=self._embed_backend, fingerprint=None, available=False, hint=exc.message, vectors=0,
                stale_vectors=sum(counts.values()), pending_passages=None,
            )
        stale = sum(n for fp, n in counts.items() if fp != fingerprint)
        return c.VectorStatus(
            embedder=self._embed_backend, fingerprint=fingerprint, available=True,
            hint="vectors from another model are stale; run: cairn embed" if stale else None,
            vectors=counts.get(fingerprint, 0), stale_vectors=stale,
            pending_passages=store.count_pending(fingerprint),
        )

    def doctor(self) -> c.DoctorReport:
        """Check the installation, the index file and the collections' folders."""
        checks: list[c.DoctorCheck] = []

        def add(name: str, ok: bool, detail: str, *, warn: bool = False) -> None:
            checks.append(c.DoctorCheck(name=name, status="ok" if ok else "warn" if warn else "fail", detail=detail))

        add("python", sys.version_info >= (3, 11), sys.version.split()[0])
        add("sqlite_fts5", *check_backend())
        home = self._data_dir
        writable = os.access(home if home.exists() else home.parent, os.W_OK)
        add("data_dir", writable, f"{home} {'writable' if writable else 'not writable'}")
        if self._index_path.exists():
            try:
                store = self._open_store(False)
                result = store.quick_check()
                add("index_integrity", result == "ok", f"{self._index_path}: {result}")
                for record in store.list_collections():
                    ok = Path(record.root).is_dir() and os.access(record.root, os.R_OK)
                    add(f"collection:{record.name}", ok, record.root + ("" if ok else " is missing or unreadable"))
            except CairnError as exc:
                add("index_integrity", False, exc.message)
        else:
            add("index", True, f"index {self._index_name!r} not created yet", warn=True)
        embed = importlib.util.find_spec("onnxruntime") is not None
        add("embedding_model", embed, "onnxruntime installed" if embed else
            "not installed (vector search unavailable): pip install 'cairn[embed]'", warn=True)
        return c.DoctorReport(ok=all(ch.status != "fail" for ch in checks), checks=checks)


def _capabilities() -> dict[str, bool]:
    return {
        "bm25": True,
        "cjk": True,
        "vectors": False,
        "embedder_installed": importlib.util.find_spec("onnxruntime") is not None,
    }
