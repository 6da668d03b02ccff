"""The Rust provider: the tree-sitter Rust grammar (``tree-sitter-rust``, in the ``code`` extra).

Symbols: functions, structs, enums, unions, traits, type aliases, constants and statics,
inline ``mod`` blocks (kind ``namespace``, their items named ``inner.item``), methods of
``impl`` blocks (named ``Type.method``) and of traits (``Trait.method``), and
``macro_rules!`` macros (``name!``); hashes are over the tokens, so comments and layout do
not count (a trait's or inline module's body hash leaves out its items, which have their
own). Items written inside macro invocations at item level (``cfg_if!``, tokio's
``cfg_rt! { pub mod runtime; }``) are read as items: rustc sees them after expansion.
A module is a file, named by its path.

Resolution, as rustc does within a crate: the crate roots are ``src/lib.rs``,
``src/main.rs``, ``src/bin/*.rs`` (and ``src/bin/*/main.rs``), and the files of ``tests/``,
``examples/`` and ``benches/``; ``mod foo;`` is ``foo.rs`` or ``foo/mod.rs`` beside the
declaring module (``#[path = "..."]`` honoured), so the module tree is followed from each
root. ``use`` paths starting with ``crate::``, ``self::``, ``super::`` or a child module
resolve to the file of the deepest module they name; ``use name::...`` where ``name`` is a
library crate of the project (its ``Cargo.toml`` package name) resolves into that crate.
Anything else — ``std``, ``core``, ``alloc``, crates.io dependencies — stays outside and is
counted as unresolved, never guessed.
"""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from cairn.code.model import FileFacts, ImportFact
from cairn.code.provider import DeclaredProvider, FileEdges, ProjectView, Resolution
from cairn.code.syntax import TreeReader, read_tree
from cairn.code.syntax import node_text as _text

#: ImportFact.level for a ``mod foo;`` declaration (``0`` is a ``use`` path).
MOD_DECLARATION = 1
#: Left out of a trait's or inline module's body hash: its items are symbols of their own.
_MEMBERS = frozenset({"function_item", "function_signature_item", "struct_item", "enum_item", "union_item",
                      "type_item", "trait_item", "impl_item", "const_item", "static_item", "mod_item",
                      "macro_definition"})
_EXTERNAL_ROOTS = frozenset({"std", "core", "alloc", "proc_macro", "test"})


def _first_type_name(node: Any) -> str:
    """The type an ``impl`` is for: its first type identifier (``Vec<T>`` is ``Vec``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            return _text(current)
        stack.extend(reversed(current.named_children))
    return "_"


def _use_paths(node: Any, prefix: str) -> Iterator[str]:
    """The paths a ``use`` tree names, flattened (``a::{b, c::D}`` -> ``a::b``, ``a::c::D``)."""

    def join(tail: str) -> str:
        return f"{prefix}::{tail}" if prefix else tail

    kind = node.type
    if kind in ("identifier", "scoped_identifier", "crate", "self", "super", "metavariable"):
        text = _text(node).replace(" ", "")
        yield prefix if text == "self" and prefix else join(text)
    elif kind == "use_as_clause":
        path = node.child_by_field_name("path")
        if path is not None:
            yield from _use_paths(path, prefix)
    elif kind == "use_wildcard":
        inner = [c for c in node.named_children]
        yield join(_text(inner[0]).replace(" ", "")) if inner else prefix
    elif kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        listed = node.child_by_field_name("list")
        base = join(_text(path).replace(" ", "")) if path is not None else prefix
        if listed is not None:
            for child in listed.named_children:
                yield from _use_paths(child, base)
    elif kind == "use_list":
        for child in node.named_children:
            yield from _use_paths(child, prefix)


class _Reader(TreeReader):
    hashed_apart = _MEMBERS

    def read_file(self, root: Any) -> None:
        self.read(root, "")

    def read(self, block: Any, scope: str, depth: int = 0) -> None:
        """The items of a file or an inline module (``scope``: its dotted name, or ``""``)."""
        prefix = f"{scope}." if scope else ""
        path_attr: str | None = None
        for node in block.named_children:
            kind = node.type
            if kind == "attribute_item":
                path_attr = _path_attribute(node) or path_attr
                continue
            name_node = node.child_by_field_name("name")
            name = _text(name_node)
            body = node.child_by_field_name("body")
            if kind == "function_item":
                self.add(node, prefix + name, "function", body)
            elif kind in ("struct_item", "enum_item", "union_item", "type_item"):
                self.add(node, prefix + name, "type", body or node.child_by_field_name("type"))
            elif kind == "trait_item":
                self.add(node, prefix + name, "type", body)
                self.members(body, prefix + name)
            elif kind in ("const_item", "static_item"):
                self.add(node, prefix + name, "const", node.child_by_field_name("value"))
            elif kind == "macro_definition":
                self.add(node, f"{prefix}{name}!", "function", None)
            elif kind == "impl_item":
                owner = _first_type_name(node.child_by_field_name("type"))
                self.members(body, prefix + owner)
            elif kind == "mod_item":
                if body is None:  # ``mod foo;``: a file of the module tree
                    self.imports.append(ImportFact(name, scope or None, path_attr, MOD_DECLARATION,
                                                   node.start_point[0] + 1))
                else:
                    self.add(node, prefix + name, "namespace", body)
                    self.read(body, prefix + name, depth)
            elif kind == "macro_invocation" and depth < _MACRO_DEPTH:
                self.expand(node, scope, depth + 1)
            elif depth and kind in _MACRO_BLOCKS:  # ``if #[cfg(unix)] { mod unix; } else { ... }``
                self.read(node, scope, depth)
            elif kind == "use_declaration":
                argument = node.child_by_field_name("argument")
                if argument is not None:
                    for used in dict.fromkeys(_use_paths(argument, "")):
                        self.imports.append(ImportFact(used, scope or None, None, 0, node.start_point[0] + 1))
            path_attr = None

    def expand(self, node: Any, scope: str, depth: int) -> None:
        """Read a macro invocation's token tree as items, at their own lines."""
        tree = next((c for c in reversed(node.named_children) if c.type == "token_tree"), None)
        if tree is None:
            return
        inner = tree.text[1:-1]
        if not any(word in inner for word in (b"mod ", b"use ", b"fn ", b"struct ", b"enum ", b"impl", b"trait ")):
            return
        padded = b"\n" * tree.start_point[0] + b" " * (tree.start_point[1] + 1) + inner
        self.read(_parser().parse(padded).root_node, scope, depth)

    def members(self, body: Any, owner: str) -> None:
        if body is None:
            return
        for node in body.named_children:
            if node.type in ("function_item", "function_signature_item"):
                self.add(node, f"{owner}.{_text(node.child_by_field_name('name'))}", "method",
                         node.child_by_field_name("body"))


