"""CJK known-item retrieval: Chinese, Japanese and Korean queries typed as people type them.

    .venv/bin/python -m bench.eval_cjk                          # bm25, vector, hybrid, hybrid-fast
    .venv/bin/python -m bench.eval_cjk --modes bm25             # BM25 only, no model needed
    .venv/bin/python -m bench.eval_cjk --modes bm25 --segment bigram --json out.json
    .venv/bin/python -m bench.eval_cjk --modes bm25 --segment words   # jieba / fugashi / kiwipiepy

The set (``bench/cjk``, see its README): tldr-style command pages written in each language
(``bench/cjk/{zh,ja,ko}/*.md``) and ``bench/cjk/queries.tsv``, one known-item query a line
(``lang  qid  query  target  split``: the one page that answers it, and whether the page
belongs to the ``tune`` or the held-out ``test`` half; pages, not queries, are split).

The three folders are added as collections ``cjk-zh``, ``cjk-ja``, ``cjk-ko`` of an index in
``bench/.work/cjk/home`` (gitignored; ``--fresh`` wipes it) and indexed with ``ws.index()``;
when a vector or hybrid mode is asked for, ``ws.embed()`` embeds what is new (nothing on a
second run). Each query searches its own language's collection only:

* ``bm25``: ``ws.search``;  ``vector``: ``ws.vsearch``;
* ``hybrid``: ``ws.query`` (``mode="default"``);  ``hybrid-fast``: ``ws.query(mode="fast")``
  (a response whose ``meta.mode`` is not the asked-for one is counted as a fallback);
* ``rrf`` (an experiment, not cairn's fusion): the ``bm25`` and ``vector`` page rankings of
  this script (top 20 each) fused by reciprocal rank (``--rrf-k``, default 60; the vector
  side weighted by ``--rrf-vector-weight``, default 1, bm25's weight being 1); with
  ``--segment`` it shows what a hybrid could gain from a segmenting BM25 side.

Results are collapsed to pages (best passage first). Per query: RR@10, Success@1 and
Success@10 through ``ir-measures``, reported as MRR@10, hit@1 and hit@10 per language, mode
and subset (``all``, ``tune``, ``test``, and ``dash``: the queries with a ``-flag``), each with
a percentile bootstrap 95% CI (``--resamples`` over queries, fixed ``--seed``), and for every
mode other than bm25 a paired bootstrap CI of its difference from bm25 on the same queries.
A query that raises (cairn's query syntax rejects some pasted text) scores 0 and is counted.

``--segment`` rewrites each query before BM25 sees it (``bm25``, and the BM25 side of
``rrf``; ``vector`` and cairn's hybrids always get the query as typed, since cairn's query
cannot be rewritten for one side only), as an experiment in what the query side of CJK
search could do (the index is unchanged):

* ``none``: as typed;
* ``bigram``: each CJK run becomes its overlapping character bigrams, space-separated (so
  OR-ed, ranked by BM25, instead of one phrase that must match whole);
* ``words``: each CJK run is cut into words by jieba (zh), fugashi + unidic-lite (ja; content
  words only: particles, auxiliaries and symbols dropped) or kiwipiepy (ko; nouns, verb and
  adjective stems as they are written in the query, roots and foreign words), space-separated;
* ``script``: a no-package approach: ja runs are cut where the script changes and
  hiragana-only pieces (particles, okurigana) dropped; ko words lose a trailing particle
  from a short list; zh falls back to ``bigram``.

``--compare A.json B.json --modes bm25`` runs nothing: it prints the paired bootstrap CI of
B − A per language and subset from two ``--json`` outputs (e.g. two ``--segment`` choices).

``--undash`` also strips leading dashes from words (``--decompress`` -> ``decompress``), as
a look at what the ``-flag`` queries would score if pasted dashes were not exclusions.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SET = REPO / "bench" / "cjk"
WORK = REPO / "bench" / ".work" / "cjk"
LANGS = ("zh", "ja", "ko")
LIMIT = 20  # results asked for; pages are ranked to 10 after collapsing passages
CUT = 10
MODES = ("bm25", "vector", "hybrid", "hybrid-fast", "rrf")
DEFAULT_MODES = ("bm25", "vector", "hybrid", "hybrid-fast")
RRF_K = 60
MEASURES = (("MRR@10", "RR@10"), ("hit@1", "Success@1"), ("hit@10", "Success@10"))
SUBSETS = ("all", "tune", "test", "dash")
SEGMENTS = ("none", "bigram", "words", "script")


@dataclass(frozen=True, slots=True)
class Query:
    lang: str
    qid: str
    text: str
    target: str  # "zh/gzip.md"
    split: str

    @property
    def dash(self) -> bool:
        return re.search(r"(^|\s)-", self.text) is not None


def load_queries(path: Path = SET / "queries.tsv") -> list[Query]:
    queries = []
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row or row[0] == "lang" or row[0].startswith("#"):
                continue
            lang, qid, text, target, split = row
            if lang not in LANGS or split not in ("tune", "test"):
                raise SystemExit(f"queries.tsv: bad row {row}")
            if not (SET / target).is_file():
                raise SystemExit(f"queries.tsv: {qid}: no page {target}")
            queries.append(Query(lang, qid, text, target, split))
    return queries


# ------------------------------------------------------------------------ query rewriting

_CJK_RUN = re.compile(
    "[\u1100-\u11ff\u3005-\u3007\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3131-\u318e"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uf900-\ufaff\uff66-\uff9f\uffa0-\uffdc\U00020000-\U0003134f]+"
)
_HIRAGANA = re.compile("^[\u3041-\u309f\u30fc]+$")
_SCRIPT_PIECE = re.compile(
    "[\u3041-\u309f]+|[\u30a0-\u30fa\u30fc-\u30ff\uff66-\uff9f]+|[\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+"
)
# Korean particles (josa) and a few endings, longest first; stripped from the end of a word.
_KO_PARTICLE_TEXT = "은 는 이 가 을 를 에 의 로 으로 에서 에게 와 과 도 만 까지 부터 하기 하고 하는 기 게 고"
_KO_PARTICLES = sorted(_KO_PARTICLE_TEXT.split(), key=len, reverse=True)


def bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


@functools.cache
def _jieba() -> Any:
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba


@functools.cache
def _fugashi() -> Any:
    import fugashi

    return fugashi.Tagger()


@functools.cache
def _kiwi() -> Any:
    from kiwipiepy import Kiwi

    return Kiwi()


def words_zh(run: str) -> list[str]:
    return [w for w in _jieba().lcut(run) if _CJK_RUN.fullmatch(w)]


def words_ja(run: str) -> list[str]:
    keep = []
    for word in _fugashi()(run):
        pos = word.feature.pos1
        if pos in ("助詞", "助動詞", "補助記号", "記号", "空白"):
            continue
        keep.append(word.surface)
    return keep or [run]


_KO_TAGS = ("NNG", "NNP", "NNB", "NR", "NP", "VV", "VA", "XR", "SL", "SH", "SN", "MAG")


def words_ko(run: str) -> list[str]:
    # The surface span, not the lemma: "큰" (not "크") and "숨김" (not "숨기") are in the text.
    keep = [run[t.start : t.start + t.len] for t in _kiwi().tokenize(run) if t.tag.split("-")[0] in _KO_TAGS]
    return list(dict.fromkeys(keep)) or [run]


def script_ja(run: str) -> list[str]:
    pieces = [p for p in _SCRIPT_PIECE.findall(run) if not _HIRAGANA.match(p)]
    return pieces or [run]


def script_ko(run: str) -> list[str]:
    for particle in _KO_PARTICLES:
        if run.endswith(particle) and len(run) - len(particle) >= 2:
            return [run[: -len(particle)]]
    return [run]


def segmenter(segment: str, lang: str) -> Callable[[str], list[str]] | None:
    if segment == "none":
        return None
    if segment == "bigram" or (segment == "script" and lang == "zh"):
        return bigrams
    if segment == "words":
        return {"zh": words_zh, "ja": words_ja, "ko": words_ko}[lang]
    return {"ja": script_ja, "ko": script_ko}[lang]


def rewrite(text: str, lang: str, segment: str, undash: bool) -> str:
    """The query as sent: CJK runs cut by ``segment`` into space-separated pieces."""
    cut = segmenter(segment, lang)
    if cut is not None:
        text = _CJK_RUN.sub(lambda m: " " + " ".join(cut(m.group())) + " ", text)
        text = " ".join(text.split())
    if undash:
        text = " ".join(w.lstrip("-") or w for w in text.split())
    return text


# -------------------------------------------------------------------------------- running


def prepare(fresh: bool, embed: bool) -> Any:
    import cairn

    home = WORK / "home"
    if fresh and WORK.exists():
        shutil.rmtree(WORK)
    home.mkdir(parents=True, exist_ok=True)
    ws = cairn.open(home=home)
    existing = {c.name for c in ws.list_collections().collections}
    for lang in LANGS:
        if f"cjk-{lang}" not in existing:
            ws.add_collection(SET / lang, name=f"cjk-{lang}")
    summary = ws.index()
    if summary.counts.failed:
        raise SystemExit(f"{summary.counts.failed} files failed: {summary.errors[:3]}")
    if embed:
        started = time.perf_counter()
        result = ws.embed()
        print(f"embedded {result.embedded} passages in {time.perf_counter() - started:.1f} s "
              f"({result.pending_after} pending)", file=sys.stderr)
    return ws


def rank(
    ws: Any, mode: str, text: str, lang: str, sent: str | None = None, *,
    rrf_k: float = RRF_K, vector_weight: float = 1.0,
) -> tuple[list[str], bool]:
    """Pages (``zh/gzip.md``) best first, and whether cairn fell back to another mode.
    ``sent``: the rewritten text BM25 sees (``bm25`` and the BM25 side of ``rrf``)."""
    cols = [f"cjk-{lang}"]
    if mode == "rrf":
        fused: dict[str, float] = {}
        for side, weight in (("bm25", 1.0), ("vector", vector_weight)):
            pages, fell_back = rank(ws, side, text, lang, sent)
            if fell_back:
                return [], True
            for i, page in enumerate(pages):
                fused[page] = fused.get(page, 0.0) + weight / (rrf_k + i + 1)
        return sorted(fused, key=lambda p: -fused[p])[:CUT], False
    if sent is not None and mode == "bm25":
        text = sent
    if mode == "bm25":
        response, want = ws.search(text, limit=LIMIT, collections=cols), "bm25"
    elif mode == "vector":
        response, want = ws.vsearch(text, limit=LIMIT, collections=cols), "vector"
    else:
        qmode = "fast" if mode == "hybrid-fast" else "default"
        response, want = ws.query(text, limit=LIMIT, mode=qmode, collections=cols), "hybrid"
    pages: list[str] = []
    for r in response.results:
        page = f"{lang}/{r.uri.rsplit('/', 1)[-1]}"
        if page not in pages:
            pages.append(page)
    return pages[:LIMIT], response.meta.mode != want


def per_query_scores(queries: Sequence[Query], run: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """measure name -> qid -> value, through ir-measures; a query with no result scores 0."""
    import ir_measures
    from ir_measures import Qrel, ScoredDoc

    qrels = [Qrel(q.qid, q.target, 1) for q in queries]
    scored = [ScoredDoc(qid, page, float(CUT - i)) for qid, pages in run.items() for i, page in enumerate(pages)]
    measures = [ir_measures.parse_measure(m) for _, m in MEASURES]
    out = {name: dict.fromkeys((q.qid for q in queries), 0.0) for name, _ in MEASURES}
    by_measure = {str(m): name for (name, _), m in zip(MEASURES, measures, strict=True)}
    for metric in ir_measures.iter_calc(measures, qrels, scored):
        out[by_measure[str(metric.measure)]][metric.query_id] = float(metric.value)
    return out


def bootstrap(values: Sequence[float], resamples: int, seed: int) -> tuple[float, float, float]:
    """Mean and percentile 95% CI of the mean over ``resamples`` resamples of the values."""
    import numpy as np

    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, arr.size, size=(resamples, arr.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(arr.mean()), float(low), float(high)


def subset(queries: Sequence[Query], lang: str, name: str) -> list[Query]:
    chosen = [q for q in queries if q.lang == lang]
    if name in ("tune", "test"):
        return [q for q in chosen if q.split == name]
    if name == "dash":
        return [q for q in chosen if q.dash]
    return chosen


def compare(first: Path, second: Path, mode: str, resamples: int, seed: int) -> int:
    """Paired bootstrap CI of ``second - first`` (two ``--json`` outputs, same queries)."""
    one, two = (json.loads(p.read_text(encoding="utf-8")) for p in (first, second))
    queries = [
        Query(v["lang"], qid, v["query"], v["target"], v["split"]) for qid, v in one["per_query"].items()
    ]
    runs = []
    for report in (one, two):
        if any(mode not in v["runs"] for v in report["per_query"].values()):
            raise SystemExit(f"--compare: mode {mode} is missing from a file")
        runs.append({qid: v["runs"][mode] for qid, v in report["per_query"].items()})
    scores = [per_query_scores(queries, run) for run in runs]
    print(f"{mode}: {second.name} - {first.name}, mean [95% paired bootstrap CI]")
    for lang in LANGS:
        for name in SUBSETS:
            qids = [q.qid for q in subset(queries, lang, name)]
            if not qids:
                continue
            cells = []
            for measure, _ in MEASURES:
                d = [scores[1][measure][i] - scores[0][measure][i] for i in qids]
                mean, low, high = bootstrap(d, resamples, seed)
                cells.append(f"{measure} {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
            print(f"{lang:4} {name:6} {len(qids):>3}  " + "   ".join(cells))
    return 0


def use_variant(name: str) -> None:
    """Make every hybrid query of this process run with the settings of
    :data:`bench.fusion_replay.VARIANTS` ``name`` (an experiment: cairn's defaults unchanged)."""
    import dataclasses

    from bench.fusion_replay import VARIANTS
    from cairn.retrieval import service as service_module
    from cairn.retrieval.hybrid import DEFAULT_SETTINGS
    from cairn.retrieval.pipeline import HybridPipeline

    if name not in VARIANTS:
        raise SystemExit(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
    changes = {k: v for k, v in VARIANTS[name][1].items() if not k.startswith("_")}
    settings = dataclasses.replace(DEFAULT_SETTINGS, **changes)
    original = service_module.RetrievalService.pipeline

    def pipeline(self: Any, store: Any) -> HybridPipeline:
        return HybridPipeline(original(self, store).ports, settings)

    service_module.RetrievalService.pipeline = pipeline  # type: ignore[method-assign]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(DEFAULT_MODES), help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--segment", choices=SEGMENTS, default="none", help="query rewriting (an experiment)")
    parser.add_argument("--undash", action="store_true", help="strip leading dashes from query words")
    parser.add_argument("--rrf-k", type=float, default=RRF_K, help="rrf mode: k (default 60)")
    parser.add_argument("--rrf-vector-weight", type=float, default=1.0, help="rrf mode: vector weight (bm25's is 1)")
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--fresh", action="store_true", help="wipe bench/.work/cjk first")
    parser.add_argument("--json", type=Path, help="write every figure and ranking here")
    parser.add_argument("--show-misses", action="store_true", help="print queries whose page is not at rank 1")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A.json", "B.json"),
                        help="no search: paired bootstrap of B - A for --modes' first mode")
    parser.add_argument("--variant", help="hybrid modes with the settings of this bench.fusion_replay variant "
                        "(its own query mode is ignored: hybrid stays default, hybrid-fast fast)")
    args = parser.parse_args(argv)
    if args.variant:
        use_variant(args.variant)
    if args.compare:
        return compare(*args.compare, args.modes.split(",")[0], args.resamples, args.seed)
    modes = [m for m in args.modes.split(",") if m]
    langs = [lang for lang in args.langs.split(",") if lang]
    for mode in modes:
        if mode not in MODES:
            parser.error(f"unknown mode {mode!r}")
    queries = [q for q in load_queries() if q.lang in langs]

    from cairn.errors import CairnError, ModelUnavailable

    needs_vectors = any(m != "bm25" for m in modes)
    try:
        ws = prepare(args.fresh, embed=needs_vectors)
    except ModelUnavailable as exc:
        print(f"no local model ({exc}); running bm25 only", file=sys.stderr)
        modes = ["bm25"]
        ws = prepare(args.fresh, embed=False)

    try:
        sent = {q.qid: rewrite(q.text, q.lang, args.segment, args.undash) for q in queries}
    except ImportError as exc:
        raise SystemExit(
            f"--segment {args.segment} needs {exc.name}: pip install jieba fugashi unidic-lite kiwipiepy"
        ) from exc
    runs: dict[str, dict[str, list[str]]] = {}
    errors: dict[str, dict[str, list[str]]] = {}
    fallbacks: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for mode in modes:
        runs[mode], errors[mode], fallbacks[mode] = {}, {}, 0
        started = time.perf_counter()
        for q in queries:
            try:
                pages, fell_back = rank(ws, mode, q.text, q.lang, sent[q.qid],
                                        rrf_k=args.rrf_k, vector_weight=args.rrf_vector_weight)
                pages = pages[:CUT]
            except CairnError as exc:
                errors[mode][q.qid] = [type(exc).__name__, str(exc)]
                pages, fell_back = [], False
            runs[mode][q.qid] = pages
            fallbacks[mode] += fell_back
        seconds[mode] = time.perf_counter() - started

    scores = {mode: per_query_scores(queries, runs[mode]) for mode in modes}
    report: dict[str, Any] = {
        "segment": args.segment, "undash": args.undash, "variant": args.variant, "rrf_k": args.rrf_k,
        "rrf_vector_weight": args.rrf_vector_weight, "resamples": args.resamples, "seed": args.seed,
        "queries": {lang: len(subset(queries, lang, "all")) for lang in langs},
        "pages": {lang: len(list((SET / lang).glob("*.md"))) for lang in langs},
        "errors": {m: len(e) for m, e in errors.items()}, "fallbacks": fallbacks,
        "seconds": {m: round(s, 2) for m, s in seconds.items()},
        "metrics": {}, "vs_bm25": {},
    }
    print(f"CJK known-item set: segment={args.segment}{' undash' if args.undash else ''}; "
          f"mean [95% bootstrap CI, {args.resamples} resamples]")
    header = f"{'lang':4} {'subset':6} {'n':>3} {'mode':12} {'MRR@10':>22} {'hit@1':>22} {'hit@10':>22} {'err':>4}"
    print(header)
    print("-" * len(header))
    for lang in langs:
        for name in SUBSETS:
            chosen = subset(queries, lang, name)
            qids = [q.qid for q in chosen]
            for mode in modes:
                cells, entry = [], {}
                for measure, _ in MEASURES:
                    mean, low, high = bootstrap([scores[mode][measure][i] for i in qids], args.resamples, args.seed)
                    entry[measure] = {"mean": mean, "ci": [low, high]}
                    cells.append(f"{mean:.3f} [{low:.3f}, {high:.3f}]")
                n_err = sum(i in errors[mode] for i in qids)
                entry["n"], entry["errors"] = len(qids), n_err
                report["metrics"].setdefault(lang, {}).setdefault(name, {})[mode] = entry
                print(f"{lang:4} {name:6} {len(qids):>3} {mode:12} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22} {n_err:>4}")
                if mode != "bm25" and "bm25" in modes:
                    diffs = {}
                    for measure, _ in MEASURES:
                        d = [scores[mode][measure][i] - scores["bm25"][measure][i] for i in qids]
                        mean, low, high = bootstrap(d, args.resamples, args.seed)
                        diffs[measure] = {"mean": mean, "ci": [low, high]}
                    report["vs_bm25"].setdefault(lang, {}).setdefault(name, {})[mode] = diffs
    if len(modes) > 1 and "bm25" in modes:
        print("\npaired difference from bm25, mean [95% paired bootstrap CI]")
        for lang in langs:
            for name in SUBSETS:
                for mode, diffs in report["vs_bm25"][lang][name].items():
                    cells = [f"{m} {d['mean']:+.3f} [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]" for m, d in diffs.items()]
                    print(f"{lang:4} {name:6} {mode:12} " + "   ".join(cells))
    print("\nerrors: " + ", ".join(f"{m} {len(e)}" for m, e in errors.items())
          + "; fallbacks: " + ", ".join(f"{m} {n}" for m, n in fallbacks.items())
          + "; seconds: " + ", ".join(f"{m} {s:.1f}" for m, s in seconds.items()))
    if args.show_misses:
        for mode in modes:
            for q in queries:
                pages = runs[mode][q.qid]
                if not pages or pages[0] != q.target:
                    where = pages.index(q.target) + 1 if q.target in pages else "-"
                    print(f"miss {mode:11} {q.qid} rank {where!s:>2} {q.text!r} -> {sent[q.qid]!r}; "
                          f"want {q.target}, got {pages[:3]}{' ERROR ' + errors[mode][q.qid][1] if q.qid in errors[mode] else ''}")
    if args.json:
        report["per_query"] = {
            q.qid: {"lang": q.lang, "query": q.text, "sent": sent[q.qid], "target": q.target, "split": q.split,
                    "runs": {m: runs[m][q.qid] for m in modes},
                    "errors": {m: errors[m][q.qid] for m in modes if q.qid in errors[m]}}
            for q in queries
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
