"""What the code providers share in reading one file's bytes into :class:`FileFacts`.

Every provider hashes a symbol's text the same way, counts lines the same way and skips
binary content with the same reason. The tree-sitter providers (TypeScript/JavaScript, Go,
Rust, Java) also share the walk that turns a syntax tree into facts: :class:`TreeReader`
numbers repeated names and hashes a symbol's tokens (comments and layout do not count), and
:func:`read_tree` checks the bytes, parses them and collects what the reader found. What is
left to each language is its grammar and which nodes are symbols, imports and uses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cairn.code.model import FileFacts, ImportFact, SymbolFact, SymbolKind, UseFact

#: Comment node types (``line_comment``/``block_comment`` in the Rust and Java grammars).
COMMENTS = frozenset({"comment", "line_comment", "block_comment"})


def text_hash(text: str) -> str:
    """The hash stored for a symbol's signature or body text."""
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def line_count(data: bytes) -> int:
    """How many lines the file has (a last line without a newline counts)."""
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def binary_content(data: bytes) -> FileFacts | None:
    """``skipped`` facts for binary content (a NUL byte in the first 8 KiB), else ``None``."""
    return FileFacts("skipped", "binary content") if b"\0" in data[:8192] else None


def node_text(node: Any) -> str:
    """A node's source text (``"_"`` for a missing node)."""
    return str(node.text.decode("utf-8", "replace")) if node is not None else "_"


def tokens(node: Any, skip: Any = None, members: frozenset[str] = frozenset()) -> str:
    """The node's leaf tokens without comments (``skip``: a child node left out;
    ``members``: node types left out below ``node``, the members hashed on their own)."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current is skip or current.type in COMMENTS or (current is not node and current.type in members):
            continue
        if current.child_count == 0:
            out.append(current.text.decode("utf-8", "replace"))
        else:
            stack.extend(reversed(current.children))
    return " ".join(out)


@dataclass
class TreeReader:
    """Collects one file's facts while a language's walk visits its syntax tree."""

    symbols: list[SymbolFact] = field(default_factory=list)
    imports: list[ImportFact] = field(default_factory=list)
    uses: list[UseFact] = field(default_factory=list)
    #: The package the file declares (Java), ``""`` when the language has none.
    package: str = ""
    seen: dict[str, int] = field(default_factory=dict)
    #: Node types left out of a symbol's body hash: its members, symbols hashed on their own.
    hashed_apart: ClassVar[frozenset[str]] = frozenset()

    def read_file(self, root: Any) -> None:
        """Visit the tree from its root node, recording what the language declares."""
        raise NotImplementedError

    def record(self, node: Any, name: str, kind: SymbolKind, signature: str, body: str) -> None:
        """A symbol spanning ``node``'s lines, with the hashes of its signature and body
        text; a name seen before in the file is numbered (``run#2``)."""
        self.seen[name] = count = self.seen.get(name, 0) + 1
        if count > 1:
            name = f"{name}#{count}"
        self.symbols.append(SymbolFact(name, kind, node.start_point[0] + 1, node.end_point[0] + 1,
                                       text_hash(signature), text_hash(body)))

    def add(self, node: Any, name: str, kind: SymbolKind, body: Any) -> None:
        """A symbol whose signature is ``node``'s tokens without ``body`` (a child node)."""
        self.record(node, name, kind, tokens(node, skip=body),
                    tokens(body, members=self.hashed_apart) if body else "")


def read_tree(data: bytes, parser: Callable[[], Any], reader: TreeReader) -> FileFacts:
    """The facts of one file's bytes, parsed with ``parser()`` (called only for text, so a
    missing grammar never hides a binary file) and read by ``reader``."""
    skipped = binary_content(data)
    if skipped is not None:
        return skipped
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return FileFacts("skipped", "not UTF-8 text")
    tree = parser().parse(data)
    reader.read_file(tree.root_node)
    reason = "parsed with syntax errors (partial)" if tree.root_node.has_error else ""
    return FileFacts("parsed", reason, tuple(reader.symbols), tuple(reader.imports), tuple(reader.uses),
                     line_count(data), reader.package)
