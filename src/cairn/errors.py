"""Typed errors. Each kind maps once, at the face, to an exit code / HTTP status / MCP error.

Every error carries a stable machine-readable ``code`` and a human ``message``.
Faces never show a traceback for a :class:`CairnError`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the hook's fast path imports this module, typing costs start-up
if TYPE_CHECKING:
    from typing import ClassVar


class CairnError(Exception):
    """Base of every error cairn reports to a user."""

    code: str = "error"
    #: Process exit code used by the CLI: 1 usage/validation, 2 runtime.
    exit_code: ClassVar[int] = 2
    #: HTTP status used by the REST face.
    http_status: ClassVar[int] = 500

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, dict[str, str]]:
        """The JSON error body shared by every face: ``{"error": {"code", "message"}}``."""
        return {"error": {"code": self.code, "message": self.message}}


class ValidationError(CairnError):
    """Bad input from the user: an option, a query, a path, a reference."""

    code = "invalid_input"
    exit_code = 1
    http_status = 400


class NotFoundError(CairnError):
    """A named thing (collection, document, reference, index) does not exist."""

    code = "not_found"
    exit_code = 1
    http_status = 404


class ConflictError(CairnError):
    """The request conflicts with existing state (e.g. a collection name already taken)."""

    code = "conflict"
    exit_code = 1
    http_status = 409


class StoreError(CairnError):
    """The index could not be read or written (corrupt file, locked, disk full)."""

    code = "store_error"
    exit_code = 2
    http_status = 500


class BusyError(CairnError):
    """Another process holds the index's writer lock."""

    code = "index_busy"
    exit_code = 2
    http_status = 503


class IngestError(CairnError):
    """One file could not be ingested. Recorded per file; never aborts a run."""

    code = "ingest_failed"
    exit_code = 2
    http_status = 422


class ModelUnavailable(CairnError):
    """A model or model endpoint is not installed, not configured, or not reachable."""

    code = "model_unavailable"
    exit_code = 2
    http_status = 503


# --- knowledge delta (issue 16) -------------------------------------------------------


class CursorExpiredError(CairnError):
    """A change-journal cursor (or date) older than what the journal keeps, or a cursor of
    another index: entries after it may be gone. Never a silent gap: start again without
    a cursor (and re-read what you track)."""

    code = "cursor_expired"
    exit_code = 1
    http_status = 410
