"""Retrieval quality on standard test collections, through cairn's own ingest and search.

    .venv/bin/python -m bench.eval_retrieval                 # bm25, vector, hybrid on all four; RESULTS.md
    .venv/bin/python -m bench.eval_retrieval --reuse         # same, reusing bench/.work (no re-embedding)
    .venv/bin/python -m bench.eval_retrieval --reuse --collections cranfield --no-write
    .venv/bin/python -m bench.eval_retrieval --modes bm25 --no-write           # BM25 only, no model needed
    .venv/bin/python -m bench.eval_retrieval --modes fts5-doc --no-write       # reference: bare FTS5, whole docs
    .venv/bin/python -m bench.eval_retrieval --reuse --modes bm25,vector,hybrid,hybrid-thorough --no-write

Collections (``../shared/eval``, see ``../shared/README.md``): NFCorpus, Cranfield, MEDLINE,
and LoCoMo (turns as documents, see :mod:`eval_locomo`). Each document is written as one
file (Cranfield as ``<id>.md`` starting with ``# <title>``; NFCorpus and MEDLINE as
``<id>.txt``) into ``bench/.work/<collection>/docs/`` (gitignored), added as a collection of
the index in ``bench/.work/<collection>/home`` and indexed with ``ws.index()``; when a
vector or hybrid mode is asked for, ``ws.embed()`` then embeds the passages (the time is
printed and kept in ``embed.json``). Without ``--reuse`` the work folder is wiped first;
with it, unchanged files stay unchanged, so indexing is a no-op and nothing is re-embedded.

Every mode runs over the same index, in one process:

* ``bm25``: ``ws.search(q, limit=1000)``;  ``vector``: ``ws.vsearch(q, limit=1000)`` —
  passages collapsed to documents by their best (first) rank (LoCoMo: limit 200, within
  ``collections=[conversation]``);
* ``hybrid``: ``ws.query(q, limit=1000, mode="default")`` (one result per document;
  ``meta.mode`` must say ``hybrid``, else the query is counted as a fallback);
  ``hybrid-fast`` / ``hybrid-thorough``: the other ``ws.query`` modes;
* ``fts5-doc``: a diagnostic reference that bypasses cairn's store — a bare FTS5 table of
  whole documents, queried with cairn's own compiled query.

Scores: NFCorpus / Cranfield / MEDLINE through ``ir-measures`` (pytrec_eval underneath),
averaged over every judged query (a query that returns nothing scores 0). LoCoMo: the
paper's turn recall@k, overall and per category (:func:`eval_locomo.score_locomo`).

Offline fusion (``--fusion``, on by default when bm25 and vector both ran): the bm25 and
vector document rankings of this run (with their scores) are fused again without
re-querying — RRF with other k and weights, and convex combinations of min-max or
z-score normalised scores — and every setting is checked against the targets of every
collection at once, to find one setting that meets them all.

Judgment traps handled:

* Cranfield query ids in ``cran.qry`` run 001…365 with gaps; ``cranqrel`` numbers them
  1…225 in file order, so queries are renumbered by position.
* Cranfield grades: 1 (complete answer) … 4 (minimal interest) are relevant, ``-1`` is not.
  Graded measures (nDCG) use gain ``5 - g`` (1→4, 2→3, 3→2, 4→1) and ``-1``→0; binary
  measures (MAP, P@10, R@100) count grades 1–4 as relevant, as the reference figure does.
* NFCorpus grades 2/1 are used as given (both relevant); MEDLINE ``qid 0 docid 1``.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote

from bench import eval_locomo

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EVAL = SHARED / "eval"
TLDR = SHARED / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
WORK = REPO / "bench" / ".work"
DEPTH = 1000  # results asked for (cairn's maximum limit); documents kept after collapsing
LOCOMO_DEPTH = 200  # recall is measured to 50 turns; 200 keeps offline fusion honest and cheap
IR_MEASURES = ("nDCG@10", "R@5", "R@10", "MRR@10", "MAP", "R@100", "P@10")
LOCOMO_MEASURES = tuple(f"R@{k}" for k in eval_locomo.CUTOFFS)
#: Measures of the paired bootstrap (issue 17: hybrid must not fall below bm25 on these).
PAIRED_IR = ("nDCG@10", "R@5", "MRR@10", "R@10")
PAIRED_LOCOMO = ("R@5", "R@10", "MRR@10")
#: Modes compared pairwise, (mode, baseline), when both ran.
PAIRS = (("hybrid", "bm25"), ("hybrid-fast", "bm25"), ("hybrid-fast", "hybrid"), ("vector", "bm25"))
RESAMPLES, SEED = 1000, 17
#: LoCoMo conversations tuned on (the others are the test split); IR sets split queries
#: alternately in their file order (tune = 1st, 3rd, 5th, ... judged query).
LOCOMO_TUNE_CONVERSATIONS = 3

Ranking = list[tuple[str, float]]  # document ids, best first, with the mode's score
Run = dict[str, Ranking]  # query id -> ranking


# ------------------------------------------------------------------------- collections


@dataclass(frozen=True, slots=True)
class Check:
    """A target: ``mode``'s ``measure`` ≥ ``minimum``, and/or ≥ BM25's + ``over_bm25``."""

    mode: str
    measure: str
    minimum: float | None = None
    over_bm25: float | None = None

    def describe(self) -> str:
        parts = []
        if self.minimum is not None:
            parts.append(f"≥ {self.minimum:g}")
        if self.over_bm25 is not None:
            parts.append(f"≥ bm25 + {self.over_bm25:g}" if self.over_bm25 else "≥ bm25")
        return f"{self.mode} {self.measure} " + " and ".join(parts)

    def evaluate(self, metrics: Mapping[str, Mapping[str, float]]) -> tuple[float, bool] | None:
        """(value, passed), or None when a needed mode did not run."""
        if self.mode not in metrics or (self.over_bm25 is not None and "bm25" not in metrics):
            return None
        value = metrics[self.mode][self.measure]
        ok = self.minimum is None or value >= self.minimum - 1e-12
        if self.over_bm25 is not None:
            ok = ok and value >= metrics["bm25"][self.measure] + self.over_bm25 - 1e-12
        return value, ok


@dataclass(slots=True)
class EvalCollection:
    """Documents, queries and judgments of one test collection, ready to write and score."""

    name: str
    files: dict[str, dict[str, str]]  # cairn collection -> file name -> text
    queries: dict[str, str]
    query_part: dict[str, str]  # query id -> cairn collection it searches
    measures: tuple[str, ...]
    primary: str
    checks: list[Check]
    reference: str
    notes: list[str] = field(default_factory=list)
    qrels: dict[str, dict[str, int]] = field(default_factory=dict)  # ir collections
    docs: dict[str, tuple[str, str]] = field(default_factory=dict)  # for fts5-doc
    questions: list[eval_locomo.Question] = field(default_factory=list)  # locomo
    doc_key: Callable[[str], str] = lambda stem: stem
    depth: int = DEPTH  # results asked of every mode per query
    sequence: bool = False  # cairn collections declared a sequence (numbered turn files)
    work: str = ""  # folder under bench/.work shared by sets of one corpus (default: name)
    index: str = ""  # the index in that folder's home (default: name)
    nested: bool = False  # documents in sub-folders: the id is the path below the collection
    held_out: bool = False  # a test set only: every query is test, whatever --tune says
    tuning: bool = False  # a tuning set only: every query is tune (unless --tune names others)

    @property
    def folder(self) -> str:
        return self.work or self.name

    @property
    def index_name(self) -> str:
        return self.index or self.name

    def key_of(self, uri: str) -> str:
        """Document id of a result URI (``cairn://<collection>/<path>``): ``doc_key`` of the
        file stem, or for a nested collection the path below the collection without suffix
        (tldr has pages of one name on several platforms: ``linux/ip``, ``osx/ip``)."""
        if not self.nested:
            return self.doc_key(stem_of(uri))
        path = unquote(uri).split("://", 1)[-1].partition("/")[2]
        return path.rsplit(".", 1)[0]

    @property
    def doc_count(self) -> int:
        return sum(len(f) for f in self.files.values())

    def score(self, run: Mapping[str, Ranking]) -> dict[str, float]:
        if self.questions:
            return eval_locomo.score_locomo(self.questions, ids(run))["all"]
        return score_ir(self.qrels, run)

    def per_query(self, run: Mapping[str, Ranking]) -> dict[str, dict[str, float]]:
        """Measure -> query id -> value, over every judged query (missing runs score 0)."""
        if self.questions:
            ranked = ids(run)
            out: dict[str, dict[str, float]] = {m: {} for m in PAIRED_LOCOMO}
            for q in self.questions:
                docs = ranked.get(q.qid, [])
                out["R@5"][q.qid] = 100 * eval_locomo.recall(q.evidence, docs, 5)
                out["R@10"][q.qid] = 100 * eval_locomo.recall(q.evidence, docs, 10)
                first = next((i for i, d in enumerate(docs[:10], 1) if d in q.evidence), None)
                out["MRR@10"][q.qid] = 1.0 if not q.evidence else (1.0 / first if first else 0.0)
            return out
        return score_ir_per_query(self.qrels, run)

    def split(self, tune: Mapping[str, int | None] | None = None) -> dict[str, str]:
        """Query id -> ``tune`` | ``test``. Default: LoCoMo by conversation (the first
        :data:`LOCOMO_TUNE_CONVERSATIONS`), other sets alternate judged queries. With
        ``tune`` (collection -> None for all its queries, or N for LoCoMo's first N
        conversations; see :func:`parse_tune`) a named collection tunes and every other one
        is test only."""
        judged = ([q.qid for q in self.questions] if self.questions else
                  [q for q, j in self.qrels.items() if any(r > 0 for r in j.values())])
        if self.held_out or (tune is not None and self.name not in tune):
            return dict.fromkeys(judged, "test")
        if self.tuning:
            return dict.fromkeys(judged, "tune")
        if self.questions:
            count = tune.get(self.name) if tune is not None else LOCOMO_TUNE_CONVERSATIONS
            conversations = list(dict.fromkeys(q.conversation for q in self.questions))
            chosen = set(conversations[:count] if count is not None else conversations)
            return {q.qid: "tune" if q.conversation in chosen else "test" for q in self.questions}
        if tune is not None:
            return dict.fromkeys(judged, "tune")
        return {q: "tune" if i % 2 == 0 else "test" for i, q in enumerate(judged)}

    def breakdown(self, run: Mapping[str, Ranking]) -> dict[str, dict[str, float]]:
        return eval_locomo.score_locomo(self.questions, ids(run)) if self.questions else {}


def parse_tune(specs: Sequence[str] | None) -> dict[str, int | None] | None:
    """``["cranfield", "locomo:2"]`` -> ``{"cranfield": None, "locomo": 2}`` (None: no
    named split, the default alternate/conversation split)."""
    if not specs:
        return None
    out: dict[str, int | None] = {}
    for spec in specs:
        name, _, count = spec.partition(":")
        out[name] = int(count) if count else None
    return out


def ids(run: Mapping[str, Ranking]) -> dict[str, list[str]]:
    return {qid: [d for d, _ in ranking] for qid, ranking in run.items()}


def smart_records(path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """Records of a SMART-format file (``.I id`` then ``.T/.A/.B/.W`` fields)."""
    import re

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


def ir_collection(
    name: str, docs: dict[str, tuple[str, str]], queries: dict[str, str],
    qrels: dict[str, dict[str, int]], checks: list[Check], reference: str, suffix: str,
    notes: list[str] | None = None,
) -> EvalCollection:
    """One cairn collection holding one file per document; a title becomes ``# heading``."""
    files = {
        f"{doc_id}{suffix}": f"# {title}\n\n{body}\n" if title and suffix == ".md" else f"{body}\n"
        for doc_id, (title, body) in docs.items()
    }
    judged = {q: text for q, text in queries.items() if q in qrels}
    primary = checks[0].measure
    return EvalCollection(
        name, {name: files}, judged, dict.fromkeys(judged, name), IR_MEASURES, primary, checks,
        reference, notes or [], qrels=qrels, docs=docs,
    )


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
    checks = [
        Check("bm25", "nDCG@10", minimum=0.32),
        Check("hybrid", "nDCG@10", minimum=0.35, over_bm25=0.02),
    ]
    return ir_collection(
        "nfcorpus", docs, queries, qrels, checks,
        "BM25 nDCG@10 0.3218 (Pyserini BEIR); 0.3345, R@100 0.273 (bm25s on these files)", ".txt",
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
    checks = [
        Check("bm25", "MAP", minimum=0.30),
        Check("hybrid", "MAP", over_bm25=0.0),
        Check("hybrid", "nDCG@10", over_bm25=0.0),
    ]
    return ir_collection(
        "cranfield", docs, queries, qrels, checks,
        "BM25 MAP 0.306, nDCG@10 0.385 (independent run)", ".md" if titles else ".txt",
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
    checks = [
        Check("bm25", "MAP", minimum=0.50),
        Check("hybrid", "MAP", over_bm25=0.0),
        Check("hybrid", "nDCG@10", over_bm25=0.0),
    ]
    return ir_collection(
        "medline", docs, queries, qrels, checks,
        "BM25 MAP 0.537, nDCG@10 0.699 (independent run)", ".txt",
    )


def load_locomo(root: Path, *, style: str = "full", sequence: bool = True) -> EvalCollection:
    data = eval_locomo.load_locomo(root / "locomo-dev.json", style=style)
    files = {
        conv: {eval_locomo.file_name(dia): text for dia, text in turns.items()}
        for conv, turns in data.turns.items()
    }
    return EvalCollection(
        "locomo", files, {q.qid: q.text for q in data.questions},
        {q.qid: q.conversation for q in data.questions}, LOCOMO_MEASURES, "R@10",
        [Check("hybrid", "R@5", minimum=60.0), Check("hybrid", "R@10", minimum=72.0)],
        "paper, 10 conversations: DRAGON R@5/10/25/50 56.7/66.2/76.7/82.7; "
        "BM25 48.3/57.1/68.0/73.6",
        [*data.notes, f"turn documents: {style}",
         "each conversation is a cairn collection declared a sequence (`collection add --sequence`): "
         "turn files D<session>-<n>.md follow one another" if sequence
         else "collections NOT declared a sequence (--no-sequence experiment)"],
        questions=data.questions, doc_key=eval_locomo.dia_id_of, depth=LOCOMO_DEPTH, sequence=sequence,
    )


def load_tldr(kind: Literal["summary", "example"], archive: Path = TLDR, *, sample: str = "") -> EvalCollection:
    """``tldr-summary`` / ``tldr-example`` (:mod:`bench.tldr_queries`): 300 known-item
    queries over the 7,425 English tldr pages, one cairn collection ``tldr`` (pages kept in
    their platform folders) in ``bench/.work/tldr``, shared by every set. Held out: every
    query is test (issue 17's fresh set, never used to tune anything). ``sample``: another
    example sample of ``tldr_queries.SAMPLES`` (``example-tune``: a tuning split, every
    query is tune; ``example-test2`` ... ``example-test7``: held out), pages disjoint from the samples before it."""
    from bench import tldr_queries

    pages = tldr_queries.read_pages(archive)
    items = tldr_queries.sample(pages, sample) if sample else tldr_queries.build(pages, kind)
    queries = {item.qid: item.text for item in items}
    name = f"tldr-{sample or kind}"
    return EvalCollection(
        name, {"tldr": pages}, queries, dict.fromkeys(queries, "tldr"), IR_MEASURES, "nDCG@10", [],
        "tldr-pages (CC-BY 4.0), English pages; no published reference",
        [f"{len(items)} {kind} queries, one relevant page each (bench/tldr_queries.py{', ' + sample if sample else ''})"],
        qrels={item.qid: {item.page: 1} for item in items}, work="tldr", index="tldr", nested=True,
        held_out=not name.endswith("-tune"), tuning=name.endswith("-tune"),
    )


def load_cjk(lang: str, split: Literal["tune", "test"] = "test") -> EvalCollection:
    """The CJK known-item set's pages of one language and split (``bench/cjk``, see
    :mod:`bench.eval_cjk`: pages, not queries, are split) as an IR set: the queries of those
    pages, the page that answers each as the one relevant document; every query is on the
    set's own side (``tune`` or held-out ``test``). All three languages' pages are the
    collections ``cjk-zh``, ``cjk-ja``, ``cjk-ko`` of the default index in ``bench/.work/cjk``
    (eval_cjk's); each query searches its own language's collection."""
    from bench import eval_cjk

    chosen = [q for q in eval_cjk.load_queries() if q.lang == lang and q.split == split]
    files = {f"cjk-{code}": {p.name: p.read_text(encoding="utf-8") for p in sorted((eval_cjk.SET / code).glob("*.md"))}
             for code in eval_cjk.LANGS}
    return EvalCollection(
        f"cjk-{lang}-{split}", files, {q.qid: q.text for q in chosen}, {q.qid: f"cjk-{lang}" for q in chosen},
        IR_MEASURES, "MRR@10", [], "bench/cjk (this project's set)", [f"{len(chosen)} {split}-page queries"],
        qrels={q.qid: {q.target.rsplit("/", 1)[-1].removesuffix(".md"): 1} for q in chosen},
        work="cjk", index="default", held_out=split == "test", tuning=split == "tune",
    )


LOADERS: dict[str, Callable[[argparse.Namespace], EvalCollection]] = {
    "nfcorpus": lambda a: load_nfcorpus(EVAL / "nfcorpus"),
    "cranfield": lambda a: load_cranfield(EVAL / "cranfield", titles=not a.no_titles),
    "medline": lambda a: load_medline(EVAL / "medline"),
    "locomo": lambda a: load_locomo(EVAL / "locomo", style=a.turn, sequence=not a.no_sequence),
    "tldr-summary": lambda a: load_tldr("summary"),
    "tldr-example": lambda a: load_tldr("example"),
    "tldr-example-tune": lambda a: load_tldr("example", sample="example-tune"),
    "tldr-example-test2": lambda a: load_tldr("example", sample="example-test2"),
    "tldr-example-test3": lambda a: load_tldr("example", sample="example-test3"),
    "tldr-example-test4": lambda a: load_tldr("example", sample="example-test4"),
    "tldr-example-test5": lambda a: load_tldr("example", sample="example-test5"),
    "tldr-example-test6": lambda a: load_tldr("example", sample="example-test6"),
    "tldr-example-test7": lambda a: load_tldr("example", sample="example-test7"),
    **{f"cjk-{lang}-{split}": (lambda a, lang=lang, split=split: load_cjk(lang, split))
       for lang in ("zh", "ja", "ko") for split in ("tune", "test")},
}
#: The collections a plain run evaluates (and whose full run updates RESULTS.md).
DEFAULT_COLLECTIONS = ("nfcorpus", "cranfield", "medline", "locomo")


def sync_files(files: Mapping[str, str], folder: Path) -> int:
    """Make ``folder`` hold exactly ``files`` (names may hold sub-folders: ``linux/ip.md``);
    only changed files are written (so a reused index sees them unchanged). Returns how many
    were written or removed."""
    folder.mkdir(parents=True, exist_ok=True)
    changed = 0
    for path in [p for p in folder.rglob("*") if p.is_file()]:
        if path.relative_to(folder).as_posix() not in files:
            path.unlink()
            changed += 1
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed += 1
    return changed


def stem_of(uri: str) -> str:
    """``cairn://<collection>/<name>.<suffix>`` -> ``<name>``."""
    name = unquote(uri.rsplit("/", 1)[-1])
    return name.rsplit(".", 1)[0]


# ------------------------------------------------------------------------------- modes


class Searcher:
    """One mode's ranked documents for a query, over one indexed collection."""

    needs_vectors = False

    def __init__(self, ws: Any, collection: EvalCollection) -> None:
        self.ws = ws
        self.collection = collection
        self.fallbacks = 0  # queries where cairn did not run the asked-for mode

    def ranked(self, query: str, part: str) -> Ranking:  # pragma: no cover - interface
        raise NotImplementedError

    def collapse(self, results: Sequence[Any]) -> Ranking:
        """Documents in order of their first (best-ranked) passage, with that passage's score."""
        seen: dict[str, float] = {}
        for r in results:
            seen.setdefault(self.collection.key_of(r.uri), float(r.score))
        return list(seen.items())


class CairnBM25(Searcher):
    def ranked(self, query: str, part: str) -> Ranking:
        return self.collapse(self.ws.search(query, limit=self.collection.depth, collections=[part]).results)


class CairnVector(Searcher):
    needs_vectors = True

    def ranked(self, query: str, part: str) -> Ranking:
        response = self.ws.vsearch(query, limit=self.collection.depth, collections=[part])
        self.fallbacks += response.meta.mode != "vector"
        return self.collapse(response.results)


class CairnHybrid(Searcher):
    needs_vectors = True
    query_mode = "default"

    def ranked(self, query: str, part: str) -> Ranking:
        response = self.ws.query(query, limit=self.collection.depth, mode=self.query_mode, collections=[part])
        self.fallbacks += response.meta.mode != "hybrid"
        return self.collapse(response.results)


class CairnHybridFast(CairnHybrid):
    query_mode = "fast"


class CairnHybridThorough(CairnHybrid):
    query_mode = "thorough"


class BareFTS5Documents(Searcher):
    """Reference: whole documents in a bare FTS5 table (cairn's tokenizer, one column),
    queried with cairn's own compiled query; isolates chunking, fields and weights."""

    def __init__(self, ws: Any, collection: EvalCollection) -> None:
        super().__init__(ws, collection)
        if not collection.docs:
            raise SystemExit(f"fts5-doc: not available for {collection.name}")
        from cairn.store.sqlite.fts import compile_query

        self.compile_query = compile_query
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(
            "CREATE VIRTUAL TABLE t USING fts5(doc_id UNINDEXED, body,"
            " tokenize='porter unicode61 remove_diacritics 2')"
        )
        self.conn.executemany(
            "INSERT INTO t(doc_id, body) VALUES (?, ?)",
            [(d, f"{title}\n\n{body}" if title else body) for d, (title, body) in collection.docs.items()],
        )

    def ranked(self, query: str, part: str) -> Ranking:
        match = self.compile_query(query).main
        if not match:
            return []
        rows = self.conn.execute(
            "SELECT doc_id, -rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?", (match, DEPTH)
        )
        return [(row[0], float(row[1])) for row in rows]


MODES: dict[str, type[Searcher]] = {
    "bm25": CairnBM25,
    "vector": CairnVector,
    "hybrid": CairnHybrid,
    "hybrid-fast": CairnHybridFast,
    "hybrid-thorough": CairnHybridThorough,
    "fts5-doc": BareFTS5Documents,
}


# ----------------------------------------------------------------------------- scoring


_IR = {"nDCG@10": ("nDCG", 10), "R@5": ("R", 5), "MRR@10": ("RR", 10), "MAP": ("AP", None),
       "R@100": ("R", 100), "P@10": ("P", 10), "R@10": ("R", 10)}


def score_ir_per_query(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Ranking]) -> dict[str, dict[str, float]]:
    """Measure -> query id -> value, for every query with a relevant judgment (0 when the
    run has nothing for it). RR@10 counts a document relevant at grade >= 1."""
    import ir_measures

    measures = {}
    for name, (measure, cutoff) in _IR.items():
        base = getattr(ir_measures, measure)
        measures[name] = base @ cutoff if cutoff else base
    judgments = [
        ir_measures.Qrel(qid, doc_id, rel) for qid, judged in qrels.items() for doc_id, rel in judged.items()
    ]
    scored = [
        ir_measures.ScoredDoc(qid, doc_id, float(len(ranking) - rank))
        for qid, ranking in run.items()
        for rank, (doc_id, _) in enumerate(ranking)
    ]
    judged_qids = [q for q, j in qrels.items() if any(r > 0 for r in j.values())]
    per_query: dict[str, dict[str, float]] = {name: dict.fromkeys(judged_qids, 0.0) for name in measures}
    names = {str(m): name for name, m in measures.items()}
    for metric in ir_measures.iter_calc(list(measures.values()), judgments, scored):
        if metric.query_id in per_query[names[str(metric.measure)]]:
            per_query[names[str(metric.measure)]][metric.query_id] = metric.value
    return per_query


def score_ir(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Ranking]) -> dict[str, float]:
    """Mean of each measure over every judged query (missing or empty runs score 0)."""
    per_query = score_ir_per_query(qrels, run)
    return {name: sum(values.values()) / max(len(values), 1) for name, values in per_query.items()}


def paired_bootstrap(a: Sequence[float], b: Sequence[float], *, resamples: int = RESAMPLES,
                     seed: int = SEED) -> tuple[float, float, float]:
    """Mean of ``a - b`` (paired by query) and its 95% percentile bootstrap interval."""
    import random

    diffs = [x - y for x, y in zip(a, b, strict=True)]
    if not diffs:
        return 0.0, 0.0, 0.0
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return sum(diffs) / n, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def paired_table(outcomes: Sequence[Outcome], modes: Sequence[str],
                 tune: Mapping[str, int | None] | None = None) -> list[str]:
    """Per collection and split: each mode's mean, and mode − baseline with its 95% CI."""
    lines = ["| collection | split | n | measure | " + " | ".join(modes) + " | "
             + " | ".join(f"{a} − {b} [95% CI]" for a, b in PAIRS if a in modes and b in modes) + " |"]
    pairs = [(a, b) for a, b in PAIRS if a in modes and b in modes]
    lines.append("| --- | --- | ---: | --- | " + " | ".join(["---:"] * (len(modes) + len(pairs))) + " |")
    for o in outcomes:
        locomo = bool(o.collection.questions)
        measures = PAIRED_LOCOMO if locomo else PAIRED_IR
        values = {mode: o.collection.per_query(o.runs[mode]) for mode in modes}
        split = o.collection.split(tune)
        for part in ("all", "tune", "test"):
            qids = [q for q in split if part == "all" or split[q] == part]
            if not qids or (part != "all" and len(qids) == len(split)):
                continue  # a set wholly on one side: its "all" row says it
            for measure in measures:
                locomo = bool(o.collection.questions) and measure != "MRR@10"
                vec = {mode: [values[mode][measure][q] for q in qids] for mode in modes}
                cells = [fmt_paired(sum(vec[mode]) / max(len(qids), 1), locomo) for mode in modes]
                for a, b in pairs:
                    mean, lo, hi = paired_bootstrap(vec[a], vec[b])
                    flag = " ▼" if hi < 0 else (" ▲" if lo > 0 else "")
                    cells.append(f"{fmt_delta(mean, locomo)} [{fmt_delta(lo, locomo)}, {fmt_delta(hi, locomo)}]{flag}")
                lines.append(f"| {o.collection.name} | {part} | {len(qids)} | {measure} | " + " | ".join(cells) + " |")
    return lines


def fmt_paired(value: float, locomo: bool) -> str:
    """LoCoMo recall is x100 (one decimal); everything else four decimals."""
    return f"{value:.1f}" if locomo else f"{value:.4f}"


def fmt_delta(value: float, locomo: bool) -> str:
    return f"{value:+.1f}" if locomo else f"{value:+.4f}"


# ---------------------------------------------------------------------- offline fusion


@dataclass(frozen=True, slots=True)
class Fusion:
    """One way of fusing a bm25 and a vector document ranking."""

    method: str  # "rrf" | "minmax" | "zscore"
    k: float = 60.0  # rrf
    w_vector: float = 1.0  # rrf weight of the vector list (bm25 weighs 1)
    alpha: float = 0.5  # convex: weight of the normalised vector score

    @property
    def label(self) -> str:
        if self.method == "rrf":
            return f"rrf k={self.k:g} w_vec={self.w_vector:g}"
        return f"{self.method} α_vec={self.alpha:g}"

    def fuse(self, bm25: Ranking, vector: Ranking) -> Ranking:
        scores: dict[str, float] = {}
        if self.method == "rrf":
            for weight, ranking in ((1.0, bm25), (self.w_vector, vector)):
                for rank, (doc, _) in enumerate(ranking, 1):
                    scores[doc] = scores.get(doc, 0.0) + weight / (self.k + rank)
        else:
            nb, nv = normalise(bm25, self.method), normalise(vector, self.method)
            floor_b = min(nb.values(), default=0.0)
            floor_v = min(nv.values(), default=0.0)
            for doc in nb.keys() | nv.keys():
                scores[doc] = ((1 - self.alpha) * nb.get(doc, floor_b)
                               + self.alpha * nv.get(doc, floor_v))
        best = {doc: i for i, (doc, _) in enumerate(bm25)}
        order = sorted(scores, key=lambda d: (-scores[d], best.get(d, math.inf), d))
        return [(d, scores[d]) for d in order[:DEPTH]]


def normalise(ranking: Ranking, method: str) -> dict[str, float]:
    """Min-max to [0, 1], or z-score; a document missing from the list gets the list's floor."""
    if not ranking:
        return {}
    values = [s for _, s in ranking]
    if method == "minmax":
        lo, hi = min(values), max(values)
        span = hi - lo or 1.0
        return {d: (s - lo) / span for d, s in ranking}
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) or 1.0
    return {d: (s - mean) / sd for d, s in ranking}


