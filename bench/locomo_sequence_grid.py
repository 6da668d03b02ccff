"""LoCoMo: how much sequence context helps, and how sensitive it is to its two shares.

    .venv/bin/python -m bench.eval_retrieval --reuse --collections locomo --modes bm25,hybrid,hybrid-fast --no-sequence
    .venv/bin/python -m bench.locomo_sequence_grid [--write-results]
    # or from bench.fusion_replay's rankings (limit 10: every fused unit of 50 candidates per stage)
    .venv/bin/python -m bench.fusion_replay --collections locomo --variants default-noseq --json noseq.json
    .venv/bin/python -m bench.locomo_sequence_grid --replay noseq.json --mode default-noseq [--uncapped]

The first command runs cairn's hybrid query with the LoCoMo collections *not* declared a
sequence and saves its rankings (``bench/.work/locomo/runs-no-sequence.json``, 200 turns
per question with their fused scores). This script then applies cairn's own
:func:`cairn.retrieval.hybrid.sequence_context` to those rankings offline, with each turn's
neighbours found by :func:`cairn.retrieval.hybrid.sibling_paths` on its file name
(``D1-3.md`` -> ``D1-2.md`` / ``D1-4.md``), over a grid of (previous, next) shares, and
scores every cell with the paper's recall (:func:`eval_locomo.score_locomo`). cairn's
setting is marked. The cap of ``HybridSettings.sequence_cap`` (borrowed relevance stops just
below the lending neighbour) applies as in cairn unless ``--uncapped``. Every cell also gives MRR@10 (first
evidence turn), and the held-out folds choose by R@5 + R@10 + 100 × MRR@10. Offline, a neighbour can only join from the saved 200 turns; cairn
itself works from its full candidate lists, so its figures in the retrieval-quality
section differ slightly.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bench import eval_locomo
from cairn.retrieval.hybrid import (
    DEFAULT_SETTINGS,
    Fused,
    Neighbours,
    StageRank,
    sequence_context,
    sibling_paths,
)
from cairn.store.records import light_hit

SEQUENCE_PREV_WEIGHT = DEFAULT_SETTINGS.sequence_previous
SEQUENCE_NEXT_WEIGHT = DEFAULT_SETTINGS.sequence_next

BENCH = Path(__file__).resolve().parent
RUNS = BENCH / ".work" / "locomo" / "runs-no-sequence.json"
DATA = BENCH.parent.parent / "shared" / "eval" / "locomo" / "locomo-dev.json"
PREVIOUS = (0.0, 0.2, 0.3, 0.5, 0.7, 1.0)
NEXT = (0.0, 0.1, 0.2, 0.3)


CAPPED = DEFAULT_SETTINGS.sequence_cap


def with_sequence(ranking: list[tuple[str, float]], turns: set[str], previous: float, following: float) -> list[str]:
    """One question's ranking (dia ids, best first) after sequence context."""
    def dia(path: str) -> str | None:
        found = eval_locomo.dia_id_of(path.removesuffix(".md"))
        return found if found in turns else None

    units = [Fused(light_hit(i, d, s), s, {"fused": StageRank(i + 1, s)}) for i, (d, s) in enumerate(ranking)]
    neighbours: dict[str, list[str | None]] = {}
    for d, _ in ranking:
        before, after = sibling_paths(eval_locomo.file_name(d))
        for side, paths in ((0, before), (1, after)):
            other = next((o for o in map(dia, paths) if o), None)
            if other is not None:
                neighbours.setdefault(d, [None, None])[side] = other
                neighbours.setdefault(other, [None, None])[1 - side] = d
    entries = {d: light_hit(10_000 + i, d, 0.0) for i, d in enumerate(sorted(neighbours))}
    out = sequence_context(units, {d: Neighbours(p, n) for d, (p, n) in neighbours.items()}, entries,
                           previous_weight=previous, next_weight=following, capped=CAPPED)
    return [f.hit.docid for f in out]


