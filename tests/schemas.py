"""Validate real outputs against the published JSON Schemas in ``schemas/``.

Call :func:`assert_valid` on any JSON output a test produces (a contract model or the
parsed JSON), e.g. ``assert_valid("capsule", capsule)``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def assert_valid(name: str, obj: Any) -> None:
    """Fail the test if ``obj`` (a model, or parsed JSON) does not match schema ``name``."""
    data = obj.model_dump(mode="json") if isinstance(obj, BaseModel) else obj
    errors = sorted(_validator(name).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{name}: " + "; ".join(
        f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors[:5]
    )
