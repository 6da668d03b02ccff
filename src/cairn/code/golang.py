"""The Go provider: the tree-sitter Go grammar (``tree-sitter-go``, in the ``code`` extra).

Symbols: functions, methods (named ``Receiver.Method``), types and package-level
constants and variables; hashes are over the tokens (comments and layout do not count).
Imports resolve the way the go tool does within one module: an import path under the
module path of the nearest ``go.mod`` names a package folder, and the edge goes to each
of that folder's non-test ``.go`` files (a Go package is its folder; a module here is a
file, named by its path). Standard-library and third-party imports stay outside.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cairn.code.model import FileFacts, ImportFact
from cairn.code.provider import DeclaredProvider, FileEdges, ProjectView, Resolution
from cairn.code.syntax import TreeReader, read_tree
from cairn.code.syntax import node_text as _name


class _Reader(TreeReader):
    def read_file(self, root: Any) -> None:
        for node in root.named_children:
            kind = node.type
            if kind == "function_declaration":
                self.add(node, _name(node.child_by_field_name("name")), "function", node.child_by_field_name("body"))
            elif kind == "method_declaration":
                receiver = node.child_by_field_name("receiver")
                owner = "_"
                if receiver is not None:
                    types = [n for n in _walk(receiver) if n.type == "type_identifier"]
                    owner = _name(types[0]) if types else "_"
                name = f"{owner}.{_name(node.child_by_field_name('name'))}"
                self.add(node, name, "method", node.child_by_field_name("body"))
            elif kind == "type_declaration":
                for spec in node.named_children:
                    if spec.type in ("type_spec", "type_alias"):
                        self.add(spec, _name(spec.child_by_field_name("name")), "type", spec.child_by_field_name("type"))
            elif kind in ("const_declaration", "var_declaration"):
                for spec in node.named_children:
                    if spec.type in ("const_spec", "var_spec"):
                        self.add(spec, _name(spec.child_by_field_name("name")), "const", None)
            elif kind == "import_declaration":
                for spec in _walk(node):
                    if spec.type == "import_spec":
                        path = spec.child_by_field_name("path")
                        if path is not None:
                            self.imports.append(ImportFact(_name(path).strip('"`'), None, None, 0,
                                                           spec.start_point[0] + 1, "module"))


def _walk(node: Any) -> list[Any]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.named_children))
    return out


def _parser() -> Any:
    import tree_sitter_go
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_go.language()))


def read_go(data: bytes) -> FileFacts:
    """The facts of one Go file's bytes (never raises)."""
    return read_tree(data, _parser, _Reader())


def _module_path(root: Path, folder: str) -> tuple[str, str] | None:
    """(folder of the nearest go.mod, its module path) for files in ``folder``."""
    while True:
        gomod = root / folder / "go.mod"
        if gomod.is_file():
            try:
                for line in gomod.read_text(encoding="utf-8").splitlines():
                    if line.startswith("module "):
                        return folder, line.split(None, 1)[1].strip().strip('"')
            except (OSError, UnicodeDecodeError):
                return None
            return None
        if not folder:
            return None
        folder = posixpath.dirname(folder)


@dataclass(frozen=True, slots=True)
class GoProvider(DeclaredProvider):
    """Go files, read with tree-sitter."""

    EXTENSIONS: ClassVar[Mapping[str, str]] = {".go": "go"}
    CONFIDENCE: ClassVar[Mapping[str, str]] = {
        "import": "exact for imports under the module path of the nearest go.mod (an edge to "
                  "each non-test file of the package folder); replace directives, vendoring "
                  "and workspaces are not followed; calls are not resolved yet",
    }

    name: str = "go"
    version: str = "1"

    def parse(self, data: bytes, language: str) -> FileFacts:
        return read_go(data)

    def resolve(self, view: ProjectView) -> Resolution:
        packages: dict[str, list[str]] = {}
        for path in view.files:
            if not path.endswith("_test.go"):
                packages.setdefault(posixpath.dirname(path), []).append(path)
        modules: dict[str, tuple[str, str] | None] = {}
        edges = FileEdges()
        outside = 0
        for path in view.resolving():
            folder = posixpath.dirname(path)
            if folder not in modules:
                modules[folder] = _module_path(view.root, folder)
            found = modules[folder]
            if found is None:
                outside += len(view.files[path].imports)
                continue
            base, module = found
            for imp in view.files[path].imports:
                if imp.module != module and not imp.module.startswith(module + "/"):
                    outside += 1
                    continue
                target_dir = posixpath.normpath(posixpath.join(base, imp.module[len(module):].lstrip("/")))
                target_dir = "" if target_dir == "." else target_dir
                for target in sorted(packages.get(target_dir, ())):
                    if target != path:
                        edges.add(path, target, imp.line)
        return edges.resolution(view, outside)
