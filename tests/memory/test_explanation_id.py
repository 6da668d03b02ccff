"""The plan's explanation id: a content id of everything that determines the plan."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.memory.governor import Candidate, GovernorSettings, plan
from cairn.memory.scope import Caller

ME = Caller(project="github.com/acme/app", user="ana")

#: A changed value for every candidate field (each one the governor reads or hands over).
CHANGED: dict[str, object] = {
    "key": "k1x", "kind": "claim", "title": "title k1 (revised)", "text": "full text of k1, revised",
    "compact": "short k1 revised", "tokens": 61, "compact_tokens": 16, "relevance": 0.81,
    "project": "github.com/acme/other", "visibility": "team", "owner": "ana", "source": "manual",
    "provenance": ("file:src/k1.py", "commit:abc"), "evidence": 2, "freshness": "suspect",
    "freshness_reasons": ("file_changed:src/k1.py",), "conflict": "contested", "conflict_key": "db.engine",
    "quality": "verified", "pinned": True, "observed_at": "2026-11-30T10:00:00Z", "fetch": "cairn memory show k1x",
}


def cand(key: str, relevance: float = 0.8) -> Candidate:
    return Candidate(key=key, kind="observation", title=f"title {key}", text=f"full text of {key}",
                     compact=f"short {key}", tokens=60, compact_tokens=15, relevance=relevance,
                     project=ME.project, provenance=(f"file:src/{key}.py",), evidence=1)


POOL = [cand(f"k{i}", round(0.2 + 0.07 * i, 3)) for i in range(8)]
DEFAULTS = GovernorSettings()


def plan_id(task: str = "task", pool: list[Candidate] = POOL, caller: Caller = ME, budget: int = 300,
            settings: GovernorSettings = DEFAULTS, counter: str | None = "minilm") -> str:
    return plan(task, pool, caller, budget, settings, token_counter=counter).explanation_id


def test_same_input_same_id_in_any_order() -> None:
    shuffled = POOL[:]
    random.Random(3).shuffle(shuffled)
    assert plan_id() == plan_id(pool=shuffled) and len(plan_id()) == 64


def test_every_candidate_field_is_in_the_id() -> None:
    assert set(CHANGED) == {f.name for f in dataclasses.fields(Candidate)}
    seen = {plan_id()}
    for name, value in CHANGED.items():
        assert getattr(POOL[1], name) != value, name
        changed = plan_id(pool=[POOL[0], dataclasses.replace(POOL[1], **{name: value}), *POOL[2:]])
        assert changed not in seen, name
        seen.add(changed)


@pytest.mark.parametrize("change", [
    {"task": "another task"}, {"budget": 301}, {"caller": Caller(ME.project, "bo")},
    {"caller": Caller("github.com/acme/other", "ana")}, {"settings": GovernorSettings(relevance_floor=0.2)},
    {"settings": GovernorSettings(max_items=49)}, {"counter": "estimate:ceil(chars/4)"}, {"counter": None},
    {"pool": POOL[:-1]},
])
def test_every_argument_is_in_the_id(change: dict[str, object]) -> None:
    assert plan_id(**change) != plan_id()  # type: ignore[arg-type]


def test_text_boundaries_are_part_of_the_id() -> None:
    """Moving characters between a text and the next one changes the id (lengths are hashed)."""
    one = dataclasses.replace(POOL[0], text="ab", compact="c")
    two = dataclasses.replace(POOL[0], text="a", compact="bc")
    assert plan_id(pool=[one]) != plan_id(pool=[two])


def test_same_id_in_another_process(tmp_path: Path) -> None:
    """No per-process state (hash seeds, set order) enters the id."""
    script = tmp_path / "id.py"
    script.write_text(
        "import json, sys\n"
        "from cairn.memory.governor import Candidate, plan\n"
        "from cairn.memory.scope import Caller\n"
        "args = json.loads(sys.argv[1])\n"
        "pool = [Candidate(**{**c, 'provenance': tuple(c['provenance']),"
        " 'freshness_reasons': tuple(c['freshness_reasons'])}) for c in args['pool']]\n"
        "print(plan('täsk ✓', pool, Caller(*args['caller']), 300, token_counter='minilm').explanation_id)\n",
        encoding="utf-8")
    pool = [*POOL, dataclasses.replace(cand("u"), text="naïve 東京 \U0001f600", compact="naïve …")]
    args = json.dumps({"pool": [dataclasses.asdict(c) for c in pool], "caller": [ME.project, ME.user]})
    env = {**os.environ, "PYTHONHASHSEED": "random", "PYTHONPATH": os.pathsep.join(sys.path)}
    other = subprocess.run([sys.executable, str(script), args], capture_output=True, text=True, env=env,
                           check=True, timeout=120).stdout.strip()
    assert other == plan("täsk ✓", pool, ME, 300, token_counter="minilm").explanation_id
