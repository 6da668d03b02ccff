"""A memory store at scale for :mod:`bench.plan_bench` (``--observations N``): the tldr
pages as a collection and N real-text observations about them, built once under
``bench/.work/plan-scale`` and rebuilt when stale.

The store (index ``scale`` of the home ``bench/.work/plan-scale/home``):

* collection ``tldr``: the 7,425 tldr-pages (``../shared/corpora/tldr``), indexed and
  embedded with MiniLM, exactly as ``cairn add`` + ``cairn index`` + ``cairn embed`` do;
* N observations of project ``github.com/tldr-pages/tldr`` written through
  ``ws.memory_import`` (the SDK's bulk write, all checks and redaction applied), in this
  order until N are written:

  - one ``how-it-works`` observation per page (title: the command and its description;
    narrative: the page's description; facts: up to 8 example commands; bound file: the
    page; concepts: the platform; evidence: the page's description lines as a passage ref);
  - one observation per example (32,136; type cycling through gotcha, fix, decision,
    problem-solution, trade-off, preference, what-changed: title: the example's
    description; narrative: the page's first description line and the command; fact: the
    command; bound file; concept; evidence: the example's two lines as a passage ref);
  - then ~100-word pieces of the Cranfield, MEDLINE and NFCorpus abstracts
    (``../shared/eval``), as ``how-it-works`` notes without evidence;
  - then LoCoMo conversation turns (``../shared/eval/locomo``) as ``preference`` notes.

Memory vectors (``memory_vectors``): ``"embed"`` (default) embeds every record with the
model, as ``cairn embed`` does (measured here: ≈ 68 min CPU, ≈ 96 min wall for 50,000
records on the 2-core bench machine). ``"source"`` writes each record's vector by a cheaper
route, under its text address (:func:`cairn.memory.texts.embed_hash`) and the embedder's
fingerprint, into the store's vector table, as ``cairn embed`` would store it:

  - a record with a passage ref (every tldr observation): the vector of the passage of
    its page that holds the ref's first line (already embedded with the collection);
  - a record without one (the abstract pieces and LoCoMo turns): a unit vector drawn
    from a generator seeded by its text address (deterministic; against a task, such a
    vector's cosine is ≈ 0 ± 0.05, as an unrelated text's is about 0 to 0.15 with MiniLM).

A vector pass costs the same whatever the values (one row per record), so plans run every
vector pass a fully embedded store runs; only which records the vector stages rank first
differs from real embeddings. The route is idempotent and only fills records that have no
vector; a store filled this way keeps those vectors (content-addressed, like all vectors).

Staleness: ``manifest.json`` records the builder's version, N, the corpus archive's size
and the collection's resolved root; any difference (e.g. the worktree moved, the
collection pointing at a folder that is gone) rebuilds the store from scratch.

:func:`startup_probe` is the fresh-process check ``plan_bench`` runs as a subprocess:
open the workspace, time the first ``plan`` and ``query`` against warm ones, and report
whether any file of the home changed (size or mtime) across opening and the first calls.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" if (REPO.parent / "shared").is_dir() else Path("/work/shared")
TLDR = SHARED / "corpora" / "tldr" / "tldr-pages-en.tar.gz"
EVAL = SHARED / "eval"
# CAIRN_PLAN_SCALE_WORK: another folder for the store (e.g. one that outlives a worktree).
WORK = Path(os.environ.get("CAIRN_PLAN_SCALE_WORK") or REPO / "bench" / ".work" / "plan-scale")
PROJECT = "github.com/tldr-pages/tldr"
INDEX = "scale"
VERSION = 1
TYPES = ("gotcha", "fix", "decision", "problem-solution", "trade-off", "preference", "what-changed")


#: ``open_store``'s ways of giving memory records their vectors (see the module).
MEMORY_VECTORS = ("embed", "source")


def open_store(n: int, *, embed_minutes: float | None = None, memory_vectors: str = "embed") -> Any:
    """The workspace of the scale store with ``n`` observations, built if missing or stale.

    Each stage resumes what an interrupted build left: the index is incremental, the
    embedding resumable, the observations imported when the store has none.
    ``embed_minutes`` stops embedding after that long (the rest stays pending: both
    ``plan`` and ``query`` then read the same partly embedded collection); the manifest
    is written only for a complete build. ``memory_vectors="source"``: every memory record
    without a vector gets one by the cheaper route of the module's docstring, after the
    passages are embedded."""
    import cairn

    if memory_vectors not in MEMORY_VECTORS:
        raise ValueError(f"memory_vectors: one of {MEMORY_VECTORS}, not {memory_vectors!r}")

    docs = (WORK / "tldr").resolve()
    wanted = {"version": VERSION, "observations": n, "archive_size": TLDR.stat().st_size, "root": str(docs / "pages")}
    manifest = WORK / "manifest.json"
    if manifest.exists() and json.loads(manifest.read_text()) == wanted and Path(wanted["root"]).is_dir():
        ws = cairn.open(home=WORK / "home", index=INDEX)
        roots = {c.name: c.root for c in ws.list_collections().collections}
        if roots.get("tldr") == wanted["root"]:
            if memory_vectors == "source":
                source_vectors(ws)
            return ws
        ws.close()
    ws = cairn.open(home=WORK / "home", index=INDEX) if (WORK / "home").is_dir() else None
    roots = {c.name: c.root for c in ws.list_collections().collections} if ws is not None else {}
    if roots.get("tldr") != wanted["root"] or not Path(wanted["root"]).is_dir():
        print(f"building the scale store under {WORK} (stale or missing)", file=sys.stderr)
        if ws is not None:
            ws.close()
        shutil.rmtree(WORK, ignore_errors=True)
        WORK.mkdir(parents=True)
        with tarfile.open(TLDR) as tar:
            tar.extractall(docs, filter="data")
        ws = cairn.open(home=WORK / "home", index=INDEX)
        ws.add_collection(docs / "pages", name="tldr")
    assert ws is not None
    started = time.perf_counter()
    ws.index()
    print(f"  indexed in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    have = ws._open_store(False).memory_counts().get("observation_active", 0)
    if have > n:
        raise SystemExit(f"{WORK}: {have} observations, {n} asked: delete the folder to rebuild")
    if have < n:  # the same order every time: an interrupted import resumes after its last batch
        started = time.perf_counter()
        batch: list[dict[str, Any]] = []
        written = 0
        for fields in itertools.islice(_observations(ws, n), have, None):
            batch.append(fields)
            if len(batch) == 5000:
                written += ws.memory_import(batch, project=PROJECT)
                batch = []
        if batch:
            written += ws.memory_import(batch, project=PROJECT)
        print(f"  {written} observations imported in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    started = time.perf_counter()

    def stop_in_time(done: int, total: int) -> None:
        if embed_minutes is not None and time.perf_counter() - started > 60 * embed_minutes:
            raise TimeoutError(f"embedded {done} of {total}")

    try:
        if memory_vectors == "source":  # passages first, then the records' vectors from them
            ws.embed("tldr", progress=stop_in_time)
            source_vectors(ws)
        result = ws.embed(progress=stop_in_time)
        complete = result.pending_after == 0
    except TimeoutError as exc:
        print(f"  embedding stopped after {embed_minutes} min: {exc}", file=sys.stderr)
        complete = False
    print(f"  embedding: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if complete:
        manifest.write_text(json.dumps(wanted))
    return ws


def source_vectors(ws: Any) -> int:
    """Give every active memory record without a vector one by the cheaper route of the
    module's docstring (its source passage's vector, else a seeded random unit vector);
    the number of vectors written. Records whose source passage has no vector yet are left
    pending."""
    import numpy as np

    from cairn.memory.texts import embed_hash, embed_text

    store = ws._open_store(False)
    embedder = ws.models.embedder()
    fingerprint = embedder.fingerprint
    addressed = {embed_hash(r): r for r in store.memory_list(None, limit=10**9)}
    have = store.vectors_for(fingerprint, list(addressed))
    missing = {a: r for a, r in addressed.items() if a not in have}
    if not missing:
        return 0
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for docid, start, end, passage_hash in store.conn.execute(
            "SELECT d.docid, p.start_line, p.end_line, p.passage_hash FROM passages p"
            " JOIN documents d ON d.id = p.document_id WHERE d.active = 1 ORDER BY p.id"):
        spans.setdefault(docid, []).append((start, end, passage_hash))
    sources: dict[str, str | None] = {}
    for address, record in missing.items():
        ref = next((e for e in record.evidence if e.kind == "passage" and e.start is not None), None)
        found = None
        if ref is not None:
            found = next((h for s, e, h in spans.get(ref.target, []) if s <= ref.start <= e), None)
        sources[address] = found
    passage_vectors = store.vectors_for(fingerprint, sorted({h for h in sources.values() if h}))
    dims = embedder.dimensions
    rows: list[tuple[str, bytes, int, int]] = []
    addresses = [a for a in missing if sources[a] is None or sources[a] in passage_vectors]
    counts = embedder.count_tokens([embed_text(missing[a]) for a in addresses])
    for address, tokens in zip(addresses, counts, strict=True):
        source = sources[address]
        if source is not None:
            blob = passage_vectors[source]
        else:
            vector = np.random.default_rng(int(address[:16], 16)).standard_normal(dims)
            blob = (vector / np.linalg.norm(vector)).astype("<f4").tobytes()
        rows.append((address, blob, dims, tokens))
    for start in range(0, len(rows), 5000):
        store.write_vectors(fingerprint, rows[start:start + 5000])
    print(f"  memory vectors by the source route: {sum(sources[a] is not None for a in addresses)} from passages, "
          f"{sum(sources[a] is None for a in addresses)} seeded, {len(missing) - len(rows)} left pending",
          file=sys.stderr)
    return len(rows)


def memory_vector_count(ws: Any) -> tuple[int, int]:
    """(active memory records with a vector for the embedder, active memory records)."""
    store = ws._open_store(False)
    addresses = [h for (h,) in store.conn.execute("SELECT embed_hash FROM memory_records WHERE status = 'active'")]
    have = store.vectors_for(ws.models.embedder().fingerprint, addresses)
    return sum(h in have for h in addresses), len(addresses)


def _observations(ws: Any, n: int) -> Iterator[dict[str, Any]]:
    pages = []
    for entry in ws.ls("tldr").documents:
        text = ws.get(entry.docid).text
        pages.append((entry, text.split("\n")))
    pages.sort(key=lambda p: p[0].path)
    count = 0
    examples: list[dict[str, Any]] = []
    for entry, lines in pages:
        if count >= n:
            return
        platform = entry.path.split("/", 1)[0]
        name = entry.path.rsplit("/", 1)[-1].removesuffix(".md")
        about = [(i, ln[2:].strip()) for i, ln in enumerate(lines, 1) if ln.startswith("> ")]
        described = [t for _, t in about if not t.startswith("More information")]
        pairs = [(i, ln[2:].rstrip(":"), lines[i + 1].strip("`")) for i, ln in enumerate(lines, 1)
                 if ln.startswith("- ") and i + 1 < len(lines) and lines[i + 1].startswith("`")]
        file = f"pages/{entry.path}"
        span = [f"passage:{entry.docid}:{about[0][0]}-{about[-1][0]}"] if about else []
        yield {"title": f"{name}: {described[0] if described else name}"[:300], "type": "how-it-works",
               "narrative": " ".join(described) or name, "facts": [c for _, _, c in pairs][:8],
               "files": [file], "concepts": [platform], "evidence": span}
        count += 1
        for k, (line, what, command) in enumerate(pairs):
            examples.append({
                "title": f"{name}: {what}"[:300], "type": TYPES[(len(examples) + k) % len(TYPES)],
                "narrative": f"{described[0] if described else name} To {what[:1].lower()}{what[1:]}, run `{command}`.",
                "facts": [command], "files": [file], "concepts": [platform, name],
                "evidence": [f"passage:{entry.docid}:{line}-{line + 2}"],
            })
    for fields in examples:
        if count >= n:
            return
        yield fields
        count += 1
    for piece in _abstract_pieces():
        if count >= n:
            return
        words = piece.split()
        yield {"title": " ".join(words[:10]), "type": "how-it-works", "narrative": piece, "source": "import"}
        count += 1
    for speaker, text in _locomo_turns():
        if count >= n:
            return
        yield {"title": f"{speaker}: {' '.join(text.split()[:10])}", "type": "preference", "narrative": text,
               "source": "import"}
        count += 1
    raise SystemExit(f"only {count} observations available, {n} asked")


def _abstract_pieces(words_per_piece: int = 100) -> Iterator[str]:
    """~100-word pieces of the Cranfield, MEDLINE and NFCorpus documents."""
    texts: list[str] = []
    for name in ("cranfield/cran.all.1400", "medline/MED.ALL"):
        body = (EVAL / name).read_text(encoding="utf-8", errors="replace")
        texts += [re.sub(r"\s+", " ", part.split("\n.W\n", 1)[1]).strip()
                  for part in re.split(r"^\.I ", body, flags=re.M) if "\n.W\n" in part]
    with (EVAL / "nfcorpus" / "test.docs").open(encoding="utf-8") as docs:
        texts += [line.split("\t", 1)[1].strip() for line in docs if "\t" in line]
    for text in texts:
        words = text.split()
        for start in range(0, len(words), words_per_piece):
            if len(words) - start >= 20:
                yield " ".join(words[start:start + words_per_piece])


def _locomo_turns() -> Iterator[tuple[str, str]]:
    """(speaker, text) of every LoCoMo turn (``../shared/eval/locomo``), in order."""
    data = json.loads((EVAL / "locomo" / "locomo-dev.json").read_text(encoding="utf-8"))
    for sample in data:
        conversation = sample["conversation"]
        for key in sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k[8:])):
            for turn in conversation[key]:
                if turn.get("text", "").strip():
                    yield turn["speaker"], turn["text"].strip()


def _home_state(home: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(home)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(home.rglob("*")) if p.is_file()}


def startup_probe(task: str, budget: int, *, query_first: bool = False) -> dict[str, Any]:
    """In a fresh process: import the SDK, open the scale store (``status``: the file
    opened, the schema checked), time the first ``plan`` and ``query`` and three warm
    ones of each (the first of the two pays the model's loading), and compare the home's files (size, mtime) before and after: the
    database file must be unchanged, and the WAL hold no more bytes than before (SQLite
    creates an empty WAL and its shared-memory index when a WAL database is opened)."""
    started = time.perf_counter()
    import cairn
    import cairn.workspace

    imported = time.perf_counter()
    home = WORK / "home"
    before = _home_state(home)
    ws = cairn.open(home=home, index=INDEX)
    ws.list_collections()  # the index file opened, its schema checked
    opened = time.perf_counter()
    if query_first:
        first_query = _timed(lambda: ws.query(task, collections=["tldr"]))
        first_plan = _timed(lambda: ws.plan(task, budget=budget, project=PROJECT, collections=["tldr"]))
    else:
        first_plan = _timed(lambda: ws.plan(task, budget=budget, project=PROJECT, collections=["tldr"]))
        first_query = _timed(lambda: ws.query(task, collections=["tldr"]))
    warm_plan = min(_timed(lambda: ws.plan(task, budget=budget, project=PROJECT, collections=["tldr"]))
                    for _ in range(3))
    warm_query = min(_timed(lambda: ws.query(task, collections=["tldr"])) for _ in range(3))
    after = _home_state(home)
    ws.close()
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    database = f"indexes/{INDEX}.sqlite"
    return {"first": "query" if query_first else "plan", "database_unchanged": before.get(database) == after.get(database),
            "wal_bytes": (before.get(database + "-wal", (0, 0))[0], after.get(database + "-wal", (0, 0))[0]),"import_ms": 1000 * (imported - started), "open_ms": 1000 * (opened - imported),
            "first_plan_ms": first_plan, "first_query_ms": first_query,
            "warm_plan_ms": warm_plan, "warm_query_ms": warm_query, "changed_files": changed}


def _timed(fn: Any) -> float:
    started = time.perf_counter()
    fn()
    return 1000 * (time.perf_counter() - started)


if __name__ == "__main__":  # the fresh-process probe: python -m bench.plan_scale TASK BUDGET FOLDER [query]
    os.chdir(sys.argv[3] if len(sys.argv) > 3 else os.getcwd())
    print(json.dumps(startup_probe(sys.argv[1], int(sys.argv[2]), query_first=sys.argv[4:] == ["query"])))
