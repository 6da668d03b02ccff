"""Behaviour goldens of the CLI: the ``--json`` output of every command on a fixture vault.

Part of the proof that a refactor changes no behaviour (the retrieval half is
``bench/behaviour.py``). Every command that takes ``--json`` runs, through the ``cairn``
console script's entry point, over a fixed vault (``examples/notes`` as collection ``notes``
and the hand-written notes of ``tests/graph_vault.py`` as collection ``graph``, every file's
mtime pinned), including error outputs. Each output, after :func:`normalise_volatile`, must
equal ``tests/golden/cli/<step>.json`` byte for byte (key order included)::

    .venv/bin/pytest tests/test_behaviour.py                                 # check (~1 min loaded)
    CAIRN_BEHAVIOUR_SUBPROCESS=1 .venv/bin/pytest tests/test_behaviour.py    # same, real subprocesses
    CAIRN_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_behaviour.py           # rewrite the goldens

The goldens were recorded with real subprocesses and checked in-process: both ways give the
same bytes.

Not covered: ``ask --answer`` / ``ask --verify`` (they run the local generator, minutes on a
loaded machine; the evidence half of ``ask`` is covered), ``serve`` and ``mcp run`` (servers,
no ``--json``). ``mcp install`` runs with ``--dry-run`` only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CAIRN_BIN, EXAMPLES, REPO, needs_minilm, run_cli
from tests.graph_vault import HAND

GOLDEN = REPO / "tests" / "golden" / "cli"
UPDATE = os.environ.get("CAIRN_UPDATE_GOLDEN") == "1"
#: By default every command runs in this process through the console script's own entry
#: point (``main(argv)``: the same error mapping and exit codes, one interpreter start and one
#: model load for ~90 commands). CAIRN_BEHAVIOUR_SUBPROCESS=1 runs each as a real ``cairn``
#: subprocess instead (same goldens; minutes on a loaded machine).
SUBPROCESS = os.environ.get("CAIRN_BEHAVIOUR_SUBPROCESS") == "1"
PARALLEL = 3  # subprocess mode: read-only commands run side by side (each mostly waits on imports)


@dataclass(frozen=True)
class Step:
    """One CLI run: golden name, arguments (``--json`` is appended), expected exit code."""

    name: str
    args: tuple[str, ...]
    exit_code: int = 0


# ------------------------------------------------------------------------ normalisation

_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
#: Keys whose value measures the run, not the behaviour (durations, storage size, run ids).
_VOLATILE_KEYS = {"elapsed_ms": "<ms>", "index_bytes": "<bytes>", "run_id": "<run-id>"}
_VERSION_DETAILS = {"python": "<python-version>", "sqlite_fts5": "<sqlite-version>"}


def normalise_volatile(value: Any, paths: dict[str, str]) -> Any:
    """The output with everything that legitimately differs between two runs replaced by a
    placeholder: durations (``elapsed_ms``), the index file size, run ids, timestamps of the
    run (ISO date-times; plain dates such as a note's ``date: 2026-05-20`` are content and
    stay), temporary folders (``paths``: real path -> placeholder, longest first), the
    interpreter's bin folder, and the Python / SQLite versions in ``doctor``."""
    ordered = sorted(paths.items(), key=lambda kv: -len(kv[0]))

    def text(s: str) -> str:
        for real, placeholder in ordered:
            s = s.replace(real, placeholder)
        return _TIMESTAMP.sub("<timestamp>", s)

    def walk(v: Any, key: str | None = None) -> Any:
        if key in _VOLATILE_KEYS and v is not None:
            return _VOLATILE_KEYS[key]
        if isinstance(v, dict):
            if v.get("name") in _VERSION_DETAILS and "detail" in v:
                v = {**v, "detail": _VERSION_DETAILS[v["name"]]}
            return {k: walk(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, str):
            return text(v)
        return v

    return walk(value)


# ------------------------------------------------------------------------------ harness


#: Every vault file's modification time (2026-01-15T00:00:00Z): a file's date must not
#: depend on when the checkout or the test happened.
FIXED_MTIME = 1768435200


def build_vault(root: Path) -> Path:
    """``root/notes``: a copy of examples/notes; ``root/graph``: graph_vault's hand notes."""
    shutil.copytree(EXAMPLES, root / "notes")
    for rel, text in HAND.items():
        path = root / "graph" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    return root


def cairn_main() -> Callable[[Sequence[str]], None]:
    """The ``cairn`` console script's entry point, wherever the package puts it."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="cairn")
    return script.load()  # type: ignore[no-any-return]


def run_in_process(args: Sequence[str]) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of ``cairn ARGS`` run through its entry point here."""
    import contextlib
    import io

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cairn_main()(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))  # type: ignore[attr-defined]
    return code, texts[0], texts[1]


