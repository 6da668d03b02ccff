"""Behaviour goldens: the top-10 of every evaluation query, recorded once and checked after.

Use it around a refactor that must not change what cairn returns (issue 11):

    .venv/bin/python -m bench.behaviour record            # BEFORE the first move: writes bench/golden/
    git add bench/golden && git commit                     # the goldens are part of the repo
    ... refactor ...
    .venv/bin/python -m bench.behaviour check --reuse      # AFTER: recompute, compare, exit 1 on any difference
    .venv/bin/python -m bench.behaviour check              # the same from a wiped work folder (re-ingest, re-embed)
    .venv/bin/python -m bench.behaviour check --modes search --work /tmp/cairn-behaviour
                                                           # BM25 from a fresh ingest, no model, a few min;
                                                           # bench/.work (and its vectors) left alone
    .venv/bin/python -m bench.behaviour check --collections medline --reuse

``check`` prints, per set and mode, ``identical`` or how many queries differ with the first
few (which rank the order first differs at, or that only scores moved) and exits 1 on any
difference, including a changed document or passage count or a different number of queries
that fell back to BM25.

The goldens in the repo were recorded on the code before the restructure of issue 11
(17.7 min of embedding: MEDLINE 323 s, LoCoMo 380 s, Cranfield 361 s at 4.7-7.3 passages/s
on the loaded 2-core machine); they hold ``search`` for all four sets and ``vsearch``,
``query`` and ``query-fast`` for MEDLINE, LoCoMo and Cranfield; NFCorpus's vector modes did not
fit the 25-minute embedding budget (its header says so).

The CLI's ``--json`` outputs on a fixture vault are the other half of the proof:
``pytest tests/test_behaviour.py`` (``CAIRN_UPDATE_GOLDEN=1`` rewrites those goldens).

What is recorded. For every query of every evaluation set (NFCorpus, Cranfield, MEDLINE,
LoCoMo dev; loaders, work folders and searchers are :mod:`eval_retrieval`'s), the first 10
documents of the ranking that ``eval_retrieval.py`` scores, as ``[document id, score rounded
to 6 decimals]``, for the modes

* ``search``: ``ws.search`` (BM25);  ``vsearch``: ``ws.vsearch`` (vectors);
* ``query``: ``ws.query(mode="default")``;  ``query-fast``: ``ws.query(mode="fast")``;

each asked for ``eval_retrieval``'s depth (1000 results; LoCoMo 200, within the question's
own conversation) and collapsed to documents by their best passage. Document ids are the
collection's own: the file stem (NFCorpus, Cranfield, MEDLINE), the dialogue id ``D3:12``
(LoCoMo; unambiguous because each question searches its own conversation). A query that
raises a cairn error is recorded as ``"error: <code>"``.

Coverage. BM25 (``search``) covers every set. The three vector modes need the collection
embedded with the local model, which is slow on a loaded machine, so ``record`` measures the
embedding rate on a small sample and takes vector sets in the order MEDLINE, LoCoMo,
Cranfield, NFCorpus while their estimated embedding time fits ``--vector-minutes`` (default
25); ``--vector-collections`` names them instead. Each golden's header says which modes it
holds (``modes``) and which it does not and why (``not_recorded``); ``check`` compares what a
golden holds and prints what it does not cover.

Work folders. Indexes live in ``bench/.work/<collection>/home`` (gitignored), as for
``eval_retrieval.py``. Without ``--reuse`` the folder is wiped and the collection is written,
indexed and (for vector modes) embedded again by the code under test: the full proof, slow
(~18 min of embedding for the three vector sets). With ``--reuse`` the index is kept:
``ws.index()`` still runs (a no-op when nothing changed) and no passage is embedded again, so
the query path is checked against an index the old code built; ``--work`` can point at another
checkout's ``bench/.work`` to borrow its index and vectors. The golden also records each
set's document and passage counts, which ``check`` compares too.

Golden format: ``bench/golden/eval-<collection>.json``, one JSON object with sorted keys,
written one line per query so that a diff of the file reads as a diff of rankings.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bench import eval_retrieval as er

GOLDEN = er.REPO / "bench" / "golden"
TOP = 10
DECIMALS = 6
#: behaviour mode -> eval_retrieval searcher (the same calls eval_retrieval scores).
MODES: dict[str, str] = {"search": "bm25", "vsearch": "vector", "query": "hybrid", "query-fast": "hybrid-fast"}
VECTOR_MODES = ("vsearch", "query", "query-fast")
#: Smallest / fastest to embed first.
VECTOR_ORDER = ("medline", "locomo", "cranfield", "nfcorpus")
SAMPLE = 48  # passages embedded to measure the rate
EXAMPLES = 3  # differing queries shown per collection and mode

Entry = list[Any] | str  # [[doc id, score], ...] or "error: <code>"


# ----------------------------------------------------------------------------- record


def eval_args(work: Path) -> argparse.Namespace:
    """The namespace eval_retrieval's loaders and work folders expect, at their defaults."""
    return argparse.Namespace(chunk_max_tokens=None, no_titles=False, turn="full", no_sequence=False, work=work)


