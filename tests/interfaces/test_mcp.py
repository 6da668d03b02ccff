"""The MCP face: tools from the operation table, annotations and schemas, instructions from
the index's state, write gating, the wire-level tools/list snapshot, initialize latency."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from cairn.interfaces.operations import OPERATIONS, available_operations
from cairn.workspace import Workspace
from tests.conftest import CAIRN_BIN
from tests.servers import build_index, serve, stdio_params, with_mcp

SNAPSHOT = Path(__file__).parent.parent / "snapshots" / "mcp_tools_list.json"
READ_TOOLS = {"search", "vsearch", "query", "get", "multi_get", "ls", "status", "links", "backlinks",
              "similar", "graph_neighbors", "graph_path", "tags", "context_build", "context_verify", "ask",
              "check_draft",
              "memory_search", "memory_show", "memory_history", "memory_export",  # agent memory (issue 14)
              "changes", "diff", "impact", "context_list", "context_reverify", "context_receipts"}  # issue 16
WRITE_TOOLS = {"capture", "collection_add", "collection_configure", "index", "embed",
               # agent memory (issue 14)
               "memory_add", "memory_pin", "memory_correct", "memory_resolve", "memory_signal",
               "memory_archive", "memory_restore",
               "context_save"}  # issue 16
READ_TOOLS |= {"runtime_status"}  # the resident runtime (issue 16)
# the code graph (issue 15)
READ_TOOLS |= {"code_symbols", "code_show", "code_diff", "code_impact", "code_snapshots"}
WRITE_TOOLS |= {"code_refresh"}
READ_TOOLS |= {"memory_plan", "memory_resume"}  # memory: the evidence governor (issue 14)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(tmp_path_factory.mktemp("mcp"))


def test_operation_table_matches_the_workspace() -> None:
    """Every entry exists, and each plain entry's inputs are its method's keyword arguments."""
    assert {op.name for op in OPERATIONS} == READ_TOOLS | WRITE_TOOLS
    assert {op.name for op in available_operations(write=False)} == READ_TOOLS
    assert len({op.name for op in OPERATIONS}) == len(OPERATIONS)
    assert len({op.route for op in OPERATIONS}) == len(OPERATIONS)
    for op in OPERATIONS:
        assert callable(getattr(Workspace, op.method, None)), op.name
        assert op.output_model() is not None
        assert op.write == (not op.read_only), op.name
        if op.call is not None:
            continue
        params = inspect.signature(getattr(Workspace, op.method)).parameters
        assert set(op.input.model_fields) <= set(params), op.name


def _wire_session(home: Path, *args: str) -> tuple[list[dict[str, Any]], str]:
    """Raw JSON-RPC over a real `cairn mcp` stdio process: (tools/list result, instructions)."""
    proc = subprocess.Popen([str(CAIRN_BIN), "--home", str(home), "mcp", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        assert "ready" in proc.stderr.readline()

        def rpc(message: dict[str, Any]) -> Any:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline()) if "id" in message else None

        init = rpc({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})
        rpc({"jsonrpc": "2.0", "method": "notifications/initialized"})
        listed = rpc({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        return listed["result"]["tools"], init["result"]["instructions"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def test_tools_list_wire_snapshot(home: Path) -> None:
    """`tools/list` as bytes on the wire; regenerate with CAIRN_UPDATE_SNAPSHOTS=1."""
    tools, _ = _wire_session(home, "--enable-write")
    text = json.dumps(tools, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("CAIRN_UPDATE_SNAPSHOTS") or not SNAPSHOT.exists():
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert text == SNAPSHOT.read_text(encoding="utf-8"), "tools/list changed: rerun with CAIRN_UPDATE_SNAPSHOTS=1"


def test_annotations_schemas_and_read_only_default(home: Path) -> None:
    tools, instructions = _wire_session(home)
    names = {t["name"] for t in tools}
    assert names >= READ_TOOLS and not names & WRITE_TOOLS
    for tool in tools:
        hints = tool["annotations"]
        assert set(hints) >= {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
        assert hints["readOnlyHint"] is True and hints["destructiveHint"] is False
        assert 10 < len(tool["description"]) <= 200
        assert tool["inputSchema"]["type"] == "object" and tool["inputSchema"]["additionalProperties"] is False
        assert tool["outputSchema"]["type"] == "object"
    # instructions are built from the index's state
    assert "notes: 6 documents — Team notes" in instructions
    assert "no vectors yet" in instructions
    assert "read-only" in instructions


def test_write_tools_only_with_enable_write(home: Path, tmp_path: Path) -> None:
    async def read_only(client: Any) -> Any:
        names = {t.name for t in (await client.list_tools()).tools}
        assert not names & WRITE_TOOLS
        from mcp.shared.exceptions import MCPError

        with pytest.raises(MCPError):
            await client.call_tool("capture", {"collection": "notes", "title": "x", "text": "y"})
        # only the literal `true` asks for verification
        bad = await client.call_tool("ask", {"question": "backups?", "verify": "true"})
        return bad

    bad = with_mcp(stdio_params(home), read_only)
    assert bad.is_error and bad.structured_content["error"]["code"] == "invalid_input"

    async def write(client: Any) -> Any:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names >= WRITE_TOOLS
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["capture"].annotations.read_only_hint is False
        assert tools["capture"].annotations.destructive_hint is False
        done = await client.call_tool("capture", {"collection": "notes", "title": "Captured by MCP",
                                                  "text": "The zebra protocol.", "path": "inbox/zebra"})
        again = await client.call_tool("capture", {"collection": "notes", "title": "x", "text": "y",
                                                   "path": "inbox/zebra.md"})
        escape = await client.call_tool("capture", {"collection": "notes", "title": "x", "text": "y",
                                                    "path": "../escape.md"})
        found = await client.call_tool("search", {"query": "zebra"})
        return done, again, escape, found

    writable = build_index(tmp_path)
    done, again, escape, found = with_mcp(stdio_params(writable, "--enable-write"), write)
    assert not done.is_error and done.structured_content["path"] == "inbox/zebra.md"
    assert done.structured_content["docid"]
    assert again.is_error and again.structured_content["error"]["code"] == "conflict"
    assert escape.is_error and escape.structured_content["error"]["code"] == "invalid_input"
    assert not (tmp_path / "escape.md").exists()
    assert found.structured_content["results"][0]["uri"] == "cairn://notes/inbox/zebra.md"


def test_http_initialize_answers(home: Path) -> None:
    with serve(home) as url:
        headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
        httpx.post(f"{url}/health")  # warm the connection path
        response = httpx.post(f"{url}/mcp", json=body, headers=headers, timeout=30)
        assert response.status_code == 200, response.text
        assert response.json()["result"]["serverInfo"]["name"] == "cairn"


def test_initialize_from_launch_equals_the_sdk_reply(home: Path) -> None:
    """`initialize` is answered before the SDK has loaded; the SDK's own reply (dropped)
    must be identical, which serve_stdio reports on stderr when it is not. (How fast:
    bench/mcp_start_bench.py; timings are not asserted in tests.)"""
    proc = subprocess.Popen([str(CAIRN_BIN), "--home", str(home), "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": "init-1", "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}) + "\n")
    proc.stdin.flush()
    init = json.loads(proc.stdout.readline())
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n")
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                 "params": {"name": "status", "arguments": {}}}) + "\n")
    proc.stdin.flush()
    listed = json.loads(proc.stdout.readline())
    called = json.loads(proc.stdout.readline())
    proc.stdin.close()
    proc.wait(timeout=30)
    stderr = proc.stderr.read()
    assert init["id"] == "init-1" and init["result"]["serverInfo"]["name"] == "cairn"
    assert init["result"]["protocolVersion"] == "2025-06-18"
    assert listed["id"] == 2 and listed["result"]["tools"]
    assert called["id"] == 3 and not called["result"].get("isError")
    assert "differs" not in stderr, stderr


def test_handshake_knows_the_sdk_versions_and_leaves_odd_requests_to_it() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS as SDK_VERSIONS

    from cairn.interfaces.mcp_handshake import HANDSHAKE_PROTOCOL_VERSIONS, early_reply

    assert HANDSHAKE_PROTOCOL_VERSIONS == SDK_VERSIONS
    info = {"name": "cairn", "version": "0"}
    good = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    reply = early_reply(json.dumps(good).encode(), server_info=info, instructions="x")
    assert reply is not None and json.loads(reply[1])["result"]["protocolVersion"] == SDK_VERSIONS[-1]
    for bad in (b"not json", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
                json.dumps({**good, "params": {"capabilities": {}}}).encode(),
                json.dumps({**good, "id": True}).encode()):
        assert early_reply(bad, server_info=info, instructions="x") is None
