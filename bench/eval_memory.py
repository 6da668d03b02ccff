"""LoCoMo as agent memory: the governor's plan vs plain ``query`` packed into the same budget.

    .venv/bin/python -m bench.eval_memory                 # tune on conversations 1-2, report 3-5
    .venv/bin/python -m bench.eval_memory --floor 0.3 --confident 0.5   # fixed constants, no tuning

Data: ``../shared/eval/locomo/locomo-dev.json`` (5 of the 10 LoCoMo conversations, CC BY-NC
4.0, evaluation only), loaded by :mod:`bench.eval_locomo` and indexed by
:mod:`bench.eval_retrieval` (one file per turn holding speaker, session date and text, one
collection per conversation, embedded with MiniLM) in ``bench/.work/locomo``.

How the turns become memory. The memory store is not on this branch yet, so every turn
is a *passage candidate*: for each question, :meth:`PlanService.plan_candidates` (the code
``cairn plan`` runs) takes the first 50 units of the hybrid ``query`` pipeline (ranked
lists 60 deep, ``PLAN_DEPTH``) over the question's conversation and turns each into a candidate with its real token counts and
its relevance (coverage + cosine, :mod:`cairn.memory.candidates`); the governor then
plans at each budget. The first questions are also planned through ``ws.plan`` and
checked byte-identical, so the plan measured is the one ``cairn plan`` returns.

Baseline: ``ws.query(question, limit=50, collections=[conv])`` (the same depth), its turns
packed greedily in rank order into the budget (a turn that does not fit is skipped, the
next one tried), each passage's text counted with the same tokenizer as the plan's.

Metric: the paper's evidence-turn recall (|evidence ∩ handed turns| / |evidence|, 1 for a
question without evidence); a plan hands over its ``include`` and ``compact`` items.
Paired bootstrap 95% CIs (10,000 resamples) of plan − query per budget.

Abstention: on the adversarial category (5: the answer is not in the conversation), how
often the plan abstains or marks ``confidence: low``; on answerable questions (1-4), how
often it abstains (goal ≤ 10%).

Split: conversations 1-2 (``conv-26``, ``conv-30``) tune ``relevance_floor`` and
``confident_score`` (grid below); conversations 3-5 are reported with the chosen values.
Rule: the highest floor whose answerable abstention ≤ 10% and whose mean plan recall is
within 0.5 points of the query's (or above) at every budget on the tuning split; then the
highest ``confident_score`` that marks ≤ 25% of answerable plans low-confidence.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
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
WORK = Path(__file__).resolve().parent / ".work"


@dataclass
class Asked:
    question: eval_locomo.Question
    caller: Any
    pool: list[Any]
    query_turns: list[tuple[str, int]]  # (dia id, tokens) in rank order


def turn_of(key: str, docs: dict[str, str]) -> str:
    """The dia id of a passage candidate key ``passage:<docid>:<span>``."""
    return docs[key.split(":")[1]]


def pack_query(turns: Sequence[tuple[str, int]], budget: int) -> set[str]:
    used, handed = 0, set()
    for dia, tokens in turns:
        if used + tokens <= budget:
            handed.add(dia)
            used += tokens
    return handed


def gather(ws: Any, questions: Sequence[eval_locomo.Question], turn_tokens: dict[tuple[str, str], int]) -> list[Asked]:
    asked = []
    started = time.perf_counter()
    for n, q in enumerate(questions):
        caller, pool, _ = ws._plans.plan_candidates(q.text, project="locomo", collections=[q.conversation])
        results = ws.query(q.text, limit=DEPTH, collections=[q.conversation]).results
        # The same passage text counted by the same tokenizer as the plan's candidates.
        counted = {c.key.split(":")[1]: c.tokens for c in pool}
        turns = [(eval_locomo.dia_id_of(stem_of(r.uri)),
                  counted.get(r.docid, turn_tokens[(q.conversation, eval_locomo.dia_id_of(stem_of(r.uri)))]))
                 for r in results]
        asked.append(Asked(q, caller, pool, turns))
        if n % 200 == 0:
            print(f"  {n}/{len(questions)} questions, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return asked


def evaluate(asked: Sequence[Asked], settings: Any, docs: dict[str, str]) -> dict[str, Any]:
    from cairn.memory.governor import plan

    out: dict[str, Any] = {"plan": {b: [] for b in BUDGETS}, "query": {b: [] for b in BUDGETS},
                           "mode": {b: [] for b in BUDGETS}, "confidence": {b: [] for b in BUDGETS},
                           "category": [a.question.category for a in asked]}
    for a in asked:
        for budget in BUDGETS:
            result = plan(a.question.text, a.pool, a.caller, budget, settings)
            handed = [turn_of(i.key, docs) for i in result.items if i.disposition in ("include", "compact")]
            out["plan"][budget].append(eval_locomo.recall(a.question.evidence, handed, len(handed) or 1))
            out["query"][budget].append(eval_locomo.recall(a.question.evidence, sorted(pack_query(a.query_turns, budget)),
                                                           10_000))
            out["mode"][budget].append(result.mode)
            out["confidence"][budget].append(result.confidence)
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


def tune(asked: Sequence[Asked], docs: dict[str, str]) -> tuple[Any, list[str]]:
    from cairn.memory.governor import GovernorSettings

    log = ["| floor | answerable abstain @800 | plan − query R (400/800/1600) | ok |", "| --- | --- | --- | --- |"]
    chosen_floor = 0.0
    for floor in FLOORS:
        out = evaluate(asked, GovernorSettings(relevance_floor=floor, confident_score=1.0), docs)
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
        out = evaluate(asked, GovernorSettings(relevance_floor=chosen_floor, confident_score=confident), docs)
        if rates(out, 800)["answerable_low"] <= LOW_CONFIDENCE_CAP:
            chosen_conf = confident
    return GovernorSettings(relevance_floor=chosen_floor, confident_score=chosen_conf), log


def report(name: str, out: dict[str, Any]) -> list[str]:
    lines = [f"**{name}** ({len(out['category'])} questions)", "",
             "| budget | plan R | query R | plan − query [95% CI] | answerable abstain | "
             "adversarial abstain | adversarial abstain or low |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for b in BUDGETS:
        diff, lo, hi = paired_bootstrap(out["plan"][b], out["query"][b])
        r = rates(out, b)
        lines.append(f"| {b} | {mean(out['plan'][b]):.1f} | {mean(out['query'][b]):.1f} | "
                     f"{100 * diff:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] | "
                     f"{100 * r['answerable_abstain']:.1f}% (n={r['n_answerable']}) | "
                     f"{100 * r['adversarial_abstain']:.1f}% | {100 * r['adversarial_abstain_or_low']:.1f}% "
                     f"(n={r['n_adversarial']}) |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--floor", type=float, default=None, help="Fixed relevance floor (no tuning).")
    parser.add_argument("--confident", type=float, default=None, help="Fixed confident score (with --floor).")
    parser.add_argument("--limit", type=int, default=None, help="At most N questions per split (smoke runs).")
    parser.add_argument("--json", type=Path, default=None, help="Write the figures here as JSON.")
    args = parser.parse_args(argv)

    from cairn.memory.governor import GovernorSettings, canonical

    collection = load_locomo(EVAL / "locomo")
    ws, _ = prepare(collection, WORK / "locomo", argparse.Namespace(chunk_max_tokens=None), embed=True)
    os.chdir(tempfile.mkdtemp(prefix="eval-memory-"))  # no git repository: no git facts
    data = eval_locomo.load_locomo(EVAL / "locomo" / "locomo-dev.json")
    conversations = list(data.turns)
    tune_convs, test_convs = conversations[:2], conversations[2:5]
    from cairn.models.tokens import budget_token_counter

    counter = budget_token_counter()
    keys = [(conv, dia) for conv, turns in data.turns.items() for dia in turns]
    counts = counter.count([data.turns[c][d].strip() for c, d in keys])
    turn_tokens = dict(zip(keys, counts, strict=True))
    docs = {d.docid: eval_locomo.dia_id_of(Path(d.path).stem)
            for conv in conversations for d in ws.ls(conv).documents}

    def questions(convs: Sequence[str]) -> list[eval_locomo.Question]:
        chosen = [q for q in data.questions if q.conversation in convs]
        return chosen[: args.limit] if args.limit else chosen

    print(f"gathering candidates ({counter.name})", file=sys.stderr)
    tune_asked = gather(ws, questions(tune_convs), turn_tokens)
    test_asked = gather(ws, questions(test_convs), turn_tokens)
    # The plan measured is the one `cairn plan` returns.
    from cairn.memory.governor import plan as govern

    for a in test_asked[:CHECKED_PLANS]:
        direct = ws.plan(a.question.text, budget=800, project="locomo", collections=[a.question.conversation],
                         explain=True)
        assert canonical(direct.model_dump(mode="json")) == canonical(govern(
            a.question.text, a.pool, a.caller, 800, ws._plans.settings,
            token_counter=counter.name).model_dump(mode="json")), a.question.qid
    if args.floor is not None:
        settings = GovernorSettings(relevance_floor=args.floor,
                                    confident_score=args.confident if args.confident is not None else args.floor)
        log: list[str] = []
    else:
        settings, log = tune(tune_asked, docs)
    tune_out = evaluate(tune_asked, settings, docs)
    test_out = evaluate(test_asked, settings, docs)
    lines = [f"settings: relevance_floor={settings.relevance_floor}, confident_score={settings.confident_score} "
             f"(tuned on {', '.join(tune_convs)})" if log else f"settings: {settings}", "",
             *log, "", *report(f"tune split: {', '.join(tune_convs)}", tune_out), "",
             *report(f"test split: {', '.join(test_convs)}", test_out)]
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"settings": dataclasses.asdict(settings), "tune": tune_out,
                                         "test": test_out}, default=str))
    ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