def fusion_grid() -> list[Fusion]:
    grid = [Fusion("rrf", k=k, w_vector=w) for k in (5, 10, 20, 30, 60, 100)
            for w in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)]
    alphas = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
    grid += [Fusion("minmax", alpha=a) for a in alphas]
    grid += [Fusion("zscore", alpha=a) for a in alphas]
    return grid


@dataclass(slots=True)
class FusionRow:
    fusion: Fusion
    metrics: dict[str, dict[str, float]]  # collection -> measure -> value
    checks: dict[str, list[tuple[Check, float, bool]]]

    @property
    def passes(self) -> int:
        return sum(ok for rows in self.checks.values() for _, _, ok in rows)

    @property
    def total(self) -> int:
        return sum(len(rows) for rows in self.checks.values())


def offline_fusion(outcomes: Sequence[Outcome], grid: Sequence[Fusion]) -> list[FusionRow]:
    rows = []
    usable = [o for o in outcomes if "bm25" in o.runs and "vector" in o.runs]
    for fusion in grid:
        metrics: dict[str, dict[str, float]] = {}
        checks: dict[str, list[tuple[Check, float, bool]]] = {}
        for o in usable:
            bm25, vector = o.runs["bm25"], o.runs["vector"]
            fused = {q: fusion.fuse(bm25.get(q, []), vector.get(q, [])) for q in o.collection.queries}
            value = o.collection.score(fused)
            metrics[o.collection.name] = value
            results = []
            for check in o.collection.checks:
                if check.mode != "hybrid":
                    continue
                got = check.evaluate({"bm25": o.metrics["bm25"], "hybrid": value})
                if got is not None:
                    results.append((check, *got))
            checks[o.collection.name] = results
        rows.append(FusionRow(fusion, metrics, checks))
        print(f"  fusion {fusion.label}: {rows[-1].passes}/{rows[-1].total} checks", file=sys.stderr)
    return rows