def top_rankings(ws: Any, collection: er.EvalCollection, mode: str) -> tuple[dict[str, Entry], int]:
    """Every query's top-10 documents in ``mode``, and how many queries fell back to BM25."""
    from cairn.errors import CairnError

    searcher = er.MODES[MODES[mode]](ws, collection)
    rankings: dict[str, Entry] = {}
    for qid, text in collection.queries.items():
        try:
            ranking = searcher.ranked(text, collection.query_part[qid])
        except CairnError as exc:
            rankings[qid] = f"error: {exc.code}"
            continue
        rankings[qid] = [[doc, round(score, DECIMALS)] for doc, score in ranking[:TOP]]
    return rankings, searcher.fallbacks


def measure_embedding_rate(sample: int = SAMPLE) -> float:
    """Passages per second of the configured local model on MEDLINE abstracts (warm model)."""
    from cairn.models.embedders import create_embedder

    texts = list(er.load_medline(er.EVAL / "medline").files["medline"].values())
    embedder = create_embedder({"backend": "onnx-minilm"})
    embedder.embed(texts[:4], kind="passage")  # load the model outside the timing
    started = time.perf_counter()
    embedder.embed(texts[4:4 + sample], kind="passage")
    return sample / (time.perf_counter() - started)


def pending_passages(ws: Any) -> int:
    vectors = ws.status().vectors
    return int(vectors.pending_passages or 0) if vectors is not None else 0


def record(args: argparse.Namespace) -> int:
    started_all = time.perf_counter()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    eargs = eval_args(args.work)
    names = args.collections
    wanted = args.modes or list(MODES)
    vectors_wanted = any(m in VECTOR_MODES for m in wanted)
    rate = None
    if not vectors_wanted:
        vector_sets, vector_reason = set(), args.why or "not asked for (record --modes)"
    elif args.vector_collections is not None:
        vector_sets, vector_reason = set(args.vector_collections), args.why or "not in --vector-collections"
    elif args.vector_minutes <= 0:
        vector_sets, vector_reason = set(), "--vector-minutes 0"
    else:
        rate = measure_embedding_rate()
        print(f"embedding rate on {SAMPLE} MEDLINE passages: {rate:.1f} passages/s", file=sys.stderr)
        vector_sets, vector_reason = set(), ""  # decided below, set by set

    budget_s = args.vector_minutes * 60.0
    embed_s = 0.0  # all-time embedding seconds of the sets taken (bench/.work/*/embed.json)
    ordered = [n for n in VECTOR_ORDER if n in names] + [n for n in names if n not in VECTOR_ORDER]
    for name in ordered:
        collection = er.LOADERS[name](eargs)
        base = er.work_folder(collection, eargs)
        if not args.reuse and base.exists():
            shutil.rmtree(base)
        ws, outcome = er.prepare(collection, base, eargs, embed=False)
        modes = [m for m in wanted if m not in VECTOR_MODES]
        if rate is not None:
            pending = pending_passages(ws)
            spent = float(outcome.embed.get("seconds", 0.0))
            estimate = spent + pending / rate
            if embed_s + estimate <= budget_s:
                vector_sets.add(name)
            else:
                vector_reason = (f"embedding budget: ~{estimate / 60:.0f} min for this set ({pending} passages "
                                 f"pending at {rate:.1f}/s, {spent / 60:.0f} min spent) would exceed "
                                 f"--vector-minutes {args.vector_minutes:g} ({embed_s / 60:.1f} min taken)")
        if vectors_wanted and name in vector_sets:
            ws.close()  # again, embedding now (and keeping embed.json as eval_retrieval does)
            ws, outcome = er.prepare(collection, base, eargs, embed=True)
            embed_s += float(outcome.embed.get("seconds", 0.0))
            if pending_passages(ws):
                raise SystemExit(f"{name}: passages still pending after embedding")
            modes += [m for m in wanted if m in VECTOR_MODES]
        golden: dict[str, Any] = {
            "collection": name,
            "documents": collection.doc_count,
            "passages": outcome.passages,
            "queries": len(collection.queries),
            "top": TOP,
            "decimals": DECIMALS,
            "depth": collection.depth,
            "fallbacks": {},
            "rankings": {},
        }
        if args.modes and golden_path(name).exists():
            # Merge: keep the other modes of the existing golden (same index only).
            old = load_golden(name)
            for key in ("documents", "passages", "queries", "top", "decimals", "depth"):
                if old[key] != golden[key]:
                    raise SystemExit(f"{name}: cannot merge into the golden, {key} {old[key]} != {golden[key]}")
            keep = [m for m in old["modes"] if m not in modes]
            golden["rankings"] = {m: old["rankings"][m] for m in keep}
            golden["fallbacks"] = {m: old["fallbacks"][m] for m in keep}
        try:
            for mode in modes:
                t = time.perf_counter()
                golden["rankings"][mode], golden["fallbacks"][mode] = top_rankings(ws, collection, mode)
                print(f"  {name} {mode}: {len(collection.queries)} queries in {time.perf_counter() - t:.1f} s",
                      file=sys.stderr)
        finally:
            ws.close()
        golden["modes"] = sorted(golden["rankings"])
        golden["not_recorded"] = {m: vector_reason for m in MODES if m not in golden["rankings"]}
        path = golden_path(name)
        path.write_text(dump_golden(golden), encoding="utf-8")
        print(f"wrote {path.relative_to(er.REPO)}: {', '.join(golden['modes'])}", file=sys.stderr)
    print(f"record: {time.perf_counter() - started_all:.0f} s in all; embedding (all-time) of the vector sets "
          f"{embed_s:.0f} s", file=sys.stderr)
    return 0


