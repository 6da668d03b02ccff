"""The Java provider: the tree-sitter Java grammar (``tree-sitter-java``, in the ``code`` extra).

Symbols: classes, interfaces, enums, records and annotation types (nested ones named
``Outer.Inner``), methods (``Type.method``) and constructors (``Type.<init>``), overloads
numbered (``Type.run#2``); hashes are over the tokens, so comments and layout do not count,
and a type's body hash leaves out its methods and nested types (they have their own).
A module is a file, named by its path.

Resolution, as javac does with a source path: each file's ``package`` declaration places
its top-level types at ``package.Type``, which finds the source roots without guessing them
from folder names. ``import a.b.C;`` (and ``import a.b.C.Inner;``, ``import static
a.b.C.m;``) is an edge to the file declaring ``a.b.C``; ``import a.b.*;`` is an edge to
each file of package ``a.b`` whose type the importing file names. A type of the file's own
package used without an import (javac's implicit import of the package) is an edge too,
written at its first use. Imports of packages
the project does not declare (the JDK, libraries) stay outside, counted as unresolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from cairn.code.model import FileFacts, ImportFact, SymbolKind, UseFact
from cairn.code.provider import DeclaredProvider, FileEdges, ProjectView, Resolution
from cairn.code.syntax import TreeReader, read_tree
from cairn.code.syntax import node_text as _text

_TYPES: dict[str, SymbolKind] = {
    "class_declaration": "class", "enum_declaration": "class", "record_declaration": "class",
    "interface_declaration": "type", "annotation_type_declaration": "type",
}
#: Left out of a type's body hash: its members are symbols hashed on their own.
_MEMBERS = frozenset({*_TYPES, "method_declaration", "constructor_declaration", "compact_constructor_declaration"})
_BODIES = ("class_body", "interface_body", "enum_body", "annotation_type_body", "enum_body_declarations")


class _Reader(TreeReader):
    hashed_apart = _MEMBERS

    def read_file(self, root: Any) -> None:
        for node in root.named_children:
            if node.type == "package_declaration":
                named = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
                self.package = _text(named[0]) if named else ""
            elif node.type == "import_declaration":
                named = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
                if not named:
                    continue
                wildcard = any(c.type == "asterisk" for c in node.named_children)
                static = any(c.type == "static" for c in node.children)
                # name: "*" for on-demand imports; level 1 marks a static import
                self.imports.append(ImportFact(_text(named[0]), "*" if wildcard else None, None,
                                               int(static), node.start_point[0] + 1))
            elif node.type in _TYPES:
                self.type(node, "")
        self.uses = _type_names(root)

    def type(self, node: Any, outer: str) -> None:
        name = f"{outer}{_text(node.child_by_field_name('name'))}"
        body = node.child_by_field_name("body")
        self.add(node, name, _TYPES[node.type], body)
        self.members(body, name)

    def members(self, body: Any, owner: str) -> None:
        if body is None:
            return
        for node in body.named_children:
            if node.type in _TYPES:
                self.type(node, owner + ".")
            elif node.type == "method_declaration":
                self.add(node, f"{owner}.{_text(node.child_by_field_name('name'))}", "method",
                         node.child_by_field_name("body"))
            elif node.type in ("constructor_declaration", "compact_constructor_declaration"):
                self.add(node, f"{owner}.<init>", "method", node.child_by_field_name("body"))
            elif node.type in _BODIES:  # an enum's members after its constants
                self.members(node, owner)


def _type_names(root: Any) -> list[UseFact]:
    """The simple names the file uses as types (or as the target of a static member
    access, ``Util.run()``), each once, at its first line."""
    found: dict[str, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("package_declaration", "import_declaration"):
            continue
        name = None
        if kind == "type_identifier":
            name = _text(node)
        elif kind in ("method_invocation", "field_access"):
            target = node.child_by_field_name("object")
            if target is not None and target.type == "identifier":
                name = _text(target)
        elif kind in ("marker_annotation", "annotation"):
            name = _text(node.child_by_field_name("name"))
        if name and name[:1].isupper():
            found.setdefault(name, node.start_point[0] + 1)
        stack.extend(node.named_children)
    return [UseFact("", name, line, False) for name, line in sorted(found.items(), key=lambda kv: kv[1])]


def _parser() -> Any:
    import tree_sitter_java
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_java.language()))


def read_java(data: bytes) -> FileFacts:
    """The facts of one Java file's bytes (never raises)."""
    return read_tree(data, _parser, _Reader())


@dataclass(frozen=True, slots=True)
class JavaProvider(DeclaredProvider):
    """Java files, read with tree-sitter."""

    EXTENSIONS: ClassVar[Mapping[str, str]] = {".java": "java"}
    CONFIDENCE: ClassVar[Mapping[str, str]] = {
        "import": "exact for single-type, nested-type and static imports of types the project "
                  "declares (placed by their package declarations); on-demand imports (a.b.*) "
                  "give an edge to each file of the package whose type the file names; JDK and "
                  "library imports are counted as unresolved; a type of the file's own package "
                  "named without an import is an edge at its first use (a simple-name match: a "
                  "type parameter or nested type that shadows it gives a false edge); calls are "
                  "not resolved yet",
    }

    name: str = "java"
    version: str = "1"

    def parse(self, data: bytes, language: str) -> FileFacts:
        return read_java(data)

    def resolve(self, view: ProjectView) -> Resolution:
        types: dict[str, str] = {}  # package.Type -> file (first declaration wins)
        by_package: dict[str, dict[str, str]] = {}  # package -> Type -> file
        for path in sorted(view.files):
            facts = view.files[path]
            if facts.status != "parsed":
                continue
            for sym in facts.symbols:
                if "." not in sym.name and "#" not in sym.name:
                    full = f"{facts.package}.{sym.name}" if facts.package else sym.name
                    types.setdefault(full, path)
                    by_package.setdefault(facts.package, {}).setdefault(sym.name, path)
        edges = FileEdges()
        outside = 0
        for path in view.resolving():
            facts = view.files[path]
            used = {u.target: u.line for u in facts.uses}
            for imp in facts.imports:
                if imp.name == "*":
                    members = by_package.get(imp.module)
                    if members is None:  # a static on-demand import names a type
                        target = _declaring(types, imp.module)
                        if target is None:
                            outside += 1
                        elif target != path:
                            edges.add(path, target, imp.line)
                        continue
                    for name, target in sorted(members.items()):
                        if name in used and target != path:
                            edges.add(path, target, imp.line)
                    continue
                found = _declaring(types, imp.module)
                if found is None:
                    outside += 1
                elif found != path:
                    edges.add(path, found, imp.line)
            imported = {imp.module.rsplit(".", 1)[-1] for imp in facts.imports if imp.name != "*"}
            own = by_package.get(facts.package, {})
            for name, line in used.items():
                target = own.get(name)
                if target is not None and target != path and name not in imported:
                    edges.add(path, target, line)
        return edges.resolution(view, outside)


def _declaring(types: dict[str, str], name: str) -> str | None:
    """The file declaring ``name`` or the type it is nested in (``a.b.C.Inner`` -> C's file)."""
    while name:
        if name in types:
            return types[name]
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return None
