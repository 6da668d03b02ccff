"""Retrieval quality on standard test collections, through cairn's own ingest and search.

    .venv/bin/python bench/eval_retrieval.py                         # BM25 on all three, updates RESULTS.md
    .venv/bin/python bench/eval_retrieval.py --collections cranfield --no-write
    .venv/bin/python bench/eval_retrieval.py --mode fts5-doc --no-write   # reference: bare FTS5, whole docs
    .venv/bin/python bench/eval_retrieval.py --chunk-max-tokens 4096 --no-write  # experiment

Collections (``../shared/eval``, see ``../shared/README.md``): NFCorpus, Cranfield, MEDLINE.
Each document is written as one file into a temporary folder (Cranfield as ``<id>.md``
starting with ``# <title>``; the others as ``<id>.txt``), added as a collection of a fresh
index and indexed by ``ws.index()``. Every judged query is run through the mode's search
(``ws.search(query, limit=1000)`` for ``bm25``); passages are collapsed to documents by
their best (first) rank, and the file name gives back the document id. Scores come from
``ir-measures`` (pytrec_eval underneath), averaged over every judged query: a query that
returns nothing scores 0 instead of being dropped.

Judgment traps handled:

* Cranfield query ids in ``cran.qry`` run 001…365 with gaps; ``cranqrel`` numbers them
  1…225 in file order, so queries are renumbered by position.
* Cranfield grades: 1 (complete answer) … 4 (minimal interest) are relevant, ``-1`` is not.
  Graded measures (nDCG) use gain ``5 - g`` (1→4, 2→3, 3→2, 4→1) and ``-1``→0; binary
  measures (MAP, P@10, R@100) count grades 1–4 as relevant, as the reference figure does.
* NFCorpus grades 2/1 are used as given (both relevant); MEDLINE ``qid 0 docid 1``.

Modes are entries of :data:`MODES` (a function from workspace, collection and query to
ranked document URIs); vector and hybrid modes (``ws.vsearch`` / ``ws.query``) slot in
the same way. ``fts5-doc`` is a diagnostic reference that bypasses cairn's store: a bare
FTS5 table of whole documents, queried with cairn's own compiled query.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EVAL = SHARED / "eval"
DEPTH = 1000  # passages asked for (cairn's maximum limit); documents kept after collapsing


# ------------------------------------------------------------------------- collections


@dataclass(frozen=True, slots=True)
class Target:
    measure: str  # a key of MEASURES
    minimum: float


@dataclass(slots=True)
class EvalCollection:
    """Documents, queries and judgments of one test collection, ready to write and score."""

    name: str
    docs: dict[str, tuple[str, str]]  # doc id -> (title, body); title "" when none
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]  # qid -> doc id -> relevance used for graded measures
    target: Target
    reference: str
    suffix: str  # ".md" (title as a heading) or ".txt"
    notes: list[str] = field(default_factory=list)


def smart_records(path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """Records of a SMART-format file (``.I id`` then ``.T/.A/.B/.W`` fields)."""
    record_id: str | None = None
    fields: dict[str, list[str]] = {}
    current = ""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        marker = re.match(r"^\.([A-Z])(?:\s+(.*))?$", line)
        if marker:
            if marker.group(1) == "I":
                if record_id is not None:
                    yield record_id, {k: "\n".join(v).strip() for k, v in fields.items()}
                record_id, fields, current = (marker.group(2) or "").strip(), {}, ""
            else:
                current = marker.group(1)
                fields.setdefault(current, [])
            continue
        if current:
            fields[current].append(line.rstrip())
    if record_id is not None:
        yield record_id, {k: "\n".join(v).strip() for k, v in fields.items()}


def load_nfcorpus(root: Path) -> EvalCollection:
    docs = {}
    for line in (root / "test.docs").read_text(encoding="utf-8").splitlines():
        doc_id, _, text = line.partition("\t")
        if doc_id:
            docs[doc_id] = ("", text.strip())
    queries = {}
    for line in (root / "test.titles.queries").read_text(encoding="utf-8").splitlines():
        qid, _, text = line.partition("\t")
        if qid:
            queries[qid] = text.strip()
    qrels: dict[str, dict[str, int]] = {}
    for line in (root / "test.2-1-0.qrel").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4:
            qrels.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return EvalCollection(
        "nfcorpus", docs, queries, qrels, Target("nDCG@10", 0.32),
        "nDCG@10 0.3218 (Pyserini BEIR); 0.3345, R@100 0.273 (bm25s on these files)", ".txt",
    )


def load_cranfield(root: Path, *, titles: bool = True) -> EvalCollection:
    docs = {}
    for doc_id, fields in smart_records(root / "cran.all.1400"):
        title = " ".join(fields.get("T", "").split()).removesuffix(" .").strip()
        docs[doc_id] = (title if titles else "", fields.get("W", ""))
    # cranqrel numbers the queries 1..225 in file order, not by their .I ids.
    queries = {
        str(n): " ".join(fields.get("W", "").split())
        for n, (_, fields) in enumerate(smart_records(root / "cran.qry"), start=1)
    }
    qrels: dict[str, dict[str, int]] = {}
    for line in (root / "cranqrel").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 3:
            grade = int(parts[2])
            qrels.setdefault(parts[0], {})[parts[1]] = 5 - grade if 1 <= grade <= 4 else 0
    return EvalCollection(
        "cranfield", docs, queries, qrels, Target("MAP", 0.30),
        "MAP 0.306, nDCG@10 0.385 (independent BM25)", ".md" if titles else ".txt",
        notes=["graded gain 5-g for grades 1-4, -1 -> 0; MAP/P/R count grades 1-4 as relevant"],
    )


def load_medline(root: Path) -> EvalCollection:
    docs = {doc_id: ("", f.get("W", "")) for doc_id, f in smart_records(root / "MED.ALL")}
    queries = {qid: " ".join(f.get("W", "").split()) for qid, f in smart_records(root / "MED.QRY")}
    qrels: dict[str, dict[str, int]] = {}
    for line in (root / "MED.REL").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4:
            qrels.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return EvalCollection(
        "medline", docs, queries, qrels, Target("MAP", 0.50),
        "MAP 0.537, nDCG@10 0.699 (independent BM25)", ".txt",
    )


LOADERS: dict[str, Callable[[Path], EvalCollection]] = {
    "nfcorpus": lambda root: load_nfcorpus(root / "nfcorpus"),
    "cranfield": lambda root: load_cranfield(root / "cranfield"),
    "medline": lambda root: load_medline(root / "medline"),
}


def write_documents(collection: EvalCollection, folder: Path) -> None:
    """One file per document; a title becomes the Markdown ``# heading`` on line 1."""
    folder.mkdir(parents=True)
    for doc_id, (title, body) in collection.docs.items():
        text = f"# {title}\n\n{body}\n" if title and collection.suffix == ".md" else f"{body}\n"
        (folder / f"{doc_id}{collection.suffix}").write_text(text, encoding="utf-8")


