"""Jupyter notebooks: Markdown cells as written, code cells and text outputs fenced."""

from __future__ import annotations

import json
from typing import Any

from cairn.errors import IngestError
from cairn.ingest.converters.base import (
    MB,
    Converted,
    ConvertLimits,
    TextBuilder,
    check_deadline,
    clean_text,
)


def _source(value: Any) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value or "")


class NotebookConverter:
    """An ``.ipynb`` file (nbformat 4; 3 read best-effort). Images and widget state are dropped."""

    id = "ipynb"
    version = "1"
    suffixes: tuple[str, ...] = (".ipynb",)
    limits = ConvertLimits(max_bytes=50 * MB, seconds=30.0)

    def convert(self, data: bytes, path: str, limits: ConvertLimits) -> Converted:
        try:
            nb = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise IngestError(f"notebook is not valid JSON: {exc}", code="corrupt") from exc
        if not isinstance(nb, dict):
            raise IngestError("notebook is not a JSON object", code="corrupt")
        cells = nb.get("cells")
        if cells is None and isinstance(nb.get("worksheets"), list):  # nbformat 3
            cells = [c for ws in nb["worksheets"] if isinstance(ws, dict) for c in ws.get("cells", [])]
        if not isinstance(cells, list):
            raise IngestError("notebook has no cells list", code="corrupt")
        meta = nb.get("metadata") if isinstance(nb.get("metadata"), dict) else {}
        assert isinstance(meta, dict)
        language = str((meta.get("kernelspec") or {}).get("language") or (meta.get("language_info") or {}).get("name") or "python")
        title = meta.get("title") if isinstance(meta.get("title"), str) else None
        out = TextBuilder(limits)
        for cell in cells:
            check_deadline()
            if not isinstance(cell, dict):
                continue
            kind = cell.get("cell_type")
            source = clean_text(_source(cell.get("source", cell.get("input", "")))).strip("\n")
            if kind == "markdown" and source:
                out.add(source)
                if title is None:
                    first = next((ln for ln in source.split("\n") if ln.startswith("# ")), None)
                    title = first[2:].strip() if first else None
            elif kind == "code":
                if source:
                    out.add(f"```{language}\n{source}\n```")
                texts = [_output_text(o) for o in cell.get("outputs", []) if isinstance(o, dict)]
                shown = "\n".join(t for t in texts if t).strip("\n")
                if shown:
                    out.add(f"Output:\n\n```text\n{shown}\n```")
            elif kind == "raw" and source:
                out.add(source)
        return out.result(title)


def _output_text(output: dict[str, Any]) -> str:
    if output.get("output_type") == "stream":
        return clean_text(_source(output.get("text")))
    if output.get("output_type") == "error":
        return f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
    data = output.get("data")
    if isinstance(data, dict) and "text/plain" in data:
        return clean_text(_source(data["text/plain"]))
    return ""
