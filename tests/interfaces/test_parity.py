"""One set of requests through every face: SDK, CLI --json, REST, MCP over stdio and over
HTTP. Each answer must be the same contract object (errors: the same code)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import httpx
import pytest
from pydantic import TypeAdapter

import cairn
from cairn.interfaces.cli import OperationCommand, cli
from cairn.interfaces.operations import OPERATIONS, available_operations, operation
from tests.conftest import run_cli
from tests.servers import build_index, serve, stdio_params, with_mcp

#: One request per read operation (as MCP and REST take it); the CLI's argv is derived
#: from the command that serves the operation (see :func:`cli_argv`).
CASES: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "backup schedule", "limit": 5}),
    ("search", {"query": "map", "limit": 3, "tags_any": ["projects", "travel"]}),
    ("vsearch", {"query": "keeping copies of data safe", "limit": 3}),
    ("query", {"query": "snapshot retention", "limit": 4, "explain": True}),
    ("query", {"query": "backups", "mode": "fast", "collections": ["notes"], "all_passages": True}),
    ("get", {"ref": "notes/howto/backups.md", "from_line": 3, "lines": 2}),
    ("multi_get", {"refs": ["notes/index.md", "notes/glossary.txt"], "max_lines": 4}),
    ("ls", {"prefix": "notes/howto/"}),
    ("status", {}),
    ("links", {"ref": "notes/index.md"}),
    ("backlinks", {"ref": "notes/howto/backups.md", "limit": 5}),
    ("similar", {"ref": "notes/howto/backups.md", "limit": 3}),
    ("graph_neighbors", {"ref": "notes/index.md", "depth": 2, "direction": "out"}),
    ("graph_path", {"a": "notes/index.md", "b": "notes/howto/backups.md"}),
    ("tags", {}),
    ("context_build", {"goal": "how are backups scheduled", "budget_tokens": 300}),
    ("ask", {"question": "what is the backup rule"}),
    ("ask", {"question": "what is the backup rule", "verify": True, "tags_any": ["howto"]}),
    # agent memory (issue 14): "{obs}"/"{claim}" are the records the fixture adds.
    ("memory_search", {"text": "nightly snapshots", "project": "demo", "limit": 5}),
    ("memory_show", {"id": "{obs}", "project": "demo"}),
    ("memory_history", {"id": "{claim}", "project": "demo"}),
    ("memory_export", {"project": "demo", "include_archived": False}),
    # knowledge delta (issue 16)
    ("changes", {"limit": 5}),
    ("changes", {"since": "2000-01-01", "collection": "notes", "limit": 3}),
    ("diff", {"ref": "notes/index.md"}),
    ("diff", {"since": "2000-01-01", "limit": 5}),
    ("impact", {"ref": "notes/howto/backups.md", "depth": 2}),
    ("context_list", {}),
    ("context_receipts", {"limit": 5}),
    # the code graph (issue 15): see _code_snapshots
    ("code_symbols", {"path": "app/core.py"}),
    ("code_show", {"symbol": "app.core.Engine.start"}),
    ("code_impact", {"target": "app/core.py", "depth": 3}),
    ("code_impact", {"target": "app.core.helper", "max_nodes": 2}),
    ("code_diff", {}),
    ("code_snapshots", {}),
    # memory: the evidence governor (issue 14)
    ("memory_plan", {"task": "how are backups scheduled", "budget": 300, "project": "parity", "explain": True}),
    ("memory_resume", {"project": "parity", "budget": 200}),
]

#: Ids of the memory records the ``fixed`` index holds (filled by the fixture).
MEMORY_IDS: dict[str, str] = {}


def _ids(value: Any) -> Any:
    """``value`` with the memory placeholders replaced by the fixture's ids."""
    text = json.dumps(value)
    for key, rid in MEMORY_IDS.items():
        text = text.replace("{" + key + "}", rid)
    return json.loads(text)
CASES.append(("runtime_status", {}))  # the resident runtime (issue 16)

