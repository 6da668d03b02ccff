"""Evidence refs as users write them, checked against the index before a record is
written, and the lookups freshness needs.

Syntax of one ref: ``[RELATION@]KIND:TARGET[:START-END]``, where KIND is ``passage``
(TARGET a docid; the default when KIND is left out), ``file`` (a path relative to the
project root) or ``commit``, and RELATION ``supports`` (default), ``contradicts`` or
``verifies``: ``passage:7f3a9c:10-14``, ``7f3a9c:3``, ``file:src/app.py``,
``verifies@commit:4e1d2b7``. A passage ref gets the hash of its line span and a file ref
the hash of its bytes at writing time; a docid not in the index, a span outside the
document or a file that does not exist is ``invalid_input``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any, Protocol, cast, runtime_checkable

from cairn.errors import ValidationError
from cairn.memory.freshness import file_hash, span_hash
from cairn.memory.records import EvidenceKind, EvidenceRef, EvidenceRelation
from cairn.store.protocol import DocumentStore

_REF = re.compile(r"^(?:(supports|contradicts|verifies)@)?(?:(passage|file|commit):)?(.+?)(?::(\d+)(?:-(\d+))?)?$")
MAX_REFS = 50
#: Characters of document text kept as lines by :func:`documents_lines` (by text hash).
MAX_CACHED_CHARS = 8_000_000


@runtime_checkable
class TextHashIndex(Protocol):
    """A backend that reads active documents' texts by docid in batches (the SQLite store
    does)."""

    def document_text_hashes(self, docids: Sequence[str]) -> dict[str, str]:
        """The text hash of each active document with a text among ``docids`` (others
        left out)."""
        ...

    def docid_texts(self, docids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """(text hash, text) of each active document with a text among ``docids`` (others
        left out)."""
        ...


def parse_ref(spec: str | EvidenceRef | dict[str, Any]) -> EvidenceRef:
    """One ref from its text form (see the module docstring), a mapping or a ref."""
    if isinstance(spec, EvidenceRef):
        return spec
    if isinstance(spec, dict):
        try:
            return EvidenceRef(**spec)
        except TypeError as exc:
            raise ValidationError(f"evidence ref {spec!r}: {exc}") from None
    match = _REF.match(spec.strip())
    if not match or not match.group(3):
        raise ValidationError(f"evidence ref {spec!r}: expected [relation@]kind:target[:start-end]")
    relation, kind, target, start, end = match.groups()
    kind = kind or "passage"
    if kind != "passage" and start is not None:  # a path or sha with a colon: keep it whole
        target, start, end = f"{target}:{start}" + (f"-{end}" if end else ""), None, None
    return EvidenceRef(
        kind=cast(EvidenceKind, kind), target=target,
        start=int(start) if start else None,
        end=int(end) if end else (int(start) if start else None),
        relation=cast(EvidenceRelation, relation or "supports"),
    )


def document_lines(store: DocumentStore, docid: str) -> list[str] | None:
    """The current lines of an active document (``get``'s numbering), None if gone."""
    found = store.find_document(docid=docid)
    if found is None or found[1] is None or not found[0].active:
        return None
    return found[1].splitlines()


class _Lines:
    """Documents' lines by the sha256 of their text (``text_hash``), kept across calls up to
    :data:`MAX_CACHED_CHARS` characters: a text with a given hash splits into the same lines."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_hash: dict[str, list[str]] = {}
        self._chars = 0

    def get(self, text_hash: str) -> list[str] | None:
        return self._by_hash.get(text_hash)

    def put(self, text_hash: str, text: str, lines: list[str]) -> None:
        with self._lock:
            if self._chars + len(text) > MAX_CACHED_CHARS:
                self._by_hash, self._chars = {}, 0
            if len(text) <= MAX_CACHED_CHARS and text_hash not in self._by_hash:
                self._by_hash[text_hash] = lines
                self._chars += len(text)


_LINES = _Lines()


def documents_lines(store: DocumentStore, docids: Collection[str]) -> dict[str, Sequence[str] | None]:
    """:func:`document_lines` of each docid (the same answers). With a backend that reads
    in batches: one query for the text hashes, and one for the texts whose hash was not
    seen before (texts already split are kept by hash, up to :data:`MAX_CACHED_CHARS`)."""
    if not isinstance(store, TextHashIndex):
        return {docid: document_lines(store, docid) for docid in docids}
    hashes = store.document_text_hashes(sorted(docids))
    out: dict[str, Sequence[str] | None] = {docid: None for docid in docids}
    unseen = []
    for docid, text_hash in hashes.items():
        lines = _LINES.get(text_hash)
        if lines is None:
            unseen.append(docid)
        out[docid] = lines
    for docid, (text_hash, text) in store.docid_texts(unseen).items() if unseen else ():
        out[docid] = lines = text.splitlines()
        _LINES.put(text_hash, text, lines)
    return out


def bind_refs(store: DocumentStore | None, specs: Sequence[str | EvidenceRef | dict[str, Any]],
              root: Path | None) -> tuple[EvidenceRef, ...]:
    """Parse, check and hash refs; ``invalid_input`` for a ref that points nowhere."""
    if len(specs) > MAX_REFS:
        raise ValidationError(f"at most {MAX_REFS} evidence refs per record")
    refs: list[EvidenceRef] = []
    for spec in specs:
        ref = parse_ref(spec)
        if ref.kind == "passage":
            lines = document_lines(store, ref.target) if store is not None else None
            if lines is None:
                raise ValidationError(f"evidence ref {ref.target!r}: no such document in the index")
            start, end = ref.start or 1, ref.end or max(len(lines), 1)
            if start < 1 or end < start or end > max(len(lines), 1):
                raise ValidationError(
                    f"evidence ref {ref.target}:{start}-{end}: outside the document's {len(lines)} lines")
            ref = EvidenceRef("passage", ref.target, span_hash(lines, start, end), start, end, ref.relation)
        elif ref.kind == "file":
            path = check_relative(ref.target)
            current = file_hash(root / path) if root is not None else None
            if current is None:
                raise ValidationError(f"evidence ref file:{ref.target}: no such file in the project"
                                      + ("" if root is None else f" ({root})"))
            ref = EvidenceRef("file", path, current, None, None, ref.relation)
        elif ref.kind == "symbol":
            raise ValidationError(f"evidence ref symbol:{ref.target}: bind a symbol with symbols "
                                  "(--symbol); its body hash is read from the code snapshot")
        elif ref.kind != "commit" or not re.fullmatch(r"[0-9a-fA-F]{4,64}", ref.target):
            raise ValidationError(f"evidence ref commit:{ref.target}: not a commit id")
        refs.append(ref)
    return tuple(dict.fromkeys(refs))


def check_relative(path: str) -> str:
    """A POSIX path relative to the project root, without ``..``; else ``invalid_input``."""
    clean = path.replace("\\", "/").strip()
    parts = [p for p in clean.split("/") if p not in ("", ".")]
    if not parts or clean.startswith("/") or ".." in parts or "\x00" in clean:
        raise ValidationError(f"file {path!r}: give a path relative to the project root")
    return "/".join(parts)
