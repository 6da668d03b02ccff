"""Run every ``cairn`` command on a base install (no extras) and fail on internal errors.

    python scripts/check_base_install.py                 # make .venv-base (pip install -e .), check it
    python scripts/check_base_install.py --cairn PATH    # check this cairn executable instead

The commands are enumerated from the click tree (``cairn --help`` recursively), so a new
command is checked without editing this script; each runs with sample arguments derived
from its parameter names on a tiny vault (Markdown, a link, an HTML file). A command
fails the check when its output shows a Python traceback, ``ModuleNotFoundError`` /
``No module named``, or "internal error", or when it exits non-zero without one install
hint (``pip install 'cairn[...]'``). Long-running servers (``serve``) pass when they are
still up after a few seconds or exit with the hint.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BAD = ("Traceback (most recent call last)", "ModuleNotFoundError", "No module named", "internal error")
HINT = "pip install 'cairn["

#: Sample values for positional arguments and required options, by parameter name.
SAMPLES: dict[str, list[str]] = {
    "goal": ["backup schedule"], "query": ["backup schedule"], "question": ["when do backups run?"],
    "ref": ["notes/backups.md"], "a": ["notes/index.md"], "b": ["notes/backups.md"],
    "target": ["notes/backups.md"], "refs": ["notes/index.md", "notes/backups.md"],
    "prefix": ["notes/"], "name": ["notes"], "collection": ["notes"], "title": ["Check note"],
    "draft": ["draft.txt"],  # written beside the vault (the commands run in that folder)
    # agent memory (issue 14)
    "text": ["backup schedule"], "id": ["obs_000000000000"], "keep": ["clm_000000000000"],
    "capsule": ["capsule.json"],  # knowledge delta (issue 16): context save NAME FILE
    # the code graph (issue 15): `code refresh` (in FIRST) snapshots the commands' folder
    "path": ["vault/tool.py"], "symbol": ["tool.backup"],
    "task": ["backup schedule"],  # cairn plan (issue 14)
}
#: More invocations of some commands (flags that load an optional dependency).
VARIANTS: dict[str, list[list[str]]] = {
    "ask": [["--answer"], ["--verify"], ["--answer", "--json"]],
    "mcp install": [["--dry-run"], ["--dry-run", "--json"]],
    "query run": [["--fast"], ["--json"]],
    "similar": [["--json"]],
    "vsearch": [["--json"]],
    "embed": [["--json"]],
    "index": [["--embed"]],
    "check": [["--capsule", "capsule.json"]],
    "code refresh": [["--json"]],  # a second snapshot, for `code diff`
}
#: Options a command needs to do anything at all (beyond its required parameters).
NEEDS = {"collection configure": ["--context", "Check notes"], "context watch": ["--timeout", "1"],
         "diff": ["--from", "2000-01-01"],  # without a ref, diff needs a cursor or date
         "memory add": ["Check note", "A note from the base-install check."]}  # agent memory (issue 14)
#: Commands run first, in this order (they build the state the others read), and last.
FIRST = ["collection add", "index", "context build", "code refresh"]
LAST = ["collection remove"]
#: Commands whose sample arguments name nothing on a fresh install (a memory record id)
#: or that read a payload on stdin (hooks): only their --help runs. Agent memory (issue 14).
HELP_ONLY = {"memory show", "memory pin", "memory correct", "memory resolve", "memory signal",
             "memory history", "memory archive", "memory restore", "hook session-start", "hook prompt",
             "hook post-edit", "hook stop"}
#: Commands that serve until stopped: up after this many seconds is a pass.
SERVERS = {"serve": 6.0, "daemon run": 6.0, "daemon": 6.0}


@dataclass
class Outcome:
    argv: list[str]
    code: int | None
    output: str

    def problem(self) -> str | None:
        for marker in BAD:
            if marker in self.output:
                return f"prints {marker!r}"
        if self.code not in (0, None) and HINT not in self.output:
            return f"exits {self.code} without an install hint"
        return None


def commands(cairn: str) -> list[tuple[str, list[tuple[str, str, list[str]]]]]:
    """Every command path and its required parameters (kind, name, choices), from the
    click tree of the installed ``cairn``."""
    probe = (
        "import json, click\n"
        "from cairn.interfaces.cli import cli\n"
        "def walk(cmd, path):\n"
        "    if isinstance(cmd, click.Group):\n"
        "        if cmd.invoke_without_command: yield path, cmd\n"
        "        for name, sub in cmd.commands.items(): yield from walk(sub, path + [name])\n"
        "    else: yield path, cmd\n"
        "out = []\n"
        "for path, cmd in walk(cli, []):\n"
        "    params = [('argument' if isinstance(p, click.Argument) else 'option', p.name,\n"
        "               list(getattr(p.type, 'choices', []) or []))\n"
        "              for p in cmd.params if p.required]\n"
        "    out.append((' '.join(path), params))\n"
        "print(json.dumps(out))\n"
    )
    python = str(Path(cairn).parent / "python")
    result = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    return [(path, [tuple(p) for p in params]) for path, params in json.loads(result.stdout)]  # type: ignore[misc]


def invocations(path: str, params: list[tuple[str, str, list[str]]], vault: Path,
                capsule: Path) -> Iterator[list[str]]:
    """The argument lists to run ``path`` with: its required parameters filled in."""
    base = path.split()
    if path == "collection add":
        yield [*base, str(vault), "--name", "notes"]
        return
    if path == "context verify":
        yield [*base, str(capsule)]
        return
    if path == "code impact":  # its TARGET is code, not a note
        yield [*base, "vault/tool.py"]
        return
    args: list[str] = []
    for kind, name, choices in params:
        values = choices[:1] if choices else SAMPLES.get(name)
        if values is None:
            raise SystemExit(f"check_base_install: no sample value for {path!r} parameter {name!r}; "
                             "add one to SAMPLES")
        if kind == "option":
            args += [f"--{name.replace('_', '-')}", values[0]]
        else:
            args += values
    if path == "capture":
        yield [*base, *args, "--json"]
        return
    args += NEEDS.get(path, [])
    if path == "serve":
        args += ["--port", "0"]
    yield [*base, *args]
    for extra in VARIANTS.get(path, []):
        yield [*base, *args, *extra]


def make_vault(root: Path) -> Path:
    vault = root / "vault"
    vault.mkdir()
    (vault / "index.md").write_text("# Index\n\nSee [[backups]] for the backup schedule.\n#ops\n")
    (vault / "backups.md").write_text(
        "# Backups\n\nBackups run nightly at 02:00.\nThe off-site copy is weekly.\n\n## Restore\n\n"
        "Restores are tested every month.\n")
    (vault / "page.html").write_text("<html><body><h1>Page</h1><p>backup schedule</p></body></html>")
    (vault / "tool.py").write_text("def backup():\n    return 'nightly'\n")  # for `cairn code ...`
    return vault


def run_all(cairn: str, *, skip: tuple[str, ...] = (), only: tuple[str, ...] = (),
            log: bool = True) -> list[tuple[Outcome, str]]:
    """Run every command (or ``only`` these); the failures and why."""
    failures: list[tuple[Outcome, str]] = []
    with tempfile.TemporaryDirectory(prefix="cairn-base-") as tmp:
        root = Path(tmp)
        vault = make_vault(root)
        (root / "draft.txt").write_text("Backups run every night at 02:00 UTC [E1].\n")
        capsule = root / "capsule.json"
        home = root / "home"
        env = {**os.environ, "CAIRN_HOME": str(home), "HOME": str(root / "user"), "NO_COLOR": "1",
               "CAIRN_ANSWER_TIMEOUT": "60"}
        (root / "user").mkdir()
        listed = commands(cairn)
        def rank(path: str) -> int:
            return FIRST.index(path) if path in FIRST else len(FIRST) + 1 if path in LAST else len(FIRST)

        order = sorted(listed, key=lambda item: rank(item[0]))
        for path, params in order:
            if path in skip or (only and path not in only):
                continue
            help_outcome = _run(cairn, [*path.split(), "--help"], env, root, 30.0)
            if (why := help_outcome.problem()) is not None:
                failures.append((help_outcome, why))
            for argv in ([] if path in HELP_ONLY else invocations(path, params, vault, capsule)):
                outcome = _run(cairn, argv, env, root, SERVERS.get(path, 300.0), server=path in SERVERS)
                if path == "context build" and outcome.code == 0 and "--json" not in argv:
                    capsule.write_text(_capsule(cairn, argv, env, root))
                why = outcome.problem()
                if log:
                    print(f"{'FAIL' if why else 'ok  '} cairn {' '.join(argv)}"
                          f" (exit {outcome.code if outcome.code is not None else 'still running'})", flush=True)
                if why is not None:
                    failures.append((outcome, why))
    return failures


def _capsule(cairn: str, argv: list[str], env: dict[str, str], cwd: Path) -> str:
    result = subprocess.run([cairn, *argv, "--json"], capture_output=True, text=True, env=env, cwd=cwd,
                            stdin=subprocess.DEVNULL, timeout=300)
    return result.stdout


def _run(cairn: str, argv: list[str], env: dict[str, str], cwd: Path, timeout: float,
         server: bool = False) -> Outcome:
    proc = subprocess.Popen([cairn, *argv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=cwd, stdin=subprocess.DEVNULL)
    try:
        output, _ = proc.communicate(timeout=timeout)
        return Outcome(argv, proc.returncode, output)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            output, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            output, _ = proc.communicate()
        if not server:
            return Outcome(argv, -1, output + f"\n[timed out after {timeout:.0f} s] internal error")
        return Outcome(argv, None, output)


def make_base_venv(venv: Path) -> str:
    """``venv`` with ``pip install -e .`` only (made once, reinstalled each run)."""
    if not (venv / "bin" / "python").exists():
        print(f"creating {venv} ...", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    print(f"installing cairn without extras into {venv} ...", file=sys.stderr, flush=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
                    "--progress-bar", "off", "-e", str(ROOT)], check=True)
    extras = subprocess.run([str(venv / "bin" / "python"), "-c",
                             "import importlib.util as u; print([m for m in ('numpy', 'onnxruntime', 'mcp', "
                             "'fastapi', 'xllamacpp', 'bs4', 'pypdf') if u.find_spec(m)])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    if extras != "[]":
        raise SystemExit(f"{venv} is not a base install: it has {extras}; remove it and rerun")
    return str(venv / "bin" / "cairn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cairn", help="Check this cairn executable (default: make and use --venv).")
    parser.add_argument("--venv", default=str(ROOT / ".venv-base"), help="The base virtualenv.")
    parser.add_argument("--skip", action="append", default=[], help="A command path not to run (repeatable).")
    options = parser.parse_args()
    cairn = str(Path(options.cairn).resolve()) if options.cairn else make_base_venv(Path(options.venv).resolve())
    failures = run_all(cairn, skip=tuple(options.skip))
    for outcome, why in failures:
        print(f"\n--- cairn {' '.join(outcome.argv)}: {why}\n{outcome.output.rstrip()}", file=sys.stderr)
    print(f"\n{len(failures)} command(s) failed the base-install check" if failures
          else "\nevery command works or prints its install hint", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
