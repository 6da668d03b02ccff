"""Benchmark ``check_draft``: a 10-claim draft checked against a saved capsule.

A capsule is built once over ``bench/verify_set/notes`` (budget 1200 tokens) and saved as
canonical JSON; the timed call is the whole SDK operation, ``ws.check_draft(draft,
capsule=<saved bytes>)``: parsing and integrity-checking the capsule, splitting the draft
into claims and verifying each. Goal (issue 12): p50 <= 100 ms.

Run: ``PYTHONPATH=src python bench/check_draft_bench.py [--runs 50]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOAL = "on-call paging, alerts and failover of the payments gateway"
DRAFT = """\
The primary on-call engineer must acknowledge a page within 5 minutes [E1].
If the primary does not acknowledge within 15 minutes, the page escalates to the secondary [E1].
On-call shifts last 7 days and hand over every Monday at 10:00 UTC [E1].
Engineers in their first 3 months must not take primary on-call [E1].
PGWHighLatency fires when p99 latency exceeds 800 ms for 10 minutes [E2].
PGWErrorRate fires when the 5xx rate is above 5% for 5 minutes [E2].
The disk alert on pgw-db-1 fires at 85% usage [E2].
Promotion of the standby database takes about 90 seconds [E3].
The DNS TTL is 60 seconds, so most clients move within 2 minutes [E3].
A failover may be started by any engineer without approval [E3].
"""


def main(argv: list[str] | None = None) -> int:
    import cairn
    from cairn.capsule.canonical import canonical_json

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
    home = HERE / ".work" / "check-draft-bench"
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    with cairn.open(home=home) as ws:
        ws.add_collection(HERE / "verify_set" / "notes", name="notes")
        ws.index()
        saved = canonical_json(ws.context_build(GOAL, budget_tokens=1200))
        report = ws.check_draft(DRAFT, capsule=saved)  # warm-up (imports, caches)
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            ws.check_draft(DRAFT, capsule=saved)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"check_draft: {len(report.claims)} claims, capsule {len(saved)} bytes, "
          f"{report.supported} supported / {report.unsupported} unsupported")
    print(f"| runs | p50 ms | p95 ms | goal p50 <= 100 ms |\n|---|---|---|---|\n"
          f"| {args.runs} | {p50:.1f} | {p95:.1f} | {'met' if p50 <= 100 else 'NOT met'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
