"""ASGI middleware guarding ``cairn serve``: Host/Origin checks, bearer token, body limit.

Threats and answers:

- **DNS rebinding** (a web page whose host name resolves to 127.0.0.1): the ``Host``
  header must name loopback (``localhost``, ``127.0.0.1``, ``[::1]``) or a configured host;
  an ``Origin`` header, when sent, must be a loopback or configured origin.
- **Other machines** (a non-loopback bind): every request but ``/health`` needs
  ``Authorization: Bearer <token>``; the server refuses to start without a token.
- **Cross-site writes** (a page POSTing to the local server): a mutation (a write route,
  or ``/mcp`` when writes are enabled) needs the token or a same-origin request: no
  ``Origin`` and no cross-site ``Sec-Fetch-Site`` (not a browser), or ``Origin`` equal to
  the server's own. A local non-browser process could read the index file directly, so a
  token adds nothing against it on a loopback bind.
- **Large bodies**: over ``max_body_bytes`` is refused with 413, before the app reads it.

Every refusal is JSON ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
PUBLIC_PATHS = frozenset({"/health"})
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def is_loopback(host: str) -> bool:
    """Whether a bind address or host name is loopback-only."""
    host = host.strip("[]").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.")


def _hostname(value: str) -> str | None:
    """The host part of a ``Host`` header value (no port, IPv6 without brackets)."""
    try:
        parts = urlsplit(f"//{value}")
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return None
    return (parts.hostname or "").lower() or None


class SecurityMiddleware:
    """Refuses requests that fail the Host, Origin, token, same-origin or size rules."""

    def __init__(
        self, app: ASGIApp, *, allowed_hosts: Iterable[str] = (), allowed_origins: Iterable[str] = (),
        token: str | None = None, max_body_bytes: int = 1 << 20,
        is_mutation: Callable[[str, str], bool] = lambda method, path: False,
    ) -> None:
        self.app = app
        self.hosts = LOOPBACK_HOSTS | {h.strip("[]").lower() for h in allowed_hosts}
        self.origins = {o.rstrip("/").lower() for o in allowed_origins}
        self.token = token
        self.max_body_bytes = max_body_bytes
        self.is_mutation = is_mutation

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            headers[key.decode("latin-1").lower()] = value.decode("latin-1")
        host = headers.get("host", "")
        hostname = _hostname(host)
        if hostname is None or hostname not in self.hosts:
            return await _refuse(send, 421, "host_not_allowed", f"Host {host!r} is not allowed")
        origin = headers.get("origin")
        if origin is not None and not self._origin_allowed(origin):
            return await _refuse(send, 403, "origin_not_allowed", f"Origin {origin!r} is not allowed")
        path: str = scope.get("path", "")
        method: str = scope.get("method", "GET")
        token_ok = self._token_ok(headers.get("authorization"))
        if self.token is not None and not token_ok and path not in PUBLIC_PATHS:
            return await _refuse(send, 401, "unauthorized", "missing or wrong bearer token",
                                 extra=[(b"www-authenticate", b'Bearer realm="cairn"')])
        if self.is_mutation(method, path) and not token_ok:
            own = f"{scope.get('scheme', 'http')}://{host}".lower()
            fetch_site = headers.get("sec-fetch-site", "")
            same_origin = origin.rstrip("/").lower() == own if origin is not None else (
                fetch_site in ("", "same-origin", "none"))
            if not same_origin:
                return await _refuse(send, 403, "cross_origin_write",
                                     "writes need the bearer token or a same-origin request")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                return await _refuse(send, 400, "invalid_input", "bad Content-Length")
            if int(length) > self.max_body_bytes:
                if int(length) <= DRAIN_LIMIT_BYTES:
                    # Read and drop the body first: closing on a client still sending makes
                    # it see a connection reset instead of the 413.
                    await _drain(receive)
                return await _refuse(send, 413, "payload_too_large",
                                     f"request body over {self.max_body_bytes} bytes")
        elif method in BODY_METHODS:
            # No length given (chunked): read it here, bounded, then replay it.
            chunks: list[bytes] = []
            size = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body_bytes:
                    return await _refuse(send, 413, "payload_too_large",
                                         f"request body over {self.max_body_bytes} bytes")
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            receive = _replay(b"".join(chunks), receive)
        await self.app(scope, receive, send)

    def _origin_allowed(self, origin: str) -> bool:
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.path or parts.query:
            return False
        try:
            _ = parts.port
        except ValueError:
            return False
        return (parts.hostname or "") in LOOPBACK_HOSTS

    def _token_ok(self, authorization: str | None) -> bool:
        if self.token is None or authorization is None:
            return False
        scheme, _, value = authorization.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), self.token.encode())


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


#: Bodies announced up to this size are drained before a 413; larger ones are cut off.
DRAIN_LIMIT_BYTES = 32 << 20


async def _drain(receive: Any) -> None:
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


async def _refuse(send: Send, status: int, code: str, message: str,
                  extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send({
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                    *extra],
    })
    await send({"type": "http.response.body", "body": body})