ERROR_CASES: list[tuple[str, dict[str, Any], str]] = [
    ("get", {"ref": "notes/nope.md"}, "not_found"),
    ("get", {"ref": "notes/../../etc/passwd"}, "invalid_input"),
    ("get", {"ref": "cairn://notes/%2e%2e/x"}, "invalid_input"),
    ("search", {"query": "x", "collections": ["nope"]}, "not_found"),
    ("links", {"ref": "/etc/passwd"}, "invalid_input"),
    ("graph_path", {"a": "notes/index.md", "b": "notes/nope.md"}, "not_found"),
    ("impact", {"ref": "notes/nope.md"}, "not_found"),
    ("changes", {"since": "c1.nope"}, "invalid_input"),
    ("context_receipts", {"name": "nope"}, "not_found"),
    ("code_impact", {"target": "app/nope.py"}, "invalid_input"),
    ("code_show", {"symbol": "app.nope"}, "not_found"),
]


def _commands() -> dict[str, tuple[list[str], click.Command]]:
    """Operation name -> (argv path, command) of the first CLI command that serves it."""
    found: dict[str, tuple[list[str], click.Command]] = {}

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, OperationCommand):
            found.setdefault(command.operation, (path, command))
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])

    walk(cli, [])
    return found


def cli_argv(name: str, args: dict[str, Any]) -> list[str]:
    """The command line that asks the CLI for operation ``name`` with ``args``."""
    path, command = _commands()[name]
    positional: list[str] = []
    options: list[str] = []
    for param in command.params:
        if param.name not in args:
            continue
        value = args[param.name]
        if isinstance(param, click.Argument):
            positional += [str(v) for v in value] if isinstance(value, list) else [str(value)]
        elif isinstance(param, click.Option) and param.is_flag and not param.is_bool_flag:
            options += [param.opts[0]] if param.flag_value == value else []
        elif isinstance(param, click.Option) and param.is_bool_flag:
            options += [param.opts[0]] if value else param.secondary_opts[:1]
        elif isinstance(param, click.Option) and param.multiple:
            options += [part for v in value for part in (param.opts[0], str(v))]
        else:
            options += [param.opts[0], str(value)]
    unknown = set(args) - {param.name for param in command.params}
    assert not unknown, f"cairn {' '.join(path)} has no option for {unknown}"
    return [*path, *positional, *options]


def test_every_operation_has_a_cli_command_and_a_case() -> None:
    assert set(_commands()) == {op.name for op in OPERATIONS}
    # context_verify: test_context_verify_parity (the CLI reads the capsule from a file)
    # context_reverify (records a receipt each time): tests/delta/test_faces.py
    assert {name for name, _ in CASES} | {"context_verify", "check_draft", "context_reverify"} == \
        {op.name for op in available_operations(write=False)}
    for name, args in CASES:
        cli_argv(name, args)


def _code_snapshots(home: Path, root: Path) -> None:
    """Two code snapshots (the code graph, issue 15), so diff has something to say."""
    from tests.code.test_python import write
    from tests.code.test_service import BASE, change

    write(root, BASE)
    with cairn.open(home) as ws:
        ws.code_refresh(str(root))
        change(root, "app/util.py", "def doubled(a):\n    return a * 2\n")
        ws.code_refresh(str(root))


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    home = build_index(tmp_path_factory.mktemp("parity"))
    with cairn.open(home) as ws:  # agent memory (issue 14)
        MEMORY_IDS["obs"] = ws.memory_add("Nightly snapshots", "Snapshots run nightly at 02:00.",
                                          type="decision", facts=["kept 35 days"], project="demo").item.id
        MEMORY_IDS["claim"] = ws.memory_add(subject="backups", predicate="run at", object="02:00",
                                            project="demo").item.id
        ws.memory_signal(MEMORY_IDS["obs"], "test-pass", project="demo")
    _code_snapshots(home, tmp_path_factory.mktemp("parity-code"))
    with serve(home) as url:
        yield home, url


def _contract(name: str, data: Any) -> Any:
    op = next(op for op in OPERATIONS if op.name == name)
    return TypeAdapter(op.output_model()).validate_python(data)


