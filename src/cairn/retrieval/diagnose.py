"""``query diagnose``: where one target document went in a hybrid run (pure: runs in,
report out)."""

from __future__ import annotations

from collections.abc import Sequence

from cairn import contracts as c
from cairn.retrieval.pipeline import HybridRun
from cairn.store.records import PassageHit, SearchFilter


def diagnose(
    query: str, target: str, docid: str, limit: int, filters: SearchFilter, own: set[int],
    allowed: set[int] | None, run: HybridRun, deep: HybridRun, deep_depth: int,
) -> c.DiagnoseReport:
    """The report for ``target`` (``docid``, with passage ids ``own``): ``run`` is the
    query as asked, ``deep`` the same query to ``deep_depth`` candidates; ``allowed`` are
    the passages the filters let through (None: all)."""
    stages: list[c.DiagnoseStage] = []
    if not own:
        stages.append(c.DiagnoseStage(stage="index", ran=True, found=False, note="the document has no passages (empty text)"))
    if allowed is not None and not (own & allowed):
        stages.append(c.DiagnoseStage(stage="filters", ran=True, found=False,
                                      note=f"removed by filters: {describe_filters(filters)}"))
    else:
        stages.append(c.DiagnoseStage(stage="filters", ran=True, found=True, note="passes the filters"))
    for stage, marker in (("bm25", "bm25"), ("vector", "vector"), ("bm25x", "expand"), ("vectorx", "vector-feedback")):
        ran = marker in run.stages_run or any(s.startswith(f"{marker}:") for s in run.stages_run)
        in_cut = _doc_rank(run.rankings.get(stage, ()), docid)
        anywhere = _doc_rank(deep.rankings.get(stage, ()), docid)
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
                                          note="not matched at all" if stage != "vector" else f"not among the {deep_depth} nearest"))
    final = next((i for i, f in enumerate(run.fused, 1) if f.hit.docid == docid), None)
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
                f" ({run.via[docid]})" if docid in run.via else "")
        stages.append(c.DiagnoseStage(stage="sequence", ran=True, found=gained is not None,
                                      rank=gained.rank if gained else None,
                                      score=gained.score if gained else None, note=note))
    returned = final is not None and final <= limit
    verdict = "returned" if returned else next(
        (st.note for st in stages if not st.found and st.ran and st.stage in ("index", "filters")),
        fused_note if final is not None else "not retrieved by any stage",
    )
    return c.DiagnoseReport(query=query, target=target, target_docid=docid, stages=stages,
                            final_rank=final if returned else None, verdict=verdict)


def _doc_rank(hits: Sequence[PassageHit], docid: str) -> tuple[int, float] | None:
    seen: set[str] = set()
    for hit in hits:
        if hit.docid not in seen:
            seen.add(hit.docid)
            if hit.docid == docid:
                return len(seen), round(hit.score, 6)
    return None


def describe_filters(filters: SearchFilter) -> str:
    """The filters as the CLI spells them, e.g. ``collections=a,b tags-any=ops``."""
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