def golden_path(name: str) -> Path:
    return GOLDEN / f"eval-{name}.json"


def dump_golden(golden: Mapping[str, Any]) -> str:
    """Sorted-key JSON; the rankings one query a line (equal to ``json.dumps(sort_keys=True)``
    once parsed)."""
    head = {k: v for k, v in golden.items() if k != "rankings"}
    lines = ["{", f'"header": {json.dumps(head, sort_keys=True)},', '"rankings": {']
    modes = sorted(golden["rankings"])
    for i, mode in enumerate(modes):
        lines.append(f"{json.dumps(mode)}: {{")
        run = golden["rankings"][mode]
        qids = sorted(run)
        for j, qid in enumerate(qids):
            lines.append(f"{json.dumps(qid)}: {json.dumps(run[qid])}" + ("," if j < len(qids) - 1 else ""))
        lines.append("}" + ("," if i < len(modes) - 1 else ""))
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def load_golden(name: str) -> dict[str, Any]:
    data = json.loads(golden_path(name).read_text(encoding="utf-8"))
    return {**data["header"], "rankings": data["rankings"]}


# ------------------------------------------------------------------------------ check


def compare_run(expected: Mapping[str, Entry], actual: Mapping[str, Entry]) -> list[tuple[str, str]]:
    """``(query id, what differs)`` for every query whose top-10 is not identical."""
    diffs = []
    for qid in sorted(expected.keys() | actual.keys(), key=natural):
        want, got = expected.get(qid), actual.get(qid)
        if want == got:
            continue
        diffs.append((qid, describe(want, got)))
    return diffs


def describe(want: Entry | None, got: Entry | None) -> str:
    if want is None or got is None:
        return "query missing from the golden" if want is None else "query not run"
    if isinstance(want, str) or isinstance(got, str):
        return f"golden {short(want)} / now {short(got)}"
    want_ids, got_ids = [d for d, _ in want], [d for d, _ in got]
    if want_ids == got_ids:
        worst = max(abs(w[1] - g[1]) for w, g in zip(want, got, strict=True))
        return f"same documents, scores differ (max |Δ| {worst:.2g})"
    first = next((i for i, (w, g) in enumerate(zip(want_ids, got_ids, strict=False)) if w != g),
                 min(len(want_ids), len(got_ids)))
    return (f"order differs from rank {first + 1}: golden {short(want_ids[first:first + 4])}"
            f" / now {short(got_ids[first:first + 4])}"
            + (f" ({len(want_ids)} vs {len(got_ids)} documents)" if len(want_ids) != len(got_ids) else ""))


def short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def natural(qid: str) -> tuple[int, int, str]:
    """Numeric query ids in numeric order, then the others."""
    return (0, int(qid), "") if qid.isdigit() else (1, 0, qid)


