"""The Python provider: the standard :mod:`ast`, no imports executed.

Symbols: classes, functions and methods (not functions nested in functions), lines with
decorators, a signature hash (arguments, return annotation, decorators, ``async``; bases
and keywords for a class) and a body hash (the statements' AST, so comments and layout do
not count; a class's body hash leaves out its methods, which are symbols of their own).
Neither hash includes the name, so a rename keeps the body hash.

Modules are named the way the interpreter would from the project root: a file's name walks
up through directories holding an ``__init__.py`` (``src/rich/console.py`` is
``rich.console``; a src-layout needs no configuration). Names relative to every enclosing
directory are kept as aliases, so namespace packages (``src/ns/pkg/mod.py`` imported as
``ns.pkg.mod``) and ``tests.helpers``-style imports resolve too.

Import edges follow :mod:`grimp`'s reading: ``from a import b`` is an import of module
``a.b`` when that module exists, else of ``a``; ``import a.b.c`` is an import of ``a.b.c``
(or of its nearest existing ancestor); imports inside functions and under
``if TYPE_CHECKING:`` count (their scope is kept).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from cairn.code.model import (
    Edge,
    EdgeKind,
    FileFacts,
    ImportFact,
    ImportScope,
    SymbolFact,
    SymbolKind,
    UseFact,
)
from cairn.code.provider import DeclaredProvider, ProjectView, Resolution
from cairn.code.syntax import binary_content, line_count
from cairn.code.syntax import text_hash as _hash

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attribute loads on a name, else ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return _dotted(test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "t.TYPE_CHECKING")


@dataclass
class _Reader:
    """One pass over a module's AST, keeping scope (which symbol a statement belongs to)."""

    symbols: list[SymbolFact] = field(default_factory=list)
    imports: list[ImportFact] = field(default_factory=list)
    uses: dict[tuple[str, str, bool], int] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)

    def block(self, body: Iterable[ast.stmt], *, prefix: str, scope: str, in_class: bool,
              in_def: bool, type_checking: bool) -> None:
        for node in body:
            self.statement(node, prefix=prefix, scope=scope, in_class=in_class, in_def=in_def,
                           type_checking=type_checking)

    def statement(self, node: ast.stmt, *, prefix: str, scope: str, in_class: bool,
                  in_def: bool, type_checking: bool) -> None:
        flags = {"in_def": in_def, "type_checking": type_checking}
        if isinstance(node, _DEFS) and not in_def:
            name = prefix + node.name
            kind: SymbolKind = "method" if in_class else "function"
            self._symbol(node, name, kind, _function_signature(node), _dump_body(node.body, False))
            for part in (*node.decorator_list, node.args, node.returns):
                self.expression(part, name)
            self.block(node.body, prefix=name + ".", scope=name, in_class=False, in_def=True,
                       type_checking=type_checking)
        elif isinstance(node, ast.ClassDef) and not in_def:
            name = prefix + node.name
            signature = "|".join(ast.dump(e) for e in (*node.bases, *node.keywords, *node.decorator_list))
            self._symbol(node, name, "class", _hash(signature), _dump_body(node.body, True))
            for member in (*node.bases, *node.keywords, *node.decorator_list):
                self.expression(member, name)
            self.block(node.body, prefix=name + ".", scope=name, in_class=True, in_def=False,
                       type_checking=type_checking)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            where: ImportScope = "type_checking" if type_checking else (
                "local" if in_def or in_class else "module")
            self._import(node, where)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            self.block(node.body, prefix=prefix, scope=scope, in_class=in_class, in_def=in_def,
                       type_checking=True)
            self.block(node.orelse, prefix=prefix, scope=scope, in_class=in_class, **flags)
        else:
            self._children(node, prefix=prefix, scope=scope, in_class=in_class, **flags)

    def _children(self, node: ast.AST, *, prefix: str, scope: str, in_class: bool,
                  in_def: bool, type_checking: bool) -> None:
        """A compound statement's blocks are statements; everything else is expressions."""
        for _, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, ast.stmt):
                    self.statement(item, prefix=prefix, scope=scope, in_class=in_class,
                                   in_def=in_def, type_checking=type_checking)
                elif isinstance(item, ast.expr):
                    self.expression(item, scope)
                elif isinstance(item, ast.AST):  # handlers, match cases, with items...
                    self._children(item, prefix=prefix, scope=scope, in_class=in_class,
                                   in_def=in_def, type_checking=type_checking)

    def expression(self, node: ast.AST | None, scope: str, called: bool = False) -> None:
        if node is None:
            return
        chain = _dotted(node)
        if chain is not None:
            key = (scope, chain, called)
            if key not in self.uses:
                self.uses[key] = getattr(node, "lineno", 0)
            return
        if isinstance(node, ast.Call):
            self.expression(node.func, scope, called=True)
            for arg in node.args:
                self.expression(arg, scope)
            for keyword in node.keywords:
                self.expression(keyword.value, scope)
            return
        for child in ast.iter_child_nodes(node):
            self.expression(child, scope)

    def _symbol(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, name: str,
                kind: SymbolKind, signature: str, body: str) -> None:
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        # A redefinition (an overload, a property setter) gets a numbered name.
        self.seen[name] = count = self.seen.get(name, 0) + 1
        if count > 1:
            name = f"{name}#{count}"
        self.symbols.append(SymbolFact(name, kind, start, node.end_lineno or node.lineno, signature, body))

    def _import(self, node: ast.Import | ast.ImportFrom, scope: ImportScope) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.imports.append(ImportFact(alias.name, None, alias.asname, 0, node.lineno, scope))
            return
        for alias in node.names:
            self.imports.append(ImportFact(node.module or "", alias.name, alias.asname, node.level,
                                           node.lineno, scope))