def _path_attribute(node: Any) -> str | None:
    """The file of ``#[path = "file.rs"]``, if the attribute is one."""
    text = _text(node).replace(" ", "")
    if text.startswith("#[path=") and text.endswith("]"):
        return text[len("#[path="):-1].strip('"')
    return None


#: How deep macro invocations (and the error-recovered blocks inside them) are read.
_MACRO_DEPTH = 4
#: Nodes a macro body's items may sit in once read as Rust (``cfg_if!``'s if/else blocks).
_MACRO_BLOCKS = frozenset({"ERROR", "declaration_list", "expression_statement", "if_expression", "block",
                           "else_clause"})


def _parser() -> Any:
    import tree_sitter_rust
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_rust.language()))


def read_rust(data: bytes) -> FileFacts:
    """The facts of one Rust file's bytes (never raises)."""
    return read_tree(data, _parser, _Reader())


def crate_roots(paths: frozenset[str]) -> list[str]:
    """The crate root files among ``paths``, as cargo finds them by convention."""
    roots = []
    for path in paths:
        parts = path.split("/")
        above = parts[:-1]
        if above[-1:] == ["src"] and parts[-1] in ("lib.rs", "main.rs"):
            roots.append(path)
        elif above[-2:] == ["src", "bin"] or above[-1:] in (["tests"], ["examples"], ["benches"]):
            roots.append(path)  # one crate per file
        elif parts[-1] == "main.rs" and (above[-3:-1] == ["src", "bin"] or above[-2:-1] in (["examples"], ["benches"])):
            roots.append(path)  # one crate per folder
    return sorted(roots)


@dataclass(frozen=True, slots=True)
class _Module:
    file: str
    #: The inline module chain inside ``file`` ("" for the file's own module).
    inline: str
    #: Where ``mod child;`` of this module looks for its file.
    child_dir: str


def _child_dir(path: str, is_root: bool) -> str:
    folder = posixpath.dirname(path)
    name = posixpath.basename(path)
    if is_root or name == "mod.rs":
        return folder
    return posixpath.join(folder, name[:-3])


