"""References to documents: ``cairn://`` URIs, ``collection/path`` and docids.

Every face accepts the same three spellings, and every URI cairn prints is built here,
so what one command prints another accepts.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from cairn.errors import NotFoundError, ValidationError
from cairn.store.protocol import Store
from cairn.store.records import DocumentRecord

URI_SCHEME = "cairn://"
DOCID = re.compile(r"^#?([0-9a-f]{6,64})$")


def document_uri(collection: str, path: str) -> str:
    """``cairn://<collection>/<percent-escaped path>``."""
    return f"{URI_SCHEME}{collection}/{quote(path, safe='/')}"


def check_ref_path(path: str) -> None:
    """Refuse a document path that could name something outside a collection's root:
    ``..``/``.``/empty segments, absolute or home paths, backslashes, NUL, in the raw text
    or once percent-decoded. Indexed paths never contain such segments, so nothing valid
    is refused."""
    for form in dict.fromkeys((path, unquote(path))):
        if "\x00" in form or "\\" in form or form.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", form):
            raise ValidationError(f"path {path!r} is not a relative path inside a collection")
        if any(seg in ("", ".", "..") for seg in form.split("/")):
            raise ValidationError(f"path {path!r} must not contain '..', '.' or empty segments")


def resolve_document(store: Store, ref: str) -> tuple[DocumentRecord, str]:
    """The active document ``ref`` names and its normalised text; NotFoundError if none."""
    ref = ref.strip()
    if not ref:
        raise ValidationError("empty reference")
    found = None
    match = DOCID.match(ref)
    if match and "/" not in ref:
        found = store.find_document(docid=match.group(1))
    else:
        body = ref[len(URI_SCHEME):] if ref.startswith(URI_SCHEME) else ref
        collection, sep, path = body.partition("/")
        if not sep or not path:
            raise ValidationError(
                f"bad reference {ref!r}: use cairn://collection/path, collection/path or a docid"
            )
        check_ref_path(body)  # refuse traversal on every face
        found = store.find_document(collection=collection, path=unquote(path) if ref.startswith(URI_SCHEME) else path)
    if found is None:
        raise NotFoundError(f"no document {ref!r}")
    record, text = found
    if not record.active or text is None:
        raise NotFoundError(f"document {ref!r} was deleted from its collection")
    return record, text