def _function_signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    parts = [
        "async" if isinstance(node, ast.AsyncFunctionDef) else "def",
        ast.dump(node.args),
        ast.dump(node.returns) if node.returns else "",
        *(ast.dump(d) for d in node.decorator_list),
        *(ast.dump(t) for t in getattr(node, "type_params", ())),
    ]
    return _hash("|".join(parts))


def _dump_body(body: list[ast.stmt], is_class: bool) -> str:
    parts = []
    for stmt in body:
        if is_class and isinstance(stmt, (*_DEFS, ast.ClassDef)):
            parts.append(f"def {stmt.name}")  # a member is its own symbol
        else:
            parts.append(ast.dump(stmt))
    return _hash("\n".join(parts))


def read_python(data: bytes) -> FileFacts:
    """The facts of one Python file's bytes (never raises)."""
    skipped = binary_content(data)
    if skipped is not None:
        return skipped
    try:
        tree = ast.parse(data)
    except SyntaxError as exc:
        return FileFacts("failed", f"syntax error at line {exc.lineno}: {exc.msg}")
    except (ValueError, UnicodeDecodeError) as exc:
        return FileFacts("skipped", f"not Python source: {exc}")
    except (RecursionError, MemoryError):
        return FileFacts("failed", "too deeply nested to parse")
    reader = _Reader()
    try:
        reader.block(tree.body, prefix="", scope="", in_class=False, in_def=False, type_checking=False)
    except RecursionError:
        return FileFacts("failed", "too deeply nested to read")
    bound = {s.name for s in reader.symbols if "." not in s.name} | {"self", "cls"}
    for imp in reader.imports:
        bound.add(imp.alias or (imp.name if imp.name is not None else imp.module.split(".")[0]))
    uses = tuple(
        UseFact(scope, target, line, called)
        for (scope, target, called), line in reader.uses.items()
        if target.split(".", 1)[0] in bound  # local variables and builtins never resolve
    )
    return FileFacts("parsed", "", tuple(reader.symbols), tuple(reader.imports), uses, line_count(data))


# --- project-wide resolution ---------------------------------------------------------------


class ModuleTable:
    """Dotted module names of a project's Python files: canonical names first, then the
    aliases (names relative to each enclosing directory)."""

    def __init__(self, paths: Iterable[str]) -> None:
        files = sorted(p for p in paths if p.endswith(".py"))
        inits = {p.rpartition("/")[0] for p in files if p.rpartition("/")[2] == "__init__.py"}
        self.name_of: dict[str, str] = {}
        self.path_of: dict[str, str] = {}
        aliases: dict[str, str] = {}
        for path in files:
            parts = path[:-3].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not parts:
                continue
            # Walk up while the directory is a package.
            top = len(parts) - 1
            while top > 0 and "/".join(parts[:top]) in inits:
                top -= 1
            if path.endswith("__init__.py"):
                top = min(top, len(parts) - 1)
            canonical = ".".join(parts[top:])
            if canonical in self.path_of:  # two loose conftest.py: name by the whole path
                canonical = ".".join(parts)
                if canonical in self.path_of:  # a/b.py beside a/b/__init__.py
                    canonical = path
            self.name_of[path] = canonical
            self.path_of[canonical] = path
            for start in range(top - 1, -1, -1):
                aliases.setdefault(".".join(parts[start:]), path)
        for alias, path in aliases.items():
            self.path_of.setdefault(alias, path)

    def module(self, dotted: str) -> str | None:
        """The canonical name of module ``dotted`` (or of its alias), if a project file."""
        path = self.path_of.get(dotted)
        return None if path is None else self.name_of[path]

    def nearest(self, dotted: str) -> str | None:
        """``dotted`` or its nearest ancestor that is a project module."""
        parts = dotted.split(".")
        while parts:
            found = self.module(".".join(parts))
            if found is not None:
                return found
            parts.pop()
        return None


