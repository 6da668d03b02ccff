"""The REST face (FastAPI): routes generated from :mod:`cairn.interfaces.operations`.

Every operation is ``POST <route>`` with its input model as the JSON body and its output
contract as the response (``GET /v1/status`` and ``GET /health`` too). Errors are JSON
``{"error": {"code", "message"}}`` with the status of the :class:`~cairn.errors.CairnError`;
bad input is 422 ``invalid_input``. The MCP server's streamable-HTTP transport is mounted at
``/mcp``; :mod:`cairn.interfaces.http.security` guards both. ``GET /docs`` lists the routes
(an offline page); a request the HTTP parser refuses is answered by
:mod:`cairn.interfaces.http.wire`, also as JSON.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.routing import Route

from cairn import __version__
from cairn.contracts import ErrorBody
from cairn.errors import CairnError, ValidationError
from cairn.interfaces.http.security import SecurityMiddleware, is_loopback
from cairn.interfaces.operations import (
    Operation,
    as_cairn_error,
    available_operations,
    describe_validation_error,
)
from cairn.interfaces.pool import DEFAULT_WORKERS, WorkspacePool

if TYPE_CHECKING:
    from cairn.runtime.events import EventBus
    from cairn.workspace import Workspace

log = logging.getLogger("cairn.http")

MCP_PATH = "/mcp"


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """How ``cairn serve`` runs (from its command-line options)."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None
    enable_write: bool = False
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    max_body_bytes: int = 1 << 20
    workers: int = DEFAULT_WORKERS
    mcp: bool = True
    # The event stream at /api/events (issue 16): a heartbeat notice after this many idle
    # seconds; a client whose socket accepts nothing for send_timeout_s is cut off.
    events_heartbeat_s: float = 5.0
    events_send_timeout_s: float = 10.0


class Health(BaseModel):
    """``GET /health``: the server answers (no index access, no token needed)."""

    status: Literal["ok"] = "ok"
    version: str


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in [
        (400, "Invalid input (invalid_input)"), (401, "Missing or wrong bearer token"),
        (403, "Origin not allowed, or a cross-origin write"), (404, "Unknown document, collection or index"),
        (409, "Conflict (e.g. the name or file exists)"), (413, "Request body too large"),
        (421, "Host not allowed"), (422, "Request does not match the input schema (invalid_input)"),
        (500, "Internal or store error"), (503, "Index busy or model unavailable"),
    ]
}


