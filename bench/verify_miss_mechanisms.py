"""The supported near-verbatim and table-cell claims of the verify set that the verifier
misses, grouped by mechanism (issue 12, session 14).

Every split of ``bench/verify_set`` is run in the ``note`` setting; each missed claim of a
kind in KINDS is accounted again against its labelled unit (the sentence or table row of
its ``evidence_lines`` that shares most with it) with the strict account, and the first
refusal (the unmatched token, or the rule that vetoed) names its mechanism by the rules
of :func:`mechanism` (stated without looking at a case: CJK or not, which kind of word
the refused token is, whether the unit is a table row, which relation check refused).

    PYTHONPATH=src:. .venv/bin/python -m bench.verify_miss_mechanisms            # the table
    PYTHONPATH=src:. .venv/bin/python -m bench.verify_miss_mechanisms --cases    # and each miss
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from typing import Any

from bench.eval_verify_set import NOTES, evaluate, load_cases
from cairn.answer.account import overlap, table_claim
from cairn.answer.contract import EvidenceSpan
from cairn.answer.evidence import _claim_parts, _units
from cairn.answer.verify import _account_text, _strict
from cairn.text.cjk import has_cjk

KINDS = (
    "verbatim", "near-verbatim-inflection", "near-verbatim-reorder", "unit-equivalence",
    "number-word", "date-format", "table-cell",
)  # fmt: skip
_PRONOUNS = {"it", "its", "their", "which", "who", "whose", "where", "when", "this", "they", "them", "one"}
_AUX = {"has", "had", "have", "does", "do", "did", "should", "can", "may", "be", "been", "being",
        "will", "would", "is", "are", "was", "were"}  # fmt: skip
_PREPS = {"of", "to", "for", "by", "within", "from", "in", "on", "at", "with"}
_CONNECTIVES = {"and", "or", "but", "while", "such", "neither", "nor", "so", "plus", "alike", "only", "again"}
_DISTRIBUTIVE = {"each", "every", "a", "an", "member", "members"}
_NUMBER_WORDS = {"noon", "midnight", "half", "three-quarters", "quarter", "two", "three", "twice",
                 "once", "dated", "took", "am", "pm"}  # fmt: skip
_VERSION_WORDS = {"version", "revision", "sheet", "procedure", "plan", "edition"}
_ROW_NAMES = {"sundays", "weekdays", "adult", "students", "holders", "aged", "class", "pupils",
              "incidents", "percentage", "member", "members", "running", "limit", "no", "not"}  # fmt: skip
_ORDER = ("relates other things", "other things on its sides", "two coordinated parts",
          "two clauses of the evidence", "not each in one clause", "its 'not' covers",
          "occurs more often", "the other way round")  # fmt: skip


def mechanism(claim: str, kind: str, problem: str | None, table: bool) -> str:
    """The mechanism of one miss, from the first refusal of its labelled unit."""
    if has_cjk(claim):
        if problem and any(x in problem for x in ("order", "left out", "before it", "there")):
            return "CJK: characters in another order (reordered clause or list, moved date/number)"
        return "CJK: a particle, predicate ending or connective the evidence does not have"
    if problem is None:
        return "other"
    m = re.match(r"""['"](.+?)['"] not in the evidence""", problem)
    if ("before it" in problem and "'It'" in problem) or (m and m.group(1).lower() == "this"):
        return "document pronoun: evidence 'It'/'this' for the document the claim names"
    if any(x in problem for x in _ORDER):
        return "coordinated items or clauses in another order"
    if m is None:
        if "row is about" in problem or "cell about" in problem:
            return "table row: row or column named by another form or a paraphrase"
        return "other: " + problem[:40]
    word = m.group(1)
    key = word.lower()
    if key == "and" and " and " in claim:
        return "coordinated items or clauses in another order"
    if re.search(r"\d", word) or key in _NUMBER_WORDS or key.startswith("£"):
        return "number, time or date in another form (noon, 12:35 am, 1.2 MW, 'dated')"
    if key in _DISTRIBUTIVE and kind != "table-cell":
        return "distributive singular for a plural ('each X', 'a X', 'every member')"
    if key in _VERSION_WORDS or (key == "of" and re.search(r"\b(version|revision|edition)\b", claim, re.I)):
        return "document or version named another way ('Version 2.3 of the procedure' / 'procedure version 2.3')"
    if key in _PRONOUNS:
        return "pronoun or relative clause added (it, its, which, who, whose, where)"
    if key in _AUX:
        return "auxiliary or modal added (has to, does, should, can, may)"
    if table:
        if key in _PREPS | _CONNECTIVES | _DISTRIBUTIVE:
            return "table row: a function word or connective joining cells (while, or, of, a)"
        if word[:1].isupper() or key in _ROW_NAMES:
            return "table row: row or column named by another form or a paraphrase"
        return "table row: a verb restating a column (costs, takes, runs, gets, is given, leaves)"
    if key in _PREPS | _CONNECTIVES:
        return "preposition or connective added (of, to, for, or, but, such as)"
    return "other word not in the evidence (paraphrase inside a near-verbatim claim)"


