"""Authenticity of capsules: an HMAC-SHA256 with a secret key local to one cairn install.

``capsule_id`` is an unkeyed hash: anyone can edit a capsule and recompute it. The
signature is what an editor without the key cannot redo. The key is 32 random bytes,
stored hex-encoded in a file the composition root names (``<data_dir>/keys/capsule.key``),
created on first use with mode 0600, atomically (written to a private temporary file and
hard-linked into place, so two processes racing to create it end up with the same key).
A key file that exists but does not hold a key is an error, never overwritten: replacing
it would turn every capsule this install signed into "signed by another key".

HMAC is symmetric: only this install can check its own signatures. A capsule signed
elsewhere is reported ``signed-by-another-key`` and its content is unauthenticated here.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cairn.contracts.capsule import Authenticity, CapsuleSignature
from cairn.errors import CairnError

__all__ = ["ALG", "CapsuleKey", "KeyFileError", "authenticity", "load_capsule_key"]

ALG = "hmac-sha256"
_KEY_BYTES = 32
#: Domain prefix of the key id, so the id is never the hash of anything else cairn hashes.
_KEY_ID_PREFIX = b"cairn.capsule-key/1\x00"


class KeyFileError(CairnError):
    """The capsule key file exists but cannot be read or does not hold a key."""

    code = "capsule_key_invalid"


@dataclass(frozen=True, slots=True)
class CapsuleKey:
    """One install's capsule signing key."""

    secret: bytes

    @property
    def key_id(self) -> str:
        """First 16 hex digits of SHA-256 of the key (domain-prefixed)."""
        return hashlib.sha256(_KEY_ID_PREFIX + self.secret).hexdigest()[:16]

    def sign(self, payload: bytes) -> CapsuleSignature:
        """The signature of ``payload`` (deterministic: same key and bytes, same value)."""
        value = hmac.new(self.secret, payload, hashlib.sha256).hexdigest()
        return CapsuleSignature(alg=ALG, key_id=self.key_id, value=value)


def authenticity(signature: CapsuleSignature | None, payload: bytes, key: CapsuleKey | None) -> Authenticity:
    """Who sealed ``payload``: see :data:`cairn.contracts.capsule.Authenticity`."""
    if signature is None:
        return "unsigned"
    if key is None or signature.key_id != key.key_id:
        return "signed-by-another-key"
    expected = key.sign(payload).value
    return "signed-by-this-install" if hmac.compare_digest(expected, signature.value) else "signature-invalid"


def _read_key(path: Path) -> CapsuleKey:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"cannot read the capsule key {path}: {exc}") from None
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != _KEY_BYTES:
        raise KeyFileError(f"{path} does not hold a capsule key ({_KEY_BYTES * 2} hex digits); "
                           "move it away to start a new key (capsules signed with the old one "
                           "will then verify as signed by another key)")
    return CapsuleKey(secret)


def load_capsule_key(path: Path, *, create: bool) -> CapsuleKey | None:
    """The key stored at ``path``; when there is none, a new one (``create``) or None."""
    if path.exists():
        return _read_key(path)
    if not create:
        return None
    try:
        _create_key(path)
    except OSError as exc:
        raise KeyFileError(f"cannot create the capsule key {path}: {exc}") from None
    return _read_key(path)


def _create_key(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chmod(path.parent, 0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_bytes(_KEY_BYTES).hex() + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, path)  # atomic, and never replaces a key another process just made
        except FileExistsError:
            pass
        except OSError:  # no hard links on this file system: rename (atomic, last one wins)
            if not path.exists():
                os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
