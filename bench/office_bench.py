"""Index throughput on the office corpus (PDF, Office, HTML, EPUB, notebook, e-mail).

    .venv/bin/python -m bench.office_bench                  # 5 repeats, prints one Markdown table
    .venv/bin/python -m bench.office_bench --repeats 10 --write-results

Corpus: ``../shared/corpora/office`` (every file, copied to a temporary folder; read once
first so no measurement pays cold I/O). Two measurements, medians over the repeats:

* **per format**: ``ingest_bytes`` (convert + parse + chunk + hash, no store) on every
  file of that format, in this process: files/s and MB/s of source bytes.
* **full index**: ``ws.index()`` of the whole folder on a fresh CAIRN home and index
  (walk, convert, write), sequential since the corpus is under the parallel threshold.

The first conversion of each format imports its library; one warm-up pass is run before
timing so the figures are steady-state throughput. Exits non-zero only on a crash.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OFFICE = REPO.parent / "shared" / "corpora" / "office"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write-results", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    if not OFFICE.is_dir():
        print(f"office corpus not found at {OFFICE}", file=sys.stderr)
        return 2

    import cairn
    from cairn.errors import IngestError
    from cairn.ingest.chunker import estimate_tokens
    from cairn.ingest.converters import converter_for
    from cairn.ingest.prepare import IngestLimits, ingest_bytes, sha256_hex

    limits = IngestLimits(max_file_bytes=20 << 20, chunk_max_tokens=256, chunk_min_tokens=48, batch_files=1000)
    tmp = Path(tempfile.mkdtemp(prefix="cairn-office-bench-"))
    try:
        corpus = tmp / "office"
        shutil.copytree(OFFICE, corpus)
        files = sorted(p for p in corpus.rglob("*") if p.is_file())
        datas = {p: p.read_bytes() for p in files}
        by_format: dict[str, list[Path]] = defaultdict(list)
        for p in files:
            conv = converter_for(p.name)
            if conv is not None:
                by_format[conv.id].append(p)

        def ingest_all(paths: list[Path]) -> None:
            for p in paths:
                data = datas[p]
                with contextlib.suppress(IngestError):  # a refused file costs what it cost
                    ingest_bytes(p.name, data, size=len(data), mtime_ns=0, source_hash=sha256_hex(data),
                                 limits=limits, count_tokens=estimate_tokens)

        for paths in by_format.values():  # warm-up: library imports
            ingest_all(paths)
        per_format: dict[str, list[float]] = defaultdict(list)
        index_times: list[float] = []
        indexed = 0
        for r in range(args.repeats):
            for fmt, paths in by_format.items():
                start = time.perf_counter()
                ingest_all(paths)
                per_format[fmt].append(time.perf_counter() - start)
            home = tmp / f"home{r}"
            ws = cairn.open(home=home)
            ws.add_collection(corpus, name="office")
            start = time.perf_counter()
            summary = ws.index()
            index_times.append(time.perf_counter() - start)
            indexed = summary.counts.added
            ws.close()

        rows = ["| format | files | MB | files/s | MB/s | ms/file |", "|---|---:|---:|---:|---:|---:|"]
        for fmt in sorted(by_format):
            paths = by_format[fmt]
            mb = sum(len(datas[p]) for p in paths) / 1e6
            secs = statistics.median(per_format[fmt])
            rows.append(
                f"| {fmt} | {len(paths)} | {mb:.2f} | {len(paths) / secs:.1f} | {mb / secs:.2f} "
                f"| {1000 * secs / len(paths):.1f} |"
            )
        total_mb = sum(len(d) for d in datas.values()) / 1e6
        secs = statistics.median(index_times)
        rows.append(
            f"| **full index** (`ws.index()`) | {indexed} | {total_mb:.2f} | {indexed / secs:.1f} "
            f"| {total_mb / secs:.2f} | {1000 * secs / max(indexed, 1):.1f} |"
        )
        table = "\n".join(rows)
        print(table)
        if args.write_results:
            from bench.results_md import machine_note, stamp, update_section

            body = (
                f"Command: `.venv/bin/python -m bench.office_bench --repeats {args.repeats} --write-results`"
                f" ({stamp()}; {machine_note()}).\n\n"
                f"Corpus: `shared/corpora/office` ({len(files)} files, {total_mb:.2f} MB). Per format:"
                " `ingest_bytes` (convert + parse + chunk + hash, no store) per file, in-process, warm"
                " (libraries imported); full index: `ws.index()` on a fresh index (walk, convert, write;"
                f" random.bin is not included by the default globs). Medians of {args.repeats} repeats.\n\n"
                + table
            )
            update_section("Office corpus index throughput", body)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("CAIRN_HOME", tempfile.mkdtemp(prefix="cairn-office-home-"))
    sys.exit(main())
