"""Generate schemas/*.schema.json from the pydantic contracts (``--check`` fails if stale).

Each schema describes the JSON a face prints (``model_dump(mode="json")``), and the tests
validate real outputs against these files (tests/schemas.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from cairn.contracts import SearchResponse
from cairn.contracts.answer import AskResponse, CheckReport, VerifiedAskResponse
from cairn.contracts.capsule import Capsule, VerifyReceipt
from cairn.contracts.delta import ChangeFeed, DiffSummary, DocumentDiff, Impact, ReceiptList
from cairn.contracts.plan import Plan

TARGET = Path(__file__).resolve().parent.parent / "schemas"

#: Published contracts: file stem -> model.
SCHEMAS: dict[str, type[BaseModel]] = {
    "search": SearchResponse,
    "capsule": Capsule,
    "capsule-verify": VerifyReceipt,
    "ask": AskResponse,
    "verified-ask": VerifiedAskResponse,
    "check": CheckReport,
    # knowledge delta (issue 16)
    "changes": ChangeFeed,
    "diff": DocumentDiff,
    "diff-summary": DiffSummary,
    "impact": Impact,
    "receipts": ReceiptList,
    "plan": Plan,  # memory: the evidence governor (issue 14)
}


def render(name: str, model: type[BaseModel]) -> str:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cairn.invalid/schemas/{name}.schema.json",
        **model.model_json_schema(mode="serialization"),
    }
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    stale = []
    for name, model in SCHEMAS.items():
        path = TARGET / f"{name}.schema.json"
        text = render(name, model)
        if "--check" in sys.argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
            continue
        TARGET.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if stale:
        print(f"stale schemas ({', '.join(stale)}): run .venv/bin/python scripts/gen_schemas.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
