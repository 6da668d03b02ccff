"""References to documents: ``cairn://`` URIs, ``collection/path`` and docids.

Every face accepts the same three spellings, and every URI cairn prints is built here,
so what one command prints another accepts.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from cairn.errors import NotFoundError, ValidationError
from cairn.store.protocol import Store
from cairn.store.records import DocumentRecord

URI_SCHEME = "cairn://"
DOCID = re.compile(r"^#?([0-9a-f]{6,64})$")
#: The line span search prints after a reference: ``…/file.md:12-30`` or ``…/file.md:12``.
SPAN = re.compile(r"^(?P<ref>.+?):(?P<start>[1-9][0-9]{0,8})(?:-(?P<end>[1-9][0-9]{0,8}))?$")
#: What a URI must escape: ``%`` and the characters that end or split one (space, ``#``,
#: ``?``), backslash (read as ``/`` by some tools) and control characters. Everything else,
#: non-ASCII letters included, is printed as it is, so a URI stays readable.
_ESCAPE = re.compile(r"[%#?\\ \x00-\x1f\x7f]")


def document_uri(collection: str, path: str) -> str:
    """``cairn://<collection>/<path>`` with only ``%``, space, ``#``, ``?``, backslash and
    control characters percent-escaped (``get`` also accepts a fully escaped form)."""
    escaped = _ESCAPE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), path)
    return f"{URI_SCHEME}{collection}/{escaped}"


def check_ref_path(path: str) -> None:
    """Refuse a document path that could name something outside a collection's root:
    ``..``/``.``/empty segments, absolute or home paths, backslashes, NUL, in the raw text
    or once percent-decoded. Indexed paths never contain such segments, so nothing valid
    is refused. (For paths cairn writes; a reference to read takes :func:`check_read_path`.)"""
    for form in dict.fromkeys((path, unquote(path))):
        if "\\" in form:
            raise ValidationError(f"path {path!r} is not a relative path inside a collection")
    check_read_path(path)


def check_read_path(path: str) -> None:
    """:func:`check_ref_path` without the backslash rule: on POSIX a backslash is an
    ordinary file-name character, so ``back\\slash.md`` can be indexed and read."""
    for form in dict.fromkeys((path, unquote(path))):
        if "\x00" in form or form.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", form):
            raise ValidationError(f"path {path!r} is not a relative path inside a collection")
        if any(seg in ("", ".", "..") for seg in form.split("/")):
            raise ValidationError(f"path {path!r} must not contain '..', '.' or empty segments")


def split_span(ref: str) -> tuple[str, int | None, int | None]:
    """``ref`` without a trailing ``:START[-END]`` line span (as search prints it), and
    the span; a reference without one is returned whole with ``None, None``."""
    match = SPAN.match(ref.strip())
    if match is None:
        return ref, None, None
    start = int(match["start"])
    end = int(match["end"]) if match["end"] else start
    if end < start:
        raise ValidationError(f"bad line span in {ref!r}: {end} is before {start}")
    return match["ref"], start, end


def resolve_document(store: Store, ref: str) -> tuple[DocumentRecord, str]:
    """The active document ``ref`` names and its normalised text; NotFoundError if none."""
    record, text, _ = resolve_span(store, ref)
    return record, text


def resolve_span(store: Store, ref: str) -> tuple[DocumentRecord, str, tuple[int, int] | None]:
    """Like :func:`resolve_document`, also taking the ``:START-END`` span search prints
    after a reference: the document, its text and the span (``None`` without one). A
    path that itself ends in ``:N`` is found first."""
    ref = ref.strip()
    if not ref:
        raise ValidationError("empty reference")
    found = _find(store, ref)
    span: tuple[int, int] | None = None
    if found is None:
        bare, start, end = split_span(ref)
        if start is not None and end is not None:
            found = _find(store, bare)
            span = (start, end)
    if found is None:
        raise NotFoundError(f"no document {ref!r}")
    record, text = found
    if not record.active or text is None:
        raise NotFoundError(f"document {ref!r} was deleted from its collection")
    return record, text, span


def _find(store: Store, ref: str) -> tuple[DocumentRecord, str | None] | None:
    match = DOCID.match(ref)
    if match and "/" not in ref:
        return store.find_document(docid=match.group(1))
    is_uri = ref.startswith(URI_SCHEME)
    body = ref[len(URI_SCHEME):] if is_uri else ref
    collection, sep, path = body.partition("/")
    if not sep or not path:
        raise ValidationError(
            f"bad reference {ref!r}: use cairn://collection/path, collection/path or a docid"
        )
    check_read_path(body)  # refuse traversal on every face
    # a URI is percent-decoded; a plain path is taken as written, then decoded
    for candidate in dict.fromkeys((unquote(path), path) if is_uri else (path, unquote(path))):
        found = store.find_document(collection=collection, path=candidate)
        if found is not None:
            return found
    return None


def find_any_document(store: Store, ref: str) -> tuple[DocumentRecord, str | None]:
    """The document ``ref`` names, deleted ones included (their text is None): what
    the knowledge delta asks about. NotFoundError if the index never had it."""
    ref = ref.strip()
    if not ref:
        raise ValidationError("empty reference")
    found = _find(store, ref)
    if found is None:
        raise NotFoundError(f"no document {ref!r}")
    return found
