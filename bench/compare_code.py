"""Same workload against two source trees in one run, interleaved: is the new code as fast?

    .venv/bin/python -m bench.compare_code --old /work/wt/base --new . --minutes 25
    .venv/bin/python -m bench.compare_code --old OLD --new NEW --pairs 3 --write-results

Every measurement runs in a fresh subprocess of the same interpreter (``sys.executable``)
with ``PYTHONPATH=<tree>/src``, so both sides use the same Python and packages and differ
only in cairn's source. Measurements alternate old/new in pairs (the order inside a pair
alternates too: old-new, new-old, ...), as many pairs as fit in ``--minutes``.

Workloads (corpus: tldr-pages, ``../shared/corpora/tldr/tldr-pages-en.tar.gz``, extracted
once to a temporary folder shared by both sides and read once so no side pays cold I/O):

* **index** subprocess: ``ws.index()`` of all 7,425 pages into a fresh CAIRN home, then an
  unchanged re-index, then ``ws.search(q, limit=10)`` for 200 queries built by
  ``index_bench.build_queries`` (20 warm-up searches first, not timed).
* **query** subprocess (skipped with ``--index-only``): a copy of one home folder built once by the OLD tree (``--subset``
  pages, indexed and embedded), so both sides query the identical index file. After a
  warm-up (models loaded), each of ``--query-count`` queries is timed through
  ``ws.query(q, limit=10)`` (default mode), ``ws.query(q, limit=10, mode="fast")`` and
  ``ws.vsearch(q, limit=10)``, back to back.

The full index is also timed in CPU time (user + system of the process and its index
workers), which depends far less than wall time on how busy the shared machine is.
Per subprocess the index timings are single values and the latency rows are p50/p95 over
its queries. The table gives, per row, the median over pairs for each side, the median of
the per-pair ratios new/old, their min–max, and a 95 % bootstrap interval (over pairs) of
the geometric mean ratio. Verdict rule: **within noise** when that interval contains 1.0 or
lies inside 0.90–1.10; otherwise **slower** / **faster**.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

ROWS: list[tuple[str, str]] = [
    ("index_full", "full index (`ws.index()`, fresh, 7,425 pages)"),
    ("index_full_cpu", "full index, CPU time (process + index workers)"),
    ("index_unchanged", "re-index, unchanged corpus"),
    ("search_p50", "search p50 (`ws.search`, limit 10)"),
    ("search_p95", "search p95"),
    ("query_p50", "query p50 (default mode)"),
    ("query_p95", "query p95 (default mode)"),
    ("fast_p50", "query p50 (`mode=\"fast\"`)"),
    ("fast_p95", "query p95 (`mode=\"fast\"`)"),
    ("vsearch_p50", "vsearch p50"),
    ("vsearch_p95", "vsearch p95"),
]


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def cpu_ms() -> float:
    """CPU time (user + system) of this process and its reaped children, in ms: less
    sensitive than wall time to how much of the shared cores the others leave us."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime) * 1000


# --------------------------------------------------------------------------- workers
# These run in the subprocess, importing cairn from whichever tree PYTHONPATH names.


def worker_index(spec: dict[str, Any]) -> dict[str, float]:
    import cairn

    queries: list[str] = spec["queries"]
    ws = cairn.open(home=spec["home"], index="tldr")
    ws.add_collection(Path(spec["root"]), name="tldr")
    t, cpu = time.perf_counter(), cpu_ms()
    full = ws.index()
    index_full, index_full_cpu = ms_since(t), cpu_ms() - cpu
    t = time.perf_counter()
    again = ws.index()
    index_unchanged = ms_since(t)
    assert full.counts.added == spec["pages"], full.counts
    assert again.counts.unchanged == spec["pages"], again.counts
    for q in queries[:20]:
        ws.search(q, limit=10)
    samples: list[float] = []
    for q in queries:
        t = time.perf_counter()
        ws.search(q, limit=10)
        samples.append(ms_since(t))
    ws.close()
    return {
        "index_full": index_full, "index_full_cpu": index_full_cpu,
        "index_unchanged": index_unchanged,
        "search_p50": percentile(samples, 50), "search_p95": percentile(samples, 95),
    }


