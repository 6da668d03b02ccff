"""Bytes to cairn's one normalised text per document.

Line numbers everywhere (passages, links, ``cairn get``) refer to this text: UTF-8,
``\\n`` line ends, no BOM, Unicode NFC.
"""

from __future__ import annotations

import contextlib
import unicodedata

from cairn.errors import IngestError

_SNIFF = 8192
_LATIN_SINGLE_BYTE = frozenset(
    {"cp1250", "cp1252", "cp1257", "latin_1", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_9",
     "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16", "mac_latin2", "mac_roman",
     "cp850", "cp858", "cp437"}
)
# C0 controls other than tab, newline, carriage return and form feed.
_CONTROL = frozenset(range(0, 32)) - {9, 10, 12, 13}


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode file bytes to text; returns (text, encoding name).

    Raises :class:`IngestError` with code ``binary`` or ``undecodable``.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            raise IngestError(f"invalid UTF-16: {exc}", code="undecodable") from exc
    head = data[:_SNIFF]
    if b"\x00" in head:
        raise IngestError("binary file (NUL bytes); not indexed", code="binary")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None or best.encoding is None:
        raise IngestError("cannot detect the text encoding", code="undecodable")
    encoding, text = best.encoding, str(best)
    if encoding in _LATIN_SINGLE_BYTE and encoding != "cp1252":
        # Detection cannot tell Latin code pages apart on short texts (café in cp1252 reads
        # as cp1250 too); Western European is by far the most common, so prefer it.
        with contextlib.suppress(UnicodeDecodeError):
            text, encoding = data.decode("cp1252"), "cp1252"
    sample = text[:_SNIFF]
    if sample and sum(1 for ch in sample if ord(ch) in _CONTROL) > len(sample) * 0.02:
        raise IngestError("binary-looking content (control characters)", code="binary")
    return text, encoding


def normalise_text(text: str) -> str:
    """``\\r\\n``/``\\r`` to ``\\n``, NFC; the text cairn stores, hashes and prints."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text
