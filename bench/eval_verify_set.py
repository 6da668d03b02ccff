"""Evaluate the claim verifier on the independent adversarial set (issue 12).

The set, ``bench/verify_set/`` (see its README), is 26 notes written for the purpose and
one claim per case, labelled ``supported`` or ``unsupported`` with a kind (verbatim,
paraphrase, table-cell, ...; role-swap, modality, scope, unit-changed, ...). The notes are
indexed into a temporary cairn home through the SDK, then every claim is verified
(``cairn.answer.verify_claims``, deterministic, no judge) in up to three settings:

* ``note``: the whole note as one evidence span (lines 1..N);
* ``passages``: every passage the index cut the note into, one span each (the exact lines);
* ``retrieved``: the evidence of a Context Capsule built for the claim over all the notes
  (``Workspace.context_build``, as ``ask --verify`` builds it: BM25, 700 tokens).

Printed per setting: a table per kind (n, marked supported / contradicted / insufficient /
uncertain), then the headline figures, overall and per split:

* false supports: unsupported claims marked supported (goal: 0);
* verbatim and near-verbatim supported rate: verbatim, inflection, reordered coordinated
  items, exact unit equivalences (goal: >= 95%);
* exact equivalences (units, number words, date formats), paraphrase/synonym recall and
  table-cell recall (reported);
* contradiction recall (unsupported claims labelled ``contradicted`` that are marked
  contradicted) and false contradictions (supported claims marked contradicted).

In ``retrieved`` the share of cases whose labelled evidence line is inside the capsule is
printed too, so that misses of retrieval and of the verifier can be told apart.

    .venv/bin/python -m bench.eval_verify_set                   # all settings, all splits
    .venv/bin/python -m bench.eval_verify_set --split tune      # only the tuning notes
    .venv/bin/python -m bench.eval_verify_set --settings note,passages --errors
    .venv/bin/python -m bench.eval_verify_set --json
    .venv/bin/python -m bench.eval_verify_set --split test2 --bootstrap 2000   # 95% CIs

Exit status 0 when the goals hold (no false support, verbatim/near-verbatim >= 95%) in
the ``note`` and ``passages`` settings that were run, else 1.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

import cairn  # noqa: E402
from cairn.answer import Claim, EvidenceSpan, verify_claims  # noqa: E402

SET = ROOT / "bench" / "verify_set"
CASES = SET / "cases.jsonl"
NOTES = SET / "notes"
COLLECTION = "verifyset"
SETTINGS = ("note", "passages", "retrieved")
VERDICTS = ("supported", "contradicted", "insufficient", "uncertain")

SUPPORTED_KINDS = (
    "verbatim", "near-verbatim-inflection", "near-verbatim-reorder", "unit-equivalence",
    "number-word", "date-format", "paraphrase", "synonym", "table-cell",
)
UNSUPPORTED_KINDS = (
    "role-swap", "modality", "tense", "negation-dropped", "scope", "unit-changed", "antonym",
    "causal", "quantifier", "version", "table-wrong-row", "number-changed", "entity-swap",
    "cjk-object", "cjk-frequency", "cjk-other", "unrelated",
)
#: Groups of supported kinds behind the headline figures.
GROUPS: dict[str, tuple[str, ...]] = {
    "verbatim+near-verbatim": ("verbatim", "near-verbatim-inflection", "near-verbatim-reorder", "unit-equivalence"),
    "exact equivalences": ("unit-equivalence", "number-word", "date-format"),
    "paraphrase+synonym": ("paraphrase", "synonym"),
    "table-cell": ("table-cell",),
    "all supported": SUPPORTED_KINDS,
}
VERBATIM_GOAL = 0.95


def load_cases(path: Path = CASES, split: str = "all") -> list[dict[str, Any]]:
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [c for c in cases if split == "all" or c["split"] == split]


# --- evidence per setting --------------------------------------------------------------------


class Evidence:
    """Builds the evidence spans of each setting from a temporary cairn home."""

    def __init__(self, home: Path, notes: Path) -> None:
        self.notes = notes
        self.ws = cairn.open(home=home)
        self.ws.add_collection(notes, name=COLLECTION)
        self.ws.index()
        self._lines: dict[str, list[str]] = {}
        self._uri: dict[str, str] = {}
        self._passages: dict[str, list[EvidenceSpan]] = {}
        self.retrieval_hits = 0
        self.retrieval_checked = 0

    def lines(self, note: str) -> list[str]:
        if note not in self._lines:
            self._lines[note] = (self.notes / note).read_text(encoding="utf-8").splitlines()
        return self._lines[note]

    def uri(self, note: str) -> str:
        if note not in self._uri:
            self._uri[note] = self.ws.get(f"{COLLECTION}/{note}").uri
        return self._uri[note]

    def whole_note(self, note: str) -> list[EvidenceSpan]:
        lines = self.lines(note)
        return [EvidenceSpan(evidence_id="E1", text="\n".join(lines), uri=self.uri(note),
                             start_line=1, end_line=len(lines))]

    def passages(self, note: str) -> list[EvidenceSpan]:
        """Every indexed passage of the note, with the exact text of its lines."""
        if note not in self._passages:
            store = self.ws._open_store(create=False)  # bench only: the passages of one document
            rows = store.conn.execute(
                "SELECT p.start_line, p.end_line FROM passages p JOIN documents d ON d.id = p.document_id"
                " JOIN collections c ON c.id = d.collection_id"
                " WHERE c.name = ? AND d.path = ? AND d.active = 1 ORDER BY p.seq",
                (COLLECTION, note),
            ).fetchall()
            lines = self.lines(note)
            self._passages[note] = [
                EvidenceSpan(evidence_id=f"E{i}", text="\n".join(lines[s - 1 : e]), uri=self.uri(note),
                             start_line=s, end_line=e)
                for i, (s, e) in enumerate(rows, 1)
            ]
            if not rows:
                raise SystemExit(f"no passages indexed for {note}")
        return self._passages[note]

    def retrieved(self, case: dict[str, Any]) -> list[EvidenceSpan]:
        capsule = self.ws.context_build(case["claim"], budget_tokens=700, collections=[COLLECTION])
        spans = [
            EvidenceSpan(evidence_id=item.ref, text=item.text, uri=item.uri,
                         start_line=item.start_line, end_line=item.end_line)
            for item in capsule.evidence
        ]
        gold = case.get("evidence_lines")
        if gold:
            self.retrieval_checked += 1
            note_uri = self.uri(case["note"])
            self.retrieval_hits += any(
                s.uri == note_uri and s.start_line <= gold[0] and gold[1] <= s.end_line for s in spans
            )
        return spans

    def for_setting(self, setting: str, case: dict[str, Any]) -> list[EvidenceSpan]:
        if setting == "note":
            return self.whole_note(case["note"])
        if setting == "passages":
            return self.passages(case["note"])
        return self.retrieved(case)


# --- scoring ----------------------------------------------------------------------------------


def verify(case: dict[str, Any], evidence: list[EvidenceSpan]) -> tuple[str, str, str]:
    claim = Claim(id="C1", text=case["claim"], cited=(), substantive=True)
    verdict = verify_claims([claim], evidence)[0]
    return verdict.verdict, verdict.reason, verdict.detail


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Headline figures of one setting over ``rows`` (case + predicted verdict)."""
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        by_kind[r["kind"]][r["predicted"]] += 1
    unsupported = [r for r in rows if r["label"] == "unsupported"]
    supported = [r for r in rows if r["label"] == "supported"]
    contradicted = [r for r in unsupported if r["contradicted"]]
    groups = {}
    for name, kinds in GROUPS.items():
        members = [r for r in supported if r["kind"] in kinds]
        hit = sum(r["predicted"] == "supported" for r in members)
        groups[name] = {"n": len(members), "supported": hit, "rate": _rate(hit, len(members))}
    false_support = sum(r["predicted"] == "supported" for r in unsupported)
    return {
        "cases": len(rows),
        "unsupported": len(unsupported),
        "false_supported": false_support,
        "false_supported_rate": _rate(false_support, len(unsupported)),
        "groups": groups,
        "contradiction_recall": _rate(sum(r["predicted"] == "contradicted" for r in contradicted), len(contradicted)),
        "contradicted_cases": len(contradicted),
        "false_contradicted": sum(r["predicted"] == "contradicted" for r in supported),
        "by_kind": {k: dict(by_kind[k]) for k in (*SUPPORTED_KINDS, *UNSUPPORTED_KINDS) if k in by_kind},
    }