# --------------------------------------------------------------------------------- run


@dataclass(slots=True)
class Outcome:
    collection: EvalCollection
    passages: int
    index_s: float
    embed: dict[str, float]  # seconds, passages (as measured when they were embedded)
    embedded_now: int
    runs: dict[str, Run] = field(default_factory=dict)
    metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    search_s: dict[str, float] = field(default_factory=dict)
    empty: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    fallbacks: dict[str, int] = field(default_factory=dict)


def work_folder(collection: EvalCollection, args: argparse.Namespace) -> Path:
    tags = []
    if args.chunk_max_tokens is not None:
        tags.append(f"chunk{args.chunk_max_tokens}")
    if collection.name == "cranfield" and args.no_titles:
        tags.append("notitles")
    if collection.name == "locomo" and args.turn != "full":
        tags.append(f"turn-{args.turn}")
    return args.work / "-".join([collection.folder, *tags])


def prepare(collection: EvalCollection, base: Path, args: argparse.Namespace, *, embed: bool) -> tuple[Any, Outcome]:
    """Write, index and (if asked) embed one collection in its persistent work folder."""
    import cairn

    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    if args.chunk_max_tokens is not None:
        (home / "config.toml").write_text(f"[index]\nchunk_max_tokens = {args.chunk_max_tokens}\n")
    for part, files in collection.files.items():
        changed = sync_files(files, base / "docs" / part)
        if changed:
            print(f"  {collection.name}/{part}: {changed} files written", file=sys.stderr)
    reroot(home / "indexes" / f"{collection.index_name}.sqlite", base / "docs")
    ws = cairn.open(home=home, index=collection.index_name)
    existing = {c.name: c for c in ws.list_collections().collections}
    for part in list(existing):
        if part in collection.files and Path(existing[part].root).resolve() != (base / "docs" / part).resolve():
            # The work folder was another checkout's: point the collection here (vectors are
            # keyed by text, so nothing is embedded again).
            ws.remove_collection(part)
            del existing[part]
    for part in collection.files:
        if part not in existing:
            ws.add_collection(base / "docs" / part, name=part, sequence=collection.sequence)
        elif existing[part].sequence != collection.sequence:
            ws.configure_collection(part, sequence=collection.sequence)
    started = time.perf_counter()
    summary = ws.index()
    index_s = time.perf_counter() - started
    if summary.counts.failed:
        raise SystemExit(f"{collection.name}: {summary.counts.failed} files failed: {summary.errors[:3]}")
    passages = sum(c.passages for c in ws.list_collections().collections)
    record = base / "embed.json"
    info: dict[str, float] = json.loads(record.read_text()) if record.exists() else {"seconds": 0.0, "passages": 0}
    embedded_now = 0
    if embed:
        started = time.perf_counter()
        result = ws.embed()
        seconds = time.perf_counter() - started
        embedded_now = result.embedded
        if result.embedded:
            info = {"seconds": info["seconds"] + seconds, "passages": info["passages"] + result.embedded,
                    "tokens": info.get("tokens", 0) + result.tokens}
            record.write_text(json.dumps(info))
        print(f"  {collection.name}: embedded {result.embedded} passages in {seconds:.1f} s"
              f" ({result.pending_after} pending); all-time embedding {info['passages']:.0f} passages"
              f" in {info['seconds']:.1f} s", file=sys.stderr)
    return ws, Outcome(collection, passages, index_s, info, embedded_now)


