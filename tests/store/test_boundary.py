"""The storage boundary: no SQL, no database driver and no backend import outside
``cairn.store``.

Everything outside ``src/cairn/store/`` talks to an index through the protocols of
:mod:`cairn.store.protocol`, so a second backend needs no change anywhere else.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "cairn"
STORE = SRC / "store"

#: Database drivers only a backend may import.
DRIVERS = frozenset({"sqlite3", "apsw", "psycopg", "psycopg2", "asyncpg", "sqlalchemy", "pgvector"})
#: Backend packages: chosen by :func:`cairn.store.open_store`, typed through the protocols.
BACKENDS = ("cairn.store.sqlite", "cairn.store.postgres")

# A statement: a string that starts with an SQL verb, upper case as cairn writes SQL
# ("Update the index" in prose is not SQL).
_STATEMENT = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH|REPLACE|BEGIN|COMMIT|"
    r"ROLLBACK|VACUUM|ATTACH|EXPLAIN|ANALYZE)\s"
)
# A fragment of a statement built by concatenation: " JOIN links l ON ...", " WHERE d.x ...".
_FRAGMENT = re.compile(r"(^|\s)(FROM|JOIN|WHERE|GROUP BY|ORDER BY|VALUES|SET)\s+[a-z_(?]")


def outside_modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if STORE not in p.parents)


def violations(source: str) -> list[str]:
    """What in ``source`` crosses the boundary: driver imports and SQL string literals."""
    found: list[str] = []
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if _forbidden(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and _forbidden(node.module):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            if _STATEMENT.match(text) or _FRAGMENT.search(text):
                found.append(f"line {node.lineno}: SQL {text.strip()[:60]!r}")
    return found


def _forbidden(module: str) -> bool:
    return module.split(".")[0] in DRIVERS or any(
        module == b or module.startswith(b + ".") for b in BACKENDS
    )


@pytest.mark.parametrize("path", outside_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_sql_and_no_driver_outside_the_store(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []


def test_the_scan_sees_every_module() -> None:
    names = {str(p.relative_to(SRC)) for p in outside_modules()}
    assert {"workspace.py", "graph/load.py", "capsule/source.py", "retrieval/bm25.py"} <= names
    assert not any(n.startswith("store/") for n in names)


@pytest.mark.parametrize("source", [
    "import sqlite3",
    "import sqlite3 as db",
    "from sqlite3 import connect",
    "import psycopg.rows",
    "from cairn.store.sqlite import SQLiteStore",
    "from cairn.store.sqlite.fts import compile_query",
    "import cairn.store.sqlite.store",
    "q = 'SELECT id FROM documents'",
    'q = f"SELECT {cols} FROM passages"',
    "q = '  PRAGMA quick_check'",
    "q = 'WITH top AS (SELECT 1) SELECT * FROM top'",
    "q = ('SELECT a' ' JOIN collections c ON c.id = d.collection_id')",
    "q = base + ' WHERE document_id IN (?)'",
    "q = 'x' + ' ORDER BY document_id, seq'",
    "q = 'UPDATE documents SET active = 0'",
])
def test_the_scan_catches(source: str) -> None:
    assert violations(source)


@pytest.mark.parametrize("source", [
    '"""Update the index. SELECT nothing."""',
    "def f():\n    '''SELECT is a word in this docstring.'''",
    "msg = 'Select a collection from the list'",
    "msg = 'update the index with: cairn update'",
    "import sqlite_utils_like_name_but_not_a_driver",
    "from cairn.store.protocol import Store",
    "from cairn.store.records import light_hit",
    "from cairn.store import open_store",
])
def test_the_scan_ignores_prose(source: str) -> None:
    assert violations(source) == []
