"""The FastAPI app factory. Stateless: every request reads what it needs from the stores;
the only state is the clients the lifespan builds once (through `services.core.bootstrap`).

    uvicorn --factory services.api.main:create_app      # or: lexgraph serve

Settings a process cannot start with (production without any API key) end a factory
start (`create_app()` without arguments, as uvicorn calls it) with one line on stderr and
exit code 1; a caller that passes its own settings gets the `ConfigurationError`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from services.api import metrics, problems, security
from services.api.admission import SearchAdmission
from services.api.deps import Clients
from services.api.limits import BodyLimitMiddleware
from services.api.routes import documents, health, laws, search
from services.core.errors import ConfigurationError
from services.core.settings import Settings, get_settings

log = logging.getLogger(__name__)

DESCRIPTION = """\
Statute GraphRAG: hybrid vector seeding over section chunks and graph profiles, then a
walk of at most two hops over the citation graph (citations, penalties, definitions,
exemptions), returning the sections a lawyer must read with the path that links each one.
Errors are RFC 9457 `application/problem+json`.
"""


def create_app(settings: Settings | None = None, *, clients: Clients | None = None) -> FastAPI:
    """The API. With `clients` (tests) nothing is built; otherwise the lifespan builds the
    graph store, the vector index (this process owns an embedded one) and the embedder."""
    if settings is None:  # the uvicorn factory: an entry point
        try:
            return create_app(get_settings(), clients=clients)
        except ConfigurationError as e:
            raise SystemExit(f"lexgraph: {e}") from None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        built = clients is None
        if built:
            _open_clients(app, settings)
        else:
            assert clients is not None  # noqa: S101
            _set_clients(app, clients.graph, clients.vectors, clients.embedder)
        try:
            yield
        finally:
            app.state.search_admission.close()
            if built:
                _close_clients(app)

    app = FastAPI(
        title="lexgraph",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.search_admission = SearchAdmission(
        concurrency=settings.search_concurrency,
        queue=settings.search_queue,
        queue_wait_s=settings.search_queue_wait_s,
    )
    _set_clients(app, None, None, None)
    problems.install_problem_handlers(app)
    app.include_router(search.router)
    app.include_router(laws.router)
    app.include_router(documents.router)
    app.include_router(health.router)
    _install_optional(app, settings, with_jobs=clients is None)
    return app


def _set_clients(app: FastAPI, graph: Any, vectors: Any, embedder: Any) -> None:
    app.state.graph, app.state.vectors, app.state.embedder = graph, vectors, embedder


def _open_clients(app: FastAPI, settings: Settings) -> None:
    """Each client on its own: a store that is down at startup leaves the app up, /healthz
    answering and /readyz (and the routes that need that store) answering 503."""
    from services.core import bootstrap

    try:
        bootstrap.ensure_local_graph(settings)
    except Exception as exc:  # the server may be started later, or managed elsewhere
        log.warning("local graph database not started: %s", exc)
    graph = _try("graph store", lambda: bootstrap.build_graph_store(settings))
    # This process owns the vectors; an embedded store another process holds now is
    # opened on a later request, once that process has let go of it.
    vectors = bootstrap.build_owner_vectors(settings)
    _try("vector index", lambda: vectors.count("chunks"))  # open it now, or say why not
    embedder = _try("embedder", lambda: bootstrap.build_worker_embedder(settings))
    _set_clients(app, graph, vectors, embedder)
    app.state.keywords = bootstrap.build_keyword_source(settings)
    _warm_up(graph, vectors, embedder, settings)
    if settings.vector_backend == "edge" and vectors is not None:
        from services.core.remote_vectors import internal_token

        app.state.internal_token = internal_token(settings, create=True)
    _open_jobs(app, settings)


def _warm_up(graph: Any, vectors: Any, embedder: Any, settings: Settings) -> None:
    """Pay the one-off costs before the first request, not inside its deadline: PyThaiNLP's
    dictionary (~1-3 s), the embedding model's first call, and the graph database's first
    plans of the search queries (the first search after a start took 2.0-2.9 s at load
    ~20 on the 2-core machine, the next 0.3-0.6 s: past the 2 s deadline, a 503)."""
    from services.core import retrieval
    from services.core.analysis import analyse_question

    question = "บริษัทเก็บข้อมูลสุขภาพได้ไหม มาตรา ๒๖ penalty"
    analyse_question(question)
    if embedder is not None:
        try:
            embedder.embed_query("ข้อมูลส่วนบุคคล personal data")
        except Exception as exc:
            log.warning("embedder warm-up failed: %s", exc)
    if graph is not None and vectors is not None and embedder is not None:
        try:
            retrieval.search(question, graph=graph, vectors=vectors, embedder=embedder,
                             settings=settings)  # fmt: skip
        except Exception as exc:  # an empty or unready store: the first request will say
            log.warning("search warm-up failed: %s", exc)


def _open_jobs(app: FastAPI, settings: Settings) -> None:
    if not getattr(app.state, "jobs_enabled", False):
        return
    from services.core import bootstrap
    from services.core.bulk import LawDeps
    from services.core.sources import IngestLimits, SourceRoots

    graph, vectors, embedder = app.state.graph, app.state.vectors, app.state.embedder
    deps = (
        LawDeps(
            graph=graph,
            vectors=vectors,
            embedder=embedder,
            source_name=SourceRoots.from_settings(settings).public_name,
            limits=IngestLimits.from_settings(settings),
        )
        if graph and vectors and embedder
        else None
    )
    try:
        jobs = bootstrap.build_job_store(settings)
        app.state.jobs = jobs
        app.state.job_dispatcher = bootstrap.build_job_dispatcher(settings, jobs, deps)
    except Exception as exc:
        log.warning("bulk jobs unavailable: %s", exc)


def _try(what: str, build: Any) -> Any:
    try:
        return build()
    except Exception as exc:
        log.warning("%s not available at startup: %s", what, exc)
        return None


def _close_clients(app: FastAPI) -> None:
    for name in ("graph", "vectors", "keywords"):
        client = getattr(app.state, name, None)
        if client is not None:
            try:
                client.close()
            except Exception as exc:
                log.warning("closing %s: %s", name, exc)


def _install_optional(app: FastAPI, settings: Settings, *, with_jobs: bool) -> None:
    """Middleware (body limits, API keys, metrics) and the routers beyond the core ones
    (MCP, jobs, the internal vector endpoint)."""
    # Middleware added last runs first: metrics outermost, so 401s are counted too; the
    # key check before the body limits, so no body is read for a caller without a key.
    app.add_middleware(
        BodyLimitMiddleware,
        max_json_bytes=settings.max_json_body_bytes,
        max_upload_bytes=settings.max_upload_bytes,
        max_depth=settings.max_json_depth,
    )
    security.install_api_keys(app, settings)
    metrics.install_metrics(app)
    try:
        from services.api.mcp_server import ToolClients, mount_mcp

        def tool_clients() -> ToolClients:
            from services.api.deps import get_clients_from_state

            c = get_clients_from_state(app.state)
            return ToolClients(
                c.graph, c.vectors, c.embedder, c.settings, app.state.search_admission, c.keywords
            )

        mount_mcp(app, tool_clients, settings)
    except ImportError as exc:  # pragma: no cover
        log.warning("MCP not mounted: %s", exc)
    if settings.vector_backend == "edge":
        from services.api.routes import internal_vectors

        app.include_router(internal_vectors.router)
    app.state.jobs_enabled = with_jobs  # the lifespan opens the job store only when it builds
    from services.api.routes import jobs

    app.include_router(jobs.router)
