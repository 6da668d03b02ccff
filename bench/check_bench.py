"""Verifier speed: how long does checking a 10-claim draft against a capsule take?

    .venv/bin/python -m bench.check_bench                 # 14 notes of bench/verify_set, 200 drafts
    .venv/bin/python -m bench.check_bench --drafts 500 --budget 1200

The notes of ``bench/verify_set/`` are indexed into a temporary cairn home. For each
draft, 10 claims of the case set (drawn with a fixed seed, supported and unsupported,
English and CJK) are verified with ``verify_claims`` (deterministic, no judge) against
the evidence of the Context Capsule built for the first claim (BM25, ``--budget``
tokens), as ``ask --verify`` and ``cairn check`` do. Only the verification is timed
(the capsule is built outside the timer); p50/p95/max over the drafts are printed.
The verifier caches token analysis per text and the sentence units per span, so a
first (cold: every cache cleared) run of each draft is timed separately from a second
(warm) run of the same draft; wall-clock and process CPU time are both printed (on a
shared machine the CPU time is the steadier figure).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

import cairn  # noqa: E402
from cairn.answer import Claim, EvidenceSpan, verify_claims  # noqa: E402
from cairn.answer import account as account_module  # noqa: E402
from cairn.answer import coordination as coordination_module  # noqa: E402
from cairn.answer import evidence as evidence_module  # noqa: E402
from cairn.answer import tokens as tokens_module  # noqa: E402

SET = ROOT / "bench" / "verify_set"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drafts", type=int, default=200)
    parser.add_argument("--claims", type=int, default=10)
    parser.add_argument("--budget", type=int, default=700)
    args = parser.parse_args()

    cases = [
        json.loads(line)
        for line in (SET / "cases.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rng = random.Random(12)
    with tempfile.TemporaryDirectory() as tmp:
        ws = cairn.open(home=Path(tmp) / "home")
        ws.add_collection(SET / "notes", name="verifyset")
        ws.index()
        cold: list[float] = []
        warm: list[float] = []
        cold_cpu: list[float] = []
        warm_cpu: list[float] = []
        spans_per_draft: list[int] = []
        for _ in range(args.drafts):
            draft = rng.sample(cases, args.claims)
            capsule = ws.context_build(
                draft[0]["claim"], budget_tokens=args.budget, collections=["verifyset"]
            )
            evidence = [
                EvidenceSpan(item.ref, item.text, item.uri, item.start_line, item.end_line)
                for item in capsule.evidence
            ]
            claims = [Claim(f"c{i}", c["claim"], (), True) for i, c in enumerate(draft)]
            tokens_module.account_tokens.cache_clear()
            account_module._index.cache_clear()
            evidence_module._units.cache_clear()
            coordination_module.clause_readings.cache_clear()
            evidence_module._is_unit.cache_clear()
            t0, c0 = time.perf_counter(), time.process_time()
            verify_claims(claims, evidence)
            cold.append((time.perf_counter() - t0) * 1000)
            cold_cpu.append((time.process_time() - c0) * 1000)
            t0, c0 = time.perf_counter(), time.process_time()
            verify_claims(claims, evidence)
            warm.append((time.perf_counter() - t0) * 1000)
            warm_cpu.append((time.process_time() - c0) * 1000)
            spans_per_draft.append(len(evidence))

    print(
        f"verify_claims: {args.drafts} drafts x {args.claims} claims, capsule budget {args.budget} tokens "
        f"({statistics.mean(spans_per_draft):.1f} evidence spans on average)"
    )
    print()
    print("| run | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|")
    runs = (
        ("cold (caches cleared), wall", cold),
        ("cold (caches cleared), CPU", cold_cpu),
        ("warm, wall", warm),
        ("warm, CPU", warm_cpu),
    )
    for name, values in runs:
        print(
            f"| {name} | {percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f} | {max(values):.1f} |"
        )


if __name__ == "__main__":
    main()