def doc_id_of(uri: str) -> str:
    """``cairn://<collection>/<doc id>.<suffix>`` -> doc id."""
    name = unquote(uri.rsplit("/", 1)[-1])
    return name.rsplit(".", 1)[0]


# ------------------------------------------------------------------------------- modes


class Searcher:
    """One mode's ranked document ids for a query, over one indexed collection."""

    def __init__(self, ws: Any, collection: EvalCollection, folder: Path) -> None:
        self.ws = ws
        self.collection = collection
        self.folder = folder

    def ranked(self, query: str) -> list[str]:  # pragma: no cover - interface
        raise NotImplementedError


class CairnBM25(Searcher):
    """``ws.search``: cairn's BM25 over passages, collapsed to documents by first rank."""

    def ranked(self, query: str) -> list[str]:
        response = self.ws.search(query, limit=DEPTH, collections=[self.collection.name])
        return collapse(r.uri for r in response.results)


class BareFTS5Documents(Searcher):
    """Reference: whole documents in a bare FTS5 table (cairn's tokenizer, one column),
    queried with cairn's own compiled query; isolates chunking, fields and weights."""

    def __init__(self, ws: Any, collection: EvalCollection, folder: Path) -> None:
        super().__init__(ws, collection, folder)
        from cairn.retrieval.query import compile_query

        self.compile_query = compile_query
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE t USING fts5(doc_id UNINDEXED, body,"
            " tokenize='porter unicode61 remove_diacritics 2')"
        )
        self.conn.executemany(
            "INSERT INTO t(doc_id, body) VALUES (?, ?)",
            [
                (doc_id, f"{title}\n\n{body}" if title else body)
                for doc_id, (title, body) in collection.docs.items()
            ],
        )

    def ranked(self, query: str) -> list[str]:
        match = self.compile_query(query).main
        if not match:
            return []
        rows = self.conn.execute(
            "SELECT doc_id FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?", (match, DEPTH)
        )
        return [row[0] for row in rows]