def worker_query(spec: dict[str, Any]) -> dict[str, float]:
    import cairn

    queries: list[str] = spec["queries"]
    ws = cairn.open(home=spec["home"], index="q")
    for q in queries[:10]:  # loads both encoders, the vector matrix, warms SQLite
        ws.query(q, limit=10)
        ws.query(q, limit=10, mode="fast")
        ws.vsearch(q, limit=10)
    got: dict[str, list[float]] = {"query": [], "fast": [], "vsearch": []}
    for q in queries:
        t = time.perf_counter()
        res = ws.query(q, limit=10)
        got["query"].append(ms_since(t))
        t = time.perf_counter()
        fast = ws.query(q, limit=10, mode="fast")
        got["fast"].append(ms_since(t))
        t = time.perf_counter()
        vec = ws.vsearch(q, limit=10)
        got["vsearch"].append(ms_since(t))
    assert vec.meta.mode == "vector", vec.meta
    assert res.meta.mode != "bm25" and fast.meta.mode != "bm25", (res.meta, fast.meta)
    ws.close()
    out: dict[str, float] = {}
    for name, samples in got.items():
        out[f"{name}_p50"] = percentile(samples, 50)
        out[f"{name}_p95"] = percentile(samples, 95)
    return out


def worker_build(spec: dict[str, Any]) -> dict[str, float]:
    """Build the shared query home (run with the OLD tree): index + embed a subset."""
    import cairn

    ws = cairn.open(home=spec["home"], index="q")
    ws.add_collection(Path(spec["root"]), name="sub")
    t = time.perf_counter()
    ws.index()
    embedded = ws.embed()
    ws.close()
    return {"build_ms": ms_since(t), "embedded": float(embedded.embedded)}


WORKERS = {"index": worker_index, "query": worker_query, "build": worker_build}


# ---------------------------------------------------------------------------- driver


def run_worker(tree: Path, kind: str, spec: dict[str, Any], tmp: Path) -> dict[str, float]:
    """One measurement in a fresh subprocess importing cairn from ``tree/src``."""
    spec_file = tmp / f"spec-{kind}.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), CAIRN_HOME=spec["home"])
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", kind, str(spec_file)],
        env=env, capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{kind} worker on {tree} failed:\n{proc.stderr[-3000:]}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def geo_ci(ratios: list[float], seed: int = 11, rounds: int = 4000) -> tuple[float, float, float]:
    """Geometric mean of ``ratios`` and its 95 % percentile-bootstrap interval over pairs."""
    logs = [math.log(r) for r in ratios]
    rng = random.Random(seed)
    means = sorted(
        statistics.fmean(rng.choices(logs, k=len(logs))) for _ in range(rounds)
    )
    lo, hi = means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]
    return math.exp(statistics.fmean(logs)), math.exp(lo), math.exp(hi)


def verdict(lo: float, hi: float) -> str:
    if lo <= 1.0 <= hi or (lo >= 0.90 and hi <= 1.10):
        return "within noise"
    return "**slower**" if lo > 1.0 else "faster"


def fmt_ms(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.2f} ms"


