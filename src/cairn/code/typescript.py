"""The TypeScript/JavaScript provider: tree-sitter grammars, imports resolved like the
toolchains (the ``code`` extra: ``tree-sitter``, ``tree-sitter-typescript``,
``tree-sitter-javascript``).

Symbols: functions (declarations and ``const f = () => ...``), classes and their methods,
interfaces, type aliases and enums, exported constants; hashes are over the tokens, so
comments and layout do not count. Imports: ``import ... from``, side-effect ``import '...'``,
``export ... from``, ``import x = require()``, ``require()`` and dynamic ``import()`` with a
literal specifier. ``import type`` counts (scope ``type_checking``), as in madge's default.

Resolution, as ``tsc``/bundlers do: a relative specifier is tried as written, with
``.js``/``.jsx``/``.mjs``/``.cjs`` swapped for their TypeScript twins, with each extension
appended, then as a folder's ``index`` file; a bare specifier goes through the nearest
``tsconfig.json``'s ``paths`` (and ``baseUrl``), following relative ``extends``. Anything
else is a package outside the project (no edge). A module is named by its path.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cairn.code.model import FileFacts, ImportFact, ImportScope
from cairn.code.provider import DeclaredProvider, FileEdges, ProjectView, Resolution
from cairn.code.syntax import TreeReader, read_tree
from cairn.code.syntax import tokens as _tokens

_TS_EXT = (".ts", ".tsx", ".d.ts", ".mts", ".cts")
_JS_EXT = (".js", ".jsx", ".mjs", ".cjs")
#: A JavaScript-style extension in a specifier, and the TypeScript files it may mean.
_TWINS = {".js": (".ts", ".tsx", ".d.ts"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}
_FUNCTION_VALUES = ("arrow_function", "function_expression", "function", "generator_function")


def _string_value(node: Any) -> str | None:
    if node is None or node.type != "string":
        return None
    return str(node.text.decode("utf-8", "replace")[1:-1])


class _Reader(TreeReader):
    def read_file(self, root: Any) -> None:
        self.top(root)
        self.find_imports(root)

    def top(self, node: Any) -> None:
        for child in node.named_children:
            outer, inner, exported = child, child, False
            if child.type == "export_statement":
                exported = True
                inner = child.child_by_field_name("declaration") or child.child_by_field_name("value")
                if inner is None:
                    continue
            self.declaration(outer, inner, exported)

    def declaration(self, outer: Any, node: Any, exported: bool) -> None:
        kind = node.type
        name_node = node.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else "default"
        if kind in ("function_declaration", "generator_function_declaration", "function_signature",
                    "function_expression", "arrow_function"):
            body = node.child_by_field_name("body")
            self.record(outer, name, "function", _tokens(node, skip=body), _tokens(body) if body else "")
        elif kind in ("class_declaration", "abstract_class_declaration", "class"):
            body = node.child_by_field_name("body")
            self.record(outer, name, "class", _tokens(node, skip=body), self._class(name, body))
        elif kind in ("interface_declaration", "type_alias_declaration", "enum_declaration"):
            body = node.child_by_field_name("body") or node.child_by_field_name("value")
            self.record(outer, name, "type", _tokens(node, skip=body), _tokens(body) if body else "")
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type != "variable_declarator":
                    continue
                target = declarator.child_by_field_name("name")
                value = declarator.child_by_field_name("value")
                if target is None or target.type != "identifier":
                    continue
                var = target.text.decode()
                wrapper = outer if len(node.named_children) == 1 else declarator
                if value is not None and value.type in _FUNCTION_VALUES:
                    body = value.child_by_field_name("body")
                    self.record(wrapper, var, "function", _tokens(value, skip=body), _tokens(body) if body else "")
                elif exported:
                    self.record(wrapper, var, "const", "", _tokens(value) if value is not None else "")

    def _class(self, name: str, body: Any) -> str:
        if body is None:
            return ""
        parts = []
        for member in body.named_children:
            if member.type in ("method_definition", "abstract_method_signature", "method_signature"):
                member_name = member.child_by_field_name("name")
                label = member_name.text.decode() if member_name is not None else "?"
                inner = member.child_by_field_name("body")
                self.record(member, f"{name}.{label}", "method", _tokens(member, skip=inner),
                         _tokens(inner) if inner is not None else "")
                parts.append(f"method {label}")
            else:
                parts.append(_tokens(member))
        return "\n".join(parts)

    def find_imports(self, root: Any) -> None:
        """Every import form with a literal specifier, anywhere in the file."""
        stack = [(root, 0)]
        while stack:
            node, depth = stack.pop()
            kind = node.type
            if kind in ("import_statement", "export_statement"):
                source = node.child_by_field_name("source")
                if source is None:  # import x = require('y')
                    for child in node.named_children:
                        if child.type == "import_require_clause":
                            source = child.child_by_field_name("source")
                spec = _string_value(source)
                if spec is not None:
                    typed = any(c.type in ("type", "typeof") for c in node.children[:2])
                    self._import(spec, node, "type_checking" if typed else "module")
            elif kind == "call_expression":
                function = node.child_by_field_name("function")
                arguments = node.child_by_field_name("arguments")
                if function is not None and arguments is not None and (
                    function.type == "import" or (function.type == "identifier" and function.text == b"require")
                ):
                    first = arguments.named_children[0] if arguments.named_children else None
                    spec = _string_value(first)
                    if spec is not None:
                        self._import(spec, node, "local" if depth else "module")
            nested = depth + (kind in ("function_declaration", "method_definition", "arrow_function",
                                       "function_expression", "class_body"))
            stack.extend((child, nested) for child in reversed(node.named_children))

    def _import(self, spec: str, node: Any, scope: ImportScope) -> None:
        self.imports.append(ImportFact(spec, None, None, 0, node.start_point[0] + 1, scope))


def _parser(language: str) -> Any:
    from tree_sitter import Language, Parser

    if language == "javascript":
        import tree_sitter_javascript

        return Parser(Language(tree_sitter_javascript.language()))
    import tree_sitter_typescript

    grammar = tree_sitter_typescript.language_tsx() if language == "tsx" else tree_sitter_typescript.language_typescript()
    return Parser(Language(grammar))


_PARSERS: dict[str, Any] = {}


def _cached_parser(language: str) -> Any:
    parser = _PARSERS.get(language)
    if parser is None:
        parser = _PARSERS[language] = _parser(language)
    return parser


def read_script(data: bytes, language: str) -> FileFacts:
    """The facts of one TypeScript/JavaScript file's bytes (never raises)."""
    try:
        return read_tree(data, lambda: _cached_parser(language), _Reader())
    except RecursionError:  # the walks recurse through nested declarations
        return FileFacts("failed", "too deeply nested to read")


