"""``GET /docs``: an offline page listing the REST routes, built from the OpenAPI
document (no scripts, no CDN: it works on a machine without network)."""

from __future__ import annotations

from html import escape
from typing import Any


def docs_page(openapi: dict[str, Any]) -> str:
    """One HTML page: each route's method, path, summary and body fields."""
    schemas = openapi.get("components", {}).get("schemas", {})
    rows = []
    for path, methods in sorted(openapi.get("paths", {}).items()):
        for method, spec in methods.items():
            fields = ""
            ref = (spec.get("requestBody", {}).get("content", {}).get("application/json", {})
                   .get("schema", {}))
            ref = next((s for s in ref.get("anyOf", [ref]) if "$ref" in s), ref)
            if "$ref" in ref:
                schema = schemas.get(ref["$ref"].rsplit("/", 1)[-1], {})
                required = set(schema.get("required", []))
                fields = "".join(
                    f"<li><code>{escape(name)}</code>{' (required)' if name in required else ''}"
                    f"{': ' + escape(str(prop.get('description', ''))) if prop.get('description') else ''}</li>"
                    for name, prop in schema.get("properties", {}).items()
                )
                fields = f"<ul>{fields}</ul>" if fields else ""
            rows.append(f"<h2><code>{escape(method.upper())} {escape(path)}</code></h2>"
                        f"<p>{escape(str(spec.get('summary', '')))}</p>{fields}")
    info = openapi.get("info", {})
    title = escape(f"{info.get('title', 'cairn')} {info.get('version', '')}")
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title} API</title>"
        "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto;padding:0 1em}"
        "h2{font-size:1em;margin-top:1.5em}</style></head><body>"
        f"<h1>{title} REST API</h1><p>{escape(str(info.get('description', '')))}</p>"
        "<p>Every route takes and returns JSON; errors are <code>{\"error\": {\"code\", \"message\"}}</code>. "
        "The machine-readable description: <a href='/openapi.json'>/openapi.json</a>.</p>"
        + "".join(rows) + "</body></html>"
    )