def _mcp_answers(server: Any, cases: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, Any]]:
    async def work(client: Any) -> list[tuple[bool, Any]]:
        out = []
        for name, args in cases:
            result = await client.call_tool(name, args)
            out.append((result.is_error, result.structured_content))
        return out

    return with_mcp(server, work)


def test_every_face_returns_the_same_contract(fixed: tuple[Path, str]) -> None:
    home, url = fixed
    CASES = _ids(globals()["CASES"])
    with cairn.open(home) as ws:
        expected = [operation(name).call_with(ws, dict(args)) for name, args in CASES]
    faces: dict[str, list[Any]] = {
        "cli": [json.loads(run_cli("--home", str(home), *cli_argv(name, args), "--json").stdout)
                for name, args in CASES],
        "rest": [httpx.post(f"{url}/v1/{_route(name)}", json=args, timeout=60).json() for name, args in CASES],
    }
    for face, server in (("mcp-stdio", stdio_params(home)), ("mcp-http", f"{url}/mcp")):
        answers = _mcp_answers(server, CASES)
        assert not any(err for err, _ in answers), (face, answers)
        faces[face] = [data for _, data in answers]
    for face, answers in faces.items():
        for (name, args), want, got in zip(CASES, expected, answers, strict=True):
            assert _contract(name, got) == want, (face, name, args)


def test_context_verify_parity(fixed: tuple[Path, str], tmp_path: Path) -> None:
    home, url = fixed
    with cairn.open(home) as ws:
        capsule = ws.context_build("how are backups scheduled", budget_tokens=300)
        receipt = ws.context_verify(capsule)
    body = capsule.model_dump(mode="json")
    saved = tmp_path / "capsule.json"
    saved.write_text(run_cli("--home", str(home), *cli_argv("context_build", {
        "goal": "how are backups scheduled", "budget_tokens": 300}), "--json").stdout)
    path, _ = _commands()["context_verify"]
    cli_answer = json.loads(run_cli("--home", str(home), *path, str(saved), "--json").stdout)
    rest = httpx.post(f"{url}/v1/context/verify", json={"capsule": body}, timeout=60).json()
    (err, mcp_http), = _mcp_answers(f"{url}/mcp", [("context_verify", {"capsule": body})])
    assert not err
    assert all(_contract("context_verify", answer) == receipt for answer in (cli_answer, rest, mcp_http))


def test_errors_have_the_same_code_everywhere(fixed: tuple[Path, str]) -> None:
    home, url = fixed
    requests = [(name, args) for name, args, _ in ERROR_CASES]
    stdio = _mcp_answers(stdio_params(home), requests)
    http = _mcp_answers(f"{url}/mcp", requests)
    for (name, args, code), (s_err, s_body), (h_err, h_body) in zip(ERROR_CASES, stdio, http, strict=True):
        argv = cli_argv(name, args)
        proc = run_cli("--home", str(home), *argv, "--json", check=False)
        assert proc.returncode == 1, argv
        assert json.loads(proc.stdout)["error"]["code"] == code, argv
        response = httpx.post(f"{url}/v1/{_route(name)}", json=args, timeout=30)
        assert response.status_code in (400, 404), (name, args, response.text)
        assert response.json()["error"]["code"] == code
        assert s_err and h_err
        assert s_body["error"]["code"] == h_body["error"]["code"] == code
        with cairn.open(home) as ws, pytest.raises(cairn.errors.CairnError) as caught:
            getattr(ws, next(op.method for op in OPERATIONS if op.name == name))(**args)
        assert caught.value.code == code


def _route(name: str) -> str:
    return next(op.route for op in OPERATIONS if op.name == name).removeprefix("/v1/")


