"""The retrieval service: ``search``, ``vsearch``, ``query``, ``similar``, ``query
diagnose`` and exact retrieval (``get``, ``multi-get``, ``ls``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal
from urllib.parse import unquote

from cairn import contracts as c
from cairn.errors import ModelUnavailable, NotFoundError, ValidationError
from cairn.refs import URI_SCHEME, check_ref_path, document_uri, resolve_document, resolve_span
from cairn.retrieval.bm25 import bm25_search, make_snippet, term_finder
from cairn.retrieval.hybrid import fuse
from cairn.retrieval.pipeline import HybridPipeline, HybridPorts, HybridRun, QueryMode, VectorSide
from cairn.store.protocol import Store, StoreOpener
from cairn.store.records import PassageHit, SearchFilter
from cairn.text.query import parse_query
from cairn.validation import MAX_LIMIT, clean_tags, parse_date

if TYPE_CHECKING:
    from cairn.contracts.graph import GraphExpansion
    from cairn.models.embedders import Embedder
    from cairn.models.hub import ModelHub

#: Depth of the second, deep run of ``query diagnose`` (where a target ranks at all).
DIAGNOSE_DEPTH = 1000


_STAGE_NAMES: dict[str, c.Stage] = {
    "bm25": "bm25", "bm25x": "bm25", "vector": "vector", "vectorx": "vector", "graph": "graph",
    "sequence": "sequence", "rerank": "rerank", "complete": "bm25",  # BM25's complete match, put first
}


class RetrievalService:
    """Ranked and exact retrieval over one index."""

    def __init__(
        self, open_store: StoreOpener, models: ModelHub,
        graph_expand: Callable[[list[str], int, int], GraphExpansion],
    ) -> None:
        self._open_store = open_store
        self._models = models
        self._graph_expand = graph_expand

    # --- ranked retrieval ----------------------------------------------------------------

    def search(
        self, query: str, *, limit: int = 10, collections: Sequence[str] = (),
        tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None,
    ) -> c.SearchResponse:
        """BM25 search over passages; plain words, ``"phrases"`` and ``-negation``."""
        store, filters, meta_filters = self.setup(limit, collections, tags_any, tags_all, since, until)
        hits = bm25_search(store, query, filters, limit)
        return c.SearchResponse(
            results=[search_result(h, h.score, ["bm25"]) for h in hits],
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
        store, filters, meta_filters = self.setup(limit, collections, tags_any, tags_all, since, until)
        try:
            embedder = self.ready_embedder(store)
            matrix = self._models.vectors.load(store, embedder.fingerprint)
            hits = vector_search(store, matrix, embedder, query, filters, limit)
        except ModelUnavailable as exc:
            hits = bm25_search(store, query, filters, limit)
            return c.SearchResponse(
                results=[search_result(h, h.score, ["bm25"]) for h in hits],
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
                search_result(h._replace(snippet=make_snippet(texts.get(h.passage_id, ""), finder)), h.score, ["vector"])
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
        query embedded by the int8-mid encoder, and the BM25 half of the feedback round
        re-scoring the candidates only, ``expand:pool``); ``default`` (plus one pseudo-relevance feedback
        round: BM25 expanded by 6 words of the fused top, ``bm25x``, and a second vector
        search from the query moved towards the top passages' vectors, ``vectorx``; plus a
        configured reranker); ``thorough`` (the same with 10 expansion words). A strong BM25
        signal skips feedback and reranking. In collections declared a sequence, each
        document then shares its numbered neighbours' fused scores (``sequence`` stage).
        ``explain`` adds per-stage ranks."""
        store, filters, meta_filters = self.setup(limit, collections, tags_any, tags_all, since, until)
        pipeline = self.pipeline(store)
        run = pipeline.run(query, filters, limit, mode=mode, graph=graph, all_passages=all_passages)
        texts = store.passage_texts([f.hit.passage_id for f in run.fused[:limit]])
        finder = term_finder(parse_query(query, strict=False).terms)
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
            results.append(search_result(hit, item.score, stages, detail))
        return c.SearchResponse(
            results=results,
            meta=c.SearchMeta(
                query=query, mode="hybrid" if run.vectors else "bm25", requested_mode="hybrid",
                limit=limit, count=len(results), filters=meta_filters,
                capabilities={"bm25": True, "vectors": run.vectors}, hints=run.hints,
                fusion=pipeline.settings.fusion_version, stages_run=run.stages_run, embedder=run.embedder,
                fusion_weights=run_weights(run), fusion_reasons=list(run.weights.reasons) if run.weights else [],
            ),
        )

    def similar(self, ref: str, *, limit: int = 10, collections: Sequence[str] = ()) -> c.SearchResponse:
        """Documents semantically nearest to ``ref`` (mean of its passage vectors), one result
        per document; without vectors, a BM25 "more like this" over the document's text."""
        from cairn.retrieval.vector import nearest

        store, filters, meta_filters = self.setup(limit, collections, (), (), None, None)
        record, text = resolve_document(store, ref)
        own = store.document_passage_ids(record.docid)
        try:
            import numpy as np

            embedder = self.ready_embedder(store)
            matrix = self._models.vectors.load(store, embedder.fingerprint)
            mask = np.isin(matrix.ids, np.asarray(own, dtype=np.int64))
            if not mask.any():
                raise ModelUnavailable(f"document {ref!r} has no vectors yet; run: cairn embed")
            centre = matrix.matrix[mask].mean(axis=0)
            centre = centre / max(float(np.linalg.norm(centre)), 1e-12)
            hits = nearest(store, matrix, centre.astype(np.float32), filters,
                           limit * 5 + len(own), exclude=frozenset(own))
            mode: Literal["similar", "bm25"] = "similar"
            hints: list[str] = []
            fingerprint: str | None = embedder.fingerprint
        except (ModelUnavailable, ImportError) as exc:
            reason = exc.message if isinstance(exc, ModelUnavailable) else (
                f"{exc.name or exc} is not installed: pip install 'cairn[embed]'")
            words = " ".join(text.split()[:64])
            hits = [h for h in bm25_search(store, words, filters, limit * 5 + len(own), strict=False)
                    if h.docid != record.docid]
            mode, hints, fingerprint = "bm25", [f"vectors unavailable, using BM25 on the document's text: {reason}"], None
        per_doc = [f.hit for f in fuse({"similar": hits})][:limit]
        if mode == "similar":  # vector hits carry no snippet: the start of each passage
            texts = store.passage_texts([h.passage_id for h in per_doc])
            per_doc = [h._replace(snippet=make_snippet(texts.get(h.passage_id, ""), None)) for h in per_doc]
        return c.SearchResponse(
            results=[search_result(h, h.score, ["vector"] if mode == "similar" else ["bm25"]) for h in per_doc],
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
        from cairn.retrieval.diagnose import diagnose

        store, filters, _ = self.setup(limit, collections, tags_any, tags_all, since, until)
        record, _ = resolve_document(store, target)
        pipeline = self.pipeline(store)
        run = pipeline.run(query, filters, limit, mode=mode, graph=False, all_passages=False)
        deep = pipeline.run(query, filters, DIAGNOSE_DEPTH, mode=mode, graph=False, all_passages=False,
                            depth=DIAGNOSE_DEPTH)
        allowed = set(store.filtered_passage_ids(filters)) if filters != SearchFilter() else None
        own = set(store.document_passage_ids(record.docid))
        return diagnose(query, target, record.docid, limit, filters, own, allowed, run, deep, DIAGNOSE_DEPTH)

    # --- exact retrieval -----------------------------------------------------------------

    def get(self, ref: str, *, from_line: int | None = None, lines: int | None = None) -> c.DocumentSlice:
        """Exact lines of a document by ``cairn://`` URI, docid, or ``collection/path``. A
        reference as search prints it, ``cairn://c/file.md:12-30``, reads those lines unless
        ``from_line``/``lines`` say otherwise."""
        store = self._open_store(False)
        record, text, span = resolve_span(store, ref)
        if span is not None and from_line is None and lines is None:
            from_line, lines = span[0], span[1] - span[0] + 1
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
        store = self._open_store(False)
        collection: str | None = None
        path_prefix: str | None = None
        if prefix:
            body = prefix[len(URI_SCHEME):] if prefix.startswith(URI_SCHEME) else prefix
            collection, _, rest = body.partition("/")
            store.get_collection(collection)
            if rest.rstrip("/"):
                check_ref_path(rest.rstrip("/"))  # refuse traversal on every face
            path_prefix = unquote(rest) or None
        docs = store.list_documents(collection, path_prefix, limit)
        return c.Listing(prefix=prefix, documents=[
            c.DocumentEntry(
                uri=document_uri(d.collection, d.path), docid=d.docid, title=d.title,
                collection=d.collection, path=d.path, kind=d.kind, lines=d.line_count,
                size=d.size, passages=d.passages, tags=list(d.tags), indexed_at=d.indexed_at,
            )
            for d in docs
        ])

    # --- shared with capsules and answers ------------------------------------------------

    def setup(
        self, limit: int, collections: Sequence[str], tags_any: Sequence[str], tags_all: Sequence[str],
        since: str | None, until: str | None,
    ) -> tuple[Store, SearchFilter, c.SearchFilters]:
        """Check a request's limit and filters; the store, the filter and its echo for ``meta``."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ValidationError(f"limit must be between 1 and {MAX_LIMIT}")
        store = self._open_store(False)
        for name in collections:
            store.get_collection(name)
        filters = SearchFilter(
            collections=tuple(collections),
            tags_any=tuple(clean_tags(tags_any)),
            tags_all=tuple(clean_tags(tags_all)),
            since=parse_date(since, "since", end=False),
            until=parse_date(until, "until", end=True),
        )
        meta = c.SearchFilters(
            collections=list(collections), tags_any=list(filters.tags_any),
            tags_all=list(filters.tags_all), since=since, until=until,
        )
        return store, filters, meta

    def ready_embedder(self, store: Store) -> Embedder:
        """The embedder, if the index holds vectors of its model; else ModelUnavailable."""
        embedder = self._models.embedder()
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

    def pipeline(self, store: Store) -> HybridPipeline:
        """The hybrid pipeline wired to ``store``, the models and the link graph."""
        from cairn.retrieval.vector import allowed_ids

        def vectors(filters: SearchFilter) -> VectorSide:
            embedder = self.ready_embedder(store)
            matrix = self._models.vectors.load(store, embedder.fingerprint)
            return VectorSide(embedder, matrix, allowed_ids(store, filters))

        def lexical(text: str, filters: SearchFilter, depth: int) -> list[PassageHit]:
            # Natural language: quotes boost, dashes are words (nothing filters).
            return bm25_search(store, text, filters, depth, candidates=True, strict=False)

        def rescore(text: str, passage_ids: Sequence[int]) -> list[PassageHit]:
            ids = list(dict.fromkeys(passage_ids))
            return bm25_search(store, text, SearchFilter(), len(ids), candidates=True, strict=False, only=ids)

        return HybridPipeline(HybridPorts(
            passages=store, lexical=lexical, vectors=vectors, graph_expand=self._graph_expand, rescore=rescore,
            background=self._models.background(), reranker=self._models.reranker(),
        ))


def run_weights(run: HybridRun) -> dict[str, float] | None:
    """The weights of the stages that ran in ``run``'s fusion (None before any fusion)."""
    if run.weights is None:
        return None
    return {stage: w for stage, w in run.weights.weights.items() if stage in run.rankings}


def search_result(hit: PassageHit, score: float, stages: list[c.Stage],
                  explain: c.ResultExplain | None = None) -> c.SearchResult:
    """The public shape of a ranked passage."""
    return c.SearchResult(
        uri=document_uri(hit.collection, hit.path), docid=hit.docid, title=hit.title,
        collection=hit.collection, score=round(score, 6), start_line=hit.start_line,
        end_line=hit.end_line, snippet=hit.snippet, headings=list(hit.heading_path),
        stages=stages, explain=explain,
    )
