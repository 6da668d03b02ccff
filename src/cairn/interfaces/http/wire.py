"""What ``cairn serve`` answers below the app: a request the HTTP parser itself refuses
(``Content-Length: -1``, a broken request line) gets the same JSON error as any other
bad input, not uvicorn's plain text."""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: The body of a request the HTTP parser refused.
BAD_REQUEST = json.dumps({"error": {"code": "invalid_input", "message": "malformed HTTP request"}}).encode()


class JsonErrorProtocol(H11Protocol):
    """uvicorn's h11 protocol, answering a malformed request with a JSON ``invalid_input``."""

    def send_400_response(self, msg: str) -> None:
        header = (b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
                  b"content-length: " + str(len(BAD_REQUEST)).encode() + b"\r\nconnection: close\r\n\r\n")
        self.transport.write(header + BAD_REQUEST)
        self.transport.close()


def uvicorn_config(app: Any, **options: Any) -> Any:
    """A ``uvicorn.Config`` for ``app`` with :class:`JsonErrorProtocol`."""
    import uvicorn

    return uvicorn.Config(app, http=JsonErrorProtocol, **options)