def figures(questions: Sequence[eval_locomo.Question], run: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """R@5 and R@10 (×100, the paper's recall) and MRR@10 (first evidence turn in the top 10)."""
    out = dict(eval_locomo.score_locomo(questions, run)["all"])
    reciprocal = []
    for q in questions:
        ranked = list(run.get(q.qid, []))[:10]
        first = next((i for i, d in enumerate(ranked, 1) if d in q.evidence), None)
        reciprocal.append(1.0 if not q.evidence else (1.0 / first if first else 0.0))
    out["MRR@10"] = sum(reciprocal) / max(len(reciprocal), 1)
    return out


def objective(got: Mapping[str, float]) -> float:
    """What the held-out folds maximise on their tuning conversations."""
    return got["R@5"] + got["R@10"] + 100 * got["MRR@10"]


def cell(got: Mapping[str, float]) -> str:
    return f"{got['R@5']:.1f} / {got['R@10']:.1f} / {got['MRR@10']:.3f}"


def held_out(data: eval_locomo.Locomo, saved: dict[str, list[list[object]]], turns: dict[str, set[str]],
             conversation: dict[str, str]) -> list[str]:
    """Shares chosen on some conversations, scored on the others: a 3 / 2 split (the first
    three conversations tune, the last two test) and leave-one-conversation-out. The choice
    maximises the mean of R@5 and R@10 over the tuning questions; each fold reports the
    held-out questions with the chosen shares, without sequence context, and with
    cairn's shares."""
    convs = sorted(turns)
    by_conv = {c: [q for q in data.questions if q.conversation == c] for c in convs}
    cache: dict[tuple[str, float, float], dict[str, list[str]]] = {}

    def ranked(conv: str, previous: float, following: float) -> dict[str, list[str]]:
        key = (conv, previous, following)
        if key not in cache:
            cache[key] = {q.qid: with_sequence([(str(d), float(str(s))) for d, s in saved[q.qid]], turns[conv],
                                               previous, following) for q in by_conv[conv]}
        return cache[key]

    def score(conv_list: list[str], previous: float, following: float) -> dict[str, float]:
        questions = [q for c in conv_list for q in by_conv[c]]
        run = {qid: r for c in conv_list for qid, r in ranked(c, previous, following).items()}
        return figures(questions, run)

    folds = [("conversations 1-3 / 4-5", convs[:3], convs[3:])]
    folds += [(f"leave out {c}", [o for o in convs if o != c], [c]) for c in convs]
    lines = ["Held out: shares chosen on the tuning conversations (best R@5 + R@10 + 100 × MRR@10 there), "
             "scored on the held-out ones (R@5 / R@10 / MRR@10):", "",
             "| fold | tune | test | chosen (previous, next) | test: none | test: chosen | test: cairn's |",
             "| --- | --- | --- | --- | ---: | ---: | ---: |"]
    for name, tune, test in folds:
        best = max(((p, n) for p in PREVIOUS for n in NEXT),
                   key=lambda pn: (objective(score(tune, *pn)), -pn[0], -pn[1]))
        none, chosen, ours = score(test, 0.0, 0.0), score(test, *best), score(test, SEQUENCE_PREV_WEIGHT,
                                                                               SEQUENCE_NEXT_WEIGHT)
        lines.append(f"| {name} | {', '.join(tune)} | {', '.join(test)} | {best[0]:g}, {best[1]:g} | "
                     + " | ".join(cell(r) for r in (none, chosen, ours)) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=Path, default=RUNS)
    parser.add_argument("--mode", default="hybrid", help="which saved mode to rescore (default: hybrid)")
    parser.add_argument("--replay", type=Path, help="rankings of bench.fusion_replay --json (its locomo runs)")
    parser.add_argument("--uncapped", action="store_true", help="no cap on borrowed relevance (sequence_cap)")
    parser.add_argument("--write-results", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args(argv)
    global CAPPED
    CAPPED = DEFAULT_SETTINGS.sequence_cap and not args.uncapped
    if args.replay is None and not args.runs.exists():
        raise SystemExit(f"{args.runs} not found; first run: eval_retrieval.py --reuse --collections locomo "
                         "--modes bm25,hybrid,hybrid-fast --no-sequence")
    data = eval_locomo.load_locomo(DATA, style="full")
    saved = (json.loads(args.replay.read_text())["locomo"] if args.replay else json.loads(args.runs.read_text()))[
        args.mode]
    conversation = {q.qid: q.conversation for q in data.questions}
    turns = {conv: set(t) for conv, t in data.turns.items()}

    def score(previous: float, following: float) -> dict[str, float]:
        run = {qid: with_sequence([(d, float(s)) for d, s in ranking], turns[conversation[qid]], previous, following)
               for qid, ranking in saved.items()}
        return figures(data.questions, run)

    rows = ["| previous share | " + " | ".join(f"next {n:g}: R@5 / R@10 / MRR@10" for n in NEXT) + " |",
            "| ---: | " + " | ".join("---:" for _ in NEXT) + " |"]
    for previous in PREVIOUS:
        cells = []
        for following in NEXT:
            text = cell(score(previous, following))
            if (previous, following) == (SEQUENCE_PREV_WEIGHT, SEQUENCE_NEXT_WEIGHT):
                text = f"**{text}** (cairn)"
            cells.append(text)
        rows.append(f"| {previous:g} | " + " | ".join(cells) + " |")
    rows += ["", "Per conversation at cairn's shares (R@5 / R@10 / MRR@10):", "",
             "| conversation | questions | without | with |", "| --- | ---: | ---: | ---: |"]
    for conv in sorted(turns):
        questions = [q for q in data.questions if q.conversation == conv]
        plain = figures(questions, {q.qid: [d for d, _ in saved[q.qid]] for q in questions})
        run = {q.qid: with_sequence([(d, float(s)) for d, s in saved[q.qid]], turns[conv],
                                    SEQUENCE_PREV_WEIGHT, SEQUENCE_NEXT_WEIGHT) for q in questions}
        rows.append(f"| {conv} | {len(questions)} | {cell(plain)} | {cell(figures(questions, run))} |")
    rows += ["", *held_out(data, saved, turns, conversation)]
    table = "\n".join(rows)
    print(table)
    if args.write_results:
        from bench.results_md import machine_note, stamp, update_section

        command = "python -m bench.locomo_sequence_grid " + " ".join(argv if argv is not None else sys.argv[1:])
        source = ("`fusion_replay.py --collections locomo --variants default-noseq` (every fused unit, "
                  "limit 10)" if args.replay else "`eval_retrieval.py --reuse --collections locomo --modes "
                  "bm25,hybrid,hybrid-fast --no-sequence` (200 turns per question)")
        body = (f"Command: `{command.strip()}` on the rankings of {source} ({args.mode})  \n"
                f"Date: {stamp()}  \nMachine: {machine_note()}\n\n"
                f"cairn's `sequence_context` ({'capped' if CAPPED else 'uncapped'}) applied offline to hybrid "
                "rankings made without it, for a grid of shares; the row `previous 0`, column `next 0` is "
                "hybrid without sequence context.\n\n" + table)
        update_section("LoCoMo: sequence context shares (diagnostic)", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
