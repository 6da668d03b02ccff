"""The composition root and service layer every face calls.

:class:`Workspace` is the only place that reads configuration and environment. Its
methods are named after the CLI commands and return :mod:`cairn.contracts` objects;
the CLI's ``--json`` output is ``model_dump(mode="json")`` of what they return.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote, unquote

from cairn import contracts as c
from cairn.config import (
    DEFAULT_INCLUDE,
    Paths,
    Settings,
    check_index_name,
    load_settings,
    resolve_paths,
)
from cairn.errors import (
    BusyError,
    CairnError,
    ConflictError,
    ModelUnavailable,
    NotFoundError,
    ValidationError,
)
from cairn.retrieval.bm25 import bm25_search, make_snippet, term_finder
from cairn.retrieval.query import parse_query
from cairn.store import Store, check_backend, open_store
from cairn.store.records import (
    CollectionRecord,
    DocumentRecord,
    PassageHit,
    SearchFilter,
    light_hit,
)

if TYPE_CHECKING:
    from cairn.contracts import graph as cg
    from cairn.contracts.answer import AskResponse, VerifiedAskResponse
    from cairn.contracts.capsule import Capsule, VerifyReceipt
    from cairn.contracts.capture import CaptureResult
    from cairn.graph.resolve import Note
    from cairn.graph.service import GraphService
    from cairn.graph.traverse import Direction
    from cairn.ingest.pipeline import Progress
    from cairn.models.embedders import Embedder
    from cairn.models.generators import Generator
    from cairn.retrieval.hybrid import Fused, Reranker
    from cairn.retrieval.vector import VectorMatrix

COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DOCID = re.compile(r"^#?([0-9a-f]{6,64})$")
URI_SCHEME = "cairn://"
MAX_LIMIT = 1000
TOKEN_COUNTER = "estimate ceil(chars/4) at index time; exact model-tokenizer counts once embedded"


def document_uri(collection: str, path: str) -> str:
    """``cairn://<collection>/<percent-escaped path>``."""
    return f"{URI_SCHEME}{collection}/{quote(path, safe='/')}"


