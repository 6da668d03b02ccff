"""The Rust provider: symbols, and `mod`/`use` resolved through the crate's module tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.code.test_python import imports, run, write

pytest.importorskip("tree_sitter_rust")

from cairn.code.rust import crate_roots, read_rust


def test_symbols_with_lines_and_token_hashes() -> None:
    facts = read_rust(b"""//! A crate.
mod parser;
pub mod util {
    pub fn clamp(x: i32) -> i32 { x }
}
use crate::parser::{self, Token};

/// A shape.
pub struct Shape { w: u32 }
enum Kind { A, B }
pub trait Area {
    fn area(&self) -> u32;
    fn twice(&self) -> u32 { self.area() * 2 }
}
impl Area for Shape {
    fn area(&self) -> u32 { self.w * self.w }
}
impl Shape {
    pub fn new(w: u32) -> Self {
        Shape { w }
    }
}
pub fn main() {}
const LIMIT: u32 = 3;
macro_rules! square { ($x:expr) => { $x * $x }; }
""")
    assert facts.status == "parsed" and facts.reason == ""
    got = [(s.name, s.kind, s.start_line, s.end_line) for s in facts.symbols]
    assert got == [
        ("util", "namespace", 3, 5), ("util.clamp", "function", 4, 4), ("Shape", "type", 9, 9),
        ("Kind", "type", 10, 10), ("Area", "type", 11, 14), ("Area.area", "method", 12, 12),
        ("Area.twice", "method", 13, 13), ("Shape.area", "method", 16, 16),
        ("Shape.new", "method", 19, 21), ("main", "function", 23, 23), ("LIMIT", "const", 24, 24),
        ("square!", "function", 25, 25)]
    assert [(i.module, i.level) for i in facts.imports] == [
        ("parser", 1), ("crate::parser", 0), ("crate::parser::Token", 0)]
    same = read_rust(b"fn a(x: u32) -> u32 {\n    // why\n    x + 1\n}\n").symbols[0]
    other = read_rust(b"fn a(x: u32) -> u32 { x + 2 }\n").symbols[0]
    assert same.body_hash == read_rust(b"fn a(x: u32) -> u32 { x + 1 }\n").symbols[0].body_hash
    assert same.body_hash != other.body_hash


def test_bad_input_is_recorded() -> None:
    assert read_rust(b"\x00\x01\x02").status == "skipped"
    assert read_rust(b"\xff\xfe fn").reason == "not UTF-8 text"
    broken = read_rust(b"fn ok() {}\nfn broken( {\n")
    assert broken.status == "parsed" and "syntax errors" in broken.reason
    assert [s.name for s in broken.symbols][:1] == ["ok"]


def test_crate_roots_follow_cargo_conventions() -> None:
    paths = frozenset({"src/lib.rs", "src/main.rs", "src/a.rs", "src/bin/tool.rs", "src/bin/big/main.rs",
                       "src/bin/big/part.rs", "tests/it.rs", "tests/common/mod.rs", "examples/demo.rs",
                       "crates/core/src/lib.rs"})
    assert crate_roots(paths) == ["crates/core/src/lib.rs", "examples/demo.rs", "src/bin/big/main.rs",
                                  "src/bin/tool.rs", "src/lib.rs", "src/main.rs", "tests/it.rs"]


def test_module_tree_and_use_paths_resolve_like_rustc(tmp_path: Path) -> None:
    write(tmp_path, {
        "Cargo.toml": '[package]\nname = "geo-kit"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod shapes;\nmod util;\n#[path = \"gen/tables.rs\"]\nmod tables;\n"
                      "use std::fmt;\nuse serde::Serialize;\npub use shapes::circle::Circle;\n"
                      "cfg_net! {\n    pub mod net;\n}\ncfg_if::cfg_if! {\n    if #[cfg(unix)] { mod sys_unix; }\n"
                      "    else { mod sys_other; }\n}\n",
        "src/net.rs": "use super::util;\n",
        "src/sys_unix.rs": "",
        "src/sys_other/mod.rs": "",
        "src/shapes/mod.rs": "pub mod circle;\npub mod square;\nuse super::util::clamp;\n",
        "src/shapes/circle.rs": "use crate::util;\nuse super::square::{self, Square};\n"
                                "pub struct Circle;\n",
        "src/shapes/square.rs": "use crate::tables::TABLE;\nuse self::inner::Deep;\n"
                                "mod inner { pub struct Deep; }\npub struct Square;\n",
        "src/util.rs": "pub fn clamp() {}\nuse Kind::*;\nenum Kind { A }\n",
        "src/gen/tables.rs": "pub const TABLE: [u8; 1] = [0];\n",
        "src/main.rs": "use geo_kit::shapes::Circle;\nfn main() {}\n",
        "src/orphan.rs": "use crate::util;\n",  # not in any module tree
        "src/broken.rs": "fn broken( {\n",
    })
    result = run(tmp_path)
    assert imports(result) == {
        ("src/lib.rs", "src/shapes/mod.rs"), ("src/lib.rs", "src/util.rs"),
        ("src/lib.rs", "src/gen/tables.rs"), ("src/lib.rs", "src/shapes/circle.rs"),
        ("src/shapes/mod.rs", "src/shapes/circle.rs"), ("src/shapes/mod.rs", "src/shapes/square.rs"),
        ("src/shapes/mod.rs", "src/util.rs"),
        ("src/shapes/circle.rs", "src/util.rs"), ("src/shapes/circle.rs", "src/shapes/square.rs"),
        ("src/shapes/square.rs", "src/gen/tables.rs"),
        ("src/main.rs", "src/shapes/mod.rs"),
        # declared inside macro invocations (read as items, as rustc does after expansion)
        ("src/lib.rs", "src/net.rs"), ("src/lib.rs", "src/sys_unix.rs"), ("src/lib.rs", "src/sys_other/mod.rs"),
        ("src/net.rs", "src/util.rs"),
    }
    rust = next(c for c in result.coverage if c.provider == "rust")
    assert rust.files_parsed == 12
    # std::fmt and serde::Serialize (crate::util from the orphan file is unknown, not outside)
    assert rust.confidence["unresolved_imports"].startswith("2 imports")
    broken = next(f for f in result.files if f.path == "src/broken.rs")
    assert broken.status == "parsed" and "syntax errors" in broken.reason


def test_without_the_grammar_files_are_skipped_with_an_install_hint(tmp_path: Path) -> None:
    from cairn.code.python import PythonProvider
    from cairn.code.scan import scan

    write(tmp_path, {"src/lib.rs": "mod a;\n", "Main.java": "class Main {}\n", "x.py": "import os\n"})
    result = scan(tmp_path, prior={}, load_facts=lambda keys: {}, providers=[PythonProvider()])
    status = {f.path: (f.status, f.reason) for f in result.files}
    assert status["src/lib.rs"] == ("skipped", "no provider for rust (install the code extra: pip install 'cairn[code]')")
    assert status["Main.java"][1].endswith("pip install 'cairn[code]')")