def reroot(index_file: Path, docs: Path) -> list[str]:
    """Point a stored index's collections at ``docs/<collection>`` when their recorded
    folder is elsewhere (the work folder was copied, or built in a worktree since deleted).

    cairn records a collection's folder as an absolute path and has no "move" operation, so
    the bench rewrites the one column itself (``collections.root``, the bench's own work
    index, never a user's). Documents are stored by path relative to that folder, so the
    following ``ws.index()`` finds them unchanged and nothing is re-embedded. Returns the
    collections re-rooted."""
    if not index_file.exists():
        return []
    moved = []
    conn = sqlite3.connect(index_file)
    try:
        with conn:
            for name, root in conn.execute("SELECT name, root FROM collections").fetchall():
                wanted = str((docs / name).resolve())
                if root != wanted and (docs / name).is_dir():
                    conn.execute("UPDATE collections SET root = ? WHERE name = ?", (wanted, name))
                    moved.append(name)
    finally:
        conn.close()
    if moved:
        print(f"  {index_file.stem}: re-rooted {', '.join(moved)} under {docs}", file=sys.stderr)
    return moved


def load_runs(collection: EvalCollection, base: Path, modes: Sequence[str]) -> Outcome:
    """An outcome rebuilt from the rankings a previous run saved (no timings, no cairn)."""
    saved = json.loads((base / "runs.json").read_text())
    record = base / "embed.json"
    outcome = Outcome(collection, 0, 0.0, json.loads(record.read_text()) if record.exists() else {}, 0)
    for mode in modes:
        run = {q: [(d, float(s)) for d, s in ranking] for q, ranking in saved[mode].items()}
        outcome.runs[mode], outcome.metrics[mode] = run, collection.score(run)
        outcome.search_s[mode] = 0.0
        outcome.empty[mode] = sum(not r for r in run.values())
        outcome.failed[mode] = outcome.fallbacks[mode] = 0
    return outcome


