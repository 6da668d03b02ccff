"""LoCoMo as agent memory: the governor's plan over stored observations vs plain ``query``.

    .venv/bin/python -m bench.eval_memory                 # tune on conversations 1-2, report 3-5
    .venv/bin/python -m bench.eval_memory --split tune    # tune split only (design variants)
    .venv/bin/python -m bench.eval_memory --floor 0.3 --confident 0.5   # fixed constants, no tuning

Data: ``../shared/eval/locomo/locomo-dev.json`` (5 of the 10 LoCoMo conversations, CC BY-NC
4.0, evaluation only), loaded by :mod:`bench.eval_locomo`.

Memory. Every turn of conversations 1-5 is an observation in the memory store, written
through ``ws.memory_import`` (the service's bulk path: validation, redaction, history rows,
one transaction per conversation): title ``<speaker>, <session date>``, narrative the turn's
text (and its photo caption), ``observed_at`` the session date, ``source`` import,
``topic_key`` the turn id, project ``locomo/<conversation>``. The records are embedded
with ``ws.embed`` (which embeds memory records too; content-addressed: a turn whose text the LoCoMo collection index
has already embedded is copied from there, as the same model gives the same vector).
The memory index lives in ``bench/.work/locomo-memory`` and is rebuilt when the data or
this mapping change (a stamp of both). For every question, ``PlanService.plan_candidates``
(what ``ws.plan`` runs: hybrid recall over the memory store, :mod:`cairn.memory.recall`)
gives the candidates of the question's project, and the governor plans at each budget; the
first questions are also planned through ``ws.plan`` itself and checked byte-identical
(twice: the plan is deterministic), so the plan measured is the one an agent gets.

Baseline: ``ws.query(question, limit=50, collections=[conversation])`` over the LoCoMo
collection index (:mod:`bench.eval_retrieval`, one file per turn, each conversation a
sequence; ``bench/.work/locomo``), its turns packed greedily in rank order into the budget
(a turn that does not fit is skipped, the next one tried), each turn's text counted with
the plan's tokenizer (an observation's text is the same text as the turn's document).

Metric: the paper's evidence-turn recall (|evidence ∩ handed turns| / |evidence|, 1 for a
question without evidence); a plan hands over its ``include`` and ``compact`` items.
Paired bootstrap 95% CIs (10,000 resamples) of plan − query per budget.

Abstention: on the adversarial category (5: the answer is not in the conversation), how
often the plan abstains or marks ``confidence: low``; on answerable questions (1-4), how
often it abstains (goal ≤ 10%).

Split: conversations 1-2 (``conv-26``, ``conv-30``) tune ``relevance_floor`` and
``confident_score``; conversations 3-5 are reported with the chosen values.
Rule: the highest floor whose answerable abstention ≤ 10% and whose mean plan recall is
within 0.5 points of the query's (or above) at every budget on the tuning split; then the
highest ``confident_score`` that marks ≤ 25% of answerable plans low-confidence.

Work folder: ``bench/.work`` of the main checkout (found through git's common directory),
so the caches outlive a worktree.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import eval_locomo
from bench.eval_retrieval import EVAL, load_locomo, paired_bootstrap, prepare, stem_of

BUDGETS = (400, 800, 1600)
DEPTH = 50
FLOORS = tuple(round(0.05 * i, 2) for i in range(0, 13))
CONFIDENTS = tuple(round(0.05 * i, 2) for i in range(4, 17))
LOW_CONFIDENCE_CAP = 0.25
#: Points of mean recall the plan may trail the query on the tuning split (noise: a few
#: questions out of 300 decide a tenth of a point).
RECALL_TOLERANCE = 0.5
ABSTAIN_CAP = 0.10
CHECKED_PLANS = 25
#: Bump when the turn -> observation mapping changes (rebuilds the memory index).
MAPPING_VERSION = 1


def _work() -> Path:
    """``bench/.work`` of the main checkout (outlives worktrees), else next to this file."""
    here = Path(__file__).resolve().parent
    try:
        common = subprocess.run(["git", "-C", str(here), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return here / ".work"
    main = Path(common).parent / "bench"
    return (main if main.is_dir() else here) / ".work"


WORK = _work()


@dataclass
class Asked:
    question: eval_locomo.Question
    caller: Any
    pool: list[Any]
    query_turns: list[tuple[str, int]]  # (dia id, tokens) in rank order


def observation(dia: str, text: str) -> dict[str, Any]:
    """The observation of one LoCoMo turn (its document text: ``<speaker>, <when>:`` then
    the turn's text and photo caption)."""
    head, _, body = text.strip().partition("\n")
    when = head.rstrip(":").split(", ", 1)[1]
    observed = datetime.strptime(when, "%I:%M %p on %d %B, %Y").strftime("%Y-%m-%dT%H:%M:00Z")
    return {"title": head.rstrip(":"), "narrative": body.strip(), "observed_at": observed, "source": "import",
            "topic_key": dia}


def memory_index(data: eval_locomo.Locomo, conversations: Sequence[str], passages: Any) -> Any:
    """The memory index of the turns of ``conversations`` (built, or reused when current)."""
    import cairn

    base = WORK / "locomo-memory"
    payload = {c: [observation(d, t) for d, t in data.turns[c].items()] for c in conversations}
    stamp = hashlib.sha256(json.dumps([MAPPING_VERSION, payload], sort_keys=True).encode()).hexdigest()
    marker = base / "stamp"
    if not marker.exists() or marker.read_text() != stamp:
        shutil.rmtree(base, ignore_errors=True)
        (base / "home").mkdir(parents=True)
        ws = cairn.open(home=base / "home", index="memory")
        started = time.perf_counter()
        for conv, observations in payload.items():
            ws.memory_import(observations, project=f"locomo/{conv}")
        print(f"  memory: {sum(map(len, payload.values()))} observations imported in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        # The same model gives the same vector for the same text: copy what the collection
        # index has embedded already (content-addressed), embed the rest.
        from cairn.memory.recall import embed_text, text_hash

        fingerprint = ws.models.embedder().fingerprint
        texts = [embed_text(r) for r in ws._open_store(True).memory_list(None)]
        known = passages._open_store(False).vectors_for(fingerprint, [text_hash(t) for t in texts])
        ws._open_store(True).write_vectors(fingerprint, [(h, blob, len(blob) // 4, 0) for h, blob in known.items()])
        started = time.perf_counter()
        embedded = ws.embed().memory_embedded
        print(f"  memory: {len(known)} vectors copied, {embedded} embedded in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)
        ws.close()
        marker.write_text(stamp)
    return cairn.open(home=base / "home", index="memory")


def pack_query(turns: Sequence[tuple[str, int]], budget: int) -> set[str]:
    used, handed = 0, set()
    for dia, tokens in turns:
        if used + tokens <= budget:
            handed.add(dia)
            used += tokens
    return handed


def gather(memory: Any, ws: Any, questions: Sequence[eval_locomo.Question],
           turn_tokens: dict[tuple[str, str], int]) -> list[Asked]:
    asked = []
    started = time.perf_counter()
    for n, q in enumerate(questions):
        caller, pool, _ = memory._plans.plan_candidates(q.text, project=f"locomo/{q.conversation}")
        results = ws.query(q.text, limit=DEPTH, collections=[q.conversation]).results
        turns = [(dia, turn_tokens[(q.conversation, dia)])
                 for dia in (eval_locomo.dia_id_of(stem_of(r.uri)) for r in results)]
        asked.append(Asked(q, caller, pool, turns))
        if n % 200 == 0:
            print(f"  {n}/{len(questions)} questions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return asked


def evaluate(asked: Sequence[Asked], settings: Any, turn_of: dict[str, str]) -> dict[str, Any]:
    from cairn.memory.governor import plan

    out: dict[str, Any] = {"plan": {b: [] for b in BUDGETS}, "query": {b: [] for b in BUDGETS},
                           "mode": {b: [] for b in BUDGETS}, "confidence": {b: [] for b in BUDGETS},
                           "used": {b: [] for b in BUDGETS}, "category": [a.question.category for a in asked]}
    for a in asked:
        for budget in BUDGETS:
            result = plan(a.question.text, a.pool, a.caller, budget, settings)
            handed = [turn_of[i.key] for i in result.items if i.disposition in ("include", "compact")]
            out["plan"][budget].append(eval_locomo.recall(a.question.evidence, handed, len(handed) or 1))
            out["query"][budget].append(eval_locomo.recall(a.question.evidence, sorted(pack_query(a.query_turns, budget)),
                                                           10_000))
            out["mode"][budget].append(result.mode)
            out["confidence"][budget].append(result.confidence)
            out["used"][budget].append(result.budget.used)
    return out


def rates(out: dict[str, Any], budget: int) -> dict[str, float]:
    cats = out["category"]
    answerable = [i for i, c in enumerate(cats) if c != 5]
    adversarial = [i for i, c in enumerate(cats) if c == 5]
    modes, conf = out["mode"][budget], out["confidence"][budget]
    return {
        "answerable_abstain": sum(modes[i] == "abstain" for i in answerable) / max(len(answerable), 1),
        "answerable_low": sum(conf[i] == "low" for i in answerable) / max(len(answerable), 1),
        "adversarial_abstain": sum(modes[i] == "abstain" for i in adversarial) / max(len(adversarial), 1),
        "adversarial_abstain_or_low": sum(modes[i] == "abstain" or conf[i] == "low" for i in adversarial)
        / max(len(adversarial), 1),
        "n_answerable": len(answerable), "n_adversarial": len(adversarial),
    }


def mean(values: Sequence[float]) -> float:
    return 100 * sum(values) / max(len(values), 1)


def tune(asked: Sequence[Asked], turn_of: dict[str, str]) -> tuple[Any, list[str]]:
    from cairn.memory.governor import GovernorSettings

    log = ["| floor | answerable abstain @800 | plan − query R (400/800/1600) | ok |", "| --- | --- | --- | --- |"]
    chosen_floor = 0.0
    for floor in FLOORS:
        out = evaluate(asked, GovernorSettings(relevance_floor=floor, confident_score=1.0), turn_of)
        abstain = rates(out, 800)["answerable_abstain"]
        deltas = [mean(out["plan"][b]) - mean(out["query"][b]) for b in BUDGETS]
        ok = abstain <= ABSTAIN_CAP and all(d >= -RECALL_TOLERANCE for d in deltas)
        log.append(f"| {floor:.2f} | {100 * abstain:.1f}% | {' / '.join(f'{d:+.1f}' for d in deltas)} | "
                   f"{'yes' if ok else 'no'} |")
        if ok:
            chosen_floor = floor
    chosen_conf = chosen_floor
    for confident in CONFIDENTS:
        if confident < chosen_floor:
            continue
        out = evaluate(asked, GovernorSettings(relevance_floor=chosen_floor, confident_score=confident), turn_of)
        if rates(out, 800)["answerable_low"] <= LOW_CONFIDENCE_CAP:
            chosen_conf = confident
    return GovernorSettings(relevance_floor=chosen_floor, confident_score=chosen_conf), log


def report(name: str, out: dict[str, Any]) -> list[str]:
    lines = [f"**{name}** ({len(out['category'])} questions)", "",
             "| budget | plan R | query R | plan − query [95% CI] | plan tokens used (mean) | answerable abstain | "
             "adversarial abstain | adversarial abstain or low |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for b in BUDGETS:
        diff, lo, hi = paired_bootstrap(out["plan"][b], out["query"][b])
        r = rates(out, b)
        lines.append(f"| {b} | {mean(out['plan'][b]):.1f} | {mean(out['query'][b]):.1f} | "
                     f"{100 * diff:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] | "
                     f"{sum(out['used'][b]) / max(len(out['used'][b]), 1):.0f} | "
                     f"{100 * r['answerable_abstain']:.1f}% (n={r['n_answerable']}) | "
                     f"{100 * r['adversarial_abstain']:.1f}% | {100 * r['adversarial_abstain_or_low']:.1f}% "
                     f"(n={r['n_adversarial']}) |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--floor", type=float, default=None, help="Fixed relevance floor (no tuning).")
    parser.add_argument("--confident", type=float, default=None, help="Fixed confident score (with --floor).")
    parser.add_argument("--split", choices=("tune", "both"), default="both",
                        help="tune: the tuning split only (to compare design variants); both: tune, then test.")
    parser.add_argument("--variant", choices=("final", "bm25-only", "no-session"), default="final",
                        help="Design variants compared on the tune split: recall without vectors, or "
                             "without session context (the final design has both).")
    parser.add_argument("--limit", type=int, default=None, help="At most N questions per split (smoke runs).")
    parser.add_argument("--json", type=Path, default=None, help="Write the figures here as JSON.")
    args = parser.parse_args(argv)

    from cairn.memory.governor import GovernorSettings, canonical
    from cairn.memory.governor import plan as govern
    from cairn.models.tokens import budget_token_counter

    collection = load_locomo(EVAL / "locomo")
    ws, _ = prepare(collection, WORK / "locomo", argparse.Namespace(chunk_max_tokens=None), embed=True)
    data = eval_locomo.load_locomo(EVAL / "locomo" / "locomo-dev.json")
    conversations = list(data.turns)[:5]
    tune_convs, test_convs = conversations[:2], conversations[2:5]
    memory = memory_index(data, conversations, ws)
    if args.variant == "bm25-only":
        memory._recall._embedder = None
    elif args.variant == "no-session":
        memory._recall._settings = dataclasses.replace(memory._recall._settings, sequence_previous=0.0,
                                                       sequence_next=0.0)
    os.chdir(tempfile.mkdtemp(prefix="eval-memory-"))  # no git repository: no git facts
    counter = budget_token_counter()
    keys = [(conv, dia) for conv in conversations for dia in data.turns[conv]]
    counts = counter.count([data.turns[c][d].strip() for c, d in keys])
    turn_tokens = dict(zip(keys, counts, strict=True))
    dia_of = {re.sub(r"\s+", " ", dia.lower()): dia for conv in conversations for dia in data.turns[conv]}
    turn_of = {r.id: dia_of[r.topic_key] for r in memory._open_store(False).memory_list(None)}

    def questions(convs: Sequence[str]) -> list[eval_locomo.Question]:
        chosen = [q for q in data.questions if q.conversation in convs]
        return chosen[: args.limit] if args.limit else chosen

    print(f"gathering candidates ({counter.name})", file=sys.stderr)
    tune_asked = gather(memory, ws, questions(tune_convs), turn_tokens)
    test_asked = gather(memory, ws, questions(test_convs), turn_tokens) if args.split == "both" else []
    # The plan measured is the one `ws.plan` returns, byte for byte, and the same twice.
    for a in (test_asked or tune_asked)[:CHECKED_PLANS]:
        project = f"locomo/{a.question.conversation}"
        direct = [canonical(memory.plan(a.question.text, budget=800, project=project, explain=True)
                            .model_dump(mode="json")) for _ in range(2)]
        mine = canonical(govern(a.question.text, a.pool, a.caller, 800, memory._plans.settings,
                                token_counter=counter.name).model_dump(mode="json"))
        assert direct[0] == direct[1] == mine, a.question.qid
    if args.floor is not None:
        settings = GovernorSettings(relevance_floor=args.floor,
                                    confident_score=args.confident if args.confident is not None else args.floor)
        log: list[str] = []
    else:
        settings, log = tune(tune_asked, turn_of)
    tune_out = evaluate(tune_asked, settings, turn_of)
    lines = [f"settings: relevance_floor={settings.relevance_floor}, confident_score={settings.confident_score} "
             f"(tuned on {', '.join(tune_convs)})" if log else f"settings: {settings}", "",
             *log, "", *report(f"tune split: {', '.join(tune_convs)}", tune_out)]
    test_out = None
    if test_asked:
        test_out = evaluate(test_asked, settings, turn_of)
        lines += ["", *report(f"test split: {', '.join(test_convs)}", test_out)]
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"settings": dataclasses.asdict(settings), "tune": tune_out,
                                         "test": test_out}, default=str))
    memory.close()
    ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
