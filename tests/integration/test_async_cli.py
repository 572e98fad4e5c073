"""`lexgraph ingest --async` across a restart of the API, on real processes: Redis, the
test Neo4j, the API owning the embedded vectors (uvicorn, as the Dockerfile runs it) and
one Celery worker. The API is stopped right after the job is submitted and started again
on the same port a few seconds later; the command waits for it, follows the same job to
its end and exits 0. Everything here is stopped by its pid."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from services.core.neo4j_local import LocalNeo4j, free_port
from services.worker import worker_command
from tests.live_stack import (
    REPO,
    empty_store,
    http_ok,
    spawn,
    stack_env,
    start_redis,
    stop,
    wait_for,
)

pytestmark = pytest.mark.integration

FIXTURES = REPO / "tests" / "fixtures" / "readers"
SOURCES = ["regulation_en.md", "plain_thai.txt", "ministerial_regulation.md"]


def _api(env: dict[str, str], root: Path, port: int) -> subprocess.Popen[bytes]:
    return spawn(
        [sys.executable, "-m", "uvicorn", "services.api.main:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env, cwd=REPO, log=root / "api.log",
    )  # fmt: skip


@pytest.mark.timeout(900)
def test_async_ingest_waits_for_a_restarted_api_and_follows_the_job_to_its_end(
    neo4j_server: LocalNeo4j, tmp_path: Path
) -> None:
    redis_port, port = free_port(), free_port()
    url = f"http://127.0.0.1:{port}"
    env = stack_env(
        tmp_path,
        neo4j_server,
        LEXGRAPH_API_PORT=str(port),
        LEXGRAPH_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
        LEXGRAPH_BROKER_URL=f"redis://127.0.0.1:{redis_port}/1",
        LEXGRAPH_VECTOR_OWNER_URL=url,
        LEXGRAPH_INTERNAL_TOKEN=uuid.uuid4().hex,
        LEXGRAPH_WORKER_METRICS_PORT="0",
    )
    empty_store(neo4j_server).close()
    redis = start_redis(tmp_path, redis_port)
    api = _api(env, tmp_path, port)
    worker = spawn(worker_command("INFO", "w0@lexgraph-cli-test"), env=env, cwd=tmp_path,
                   log=tmp_path / "worker.log")  # fmt: skip
    cli = None
    try:
        wait_for(lambda: http_ok(url + "/readyz"), 120, "the API to be ready")
        err = tmp_path / "cli.err"
        cli = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "ingest", "--async", "--api-url", url,
             *(str(FIXTURES / name) for name in SOURCES)],
            env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=err.open("wb"),
        )  # fmt: skip
        wait_for(lambda: "submitted" in err.read_text(errors="replace"), 60, "the submission")
        stop(api)  # SIGTERM, as a restart does
        time.sleep(5)
        api = _api(env, tmp_path, port)
        code = cli.wait(timeout=600)
        text = err.read_text(errors="replace")
        print(text[-3000:])
        assert code == 0, text
        assert "does not answer" in text and "answers again" in text
        assert "succeeded: 3 laws done" in text
        assert "Traceback" not in text
    finally:
        if cli is not None and cli.poll() is None:
            cli.kill()
            cli.wait(timeout=10)
        stop(worker)
        stop(api)
        stop(redis)
