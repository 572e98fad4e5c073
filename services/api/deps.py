"""What a request needs, read from `app.state` (built once in the lifespan), and the two
ways routes call the blocking stores: `call_store` (a worker thread, the store deadline)
and, for searches, `SearchAdmissionDep.run` (a bounded pool and queue, then 429)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from services.api.admission import SearchAdmission
from services.api.security import request_access, request_principal
from services.core.access import Principal
from services.core.analysis import KeywordSource
from services.core.errors import StoreUnavailable
from services.core.ports import Embedder, GraphStore, VectorIndex
from services.core.settings import Settings

T = TypeVar("T")


@dataclass(frozen=True)
class Clients:
    graph: GraphStore
    vectors: VectorIndex
    embedder: Embedder
    settings: Settings
    keywords: KeywordSource | None = None  # the optional LLM keyword step


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_clients(request: Request) -> Clients:
    return get_clients_from_state(request.app.state)


def get_clients_from_state(state: Any) -> Clients:
    missing = [
        name for name in ("graph", "vectors", "embedder") if getattr(state, name, None) is None
    ]
    if missing:
        raise StoreUnavailable(f"not connected: {', '.join(missing)}")
    return Clients(
        state.graph, state.vectors, state.embedder, state.settings, getattr(state, "keywords", None)
    )


async def call_store(settings: Settings, fn: Callable[[], T], *, what: str = "the index") -> T:
    """Run blocking store work off the event loop; past `store_timeout_s` the request is
    answered 503 (the thread finishes on its own: drivers cannot be interrupted safely)."""
    try:
        return await asyncio.wait_for(run_in_threadpool(fn), timeout=settings.store_timeout_s)
    except TimeoutError as exc:
        raise StoreUnavailable(
            f"{what} did not answer within {settings.store_timeout_s:g} s"
        ) from exc


def get_search_admission(request: Request) -> SearchAdmission:
    admission: SearchAdmission = request.app.state.search_admission
    return admission


ClientsDep = Annotated[Clients, Depends(get_clients)]
SearchAdmissionDep = Annotated[SearchAdmission, Depends(get_search_admission)]
PrincipalDep = Annotated[str, Depends(request_principal)]
# Who is asking (tenant, groups, roles): what document reads and writes are scoped by.
AccessDep = Annotated[Principal, Depends(request_access)]
