"""Indexing and search speed on tldr-pages, against bare-SQLite baselines measured in the same run.

    .venv/bin/python -m bench.index_bench                  # 3 repeats, prints one Markdown table
    .venv/bin/python -m bench.index_bench --repeats 5 --json
    .venv/bin/python -m bench.index_bench --write-results  # also update bench/RESULTS.md

Corpus: ``../shared/corpora/tldr/tldr-pages-en.tar.gz`` (7,425 Markdown pages under
``pages/``), extracted to a temporary folder. Every file is read once first so that no
measurement pays cold I/O.

Measurements (all in this process, interleaved repeat by repeat; the median is reported):

* **full index**: ``ws.index()`` on a fresh CAIRN home and index, against **bare FTS5**:
  walk + read + decode + insert every page into one FTS5 table
  (``porter unicode61 remove_diacritics 2``, WAL, one transaction).
* **unchanged re-index**: a second ``ws.index()``, against **read+hash**: walk + read +
  sha256 of every page.
* **search p50/p95**: ``ws.search(q, limit=10)`` through the SDK, in-process, against a
  **raw MATCH** ``SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 10`` on the bare
  table, with the query's words quoted and OR-ed. Each query is timed on both sides back to
  back; percentiles are over all repeats' samples.

Queries: 200 built from the corpus with a fixed seed: a page's command name plus one word
of its one-line description. Exits non-zero only on a crash, never on a missed target.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
TARBALL = SHARED / "corpora" / "tldr" / "tldr-pages-en.tar.gz"

# Words never used as the query's description word (cairn drops stopwords, raw MATCH would not).
COMMON = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "is",
    "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "will", "with",
    "which", "such", "used", "use", "using", "into", "your", "you", "can", "may", "given",
    "specified",
})


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the result table."""

    measurement: str
    value_ms: float
    baseline: str
    baseline_ms: float
    target: float  # maximum allowed value / baseline

    @property
    def ratio(self) -> float:
        return self.value_ms / self.baseline_ms if self.baseline_ms else float("inf")

    @property
    def passed(self) -> bool:
        return self.ratio <= self.target


# ------------------------------------------------------------------- corpus and queries


def extract_corpus(tarball: Path, into: Path) -> Path:
    """Extract the tarball; returns the folder holding the pages."""
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")
    pages = into / "pages"
    return pages if pages.is_dir() else into


def list_pages(root: Path) -> list[Path]:
    """Every ``*.md`` file under ``root``, sorted (the baselines' walk)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        found += [Path(folder, name) for name in sorted(files) if name.endswith(".md")]
    return found


def build_queries(pages: list[Path], n: int, seed: int) -> list[str]:
    """``n`` queries: a page's command name plus one word of its description, seeded."""
    rng = random.Random(seed)
    candidates: list[str] = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        title = next((ln[2:].strip() for ln in lines if ln.startswith("# ")), "")
        description = next((ln[1:].strip() for ln in lines if ln.startswith(">")), "")
        words = [
            w for w in re.findall(r"[A-Za-z]{4,}", description) if w.lower() not in COMMON
        ]
        if title and words:
            candidates.append(f"{title} {rng.choice(words).lower()}")
    rng.shuffle(candidates)
    if len(candidates) < n:
        raise SystemExit(f"only {len(candidates)} usable pages for {n} queries")
    return candidates[:n]


def fts_or_query(query: str) -> str:
    """The query's whitespace-separated words, each quoted, OR-ed (FTS5 syntax)."""
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in query.split())


# ------------------------------------------------------------------------- baselines


def read_and_hash(root: Path) -> int:
    """Walk, read and sha256 every page; returns the number of files."""
    count = 0
    for path in list_pages(root):
        hashlib.sha256(path.read_bytes()).hexdigest()
        count += 1
    return count


def bare_fts5_index(root: Path, db_path: Path) -> sqlite3.Connection:
    """Walk, read, decode and insert every page into one FTS5 table in one transaction."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.execute("BEGIN IMMEDIATE")
    for path in list_pages(root):
        conn.execute("INSERT INTO t(body) VALUES (?)", (path.read_bytes().decode("utf-8"),))
    conn.execute("COMMIT")
    return conn


def raw_match(conn: sqlite3.Connection, match: str) -> list[int]:
    return [
        row[0]
        for row in conn.execute(
            "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 10", (match,)
        )
    ]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(elapsed ms, result) of one call."""
    started = time.perf_counter()
    result = fn()
    return (time.perf_counter() - started) * 1000, result


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


# ------------------------------------------------------------------------------ run