def run_modes(ws: Any, outcome: Outcome, modes: Sequence[str]) -> None:
    from cairn.errors import CairnError

    collection = outcome.collection
    for mode in modes:
        searcher = MODES[mode](ws, collection)
        run: Run = {}
        empty = failed = 0
        started = time.perf_counter()
        for qid, text in collection.queries.items():
            try:
                run[qid] = searcher.ranked(text, collection.query_part[qid])
            except CairnError as exc:
                failed += 1
                run[qid] = []
                print(f"  {collection.name} query {qid} failed: {exc}", file=sys.stderr)
            empty += not run[qid]
        outcome.search_s[mode] = time.perf_counter() - started
        outcome.runs[mode] = run
        outcome.metrics[mode] = collection.score(run)
        outcome.empty[mode], outcome.failed[mode] = empty, failed
        outcome.fallbacks[mode] = searcher.fallbacks
        print(f"  {collection.name} {mode}: "
              + ", ".join(f"{k} {v:.4f}" for k, v in outcome.metrics[mode].items() if k != "n")
              + f" ({outcome.search_s[mode]:.1f} s)", file=sys.stderr)


# ------------------------------------------------------------------------------ tables


def fmt(value: float, measure: str, locomo: bool = True) -> str:
    percent = measure == "n" or (locomo and measure.startswith("R@") and measure != "R@100")  # LoCoMo: ×100
    return f"{value:.1f}" if percent else f"{value:.4f}"