MODES: dict[str, type[Searcher]] = {"bm25": CairnBM25, "fts5-doc": BareFTS5Documents}


def collapse(uris: Iterator[str] | list[str]) -> list[str]:
    """Document ids in order of their first (best-ranked) passage."""
    seen: dict[str, None] = {}
    for uri in uris:
        seen.setdefault(doc_id_of(uri), None)
    return list(seen)


# ----------------------------------------------------------------------------- scoring

MEASURES = ("nDCG@10", "MAP", "R@100", "P@10")


def score(collection: EvalCollection, run: dict[str, list[str]]) -> dict[str, float]:
    """Mean of each measure over every judged query (missing or empty runs score 0)."""
    import ir_measures
    from ir_measures import AP, P, R, nDCG

    measures = {"nDCG@10": nDCG @ 10, "MAP": AP, "R@100": R @ 100, "P@10": P @ 10}
    qrels = [
        ir_measures.Qrel(qid, doc_id, rel)
        for qid, judged in collection.qrels.items()
        for doc_id, rel in judged.items()
    ]
    scored = [
        ir_measures.ScoredDoc(qid, doc_id, float(len(docs) - rank))
        for qid, docs in run.items()
        for rank, doc_id in enumerate(docs)
    ]
    judged_qids = [q for q, j in collection.qrels.items() if any(r > 0 for r in j.values())]
    per_query: dict[str, dict[str, float]] = {name: {} for name in measures}
    names = {str(m): name for name, m in measures.items()}
    for metric in ir_measures.iter_calc(list(measures.values()), qrels, scored):
        per_query[names[str(metric.measure)]][metric.query_id] = metric.value
    return {
        name: sum(per_query[name].get(q, 0.0) for q in judged_qids) / len(judged_qids)
        for name in measures
    }


# --------------------------------------------------------------------------------- run


@dataclass(slots=True)
class Outcome:
    name: str
    docs: int
    passages: int
    queries: int
    empty_queries: int
    failed_queries: int
    metrics: dict[str, float]
    target: Target
    reference: str
    index_s: float
    search_s: float
    notes: list[str]

    @property
    def passed(self) -> bool:
        return self.metrics[self.target.measure] >= self.target.minimum


def evaluate(
    collection: EvalCollection, mode: str, tmp: Path, *, chunk_max_tokens: int | None,
    shared_ws: Any | None = None,
) -> Outcome:
    """Index one collection into a fresh cairn home (or the shared one) and score one mode."""
    import cairn
    from cairn.errors import CairnError

    folder = tmp / "docs" / collection.name
    write_documents(collection, folder)
    if shared_ws is None:
        home = tmp / f"home-{collection.name}"
        home.mkdir(parents=True)
        if chunk_max_tokens is not None:
            (home / "config.toml").write_text(f"[index]\nchunk_max_tokens = {chunk_max_tokens}\n")
        ws = cairn.open(home=home, index=collection.name)
    else:
        ws = shared_ws
    ws.add_collection(folder, name=collection.name)
    started = time.perf_counter()
    summary = ws.index(collection.name)
    index_s = time.perf_counter() - started
    if summary.counts.failed:
        raise SystemExit(f"{collection.name}: {summary.counts.failed} files failed: {summary.errors[:3]}")

    searcher = MODES[mode](ws, collection, folder)
    run: dict[str, list[str]] = {}
    empty = failed = 0
    started = time.perf_counter()
    judged = [q for q in collection.queries if q in collection.qrels]
    for qid in judged:
        try:
            run[qid] = searcher.ranked(collection.queries[qid])
        except CairnError as exc:
            failed += 1
            run[qid] = []
            print(f"  {collection.name} query {qid} failed: {exc}", file=sys.stderr)
        if not run[qid]:
            empty += 1
    search_s = time.perf_counter() - started
    metrics = score(collection, run)
    if shared_ws is None:
        ws.close()
    return Outcome(
        collection.name, len(collection.docs), summary.passages_written, len(judged), empty,
        failed, metrics, collection.target, collection.reference, index_s, search_s,
        list(collection.notes),
    )


