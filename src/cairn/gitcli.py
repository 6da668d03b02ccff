"""The one way cairn runs ``git``: a subprocess with a timeout, whose failure (git missing,
not a repository, too slow) is ``None``, never an exception. Project identity reads
``.git/config`` directly (:mod:`cairn.memory.project`); everything that needs git's own
answer (a revision, ignored files, the log) comes through here."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git_output(root: Path, *args: str, timeout: float) -> bytes | None:
    """The stdout of ``git -C root ARGS``, or ``None`` when git is missing, fails or takes
    longer than ``timeout`` seconds."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def git_text(root: Path, *args: str, timeout: float) -> str | None:
    """:func:`git_output` decoded as UTF-8 (undecodable bytes replaced)."""
    out = git_output(root, *args, timeout=timeout)
    return None if out is None else out.decode("utf-8", errors="replace")
