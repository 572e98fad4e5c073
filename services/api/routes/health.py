"""/healthz: the process is up. /readyz: the graph, the vectors and the embedder each
really answer (a query, a count, an embedding), each within the store deadline; it names
the graph backend and the version its server reports."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from services.api.deps import call_store
from services.api.problems import RETRY_AFTER_S, problem, problem_responses
from services.api.schemas import Health, Readiness
from services.core.settings import Settings

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=Health)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", response_model=Readiness, responses=problem_responses(503))
async def readyz(request: Request) -> Any:
    state = request.app.state
    settings: Settings = state.settings
    graph, vectors, embedder = (getattr(state, n, None) for n in ("graph", "vectors", "embedder"))
    probes: dict[str, Callable[[], object] | None] = {
        "graph": graph.ping if graph is not None else None,
        "vectors": (lambda: vectors.count("chunks")) if vectors is not None else None,
        "embedder": (lambda: embedder.embed_query("ping")) if embedder is not None else None,
    }
    results = await asyncio.gather(*(_probe(settings, name, fn) for name, fn in probes.items()))
    checks = {name: status for name, (status, _) in zip(probes, results, strict=True)}
    graph_server = results[0][1]
    if all(value == "ok" for value in checks.values()):
        return {
            "status": "ready",
            "checks": checks,
            "graph": {"backend": settings.graph_backend, "server": graph_server},
        }
    failing = ", ".join(f"{name} ({value})" for name, value in checks.items() if value != "ok")
    return problem(
        503,
        f"not ready: {failing}",
        instance="/readyz",
        slug="not-ready",
        title="Not ready",
        headers={"Retry-After": str(RETRY_AFTER_S)},
        extra={"checks": checks},
    )


async def _probe(
    settings: Settings, name: str, fn: Callable[[], object] | None
) -> tuple[str, str | None]:
    """("ok" or what failed, what the probe said when it is a string: the graph's version)."""
    if fn is None:
        return "not connected", None
    try:
        said = await call_store(settings, fn, what=name)
    except Exception as exc:  # a probe reports every failure instead of raising it
        return f"{type(exc).__name__}: {str(exc)[:200]}", None
    return "ok", said if isinstance(said, str) else None
