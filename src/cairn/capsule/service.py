"""The capsule service: ``context build`` and ``context verify``.

Pure cores live beside it (:mod:`cairn.capsule.build`, :mod:`cairn.capsule.verify`);
this module only wires them to the index, the retrieval pipeline and the files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cairn.errors import CairnError, ValidationError
from cairn.refs import document_uri
from cairn.retrieval.bm25 import bm25_search
from cairn.store.protocol import StoreOpener
from cairn.store.records import SearchFilter
from cairn.text.cjk import has_cjk
from cairn.validation import MAX_LIMIT, check_bound

if TYPE_CHECKING:
    from cairn.contracts.capsule import Capsule, VerifyReceipt
    from cairn.ingest.prepare import IngestLimits
    from cairn.retrieval.service import RetrievalService



class CapsuleService:
    """Builds Context Capsules from the index and verifies saved ones against it.

    ``key_file`` is this install's capsule signing key (created on the first build): every
    capsule built is signed with it, and verify reports whether a capsule's signature is
    this install's."""

    def __init__(
        self, open_store: StoreOpener, index_name: str, retrieval: RetrievalService,
        limits: Callable[[], IngestLimits], key_file: Path,
    ) -> None:
        self._open_store = open_store
        self._index_name = index_name
        self._retrieval = retrieval
        self._limits = limits
        self._key_file = key_file

    def context_build(
        self, goal: str, *, budget_tokens: int | None = 1200, budget_bytes: int | None = None,
        collections: Sequence[str] = (), tags_any: Sequence[str] = (), tags_all: Sequence[str] = (),
        since: str | None = None, until: str | None = None, graph: bool = False,
        candidates: int = 50, max_document_share: float = 0.5,
    ) -> Capsule:
        """A Context Capsule for ``goal``: exact evidence passages (hybrid retrieval, BM25
        without vectors) selected under a token and/or byte budget, with facet coverage and
        gaps, omissions by reason, a ``capsule_id`` that hashes its canonical JSON, and a
        ``signature`` with this install's key. The same index and request give
        byte-identical canonical JSON."""
        from cairn.capsule.build import Candidate, CapsuleRequest, Facet, build_capsule, fit_passage
        from cairn.capsule.signing import load_capsule_key
        from cairn.capsule.source import index_state, passage_hashes
        from cairn.contracts.capsule import CapsuleScope, Fingerprints, RetrievalSettings
        from cairn.contracts.capsule import GapReason as _Gap
        from cairn.models.tokens import budget_token_counter

        if not goal.strip():
            raise ValidationError("goal is empty")
        for name, value in (("budget_tokens", budget_tokens), ("budget_bytes", budget_bytes)):
            if value is not None:
                check_bound(name, value, 10_000_000)
        check_bound("candidates", candidates, MAX_LIMIT)
        if not 0 < max_document_share <= 1:
            raise ValidationError("max_document_share must be in (0, 1]")
        store, filters, meta = self._retrieval.setup(candidates, collections, tags_any, tags_all, since, until)
        pipeline = self._retrieval.pipeline(store)
        run = pipeline.run(goal, filters, candidates, mode="default", graph=graph, all_passages=True)
        head = run.fused[:candidates]
        texts = store.passage_texts([f.hit.passage_id for f in head])
        hashes = passage_hashes(store, [f.hit.passage_id for f in head])
        counter = budget_token_counter()
        usable = [f for f in head if f.hit.passage_id in texts and f.hit.passage_id in hashes]
        counts = counter.count([texts[f.hit.passage_id] for f in usable])
        pool = [
            Candidate(
                hit=f.hit, text=texts[f.hit.passage_id], passage_hash=hashes[f.hit.passage_id][0],
                source_hash=hashes[f.hit.passage_id][1], text_hash=hashes[f.hit.passage_id][2],
                tokens=n, score=f.score,
            )
            for f, n in zip(usable, counts, strict=True)
        ]
        if budget_tokens is not None:
            # A CJK passage larger than the whole budget could never be selected: offer the
            # window of its lines that matches the goal instead (see fit_passage). Other
            # passages are sized right by the chunker; one above the budget is omitted.
            cap = max(1, int(budget_tokens * max_document_share))

            def count(text: str) -> int:
                return counter.count([text])[0]

            pool = [
                (fit_passage(c, goal, cap, count) or c) if c.tokens > budget_tokens and has_cjk(c.text) else c
                for c in pool
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
            scope=CapsuleScope(index=self._index_name, collections=meta.collections,
                               tags_any=meta.tags_any, tags_all=meta.tags_all, since=since, until=until),
            retrieval=RetrievalSettings(
                mode="hybrid" if run.vectors else "bm25", stages_run=run.stages_run,
                fusion=pipeline.settings.fusion_version, graph=graph, candidates=candidates,
                max_document_share=max_document_share, hints=run.hints,
            ),
            fingerprints=Fingerprints(embedder=run.embedder, token_counter=counter.name),
            index=index_state(store, list(collections)),
            budget_tokens=budget_tokens, budget_bytes=budget_bytes,
            signer=load_capsule_key(self._key_file, create=True),
        )
        return build_capsule(request, pool, gap_probe)

    def context_verify(self, capsule: Capsule | str | bytes) -> VerifyReceipt:
        """Re-check a saved capsule against the current index and files, without any model:
        every evidence item's text and recorded hashes against the current documents, the
        index state and fingerprints, and who signed it (``authenticity``).

        Raises ValidationError (``capsule_malformed``, ``capsule_schema_unknown``,
        ``capsule_tampered``, ``capsule_inconsistent``) for anything that is not an intact
        capsule the builder could have produced."""
        from cairn.capsule.canonical import canonical_json
        from cairn.capsule.signing import load_capsule_key
        from cairn.capsule.source import CurrentDocument, current_document, index_state
        from cairn.capsule.verify import parse_capsule, verify_capsule
        from cairn.contracts.capsule import Fingerprints
        from cairn.ingest.chunker import estimate_tokens
        from cairn.ingest.prepare import ingest_bytes, sha256_hex
        from cairn.models.tokens import budget_token_counter

        counter = budget_token_counter()
        parsed = parse_capsule(capsule if isinstance(capsule, (str, bytes)) else canonical_json(capsule), counter)
        store = self._open_store(False)
        limits = self._limits()

        def normalise(path: str, data: bytes) -> tuple[str, str]:
            doc = ingest_bytes(path, data, size=len(data), mtime_ns=0, source_hash=sha256_hex(data),
                               limits=limits, count_tokens=estimate_tokens)
            return doc.text, doc.text_hash

        def lookup(docid: str) -> CurrentDocument | None:
            return current_document(store, docid, document_uri, normalise)

        try:
            embedder: str | None = self._retrieval.ready_embedder(store).fingerprint
        except CairnError:
            embedder = None
        scope = parsed.scope.collections
        known = {r.name for r in store.list_collections()}
        return verify_capsule(
            parsed, lookup,
            index_state(store, [name for name in scope if name in known] if scope else []),
            Fingerprints(embedder=embedder, token_counter=counter.name),
            load_capsule_key(self._key_file, create=False),
        )
