"""Real processes for the end-to-end tiers: the API under uvicorn, Redis, Celery workers
and Prometheus, each on a free 127.0.0.1 port under a temp dir, each stopped by its pid
(and process group, which it leads). Nothing here touches a process it did not start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import httpx

from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j

REPO = Path(__file__).resolve().parents[1]
PDPA = REPO / "data" / "th-pdpa-2562" / "about.md"
T = TypeVar("T")


def wait_for(predicate: Callable[[], T], timeout_s: float, what: str, interval_s: float = 0.2) -> T:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval_s)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")


def http_ok(url: str, headers: Mapping[str, str] | None = None) -> bool:
    try:
        return httpx.get(url, timeout=2, headers=dict(headers or {})).status_code == 200
    except httpx.HTTPError:
        return False


def spawn(
    cmd: list[str], *, env: Mapping[str, str], cwd: Path, log: Path
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cmd, env=dict(env), cwd=cwd, stdout=log.open("ab"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def stop(proc: subprocess.Popen[bytes] | None, timeout_s: float = 15) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def empty_store(server: LocalNeo4j) -> BoltGraphStore:
    """A store on the test server's database, with everything earlier tests wrote deleted."""
    store = BoltGraphStore(
        server.bolt_uri, user=server.user, password=server.password, database=server.database
    )
    store.run_cypher("MATCH (n) DETACH DELETE n", write=True)
    return store


def stack_env(root: Path, neo4j: LocalNeo4j, **extra: str) -> dict[str, str]:
    """LEXGRAPH_* settings for processes sharing one data dir and the test Neo4j."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
    return {
        **keep,
        "LEXGRAPH_DATA_DIR": str(root / "data"),
        "LEXGRAPH_GRAPH_BACKEND": "neo4j",
        "LEXGRAPH_GRAPH_URI": neo4j.bolt_uri,
        "LEXGRAPH_GRAPH_USER": neo4j.user,
        "LEXGRAPH_GRAPH_PASSWORD": neo4j.password,
        "LEXGRAPH_GRAPH_DATABASE": neo4j.database,
        "LEXGRAPH_GRAPH_MANAGE_LOCAL": "false",
        "LEXGRAPH_NEO4J_HTTP_PORT": str(neo4j.http_port),
        "LEXGRAPH_STORE_TIMEOUT_S": "10",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def start_api(root: Path, env: Mapping[str, str], port: int) -> subprocess.Popen[bytes]:
    """`uvicorn --factory services.api.main:create_app`, as the Dockerfile runs it."""
    proc = spawn(
        [sys.executable, "-m", "uvicorn", "services.api.main:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env, cwd=REPO, log=root / "api.log",
    )  # fmt: skip
    try:
        wait_for(lambda: http_ok(f"http://127.0.0.1:{port}/readyz"), 120, "the API to be ready")
    except AssertionError:
        stop(proc)
        raise AssertionError((root / "api.log").read_text(errors="replace")[-4000:]) from None
    return proc


def ingest_inline(env: Mapping[str, str], *paths: Path) -> Any:
    """Ingest with this process owning the stores (what `lexgraph ingest` does when no
    server runs), then close them so the API can open the embedded vectors."""
    from services.core import bootstrap
    from services.core.ingestion import ingest_paths
    from services.core.settings import Settings

    fields: dict[str, Any] = {
        k.removeprefix("LEXGRAPH_").lower(): v for k, v in env.items() if k.startswith("LEXGRAPH_")
    }
    settings = Settings(**fields)
    graph = bootstrap.build_graph_store(settings)
    vectors = bootstrap.build_worker_vectors(settings)
    try:
        embedder = bootstrap.build_worker_embedder(settings)
        report = ingest_paths(list(paths), graph=graph, vectors=vectors, embedder=embedder)
    finally:
        vectors.close()
        graph.close()
    assert report.ok, report.errors
    return report


REDIS_SERVER = "/usr/bin/redis-server"


def start_redis(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """Debian's redis-server on 127.0.0.1:`port`, data under `folder` (stop it with stop)."""
    import redis

    proc = spawn(
        [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder),
         "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
        env=os.environ, cwd=folder, log=folder / "redis.log",
    )  # fmt: skip
    client = redis.Redis(host="127.0.0.1", port=port)

    def pings() -> bool:
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False

    try:
        wait_for(pings, 15, "redis-server")
    except AssertionError:
        stop(proc)
        raise
    finally:
        client.close()
    return proc
