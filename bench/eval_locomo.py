"""LoCoMo for cairn: each conversation turn a document, the paper's turn recall@k.

    .venv/bin/python -m bench.eval_locomo --reuse           # = eval_retrieval.py --collections locomo
    .venv/bin/python -m bench.eval_locomo --turn text       # experiment: bare turn text only
    .venv/bin/python -m bench.eval_locomo --turn reply      # experiment: the answered turn quoted too

The data (``../shared/eval/locomo/locomo-dev.json``, 5 of the paper's 10 conversations,
CC BY-NC 4.0, evaluation only) is read here and scored here; indexing, embedding and
querying go through :mod:`eval_retrieval` like every other collection, so one run of
``eval_retrieval.py`` covers NFCorpus, Cranfield, MEDLINE and LoCoMo with the same modes.

Documents. Every turn becomes one file ``<conversation>/<dia id with ':' as '-'>.md``
(``conv-26/D1-3.md``), one cairn collection per conversation, all conversations in one
index. The file holds the turn as a person would note it down, nothing else::

    Caroline, 1:56 pm on 8 May, 2023:
    I went to a LGBTQ support group yesterday and it was so powerful.
    [Caroline shared a photo: a photo of a ...]

* speaker: questions name people ("What did Caroline ...?"), and a turn alone often
  does not say who is talking;
* the session's date and time: that is when the turn was said (temporal questions ask
  "when"); it is the only trace of time in the conversation;
* the image caption (``blip_caption``) for turns that shared a photo: in the dataset the
  photo is part of the turn, and the caption is its only text form (the LoCoMo authors'
  own RAG baseline appends it the same way). The ``query`` field next to it (the search
  string used to fetch the image when the data was generated) is not part of the
  conversation and is left out.

No question, answer, evidence, summary or observation text is written anywhere.
Diagnostics of that choice (never used for the targets): ``--turn text`` writes the bare
turn text; ``--turn reply`` also quotes the previous turn of the session above the turn,
as a mail reply quotes the message it answers.

Queries: every ``qa`` question of a conversation, searched with ``collections=[conv]``;
retrieved turns are the first k distinct documents of the ranking.

Metric (LoCoMo paper): recall@k = |evidence ∩ first k turns| / |evidence|; a question with
no evidence scores 1. Evidence ids are normalised: ``'D8:6; D9:17'`` is split into two,
``'D:11:26'`` -> ``D11:26``, ``'D30:05'`` -> ``D30:5``; a bare ``'D'`` is dropped (if a
question is left with no usable evidence it counts as a no-evidence question). Evidence
ids that name no turn of the conversation stay in the denominator (they can never be
found) and are counted in the notes. Reported ×100, overall and per category
(1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
CUTOFFS = (5, 10, 25, 50)
TURN_STYLES = ("full", "text", "reply")
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True, slots=True)
class Question:
    qid: str  # "<conversation>#<index in qa>"
    conversation: str
    text: str
    evidence: frozenset[str]
    category: int


@dataclass(slots=True)
class Locomo:
    turns: dict[str, dict[str, str]]  # conversation -> dia id -> document text
    questions: list[Question]
    notes: list[str] = field(default_factory=list)


def normalise_evidence(raw: Sequence[str]) -> tuple[set[str], list[str]]:
    """Canonical ``D<session>:<turn>`` ids of one question, and the pieces that were dropped."""
    found: set[str] = set()
    dropped: list[str] = []
    for item in raw:
        for piece in re.split(r"[;,\s]+", str(item)):
            if not piece:
                continue
            match = _EVIDENCE.fullmatch(piece)
            if match:
                found.add(f"D{int(match.group(1))}:{int(match.group(2))}")
            else:
                dropped.append(piece)
    return found, dropped


def turn_text(turn: Mapping[str, str], when: str, style: str, previous: Mapping[str, str] | None = None) -> str:
    if style == "text":
        return f"{turn['text'].strip()}\n"
    lines = [f"{turn['speaker']}, {when}:", turn["text"].strip()]
    if style == "reply" and previous is not None:
        # The message this turn answers, quoted as a mail reply quotes it.
        lines[:0] = [f"> {previous['speaker']}: {' '.join(previous['text'].split())}", ""]
    if turn.get("blip_caption"):
        lines.append(f"[{turn['speaker']} shared a photo: {turn['blip_caption'].strip()}]")
    return "\n".join(lines) + "\n"


def load_locomo(path: Path, *, style: str = "full") -> Locomo:
    samples = json.loads(path.read_text(encoding="utf-8"))
    turns: dict[str, dict[str, str]] = {}
    questions: list[Question] = []
    fixed = dropped_pieces = no_evidence = unknown = 0
    for sample in samples:
        conv = sample["sample_id"]
        talk = sample["conversation"]
        own: dict[str, str] = {}
        sessions = sorted(
            (int(m.group(1)), key) for key in talk if (m := re.fullmatch(r"session_(\d+)", key))
        )
        for _, key in sessions:
            when = str(talk.get(f"{key}_date_time", "")).strip()
            previous = None
            for turn in talk[key]:
                own[turn["dia_id"]] = turn_text(turn, when, style, previous)
                previous = turn
        turns[conv] = own
        for i, qa in enumerate(sample["qa"]):
            evidence, dropped = normalise_evidence(qa.get("evidence", []))
            raw = {str(e) for e in qa.get("evidence", [])}
            fixed += bool(raw - evidence)
            dropped_pieces += len(dropped)
            no_evidence += not evidence
            unknown += len(evidence - own.keys())
            questions.append(Question(f"{conv}#{i}", conv, qa["question"], frozenset(evidence),
                                      int(qa["category"])))
    notes = [
        f"{len(turns)} conversations, {sum(map(len, turns.values()))} turns, {len(questions)} questions",
        f"{fixed} questions had malformed evidence ids (normalised; {dropped_pieces} unusable piece(s) dropped)",
        f"{no_evidence} questions without usable evidence (score 1)",
    ]
    if unknown:
        notes.append(f"{unknown} evidence ids name no turn of their conversation (never retrievable)")
    return Locomo(turns, questions, notes)


def file_name(dia_id: str) -> str:
    return dia_id.replace(":", "-") + ".md"


def dia_id_of(stem: str) -> str:
    return stem.replace("-", ":")


def recall(evidence: frozenset[str], ranked: Sequence[str], k: int) -> float:
    if not evidence:
        return 1.0
    return len(evidence & set(ranked[:k])) / len(evidence)


def score_locomo(
    questions: Sequence[Question], run: Mapping[str, Sequence[str]],
) -> dict[str, dict[str, float]]:
    """``{"all" | category name: {"R@k": recall ×100, "n": count}}``."""
    groups: dict[str, list[Question]] = {"all": list(questions)}
    for number, name in CATEGORIES.items():
        groups[f"{number} {name}"] = [q for q in questions if q.category == number]
    table: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        if not members:
            continue
        row = {
            f"R@{k}": 100 * sum(recall(q.evidence, run.get(q.qid, []), k) for q in members) / len(members)
            for k in CUTOFFS
        }
        row["n"] = float(len(members))
        table[group] = row
    return table


def main(argv: list[str] | None = None) -> int:
    from bench.eval_retrieval import main as eval_main

    return eval_main(["--collections", "locomo", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    sys.exit(main())
