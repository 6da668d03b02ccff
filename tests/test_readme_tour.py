"""The README's quick tour runs as written after the demo (issue 13, point 1).

A copy of the checkout (``scripts/demo``, ``examples/notes``, ``.venv`` pointing at the
installed cairn) runs the demo without its install step; the demo must end by printing the
tour's first lines, and then every line of the README's tour block runs in bash, in that
folder, with ``HOME`` a temporary folder holding the small ``~/notes``, ``~/src/app`` and
``~/chat-log`` it names. A line that exits non-zero fails the test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.conftest import CAIRN_BIN, EXAMPLES, needs_minilm

REPO = Path(__file__).resolve().parent.parent


def tour_lines() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick tour\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_the_tour_starts_with_what_the_demo_prints() -> None:
    lines = tour_lines()
    assert lines[0] == 'export PATH="$PWD/.venv/bin:$PATH" CAIRN_HOME="$PWD/.cairn-demo"'
    assert lines[1].startswith("cairn search ")
    demo = (REPO / "scripts" / "demo").read_text(encoding="utf-8")
    for line in lines[:2]:
        assert f"echo '  {line}'" in demo, line
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("```sh\nbash scripts/demo ") and "\nbash scripts/test " in readme.split("```", 2)[1]


def _checkout(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    work = tmp_path / "cairn"
    (work / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "demo", work / "scripts" / "demo")
    shutil.copytree(EXAMPLES, work / "examples" / "notes")
    os.symlink(CAIRN_BIN.parent.parent, work / ".venv")
    home = tmp_path / "user"
    (home / "notes").mkdir(parents=True)
    (home / "notes" / "ideas.md").write_text("# Ideas\n\nA tape-free backup idea.\n", encoding="utf-8")
    (home / "src" / "app").mkdir(parents=True)
    (home / "src" / "app" / "main.py").write_text('def backup():\n    """Copy files off-site."""\n', encoding="utf-8")
    (home / "chat-log").mkdir()
    for turn in (1, 2):
        (home / "chat-log" / f"D1-{turn}.md").write_text(f"turn {turn} about offline maps\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CAIRN_HOME"}
    env.update(HOME=str(home), CAIRN_DEMO_SKIP_SETUP="1")
    return work, env


@needs_minilm
def test_the_readme_tour_runs_as_written_after_the_demo(tmp_path: Path) -> None:
    work, env = _checkout(tmp_path)
    demo = subprocess.run(["bash", "scripts/demo"], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    printed = demo.stdout.splitlines()
    lines = tour_lines()
    assert f"  {lines[0]}" in printed and f"  {lines[1]}" in printed, demo.stdout
    script = "set -eo pipefail\ntrap 'echo \"tour line failed: $BASH_COMMAND\" >&2' ERR\n" + "\n".join(lines) + "\n"
    tour = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=1200)
    assert tour.returncode == 0, f"{tour.stderr[-3000:]}\n{tour.stdout[-2000:]}"
    assert "cairn://notes/howto/backups.md" in tour.stdout
    assert (tmp_path / "user" / "notes" / "restore-drill.md").exists() or any(
        (tmp_path / "user" / "notes").glob("*restore*")), list((tmp_path / "user" / "notes").iterdir())
