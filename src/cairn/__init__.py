"""cairn: a local-first knowledge engine for people and their AI agents.

The SDK is one call::

    import cairn
    ws = cairn.open()            # or cairn.open(home="/tmp/x", index="work")
    ws.add_collection("~/notes")
    ws.index()
    ws.search("backup strategy").results
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: every cairn import, the hook's fast path too, would pay for typing

__version__ = "0.1.0"

if TYPE_CHECKING:
    from pathlib import Path

    from cairn.workspace import Workspace

__all__ = ["__version__", "open"]


def open(home: str | Path | None = None, index: str = "default") -> Workspace:
    """Open (lazily creating on first write) the index ``index`` under ``home``.

    ``home`` defaults to ``$CAIRN_HOME``, else the platform's user data folder.
    """
    from cairn.workspace import open_workspace

    return open_workspace(home, index)