#: The writes, in order, as MCP and REST take them (``{root}``: the face's own folder).
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("collection_add", {"path": "{root}/extra", "name": "extra", "include": ["**/*.py"], "context": "Extra"}),
    ("collection_configure", {"name": "extra", "sequence": True}),
    ("index", {"collection": "extra"}),
    ("capture", {"collection": "extra", "title": "A captured note", "text": "The zebra protocol.\n",
                 "path": "inbox/zebra.md"}),
    ("embed", {"collection": "extra"}),
    ("collection_configure", {"name": "extra", "sequence": False, "context": ""}),
    # agent memory (issue 14): ids are derived from the content, the same on every face.
    ("memory_add", {"title": "Zebra rule", "narrative": "Zebras cross first.", "type": "gotcha",
                    "facts": ["always"], "concepts": ["zebra"], "topic_key": "zebra", "project": "demo"}),
    ("memory_add", {"title": "Zebra rule", "narrative": "Zebras cross second.", "topic_key": "zebra",
                    "project": "demo", "evidence": ["commit:4e1d2b7"]}),
    ("memory_add", {"subject": "zebra", "predicate": "colour", "object": "striped", "project": "demo"}),
    ("memory_add", {"subject": "zebra", "predicate": "colour", "object": "spotted", "project": "demo"}),
    ("memory_resolve", {"target": "zebra|colour", "keep": "{claim1}", "note": "checked", "project": "demo"}),
    ("memory_pin", {"id": "{obs}", "note": "keep", "project": "demo"}),
    ("memory_signal", {"id": "{obs}", "kind": "test-fail", "note": "ci red", "project": "demo"}),
    ("memory_correct", {"id": "{obs}", "text": "Zebras cross third.", "facts": ["sometimes"], "project": "demo"}),
    ("memory_archive", {"id": "{obs}", "project": "demo"}),
    ("memory_restore", {"id": "{obs}", "project": "demo"}),
    ("memory_add", {"title": "t", "type": "rumour", "project": "demo"}),
    ("context_save", {"name": "saved", "capsule": "{capsule}"}),  # knowledge delta (issue 16)
    ("context_save", {"name": "saved", "capsule": "{capsule}"}),
    ("code_refresh", {"path": "{root}/extra", "keep": 3}),  # the code graph (issue 15)
]


#: The capsule the writes save (built once from an index like the faces'; see _saved_capsule).
_CAPSULE: dict[str, Any] = {}


def _write_ids() -> dict[str, str]:
    """The ids the memory writes create (content-derived: computed once in a scratch index)."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch, cairn.open(scratch) as ws:
        return {
            "obs": ws.memory_add("Zebra rule", "Zebras cross first.", type="gotcha", topic_key="zebra",
                                 project="demo").item.id,
            "claim1": ws.memory_add(subject="zebra", predicate="colour", object="striped", project="demo").item.id,
        }


def _writes(root: Path) -> list[tuple[str, dict[str, Any]]]:
    ids = _write_ids()
    out = []
    for name, args in WRITES:
        text = json.dumps(args).replace("{root}", str(root))
        for key, rid in ids.items():
            text = text.replace("{" + key + "}", rid)
        out.append((name, {k: _CAPSULE if v == "{capsule}" else v for k, v in json.loads(text).items()}))
    return out


def _comparable(root: Path, answer: Any) -> Any:
    """The answer with the face's folder and the clock taken out."""
    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: None if k in ("created_at", "last_indexed_at", "elapsed_ms", "updated_at", "at", "saved_at")
                    else scrub(v)
                    for k, v in value.items()}
        return [scrub(v) for v in value] if isinstance(value, list) else value

    return scrub(json.loads(json.dumps(answer).replace(str(root), "ROOT")))


