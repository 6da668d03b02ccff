"""The CLI as a user runs it: a real subprocess, exit codes, JSON parity with the SDK."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cairn
from tests.conftest import cli_json, run_cli


def test_cli_json_equals_sdk(notes: Path) -> None:
    added = cli_json("collection", "add", str(notes), "--name", "notes")
    summary = cli_json("index")
    assert summary["counts"]["added"] == 6
    with cairn.open() as ws:
        assert added == ws.list_collections().collections[0].model_dump(mode="json") | {
            "documents": 0, "passages": 0, "last_indexed_at": None
        }
        for args, sdk in [
            (("search", "backup schedule"), ws.search("backup schedule")),
            (("search", "map", "-n", "3", "--tags-any", "projects,travel"),
             ws.search("map", limit=3, tags_any=["projects", "travel"])),
            (("get", "notes/howto/backups.md", "--from", "3", "--lines", "2"),
             ws.get("notes/howto/backups.md", from_line=3, lines=2)),
            (("multi-get", "notes/index.md", "notes/glossary.txt"),
             ws.multi_get(["notes/index.md", "notes/glossary.txt"])),
            (("ls", "notes"), ws.ls("notes")),
            (("collection", "list"), ws.list_collections()),
        ]:
            assert cli_json(*args) == sdk.model_dump(mode="json"), args
        status = cli_json("status")
        assert status == ws.status().model_dump(mode="json")


def test_human_outputs(notes: Path) -> None:
    run_cli("collection", "add", str(notes), "--name", "notes")
    out = run_cli("index").stdout
    assert "6 added" in out
    out = run_cli("update").stdout
    assert "6 unchanged" in out
    out = run_cli("search", "backup schedule").stdout
    assert "cairn://notes/howto/backups.md" in out
    files = run_cli("search", "map", "--files").stdout.split()
    assert len(files) == len(set(files)) and all(f.startswith("cairn://") for f in files)
    md = run_cli("search", "atlas", "--md").stdout
    assert md.startswith("# Search: atlas")
    numbered = run_cli("get", "notes/howto/backups.md", "--from", "9", "--lines", "2", "--line-numbers").stdout
    lines = (notes / "howto/backups.md").read_text().splitlines()
    assert numbered.splitlines() == [f"{9:6d}  {lines[8]}", f"{10:6d}  {lines[9]}"]
    assert run_cli("get", "notes/glossary.txt").stdout.startswith("Glossary\n")
    assert "notes" in run_cli("status").stdout
    assert "ok" in run_cli("doctor").stdout


def test_exit_codes_and_json_errors(notes: Path) -> None:
    # usage errors: exit 1, no traceback
    proc = run_cli("search", check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    proc = run_cli("search", "x", "-n", "notanumber", "--json", check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "usage"
    proc = run_cli("frobnicate", check=False)
    assert proc.returncode == 1
    # missing index: validation-class error, exit 1
    proc = run_cli("search", "anything", "--json", check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == {"error": {"code": "not_found", "message": json.loads(proc.stdout)["error"]["message"]}}
    run_cli("collection", "add", str(notes), "--name", "notes")
    run_cli("index")
    for args, code in [
        (("get", "notes/nope.md"), "not_found"),
        (("get", "notes/index.md", "--from", "0"), "invalid_input"),
        (("search", '"'), "invalid_input"),
        (("search", "x", "--since", "yesterday"), "invalid_input"),
        (("collection", "add", str(notes), "--name", "notes"), "conflict"),
        (("collection", "add", "/definitely/not/here"), "invalid_input"),
        (("--index", "../x", "status"), "invalid_input"),
        (("search", "x", "-n", "0"), "invalid_input"),
    ]:
        proc = run_cli(*args, "--json", check=False)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert json.loads(proc.stdout)["error"]["code"] == code, args
        assert "Traceback" not in proc.stderr
        human = run_cli(*args, check=False)
        assert human.returncode == 1 and human.stderr.startswith(("error:", "Usage:")), human.stderr
    proc = run_cli("multi-get", "notes/index.md", "notes/missing.md", check=False)
    assert proc.returncode == 1 and "==> cairn://notes/index.md <==" in proc.stdout


def test_runtime_error_exit_2(notes: Path, cairn_home: Path) -> None:
    run_cli("collection", "add", str(notes), "--name", "notes")
    index_file = cairn_home / "indexes" / "default.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(str(index_file) + suffix).unlink(missing_ok=True)
    index_file.write_bytes(b"this is not a database" * 100)
    proc = run_cli("status", "--json", check=False)
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "store_error"


def test_index_option_and_version(notes: Path, cairn_home: Path) -> None:
    run_cli("--index", "work", "collection", "add", str(notes), "--name", "notes")
    run_cli("--index", "work", "index")
    assert (cairn_home / "indexes" / "work.sqlite").exists()
    assert not (cairn_home / "indexes" / "default.sqlite").exists()
    assert run_cli("--version").stdout.strip() == f"cairn {cairn.__version__}"
    env = dict(os.environ)
    other = cairn_home / "elsewhere"
    proc = run_cli("--home", str(other), "status", "--json", env=env)
    assert json.loads(proc.stdout)["index_path"].startswith(str(other))


def test_cli_reference_is_generated() -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_cli_docs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_query_text_that_names_a_subcommand_is_a_query(notes: Path) -> None:
    """Issue 13.6: `cairn query "run"` searched nothing (the word picked the subcommand)."""
    run_cli("collection", "add", str(notes), "--name", "notes")
    run_cli("index")
    with cairn.open() as ws:
        for word in ("run", "diagnose"):
            assert cli_json("query", word) == ws.query(word).model_dump(mode="json"), word
            assert cli_json("query", word, "-n", "3") == ws.query(word, limit=3).model_dump(mode="json")
        # the subcommands still work when the line reads as them
        assert cli_json("query", "run", "backups") == ws.query("backups").model_dump(mode="json")
        diagnosed = cli_json("query", "diagnose", "backups", "--target", "notes/howto/backups.md")
        assert diagnosed == ws.query_diagnose("backups", "notes/howto/backups.md").model_dump(mode="json")
    # a line that is neither reports the subcommand's own error
    proc = run_cli("query", "diagnose", "backups", check=False)
    assert proc.returncode == 1 and "--target" in proc.stderr


def test_help_shows_what_the_command_accepts() -> None:
    """Issue 13.6: `query --help` hid -n/--fast/--explain; `update --help` lacked --embed."""
    query_help = run_cli("query", "--help").stdout
    for option in ("-n INTEGER", "--fast", "--thorough", "--explain", "--files", "diagnose"):
        assert option in query_help, option
    assert "--embed" in run_cli("update", "--help").stdout
    assert "--max-nodes" in run_cli("graph", "--help").stdout
    assert "--enable-write" in run_cli("mcp", "--help").stdout


def test_files_prints_up_to_n_documents(notes: Path) -> None:
    """Issue 13.6: `search --files -n 3` printed the documents of the top 3 passages (1 here)."""
    sections = "\n\n".join(f"## Part {i}\n\nQuokka quokka quokka, section {i}.\n\n" + "filler words here. " * 60
                             for i in range(8))
    (notes / "quokkas.md").write_text(f"# Quokkas\n\n{sections}\n")
    (notes / "island.md").write_text("# Island\n\nA quokka lives on the island.\n")
    (notes / "zoo.md").write_text("# Zoo\n\nThe zoo has one quokka.\n")
    run_cli("collection", "add", str(notes), "--name", "notes")
    run_cli("index")
    with cairn.open() as ws:
        passages = ws.search("quokka", limit=3).results
        documents = list(dict.fromkeys(r.uri for r in ws.search("quokka", limit=100).results))
    assert len({r.uri for r in passages}) < 3 <= len(documents)  # the case that went wrong
    assert run_cli("search", "quokka", "--files", "-n", "3").stdout.split() == documents[:3]
    assert run_cli("search", "quokka", "--files", "-n", "2").stdout.split() == documents[:2]
    files = run_cli("query", "quokka", "--files", "-n", "3", "--all-passages").stdout.split()
    assert len(files) == 3 == len(set(files))


def test_capture(notes: Path) -> None:
    run_cli("collection", "add", str(notes), "--name", "notes")
    run_cli("index")
    captured = cli_json("capture", "notes", "Zebra protocol", "--text", "The zebra protocol.", "--path", "inbox/z")
    assert captured["path"] == "inbox/z.md" and captured["docid"]
    assert (notes / "inbox" / "z.md").read_text().endswith("The zebra protocol.\n")
    proc = run_cli("capture", "notes", "From stdin", input="Piped body about quokkas.\n")
    assert proc.stdout.startswith("captured cairn://notes/")
    assert cli_json("search", "quokkas")["results"][0]["title"] == "From stdin"
    proc = run_cli("capture", "notes", "Again", "--text", "x", "--path", "inbox/z.md", "--json", check=False)
    assert proc.returncode == 1 and json.loads(proc.stdout)["error"]["code"] == "conflict"
