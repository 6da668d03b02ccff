"""Evaluate the claim verifier (issue 5) on ``tests/fixtures/verify/cases.jsonl``.

Each case is (question, capsule evidence, draft) written from real text (MEDLINE,
Cranfield, tldr pages; a few authored notes, marked as such in ``source``) with the
true verdict of every claim. The draft is split with ``split_claims`` and verified with
``verify_claims`` (deterministic, no judge). Printed per kind of case:

* claims: substantive claims;
* precision of "supported": of the claims the verifier calls supported, the share that
  truly are (target 100%: an unsupported or contradicted claim is never "supported");
* recall: of the truly supported claims, the share recognised (target >= 80%);
* agreement: share of claims whose verdict equals the true verdict;

then the confusion matrix (true verdict x verifier verdict) and the reason codes.

    .venv/bin/python -m bench.eval_verify            # table, updates bench/RESULTS.md
    .venv/bin/python -m bench.eval_verify --json     # machine-readable
    .venv/bin/python -m bench.eval_verify --errors   # list every disagreement
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

from cairn.answer import EvidenceSpan, split_claims, verify_claims  # noqa: E402

CASES = ROOT / "tests" / "fixtures" / "verify" / "cases.jsonl"
VERDICTS = ("supported", "contradicted", "insufficient", "uncertain")
COMMAND = ".venv/bin/python -m bench.eval_verify"


@dataclass
class Tally:
    """Counts for one group of claims."""

    claims: int = 0
    tp: int = 0  # predicted supported, truly supported
    fp: int = 0  # predicted supported, truly not
    true_supported: int = 0
    agree: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, truth: str, predicted: str) -> None:
        self.claims += 1
        self.true_supported += truth == "supported"
        self.tp += truth == "supported" and predicted == "supported"
        self.fp += truth != "supported" and predicted == "supported"
        self.agree += truth == predicted
        self.confusion[(truth, predicted)] += 1

    @property
    def precision(self) -> float | None:
        called = self.tp + self.fp
        return self.tp / called if called else None

    @property
    def recall(self) -> float | None:
        return self.tp / self.true_supported if self.true_supported else None


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    """The evaluation cases, one JSON object per line."""
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def evaluate(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Run the verifier over every case; return tallies, errors and split problems."""
    by_kind: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    reasons: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    split_problems: list[str] = []
    for case in cases:
        evidence = [EvidenceSpan(**e) for e in case["evidence"]]
        claims = split_claims(case["draft"])
        verdicts = verify_claims(claims, evidence)
        expected = case["expected"]
        if len(claims) != len(expected):
            split_problems.append(f"{case['id']}: {len(claims)} claims, expected {len(expected)}")
        for exp, v in zip(expected, verdicts, strict=False):
            if exp["text"] != v.claim.text or exp["substantive"] != v.claim.substantive:
                split_problems.append(f"{case['id']}[{exp['index']}]: split as {v.claim.text!r}")
            if not exp["substantive"]:
                continue
            truth, predicted = exp["verdict"], v.verdict
            by_kind[case["kind"]].add(truth, predicted)
            total.add(truth, predicted)
            reasons[v.reason] += 1
            if truth != predicted:
                errors.append(
                    {
                        "case": case["id"],
                        "claim": v.claim.text,
                        "truth": truth,
                        "predicted": predicted,
                        "reason": v.reason,
                        "detail": v.detail,
                        "false_support": truth != "supported" and predicted == "supported",
                    }
                )
    return {
        "cases": len(cases),
        "by_kind": dict(sorted(by_kind.items())),
        "total": total,
        "reasons": reasons,
        "errors": errors,
        "split_problems": split_problems,
    }


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def render(result: dict[str, Any], seconds: float) -> str:
    """The Markdown table, confusion matrix and reason counts."""
    total: Tally = result["total"]
    rows = [
        "| kind | claims | truly supported | precision of supported | recall of supported | agreement |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind, t in [*result["by_kind"].items(), ("**all**", total)]:
        rows.append(
            f"| {kind} | {t.claims} | {t.true_supported} | {_pct(t.precision)} | {_pct(t.recall)} | {_pct(t.agree / t.claims if t.claims else None)} |"
        )
    rows += ["", "Confusion matrix (rows: true verdict, columns: verifier verdict):", ""]
    rows.append("| true \\ verifier | " + " | ".join(VERDICTS) + " |")
    rows.append("|---|" + "---:|" * len(VERDICTS))
    for truth in VERDICTS[:3]:
        rows.append(
            f"| {truth} | " + " | ".join(str(total.confusion[(truth, p)]) for p in VERDICTS) + " |"
        )
    rows += [
        "",
        "Reason codes: " + ", ".join(f"`{r}` {n}" for r, n in result["reasons"].most_common()),
    ]
    false_support = sum(e["false_support"] for e in result["errors"])
    rows += [
        "",
        f"{result['cases']} cases, {total.claims} substantive claims "
        f"({total.true_supported} truly supported, {100 * total.true_supported / max(total.claims, 1):.0f}%); "
        f"false supports: {false_support}; split problems: {len(result['split_problems'])}; "
        f"{seconds:.2f} s, deterministic verifier, no judge.",
    ]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--errors", action="store_true", help="list every disagreement")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument("--cases", type=Path, default=CASES)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    result = evaluate(load_cases(args.cases))
    seconds = time.perf_counter() - started
    total: Tally = result["total"]
    if args.json:
        payload = {
            "cases": result["cases"],
            "claims": total.claims,
            "precision_supported": total.precision,
            "recall_supported": total.recall,
            "by_kind": {
                k: {
                    "claims": t.claims,
                    "precision_supported": t.precision,
                    "recall_supported": t.recall,
                    "agreement": t.agree / t.claims,
                }
                for k, t in result["by_kind"].items()
            },
            "confusion": {f"{a}->{b}": n for (a, b), n in sorted(total.confusion.items())},
            "reasons": dict(result["reasons"]),
            "errors": result["errors"],
            "split_problems": result["split_problems"],
        }
        print(json.dumps(payload, indent=2))
    else:
        table = render(result, seconds)
        print(table)
        if args.errors:
            print()
            for e in result["errors"]:
                flag = "FALSE SUPPORT " if e["false_support"] else ""
                print(
                    f"{flag}{e['case']}: {e['truth']} -> {e['predicted']} ({e['reason']}: {e['detail']}) :: {e['claim']}"
                )
            for p in result["split_problems"]:
                print("SPLIT", p)
        if not args.no_write:
            from bench.results_md import machine_note, stamp, update_section

            body = f"`{COMMAND}` — {stamp()}, {machine_note()}\n\n{table}"
            update_section("Verifier evaluation (issue 5)", body)
    ok = total.fp == 0 and (total.recall or 0) >= 0.8
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