def test_every_write_operation_answers_the_same_on_every_face(tmp_path_factory: pytest.TempPathFactory) -> None:
    assert {name for name, _ in WRITES} == {op.name for op in OPERATIONS if op.write}

    def fresh(face: str) -> tuple[Path, Path]:
        root = tmp_path_factory.mktemp(f"write-{face}")
        (root / "extra").mkdir()
        (root / "extra" / "a.md").write_text("# Alpha\n\nalpha links to [[b]]\n")
        (root / "extra" / "b.py").write_text("def b():\n    return 'beta'\n")
        return root, build_index(root)

    def as_answer(ok: bool, data: Any) -> Any:
        return data if ok else {"error": data["error"]["code"]}

    answers: dict[str, list[Any]] = {}
    root, home = fresh("capsule")
    with cairn.open(home) as ws:
        ws.add_collection(root / "extra", name="extra")
        ws.index()
        _CAPSULE.update(ws.context_build("alpha beta").model_dump(mode="json"))
    root, home = fresh("sdk")
    sdk: list[Any] = []
    with cairn.open(home) as ws:
        for name, args in _writes(root):
            try:
                sdk.append(operation(name).call_with(ws, args).model_dump(mode="json"))
            except cairn.errors.CairnError as exc:
                sdk.append({"error": {"code": exc.code}})
    answers["sdk"] = [_comparable(root, as_answer("error" not in a, a)) for a in sdk]

    root, home = fresh("cli")
    cli_answers = []
    for name, args in _writes(root):
        if name == "context_save":  # the CLI reads the capsule from a file
            (root / "capsule.json").write_text(json.dumps(args["capsule"]), encoding="utf-8")
            args = {**args, "capsule": str(root / "capsule.json")}
        proc = run_cli("--home", str(home), *cli_argv(name, args), "--json", check=False)
        data = json.loads(proc.stdout)
        cli_answers.append(_comparable(root, as_answer(proc.returncode == 0, data)))
    answers["cli"] = cli_answers

    root, home = fresh("rest")
    with serve(home, enable_write=True) as url:
        rest = [httpx.post(f"{url}/v1/{_route(name)}", json=args, timeout=120) for name, args in _writes(root)]
        answers["rest"] = [_comparable(root, as_answer(r.status_code == 200, r.json())) for r in rest]

    root, home = fresh("mcp")
    mcp = _mcp_answers(stdio_params(home, "--enable-write"), _writes(root))
    answers["mcp-stdio"] = [_comparable(root, as_answer(not err, data)) for err, data in mcp]

    for face, got in answers.items():
        for (name, _), want, answer in zip(WRITES, answers["sdk"], got, strict=True):
            assert answer == want, (face, name)


def test_check_draft_parity(fixed: tuple[Path, str]) -> None:
    """check_draft (read-only): the SDK, REST and MCP (stdio and HTTP) give one report,
    against a saved capsule and with evidence retrieved per claim."""
    home, url = fixed
    with cairn.open(home) as ws:
        capsule = ws.context_build("how are backups scheduled", budget_tokens=300)
        quote = capsule.evidence[0].text.strip().splitlines()[-1]
        draft = f"{quote} [E1]. Backups are copied to the Moon every hour [E9]."
        body = capsule.model_dump(mode="json")
        from cairn.capsule.canonical import canonical_json

        cases = [
            ({"draft": draft, "capsule": body}, ws.check_draft(draft, capsule=canonical_json(capsule))),
            ({"draft": draft}, ws.check_draft(draft)),
        ]
    for args, want in cases:
        rest = httpx.post(f"{url}/v1/check", json=args, timeout=60).json()
        assert _contract("check_draft", rest) == want, rest
        for server in (_stdio_with_env(home), f"{url}/mcp"):
            (err, got), = _mcp_answers(server, [("check_draft", args)])
            assert not err, got
            assert _contract("check_draft", got) == want
    draft_file = home / "draft.txt"
    draft_file.write_text(draft, encoding="utf-8")
    capsule_file = home / "capsule.json"
    capsule_file.write_bytes(canonical_json(capsule))
    for argv, want in ((["--capsule", str(capsule_file)], cases[0][1]), ([], cases[1][1])):
        proc = run_cli("--home", str(home), "check", str(draft_file), *argv, "--json")
        assert _contract("check_draft", json.loads(proc.stdout)) == want
    with_capsule = cases[0][1]
    assert with_capsule.source == "capsule" and with_capsule.unknown_citations == ["E9"]
    assert with_capsule.unsupported >= 1
    bad = httpx.post(f"{url}/v1/check", json={"draft": ""}, timeout=60)
    assert bad.status_code == 400 or bad.status_code == 422, bad.text


def _stdio_with_env(home: Path) -> Any:
    """stdio server params that keep this process's environment (PYTHONPATH included), so a
    worktree's sources serve the new operation."""
    import os

    params = stdio_params(home)
    return params.model_copy(update={"env": dict(os.environ)})
