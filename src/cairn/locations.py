"""Where cairn keeps its index files, with the standard library only: the one rule that
:func:`cairn.config.resolve_paths` applies, and that the hook's fast path
(:mod:`cairn.interfaces.hook`) applies without importing the configuration's dataclasses
or :mod:`pathlib` (each import is start-up time of a hook call)."""

from __future__ import annotations

import os
import re

from cairn.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

INDEX_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: The folder under the data folder that holds one ``<name>.sqlite`` per index.
INDEX_DIR = "indexes"


def chosen_home(home: str | os.PathLike[str] | None, env: Mapping[str, str]) -> str | None:
    """The data folder chosen explicitly: ``home``, else ``$CAIRN_HOME`` (absolute, with
    ``~`` expanded and links resolved); None when neither is set (the platform's user
    data folder applies: :func:`cairn.config.resolve_paths`)."""
    chosen = home if home is not None else env.get("CAIRN_HOME") or None
    if chosen is None:
        return None
    return os.path.realpath(os.path.expanduser(os.fspath(chosen)))


def check_index_name(name: str) -> str:
    """Validate an index name (it becomes a file name)."""
    if not INDEX_NAME.match(name):
        raise ValidationError(
            f"invalid index name {name!r}: use letters, digits, '.', '_' or '-' (max 64)"
        )
    return name


def index_file(data_dir: str | os.PathLike[str], name: str) -> str:
    """The SQLite file of the index called ``name`` under ``data_dir``."""
    return os.path.join(os.fspath(data_dir), INDEX_DIR, f"{check_index_name(name)}.sqlite")
