"""Every MCP tool and REST route is documented in the README."""

from __future__ import annotations

from cairn.interfaces.operations import OPERATIONS
from tests.conftest import REPO


def test_every_tool_and_route_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "## Use with your AI assistant" in readme and "## REST API" in readme
    missing = [op.name for op in OPERATIONS if f"`{op.name}`" not in readme]
    missing += [op.route for op in OPERATIONS if f"`{op.route}`" not in readme]
    missing += [route for route in ("/health", "/openapi.json", "/mcp") if f"`{route}`" not in readme]
    assert not missing, f"not documented in README.md: {missing}"