def check(args: argparse.Namespace) -> int:
    started_all = time.perf_counter()
    eargs = eval_args(args.work)
    failures = 0
    uncovered: list[str] = []
    for name in args.collections:
        if not golden_path(name).exists():
            print(f"{name}: no golden at {golden_path(name).relative_to(er.REPO)} (run `record` first)")
            failures += 1
            continue
        golden = load_golden(name)
        print(f"{name}: golden holds {', '.join(golden['modes'])} for {golden['queries']} queries")
        modes = [m for m in golden["modes"] if args.modes is None or m in args.modes]
        missing: dict[str, list[str]] = {}  # reason -> modes
        for m, why in sorted(golden["not_recorded"].items()):
            if args.modes is None or m in args.modes:
                missing.setdefault(why, []).append(m)
        uncovered += [f"{name} {', '.join(ms)} ({why})" for why, ms in missing.items()]
        if not modes:
            continue
        collection = er.LOADERS[name](eargs)
        base = er.work_folder(collection, eargs)
        if not args.reuse and base.exists():
            shutil.rmtree(base)
        needs_vectors = any(m in VECTOR_MODES for m in modes)
        ws, outcome = er.prepare(collection, base, eargs, embed=needs_vectors)
        try:
            problems = []
            for key, now in (("documents", collection.doc_count), ("passages", outcome.passages),
                             ("queries", len(collection.queries))):
                if golden[key] != now:
                    problems.append(f"{key}: golden {golden[key]} / now {now}")
            for problem in problems:
                print(f"{name}: {problem}")
            failures += len(problems)
            for mode in modes:
                t = time.perf_counter()
                rankings, fallbacks = top_rankings(ws, collection, mode)
                diffs = compare_run(golden["rankings"][mode], rankings)
                if fallbacks != golden["fallbacks"].get(mode, 0):
                    diffs.append(("-", f"fallbacks to BM25: golden {golden['fallbacks'].get(mode, 0)} / now {fallbacks}"))
                seconds = time.perf_counter() - t
                if not diffs:
                    print(f"{name} {mode}: identical ({len(rankings)} queries, {seconds:.1f} s)")
                    continue
                failures += len(diffs)
                print(f"{name} {mode}: {len(diffs)} of {len(golden['rankings'][mode])} queries differ")
                for qid, what in diffs[:EXAMPLES]:
                    print(f"    query {qid}: {what}")
                if len(diffs) > EXAMPLES:
                    print(f"    ... and {len(diffs) - EXAMPLES} more")
        finally:
            ws.close()
    if uncovered:
        print("not covered by the goldens: " + "; ".join(uncovered))
    print(f"check: {'FAILED, differences above' if failures else 'all identical'} "
          f"({time.perf_counter() - started_all:.0f} s)")
    return 1 if failures else 0


# ------------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for command, text in (("record", "write bench/golden/eval-<collection>.json"),
                          ("check", "recompute and compare with the goldens; exit 1 on any difference")):
        p = sub.add_parser(command, help=text, description=text)
        p.add_argument("--collections", nargs="+", choices=list(er.LOADERS), default=list(er.LOADERS),
                       help="which sets (default: all four)")
        p.add_argument("--reuse", action="store_true",
                       help="keep the indexes (and vectors) in the work folder instead of rebuilding them")
        p.add_argument("--work", type=Path, default=er.WORK, help="work folder (default: bench/.work)")
    rec = sub.choices["record"]
    rec.add_argument("--vector-minutes", type=float, default=25.0,
                     help="embedding budget for the vector modes, in minutes (default: 25; 0: BM25 only)")
    rec.add_argument("--vector-collections", nargs="*", choices=list(er.LOADERS),
                     help="record the vector modes for exactly these sets (overrides --vector-minutes)")
    sub.choices["check"].add_argument("--modes", nargs="+", choices=list(MODES),
                                      help="only these modes (default: every mode a golden holds)")
    rec.add_argument("--why", help="reason written into the goldens for the vector modes not recorded")
    rec.add_argument("--modes", nargs="+", choices=list(MODES),
                     help="record only these modes, merged into the existing goldens (default: all, rewritten)")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # progress in logs too
    if not er.EVAL.is_dir():
        raise SystemExit(f"evaluation collections not found at {er.EVAL}; need ../shared next to the repo")
    return record(args) if args.command == "record" else check(args)


if __name__ == "__main__":
    sys.exit(main())
