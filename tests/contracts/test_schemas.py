"""The published JSON Schemas are generated from the contracts and match real outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO, cli_json
from tests.schemas import SCHEMAS, assert_valid


def test_schemas_are_up_to_date() -> None:
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_schemas.py"), "--check"],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    import jsonschema

    names = sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))
    assert names == ["ask", "capsule", "capsule-verify", "changes", "check", "diff", "diff-summary", "impact",
                     "plan", "receipts", "search", "verified-ask"]
    for name in names:
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)


def test_real_cli_outputs_validate(notes: Path, tmp_path: Path) -> None:
    cli_json("collection", "add", str(notes), "--name", "notes")
    cli_json("index")
    for command in ("search", "vsearch", "query"):
        assert_valid("search", cli_json(command, "backup schedule"))
    capsule: Any = cli_json("context", "build", "backup schedule")
    assert_valid("capsule", capsule)
    saved = tmp_path / "capsule.json"
    saved.write_text(json.dumps(capsule), encoding="utf-8")
    assert_valid("capsule-verify", cli_json("context", "verify", str(saved)))
    assert_valid("ask", cli_json("ask", "backup schedule"))


def test_a_wrong_output_fails_validation() -> None:
    import pytest

    with pytest.raises(AssertionError, match="capsule"):
        assert_valid("capsule", {"schema_version": "cairn.capsule/1"})