def delta(value: float, base: float, locomo: bool) -> str:
    return f"{value - base:+.1f}" if locomo else f"{value - base:+.4f}"


def quality_table(outcomes: Sequence[Outcome], modes: Sequence[str], locomo: bool) -> list[str]:
    measures = LOCOMO_MEASURES if locomo else IR_MEASURES
    chosen = [o for o in outcomes if (o.collection.name == "locomo") == locomo]
    if not chosen:
        return []
    has_bm25 = "bm25" in modes
    head = " | ".join(measures)
    deltas = " | ".join(f"Δ {m}" for m in measures) if has_bm25 else ""
    lines = [
        f"| collection | mode | {head} |" + (f" {deltas} |" if has_bm25 else "") + " search time |",
        "| --- | --- | " + " | ".join(["---:"] * len(measures) * (2 if has_bm25 else 1)) + " | ---: |",
    ]
    for o in chosen:
        for mode in modes:
            m = o.metrics[mode]
            row = f"| {o.collection.name} | {mode} | " + " | ".join(fmt(m[x], x, locomo) for x in measures) + " |"
            if has_bm25:
                b = o.metrics["bm25"]
                row += " " + " | ".join(
                    "—" if mode == "bm25" else delta(m[x], b[x], locomo) for x in measures
                ) + " |"
            lines.append(row + f" {o.search_s[mode]:.1f} s |")
    return lines


def checks_table(outcomes: Sequence[Outcome]) -> list[str]:
    lines = ["| collection | target | value | bm25 | result |", "| --- | --- | ---: | ---: | --- |"]
    for o in outcomes:
        for check in o.collection.checks:
            got = check.evaluate(o.metrics)
            if got is None:
                continue
            value, ok = got
            base = o.metrics.get("bm25", {}).get(check.measure)
            lines.append(
                f"| {o.collection.name} | {check.describe()} | {fmt(value, check.measure)} | "
                f"{'—' if base is None else fmt(base, check.measure)} | {'pass' if ok else '**FAIL**'} |"
            )
    return lines


