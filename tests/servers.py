"""Real servers for the face tests: a fixed index, uvicorn on 127.0.0.1 (port 0) in a
thread, and MCP client sessions (stdio subprocess or streamable HTTP) via the official SDK."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import cairn
from tests.conftest import CAIRN_BIN, EXAMPLES

T = TypeVar("T")


def build_index(root: Path) -> Path:
    """Copy examples/notes under ``root`` and index it through the SDK; returns the home."""
    notes = root / "notes"
    shutil.copytree(EXAMPLES, notes)
    home = root / "home"
    with cairn.open(home) as ws:
        ws.add_collection(notes, name="notes", context="Team notes: how-tos and projects.")
        ws.index()
    return home


@contextmanager
def serve(home: Path, **settings: Any) -> Iterator[str]:
    """``create_app`` served by uvicorn in a thread on a free loopback port; yields the base URL."""
    import uvicorn

    from cairn.interfaces.http import ServeSettings, create_app

    app = create_app(lambda: cairn.open(home), ServeSettings(**settings))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    from cairn.interfaces.http.wire import uvicorn_config

    server = uvicorn.Server(uvicorn_config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def stdio_params(home: Path, *extra: str) -> Any:
    from mcp.client.stdio import StdioServerParameters, get_default_environment

    # The stdio client passes only a safe default environment: keep PYTHONPATH so the
    # server runs the sources under test (a worktree), not whatever the venv installed.
    env = get_default_environment()
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return StdioServerParameters(command=str(CAIRN_BIN), args=["--home", str(home), "mcp", *extra], env=env)


def with_mcp(server: Any, work: Callable[[Any], Awaitable[T]]) -> T:
    """Open an MCP client session (URL: streamable HTTP; params: stdio) and run ``work``."""
    from mcp import Client

    async def main() -> T:
        async with Client(server, read_timeout_seconds=60) as client:
            return await work(client)

    return asyncio.run(main())
