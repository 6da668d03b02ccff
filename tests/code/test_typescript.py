"""The TypeScript/JavaScript provider: symbols, import forms, resolution like the toolchains."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.code.test_python import imports, run, write

pytest.importorskip("tree_sitter_typescript")
pytest.importorskip("tree_sitter_javascript")

from cairn.code.typescript import _json_with_comments, read_script


def test_symbols_with_lines_and_token_hashes() -> None:
    source = b"""// header
export function top(a: number): number {
  return a + 1;
}

@Component({})
export class Box extends Base implements I {
  size = 3;
  grow(n: number) { return this.size + n; }
}

export const handler = async (x: string) => x.length;
export const LIMIT = 10;
interface Shape { area(): number }
export type Id = string;
function renamed(a: number): number {
  // a comment does not count
  return a   +   1;
}
"""
    facts = read_script(source, "typescript")
    assert facts.status == "parsed" and facts.reason == ""
    by_name = {s.name: s for s in facts.symbols}
    assert set(by_name) == {"top", "Box", "Box.grow", "handler", "LIMIT", "Shape", "Id", "renamed"}
    assert [(by_name["top"].start_line, by_name["top"].end_line)] == [(2, 4)]
    assert (by_name["Box"].start_line, by_name["Box"].end_line) == (6, 10)  # with its decorator
    assert (by_name["Box.grow"].kind, by_name["handler"].kind, by_name["LIMIT"].kind) == ("method", "function", "const")
    assert by_name["Shape"].kind == "type" and by_name["Id"].kind == "type"
    assert by_name["renamed"].body_hash == by_name["top"].body_hash


def test_every_import_form_is_seen() -> None:
    facts = read_script(b"""import a from './a.js';
import type { T } from './types';
import './side-effect';
export * from './reexport';
export { b } from '../b';
import fs = require('./legacy');
const c = require('./c');
async function later() { return import('./lazy'); }
const dynamic = require(name);
""", "typescript")
    found = [(i.module, i.scope) for i in facts.imports]
    assert found == [("./a.js", "module"), ("./types", "type_checking"), ("./side-effect", "module"),
                     ("./reexport", "module"), ("../b", "module"), ("./legacy", "module"),
                     ("./c", "module"), ("./lazy", "local")]


def test_bad_input_is_recorded() -> None:
    assert read_script(b"\x00\x01binary", "javascript").status == "skipped"
    assert read_script(b"\xff\xfe bad", "typescript").status == "skipped"
    broken = read_script(b"export function (( {\nimport x from './x';\n", "typescript")
    assert broken.status == "parsed" and "syntax errors" in broken.reason


def test_tsconfig_is_json_with_comments() -> None:
    assert _json_with_comments('{\n // c\n "a": "x/*", /* b */ "p": ["./*",],\n}') == {"a": "x/*", "p": ["./*"]}


def test_resolution_like_the_toolchains(tmp_path: Path) -> None:
    write(tmp_path, {
        "tsconfig.base.json": '{"compilerOptions": {"baseUrl": "./src", // aliases\n'
                              ' "paths": {"@app/*": ["app/*"], "~lib": ["lib/index.ts"]}}}',
        "tsconfig.json": '{"extends": "./tsconfig.base.json"}',
        "src/main.ts": "import { x } from './util.js';\nimport './widgets';\nimport { y } from '@app/feature';\n"
                       "import { z } from '~lib';\nimport { w } from 'shared/thing';\nimport 'react';\n"
                       "import { v } from './view';\n",
        "src/util.ts": "export const x = 1;\n",
        "src/widgets/index.ts": "export {};\n",
        "src/app/feature.tsx": "export const y = 2;\n",
        "src/lib/index.ts": "export const z = 3;\n",
        "src/shared/thing.ts": "export const w = 4;\n",
        "src/view.js": "const m = require('./model');\nmodule.exports = m;\n",
        "src/model.mjs": "export default 1;\n",
        "src/model.js": "module.exports = 1;\n",
        "app.py": "import os\n",
    })
    result = run(tmp_path)
    assert {(a, b) for a, b in imports(result) if a.startswith("src/")} == {
        ("src/main.ts", "src/util.ts"), ("src/main.ts", "src/widgets/index.ts"),
        ("src/main.ts", "src/app/feature.tsx"), ("src/main.ts", "src/lib/index.ts"),
        ("src/main.ts", "src/shared/thing.ts"), ("src/main.ts", "src/view.js"),
        ("src/view.js", "src/model.js"),
    }
    languages = {f.path: f.language for f in result.files}
    assert languages["src/app/feature.tsx"] == "tsx" and languages["src/view.js"] == "javascript"
    symbols = {s.qualname for s in result.symbols}
    assert "src/util.ts:x" in symbols and "src/util.ts" in symbols