def collections_table(outcomes: Sequence[Outcome], modes: Sequence[str]) -> list[str]:
    lines = [
        "| collection | documents | passages | queries | index time | embedding (all-time) | reference |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for o in outcomes:
        emb = o.embed
        embed = (f"{emb['passages']:.0f} passages in {emb['seconds']:.0f} s "
                 f"({emb['passages'] / max(emb['seconds'], 1e-9):.1f}/s)") if emb.get("passages") else "—"
        lines.append(
            f"| {o.collection.name} | {o.collection.doc_count} | {o.passages} | {len(o.collection.queries)} | "
            f"{o.index_s:.1f} s | {embed} | {o.collection.reference} |"
        )
    notes = []
    for o in outcomes:
        extra = [f"{mode}: {o.empty[mode]} queries returned nothing" for mode in modes if o.empty[mode]]
        extra += [f"{mode}: {o.failed[mode]} queries raised an error" for mode in modes if o.failed[mode]]
        extra += [f"{mode}: {o.fallbacks[mode]} queries fell back to BM25" for mode in modes if o.fallbacks[mode]]
        extra += o.collection.notes
        if extra:
            notes.append(f"{o.collection.name}: " + "; ".join(extra) + ".")
    return [*lines, "", *notes] if notes else lines


def locomo_category_table(outcome: Outcome, modes: Sequence[str]) -> list[str]:
    lines = [
        "| category | questions | mode | " + " | ".join(LOCOMO_MEASURES) + " |",
        "| --- | ---: | --- | " + " | ".join(["---:"] * len(LOCOMO_MEASURES)) + " |",
    ]
    tables = {mode: outcome.collection.breakdown(outcome.runs[mode]) for mode in modes}
    for group in tables[modes[0]]:
        for mode in modes:
            row = tables[mode][group]
            lines.append(f"| {group} | {row['n']:.0f} | {mode} | "
                         + " | ".join(f"{row[m]:.1f}" for m in LOCOMO_MEASURES) + " |")
    return lines


def fusion_table(rows: Sequence[FusionRow], outcomes: Sequence[Outcome], limit: int | None) -> list[str]:
    cols: list[tuple[str, str]] = []
    for o in outcomes:
        if o.collection.name in rows[0].metrics:
            wanted = ("R@5", "R@10") if o.collection.name == "locomo" else ("nDCG@10", "MAP")
            cols += [(o.collection.name, m) for m in wanted]
    lines = [
        "| fusion | " + " | ".join(f"{c} {m}" for c, m in cols) + " | targets met |",
        "| --- | " + " | ".join(["---:"] * len(cols)) + " | ---: |",
    ]
    by_name = {o.collection.name: o for o in outcomes}
    base = "| bm25 (reference) | " + " | ".join(fmt(by_name[c].metrics["bm25"][m], m) for c, m in cols) + " | — |"
    lines.append(base)
    ordered = sorted(rows, key=lambda r: (-r.passes, -mean_gain(r, by_name)))
    for row in ordered[:limit] if limit else ordered:
        lines.append(f"| {row.fusion.label} | " + " | ".join(fmt(row.metrics[c][m], m) for c, m in cols)
                     + f" | {row.passes}/{row.total} |")
    return lines


def mean_gain(row: FusionRow, by_name: Mapping[str, Outcome]) -> float:
    """Mean relative gain over BM25 of each collection's primary measure (tie-break)."""
    gains = []
    for name, metrics in row.metrics.items():
        primary = by_name[name].collection.primary
        base = by_name[name].metrics["bm25"][primary]
        gains.append((metrics[primary] - base) / max(base, 1e-9))
    return sum(gains) / max(len(gains), 1)


# -------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--modes", default="bm25,vector,hybrid",
                        help=f"comma-separated, from: {', '.join(MODES)} (default: bm25,vector,hybrid)")
    parser.add_argument("--collections", nargs="+", choices=list(LOADERS), default=list(DEFAULT_COLLECTIONS),
                        help=f"which collections to run (default: {' '.join(DEFAULT_COLLECTIONS)})")
    parser.add_argument("--prepare", action="store_true",
                        help="write, index and embed the collections only: no query is run")
    parser.add_argument("--reuse", action="store_true",
                        help="keep bench/.work from an earlier run (no re-indexing or re-embedding)")
    parser.add_argument("--work", type=Path, default=WORK, help="persistent work folder (default: bench/.work)")
    parser.add_argument("--fusion", choices=("auto", "off", "on"), default="auto",
                        help="offline fusion grid over the bm25 and vector runs (auto: when both ran)")
    parser.add_argument("--from-runs", action="store_true",
                        help="analysis only: rescore the rankings saved by the last run (runs.json), no cairn calls")
    parser.add_argument("--tune", nargs="+", metavar="SET[:N]",
                        help="named tuning split: these sets tune (locomo:N = its first N conversations), "
                             "the rest test (default: alternate queries; LoCoMo's first 3 conversations)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument("--chunk-max-tokens", type=int, default=None,
                        help="experiment: cairn's [index] chunk_max_tokens (default: cairn's own default)")
    parser.add_argument("--no-titles", action="store_true",
                        help="experiment: write Cranfield without the '# title' line (.W already repeats it)")
    parser.add_argument("--turn", choices=eval_locomo.TURN_STYLES, default="full",
                        help="LoCoMo turn documents: full (speaker, date, text, photo caption) or text only")
    parser.add_argument("--no-sequence", action="store_true",
                        help="experiment: LoCoMo collections not declared a sequence (no sequence context)")
    args = parser.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        parser.error(f"unknown mode(s) {unknown}; choose from {', '.join(MODES)}")
    if not EVAL.is_dir():
        raise SystemExit(f"evaluation collections not found at {EVAL}; need ../shared next to the repo")
    embed = any(MODES[m].needs_vectors for m in modes)

    outcomes: list[Outcome] = []
    for name in args.collections:
        collection = LOADERS[name](args)
        base = work_folder(collection, args)
        if not args.reuse and not args.from_runs and base.exists():
            shutil.rmtree(base)
        # The --no-sequence experiment keeps its rankings apart (locomo_sequence_grid.py reads them).
        runs_file = base / ("runs-no-sequence.json" if args.no_sequence and name == "locomo" else "runs.json")
        if args.from_runs:
            outcomes.append(load_runs(collection, base, modes))
            continue
        ws, outcome = prepare(collection, base, args, embed=embed or args.prepare)
        if args.prepare:
            ws.close()
            continue
        try:
            run_modes(ws, outcome, modes)
        finally:
            ws.close()
        outcomes.append(outcome)
        # Merge: a run of some modes keeps the other modes' rankings for --from-runs.
        saved = json.loads(runs_file.read_text()) if runs_file.exists() else {}
        runs_file.write_text(json.dumps({**saved, **{m: outcome.runs[m] for m in modes}}))

    if args.prepare:
        return 0
    fusion_rows: list[FusionRow] = []
    if args.fusion == "on" or (args.fusion == "auto" and {"bm25", "vector"} <= set(modes)):
        fusion_rows = offline_fusion(outcomes, fusion_grid())

    sections = report(outcomes, modes, fusion_rows, parse_tune(args.tune))
    if args.json:
        print(json.dumps([
            {
                "collection": o.collection.name, "documents": o.collection.doc_count, "passages": o.passages,
                "queries": len(o.collection.queries), "metrics": o.metrics,
                "breakdown": {m: o.collection.breakdown(o.runs[m]) for m in modes} if o.collection.questions else None,
                "checks": [
                    {"target": c.describe(), "value": got[0], "passed": got[1]}
                    for c in o.collection.checks if (got := c.evaluate(o.metrics)) is not None
                ],
                "index_s": o.index_s, "embedding": o.embed, "search_s": o.search_s,
                "empty": o.empty, "failed": o.failed, "fallbacks": o.fallbacks,
            }
            for o in outcomes
        ] + [{"fusion": r.fusion.label, "metrics": r.metrics, "passes": r.passes, "checks": r.total}
             for r in fusion_rows], indent=2))
    else:
        for title, body in sections:
            print(f"\n## {title}\n\n{body}")

    experiment = (
        args.chunk_max_tokens is not None or args.no_titles or args.turn != "full" or args.no_sequence
        or set(args.collections) != set(DEFAULT_COLLECTIONS)
    )
    if not args.no_write and not experiment and not args.from_runs:
        from bench.results_md import machine_note, stamp, update_section

        command = "python -m bench.eval_retrieval " + " ".join(argv if argv is not None else sys.argv[1:])
        header = f"Command: `{command.strip()}`  \nDate: {stamp()}  \nMachine: {machine_note()}\n\n"
        for title, body in sections:
            update_section(title, header + body)
        if modes != ["bm25"] and "bm25" in modes:
            # Keep the BM25-only section in step with this run instead of leaving it stale.
            for title, body in report(outcomes, ["bm25"], []):
                note = f"(BM25 rows of the run in 'Retrieval quality ({', '.join(modes)})'.)"
                update_section(title, f"{header}{note}\n\n{body}")
    return 0


