"""Evaluate answers: extractive verified ask on LoCoMo and on the verify-set notes, and
the bundled SmolLM2-135M generator on the same notes questions.

(a) LoCoMo dev (``../shared/eval/locomo/locomo-dev.json``): one note per turn (the
    documents of ``eval_retrieval.py``, index reused from ``bench/.work/locomo``), each
    question asked in its own conversation's collection with ``ask_verified(mode=
    "extractive")``. Categories 1-4 are answerable, 5 (adversarial) unanswerable. The
    constants of ``cairn.answer.extract`` were tuned on conversations conv-26 and conv-30
    (``--split tune``); conv-41, conv-42 and conv-43 are the test split (``--split test``).
    Reported: share of answerable questions with a verified answer, share of unanswerable
    ones that abstain (bootstrap 95% CIs over questions), and among verified answers the
    share that holds every word of the gold answer ("gold hit", a rough correctness proxy:
    LoCoMo gold answers are often resolved dates like "7 May 2023" where the turn says
    "yesterday").
(b) ``bench/verify_set/notes`` plus ``bench/answer_set/injected`` (prompt-injection notes)
    with the questions of ``bench/answer_set/questions.jsonl`` (answerable, unanswerable,
    injection). With ``--smollm2`` the same questions also go through the generative mode
    with the packaged SmolLM2-135M (verified ask and plain ``ask --answer``).
(c) ``--audit FILE`` writes a sample of 50 verified answers (question, answer, cited
    evidence) for a hand audit.

Run: ``PYTHONPATH=src python bench/eval_answers.py --split all --smollm2 --audit bench/answer_set/audit.md``
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import eval_locomo  # noqa: E402
import eval_retrieval  # noqa: E402

LOCOMO = HERE.parent.parent / "shared" / "eval" / "locomo" / "locomo-dev.json"
if not LOCOMO.exists():
    LOCOMO = Path("/work/shared/eval/locomo/locomo-dev.json")
SET = HERE / "answer_set"
WORK = HERE / ".work"
TUNE = ("conv-26", "conv-30")
SEED = 0


def bootstrap(values: Sequence[bool], reps: int = 2000) -> tuple[float, float, float]:
    """Share of True with a percentile bootstrap 95% CI (seeded)."""
    if not values:
        return float("nan"), float("nan"), float("nan")
    rng = random.Random(SEED)
    n = len(values)
    shares = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(reps))
    return sum(values) / n, shares[int(0.025 * reps)], shares[int(0.975 * reps) - 1]


def fmt(values: Sequence[bool]) -> str:
    share, lo, hi = bootstrap(values)
    return f"{100 * share:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={len(values)})"


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def gold_hit(answer: str, gold: str) -> bool:
    want = _words(gold) - {"the", "a", "an", "of", "and", "in", "on", "to"}
    return bool(want) and want <= _words(answer)


def locomo_workspace() -> Any:
    """The LoCoMo index of eval_retrieval.py (copied from the main checkout's bench/.work
    when this worktree has none), brought up to date without embedding."""
    base = WORK / "locomo"
    common = subprocess.run(["git", "-C", str(Path(__file__).parent), "rev-parse", "--path-format=absolute",
                             "--git-common-dir"], capture_output=True, text=True, check=False).stdout.strip()
    main_copy = Path(common).parent / "bench" / ".work" / "locomo"  # the main checkout's, from a worktree
    if not base.exists() and main_copy.exists():
        shutil.copytree(main_copy, base)
    collection = eval_retrieval.load_locomo(LOCOMO.parent)
    args = argparse.Namespace(chunk_max_tokens=None, turn="full", no_titles=False)
    ws, _ = eval_retrieval.prepare(collection, base, args, embed=False)
    return ws


def run_locomo(split: str, limit: int | None) -> list[dict[str, Any]]:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    gold = {f"{s['sample_id']}#{i}": str(qa.get("answer", qa.get("adversarial_answer", "")))
            for s in data for i, qa in enumerate(s["qa"])}
    questions = eval_locomo.load_locomo(LOCOMO).questions
    if split == "tune":
        questions = [q for q in questions if q.conversation in TUNE]
    elif split == "test":
        questions = [q for q in questions if q.conversation not in TUNE]
    if limit:
        questions = random.Random(SEED).sample(questions, min(limit, len(questions)))
    ws = locomo_workspace()
    rows = []
    started = time.perf_counter()
    for q in questions:
        r = ws.ask_verified(q.text, collections=[q.conversation], mode="extractive")
        rows.append({
            "set": "locomo", "split": "tune" if q.conversation in TUNE else "test", "id": q.qid,
            "question": q.text, "category": q.category, "answerable": q.category != 5,
            "abstained": r.abstained, "reason": r.abstain_reason, "answer": r.answer,
            "gold": gold.get(q.qid, ""), "warnings": r.warnings,
            "cited": _cited(r),
        })
    ws.close()
    print(f"locomo: {len(rows)} questions in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return rows


def _cited(r: Any) -> list[dict[str, Any]]:
    refs = sorted({ref for c in r.claims for ref in c.cited})
    return [{"ref": e.ref, "uri": e.uri, "lines": f"{e.start_line}-{e.end_line}", "text": e.text}
            for e in r.evidence if e.ref in refs]


def notes_workspace(home: Path, config: str = "") -> Any:
    import cairn

    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    if config:
        (home / "config.toml").write_text(config, encoding="utf-8")
    ws = cairn.open(home=home)
    ws.add_collection(HERE / "verify_set" / "notes", name="notes")
    ws.add_collection(SET / "injected", name="injected")
    ws.index()
    return ws


def load_questions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (SET / "questions.jsonl").read_text().splitlines() if line.strip()]


def judge_row(q: dict[str, Any], answer: str | None) -> dict[str, Any]:
    expect_ok = answer is not None and all(e.lower() in answer.lower() for e in q["expect"])
    forbidden = answer is not None and any(f.lower() in answer.lower() for f in q.get("forbid", []))
    return {"expect_ok": expect_ok, "forbidden": forbidden}


def run_notes(mode: str, timeout: float = 120.0, per_kind: int | None = None) -> list[dict[str, Any]]:
    config = ""
    if mode == "generative":
        config = "[generate]\nbackend = \"xllamacpp\"\ncapable = true\n"
    ws = notes_workspace(WORK / f"answer-set-{mode}", config)
    rows = []
    questions = load_questions()
    if per_kind:  # the first ``per_kind`` questions of each kind (the generator is slow)
        questions = [q for kind in ("answerable", "unanswerable", "injection")
                     for q in [x for x in questions if x["kind"] == kind][:per_kind]]
    for q in questions:
        started = time.perf_counter()
        r = ws.ask_verified(q["question"], mode=mode, max_tokens=96, timeout=timeout)
        verified_s = time.perf_counter() - started
        plain = ws.ask(q["question"], answer=True, mode=mode, max_tokens=96, timeout=timeout)
        plain_text = plain.answer.text if plain.answer is not None else None
        rows.append({
            "set": "notes", "mode": mode, "id": q["id"], "kind": q["kind"], "question": q["question"],
            "answerable": q["kind"] != "unanswerable" and bool(q["expect"]),
            "abstained": r.abstained, "reason": r.abstain_reason, "answer": r.answer, "draft": r.draft,
            "warnings": r.warnings, "seconds": round(verified_s, 2), "cited": _cited(r),
            "plain_answer": plain_text, "plain_error": plain.answer_error,
            "plain_warnings": plain.answer.warnings if plain.answer is not None else [],
            **judge_row(q, r.answer),
            "plain_forbidden": judge_row(q, plain_text)["forbidden"],
            "plain_expect_ok": judge_row(q, plain_text)["expect_ok"],
        })
    ws.close()
    return rows


def report_locomo(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| LoCoMo split | answerable with a verified answer | unanswerable (cat. 5) that abstain | gold hit among verified |",
           "|---|---|---|---|"]
    for split in ("tune", "test"):
        part = [r for r in rows if r.get("split") == split]
        if not part:
            continue
        ans = [r for r in part if r["answerable"]]
        una = [r for r in part if not r["answerable"]]
        verified = [r for r in ans if not r["abstained"]]
        out.append(f"| {split} | {fmt([not r['abstained'] for r in ans])} | {fmt([r['abstained'] for r in una])} "
                   f"| {fmt([gold_hit(r['answer'], r['gold']) for r in verified])} |")
    for split in ("tune", "test"):
        part = [r for r in rows if r.get("split") == split]
        for cat, name in eval_locomo.CATEGORIES.items():
            members = [r for r in part if r["category"] == cat]
            if members:
                out.append(f"| {split} cat {cat} {name} | verified {fmt([not r['abstained'] for r in members])} | | |")
    return out


def report_notes(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| notes mode | answerable: verified | verified & correct | unanswerable: abstain | injection: forbidden text in verified answer | in plain `ask --answer` | s/question (verified) |",
           "|---|---|---|---|---|---|---|"]
    for mode in ("extractive", "generative"):
        part = [r for r in rows if r.get("mode") == mode]
        if not part:
            continue
        ans = [r for r in part if r["kind"] == "answerable"]
        una = [r for r in part if r["kind"] == "unanswerable" or (r["kind"] == "injection" and not r["answerable"])]
        inj = [r for r in part if r["kind"] == "injection"]
        secs = sorted(r["seconds"] for r in part)
        out.append(
            f"| {mode} | {sum(not r['abstained'] for r in ans)}/{len(ans)} | {sum(r['expect_ok'] for r in ans)}/{len(ans)} "
            f"| {sum(r['abstained'] for r in una)}/{len(una)} | {sum(r['forbidden'] for r in inj)}/{len(inj)} "
            f"| {sum(r['plain_forbidden'] for r in inj)}/{len(inj)} | {secs[len(secs) // 2]:.2f} (median) |")
    return out


def write_audit(rows: list[dict[str, Any]], path: Path, n: int = 50) -> None:
    verified = [r for r in rows if not r["abstained"] and r["answer"] and r.get("mode", "extractive") == "extractive"
                and r.get("split") != "tune"]
    sample = random.Random(SEED).sample(verified, min(n, len(verified)))
    lines = ["# Hand audit: 50 verified extractive answers", "",
             f"Sampled with seed {SEED} from the verified answers of `bench/eval_answers.py` (LoCoMo test split "
             "and the notes set). For each: is every claim of the answer stated by the cited evidence? "
             "Verdict line filled in by hand.", ""]
    for i, r in enumerate(sample, 1):
        lines += [f"## {i}. {r['set']} {r['id']}", "", f"- question: {r['question']}", f"- answer: {r['answer']}"]
        if r.get("gold"):
            lines.append(f"- gold (LoCoMo): {r['gold']}")
        for c in r["cited"]:
            text = " ".join(c["text"].split())
            lines.append(f"- evidence {c['ref']} {c['uri']} lines {c['lines']}: {text[:600]}")
        lines += ["- audit: ", ""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("tune", "test", "all", "none"), default="all")
    parser.add_argument("--limit", type=int, default=None, help="sample this many LoCoMo questions")
    parser.add_argument("--smollm2", action="store_true", help="also run the generative mode with SmolLM2-135M")
    parser.add_argument("--only-smollm2", action="store_true", help="only the SmolLM2 generative run")
    parser.add_argument("--per-kind", type=int, default=None, help="SmolLM2: this many questions of each kind")
    parser.add_argument("--timeout", type=float, default=120.0, help="SmolLM2: seconds per generation")
    parser.add_argument("--audit", type=Path, default=None)
    parser.add_argument("--rows", type=Path, default=WORK / "answers-rows.json")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if not args.only_smollm2:
        if args.split != "none":
            rows += run_locomo(args.split, args.limit)
            print("\n".join(report_locomo(rows)), flush=True)
        rows += run_notes("extractive")
    if args.smollm2 or args.only_smollm2:
        rows += run_notes("generative", args.timeout, args.per_kind)
    args.rows.parent.mkdir(parents=True, exist_ok=True)
    args.rows.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = [*report_locomo(rows), "", *report_notes(rows)]
    print("\n".join(lines))
    if args.audit:
        write_audit(rows, args.audit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
