"""Prometheus metrics of the API: requests by route template and status, problems by type,
the search bound (queue wait, refusals), MCP tool calls, and `/metrics` serving them together with the core's retrieval metrics
(`services/core/telemetry.py`).

Route labels are templates (`/v1/laws/{law_id}`), never raw paths, so a crawler cannot
blow up the number of series; a request no route matched is labelled `unmatched`.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

from fastapi import FastAPI
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Histogram, generate_latest
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.core import telemetry  # noqa: F401  (registers the retrieval metrics)

HTTP_REQUESTS = Counter(
    "lexgraph_http_requests",
    "HTTP requests answered, by method, route template and status code.",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "lexgraph_http_request_duration_seconds",
    "Time from receiving a request to sending the last byte of its response.",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
PROBLEMS = Counter(
    "lexgraph_problems",
    "problem+json responses sent, by problem type and status code.",
    ["type", "status"],
)
SEARCH_QUEUE_WAIT = Histogram(
    "lexgraph_search_queue_wait_seconds",
    "Time a search waited for a slot of the per-process bound (0 when one was free).",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SEARCH_OVERLOADED = Counter(
    "lexgraph_search_overloaded",
    "Searches refused with 429 because the bound and its queue were full.",
)
MCP_TOOL_CALLS = Counter(
    "lexgraph_mcp_tool_calls",
    "MCP tool calls, by tool and outcome (ok or error).",
    ["tool", "outcome"],
)


def record_problem(problem_type: str, status: int) -> None:
    """Called by the problem handler for every problem+json response it writes."""
    PROBLEMS.labels(type=problem_type, status=str(status)).inc()


def record_search_admission(waited_s: float | None) -> None:
    """A search got its slot after `waited_s`, or (None) was refused."""
    if waited_s is None:
        SEARCH_OVERLOADED.inc()
    else:
        SEARCH_QUEUE_WAIT.observe(waited_s)


def record_tool_call(tool: str, *, ok: bool) -> None:
    MCP_TOOL_CALLS.labels(tool=tool, outcome="ok" if ok else "error").inc()


class PrometheusMiddleware:
    """Pure ASGI middleware (no BaseHTTPMiddleware) so streamed MCP responses pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = perf_counter()
        status = 500  # what the client sees when the app raises before responding

        async def send_and_note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_and_note_status)
        finally:
            labels = {
                "method": scope.get("method", ""),
                "route": _route_template(scope),
                "status": str(status),
            }
            HTTP_REQUESTS.labels(**labels).inc()
            HTTP_LATENCY.labels(**labels).observe(perf_counter() - started)


def _route_template(scope: Scope) -> str:
    route: Any = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


async def metrics_endpoint(request: Request) -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


def install_metrics(app: FastAPI) -> None:
    """Count every request and serve `/metrics` (kept out of the OpenAPI schema)."""
    app.add_middleware(PrometheusMiddleware)
    app.add_route("/metrics", metrics_endpoint, methods=["GET"], include_in_schema=False)
