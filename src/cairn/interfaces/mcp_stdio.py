"""``cairn mcp`` over stdio: answer ``initialize`` at once (:mod:`cairn.interfaces.mcp_handshake`)
while the MCP SDK imports on another thread, then hand the session to the SDK server
(:mod:`cairn.interfaces.mcp`)."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from cairn import __version__
from cairn.interfaces.mcp_handshake import (
    SERVER_DESCRIPTION,
    SERVER_NAME,
    SERVER_TITLE,
    early_reply,
    instructions_for,
    ready_line,
)

if TYPE_CHECKING:
    from cairn.interfaces.pool import WorkspacePool


def serve_stdio(pool: WorkspacePool, *, enable_write: bool) -> None:
    """``cairn mcp``: answer ``initialize`` early, then hand the session to the SDK server."""
    from cairn.errors import CairnError

    try:
        instructions = instructions_for(pool.call(lambda ws: ws.status()), enable_write=enable_write)
    except CairnError as exc:
        instructions = instructions_for(None, enable_write=enable_write, problem=exc.message)
    loaded: list[Any] = []
    failed: list[BaseException] = []

    def load_sdk() -> None:
        try:
            from cairn.interfaces import mcp as face

            loaded.append(face)
        except BaseException as exc:  # reported in the main thread
            failed.append(exc)

    loader = threading.Thread(target=load_sdk, name="cairn-mcp-import", daemon=True)
    loader.start()
    from cairn.interfaces.operations import available_operations

    count = len(available_operations(write=enable_write))
    print(ready_line(count, "read-write" if enable_write else "read-only"), file=sys.stderr, flush=True)
    first = sys.stdin.buffer.readline()
    if not first:
        return  # the client closed the stream before saying anything
    info = {"description": SERVER_DESCRIPTION, "name": SERVER_NAME, "title": SERVER_TITLE, "version": __version__}
    early = early_reply(first, server_info=info, instructions=instructions)
    if early is not None:
        sys.stdout.buffer.write(early[1])
        sys.stdout.buffer.flush()
    loader.join()
    if failed:
        raise failed[0]
    loaded[0].run_stdio(pool, enable_write=enable_write, instructions=instructions, first_line=first, early=early)