def run(repeats: int, n_queries: int, seed: int) -> dict[str, Any]:
    """All measurements; returns a JSON-ready report."""
    import cairn

    if not TARBALL.is_file():
        raise SystemExit(
            f"tldr corpus not found at {TARBALL}; this benchmark needs ../shared next to the repo"
        )
    tmp = Path(tempfile.mkdtemp(prefix="cairn-index-bench-"))
    try:
        root = extract_corpus(TARBALL, tmp / "corpus")
        pages = list_pages(root)
        for page in pages:  # warm the page cache: no side pays cold I/O
            page.read_bytes()
        queries = build_queries(pages, n_queries, seed)
        matches = [fts_or_query(q) for q in queries]

        samples: dict[str, list[float]] = {
            "read_hash": [], "bare_fts5": [], "cairn_full": [], "cairn_unchanged": []
        }
        cairn_search: list[float] = []
        raw_search: list[float] = []
        summaries: dict[str, Any] = {}
        for r in range(repeats):
            ms, _ = timed(lambda: read_and_hash(root))
            samples["read_hash"].append(ms)

            db = tmp / f"bare-{r}.sqlite"
            ms, conn = timed(lambda db=db: bare_fts5_index(root, db))
            samples["bare_fts5"].append(ms)

            home = tmp / f"home-{r}"
            ws = cairn.open(home=home, index="tldr")
            ws.add_collection(root, name="tldr")
            ms, full = timed(ws.index)
            samples["cairn_full"].append(ms)
            ms, again = timed(ws.index)
            samples["cairn_unchanged"].append(ms)
            summaries = {
                "full": full.counts.model_dump(), "full_passages": full.passages_written,
                "full_elapsed_ms": full.elapsed_ms, "unchanged": again.counts.model_dump(),
                "unchanged_elapsed_ms": again.elapsed_ms,
            }

            for q, m in zip(queries[:20], matches[:20], strict=True):  # warm both query paths
                ws.search(q, limit=10)
                raw_match(conn, m)
            for q, m in zip(queries, matches, strict=True):
                ms, _ = timed(lambda q=q, ws=ws: ws.search(q, limit=10))
                cairn_search.append(ms)
                ms, _ = timed(lambda m=m, conn=conn: raw_match(conn, m))
                raw_search.append(ms)
            ws.close()
            conn.close()
            shutil.rmtree(home)
            db.unlink()

        med = {k: statistics.median(v) for k, v in samples.items()}
        rows = [
            Row("full index (`ws.index()`, fresh)", med["cairn_full"],
                "bare FTS5 insert", med["bare_fts5"], 3.0),
            Row("re-index, unchanged corpus", med["cairn_unchanged"],
                "read + sha256", med["read_hash"], 1.5),
            Row("search p50 (SDK `ws.search`, limit 10)", percentile(cairn_search, 50),
                "raw FTS5 MATCH p50", percentile(raw_search, 50), 2.0),
            Row("search p95 (SDK `ws.search`, limit 10)", percentile(cairn_search, 95),
                "raw FTS5 MATCH p95", percentile(raw_search, 95), float("inf")),
        ]
        return {
            "corpus": str(TARBALL.relative_to(SHARED.parent)) if TARBALL.is_relative_to(SHARED.parent) else str(TARBALL),
            "pages": len(pages),
            "queries": len(queries),
            "query_examples": queries[:5],
            "repeats": repeats,
            "samples_ms": samples,
            "search_samples": len(cairn_search),
            "cairn_summary_last_repeat": summaries,
            "rows": [asdict(row) | {"ratio": row.ratio, "passed": row.passed} for row in rows],
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def markdown_table(report: dict[str, Any]) -> str:
    """The one table this benchmark prints."""
    lines = [
        "| measurement | value | baseline | ratio | target | result |",
        "| --- | ---: | --- | ---: | ---: | --- |",
    ]
    for row in report["rows"]:
        target = row["target"]
        target_text = "—" if target == float("inf") else f"≤ {target:g}×"
        verdict = "—" if target == float("inf") else ("pass" if row["passed"] else "**FAIL**")
        lines.append(
            f"| {row['measurement']} | {fmt_ms(row['value_ms'])} | {row['baseline']} "
            f"{fmt_ms(row['baseline_ms'])} | {row['ratio']:.2f}× | {target_text} | {verdict} |"
        )
    full = report["cairn_summary_last_repeat"]
    lines += [
        "",
        f"{report['pages']} pages, {report['queries']} queries ({report['search_samples']} timed "
        f"searches per side), median of {report['repeats']} repeats for index timings. "
        f"Full index: {full['full']['added']} added, {full['full']['failed']} failed, "
        f"{full['full_passages']} passages; re-index: {full['unchanged']['unchanged']} unchanged.",
    ]
    return "\n".join(lines)


def fmt_ms(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=3, help="repeats of every measurement")
    parser.add_argument("--queries", type=int, default=200, help="number of search queries")
    parser.add_argument("--seed", type=int, default=7, help="seed for the query sample")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--write-results", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args(argv)
    report = run(args.repeats, args.queries, args.seed)
    table = markdown_table(report)
    print(json.dumps(report, indent=2) if args.json else table)
    if args.write_results:
        from bench.results_md import machine_note, stamp, update_section

        command = "python -m bench.index_bench " + " ".join(argv if argv is not None else sys.argv[1:])
        update_section(
            "Indexing and search speed (tldr-pages)",
            f"Command: `{command.strip()}`  \nDate: {stamp()}  \nMachine: {machine_note()}\n\n{table}",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