def _first_refusal(case: dict[str, Any], cache: dict[str, list[Any]]) -> tuple[str | None, bool]:
    note = case["note"]
    lines = (NOTES / note).read_text(encoding="utf-8").splitlines(keepends=True)
    if note not in cache:
        text = "".join(lines)
        span = EvidenceSpan(evidence_id="E1", text=text, uri=note, start_line=1, end_line=len(lines))
        cache[note] = _units(span, 0)
    start, end = case["evidence_lines"]
    a, b = sum(map(len, lines[: start - 1])), sum(map(len, lines[:end]))
    units = [u for u in cache[note] if u.start < b and u.end > a]
    if not units:
        return None, False
    core = _account_text(case["claim"])
    _, codes = _claim_parts(case["claim"])
    unit = max(units, key=lambda u: overlap(table_claim(core) if u.table else core, u.text))
    return _strict(core, codes, unit), unit.table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", action="store_true", help="list each miss with its mechanism")
    args = parser.parse_args(argv)
    rows = evaluate(load_cases(split="all"), ("note",))["note"]["rows"]
    cache: dict[str, list[Any]] = {}
    count: Counter[str] = Counter()
    per: dict[str, Counter[str]] = defaultdict(Counter)
    fresh: Counter[str] = Counter()
    listing = []
    for r in rows:
        if r["kind"] not in KINDS or r["predicted"] == "supported":
            continue
        problem, table = _first_refusal(r, cache)
        mech = mechanism(r["claim"], r["kind"], problem, table)
        group = ("table-cell" if r["kind"] == "table-cell"
                 else "near-verbatim" if r["kind"] in KINDS[:4] else "number-word/date")  # fmt: skip
        count[mech] += 1
        per[mech][group] += 1
        fresh[mech] += r["split"] in ("test13", "test14")
        listing.append(f"{mech} | {r['split']} | {r['id']} | {problem} | {r['claim']}")
    total = sum(count.values())
    print("| mechanism (first refusal against the labelled unit) | near-verbatim | number-word/date"
          " | table-cell | all | share | of them test13+test14 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mech, n in count.most_common():
        p = per[mech]
        print(f"| {mech} | {p['near-verbatim']} | {p['number-word/date']} | {p['table-cell']} | {n} |"
              f" {100 * n / total:.0f}% | {fresh[mech]} |")
    sums = {g: sum(per[m][g] for m in count) for g in ("near-verbatim", "number-word/date", "table-cell")}
    print(f"| total | {sums['near-verbatim']} | {sums['number-word/date']} | {sums['table-cell']} |"
          f" {total} | 100% | {sum(fresh.values())} |")
    if args.cases:
        print("\n" + "\n".join(sorted(listing)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