def markdown_table(outcomes: list[Outcome], mode: str) -> str:
    head = " | ".join(MEASURES)
    lines = [
        f"| collection | docs | passages | queries | {head} | target | result | reference | index time |",
        "| --- | ---: | ---: | ---: | " + " | ".join(["---:"] * len(MEASURES)) + " | --- | --- | --- | ---: |",
    ]
    for o in outcomes:
        values = " | ".join(f"{o.metrics[m]:.4f}" for m in MEASURES)
        verdict = "pass" if o.passed else "**FAIL**"
        lines.append(
            f"| {o.name} | {o.docs} | {o.passages} | {o.queries} | {values} | "
            f"{o.target.measure} ≥ {o.target.minimum:g} | {verdict} | {o.reference} | {o.index_s:.1f} s |"
        )
    lines.append("")
    lines.append(
        f"Mode `{mode}`. MAP = AP over the top {DEPTH} passages collapsed to documents; "
        "all measures averaged over every judged query."
    )
    for o in outcomes:
        extra = [f"{o.empty_queries} queries returned nothing"] if o.empty_queries else []
        extra += [f"{o.failed_queries} queries raised an error"] if o.failed_queries else []
        extra += o.notes
        if extra:
            lines.append(f"{o.name}: " + "; ".join(extra) + ".")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--mode", choices=sorted(MODES), default="bm25")
    parser.add_argument(
        "--collections", nargs="+", choices=sorted(LOADERS), default=list(LOADERS),
        help="which collections to run (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument(
        "--chunk-max-tokens", type=int, default=None,
        help="experiment: cairn's [index] chunk_max_tokens (default: cairn's own default)",
    )
    parser.add_argument(
        "--no-titles", action="store_true",
        help="experiment: write Cranfield without the '# title' line (.W already repeats it)",
    )
    parser.add_argument(
        "--shared-index", action="store_true",
        help="experiment: all collections in one index (FTS5 statistics then span all of them)",
    )
    args = parser.parse_args(argv)
    if not EVAL.is_dir():
        raise SystemExit(f"evaluation collections not found at {EVAL}; need ../shared next to the repo")

    import cairn

    tmp = Path(tempfile.mkdtemp(prefix="cairn-eval-"))
    outcomes: list[Outcome] = []
    try:
        shared_ws = None
        if args.shared_index:
            home = tmp / "home-shared"
            home.mkdir()
            if args.chunk_max_tokens is not None:
                (home / "config.toml").write_text(f"[index]\nchunk_max_tokens = {args.chunk_max_tokens}\n")
            shared_ws = cairn.open(home=home, index="shared")
        for name in args.collections:
            collection = (
                load_cranfield(EVAL / "cranfield", titles=False)
                if name == "cranfield" and args.no_titles else LOADERS[name](EVAL)
            )
            outcome = evaluate(
                collection, args.mode, tmp, chunk_max_tokens=args.chunk_max_tokens, shared_ws=shared_ws,
            )
            print(f"  {name}: " + ", ".join(f"{k} {v:.4f}" for k, v in outcome.metrics.items()),
                  file=sys.stderr)
            outcomes.append(outcome)
        if shared_ws is not None:
            shared_ws.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    table = markdown_table(outcomes, args.mode)
    if args.json:
        print(json.dumps([
            {
                "collection": o.name, "docs": o.docs, "passages": o.passages, "queries": o.queries,
                "metrics": o.metrics, "target": {"measure": o.target.measure, "min": o.target.minimum},
                "passed": o.passed, "reference": o.reference, "index_s": o.index_s,
                "search_s": o.search_s, "empty_queries": o.empty_queries,
                "failed_queries": o.failed_queries,
            }
            for o in outcomes
        ], indent=2))
    else:
        print(table)
    experiment = (
        args.chunk_max_tokens is not None or args.no_titles or args.shared_index
        or set(args.collections) != set(LOADERS)
    )
    if not args.no_write and not experiment:
        from results_md import machine_note, stamp, update_section

        command = "python bench/eval_retrieval.py " + " ".join(argv if argv is not None else sys.argv[1:])
        update_section(
            f"Retrieval quality ({args.mode})",
            f"Command: `{command.strip()}`  \nDate: {stamp()}  \nMachine: {machine_note()}\n\n{table}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
