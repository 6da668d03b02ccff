"""The Go provider: symbols, and imports resolved within the module of the nearest go.mod."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.code.test_python import imports, run, write

pytest.importorskip("tree_sitter_go")

from cairn.code.golang import read_go


def test_symbols_and_imports() -> None:
    facts = read_go(b'package box\n\nimport (\n\t"fmt"\n\tu "example.com/m/util"\n)\n\n'
                    b'// Box holds things.\ntype Box struct{ n int }\n\n'
                    b'func (b *Box) Grow(k int) int {\n\treturn b.n + k\n}\n\n'
                    b'func New() *Box { fmt.Println(u.X); return &Box{} }\n\nconst Limit = 3\n')
    assert [(s.name, s.kind, s.start_line, s.end_line) for s in facts.symbols] == [
        ("Box", "type", 9, 9), ("Box.Grow", "method", 11, 13), ("New", "function", 15, 15),
        ("Limit", "const", 17, 17)]
    assert [i.module for i in facts.imports] == ["fmt", "example.com/m/util"]
    assert read_go(b"\x00\x01").status == "skipped"


def test_imports_resolve_to_the_package_files(tmp_path: Path) -> None:
    write(tmp_path, {
        "go.mod": "module example.com/m\n\ngo 1.22\n",
        "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"example.com/m/util"\n)\n\nfunc main() { fmt.Println(util.X) }\n',
        "util/a.go": "package util\n\nconst X = 1\n",
        "util/b.go": 'package util\n\nimport "example.com/m/util/inner"\n\nvar Y = inner.Z\n',
        "util/a_test.go": 'package util\n\nimport "testing"\n',
        "util/inner/z.go": "package inner\n\nconst Z = 2\n",
    })
    assert imports(run(tmp_path)) == {("main.go", "util/a.go"), ("main.go", "util/b.go"),
                                      ("util/b.go", "util/inner/z.go")}


def test_imports_outside_the_module_are_counted(tmp_path: Path) -> None:
    write(tmp_path, {
        "go.mod": "module example.com/m\n",
        "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"golang.org/x/text"\n\t"example.com/m/util"\n)\n',
        "util/a.go": "package util\n",
    })
    go = next(c for c in run(tmp_path).coverage if c.provider == "go")
    assert go.confidence["unresolved_imports"].startswith("2 imports")
