"""Score the verifier on the session-6 probe pairs (issue 12; tuning material).

``tests/fixtures/verify/session6_probes.jsonl`` holds single-sentence claim/evidence
pairs labelled supported or unsupported (see that folder's README). Printed: false
supports (unsupported claims marked supported), supported claims marked supported and
supported claims marked contradicted, overall and per ``cause``.

    PYTHONPATH=src python -m bench.eval_verify_probes
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from cairn.answer import EvidenceSpan, split_claims, verify_claims

PROBES = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "fixtures"
    / "verify"
    / "session6_probes.jsonl"
)


def main() -> None:
    rows = [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines()]
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        span = EvidenceSpan("E1", r["evidence"], "probe.md", 1, 1)
        (v,) = verify_claims(split_claims(r["claim"]), [span])
        for key in ("all", r["cause"]):
            t = tally[key]
            if r["label"] == "unsupported":
                t[0] += 1
                t[1] += v.verdict == "supported"
            else:
                t[2] += 1
                t[3] += v.verdict == "supported"
                t[4] += v.verdict == "contradicted"
    print(
        "| cause | false supported | supported marked supported | supported marked contradicted |"
    )
    print("|---|---:|---:|---:|")
    for key in ["all", *sorted(k for k in tally if k != "all")]:
        n_u, fs, n_s, ok, contra = tally[key]
        print(f"| {key} | {fs}/{n_u} | {ok}/{n_s} | {contra} |")


if __name__ == "__main__":
    main()