def markdown_table(pairs: list[dict[str, dict[str, float]]]) -> str:
    lines = [
        "| measurement | old (median) | new (median) | new / old (median of pairs) "
        "| min–max of pairs | geo. mean [95 % CI] | verdict |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for key, label in ROWS:
        old = [p["old"][key] for p in pairs if key in p["old"] and key in p["new"]]
        new = [p["new"][key] for p in pairs if key in p["old"] and key in p["new"]]
        if not old:
            continue
        ratios = [n / o for o, n in zip(old, new, strict=True)]
        geo, lo, hi = geo_ci(ratios)
        lines.append(
            f"| {label} | {fmt_ms(statistics.median(old))} | {fmt_ms(statistics.median(new))} "
            f"| {statistics.median(ratios):.3f} | {min(ratios):.2f}–{max(ratios):.2f} "
            f"| {geo:.3f} [{lo:.3f}, {hi:.3f}] | {verdict(lo, hi)} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "SPEC"), help=argparse.SUPPRESS)
    parser.add_argument("--old", type=Path, help="the old source tree (holds src/cairn)")
    parser.add_argument("--new", type=Path, default=HERE.parent, help="the new source tree")
    parser.add_argument("--minutes", type=float, default=25.0, help="wall-time budget for pairs")
    parser.add_argument("--pairs", type=int, default=1000, help="at most this many pairs")
    parser.add_argument("--min-pairs", type=int, default=3, help="at least this many pairs")
    parser.add_argument("--queries", type=int, default=200, help="search queries")
    parser.add_argument("--query-count", type=int, default=100, help="query/vsearch queries")
    parser.add_argument("--subset", type=int, default=400, help="pages embedded for query")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--index-only", action="store_true", help="skip the query workload")
    parser.add_argument("--json-out", type=Path, help="write every pair's raw values here")
    parser.add_argument("--write-results", action="store_true", help="append to bench/RESULTS.md")
    args = parser.parse_args(argv)

    if args.worker:
        kind, spec_path = args.worker
        spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
        print(json.dumps(WORKERS[kind](spec)))
        return 0
    if args.old is None:
        parser.error("--old is required")
    from bench.index_bench import TARBALL, build_queries, extract_corpus, list_pages

    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    for tree in trees.values():
        if not (tree / "src" / "cairn" / "__init__.py").is_file():
            raise SystemExit(f"{tree} has no src/cairn")
    tmp = Path(tempfile.mkdtemp(prefix="cairn-compare-"))
    try:
        root = extract_corpus(TARBALL, tmp / "corpus")
        pages = list_pages(root)
        for page in pages:
            page.read_bytes()
        queries = build_queries(pages, args.queries, args.seed)
        subset_root = tmp / "subset"
        sample = sorted(random.Random(args.seed).sample(pages, args.subset))
        for page in sample:
            dest = subset_root / page.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page, dest)
        sub_queries = build_queries(list_pages(subset_root), args.query_count, args.seed)
        built_home = tmp / "built-home"
        if not args.index_only:
            t = time.perf_counter()
            build = run_worker(trees["old"], "build", {"home": str(built_home), "root": str(subset_root)}, tmp)
            print(f"query home built by old tree in {ms_since(t) / 1000:.0f} s "
                  f"({int(build['embedded'])} passages embedded)", file=sys.stderr, flush=True)

        pairs: list[dict[str, dict[str, float]]] = []
        deadline = time.monotonic() + args.minutes * 60
        started = time.monotonic()
        while len(pairs) < args.pairs:
            elapsed = time.monotonic() - started
            per_pair = elapsed / len(pairs) if pairs else 0.0
            if len(pairs) >= args.min_pairs and time.monotonic() + per_pair > deadline:
                break
            order = ["old", "new"] if len(pairs) % 2 == 0 else ["new", "old"]
            pair: dict[str, dict[str, float]] = {"old": {}, "new": {}}
            for side in order:
                home = tmp / f"home-{side}"
                pair[side] |= run_worker(trees[side], "index", {
                    "home": str(home), "root": str(root), "queries": queries, "pages": len(pages),
                }, tmp)
                shutil.rmtree(home)
            for side in order if not args.index_only else []:
                home = tmp / f"qhome-{side}"
                shutil.copytree(built_home, home)
                pair[side] |= run_worker(trees[side], "query", {
                    "home": str(home), "queries": sub_queries,
                }, tmp)
                shutil.rmtree(home)
            pairs.append(pair)
            ratios = {k: pair["new"][k] / pair["old"][k]
                      for k in ("index_full", "index_full_cpu", "search_p50", "query_p50") if k in pair["old"]}
            print(f"pair {len(pairs)} ({'-'.join(order)}) in {time.monotonic() - started:.0f} s: "
                  + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items()), file=sys.stderr, flush=True)
            if args.json_out:
                args.json_out.write_text(json.dumps({"pairs": pairs}, indent=1), encoding="utf-8")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    table = markdown_table(pairs)
    workload = "index and search only" if args.index_only else (
        f"query/vsearch: {len(sub_queries)} queries on {args.subset} pages embedded once by "
        "the old tree (onnx-minilm), the home folder copied for every measurement")
    note = (
        f"{len(pairs)} pairs, order alternating (old-new, new-old, ...); each cell is one "
        f"fresh subprocess. Index: {len(pages)} pages; search: {len(queries)} queries; "
        f"{workload}. "
        "Verdict: within noise when the 95 % bootstrap interval of the geometric-mean ratio "
        "contains 1.0 or lies inside 0.90–1.10."
    )
    print(table + "\n\n" + note)
    if args.write_results:
        from bench.results_md import machine_note, stamp, update_section

        load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
        command = "python -m bench.compare_code " + " ".join(argv if argv is not None else sys.argv[1:])
        update_section(
            "Restructure (issue 11): same-run ratios, new / old",
            f"Command: `{command.strip()}`  \nDate: {stamp()}  \nMachine: {machine_note()}  \n"
            f"Load at the end of the run (`uptime`): `{load}`\n\n{table}\n\n{note}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
