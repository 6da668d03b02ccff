"""The MCP face: tools generated from :mod:`cairn.interfaces.operations`, on the official SDK.

``cairn mcp`` serves it over stdio; ``cairn serve`` mounts its streamable-HTTP transport
at ``/mcp``. Read-only tools by default; write tools only with ``enable_write``. A tool
error is a tool result with ``isError`` and the JSON error body ``{"error": {code,
message}}`` (as text and as structured content), so an agent can read and correct it.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from cairn import __version__
from cairn.errors import CairnError
from cairn.interfaces.mcp_handshake import (
    SERVER_DESCRIPTION,
    SERVER_NAME,
    SERVER_TITLE,
    instructions_for,
    ready_line,
)
from cairn.interfaces.operations import Operation, as_cairn_error, available_operations, parse_input

if TYPE_CHECKING:
    from cairn.interfaces.pool import WorkspacePool

log = logging.getLogger("cairn.mcp")



def tool_definition(op: Operation) -> types.Tool:
    """The MCP tool of one operation: typed input, output schema, annotations."""
    return types.Tool(
        name=op.name,
        title=op.title,
        description=op.description,
        input_schema=op.input.model_json_schema(),
        output_schema=op.output_schema(),
        annotations=types.ToolAnnotations(
            title=op.title,
            read_only_hint=op.read_only,
            destructive_hint=op.destructive,
            idempotent_hint=op.idempotent,
            open_world_hint=op.open_world,
        ),
    )


def error_result(error: CairnError) -> types.CallToolResult:
    body = error.to_dict()
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(body, ensure_ascii=False))],
        structured_content=body,
        is_error=True,
    )


def build_server(pool: WorkspacePool, *, enable_write: bool, instructions: str) -> Server[Any]:
    """A low-level MCP server whose tools are the available operations."""
    operations = {op.name: op for op in available_operations(write=enable_write)}
    tools = [tool_definition(op) for op in operations.values()]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        op = operations.get(params.name)
        if op is None:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}")
        try:
            args = parse_input(op, params.arguments)
            result = await pool.run(lambda ws: op.invoke(ws, args), write=op.write)
        except Exception as exc:
            error = as_cairn_error(exc)
            if error.code == "internal":
                log.exception("tool %s failed", op.name)
            return error_result(error)
        data = result.model_dump(mode="json")
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(data, ensure_ascii=False))],
            structured_content=data,
        )

    return Server(
        SERVER_NAME, version=__version__, title=SERVER_TITLE, description=SERVER_DESCRIPTION,
        instructions=instructions, on_list_tools=list_tools, on_call_tool=call_tool,
    )


def server_for(pool: WorkspacePool, *, enable_write: bool) -> Server[Any]:
    """Build the server, with instructions read from the index once at start."""
    return build_server(pool, enable_write=enable_write, instructions=pool_instructions(pool, enable_write))


def pool_instructions(pool: WorkspacePool, enable_write: bool) -> str:
    try:
        status = pool.call(lambda ws: ws.status())
        return instructions_for(status, enable_write=enable_write)
    except CairnError as exc:
        return instructions_for(None, enable_write=enable_write, problem=exc.message)


def run_stdio(pool: WorkspacePool, *, enable_write: bool, instructions: str | None = None,
              first_line: bytes | None = None, early: tuple[Any, bytes] | None = None) -> None:
    """Serve MCP over stdin/stdout until the client closes the stream.

    ``first_line``/``early``: a line already read from stdin and, when it was
    ``initialize``, the reply already sent for it (see ``cairn.interfaces.mcp_handshake``).
    """
    import io
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    from cairn.interfaces.mcp_handshake import PrefixedLines, SkipEarlyReply

    if instructions is None:
        instructions = pool_instructions(pool, enable_write)
    server = build_server(pool, enable_write=enable_write, instructions=instructions)
    count = len(available_operations(write=enable_write))
    mode = "read-write" if enable_write else "read-only"

    def warn(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    async def main() -> None:
        stdin: Any = None
        stdout: Any = None
        if first_line is not None:
            rest = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
            stdin = PrefixedLines(first_line.decode("utf-8", errors="replace"), rest)
            stdout = anyio.wrap_file(io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))
            if early is not None:
                stdout = SkipEarlyReply(stdout, early[0], early[1], warn)
        async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):
            if first_line is None:  # else serve_stdio said it before reading the first line
                print(ready_line(count, mode), file=sys.stderr, flush=True)
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