# --- resolution ----------------------------------------------------------------------------


def _json_with_comments(text: str) -> Any:
    """tsconfig.json: JSON with comments and trailing commas."""
    out, i, quote = [], 0, ""
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch == '"':
            quote = ch
            out.append(ch)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
            continue
        else:
            out.append(ch)
        i += 1
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))


@dataclass(frozen=True, slots=True)
class _Paths:
    """The module-resolution part of a tsconfig: ``base`` (a folder relative to the root,
    ``""`` for the root) and its ``paths`` patterns."""

    base: str | None
    patterns: tuple[tuple[str, tuple[str, ...]], ...]


class _Configs:
    """tsconfig.json files, looked up from each folder upwards and read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._by_dir: dict[str, _Paths | None] = {}

    def for_file(self, path: str) -> _Paths | None:
        folder = posixpath.dirname(path)
        chain = []
        while True:
            if folder in self._by_dir:
                found = self._by_dir[folder]
                break
            chain.append(folder)
            if (self.root / folder / "tsconfig.json").is_file():
                found = self._load(posixpath.join(folder, "tsconfig.json"), 0)
                self._by_dir[folder] = found
                chain.pop()
                break
            if not folder:
                found = None
                break
            folder = posixpath.dirname(folder)
        for item in chain:
            self._by_dir[item] = found
        return found

    def _load(self, rel: str, depth: int) -> _Paths | None:
        try:
            data = _json_with_comments((self.root / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        folder = posixpath.dirname(rel)
        parent = None
        extends = data.get("extends") if isinstance(data, dict) else None
        if isinstance(extends, str) and extends.startswith(".") and depth < 5:
            target = _norm(posixpath.join(folder, extends))
            parent = self._load(target if target.endswith(".json") else target + ".json", depth + 1)
        options = data.get("compilerOptions", {}) if isinstance(data, dict) else {}
        base = parent.base if parent else None
        if isinstance(options.get("baseUrl"), str):
            base = _norm(posixpath.join(folder, options["baseUrl"]))
        patterns = parent.patterns if parent else ()
        if isinstance(options.get("paths"), dict):
            anchor = base if base is not None else folder
            patterns = tuple(
                (key, tuple(_norm(posixpath.join(anchor, t)) for t in targets if isinstance(t, str)))
                for key, targets in options["paths"].items() if isinstance(targets, list)
            )
        return _Paths(base, patterns)


def _norm(path: str) -> str:
    """A normalised relative path (``""`` for the root)."""
    path = posixpath.normpath(path)
    return "" if path == "." else path.removeprefix("./")


def _candidates(base: str) -> Iterator[str]:
    """Files a specifier resolved to ``base`` may mean, in the toolchains' order."""
    stem, ext = posixpath.splitext(base)
    if ext in _TWINS:
        for twin in _TWINS[ext]:
            yield stem + twin
        yield base
    elif ext in _TS_EXT:
        yield base
    for suffix in (*_TS_EXT, *_JS_EXT):
        yield base + suffix
    for suffix in (*_TS_EXT, *_JS_EXT):
        yield posixpath.join(base, "index" + suffix) if base else "index" + suffix


