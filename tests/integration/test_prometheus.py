"""Every PromQL expression of every Grafana dashboard panel returns data from a real
Prometheus (Debian's `prometheus`) scraping a real stack: the API under uvicorn and a
Celery worker (prefork, multiprocess metrics) on Redis, Neo4j from tests/conftest.py.
The test ingests the PDPA as a job and sends search, REST, MCP and error traffic after
Prometheus has started, so rates and quantiles have something to compute."""

from __future__ import annotations

import json
import math
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j, free_port
from tests.live_stack import (
    PDPA,
    REPO,
    http_ok,
    spawn,
    stack_env,
    start_api,
    stop,
    wait_for,
)

pytestmark = pytest.mark.integration

DASHBOARDS = REPO / "deploy" / "grafana" / "dashboards"
PROMETHEUS = shutil.which("prometheus")
REDIS_SERVER = shutil.which("redis-server")
RATE_INTERVAL = "30s"  # what Grafana's $__rate_interval becomes at a 1 s scrape interval
LAW = "th-pdpa-2562"


def _panel_queries() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(DASHBOARDS.glob("*.json")):
        board = json.loads(path.read_text(encoding="utf-8"))
        for panel in board["panels"]:
            for target in panel.get("targets", []):
                found.append((path.name, panel["title"], target["expr"]))
    return found


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    if PROMETHEUS is None or REDIS_SERVER is None:
        pytest.skip("needs Debian's prometheus and redis-server")
    root = tmp_path_factory.mktemp("prom-stack")
    procs: list[Any] = []
    try:
        redis_port = free_port()
        procs.append(spawn(
            [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(redis_port), "--dir", str(root),
             "--save", "", "--appendonly", "no"],
            env={}, cwd=root, log=root / "redis.log",
        ))  # fmt: skip
        api_port, worker_port, prom_port = free_port(), free_port(), free_port()
        api_url = f"http://127.0.0.1:{api_port}"
        env = stack_env(
            root, neo4j_server,
            LEXGRAPH_API_PORT=str(api_port),
            LEXGRAPH_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
            LEXGRAPH_BROKER_URL=f"redis://127.0.0.1:{redis_port}/1",
            LEXGRAPH_VECTOR_OWNER_URL=api_url,
            LEXGRAPH_INTERNAL_TOKEN=uuid.uuid4().hex,
            LEXGRAPH_WORKER_METRICS_HOST="127.0.0.1",
            LEXGRAPH_WORKER_METRICS_PORT=str(worker_port),
        )  # fmt: skip
        (root / "data").mkdir()
        wipe = BoltGraphStore(
            neo4j_server.bolt_uri, user=neo4j_server.user,
            password=neo4j_server.password, database=neo4j_server.database,
        )  # fmt: skip
        wipe.run_cypher("MATCH (n) DETACH DELETE n", write=True)
        wipe.close()

        procs.append(start_api(root, env, api_port))
        multiproc = root / "worker-metrics"
        multiproc.mkdir()
        procs.append(spawn(
            [sys.executable, "-m", "celery", "-A", "services.worker.celery_app", "worker",
             "--pool", "prefork", "--concurrency", "2", "--loglevel", "INFO",
             "-n", "prom@lexgraph-test", "--without-gossip", "--without-mingle"],
            env={**env, "PROMETHEUS_MULTIPROC_DIR": str(multiproc)}, cwd=REPO,
            log=root / "worker.log",
        ))  # fmt: skip
        worker_metrics = f"http://127.0.0.1:{worker_port}/metrics"
        wait_for(lambda: http_ok(worker_metrics), 60, "the worker's metrics port")

        config = root / "prometheus.yml"
        config.write_text(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
            "scrape_configs:\n"
            f"  - job_name: lexgraph-api\n    static_configs: [{{targets: ['127.0.0.1:{api_port}']}}]\n"
            f"  - job_name: lexgraph-worker\n    static_configs: [{{targets: ['127.0.0.1:{worker_port}']}}]\n",
            encoding="utf-8",
        )
        prom_url = f"http://127.0.0.1:{prom_port}"
        procs.append(spawn(
            [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={root / 'tsdb'}",
             f"--web.listen-address=127.0.0.1:{prom_port}"],
            env={}, cwd=root, log=root / "prometheus.log",
        ))  # fmt: skip
        wait_for(lambda: http_ok(prom_url + "/-/ready"), 60, "prometheus to be ready")
        wait_for(lambda: _targets_up(prom_url) == 2, 30, "both scrape targets up")
        yield {"api": api_url, "prometheus": prom_url, "root": root}
    finally:
        for proc in reversed(procs):
            stop(proc)


