"""The only write to a user's folders: a NEW note, created atomically, never overwritten."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from cairn.errors import ValidationError
from cairn.refs import check_ref_path

CAPTURE_SUFFIXES = (".md", ".markdown", ".txt")


def capture_path(path: str) -> str:
    """Validate a relative capture path; add ``.md`` when it has no suffix."""
    path = path.strip()
    check_ref_path(path)
    if "%" in path or any(ord(ch) < 32 for ch in path):
        raise ValidationError(f"path {path!r} must not contain '%' or control characters")
    if any(seg.startswith(".") for seg in path.split("/")):
        raise ValidationError(f"path {path!r}: hidden files and folders are never indexed")
    suffix = Path(path).suffix.lower()
    if not suffix:
        path += ".md"
    elif suffix not in CAPTURE_SUFFIXES:
        raise ValidationError(f"path {path!r}: a captured note must end in {', '.join(CAPTURE_SUFFIXES)}")
    return path


def create_new_file(root: Path, candidates: Sequence[str], data: bytes) -> str | None:
    """Write ``data`` to the first candidate path that does not exist yet; None if all do.

    Folders are created as needed but never followed through a symlink, and the final
    folder must resolve inside ``root``. The bytes go to a temporary file (``O_EXCL``,
    fsynced) that is hard-linked to the target name: ``link`` fails rather than replace."""
    real_root = os.path.realpath(root)
    for rel in candidates:
        *folders, name = rel.split("/")
        parent = real_root
        for folder in folders:
            parent = os.path.join(parent, folder)
            with contextlib.suppress(FileExistsError):
                os.mkdir(parent, 0o755)
            if os.path.islink(parent) or not os.path.isdir(parent):
                raise ValidationError(f"path {rel!r}: {folder!r} is a symlink or not a folder")
        if os.path.commonpath([real_root, os.path.realpath(parent)]) != real_root:
            raise ValidationError(f"path {rel!r} leaves the collection's folder")
        target = os.path.join(parent, name)
        if os.path.lexists(target):
            continue
        tmp = os.path.join(parent, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(tmp, target)
            except FileExistsError:
                continue
        finally:
            os.unlink(tmp)
        dir_fd = os.open(parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return rel
    return None
