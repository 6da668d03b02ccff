"""Paired before/after comparison of two saved rankings of the same modes.

    .venv/bin/python -m bench.compare_runs BEFORE_DIR AFTER_DIR [--modes hybrid,hybrid-fast] [--collections ...]

Each directory holds ``<collection>/runs.json`` as ``eval_retrieval.py`` saves them (e.g. a
copy of ``bench/.work`` made before a change, and ``bench/.work`` after it). For each
collection, split (``all``, ``tune``, ``test``; :meth:`EvalCollection.split`), measure
(nDCG@10, R@5, MRR@10; LoCoMo R@5, R@10, MRR@10) and mode: the mean before, after, and
after − before with its paired 95% bootstrap interval (``eval_retrieval.paired_bootstrap``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import eval_retrieval as er


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--modes", default="hybrid,hybrid-fast")
    parser.add_argument("--collections", nargs="+", default=["nfcorpus", "cranfield", "medline", "locomo"])
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    print("| collection | split | n | measure | mode | before | after | after − before [95% CI] |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: | ---: |")
    for name in args.collections:
        files = [args.before / name / "runs.json", args.after / name / "runs.json"]
        if not all(f.exists() for f in files):
            print(f"{name}: runs missing, skipped", file=sys.stderr)
            continue
        collection = er.LOADERS[name](argparse.Namespace(no_titles=False, turn="full", no_sequence=False))
        before, after = (json.loads(f.read_text()) for f in files)
        split = collection.split()
        for mode in modes:
            if mode not in before or mode not in after:
                continue
            a = collection.per_query({q: [(d, float(s)) for d, s in r] for q, r in before[mode].items()})
            b = collection.per_query({q: [(d, float(s)) for d, s in r] for q, r in after[mode].items()})
            for part in ("all", "tune", "test"):
                qids = [q for q in split if part == "all" or split[q] == part]
                for measure in er.PAIRED_LOCOMO if collection.questions else er.PAIRED_IR:
                    locomo = bool(collection.questions) and measure != "MRR@10"
                    va, vb = [a[measure][q] for q in qids], [b[measure][q] for q in qids]
                    mean, lo, hi = er.paired_bootstrap(vb, va)
                    flag = " ▼" if hi < 0 else (" ▲" if lo > 0 else "")
                    print(f"| {name} | {part} | {len(qids)} | {measure} | {mode} | "
                          f"{er.fmt_paired(sum(va) / len(qids), locomo)} | {er.fmt_paired(sum(vb) / len(qids), locomo)} | "
                          f"{er.fmt_delta(mean, locomo)} [{er.fmt_delta(lo, locomo)}, {er.fmt_delta(hi, locomo)}]{flag} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