def _package_name(view: ProjectView, folder: str) -> str | None:
    """The library crate name of the package whose Cargo.toml is in ``folder``."""
    try:
        data = tomllib.loads((view.root / folder / "Cargo.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    lib = data.get("lib")
    package = data.get("package")
    name = lib.get("name") if isinstance(lib, dict) else None
    if not isinstance(name, str) and isinstance(package, dict):
        name = package.get("name")
    return name.replace("-", "_") if isinstance(name, str) else None


class _Tree:
    """The module trees of every crate in the project: module path -> where it lives."""

    def __init__(self, view: ProjectView) -> None:
        self.view = view
        #: (crate root, module path) -> module; file -> (crate root, its module path).
        self.modules: dict[tuple[str, tuple[str, ...]], _Module] = {}
        self.home: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.mod_edges: dict[str, list[tuple[str, int]]] = {}
        self.libraries: dict[str, str] = {}
        rust = frozenset(view.files)
        for root in crate_roots(rust):
            self._grow(root)
            if root.endswith("src/lib.rs"):
                folder = posixpath.dirname(posixpath.dirname(root))
                name = _package_name(view, folder)
                if name is not None:
                    self.libraries.setdefault(name, root)

    def _grow(self, root: str) -> None:
        stack: list[tuple[str, tuple[str, ...]]] = [(root, ())]
        while stack:
            file, path = stack.pop()
            if file in self.home:  # reached from another crate root (or a loop): keep the first
                continue
            self.home[file] = (root, path)
            self.modules[(root, path)] = _Module(file, "", _child_dir(file, file == root))
            facts = self.view.files[file]
            for sym in facts.symbols:
                if sym.kind == "namespace":
                    names = tuple(sym.name.split("."))
                    base = self.modules[(root, path)].child_dir
                    self.modules[(root, path + names)] = _Module(file, sym.name, posixpath.join(base, *names))
            for imp in facts.imports:
                if imp.level != MOD_DECLARATION:
                    continue
                inline = tuple(imp.name.split(".")) if imp.name else ()
                owner = self.modules.get((root, path + inline))
                if owner is None:
                    continue
                if imp.alias:
                    base = posixpath.dirname(file) if not inline else owner.child_dir
                    candidates = [posixpath.normpath(posixpath.join(base, imp.alias))]
                else:
                    candidates = [posixpath.join(owner.child_dir, imp.module + ".rs"),
                                  posixpath.join(owner.child_dir, imp.module, "mod.rs")]
                target = next((c for c in candidates if c in self.view.files), None)
                if target is None:
                    continue
                self.mod_edges.setdefault(file, []).append((target, imp.line))
                stack.append((target, path + inline + (imp.module,)))

    def resolve_use(self, file: str, imp: ImportFact) -> str | None:
        """The file a ``use`` path names; ``None`` outside the project, ``""`` when it is
        in the project's crate but names no module file we know (a local item)."""
        segments = [s for s in imp.module.split("::") if s]
        if not segments:
            return ""
        home = self.home.get(file)
        first = segments[0]
        if home is None:  # a file no module tree reaches: its own crate is unknown
            if first in self.libraries:
                return self._descend(self.libraries[first], (), segments[1:])
            return "" if first in ("crate", "self", "super") or not first[:1].islower() else None
        root, own = home
        current = own + (tuple(imp.name.split(".")) if imp.name else ())
        if first == "crate":
            return self._descend(root, (), segments[1:])
        if first in ("self", "super"):
            while segments and segments[0] in ("self", "super"):
                if segments.pop(0) == "super":
                    if not current:
                        return ""
                    current = current[:-1]
            return self._descend(root, current, segments)
        if (root, (*current, first)) in self.modules:
            return self._descend(root, current, segments)
        if first in self.libraries and self.libraries[first] != root:
            return self._descend(self.libraries[first], (), segments[1:])
        if first in _EXTERNAL_ROOTS or first[:1].islower():
            return None
        return ""  # a local type or enum (``use Kind::*``)

    def _descend(self, root: str, start: tuple[str, ...], segments: list[str]) -> str:
        path = start
        for name in segments:
            if (root, (*path, name)) not in self.modules:
                break
            path = (*path, name)
        return self.modules[(root, path)].file


@dataclass(frozen=True, slots=True)
class RustProvider(DeclaredProvider):
    """Rust files, read with tree-sitter."""

    EXTENSIONS: ClassVar[Mapping[str, str]] = {".rs": "rust"}
    CONFIDENCE: ClassVar[Mapping[str, str]] = {
        "import": "exact for `mod` declarations (foo.rs, foo/mod.rs, #[path]) followed from "
                  "cargo's conventional crate roots, and for `use` paths through crate::, self::, "
                  "super::, child modules and the project's own library crates; std/core/alloc "
                  "and external crates are counted as unresolved; custom [lib]/[[bin]] paths, "
                  "macros and cfg-gated modules are not evaluated; calls are not resolved yet",
    }

    name: str = "rust"
    version: str = "1"

    def parse(self, data: bytes, language: str) -> FileFacts:
        return read_rust(data)

    def resolve(self, view: ProjectView) -> Resolution:
        tree = _Tree(view)
        edges = FileEdges()
        outside = 0
        for path in view.resolving():
            for target, line in tree.mod_edges.get(path, ()):
                edges.add(path, target, line)
            for imp in view.files[path].imports:
                if imp.level == MOD_DECLARATION:
                    continue
                found = tree.resolve_use(path, imp)
                if found is None:
                    outside += 1
                elif found and found != path:
                    edges.add(path, found, imp.line)
        return edges.resolution(view, outside)