#: The figures given with bootstrap intervals: (name, case filter, hit test).
CI_FIGURES: tuple[tuple[str, Any, Any], ...] = (
    ("false-support rate", lambda r: r["label"] == "unsupported", lambda r: r["predicted"] == "supported"),
    ("verbatim+near-verbatim supported", lambda r: r["kind"] in GROUPS["verbatim+near-verbatim"],
     lambda r: r["predicted"] == "supported"),
    ("paraphrase+synonym recall", lambda r: r["kind"] in GROUPS["paraphrase+synonym"],
     lambda r: r["predicted"] == "supported"),
    ("contradiction recall", lambda r: r["label"] == "unsupported" and r["contradicted"],
     lambda r: r["predicted"] == "contradicted"),
)


def bootstrap(rows: list[dict[str, Any]], resamples: int, seed: int = 0) -> dict[str, Any]:
    """Percentile 95% intervals of the CI_FIGURES over ``resamples`` resamples of the
    cases (with replacement, the split's cases as the population)."""
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    for name, member, hit in CI_FIGURES:
        flags = [(member(r), member(r) and hit(r)) for r in rows]
        n = sum(m for m, _ in flags)
        if not n:
            continue
        point = sum(h for _, h in flags) / n
        rates = []
        for _ in range(resamples):
            sample = [flags[rng.randrange(len(flags))] for _ in flags]
            den = sum(m for m, _ in sample)
            if den:
                rates.append(sum(h for _, h in sample) / den)
        rates.sort()
        lo = rates[int(0.025 * (len(rates) - 1))]
        hi = rates[int(0.975 * (len(rates) - 1))]
        out[name] = {"n": n, "rate": point, "ci95": [lo, hi]}
    return out