def _targets_up(prom_url: str) -> int:
    try:
        result = _query(prom_url, "sum(up)")
    except (httpx.HTTPError, AssertionError):
        return 0
    return int(float(result[0]["value"][1])) if result else 0


def _query(prom_url: str, expr: str) -> list[dict[str, Any]]:
    r = httpx.get(prom_url + "/api/v1/query", params={"query": expr}, timeout=10)
    body = r.json()
    assert body.get("status") == "success", (expr, body)
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


def _send_traffic(api: str) -> None:
    with httpx.Client(base_url=api, timeout=60) as c:
        r = c.post("/v1/jobs/ingest", json={"paths": [str(PDPA)]})
        assert r.status_code == 202, r.text
        job_url = r.headers["location"]
        job = wait_for(lambda: _finished(c, job_url), 180, "the PDPA ingestion job")
        assert job is not None and job["state"] == "succeeded", job
        for question in (
            "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าผิดมีโทษอะไร",
            "มาตรา ๒๖ ข้อมูลอ่อนไหว",
            "Can a company collect employee health data?",
        ):
            assert c.post("/v1/search", json={"query": question}).status_code == 200
        assert c.get(f"/v1/laws/{LAW}/summary").status_code == 200
        assert c.get(f"/v1/laws/{LAW}/sections/26/penalties").status_code == 200
        assert c.get("/v1/laws/no-such-law/summary").status_code == 404
        assert c.post("/v1/search", json={"query": ""}).status_code == 422
        headers = {"Accept": "application/json, text/event-stream"}
        for name, args in (("get_penalties", {"section": f"{LAW}:s:26"}),
                           ("get_section_text", {"section": "9999"})):  # fmt: skip
            rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": name, "arguments": args}}  # fmt: skip
            assert c.post("/mcp", json=rpc, headers=headers).status_code == 200


def _finished(c: httpx.Client, url: str) -> dict[str, Any] | None:
    job: dict[str, Any] = c.get(url).json()
    return job if job.get("state") in ("succeeded", "failed", "cancelled") else None


@pytest.fixture(scope="module")
def scraped(stack: dict[str, Any]) -> str:
    _send_traffic(stack["api"])
    time.sleep(4)  # a few 1 s scrapes after the last request
    return str(stack["prometheus"])


def test_dashboards_exist_with_queries() -> None:
    names = {p.name for p in DASHBOARDS.glob("*.json")}
    assert names == {"lexgraph-api.json", "lexgraph-retrieval.json", "lexgraph-ingestion.json"}
    assert len(_panel_queries()) >= 15


@pytest.mark.parametrize(
    ("board", "title", "expr"), _panel_queries(), ids=[f"{b}:{t}" for b, t, _ in _panel_queries()]
)
def test_every_panel_query_returns_data(scraped: str, board: str, title: str, expr: str) -> None:
    result = _query(scraped, expr.replace("$__rate_interval", RATE_INTERVAL))
    assert result, f"{board} / {title}: no series for {expr}"
    values = [float(series["value"][1]) for series in result]
    assert any(math.isfinite(v) for v in values), f"{board} / {title}: only NaN for {expr}"


def test_worker_reports_the_ingestion(scraped: str) -> None:
    tasks = _query(scraped, 'sum(lexgraph_worker_tasks_total{state="success"})')
    assert tasks and float(tasks[0]["value"][1]) >= 1
    sections = _query(scraped, 'sum(lexgraph_sections_ingested_total{job="lexgraph-worker"})')
    assert sections and float(sections[0]["value"][1]) >= 96


def test_stage_latencies_cover_every_retrieval_stage(scraped: str) -> None:
    result = _query(scraped, "sum by (stage) (lexgraph_retrieval_stage_duration_seconds_count) > 0")
    assert {r["metric"]["stage"] for r in result} == {
        "analysis", "embedding", "vector_search", "graph_walk", "assembly"
    }  # fmt: skip