def create_app(workspace_factory: Callable[[], Workspace], settings: ServeSettings,
               bus: EventBus | None = None) -> FastAPI:
    """The ASGI app of ``cairn serve``: REST routes, ``/mcp``, ``/api/events``, security
    middleware. ``bus`` carries the events of a runtime in this process (without one, the
    event stream reads the index's event log at every heartbeat)."""
    if not is_loopback(settings.host) and not settings.token:
        raise ValidationError(f"binding to {settings.host} (not loopback) requires a bearer token: --token")
    pool = WorkspacePool(workspace_factory, settings.workers)
    operations = available_operations(write=settings.enable_write)
    mcp_app: Any = None
    manager: Any = None
    if settings.mcp:
        from mcp.server.streamable_http_manager import (
            StreamableHTTPASGIApp,
            StreamableHTTPSessionManager,
        )

        from cairn.interfaces.mcp import server_for

        manager = StreamableHTTPSessionManager(
            app=server_for(pool, enable_write=settings.enable_write),
            json_response=True, max_request_body_size=settings.max_body_bytes,
        )
        mcp_app = StreamableHTTPASGIApp(manager)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            stack.callback(pool.close)
            if manager is not None:
                await stack.enter_async_context(manager.run())
            yield

    app = FastAPI(
        title="cairn", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
        openapi_url="/openapi.json",
        description="Exact, verifiable evidence from your notes, documents and code. "
                    "The same operations as cairn's MCP tools; errors are {error: {code, message}}.",
    )

    @app.get("/health", response_model=Health, tags=["meta"], summary="Liveness check",
             responses={421: _ERRORS[421], 403: _ERRORS[403]})
    async def health() -> Health:
        return Health(version=__version__)

    @app.get("/docs", include_in_schema=False,
             response_class=HTMLResponse)
    async def docs() -> HTMLResponse:
        from cairn.interfaces.http.docs_page import docs_page

        return HTMLResponse(docs_page(app.openapi()))

    for op in operations:
        _add_route(app, pool, op)

    from cairn.interfaces.http.events import add_event_route  # the resident runtime (issue 16)

    add_event_route(app, pool, bus, heartbeat_s=settings.events_heartbeat_s,
                    send_timeout_s=settings.events_send_timeout_s)

    @app.exception_handler(CairnError)
    async def cairn_error(request: Request, exc: CairnError) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def invalid_input(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": {"code": "invalid_input", "message": describe_validation_error(exc)}},
                            status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        # 400: a body FastAPI could not parse (e.g. a bad charset) is bad input like any other
        code = {400: "invalid_input", 404: "not_found", 405: "method_not_allowed",
                413: "payload_too_large"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of every route on this path, not just the first
            allowed = {m for r in app.routes if isinstance(r, Route) and r.path_regex.match(request.url.path)
                       for m in (r.methods or ())}
            headers["allow"] = ", ".join(sorted(allowed))
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}},
                            status_code=exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": {"code": "internal", "message": f"internal error: {type(exc).__name__}"}},
                            status_code=500)

    if mcp_app is not None:
        app.router.routes.append(Route(MCP_PATH, endpoint=mcp_app, methods=["GET", "POST", "DELETE"]))

    write_routes = {op.route for op in operations if op.write}

    def is_mutation(method: str, path: str) -> bool:
        if path == MCP_PATH:
            return settings.enable_write and method in ("POST", "DELETE")
        return path in write_routes

    hosts = list(settings.allowed_hosts)
    if settings.host not in ("0.0.0.0", "::", ""):
        hosts.append(settings.host)
    app.add_middleware(
        SecurityMiddleware, allowed_hosts=hosts, allowed_origins=settings.allowed_origins,
        token=settings.token, max_body_bytes=settings.max_body_bytes, is_mutation=is_mutation,
    )
    return app


def _add_route(app: FastAPI, pool: WorkspacePool, op: Operation) -> None:
    statuses = (400, 401, 403, 404, 409, 413, 421, 422, 500, 503)
    app.add_api_route(
        op.route, _endpoint(pool, op, with_body=True), methods=["POST"], response_model=op.output_model(),
        summary=op.description, operation_id=op.name, tags=["write" if op.write else "read"],
        responses={s: _ERRORS[s] for s in statuses},
    )
    if op.name == "status":  # also a plain GET
        app.add_api_route(
            op.route, _endpoint(pool, op, with_body=False), methods=["GET"], response_model=op.output_model(),
            summary=op.description, operation_id=f"{op.name}_get", tags=["read"],
            responses={s: _ERRORS[s] for s in (401, 403, 421, 500, 503)},
        )


def _endpoint(pool: WorkspacePool, op: Operation, *, with_body: bool) -> Callable[..., Any]:
    """An endpoint whose signature carries the operation's input model (FastAPI reads it)."""

    async def endpoint(body: Any = None) -> Response:
        params = body if body is not None else op.input()
        try:
            result = await pool.run(lambda ws: op.invoke(ws, params), write=op.write)
        except CairnError:
            raise
        except Exception as exc:
            error = as_cairn_error(exc)
            log.exception("operation %s failed", op.name)
            raise error from exc
        return Response(result.model_dump_json(), media_type="application/json")

    parameters = []
    if with_body:
        required = any(f.is_required() for f in op.input.model_fields.values())
        default = Body(...) if required else Body(None)
        annotation: Any = op.input if required else op.input | None
        parameters.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY,
                                            annotation=annotation, default=default))
    endpoint.__signature__ = inspect.Signature(parameters, return_annotation=Response)  # type: ignore[attr-defined]
    endpoint.__name__ = f"{op.name}_endpoint"
    return endpoint