def _relative_base(module: str, is_package: bool, level: int) -> str | None:
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    drop = level - 1
    if drop > len(parts) or not parts:
        return None
    return ".".join(parts[: len(parts) - drop]) if drop else ".".join(parts)


@dataclass(frozen=True, slots=True)
class PythonProvider(DeclaredProvider):
    """Python files, read with :mod:`ast`."""

    EXTENSIONS: ClassVar[Mapping[str, str]] = {".py": "python"}
    RELATION_KINDS: ClassVar[tuple[EdgeKind, ...]] = ("import", "call", "reference")
    CONFIDENCE: ClassVar[Mapping[str, str]] = {
        "import": "exact for absolute and relative imports of project modules, imports in "
                  "functions and under TYPE_CHECKING included; importlib calls are not seen",
        "call": "heuristic: calls through names bound at module level (definitions of the "
                "same module, imported modules and names) and self/cls methods; calls "
                "through variables, instances and re-exports are not resolved",
        "reference": "heuristic, as for calls: base classes, decorators, imported symbols",
    }

    name: str = "python"
    version: str = "1"

    def parse(self, data: bytes, language: str) -> FileFacts:
        return read_python(data)

    def resolve(self, view: ProjectView) -> Resolution:
        table = ModuleTable(view.all_paths)
        members = _Members(table, view.files)
        edges: dict[tuple[EdgeKind, str, str], Edge] = {}
        for path in view.resolving():
            module = table.name_of.get(path)
            if module is None:
                continue
            for edge in _file_edges(path, module, view.files[path], table, members):
                edges.setdefault((edge.kind, edge.source, edge.target), edge)
        return Resolution(dict(table.name_of), ".", list(edges.values()))


class _Members(dict[str, dict[str, SymbolKind]]):
    """module -> the names it defines (and their kinds), read from its facts on first use."""

    def __init__(self, table: ModuleTable, files: Mapping[str, FileFacts]) -> None:
        super().__init__()
        self._table, self._files = table, files

    def __missing__(self, module: str) -> dict[str, SymbolKind]:
        path = self._table.path_of.get(module)
        names: dict[str, SymbolKind] = {}
        if path is not None and path in self._files:
            names = {s.name: s.kind for s in self._files[path].symbols}
        self[module] = names
        return names

    def get(self, module: str, default: object = None) -> dict[str, SymbolKind]:
        return self[module]


def _file_edges(path: str, module: str, facts: FileFacts, table: ModuleTable,
                members: dict[str, dict[str, SymbolKind]]) -> Iterator[Edge]:
    is_package = path.endswith("__init__.py")
    bindings: dict[str, str] = {s.name: f"{module}.{s.name}" for s in facts.symbols if "." not in s.name}
    for imp in facts.imports:
        if imp.level:
            base = _relative_base(module, is_package, imp.level)
            if base is None:
                continue
            full = f"{base}.{imp.module}" if imp.module else base
        else:
            full = imp.module
        if imp.name is None:
            target = table.nearest(full)
            bindings[imp.alias or full.split(".")[0]] = full if imp.alias else full.split(".")[0]
        elif imp.name == "*":
            target = table.nearest(full)
        else:
            bindings[imp.alias or imp.name] = f"{full}.{imp.name}"
            target = table.module(f"{full}.{imp.name}")
            if target is None:
                target = table.nearest(full)
                if target is not None and imp.name in members.get(target, ()):
                    yield Edge("reference", module, f"{target}.{imp.name}", path, imp.line)
        if target is not None:  # a module importing itself (under __main__) counts, as in grimp
            yield Edge("import", module, target, path, imp.line)
    own = members.get(module, {})
    for use in facts.uses:
        found = _resolve_use(use, module, own, bindings, table, members)
        source = f"{module}.{use.scope}" if use.scope else module
        if found is not None and found != source:
            yield Edge("call" if use.called else "reference", source, found, path, use.line)


def _resolve_use(use: UseFact, module: str, own: dict[str, SymbolKind], bindings: dict[str, str],
                 table: ModuleTable, members: dict[str, dict[str, SymbolKind]]) -> str | None:
    parts = use.target.split(".")
    head = parts[0]
    if head in ("self", "cls"):
        if len(parts) < 2 or not use.scope:
            return None
        owner = use.scope if own.get(use.scope) == "class" else use.scope.rpartition(".")[0]
        name = f"{owner}.{parts[1]}" if owner else ""
        return f"{module}.{name}" if name in own else None
    if head not in bindings:
        return None
    expanded = (bindings[head] + use.target[len(head):]).split(".")
    # The longest prefix naming a project module, then the longest symbol inside it.
    for cut in range(len(expanded), 0, -1):
        target_module = table.module(".".join(expanded[:cut]))
        if target_module is None:
            continue
        rest = expanded[cut:]
        names = members.get(target_module, {})
        while rest:
            if ".".join(rest) in names:
                return f"{target_module}.{'.'.join(rest)}"
            rest = rest[:-1]
        return None
    return None