def goals_met(summary: dict[str, Any]) -> bool:
    rate = summary["groups"]["verbatim+near-verbatim"]["rate"]
    return summary["false_supported"] == 0 and rate is not None and rate >= VERBATIM_GOAL


def evaluate(cases: list[dict[str, Any]], settings: tuple[str, ...], resamples: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cairn-verifyset-") as tmp:
        notes = Path(tmp) / "notes"
        shutil.copytree(NOTES, notes)
        evidence = Evidence(Path(tmp) / "home", notes)
        results: dict[str, Any] = {}
        for setting in settings:
            started = time.perf_counter()
            rows = []
            for case in cases:
                predicted, reason, detail = verify(case, evidence.for_setting(setting, case))
                rows.append({**case, "predicted": predicted, "reason": reason, "detail": detail})
            splits = sorted({r["split"] for r in rows})
            results[setting] = {
                "seconds": round(time.perf_counter() - started, 2),
                "all": summarise(rows),
                "splits": {s: summarise([r for r in rows if r["split"] == s]) for s in splits},
                "rows": rows,
            }
            if resamples:
                results[setting]["bootstrap"] = {
                    sp: bootstrap([r for r in rows if r["split"] == sp], resamples) for sp in splits
                }
            if setting == "retrieved":
                results[setting]["retrieval_hit_rate"] = _rate(evidence.retrieval_hits, evidence.retrieval_checked)
        evidence.ws.close()
    return results


# --- output -----------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def render(results: dict[str, Any]) -> str:
    out: list[str] = []
    for setting, res in results.items():
        summ = res["all"]
        out += [f"## Setting `{setting}` ({res['seconds']} s)", ""]
        out += ["| label | kind | n | supported | contradicted | insufficient | uncertain |",
                "|---|---|---:|---:|---:|---:|---:|"]
        for kind, counts in summ["by_kind"].items():
            label = "supported" if kind in SUPPORTED_KINDS else "unsupported"
            n = sum(counts.values())
            out.append(f"| {label} | {kind} | {n} | " + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + " |")
        out += ["", "| figure | " + " | ".join(["all", *res["splits"]]) + " |",
                "|---|" + "---:|" * (1 + len(res["splits"]))]
        cols = [summ, *res["splits"].values()]
        out.append("| false supported (unsupported marked supported) | "
                   + " | ".join(f"{c['false_supported']}/{c['unsupported']}" for c in cols) + " |")
        for name in GROUPS:
            out.append(f"| {name} marked supported | "
                       + " | ".join(f"{_pct(c['groups'][name]['rate'])} ({c['groups'][name]['supported']}/{c['groups'][name]['n']})"
                                    for c in cols) + " |")
        out.append("| contradiction recall (labelled contradicted → contradicted) | "
                   + " | ".join(f"{_pct(c['contradiction_recall'])} ({c['contradicted_cases']})" for c in cols) + " |")
        out.append("| supported claims marked contradicted | "
                   + " | ".join(str(c["false_contradicted"]) for c in cols) + " |")
        if "bootstrap" in res:
            out += ["", "Bootstrap 95% intervals (percentile, resampling the split's cases):", "",
                    "| split | figure | n | rate | 95% CI |", "|---|---|---:|---:|---|"]
            for sp, figs in res["bootstrap"].items():
                for name, f in figs.items():
                    out.append(f"| {sp} | {name} | {f['n']} | {_pct(f['rate'])} | "
                               f"[{_pct(f['ci95'][0])}, {_pct(f['ci95'][1])}] |")
        if "retrieval_hit_rate" in res:
            out += ["", f"Labelled evidence line inside the capsule: {_pct(res['retrieval_hit_rate'])}."]
        if setting != "retrieved":
            out += ["", "Goals (0 false supports, verbatim+near-verbatim >= 95%): "
                    + ("met" if goals_met(summ) else "NOT met")]
        out.append("")
    return "\n".join(out)


def render_errors(results: dict[str, Any]) -> str:
    out = []
    for setting, res in results.items():
        for r in res["rows"]:
            wrong = (r["label"] == "supported") != (r["predicted"] == "supported")
            if wrong:
                flag = "FALSE SUPPORT" if r["label"] == "unsupported" else "MISSED"
                out.append(f"[{setting}] {flag} {r['id']} ({r['kind']}): {r['predicted']} "
                           f"({r['reason']}: {r['detail']}) :: {r['claim']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("tune", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11", "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21", "test22", "all"), default="all")
    parser.add_argument("--settings", default=",".join(SETTINGS),
                        help="comma-separated subset of: " + ", ".join(SETTINGS))
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--errors", action="store_true", help="list every false support and missed support")
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="also give 95%% bootstrap intervals from N resamples (seed 0)")
    args = parser.parse_args(argv)
    settings = tuple(s.strip() for s in args.settings.split(",") if s.strip())
    if unknown := [s for s in settings if s not in SETTINGS]:
        parser.error(f"unknown setting(s): {', '.join(unknown)}")

    cases = load_cases(args.cases, args.split)
    results = evaluate(cases, settings, args.bootstrap)
    if args.json:
        payload = {
            "split": args.split,
            "cases": len(cases),
            "settings": {
                s: {k: v for k, v in res.items() if k != "rows"}
                | {"errors": [
                    {k: r[k] for k in ("id", "kind", "label", "predicted", "reason", "detail", "claim")}
                    for r in res["rows"]
                    if (r["label"] == "supported") != (r["predicted"] == "supported")
                ]}
                for s, res in results.items()
            },
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(f"# Claim verifier on the independent set — split {args.split}, {len(cases)} cases\n")
        print(render(results))
        if args.errors:
            print(render_errors(results))
    gated = [results[s]["all"] for s in ("note", "passages") if s in results]
    return 0 if gated and all(goals_met(s) for s in gated) else 1


if __name__ == "__main__":
    raise SystemExit(main())
