"""The Python provider: symbols, hashes, import resolution, uses, and bad files."""

from __future__ import annotations

import os
from pathlib import Path

from cairn.code.model import MAX_FILE_BYTES, FileFacts
from cairn.code.python import read_python
from cairn.code.scan import ScanResult, scan


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body, encoding="utf-8")


def run(root: Path) -> ScanResult:
    return scan(root, prior={}, load_facts=lambda keys: {})


def imports(result: ScanResult) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in result.edges if e.kind == "import"}


def test_symbols_have_lines_and_name_free_hashes() -> None:
    facts = read_python(b'''import os


@decorate
def top(a, b=1) -> int:
    """Doc."""
    return a + b


class Box(Base):
    size = 3

    def grow(self, n):
        return self.size + n

    async def later(self):
        pass


def renamed(a, b=1) -> int:
    """Doc."""
    return a + b
''')
    assert facts.status == "parsed"
    by_name = {s.name: s for s in facts.symbols}
    assert set(by_name) == {"top", "Box", "Box.grow", "Box.later", "renamed"}
    assert (by_name["top"].start_line, by_name["top"].end_line) == (4, 7)
    assert (by_name["Box"].kind, by_name["Box.grow"].kind) == ("class", "method")
    assert (by_name["Box"].start_line, by_name["Box"].end_line) == (10, 17)
    assert by_name["renamed"].body_hash == by_name["top"].body_hash  # same body, other name
    assert by_name["renamed"].signature_hash != by_name["top"].signature_hash  # the decorator
    assert facts.lines == 22


def test_body_hash_ignores_comments_and_layout_but_not_code() -> None:
    def body(src: str) -> str:
        return read_python(src.encode()).symbols[0].body_hash

    base = body("def f(x):\n    return x + 1\n")
    assert body("def f(x):\n    # why\n    return (x +\n            1)\n") == base
    assert body("def f(x):\n    return x + 2\n") != base
    assert body("def g(x):\n    return x + 1\n") == base  # the name is not the body


def test_a_class_body_hash_leaves_out_its_methods() -> None:
    before = read_python(b"class A:\n    x = 1\n    def m(self):\n        return 1\n").symbols
    after = read_python(b"class A:\n    x = 1\n    def m(self):\n        return 2\n").symbols
    assert before[0].body_hash == after[0].body_hash
    assert before[1].body_hash != after[1].body_hash


def test_redefinitions_get_numbered_names() -> None:
    facts = read_python(b"class A:\n    @property\n    def x(self): ...\n    @x.setter\n    def x(self, v): ...\n")
    assert [s.name for s in facts.symbols] == ["A", "A.x", "A.x#2"]


def test_bad_files_are_recorded_not_raised() -> None:
    assert read_python(b"def broken(:\n").status == "failed"
    assert "syntax error at line 1" in read_python(b"def broken(:\n").reason
    assert read_python(b"\x89PNG\r\n\x1a\n\x00\x00binary").status == "skipped"
    assert read_python(b"x = '\xff\xfe'\n").status == "failed"  # not UTF-8, no coding cookie
    deep = b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n"
    assert read_python(deep).status in ("failed", "parsed")
    roundtrip = read_python(b"import a\ndef f():\n    a.g()\n")
    assert FileFacts.from_json(roundtrip.to_json()) == roundtrip


def test_imports_resolve_like_the_interpreter(tmp_path: Path) -> None:
    write(tmp_path, {
        "src/pkg/__init__.py": "from . import util\nfrom .sub import leaf\n",
        "src/pkg/util.py": "import pkg.sub.leaf\nfrom pkg.sub.leaf import thing\n",
        "src/pkg/sub/__init__.py": "",
        "src/pkg/sub/leaf.py": "from .. import util\nfrom ..util import helper\nfrom . import missing\n"
                               "def thing():\n    pass\n",
        "src/pkg/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import util\n"
                            "def late():\n    import pkg.sub\n",
        "src/ns/plug/mod.py": "import pkg.util\n",  # namespace package (no __init__)
        "tests/test_it.py": "import ns.plug.mod\nfrom pkg import util as u\nimport os\n",
    })
    result = run(tmp_path)
    assert imports(result) == {
        ("pkg", "pkg.util"), ("pkg", "pkg.sub.leaf"),
        ("pkg.util", "pkg.sub.leaf"),
        ("pkg.sub.leaf", "pkg.util"), ("pkg.sub.leaf", "pkg.sub"),
        ("pkg.typed", "pkg.util"), ("pkg.typed", "pkg.sub"),
        ("mod", "pkg.util"),
        ("test_it", "mod"), ("test_it", "pkg.util"),
    }
    refs = {(e.source, e.target) for e in result.edges if e.kind == "reference"}
    assert ("pkg.util", "pkg.sub.leaf.thing") in refs
    modules = {s.path: s.qualname for s in result.symbols if s.kind == "module"}
    assert modules["src/pkg/sub/__init__.py"] == "pkg.sub"


