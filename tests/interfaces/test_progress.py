"""Long work reports progress on stderr (issue 13, point 7): periodic lines when stderr is
not a terminal, nothing with ``--quiet``; ``ask --answer`` says it is generating."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tests.conftest import EXAMPLES, needs_minilm, run_cli


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    notes = tmp_path / "notes"
    shutil.copytree(EXAMPLES, notes)
    run_cli("collection", "add", str(notes), "--name", "notes")
    return notes


def test_index_reports_periodic_lines_when_not_a_terminal(vault: Path) -> None:
    result = run_cli("index")
    lines = result.stderr.splitlines()
    assert lines[0].startswith("cairn: 0/") and lines[0].endswith("files"), result.stderr
    assert lines[-1].endswith("files done"), result.stderr
    (vault / "new.md").write_text("# New\n\nfresh text\n")
    assert run_cli("--quiet", "index").stderr == ""
    assert run_cli("-q", "index", "--json").stderr == ""


@needs_minilm
def test_embed_reports_periodic_lines_and_quiet_silences_them(vault: Path) -> None:
    run_cli("-q", "index")
    result = run_cli("embed", "--json")
    assert "passages done" in result.stderr.splitlines()[-1], result.stderr
    (vault / "new.md").write_text("# New\n\nfresh text about embeddings\n")
    run_cli("-q", "index")
    assert run_cli("--quiet", "embed").stderr == ""


def test_progress_lines_are_periodic() -> None:
    from cairn.interfaces.cli import ProgressLines

    @click.command()
    def work() -> None:
        progress = ProgressLines("items", interval=0.2)
        for done in range(0, 11):
            progress(done, 10)
            time.sleep(0.05)

    lines = CliRunner().invoke(work).output.splitlines()
    assert lines[0] == "cairn: 0/10 items" and lines[-1] == "cairn: 10/10 items done"
    assert 2 <= len(lines) <= 5, lines  # not one line per item


def test_busy_prints_a_line_then_one_per_interval_and_nothing_when_quiet() -> None:
    from cairn.interfaces.cli import State, busy

    @click.command()
    @click.option("--quiet", is_flag=True)
    @click.pass_context
    def slow(ctx: click.Context, quiet: bool) -> None:
        ctx.obj = State(None, "default", quiet)
        with busy("generating the answer", interval=0.1):
            time.sleep(0.45)
        click.echo("answer")

    lines = CliRunner().invoke(slow).output.splitlines()
    assert lines[0] == "cairn: generating the answer..."
    assert len([line for line in lines if line.startswith("cairn: still generating")]) >= 2, lines
    assert lines[-1] == "answer"
    assert CliRunner().invoke(slow, ["--quiet"]).output == "answer\n"


def test_ask_answer_says_it_is_generating(vault: Path) -> None:
    run_cli("-q", "index")
    env = {**os.environ, "CAIRN_PROGRESS_INTERVAL": "0.2"}
    result = run_cli("ask", "--answer", "--timeout", "1", "when do backups run", check=False, env=env)
    assert result.stderr.startswith("cairn: generating the answer..."), result.stderr
    quiet = run_cli("-q", "ask", "--answer", "--timeout", "1", "when do backups run", check=False, env=env)
    assert "generating" not in quiet.stderr
