"""Project identity: which project a memory record belongs to and a caller works in.

The identity is the normalised URL of the git remote ``origin`` (``github.com/owner/repo``
for ``git@github.com:owner/repo.git`` and ``https://github.com/owner/repo``), so every
clone and worktree of a repository shares its memory; without a remote it is the resolved
path of the repository's top folder, else of the folder itself. ``.git/config`` is read
directly (no ``git`` subprocess).
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ProjectInfo:
    """A project's identity and the folder its relative file paths start from (None: a
    project named by identity only, whose files cannot be checked here)."""

    identity: str
    root: Path | None


def normalise_remote(url: str) -> str:
    """``host/path`` of a git remote URL: no scheme, user, port, ``.git`` or trailing slash;
    the host lower-cased."""
    url = url.strip()
    scp = re.match(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$", url)
    if scp and "://" not in url:
        host, path = scp.group(1), scp.group(2)
    else:
        rest = url.split("://", 1)[-1]
        rest = rest.rsplit("@", 1)[-1] if "@" in rest.split("/", 1)[0] else rest
        host, _, path = rest.partition("/")
        host = host.split(":", 1)[0]
    path = path.strip("/")
    path = path[:-4] if path.endswith(".git") else path
    return f"{host.lower()}/{path}" if path else host.lower()


def _git_dir(top: Path) -> Path | None:
    dot = top / ".git"
    if dot.is_dir():
        return dot
    if dot.is_file():  # a worktree or submodule: "gitdir: PATH"
        text = dot.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            git_dir = (top / text.split(":", 1)[1].strip()).resolve()
            common = git_dir / "commondir"
            if common.is_file():
                return (git_dir / common.read_text(encoding="utf-8").strip()).resolve()
            return git_dir
    return None


def _origin(git_dir: Path) -> str | None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        parser.read(git_dir / "config", encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return None
    for section in ('remote "origin"',):
        if parser.has_option(section, "url"):
            return parser.get(section, "url")
    return None


def project_of(folder: str | Path) -> ProjectInfo:
    """The project ``folder`` belongs to (see the module docstring)."""
    start = Path(folder).expanduser().resolve()
    for top in (start, *start.parents):
        git_dir = _git_dir(top)
        if git_dir is not None:
            remote = _origin(git_dir)
            return ProjectInfo(normalise_remote(remote) if remote else str(top), top)
    return ProjectInfo(str(start), start)