class Workspace:
    """One index: its collections, documents and every operation on them."""

    def __init__(self, paths: Paths, settings: Settings, index_name: str) -> None:
        self.paths = paths
        self.settings = settings
        self.index_name = check_index_name(index_name)
        self._store: Store | None = None
        self._embedder_obj: Embedder | None = None

    # --- lifecycle ---------------------------------------------------------------

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Release the index file."""
        if self._store is not None:
            self._store.close()
            self._store = None

    @property
    def index_path(self) -> Path:
        return self.paths.index_file(self.index_name)

    def _open_store(self, *, create: bool) -> Store:
        if self._store is None:
            if not create and not self.index_path.exists():
                raise NotFoundError(
                    f"index {self.index_name!r} does not exist yet; "
                    "add a collection with: cairn collection add PATH"
                )
            self._store = open_store(self.index_path, create=True)
        return self._store

    # --- collections ---------------------------------------------------------------

    def add_collection(
        self, path: str | Path, *, name: str | None = None, include: Sequence[str] = (),
        exclude: Sequence[str] = (), context: str | None = None, sequence: bool = False,
    ) -> c.Collection:
        """Register a folder as a collection. Extra ``include`` globs add to the defaults
        (Markdown and plain text), e.g. ``**/*.py`` to index code. ``sequence`` declares
        that numbered sibling files follow one another (chat turns ``D1-3.md``,
        ``D1-4.md``; journal days): ``query`` then lets each document share the relevance
        of its neighbours."""
        try:
            root = Path(path).expanduser()
            if not root.is_dir():
                raise ValidationError(f"not a folder: {path}")
            root = root.resolve()
        except (OSError, ValueError) as exc:  # e.g. a name over 255 bytes, or a NUL byte
            raise ValidationError(f"not a usable folder: {path!s:.200}: {exc}") from exc
        name = name if name is not None else re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-.") or "notes"
        if not COLLECTION_NAME.match(name):
            raise ValidationError(
                f"invalid collection name {name!r}: use letters, digits, '.', '_' or '-' (max 64)"
            )
        for glob in (*include, *exclude):
            if not glob.strip() or "\x00" in glob:
                raise ValidationError(f"invalid glob {glob!r}")
        store = self._open_store(create=True)
        store.acquire_writer()
        try:
            includes = list(dict.fromkeys([*DEFAULT_INCLUDE, *include]))
            record = store.add_collection(name, str(root), includes, list(exclude), context, sequence=sequence)
        finally:
            store.release_writer()
        return self._collection(record, {})

    def configure_collection(
        self, name: str, *, sequence: bool | None = None, context: str | None = None,
    ) -> c.Collection:
        """Change a collection's settings without re-indexing: ``sequence`` (see
        :meth:`add_collection`) and ``context`` (guidance text; ``""`` clears it).
        ``None`` leaves a setting unchanged."""
        if sequence is None and context is None:
            raise ValidationError("nothing to change: give sequence or context")
        store = self._open_store(create=False)
        store.acquire_writer()
        try:
            record = store.configure_collection(name, sequence=sequence, context=context)
        finally:
            store.release_writer()
        return self._collection(record, store.collection_counts())

    def list_collections(self) -> c.CollectionList:
        """All collections of this index with document and passage counts."""
        if not self.index_path.exists():
            return c.CollectionList(collections=[])
        store = self._open_store(create=False)
        counts = store.collection_counts()
        return c.CollectionList(collections=[self._collection(r, counts) for r in store.list_collections()])

    def remove_collection(self, name: str) -> c.CollectionRemoved:
        """Forget a collection and everything indexed from it (its files are not touched)."""
        store = self._open_store(create=False)
        store.acquire_writer()
        try:
            removed = store.remove_collection(name)
        finally:
            store.release_writer()
        return c.CollectionRemoved(name=name, documents_removed=removed)

    # --- indexing ---------------------------------------------------------------------

    def index(self, collection: str | None = None, *, progress: Progress | None = None) -> c.IndexSummary:
        """Bring the index up to date with the files of one or all collections."""
        from cairn.ingest.chunker import estimate_tokens
        from cairn.ingest.pipeline import Indexer, IngestLimits

        store = self._open_store(create=True)
        records = [store.get_collection(collection)] if collection else store.list_collections()
        if not records:
            raise ValidationError("no collections yet; add one with: cairn collection add PATH")
        for record in records:
            if not Path(record.root).is_dir():
                # Never mistake an unmounted or moved folder for a deletion of every file.
                raise ValidationError(
                    f"collection {record.name!r}: folder {record.root} is missing; nothing indexed"
                )
        store.acquire_writer()
        try:
            limits = IngestLimits(
                max_file_bytes=self.settings.index.max_file_bytes,
                chunk_max_tokens=self.settings.index.chunk_max_tokens,
                chunk_min_tokens=self.settings.index.chunk_min_tokens,
                batch_files=self.settings.index.batch_files,
            )
            run_id, counts, elapsed = Indexer(store, limits, estimate_tokens).run(records, progress)
        finally:
            store.release_writer()
        return c.IndexSummary(
            run_id=run_id,
            collections=[r.name for r in records],
            counts=c.IndexCounts(
                added=counts.added, updated=counts.updated, unchanged=counts.unchanged,
                renamed=counts.renamed, removed=counts.removed, reactivated=counts.reactivated,
                failed=counts.failed, parsed=counts.parsed,
            ),
            passages_written=counts.passages,
            elapsed_ms=elapsed,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at="")
                for col, p, code, msg in counts.errors
            ],
        )

    update = index

    # --- search -----------------------------------------------------------------------

    def search(
        self, query: str, *, limit: int = 10, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.SearchResponse:
        """BM25 search over passages; plain words, ``"phrases"`` and ``-negation``."""
        store, filters, meta_filters = self._search_setup(limit, collections, tags_any, tags_all, since, until)
        hits = bm25_search(store, query, filters, limit)
        return c.SearchResponse(
            results=[_result(h, h.score, ["bm25"]) for h in hits],
            meta=c.SearchMeta(
                query=query, mode="bm25", limit=limit, count=len(hits), filters=meta_filters,
                capabilities={"bm25": True, "cjk": True},
            ),
        )

    def vsearch(
        self, query: str, *, limit: int = 10, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.SearchResponse:
        """Semantic search: passages nearest to the query's embedding. Filters apply inside
        the exact nearest-neighbour search. Without a model or vectors, falls back to BM25
        and says so in ``meta``."""
        from cairn.retrieval.vector import vector_search

        if not query.strip():
            raise ValidationError("query is empty")
        store, filters, meta_filters = self._search_setup(limit, collections, tags_any, tags_all, since, until)
        try:
            embedder = self._ready_embedder(store)
            hits = vector_search(store, embedder, query, filters, limit)
        except ModelUnavailable as exc:
            hits = bm25_search(store, query, filters, limit)
            return c.SearchResponse(
                results=[_result(h, h.score, ["bm25"]) for h in hits],
                meta=c.SearchMeta(
                    query=query, mode="bm25", requested_mode="vector", limit=limit, count=len(hits),
                    filters=meta_filters, capabilities={"bm25": True, "vectors": False},
                    hints=[f"vector search unavailable, showing BM25 results: {exc.message}"],
                ),
            )
        finder = term_finder(query.split())
        texts = store.passage_texts([h.passage_id for h in hits])
        return c.SearchResponse(
            results=[
                _result(h._replace(snippet=make_snippet(texts.get(h.passage_id, ""), finder)), h.score, ["vector"])
                for h in hits
            ],
            meta=c.SearchMeta(
                query=query, mode="vector", limit=limit, count=len(hits), filters=meta_filters,
                capabilities={"bm25": True, "vectors": True}, embedder=embedder.fingerprint,
            ),
        )

    def query(
        self, query: str, *, limit: int = 10, mode: QueryMode = "default", explain: bool = False,
        graph: bool = False, all_passages: bool = False, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.SearchResponse:
        """Hybrid search: BM25 and vector rankings over the same passages, fused (RRF), one
        result per document unless ``all_passages``. ``mode``: ``fast`` (BM25 + vectors, the
        query embedded by the int8 encoder); ``default`` (plus one pseudo-relevance feedback
        round: BM25 expanded by 6 words of the fused top, ``bm25x``, and a second vector
        search from the query moved towards the top passages' vectors, ``vectorx``; plus a
        configured reranker); ``thorough`` (the same with 10 expansion words). A strong BM25
        signal skips feedback and reranking. In collections declared a sequence, each
        document then shares its numbered neighbours' fused scores (``sequence`` stage).
        ``explain`` adds per-stage ranks."""
        from cairn.retrieval.hybrid import FUSION_VERSION

        store, filters, meta_filters = self._search_setup(limit, collections, tags_any, tags_all, since, until)
        run = self._hybrid(store, query, filters, limit, mode=mode, graph=graph, all_passages=all_passages)
        texts = store.passage_texts([f.hit.passage_id for f in run.fused[:limit]])
        finder = term_finder(parse_query(query).terms)
        results = []
        for item in run.fused[:limit]:
            stages = sorted({_STAGE_NAMES[s] for s in item.stages}, key=list(_STAGE_NAMES.values()).index)
            detail = None
            if explain:
                detail = c.ResultExplain(
                    fused_score=item.score,
                    stages={s: c.StageExplain(rank=r.rank, score=r.score) for s, r in item.stages.items()},
                    via=run.via.get(item.hit.docid),
                )
            hit = item.hit._replace(snippet=make_snippet(texts.get(item.hit.passage_id, ""), finder))
            results.append(_result(hit, item.score, stages, detail))
        return c.SearchResponse(
            results=results,
            meta=c.SearchMeta(
                query=query, mode="hybrid" if run.vectors else "bm25", requested_mode="hybrid",
                limit=limit, count=len(results), filters=meta_filters,
                capabilities={"bm25": True, "vectors": run.vectors}, hints=run.hints,
                fusion=FUSION_VERSION, stages_run=run.stages_run, embedder=run.embedder,
            ),
        )

    def similar(self, ref: str, *, limit: int = 10, collections: Sequence[str] = ()) -> c.SearchResponse:
        """Documents semantically nearest to ``ref`` (mean of its passage vectors), one result
        per document; without vectors, a BM25 "more like this" over the document's text."""
        from cairn.retrieval.hybrid import fuse
        from cairn.retrieval.vector import load_matrix, nearest

        store, filters, meta_filters = self._search_setup(limit, collections, (), (), None, None)
        record, text = self._resolve(store, ref)
        own = store.document_passage_ids(record.docid)
        try:
            import numpy as np

            embedder = self._ready_embedder(store)
            matrix = load_matrix(store, embedder.fingerprint)
            mask = np.isin(matrix.ids, np.asarray(own, dtype=np.int64))
            if not mask.any():
                raise ModelUnavailable(f"document {ref!r} has no vectors yet; run: cairn embed")
            centre = matrix.matrix[mask].mean(axis=0)
            centre = centre / max(float(np.linalg.norm(centre)), 1e-12)
            hits = nearest(store, embedder.fingerprint, centre.astype(np.float32), filters,
                           limit * 5 + len(own), exclude=frozenset(own))
            mode: Literal["similar", "bm25"] = "similar"
            hints: list[str] = []
            fingerprint: str | None = embedder.fingerprint
        except ModelUnavailable as exc:
            words = " ".join(text.split()[:64])
            hits = [h for h in bm25_search(store, words, filters, limit * 5 + len(own)) if h.docid != record.docid]
            mode, hints, fingerprint = "bm25", [f"vectors unavailable, using BM25 on the document's text: {exc.message}"], None
        per_doc = [f.hit for f in fuse({"similar": hits})][:limit]
        return c.SearchResponse(
            results=[_result(h, h.score, ["vector"] if mode == "similar" else ["bm25"]) for h in per_doc],
            meta=c.SearchMeta(
                query=ref, mode=mode, requested_mode="similar", limit=limit, count=len(per_doc),
                filters=meta_filters, capabilities={"bm25": True, "vectors": mode == "similar"},
                hints=hints, embedder=fingerprint,
            ),
        )

    def query_diagnose(
        self, query: str, target: str, *, limit: int = 10, mode: QueryMode = "default",
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.DiagnoseReport:
        """Follow ``target`` through every stage of ``query``: found or not, rank, score,
        and which filter or cut removed it."""
        store, filters, _ = self._search_setup(limit, collections, tags_any, tags_all, since, until)
        record, _ = self._resolve(store, target)
        stages: list[c.DiagnoseStage] = []
        allowed = set(store.filtered_passage_ids(filters)) if filters != SearchFilter() else None
        own = set(store.document_passage_ids(record.docid))
        if not own:
            stages.append(c.DiagnoseStage(stage="index", ran=True, found=False, note="the document has no passages (empty text)"))
        if allowed is not None and not (own & allowed):
            stages.append(c.DiagnoseStage(stage="filters", ran=True, found=False,
                                          note=f"removed by filters: {_describe_filters(filters)}"))
        else:
            stages.append(c.DiagnoseStage(stage="filters", ran=True, found=True, note="passes the filters"))
        run = self._hybrid(store, query, filters, limit, mode=mode, graph=False, all_passages=False)
        deep = self._hybrid(store, query, filters, DIAGNOSE_DEPTH, mode=mode, graph=False, all_passages=False,
                            depth=DIAGNOSE_DEPTH)
        for stage, marker in (("bm25", "bm25"), ("vector", "vector"), ("bm25x", "expand"), ("vectorx", "vector-feedback")):
            ran = marker in run.stages_run or (stage == "vector" and any(s.startswith("vector:") for s in run.stages_run))
            in_cut = _doc_rank(run.rankings.get(stage, ()), record.docid)
            anywhere = _doc_rank(deep.rankings.get(stage, ()), record.docid)
            if not ran:
                note = "did not run" + (f" ({'; '.join(run.hints)})" if run.hints and stage == "vector" else "")
                stages.append(c.DiagnoseStage(stage=stage, ran=False, found=False, note=note))
            elif in_cut is not None:
                stages.append(c.DiagnoseStage(stage=stage, ran=True, found=True, rank=in_cut[0], score=in_cut[1],
                                              note=f"found at document rank {in_cut[0]} within the {run.depth} candidates"))
            elif anywhere is not None:
                stages.append(c.DiagnoseStage(stage=stage, ran=True, found=False, rank=anywhere[0], score=anywhere[1],
                                              note=f"ranked {anywhere[0]}: below the candidate cut ({run.depth} passages)"))
            else:
                stages.append(c.DiagnoseStage(stage=stage, ran=True, found=False,
                                              note="not matched at all" if stage != "vector" else f"not among the {DIAGNOSE_DEPTH} nearest"))
        final = next((i for i, f in enumerate(run.fused, 1) if f.hit.docid == record.docid), None)
        if final is None:
            fused_note = "not a fusion candidate"
        elif final <= limit:
            fused_note = f"fused rank {final}, within the limit of {limit}"
        else:
            fused_note = f"fused rank {final}: cut by the limit of {limit}"
        stages.append(c.DiagnoseStage(stage="fuse", ran=True, found=final is not None, rank=final,
                                      score=run.fused[final - 1].score if final else None, note=fused_note))
        if "sequence" in run.stages_run:
            gained = run.fused[final - 1].stages.get("sequence") if final else None
            if gained is None:
                note = "no neighbour of the target among the fused candidates"
            else:
                note = f"gained {gained.score:g} from its neighbours" + (
                    f" ({run.via[record.docid]})" if record.docid in run.via else "")
            stages.append(c.DiagnoseStage(stage="sequence", ran=True, found=gained is not None,
                                          rank=gained.rank if gained else None,
                                          score=gained.score if gained else None, note=note))
        returned = final is not None and final <= limit
        verdict = "returned" if returned else next(
            (st.note for st in stages if not st.found and st.ran and st.stage in ("index", "filters")),
            fused_note if final is not None else "not retrieved by any stage",
        )
        return c.DiagnoseReport(query=query, target=target, target_docid=record.docid, stages=stages,
                                final_rank=final if returned else None, verdict=verdict)

    def embed(
        self, collection: str | None = None, *, progress: Progress | None = None, batch: int = 64,
    ) -> c.EmbedSummary:
        """Embed passages that have no vector for the configured model, in resumable batches.

        A passage whose exact text already has a vector (anywhere in the index) is never
        embedded again. Exact token counts from the model's tokenizer are recorded too."""
        import time

        if batch < 1:
            raise ValidationError("batch must be 1 or more")
        store = self._open_store(create=True)
        cids = [store.get_collection(collection).id] if collection else None
        embedder = self._embedder()
        fingerprint = embedder.fingerprint
        started = time.perf_counter()
        store.acquire_writer()
        try:
            before = store.count_pending(fingerprint, cids)
            done = batches = tokens = 0
            if progress is not None:
                progress(0, before)
            while True:
                rows = store.pending_passages(fingerprint, cids, batch)
                if not rows:
                    break
                texts = [text for _, text in rows]
                vectors = embedder.embed(texts, kind="passage")
                counts = embedder.count_tokens(texts)
                store.write_vectors(fingerprint, [
                    (h, vectors[i].astype("<f4").tobytes(), int(vectors.shape[1]), counts[i])
                    for i, (h, _) in enumerate(rows)
                ])
                done += len(rows)
                batches += 1
                tokens += sum(counts)
                if progress is not None:
                    progress(done, max(before, done))
            after = store.count_pending(fingerprint, cids)
        finally:
            store.release_writer()
        prepare = getattr(embedder, "prepare_fast_query", None)
        if prepare is not None:
            prepare()  # build the int8 query model now, not on the first `query --fast`
        return c.EmbedSummary(
            embedder=fingerprint, embedded=done, pending_before=before, pending_after=after,
            batches=batches, elapsed_ms=int((time.perf_counter() - started) * 1000), tokens=tokens,
        )

    # --- retrieval internals ------------------------------------------------------------

    def _search_setup(
        self, limit: int, collections: Sequence[str], tags_any: Sequence[str], tags_all: Sequence[str],
        since: str | None, until: str | None,
    ) -> tuple[Store, SearchFilter, c.SearchFilters]:
        if not 1 <= limit <= MAX_LIMIT:
            raise ValidationError(f"limit must be between 1 and {MAX_LIMIT}")
        store = self._open_store(create=False)
        for name in collections:
            store.get_collection(name)
        filters = SearchFilter(
            collections=tuple(collections),
            tags_any=tuple(_clean_tags(tags_any)),
            tags_all=tuple(_clean_tags(tags_all)),
            since=_parse_date(since, "since", end=False),
            until=_parse_date(until, "until", end=True),
        )
        meta = c.SearchFilters(
            collections=list(collections), tags_any=list(filters.tags_any),
            tags_all=list(filters.tags_all), since=since, until=until,
        )
        return store, filters, meta

    def _embedder(self) -> Embedder:
        """The configured embedder (created once; the model itself loads on first use)."""
        if self._embedder_obj is None:
            from cairn.models.embedders import create_embedder

            config = dict(self.settings.embed)
            if config.get("backend") == "onnx-minilm" and "fast_query_dir" not in config:
                # The derived int8 query model of `query --fast` is cached with the data.
                config["fast_query_dir"] = str(self.paths.data_dir / "models")
            self._embedder_obj = create_embedder(config)
        return self._embedder_obj

    def _ready_embedder(self, store: Store) -> Embedder:
        """The embedder, if the index holds vectors of its model; else ModelUnavailable."""
        embedder = self._embedder()
        fingerprint = embedder.fingerprint
        if store.has_vectors(fingerprint):
            return embedder
        counts = store.vector_counts()
        if not counts.get(fingerprint):
            stale = sum(counts.values())
            raise ModelUnavailable(
                f"{stale} vectors are from another model (stale); run: cairn embed" if stale
                else "no vectors yet; run: cairn embed"
            )
        return embedder

    def _hybrid(
        self, store: Store, query: str, filters: SearchFilter, limit: int, *, mode: QueryMode,
        graph: bool, all_passages: bool, depth: int | None = None,
    ) -> HybridRun:
        from cairn.retrieval import hybrid
        from cairn.retrieval.hybrid import FeedbackExpander, StageRank, fuse, strong_signal
        from cairn.retrieval.vector import (
            allowed_ids,
            feedback_query,
            load_matrix,
            nearest_candidates,
        )

        if mode not in ("fast", "default", "thorough"):
            raise ValidationError(f"unknown query mode {mode!r}: use fast, default or thorough")
        depth = depth or max(CANDIDATES, limit * 5)
        run = HybridRun(depth=depth)
        parse_query(query)  # bad queries fail before any model work starts
        # The vector stage (embed the query, then search the matrix) runs on a helper
        # thread while BM25 runs here: onnxruntime, NumPy and SQLite release the GIL, so
        # the stages overlap. The helper touches no store: matrix and filter ids are read first.
        pending_vector = None
        matrix, allowed, query_vector = None, None, None
        try:
            embedder = self._ready_embedder(store)
            matrix, allowed = load_matrix(store, embedder.fingerprint), allowed_ids(store, filters)
            fast = getattr(embedder, "embed_query_fast", None) if mode == "fast" else None
            pending_vector = _background().submit(_vector_stage, fast, embedder, query, matrix, allowed, depth)
        except ModelUnavailable as exc:
            run.hints.append(f"vector stage skipped, BM25 only: {exc.message}")
        bm25 = bm25_search(store, query, filters, depth, candidates=True)
        run.rankings["bm25"] = bm25
        run.stages_run.append("bm25")
        if pending_vector is not None:
            try:
                run.rankings["vector"], query_vector, encoder = pending_vector.result()
                run.stages_run.append("vector" if encoder == "exact" else f"vector:{encoder}")
                run.vectors = True
                run.embedder = embedder.fingerprint
            except ModelUnavailable as exc:
                run.hints.append(f"vector stage skipped, BM25 only: {exc.message}")
        # The shortcut only matters where there is something to skip (expansion, rerank).
        strong = mode != "fast" and strong_signal(bm25)
        if strong:
            run.stages_run.append("strong-signal")
        # Pseudo-relevance feedback: the representative passages of the first fused units
        # expand the BM25 query (bm25x) and shift the query vector towards them (vectorx).
        weights = hybrid.STAGE_WEIGHTS
        if mode != "fast" and not strong and bm25:
            depth_fb = max(hybrid.FEEDBACK_TEXT_PASSAGES, hybrid.FEEDBACK_VECTOR_PASSAGES)
            first = [f.hit.passage_id for f in fuse(run.rankings, per_document=not all_passages)[:depth_fb]]
            top = first[: hybrid.FEEDBACK_TEXT_PASSAGES]
            texts = store.passage_texts(top)
            expander = FeedbackExpander(terms=FEEDBACK_TERMS[mode])
            extra = expander.expand(query, [texts[pid] for pid in top if pid in texts])
            if extra:
                run.rankings["bm25x"] = bm25_search(store, f"{query} {extra}", filters, depth, candidates=True)
                run.stages_run.append("expand")
            if matrix is not None and query_vector is not None and run.vectors:
                shifted = feedback_query(matrix, query_vector, first[: hybrid.FEEDBACK_VECTOR_PASSAGES],
                                         hybrid.ROCCHIO_BETA)
                if shifted is not None:
                    run.rankings["vectorx"] = nearest_candidates(matrix, shifted, depth, allowed)
                    run.stages_run.append("vector-feedback")
                    weights = hybrid.FEEDBACK_WEIGHTS
        if graph:
            self._graph_stage(store, run, filters)
        run.fused = fuse(run.rankings, per_document=not all_passages, weights=weights)
        run.stages_run.append("fuse")
        if run.fused and store.has_sequence_collections():
            self._sequence_stage(store, run, filters)
        reranker = self._reranker()
        if reranker is not None and mode != "fast" and not strong and run.fused:
            head = run.fused[:RERANK_DEPTH]
            texts = store.passage_texts([f.hit.passage_id for f in head])
            try:
                scores = reranker.rerank(query, [texts.get(f.hit.passage_id, "") for f in head])
                order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
                reranked = []
                for rank, i in enumerate(order, 1):
                    item = head[i]
                    stages = dict(item.stages)
                    stages["rerank"] = StageRank(rank, round(scores[i], 6))
                    reranked.append(item._replace(stages=stages))
                run.fused = reranked + run.fused[RERANK_DEPTH:]
                run.stages_run.append("rerank")
            except ModelUnavailable as exc:
                run.hints.append(f"rerank skipped: {exc.message}")
        # Candidates carry only passage id, docid and score; the units that can be returned
        # get their metadata now, in one query.
        head = run.fused[:limit]
        full = {hit.passage_id: hit for hit in store.complete_hits([f.hit for f in head])}
        run.fused[:limit] = [f._replace(hit=full[f.hit.passage_id]) for f in head if f.hit.passage_id in full]
        return run

    def _graph_stage(self, store: Store, run: HybridRun, filters: SearchFilter) -> None:
        """One bounded hop along links from the best candidates: linked documents join the
        candidates (their first passage passing the filters) as the ``graph`` stage."""
        seeds: list[str] = []
        for hits in run.rankings.values():
            for hit in hits:
                if hit.docid not in seeds and len(seeds) < GRAPH_SEEDS:
                    seeds.append(hit.docid)
        run.stages_run.append("graph")
        if not seeds:
            return
        expansion = self.graph_expand(seeds, per_seed=GRAPH_PER_SEED, max_total=GRAPH_MAX)
        allowed = set(store.filtered_passage_ids(filters)) if filters != SearchFilter() else None
        scored: list[tuple[int, float]] = []
        for rank, doc in enumerate(expansion.documents, 1):
            passages = [p for p in store.document_passage_ids(doc.docid) if allowed is None or p in allowed]
            if not passages:
                continue
            scored.append((passages[0], round(1.0 / rank, 6)))
            link = doc.via.link
            run.via.setdefault(doc.docid, f"graph: {link.raw} at {link.source_uri}:{link.line}")
        if expansion.truncated:
            run.hints.append("graph expansion truncated: " + ", ".join(c.name for c in expansion.caps if c.hit))
        run.rankings["graph"] = store.passage_hits(scored)

    def _sequence_stage(self, store: Store, run: HybridRun, filters: SearchFilter) -> None:
        """Sequence context for the fused units of collections declared a sequence: each
        document shares its numbered neighbours' relevance (:func:`hybrid.sequence_context`);
        a neighbour that no stage found joins the candidates with its first passage."""
        from cairn.retrieval.hybrid import Neighbours, sequence_context, sibling_paths

        members = store.sequence_documents(list(dict.fromkeys(f.hit.docid for f in run.fused)))
        if not members:
            return
        run.stages_run.append("sequence")
        siblings = {docid: (cid, sibling_paths(path)) for docid, cid, path in members}
        found = store.documents_at([(cid, p) for cid, sides in siblings.values() for side in sides for p in side])
        if filters != SearchFilter():
            passing = store.passing_filters([pid for _, pid in found.values()], filters)
            found = {place: hit for place, hit in found.items() if hit[1] in passing}
        # Each candidate passes its score back to its previous document and forward to its
        # next one; a neighbour takes part only through a candidate.
        neighbours: dict[str, list[str | None]] = {}
        entries: dict[str, PassageHit] = {}
        for docid, (cid, sides) in siblings.items():
            for side, spellings in enumerate(sides):  # 0: previous, 1: next
                place = next((found[(cid, p)] for p in spellings if (cid, p) in found), None)
                if place is None:
                    continue
                other, pid = place
                neighbours.setdefault(docid, [None, None])[side] = other
                neighbours.setdefault(other, [None, None])[1 - side] = docid
                entries.setdefault(other, light_hit(pid, other, 0.0))
        paths = {docid: path for docid, _, path in members}
        run.fused = sequence_context(
            run.fused, {d: Neighbours(p, n) for d, (p, n) in neighbours.items()}, entries,
        )
        for item in run.fused:
            if set(item.stages) == {"sequence"}:  # joined only through a neighbour
                previous, following = neighbours[item.hit.docid]
                if previous is not None and previous in paths:
                    run.via.setdefault(item.hit.docid, f"sequence: follows {paths[previous]}")
                elif following is not None and following in paths:
                    run.via.setdefault(item.hit.docid, f"sequence: precedes {paths[following]}")

    def _reranker(self) -> Reranker | None:
        from cairn.retrieval.hybrid import HTTPReranker

        section = self.settings.raw.get("rerank")
        if not isinstance(section, dict) or not section.get("url"):
            return None
        return HTTPReranker(url=str(section["url"]), model=str(section.get("model", "")),
                            api_key=section.get("api_key"), timeout=float(section.get("timeout", 30)))

    # --- exact retrieval -------------------------------------------------------------

    def get(self, ref: str, *, from_line: int | None = None, lines: int | None = None) -> c.DocumentSlice:
        """Exact lines of a document by ``cairn://`` URI, docid, or ``collection/path``."""
        store = self._open_store(create=False)
        record, text = self._resolve(store, ref)
        all_lines = text.split("\n")
        if text.endswith("\n"):
            all_lines.pop()
        total = len(all_lines)
        start = 1 if from_line is None else from_line
        if start < 1:
            raise ValidationError("--from must be 1 or more")
        if lines is not None and lines < 1:
            raise ValidationError("--lines must be 1 or more")
        if total and start > total:
            raise ValidationError(f"line {start} is past the end of {ref} ({total} lines)")
        end = total if lines is None else min(total, start + lines - 1)
        return c.DocumentSlice(
            uri=document_uri(record.collection, record.path), docid=record.docid, title=record.title,
            collection=record.collection, path=record.path, start_line=start if total else 0,
            end_line=end, total_lines=total, text="\n".join(all_lines[start - 1 : end]),
            source_hash=record.source_hash, text_hash=record.text_hash,
        )

    def multi_get(self, refs: Sequence[str], *, max_lines: int | None = None) -> c.MultiGetResponse:
        """Several documents at once; a reference that fails carries its own error."""
        if not refs:
            raise ValidationError("give at least one reference")
        items: list[c.MultiGetItem] = []
        for ref in refs:
            try:
                items.append(c.MultiGetItem(ref=ref, document=self.get(ref, lines=max_lines)))
            except (NotFoundError, ValidationError) as exc:
                items.append(c.MultiGetItem(ref=ref, error=c.ErrorDetail(code=exc.code, message=exc.message)))
        return c.MultiGetResponse(items=items)

    def ls(self, prefix: str | None = None, *, limit: int = 10000) -> c.Listing:
        """Active documents, optionally of one collection or under a URI/path prefix."""
        store = self._open_store(create=False)
        collection: str | None = None
        path_prefix: str | None = None
        if prefix:
            body = prefix[len(URI_SCHEME):] if prefix.startswith(URI_SCHEME) else prefix
            collection, _, rest = body.partition("/")
            store.get_collection(collection)
            if rest.rstrip("/"):
                check_ref_path(rest.rstrip("/"))  # issue 6: refuse traversal on every face
            path_prefix = unquote(rest) or None
        docs = store.list_documents(collection, path_prefix, limit)
        return c.Listing(prefix=prefix, documents=[self._entry(d) for d in docs])

    # --- status -----------------------------------------------------------------------

    def status(self) -> c.Status:
        """Collections, counts, index size, last run, per-file errors and capabilities."""
        exists = self.index_path.exists()
        store = self._open_store(create=False) if exists else None
        capabilities = _capabilities()
        if store is None:
            return c.Status(
                index=self.index_name, index_path=str(self.index_path), index_bytes=0,
                schema_version=0, collections=[], documents=0, inactive_documents=0, passages=0,
                last_run=None, errors=[], capabilities=capabilities, token_counter=TOKEN_COUNTER,
            )
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
            index=self.index_name, index_path=str(self.index_path), index_bytes=store.size_bytes(),
            schema_version=store.schema_version,
            collections=[self._collection(r, per_collection) for r in store.list_collections()],
            documents=counts["documents"], inactive_documents=counts["inactive_documents"],
            passages=counts["passages"], last_run=last_run,
            errors=[
                c.FileError(collection=col, path=p, code=code, message=msg, seen_at=at)
                for col, p, code, msg, at in store.file_errors()
            ],
            capabilities=capabilities, token_counter=TOKEN_COUNTER,
        )

    def _vector_status(self, store: Store) -> c.VectorStatus:
        """Vectors of the configured model, stale vectors of other models, passages pending."""
        counts = store.vector_counts()
        backend = str(self.settings.embed.get("backend"))
        try:
            fingerprint = self._embedder().fingerprint
        except CairnError as exc:
            return c.VectorStatus(
                embedder=backend, fingerprint=None, available=False, hint=exc.message, vectors=0,
                stale_vectors=sum(counts.values()), pending_passages=None,
            )
        stale = sum(n for fp, n in counts.items() if fp != fingerprint)
        return c.VectorStatus(
            embedder=backend, fingerprint=fingerprint, available=True,
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
        home = self.paths.data_dir
        writable = os.access(home if home.exists() else home.parent, os.W_OK)
        add("data_dir", writable, f"{home} {'writable' if writable else 'not writable'}")
        if self.index_path.exists():
            try:
                store = self._open_store(create=False)
                result = store.quick_check()
                add("index_integrity", result == "ok", f"{self.index_path}: {result}")
                for record in store.list_collections():
                    ok = Path(record.root).is_dir() and os.access(record.root, os.R_OK)
                    add(f"collection:{record.name}", ok, record.root + ("" if ok else " is missing or unreadable"))
            except CairnError as exc:
                add("index_integrity", False, exc.message)
        else:
            add("index", True, f"index {self.index_name!r} not created yet", warn=True)
        embed = importlib.util.find_spec("onnxruntime") is not None
        add("embedding_model", embed, "onnxruntime installed" if embed else
            "not installed (vector search unavailable): pip install 'cairn[embed]'", warn=True)
        return c.DoctorReport(ok=all(ch.status != "fail" for ch in checks), checks=checks)

    # --- helpers ---------------------------------------------------------------------

    def _resolve(self, store: Store, ref: str) -> tuple[DocumentRecord, str]:
        ref = ref.strip()
        if not ref:
            raise ValidationError("empty reference")
        found = None
        match = DOCID.match(ref)
        if match and "/" not in ref:
            found = store.find_document(docid=match.group(1))
        else:
            body = ref[len(URI_SCHEME):] if ref.startswith(URI_SCHEME) else ref
            collection, sep, path = body.partition("/")
            if not sep or not path:
                raise ValidationError(
                    f"bad reference {ref!r}: use cairn://collection/path, collection/path or a docid"
                )
            check_ref_path(body)  # issue 6: refuse traversal on every face
            found = store.find_document(collection=collection, path=unquote(path) if ref.startswith(URI_SCHEME) else path)
        if found is None:
            raise NotFoundError(f"no document {ref!r}")
        record, text = found
        if not record.active or text is None:
            raise NotFoundError(f"document {ref!r} was deleted from its collection")
        return record, text

    def _collection(self, record: CollectionRecord, counts: Mapping[int, tuple[int, int]]) -> c.Collection:
        docs, passages = counts.get(record.id, (0, 0))
        return c.Collection(
            name=record.name, root=record.root, include=list(record.include),
            exclude=list(record.exclude), context=record.context, sequence=record.sequence,
            created_at=record.created_at, documents=docs, passages=passages,
            last_indexed_at=record.last_indexed_at,
        )

    @staticmethod
    def _entry(doc: DocumentRecord) -> c.DocumentEntry:
        return c.DocumentEntry(
            uri=document_uri(doc.collection, doc.path), docid=doc.docid, title=doc.title,
            collection=doc.collection, path=doc.path, kind=doc.kind, lines=doc.line_count,
            size=doc.size, passages=doc.passages, tags=list(doc.tags), indexed_at=doc.indexed_at,
        )

    # --- graph and tags ------------------------------------------------------------------
    # Link graph (issue 4): resolution happens when the graph is read (cairn.graph.service).

    def links(self, ref: str, *, limit: int = 1000) -> cg.LinkList:
        """Outgoing links of a document, each resolved (target, reason, anchor check)."""
        _check_bound("limit", limit)
        store, service = self._graph_service()
        return service.links(self._note(store, ref), limit=limit)

    def backlinks(self, ref: str, *, limit: int = 1000) -> cg.LinkList:
        """Links from other documents of its collection that resolve to this document."""
        _check_bound("limit", limit)
        store, service = self._graph_service()
        return service.backlinks(self._note(store, ref), limit=limit)

    def graph(
        self, collection: str | None = None, *, max_nodes: int = 10_000, max_edges: int = 50_000,
        max_unresolved: int = 1000,
    ) -> cg.GraphSummary:
        """The link graph of one or all collections: nodes, merged edges, unresolved links."""
        for name, value in (("max_nodes", max_nodes), ("max_edges", max_edges),
                            ("max_unresolved", max_unresolved)):
            _check_bound(name, value)
        store, service = self._graph_service()
        if collection is not None:
            store.get_collection(collection)
        return service.summary(
            collection, max_nodes=max_nodes, max_edges=max_edges, max_unresolved=max_unresolved,
        )

    def graph_path(
        self, a: str, b: str, *, direction: str = "both", max_depth: int = 6, max_nodes: int = 10_000,
    ) -> cg.GraphPath:
        """A shortest path of links from A to B; each hop names its link (line, raw text, reason).
        ``direction``: ``out`` follows links forward only, ``both`` also walks them backwards."""
        _check_bound("max_depth", max_depth, 50)
        _check_bound("max_nodes", max_nodes)
        store, service = self._graph_service()
        return service.path(
            self._note(store, a), self._note(store, b), direction=_direction(direction),
            max_depth=max_depth, max_nodes=max_nodes,
        )

    def graph_neighbors(
        self, ref: str, *, depth: int = 1, direction: str = "both", max_nodes: int = 200,
        max_edges: int = 10_000,
    ) -> cg.Neighbors:
        """Documents within ``depth`` links (1-5), breadth first, each with the link that reached it."""
        _check_bound("depth", depth, 5)
        _check_bound("max_nodes", max_nodes)
        _check_bound("max_edges", max_edges)
        store, service = self._graph_service()
        return service.neighbors(
            self._note(store, ref), depth=depth, direction=_direction(direction),
            max_nodes=max_nodes, max_edges=max_edges,
        )

    def graph_expand(
        self, docids: Sequence[str], *, direction: str = "both", per_seed: int = 5, max_total: int = 20,
    ) -> cg.GraphExpansion:
        """One bounded hop from seed documents (docids or refs): the linked documents, each
        with its seed and the link that brought it. Used by ``query --graph``."""
        _check_bound("per_seed", per_seed)
        _check_bound("max_total", max_total)
        store, service = self._graph_service()
        seeds = list({n.key: n for n in (self._note(store, ref) for ref in docids)}.values())
        return service.expand(seeds, direction=_direction(direction), per_seed=per_seed, max_total=max_total)

    def tags(self, collection: str | None = None) -> cg.TagList:
        """Tags (frontmatter and inline) with document counts; ``a`` counts ``a/...`` too."""
        from cairn.graph.service import GraphService

        store = self._open_store(create=False)
        if collection is not None:
            store.get_collection(collection)
        return GraphService(store, (), document_uri).tags(collection)

    def _graph_service(self) -> tuple[Store, GraphService]:
        from cairn.graph.frontmatter import DEFAULT_LINK_KEYS
        from cairn.graph.service import GraphService

        store = self._open_store(create=False)
        section = self.settings.raw.get("graph", {})
        keys: object = section.get("link_keys", DEFAULT_LINK_KEYS) if isinstance(section, dict) else None
        if not isinstance(keys, (list, tuple)) or not all(isinstance(k, str) for k in keys):
            raise ValidationError("config: graph.link_keys must be a list of frontmatter key names")
        return store, GraphService(store, keys, document_uri)

    def _note(self, store: Store, ref: str) -> Note:
        from cairn.graph.resolve import Note

        record, _ = self._resolve(store, ref)
        return Note(record.id, record.docid, record.collection, record.path, record.title)

    # --- capture (issue 6) -----------------------------------------------------------------
    # The only write to a user's folders: a NEW file, created atomically, never overwritten.

    def capture(self, collection: str, title: str, text: str, *, path: str | None = None) -> CaptureResult:
        """Write a new Markdown note into ``collection``'s folder, then index that collection.

        ``path`` (relative to the collection's root, ``.md`` added when it has no suffix)
        defaults to a slug of ``title``, numbered when taken. The file is written to a
        temporary name and hard-linked into place, so it appears whole or not at all, and an
        existing file is never replaced. Paths that leave the root (``..``, absolute,
        percent-encoded, through a symlink) or that indexing would skip are refused."""
        import hashlib

        import yaml

        from cairn.contracts.capture import CaptureResult

        store = self._open_store(create=False)
        record = store.get_collection(collection)
        title = title.strip()
        if not title or len(title) > 300 or any(ch in title for ch in "\r\n\x00"):
            raise ValidationError("title must be one line of 1 to 300 characters")
        if "\x00" in text:
            raise ValidationError("text must not contain NUL characters")
        header = yaml.safe_dump({"title": title}, allow_unicode=True, sort_keys=False)
        body = f"---\n{header}---\n\n{text.strip()}\n".encode()
        if len(body) > self.settings.index.max_file_bytes:
            raise ValidationError(f"note is larger than index.max_file_bytes ({self.settings.index.max_file_bytes})")
        root = Path(record.root)
        if not root.is_dir():
            raise ValidationError(f"collection {collection!r}: folder {record.root} is missing")
        if path is not None:
            candidates = [_capture_path(path)]
        else:
            slug = re.sub(r"[^\w-]+", "-", title.lower(), flags=re.UNICODE).strip("-_")[:80] or "note"
            candidates = [f"{slug}.md"] + [f"{slug}-{n}.md" for n in range(2, 100)]
        written = _create_new_file(root, candidates, body)
        if written is None:
            raise ConflictError(f"{candidates[0]} already exists in collection {collection!r}; never overwritten")
        hints: list[str] = []
        summary: c.IndexSummary | None = None
        docid: str | None = None
        try:
            summary = self.index(collection)
            found = store.find_document(collection=collection, path=written)
            if found is not None and found[0].active:
                docid = found[0].docid
            else:
                hints.append("written but not indexed: the collection's include/exclude globs skip this path")
        except BusyError as exc:
            hints.append(f"written but not indexed yet: {exc.message}; run: cairn index")
        return CaptureResult(
            uri=document_uri(collection, written), docid=docid, collection=collection, path=written,
            title=title, bytes=len(body), source_hash=hashlib.sha256(body).hexdigest(),
            index=summary, hints=hints,
        )

    # --- evidence: context capsules, verify, ask (issue 5) ---------------------------------
    # Pure cores live in cairn.capsule and cairn.answer; these methods only wire them.

    _generator_obj: Generator | None = None

    def context_build(
        self, goal: str, *, budget_tokens: int | None = 1200, budget_bytes: int | None = None,
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None, graph: bool = False,
        candidates: int = 50, max_document_share: float = 0.5,
    ) -> Capsule:
        """A Context Capsule for ``goal``: exact evidence passages (hybrid retrieval, BM25
        without vectors) selected under a token and/or byte budget, with facet coverage and
        gaps, omissions by reason, and a ``capsule_id`` that hashes its canonical JSON.
        The same index and request give byte-identical canonical JSON."""
        from cairn.capsule.build import Candidate, CapsuleRequest, Facet, build_capsule
        from cairn.capsule.source import index_state, passage_hashes
        from cairn.contracts.capsule import CapsuleScope, Fingerprints, RetrievalSettings
        from cairn.contracts.capsule import GapReason as _Gap
        from cairn.models.tokens import budget_token_counter
        from cairn.retrieval.hybrid import FUSION_VERSION

        if not goal.strip():
            raise ValidationError("goal is empty")
        for name, value in (("budget_tokens", budget_tokens), ("budget_bytes", budget_bytes)):
            if value is not None:
                _check_bound(name, value, 10_000_000)
        _check_bound("candidates", candidates, MAX_LIMIT)
        if not 0 < max_document_share <= 1:
            raise ValidationError("max_document_share must be in (0, 1]")
        store, filters, meta = self._search_setup(candidates, collections, tags_any, tags_all, since, until)
        run = self._hybrid(store, goal, filters, candidates, mode="default", graph=graph, all_passages=True)
        head = run.fused[:candidates]
        texts = store.passage_texts([f.hit.passage_id for f in head])
        hashes = passage_hashes(store, [f.hit.passage_id for f in head])
        counter = budget_token_counter()
        usable = [f for f in head if f.hit.passage_id in texts and f.hit.passage_id in hashes]
        counts = counter.count([texts[f.hit.passage_id] for f in usable])
        pool = [
            Candidate(
                uri=document_uri(f.hit.collection, f.hit.path), docid=f.hit.docid,
                collection=f.hit.collection, path=f.hit.path, title=f.hit.title,
                start_line=f.hit.start_line, end_line=f.hit.end_line, heading=f.hit.heading_path,
                text=texts[f.hit.passage_id], passage_hash=hashes[f.hit.passage_id][0],
                source_hash=hashes[f.hit.passage_id][1], text_hash=hashes[f.hit.passage_id][2],
                tokens=n, score=f.score,
            )
            for f, n in zip(usable, counts, strict=True)
        ]

        def gap_probe(facet: Facet) -> _Gap:
            query = f'"{facet.text}"' if facet.kind == "phrase" else facet.text
            try:
                if bm25_search(store, query, filters, 1):
                    return "not_retrieved"
                if filters != SearchFilter() and bm25_search(store, query, SearchFilter(), 1):
                    return "filtered"
            except ValidationError:
                pass
            return "no_match"

        request = CapsuleRequest(
            goal=goal,
            scope=CapsuleScope(index=self.index_name, collections=meta.collections,
                               tags_any=meta.tags_any, tags_all=meta.tags_all, since=since, until=until),
            retrieval=RetrievalSettings(
                mode="hybrid" if run.vectors else "bm25", stages_run=run.stages_run,
                fusion=FUSION_VERSION, graph=graph, candidates=candidates,
                max_document_share=max_document_share, hints=run.hints,
            ),
            fingerprints=Fingerprints(embedder=run.embedder, token_counter=counter.name),
            index=index_state(store, list(collections)),
            budget_tokens=budget_tokens, budget_bytes=budget_bytes,
        )
        return build_capsule(request, pool, gap_probe)

    def context_verify(self, capsule: Capsule | str | bytes) -> VerifyReceipt:
        """Re-check a saved capsule against the current index and files, without any model.

        Raises ValidationError (``capsule_malformed``, ``capsule_schema_unknown``,
        ``capsule_tampered``) for anything that is not an intact capsule."""
        from cairn.capsule.canonical import canonical_json
        from cairn.capsule.source import CurrentDocument, current_document, index_state
        from cairn.capsule.verify import parse_capsule, verify_capsule
        from cairn.contracts.capsule import Fingerprints
        from cairn.ingest.chunker import estimate_tokens
        from cairn.ingest.pipeline import IngestLimits, ingest_bytes, sha256_hex
        from cairn.models.tokens import budget_token_counter

        parsed = parse_capsule(capsule if isinstance(capsule, (str, bytes)) else canonical_json(capsule))
        store = self._open_store(create=False)
        limits = IngestLimits(
            max_file_bytes=self.settings.index.max_file_bytes,
            chunk_max_tokens=self.settings.index.chunk_max_tokens,
            chunk_min_tokens=self.settings.index.chunk_min_tokens,
            batch_files=self.settings.index.batch_files,
        )

        def normalise(path: str, data: bytes) -> tuple[str, str]:

            doc = ingest_bytes(path, data, size=len(data), mtime_ns=0, source_hash=sha256_hex(data),
                               limits=limits, count_tokens=estimate_tokens)
            return doc.text, doc.text_hash

        def lookup(docid: str) -> CurrentDocument | None:
            return current_document(store, docid, document_uri, normalise)

        try:
            embedder: str | None = self._ready_embedder(store).fingerprint
        except CairnError:
            embedder = None
        scope = parsed.scope.collections
        known = {r.name for r in store.list_collections()}
        return verify_capsule(
            parsed, lookup,
            index_state(store, [name for name in scope if name in known] if scope else []),
            Fingerprints(embedder=embedder, token_counter=budget_token_counter().name),
        )

    def ask(
        self, question: str, *, answer: bool = False, budget_tokens: int | None = 700,
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None, graph: bool = False,
        max_tokens: int = 160, timeout: float | None = None,
    ) -> AskResponse:
        """Cited evidence for ``question`` first (a closed capsule); with ``answer``, a short
        answer from the configured generator citing evidence ids (not verified: see
        :meth:`ask_verified`). A generator failure is reported in ``answer_error``."""
        from cairn.answer.ask import answer_from_capsule
        from cairn.contracts.answer import AskResponse as _Ask

        capsule = self.context_build(question, budget_tokens=budget_tokens, collections=collections,
                                     tags_any=tags_any, tags_all=tags_all, since=since, until=until,
                                     graph=graph)
        generated = None
        error = None
        hints = list(capsule.retrieval.hints)
        if answer and not capsule.evidence:
            error = "no evidence in scope for this question: nothing to answer from"
        elif answer:
            try:
                generated = answer_from_capsule(
                    question, capsule, self._generator(), guidance=self._guidance(capsule),
                    max_tokens=max_tokens, timeout=timeout,
                )
            except CairnError as exc:
                error = exc.message
        return _Ask(question=question, capsule_id=capsule.capsule_id, evidence=capsule.evidence,
                    coverage=capsule.coverage, answer=generated, answer_error=error, hints=hints)

    def ask_verified(
        self, question: str, *, budget_tokens: int | None = 700, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (), since: str | None = None,
        until: str | None = None, graph: bool = False, max_tokens: int = 160,
        timeout: float | None = None, judge: object = None, judge_timeout: float = 20.0,
    ) -> VerifiedAskResponse:
        """Verified ask: build a closed capsule, draft an answer from it only, split the draft
        into claims and verify each against the evidence (``cairn.answer.verify``). The answer
        is returned only when every substantive claim is supported; otherwise the result
        abstains and shows the verdicts. Fails closed on any generator/verifier problem."""
        from cairn.answer.ask import verified_answer

        capsule = self.context_build(question, budget_tokens=budget_tokens, collections=collections,
                                     tags_any=tags_any, tags_all=tags_all, since=since, until=until,
                                     graph=graph)
        generator: Generator | None = None
        error = None
        try:
            generator = self._generator()
        except CairnError as exc:
            error = exc.message
        return verified_answer(question, capsule, generator, guidance=self._guidance(capsule),
                               max_tokens=max_tokens, timeout=timeout, judge=judge,
                               judge_timeout=judge_timeout, generator_error=error)

    def _generator(self) -> Generator:
        """The configured generator (``[generate]`` in config.toml; default: local SmolLM2)."""
        if self._generator_obj is None:
            from cairn.models.generators import create_generator

            section = self.settings.raw.get("generate", {"backend": "xllamacpp"})
            if not isinstance(section, dict):
                raise ValidationError("config: [generate] must be a table")
            self._generator_obj = create_generator({"backend": "xllamacpp", **section})
        return self._generator_obj

    def _guidance(self, capsule: Capsule) -> list[tuple[str, str]]:
        """Configured guidance (collection ``context`` text) of the collections cited."""
        used = {item.collection for item in capsule.evidence}
        store = self._open_store(create=False)
        return [(r.name, r.context) for r in store.list_collections() if r.name in used and r.context]


QueryMode = Literal["fast", "default", "thorough"]
CANDIDATES = 50
RERANK_DEPTH = 20
GRAPH_SEEDS = 5
GRAPH_PER_SEED = 5
GRAPH_MAX = 20
DIAGNOSE_DEPTH = 1000
#: Expansion terms of the feedback round: thorough adds more of them.
FEEDBACK_TERMS: dict[str, int] = {"default": 6, "thorough": 10}


def _vector_stage(
    fast: Callable[[str], tuple[Any, str]] | None, embedder: Embedder, query: str, matrix: VectorMatrix,
    allowed: Any, depth: int,
) -> tuple[list[PassageHit], Any, str]:
    """Embed the query (the int8 encoder when ``fast`` is given) and take its nearest
    passages as light hits; returns them, the query vector and the encoder used."""
    from cairn.retrieval.vector import nearest_candidates

    vector, encoder = fast(query) if fast is not None else (embedder.embed([query], kind="query")[0], "exact")
    return nearest_candidates(matrix, vector, depth, allowed), vector, encoder


_STAGE_NAMES: dict[str, c.Stage] = {
    "bm25": "bm25", "bm25x": "bm25", "vector": "vector", "vectorx": "vector", "graph": "graph",
    "sequence": "sequence", "rerank": "rerank",
}


@dataclass
class HybridRun:
    """Everything one hybrid query produced, for results, explain and diagnose.

    Ranked lists and fused units beyond the first ``limit`` hold light hits (passage id,
    docid and score only, :func:`cairn.store.records.light_hit`)."""

    depth: int
    rankings: dict[str, list[PassageHit]] = field(default_factory=dict)
    fused: list[Fused] = field(default_factory=list)
    stages_run: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    vectors: bool = False
    embedder: str | None = None
    via: dict[str, str] = field(default_factory=dict)


_BACKGROUND: ThreadPoolExecutor | None = None


def _background() -> ThreadPoolExecutor:
    """One shared helper thread for work that overlaps a foreground stage."""
    global _BACKGROUND
    if _BACKGROUND is None:
        _BACKGROUND = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-bg")
    return _BACKGROUND


def _result(hit: PassageHit, score: float, stages: list[c.Stage],
            explain: c.ResultExplain | None = None) -> c.SearchResult:
    return c.SearchResult(
        uri=document_uri(hit.collection, hit.path), docid=hit.docid, title=hit.title,
        collection=hit.collection, score=round(score, 6), start_line=hit.start_line,
        end_line=hit.end_line, snippet=hit.snippet, headings=list(hit.heading_path),
        stages=stages, explain=explain,
    )


def _doc_rank(hits: Sequence[PassageHit], docid: str) -> tuple[int, float] | None:
    seen: set[str] = set()
    for hit in hits:
        if hit.docid not in seen:
            seen.add(hit.docid)
            if hit.docid == docid:
                return len(seen), round(hit.score, 6)
    return None


def _describe_filters(filters: SearchFilter) -> str:
    parts = []
    if filters.collections:
        parts.append(f"collections={','.join(filters.collections)}")
    if filters.tags_any:
        parts.append(f"tags-any={','.join(filters.tags_any)}")
    if filters.tags_all:
        parts.append(f"tags-all={','.join(filters.tags_all)}")
    if filters.since:
        parts.append(f"since={filters.since}")
    if filters.until:
        parts.append(f"until={filters.until.rstrip('~')}")
    return " ".join(parts)


def _capabilities() -> dict[str, bool]:
    return {
        "bm25": True,
        "cjk": True,
        "vectors": False,
        "embedder_installed": importlib.util.find_spec("onnxruntime") is not None,
    }


def _clean_tags(tags: Sequence[str]) -> list[str]:
    cleaned = []
    for tag in tags:
        for part in tag.split(","):
            part = part.strip().lstrip("#").lower()
            if part:
                cleaned.append(part)
    return cleaned


def _parse_date(value: str | None, name: str, *, end: bool) -> str | None:
    """Validate a --since/--until value; a bare date as --until covers that whole day."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            date.fromisoformat(text)
            return text + ("~" if end else "")
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"--{name} must be a date like 2024-05-31 or an ISO datetime, not {value!r}") from None
    return parsed.isoformat().replace("+00:00", "Z")


def _check_bound(name: str, value: int, most: int = 1_000_000) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise ValidationError(f"{name} must be between 1 and {most}")


def _direction(value: str) -> Direction:
    match value:
        case "out" | "in" | "both":
            return value
    raise ValidationError(f"direction must be out, in or both, not {value!r}")


def open_workspace(home: str | Path | None = None, index: str = "default", *,
                   env: Mapping[str, str] | None = None) -> Workspace:
    """Composition root: resolve paths from ``home``/``$CAIRN_HOME``, read config, wire the store."""
    environ = os.environ if env is None else env
    paths = resolve_paths(home, environ)
    settings = load_settings(paths.config_file)
    if environ.get("CAIRN_TOKEN"):  # the environment overrides [serve] token
        settings = dataclasses.replace(settings, serve_token=environ["CAIRN_TOKEN"])
    return Workspace(paths, settings, index)


# --- capture helpers (issue 6) -----------------------------------------------------------

CAPTURE_SUFFIXES = (".md", ".markdown", ".txt")


def check_ref_path(path: str) -> None:
    """Refuse a document path that could name something outside a collection's root:
    ``..``/``.``/empty segments, absolute or home paths, backslashes, NUL, in the raw text
    or once percent-decoded. Indexed paths never contain such segments, so nothing valid
    is refused."""
    for form in dict.fromkeys((path, unquote(path))):
        if "\x00" in form or "\\" in form or form.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", form):
            raise ValidationError(f"path {path!r} is not a relative path inside a collection")
        if any(seg in ("", ".", "..") for seg in form.split("/")):
            raise ValidationError(f"path {path!r} must not contain '..', '.' or empty segments")


def _capture_path(path: str) -> str:
    """Validate a relative capture path; add ``.md`` when it has no suffix."""
    path = path.strip()
    check_ref_path(path)
    if "%" in path or any(ord(ch) < 32 for ch in path):
        raise ValidationError(f"path {path!r} must not contain '%' or control characters")
    if any(seg.startswith(".") for seg in path.split("/")):
        raise ValidationError(f"path {path!r}: hidden files and folders are never indexed")
    suffix = Path(path).suffix.lower()
    if not suffix:
        path += ".md"
    elif suffix not in CAPTURE_SUFFIXES:
        raise ValidationError(f"path {path!r}: a captured note must end in {', '.join(CAPTURE_SUFFIXES)}")
    return path


def _create_new_file(root: Path, candidates: Sequence[str], data: bytes) -> str | None:
    """Write ``data`` to the first candidate path that does not exist yet; None if all do.

    Folders are created as needed but never followed through a symlink, and the final
    folder must resolve inside ``root``. The bytes go to a temporary file (``O_EXCL``,
    fsynced) that is hard-linked to the target name: ``link`` fails rather than replace."""
    real_root = os.path.realpath(root)
    for rel in candidates:
        *folders, name = rel.split("/")
        parent = real_root
        for folder in folders:
            parent = os.path.join(parent, folder)
            with contextlib.suppress(FileExistsError):
                os.mkdir(parent, 0o755)
            if os.path.islink(parent) or not os.path.isdir(parent):
                raise ValidationError(f"path {rel!r}: {folder!r} is a symlink or not a folder")
        if os.path.commonpath([real_root, os.path.realpath(parent)]) != real_root:
            raise ValidationError(f"path {rel!r} leaves the collection's folder")
        target = os.path.join(parent, name)
        if os.path.lexists(target):
            continue
        tmp = os.path.join(parent, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(tmp, target)
            except FileExistsError:
                continue
        finally:
            os.unlink(tmp)
        dir_fd = os.open(parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return rel
    return None