def run_step(step: Step, paths: dict[str, str]) -> dict[str, Any]:
    args = (*step.args, "--json")
    if SUBPROCESS:
        proc = run_cli(*args, check=False)
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    else:
        code, stdout, stderr = run_in_process(args)
    try:
        output = json.loads(stdout)
    except json.JSONDecodeError:
        output = {"not_json": stdout, "stderr": stderr[-2000:]}
    return normalise_volatile({"args": list(args), "exit_code": code, "json": output}, paths)


def run_steps(steps: Sequence[Step], paths: dict[str, str], *, parallel: bool) -> dict[str, dict[str, Any]]:
    if not parallel or not SUBPROCESS:
        return {s.name: run_step(s, paths) for s in steps}
    with ThreadPoolExecutor(PARALLEL) as pool:
        return dict(zip([s.name for s in steps], pool.map(lambda s: run_step(s, paths), steps), strict=True))


def dump(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def compare(results: dict[str, dict[str, Any]], steps: Sequence[Step]) -> list[str]:
    """Problems (golden missing or different, wrong exit code); rewrites the goldens instead
    when ``CAIRN_UPDATE_GOLDEN=1``."""
    import difflib

    problems = []
    for step in steps:
        got = results[step.name]
        path = GOLDEN / f"{step.name}.json"
        if got["exit_code"] != step.exit_code:
            problems.append(f"{step.name}: exit {got['exit_code']}, expected {step.exit_code}: "
                            f"{json.dumps(got['json'])[:300]}")
        if UPDATE:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            path.write_text(dump(got), encoding="utf-8")
            continue
        if not path.exists():
            problems.append(f"{step.name}: no golden {path.relative_to(REPO)} (CAIRN_UPDATE_GOLDEN=1 records it)")
            continue
        want = path.read_text(encoding="utf-8")
        if want != dump(got):
            diff = difflib.unified_diff(want.splitlines(), dump(got).splitlines(), "golden", "now", n=1, lineterm="")
            problems.append(f"{step.name}: differs from {path.relative_to(REPO)}\n    "
                            + "\n    ".join(list(diff)[:30]))
    return problems


def check_phases(phases: Sequence[tuple[Sequence[Step], bool] | Callable[[], None]], paths: dict[str, str]) -> None:
    """Run the phases in order (a phase: steps and whether they may run side by side, or a
    plain action such as editing a note) and compare every step with its golden."""
    results: dict[str, dict[str, Any]] = {}
    steps: list[Step] = []
    for phase in phases:
        if callable(phase):
            phase()
            continue
        chunk, parallel = phase
        results |= run_steps(chunk, paths, parallel=parallel)
        steps += chunk
    assert len({s.name for s in steps}) == len(steps), "step names must be unique"
    problems = compare(results, steps)
    if problems:
        pytest.fail(f"{len(problems)} of {len(steps)} CLI outputs differ:\n" + "\n".join(problems), pytrace=False)


#: The capsule signing key of the golden runs: a fixed key, so signatures are part of the
#: goldens (a fresh install makes a random one).
GOLDEN_CAPSULE_KEY = "c0ffee" * 10 + "cafe"


def pin_capsule_key(cairn_home: Path) -> None:
    key = cairn_home / "keys" / "capsule.key"
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_text(GOLDEN_CAPSULE_KEY + "\n", encoding="ascii")
    key.chmod(0o600)


def setup_paths(tmp_path: Path, cairn_home: Path) -> dict[str, str]:
    return {
        str(tmp_path / "vault"): "<vault>",
        str(tmp_path): "<tmp>",
        str(cairn_home): "<cairn-home>",
        os.environ["HOME"]: "<user-home>",
        str(CAIRN_BIN.parent): "<bin>",
        sys.executable: "<python>",
    }


# -------------------------------------------------------------------------------- tests


def test_cli_json_goldens(tmp_path: Path, cairn_home: Path) -> None:
    """Everything that needs no embedding model: collections, index, BM25 search, documents,
    links and graph, tags, and error outputs."""
    vault = build_vault(tmp_path / "vault")
    paths = setup_paths(tmp_path, cairn_home)
    notes, graph = str(vault / "notes"), str(vault / "graph")
    sequential = [
        Step("error-no-index", ("search", "anything"), 1),
        Step("collection-add", ("collection", "add", notes, "--name", "notes", "--context", "Team notes")),
        Step("collection-add-graph", ("collection", "add", graph, "--name", "graph", "--exclude", "Archive/**")),
        Step("index", ("index",)),
        Step("update", ("update",)),
        Step("index-collection", ("index", "-c", "notes")),
        Step("collection-configure", ("collection", "configure", "graph", "--sequence", "--context", "Link rules")),
        Step("error-collection-add-conflict", ("collection", "add", notes, "--name", "notes"), 1),
        Step("error-collection-add-missing-folder", ("collection", "add", str(vault / "nope")), 1),
        Step("error-collection-configure-nothing", ("collection", "configure", "graph"), 1),
        Step("error-collection-configure-unknown", ("collection", "configure", "nope", "--sequence"), 1),
    ]
    read_only = [
        Step("collection-list", ("collection", "list")),
        Step("search", ("search", "backup schedule")),
        Step("search-phrase-negation", ("search", '"offline vector maps" -rust')),
        Step("search-filters", ("search", "map", "-n", "3", "--tags-any", "projects,travel", "-c", "notes")),
        Step("search-dates", ("search", "backup OR release OR map", "--since", "2026-04-01", "--until", "2026-05-31")),
        Step("search-tags-all", ("search", "backup", "--tags-all", "ops,ops/backups")),
        Step("search-cjk", ("search", "北京")),
        Step("search-graph", ("search", "meeting", "-c", "graph", "-n", "20")),
        Step("get", ("get", "notes/howto/backups.md")),
        Step("get-lines", ("get", "notes/howto/backups.md", "--from", "3", "--lines", "2")),
        Step("get-uri", ("get", "cairn://graph/People/Ada%20Lovelace.md")),
        Step("multi-get", ("multi-get", "notes/index.md", "notes/glossary.txt", "--lines", "3")),
        Step("ls", ("ls",)),
        Step("ls-collection", ("ls", "notes")),
        Step("ls-prefix", ("ls", "cairn://graph/Projects/")),
        Step("links", ("links", "graph/Home.md")),
        Step("links-notes", ("links", "notes/index.md")),
        Step("backlinks", ("backlinks", "graph/Projects/Alpha.md")),
        Step("backlinks-notes", ("backlinks", "notes/howto/backups.md")),
        Step("graph-summary", ("graph", "summary")),
        Step("graph-summary-collection", ("graph", "summary", "-c", "notes", "--max-unresolved", "5")),
        Step("graph-path", ("graph", "path", "graph/Home.md", "graph/Topics/Graphs.md")),
        Step("graph-path-out", ("graph", "path", "notes/index.md", "notes/howto/backups.md", "--direction", "out")),
        Step("graph-path-none", ("graph", "path", "graph/Orphan.md", "graph/Home.md")),
        Step("graph-neighbors", ("graph", "neighbors", "graph/Home.md")),
        Step("graph-neighbors-depth", ("graph", "neighbors", "graph/Home.md", "--depth", "2", "--direction", "out")),
        Step("tags", ("tags",)),
        Step("tags-collection", ("tags", "-c", "graph")),
        Step("mcp-status", ("mcp", "status")),
        Step("mcp-install-dry-run", ("mcp", "install", "--target", "cursor", "--dry-run")),
        Step("error-get-unknown-ref", ("get", "notes/nope.md"), 1),
        Step("error-get-bad-line", ("get", "notes/index.md", "--from", "0"), 1),
        Step("error-search-bad-date", ("search", "x", "--since", "yesterday"), 1),
        Step("error-search-bad-query", ("search", '"'), 1),
        Step("error-search-bad-limit", ("search", "x", "-n", "0"), 1),
        Step("error-usage", ("search", "x", "-n", "notanumber"), 1),
        Step("error-multi-get-partial", ("multi-get", "notes/index.md", "notes/missing.md"), 1),
        Step("error-links-unknown-ref", ("links", "graph/Nowhere.md"), 1),
        Step("error-graph-path-unknown", ("graph", "path", "graph/Home.md", "nope/x.md"), 1),
        Step("error-bad-index-name", ("--index", "../x", "status"), 1),
    ]
    final = [
        Step("collection-remove", ("collection", "remove", "graph")),
        Step("collection-list-after-remove", ("collection", "list")),
        Step("error-collection-remove-unknown", ("collection", "remove", "graph"), 1),
    ]
    check_phases([(sequential, False), (read_only, True), (final, False)], paths)


@needs_minilm
def test_cli_json_goldens_vectors(tmp_path: Path, cairn_home: Path) -> None:
    """Everything that reads the local embedding model or reports on it: embed, vsearch, the
    query modes, diagnose, similar, Context Capsules (build, verify fresh and stale), ask
    (evidence only), status and doctor."""
    vault = build_vault(tmp_path / "vault")
    paths = setup_paths(tmp_path, cairn_home)
    pin_capsule_key(cairn_home)
    capsule = tmp_path / "capsule.json"
    for args in (("collection", "add", str(vault / "notes"), "--name", "notes"),
                 ("collection", "add", str(vault / "graph"), "--name", "graph"), ("index",)):
        assert run_in_process(args)[0] == 0, args

    def save_capsule() -> None:
        code, stdout, _ = run_in_process(("context", "build", "backup schedule", "--json"))
        assert code == 0
        capsule.write_text(stdout)

    def edit_notes() -> None:
        backups = vault / "notes" / "howto" / "backups.md"
        backups.write_text(backups.read_text().replace("35 days", "40 days"))
        os.utime(backups, (FIXED_MTIME + 86400, FIXED_MTIME + 86400))
        (vault / "notes" / "glossary.txt").unlink()

    tampered = tmp_path / "tampered.json"

    def tamper() -> None:
        data = json.loads(capsule.read_text())
        data["goal"] = "something else"
        tampered.write_text(json.dumps(data))

    before_embed = [
        Step("status-before-embed", ("status",)),
        Step("vsearch-without-vectors", ("vsearch", "how do we keep copies of data")),
        Step("embed", ("embed",)),
        Step("embed-again", ("embed", "-c", "notes", "--batch", "8")),
    ]
    read_only = [
        Step("status", ("status",)),
        Step("doctor", ("doctor",)),
        Step("vsearch", ("vsearch", "how do we keep copies of data")),
        Step("vsearch-filters", ("vsearch", "maps for field teams", "-n", "3", "-c", "notes", "--tags-any", "projects")),
        Step("query", ("query", "how often are backups taken")),
        Step("query-run", ("query", "run", "offline maps", "-n", "5")),
        Step("query-fast", ("query", "how often are backups taken", "--fast")),
        Step("query-thorough", ("query", "how often are backups taken", "--thorough")),
        Step("query-explain", ("query", "restore drill duration", "--explain")),
        Step("query-graph", ("query", "alpha goals", "--graph", "-c", "graph")),
        Step("query-all-passages", ("query", "release", "--all-passages")),
        Step("query-diagnose", ("query", "diagnose", "backup", "--target", "notes/howto/backups.md")),
        Step("query-diagnose-missed", ("query", "diagnose", "release checklist", "--target", "graph/Orphan.md")),
        Step("similar", ("similar", "notes/howto/backups.md", "-n", "5")),
        Step("context-build", ("context", "build", "backup schedule", "--budget-tokens", "300")),
        Step("context-build-bytes", ("context", "build", "offline maps", "--budget-bytes", "3000", "-c", "notes")),
        Step("context-build-graph", ("context", "build", "alpha risks", "--graph", "-c", "graph")),
        Step("ask", ("ask", "how often are backups taken")),
        Step("ask-filters", ("ask", "what is a tile", "-c", "notes", "--budget-tokens", "200")),
        Step("error-similar-unknown-ref", ("similar", "notes/nope.md"), 1),
        Step("error-query-bad-date", ("query", "x", "--until", "2026-13-45"), 1),
        Step("error-diagnose-unknown-target", ("query", "diagnose", "x", "--target", "notes/nope.md"), 1),
    ]
    verify = [Step("context-verify-unchanged", ("context", "verify", str(capsule)))]
    after_edit = [
        Step("context-verify-stale", ("context", "verify", str(capsule)), 3),
        Step("index-after-edit", ("index",)),
        Step("context-verify-after-index", ("context", "verify", str(capsule)), 3),
        Step("embed-after-edit", ("embed",)),
        Step("error-context-verify-tampered", ("context", "verify", str(tampered)), 1),
        Step("status-after-edit", ("status",)),
    ]
    check_phases([(before_embed, False), (read_only, True), save_capsule, (verify, False),
                  tamper, edit_notes, (after_edit, False)], paths)