@dataclass(frozen=True, slots=True)
class TypeScriptProvider(DeclaredProvider):
    """TypeScript and JavaScript files, read with tree-sitter."""

    EXTENSIONS: ClassVar[Mapping[str, str]] = {
        ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
        ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    }
    CONFIDENCE: ClassVar[Mapping[str, str]] = {
        "import": "exact for literal specifiers resolved through relative paths, .js->.ts twins, "
                  "index files and tsconfig paths/baseUrl; computed specifiers and package "
                  "exports maps are not followed; calls are not resolved yet",
    }

    name: str = "typescript"
    version: str = "1"

    def parse(self, data: bytes, language: str) -> FileFacts:
        return read_script(data, language)

    def resolve(self, view: ProjectView) -> Resolution:
        configs = _Configs(view.root)
        edges = FileEdges()
        for path in view.resolving():
            for imp in view.files[path].imports:
                target = self.resolve_specifier(path, imp.module, view.all_paths, configs)
                if target is not None:
                    edges.add(path, target, imp.line)
        return edges.resolution(view)

    def resolve_specifier(self, path: str, spec: str, paths: frozenset[str], configs: _Configs) -> str | None:
        """The project file ``spec`` (imported from ``path``) means, if any."""
        if spec.startswith("./") or spec.startswith("../") or spec in (".", ".."):
            base = _norm(posixpath.join(posixpath.dirname(path), spec))
            if base.startswith(".."):
                return None
            return next((c for c in _candidates(base) if c in paths), None)
        config = configs.for_file(path)
        if config is None:
            return None
        for pattern, targets in config.patterns:
            prefix, star, suffix = pattern.partition("*")
            if star:
                if not (spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix) + len(suffix)):
                    continue
                middle = spec[len(prefix): len(spec) - len(suffix)]
            elif spec != pattern:
                continue
            else:
                middle = ""
            for target in targets:
                base = _norm(target.replace("*", middle))
                found = next((c for c in _candidates(base) if c in paths), None)
                if found is not None:
                    return found
        if config.base is not None:
            base = _norm(posixpath.join(config.base, spec))
            return next((c for c in _candidates(base) if c in paths), None)
        return None