def test_calls_resolve_through_module_level_names(tmp_path: Path) -> None:
    write(tmp_path, {
        "app/__init__.py": "",
        "app/core.py": "class Engine:\n    def start(self):\n        return self.spin()\n"
                       "    def spin(self):\n        return helper()\n\ndef helper():\n    return 1\n",
        "app/cli.py": "from app import core\nfrom app.core import Engine, helper as h\n\n"
                      "class Cmd(Engine):\n    pass\n\n"
                      "def main():\n    core.helper()\n    h()\n    e = Engine()\n    local = 1\n    local.x()\n",
    })
    result = run(tmp_path)
    calls = {(e.source, e.target) for e in result.edges if e.kind == "call"}
    assert calls == {
        ("app.core.Engine.start", "app.core.Engine.spin"),
        ("app.core.Engine.spin", "app.core.helper"),
        ("app.cli.main", "app.core.helper"),
        ("app.cli.main", "app.core.Engine"),
    }
    refs = {(e.source, e.target) for e in result.edges if e.kind == "reference"}
    assert ("app.cli.Cmd", "app.core.Engine") in refs


def test_a_refresh_never_stops_on_bad_files(tmp_path: Path) -> None:
    write(tmp_path, {
        "ok.py": "import broken\n",
        "broken.py": "def (:\n",
        "image.py": b"\x00\x01\x02binary",
        "huge.py": "x = 1\n" * (MAX_FILE_BYTES // 6 + 10),
        "cycle_a.py": "import cycle_b\n",
        "cycle_b.py": "import cycle_a\n",
        "main.kt": "fun main() {}\n",
        "notes.md": "# not code\n",
    })
    (tmp_path / "loop").mkdir()
    os.symlink(tmp_path, tmp_path / "loop" / "back")
    os.symlink(tmp_path / "nowhere.py", tmp_path / "dangling.py")
    result = run(tmp_path)
    status = {f.path: (f.status, f.reason) for f in result.files}
    assert status["ok.py"] == ("parsed", "")
    assert status["broken.py"][0] == "failed"
    assert status["image.py"] == ("skipped", "binary content")
    assert status["huge.py"][0] == "skipped" and "too large" in status["huge.py"][1]
    assert status["main.kt"] == ("skipped", "no provider for kotlin")
    assert status["loop/back"][1].startswith("symlink loop")
    assert status["dangling.py"] == ("skipped", "broken symlink")
    assert "notes.md" not in status
    assert result.complete
    assert {("ok", "broken"), ("cycle_a", "cycle_b"), ("cycle_b", "cycle_a")} <= imports(result)
    python = next(c for c in result.coverage if c.provider == "python")
    assert (python.files_parsed, python.files_failed) == (3, 1)
    assert {p for p, _ in python.files_skipped} == {"image.py", "huge.py"}
    assert python.relation_kinds == ("import", "call", "reference")
    other = next(c for c in result.coverage if c.provider == "none")
    assert {p for p, _ in other.files_skipped} == {"main.kt", "loop/back", "dangling.py"}


def test_files_git_ignores_are_not_walked(tmp_path: Path) -> None:
    import subprocess

    write(tmp_path, {
        ".gitignore": "build/\n*.gen.py\n",
        "app.py": "import lib\n",
        "lib.py": "",
        "build/lib.py": "x = 1\n",
        "table.gen.py": "y = 2\n",
    })
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    result = run(tmp_path)
    assert [f.path for f in result.files] == ["app.py", "lib.py"]
    assert next(c for c in result.coverage if c.provider == "none").confidence["ignored"].startswith("2 ")