def report(outcomes: Sequence[Outcome], modes: Sequence[str], fusion_rows: Sequence[FusionRow],
           tune: Mapping[str, int | None] | None = None) -> list[tuple[str, str]]:
    """``(RESULTS.md section title, Markdown body)`` pairs."""
    label = ", ".join(modes)
    body = quality_table(outcomes, modes, locomo=False)
    if body:
        body += ["", f"Modes: {label}. MAP = AP over the top {DEPTH} results collapsed to documents; "
                 "all measures averaged over every judged query. Δ = mode − bm25."]
    locomo = [o for o in outcomes if o.collection.name == "locomo"]
    if locomo:
        body += ["", "LoCoMo (turn recall ×100, the paper's metric; all questions):", "",
                 *quality_table(outcomes, modes, locomo=True), "",
                 "Per category:", "", *locomo_category_table(locomo[0], modes)]
    body += ["", "Targets:", "", *checks_table(outcomes), "", *collections_table(outcomes, modes), "",
             "Index time is this run's `ws.index()` (a no-op check when `--reuse` found the index up to "
             "date); embedding is the all-time `ws.embed()` time kept in `bench/.work/*/embed.json`, "
             "measured while the shared 2-core machine was heavily loaded (load average 8-15)."]
    sections = [(f"Retrieval quality ({label})", "\n".join(body))]
    if len(modes) > 1 and "bm25" in modes:
        paired = [
            "Per-query paired comparison on the same queries: mean of each mode, and mode − baseline "
            f"with a 95% percentile bootstrap interval ({RESAMPLES} resamples of the queries, seed {SEED}); "
            "▲ / ▼: the interval is above / below 0. " + (
                "Splits: NFCorpus, Cranfield and MEDLINE alternate "
                "their judged queries in file order (1st, 3rd, … = tune; 2nd, 4th, … = test); LoCoMo tunes on "
                f"its first {LOCOMO_TUNE_CONVERSATIONS} dev conversations and tests on the other two. "
                if tune is None else
                "Split (`--tune " + " ".join(f"{k}:{v}" if v else k for k, v in tune.items())
                + "`): the named sets tune (LoCoMo: its first N dev conversations), every other query is test. ")
            + "LoCoMo R@k ×100; MRR@10 = reciprocal rank of the first evidence turn in the top 10.",
            "", *paired_table(outcomes, modes, tune),
        ]
        sections.append(("Retrieval paired comparison (tune / test splits)", "\n".join(paired)))
    if modes == ["bm25"] or "bm25" not in modes:
        return sections
    if fusion_rows:
        by_name = {o.collection.name: o for o in outcomes}
        meeting = [r for r in fusion_rows if r.passes == r.total]
        lines = [
            "The bm25 and vector document rankings of the run above fused again offline (no "
            "re-querying): `rrf` = Σ w/(k + rank) with bm25 weight 1; `minmax` / `zscore` = "
            "(1 − α)·norm(bm25 score) + α·norm(cosine), normalised per query over each list's "
            f"top {DEPTH} documents (LoCoMo {LOCOMO_DEPTH}; a document missing from a list gets that "
            "list's minimum). These are fusion formulas alone: no feedback round and no sequence "
            "context, which cairn's hybrid adds. "
            "Targets are the hybrid targets above, checked on every collection with one setting.",
            "",
            f"{len(meeting)} of {len(fusion_rows)} settings meet every target. "
            "Best 15 by targets met, then mean relative gain over bm25 of each collection's primary measure:",
            "",
            *fusion_table(fusion_rows, outcomes, 15),
            "",
            "Reference points (cairn's current `rrf k=60 w_vec=1`, and neighbours):",
            "",
            *fusion_table([r for r in fusion_rows if r.fusion.method == "rrf" and r.fusion.w_vector == 1.0]
                          + [r for r in fusion_rows if r.fusion.method != "rrf" and r.fusion.alpha in (0.3, 0.5, 0.7)],
                          outcomes, None),
        ]
        del by_name
        sections.append(("Retrieval fusion variants (offline)", "\n".join(lines)))
    return sections


if __name__ == "__main__":
    sys.exit(main())
