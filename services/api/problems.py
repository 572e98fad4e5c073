"""RFC 9457 problem+json: the only place errors become HTTP responses.

Lexgraph errors map to statuses (Forbidden 403, NotFound 404, InvalidQuery 422 naming the
field, Overloaded 429 and StoreUnavailable 503, both with Retry-After); request validation
errors name every field that was wrong; anything unexpected is a 500 problem with a
request id and no traceback (the traceback goes to the log).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from services.api import metrics
from services.core.errors import (
    Forbidden,
    InvalidQuery,
    LexgraphError,
    NotFound,
    Overloaded,
    StoreUnavailable,
)

log = logging.getLogger(__name__)

PROBLEM_BASE = "https://lexgraph.dev/problems/"
MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_S = 2

_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    415: "Unsupported media type",
    422: "Invalid input",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}
_SLUGS = {
    400: "bad-request",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "too-large",
    422: "invalid-input",
    429: "overloaded",
    500: "internal",
    503: "store-unavailable",
}
# Answers that carry Retry-After (seconds), as the OpenAPI document declares them.
_RETRY_AFTER_STATUSES = (429, 503)

# What the OpenAPI document says an error looks like (every route lists these).
PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "problem": {"type": "string"}},
            },
        },
    },
    "required": ["type", "title", "status"],
}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: each status documented as application/problem+json
    (with its Retry-After header for 429 and 503)."""
    responses: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        response: dict[str, Any] = {
            "description": _TITLES.get(status, "Error"),
            "content": {MEDIA_TYPE: {"schema": PROBLEM_SCHEMA}},
        }
        if status in _RETRY_AFTER_STATUSES:
            response["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before trying again.",
                    "schema": {"type": "string", "pattern": "^[0-9]+$"},
                }
            }
        responses[status] = response
    return responses


# Every route that reads a body can also answer these before its own code runs: the body
# is too deep or not JSON (400), too large (413), or invalid for the schema (422).
BODY_PROBLEMS = (400, 413, 422)


def problem(
    status: int,
    detail: str,
    *,
    instance: str | None = None,
    slug: str | None = None,
    title: str | None = None,
    errors: Sequence[Mapping[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JSONResponse:
    kind = PROBLEM_BASE + (slug or _SLUGS.get(status, str(status)))
    body: dict[str, Any] = {
        "type": kind,
        "title": title or _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    if errors:
        body["errors"] = list(errors)
    body.update(extra or {})
    metrics.record_problem(kind, status)
    return JSONResponse(
        body, status_code=status, media_type=MEDIA_TYPE, headers=dict(headers or {})
    )


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(Forbidden, _forbidden)
    app.add_exception_handler(Overloaded, _overloaded)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(InvalidQuery, _invalid_query)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    app.add_exception_handler(LexgraphError, _lexgraph_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_exception)
    app.add_exception_handler(Exception, _unexpected)


async def _forbidden(request: Request, exc: Exception) -> JSONResponse:
    return problem(403, str(exc) or "forbidden", instance=request.url.path)


async def _overloaded(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Overloaded)  # noqa: S101 (registered for this type only)
    return problem(
        429,
        f"{exc}; retry in {exc.retry_after_s} s",
        instance=request.url.path,
        headers={"Retry-After": str(exc.retry_after_s)},
    )


async def _not_found(request: Request, exc: Exception) -> JSONResponse:
    return problem(404, str(exc) or "not found", instance=request.url.path)


async def _invalid_query(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, InvalidQuery)  # noqa: S101 (registered for this type only)
    return problem(
        422,
        f"{exc.field}: {exc.problem}",
        instance=request.url.path,
        errors=[{"field": exc.field, "problem": exc.problem}],
    )


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    log.warning("store unavailable on %s: %s", request.url.path, exc)
    return problem(
        503,
        f"{exc}; retry shortly",
        instance=request.url.path,
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


async def _lexgraph_error(request: Request, exc: Exception) -> JSONResponse:
    return await _unexpected(request, exc)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)  # noqa: S101
    errors = []
    for error in exc.errors():
        location = [str(part) for part in error.get("loc", ()) if part not in ("body",)]
        field = ".".join(location) or "body"
        errors.append({"field": field, "problem": str(error.get("msg", "invalid"))})
    detail = "; ".join(f"{e['field']}: {e['problem']}" for e in errors) or "invalid request"
    return problem(422, detail, instance=request.url.path, errors=errors)


async def _http_exception(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)  # noqa: S101
    detail = exc.detail if isinstance(exc.detail, str) else _TITLES.get(exc.status_code, "error")
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(_allowed_methods(request))
    return problem(exc.status_code, detail, instance=request.url.path, headers=headers or None)


_METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path. Starlette's own Allow names only the
    first route whose path matches, and FastAPI makes one route per method."""
    from starlette.routing import Match

    routes = request.app.router.routes
    return [
        method
        for method in _METHODS
        if any(r.matches({**request.scope, "method": method})[0] is Match.FULL for r in routes)
    ]


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    request_id = uuid.uuid4().hex[:12]
    log.error("unexpected error %s on %s", request_id, request.url.path, exc_info=exc)
    return problem(
        500,
        f"unexpected error (request id {request_id}); it has been logged",
        instance=request.url.path,
    )
