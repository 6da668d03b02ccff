"""What the knowledge delta costs, on tldr-pages, against baselines measured in the same run.

    .venv/bin/python -m bench.delta_bench                   # 3 repeats, one Markdown table
    .venv/bin/python -m bench.delta_bench --write-results   # also update bench/RESULTS.md

Corpus: ``../shared/corpora/tldr/tldr-pages-en.tar.gz`` (7,425 pages), extracted once.

* **full index** (``ws.index()`` on a fresh home, as shipped) against the **same index
  without the delta's ingest work** (``keep_old_revisions`` replaced by a no-op: no
  structure kept for replaced revisions; a fresh index replaces none, so this shows the
  work is not paid there). Interleaved repeat by repeat; medians.
* **edit 100 pages + re-index**, as shipped against the no-op: what keeping the replaced
  revisions' structure costs an incremental run.
  Wall time and CPU time (this process and its worker processes) are both reported: on
  a shared machine the CPU time is the steadier measure of the work added.
* **snapshot size**: bytes of the stored snapshots per document, against the bytes of the
  documents' normalised text.
* **edit 100 pages + re-index** and then **diff each** (``ws.diff(ref)``) and **one
  ``changes`` page** of the whole journal (1000 entries): latencies; the baseline of a diff is
  ``ws.get(ref)`` of the same document (reading it), timed back to back.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.index_bench import TARBALL, extract_corpus, list_pages
from bench.results_md import machine_note, stamp, update_section


def _cpu() -> float:
    import resource

    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def _timed_index(ws: Any, snapshots: bool) -> tuple[float, float]:
    import cairn.ingest.pipeline as pipeline

    original = pipeline.keep_old_revisions
    if not snapshots:
        pipeline.keep_old_revisions = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        started, cpu = time.perf_counter(), _cpu()
        ws.index()
        return time.perf_counter() - started, _cpu() - cpu
    finally:
        pipeline.keep_old_revisions = original


def _edit(pages: list[Path], mark: str) -> None:
    for page in pages:
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("\n> ", f"\n> {mark}. ", 1) + f"\n- A new example {mark}:\n\n`x`\n",
                        encoding="utf-8")


def _fresh_index(pages: Path, home: Path, snapshots: bool) -> tuple[float, float, Any]:
    import cairn

    ws = cairn.open(home)
    ws.add_collection(pages, name="tldr")
    return (*_timed_index(ws, snapshots), ws)


def run(repeats: int, edits: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cairn-delta-bench-") as tmp:
        root = Path(tmp)
        corpus = extract_corpus(TARBALL, root / "corpus")
        pages = list_pages(corpus)
        for page in pages:  # warm the page cache
            page.read_bytes()
        with_s: list[float] = []
        without_s: list[float] = []
        cpu_with: list[float] = []
        cpu_without: list[float] = []
        ws: Any = None
        for r in range(repeats):
            for snapshots in (True, False) if r % 2 == 0 else (False, True):
                seconds, cpu, opened = _fresh_index(corpus, root / f"home-{r}-{snapshots}", snapshots)
                (with_s if snapshots else without_s).append(seconds)
                (cpu_with if snapshots else cpu_without).append(cpu)
                if snapshots and ws is None:
                    ws = opened
                else:
                    opened.close()
        store = ws._open_store(False)
        docs = store.list_documents("tldr", None, 100_000)
        # Edit pages (their description and a new example), re-index, diff each.
        edited = sorted(pages)[:edits]
        inc_with: list[float] = []
        inc_without: list[float] = []
        for r in range(repeats):
            for snapshots in (False, True) if r % 2 == 0 else (True, False):
                _edit(edited, f"Edit {r} {snapshots}")
                (inc_with if snapshots else inc_without).append(_timed_index(ws, snapshots)[1])
        feed = ws.changes(limit=1000)
        while feed.has_more:
            feed = ws.changes(feed.cursor, limit=1000)
        _edit(edited, "Last")
        ws.index()
        # The revisions the last run replaced were kept: their size against their text's.
        last_updates = [c for c in ws.changes(feed.cursor, limit=1000).changes if c.kind == "update"]
        snaps = [len(store.revision_structure(c.docid or "", c.old_text_hash or "") or b"") for c in last_updates]
        assert all(snaps), "a replaced revision was not kept"
        snap_bytes = sum(snaps)
        text_bytes = sum(len(p.read_bytes()) for p in edited)  # about the replaced revisions' size
        refs = [f"tldr/{p.relative_to(corpus).as_posix()}" for p in edited]
        diff_ms: list[float] = []
        get_ms: list[float] = []
        for ref in refs:
            t0 = time.perf_counter()
            diff = ws.diff(ref)
            t1 = time.perf_counter()
            ws.get(ref)
            t2 = time.perf_counter()
            assert diff.status == "updated" and diff.complete, (ref, diff)
            diff_ms.append((t1 - t0) * 1000)
            get_ms.append((t2 - t1) * 1000)
        t0 = time.perf_counter()
        feed = ws.changes(limit=1000)
        changes_ms = (time.perf_counter() - t0) * 1000
        ws.close()
    return {
        "documents": len(docs), "repeats": repeats, "edits": edits,
        "index_with_s": statistics.median(with_s), "index_without_s": statistics.median(without_s),
        "all_with_s": with_s, "all_without_s": without_s,
        "cpu_with_s": statistics.median(cpu_with), "cpu_without_s": statistics.median(cpu_without),
        "snapshot_bytes_per_doc": snap_bytes / len(snaps), "text_bytes_per_doc": text_bytes / len(snaps),
        "inc_cpu_with_s": statistics.median(inc_with), "inc_cpu_without_s": statistics.median(inc_without),
        "diff_p50_ms": statistics.median(diff_ms), "get_p50_ms": statistics.median(get_ms),
        "changes_1000_ms": changes_ms, "changes_returned": len(feed.changes),
    }


def markdown(report: dict[str, Any]) -> str:
    ratio = report["index_with_s"] / report["index_without_s"]
    rows = [
        ("full index (as shipped)", f"{report['index_with_s']:.2f} s",
         f"no-op {report['index_without_s']:.2f} s", f"{ratio:.2f}×"),
        ("full index CPU (this process + workers)", f"{report['cpu_with_s']:.2f} s",
         f"no-op {report['cpu_without_s']:.2f} s", f"{report['cpu_with_s'] / report['cpu_without_s']:.2f}×"),
        (f"re-index after editing {report['edits']} pages, CPU", f"{report['inc_cpu_with_s'] * 1000:.0f} ms",
         f"no-op {report['inc_cpu_without_s'] * 1000:.0f} ms",
         f"{report['inc_cpu_with_s'] / report['inc_cpu_without_s']:.2f}×"),
        ("stored snapshot per replaced revision", f"{report['snapshot_bytes_per_doc']:.0f} B",
         f"source text {report['text_bytes_per_doc']:.0f} B",
         f"{report['snapshot_bytes_per_doc'] / report['text_bytes_per_doc']:.2f}×"),
        ("`diff REF` p50 (after an edit)", f"{report['diff_p50_ms']:.2f} ms",
         f"`get REF` p50 {report['get_p50_ms']:.2f} ms", f"{report['diff_p50_ms'] / report['get_p50_ms']:.2f}×"),
        ("`changes` (1000 entries)", f"{report['changes_1000_ms']:.1f} ms", "—", "—"),
    ]
    lines = ["| measurement | value | baseline | ratio |", "| --- | ---: | --- | ---: |"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    lines.append("")
    lines.append(f"{report['documents']} pages, median of {report['repeats']} interleaved repeats per side "
                 f"(with: {', '.join(f'{s:.2f}' for s in report['all_with_s'])} s; without: "
                 f"{', '.join(f'{s:.2f}' for s in report['all_without_s'])} s); {report['edits']} pages edited "
                 "(description line and a new example), re-indexed, each diffed.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--write-results", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args(argv)
    report = run(args.repeats, args.edits)
    table = markdown(report)
    print(table)
    if args.write_results:
        command = f"python -m bench.delta_bench --repeats {args.repeats} --edits {args.edits} --write-results"
        update_section("Knowledge delta cost (issue 16)",
                       f"Command: `{command}`  \nDate: {stamp()}  \nMachine: {machine_note()}\n\n{table}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
