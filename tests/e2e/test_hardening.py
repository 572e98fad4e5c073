"""Issue 21 end to end, on real processes: the API (uvicorn, production mode, two API keys)
with a real Neo4j, Redis and the embedded vectors, jobs run in its own thread.

- Sources: only uploads and files under the configured source roots; everything else
  (/etc/passwd, `../`, a link out of a root, a missing file) is 403 with one body; stored
  laws and job answers name sources relative to their root or by the upload's name.
- Jobs belong to the key that submitted them.
- The hand-made 500s of the issue answer 4xx, and the connection keeps working.
- A production start without keys exits with one line; an API that found the embedded
  vectors held by another process takes them over once they are free, without a restart.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.core.neo4j_local import LocalNeo4j, free_port
from tests.live_stack import (
    REPO,
    empty_store,
    http_ok,
    spawn,
    stack_env,
    start_api,
    start_redis,
    stop,
    wait_for,
)

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

PROBLEM = "application/problem+json"
FIXTURES = REPO / "tests" / "fixtures" / "readers"
KEY_A = "lexgraph-test-key-a-6c1f0b2e"
KEY_B = "lexgraph-test-key-b-93d7aa41"
FINAL = ("succeeded", "failed", "cancelled")


@dataclass
class Api:
    url: str
    root: Path
    sources: Path

    def client(self, key: str | None = KEY_A) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


@pytest.fixture(scope="module")
def api(neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    root = tmp_path_factory.mktemp("hardening")
    sources = root / "sources"
    (sources / "laws").mkdir(parents=True)
    shutil.copy(FIXTURES / "regulation_en.md", sources / "laws" / "regulation_en.md")
    os.symlink("/etc/passwd", sources / "laws" / "passwd.md")  # a link out of the root
    (root / "outside.md").write_text("# Outside Act\n\n### Article 1\nText.\n", encoding="utf-8")
    redis_port = free_port()
    redis = start_redis(root, redis_port)
    port = free_port()
    env = stack_env(
        root,
        neo4j_server,
        LEXGRAPH_API_PORT=str(port),
        LEXGRAPH_ENVIRONMENT="production",
        LEXGRAPH_API_KEYS_SHA256=json.dumps([_sha(KEY_A), _sha(KEY_B)]),
        LEXGRAPH_SOURCE_ROOTS=json.dumps([str(sources)]),
        LEXGRAPH_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
    )
    empty_store(neo4j_server).close()
    proc = start_api(root, env, port)
    try:
        yield Api(f"http://127.0.0.1:{port}", root, sources)
    finally:
        stop(proc)
        stop(redis)


def _sha(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _final(client: httpx.Client, job_id: str, timeout_s: float = 300) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        job = client.get(f"/v1/jobs/{job_id}").json()
        return job if job["state"] in FINAL else None

    return wait_for(done, timeout_s, f"job {job_id}", interval_s=0.5)


def test_paths_outside_the_source_roots_are_403_with_one_body(api: Api) -> None:
    probes = [
        "/etc/passwd",  # exists
        "/etc/lexgraph-no-such-file",  # does not
        "../../../../../../etc/passwd",  # traversal from a root
        "laws/../../outside.md",  # traversal to a file that exists next to the root
        str(api.root / "outside.md"),  # the same, absolute
        "laws/passwd.md",  # a link inside the root that leads out of it
        "laws/missing.md",  # inside the root, missing
        str(api.sources.parent),  # the folder above the root
    ]
    with api.client() as c:
        answers = [c.post("/v1/jobs/ingest", json={"paths": [p]}) for p in probes]
        listed = c.get("/v1/jobs").json()["jobs"]
    for probe, r in zip(probes, answers, strict=True):
        assert r.status_code == 403, (probe, r.text)
        assert r.headers["content-type"].startswith(PROBLEM)
    bodies = {r.content for r in answers}
    assert len(bodies) == 1, bodies
    body = answers[0].json()
    print(f"\n403 body for all {len(probes)} probes: {body}")
    assert body["status"] == 403 and "source roots" in body["detail"]
    assert "passwd" not in answers[0].text and str(api.root) not in answers[0].text
    assert listed == []  # nothing was recorded


def test_a_folder_under_a_root_is_ingested_named_relative_and_its_outward_link_left_out(
    api: Api,
) -> None:
    with api.client() as c:
        r = c.post("/v1/jobs/ingest", json={"paths": ["laws"]})
        assert r.status_code == 202, r.text
        assert r.json()["sources"] == ["laws/regulation_en.md"]  # passwd.md left out
        job = _final(c, r.json()["id"])
        laws = c.get("/v1/laws")
    assert job["state"] == "succeeded", job
    listed = {law["law"]: law for law in laws.json()["laws"]}
    assert listed["test-regulation-on-personal-records"]["source"] == "laws/regulation_en.md"
    assert str(api.root) not in laws.text and str(api.root) not in json.dumps(job)


def test_an_upload_is_ingested_and_named_by_its_file_name(api: Api) -> None:
    upload = (FIXTURES / "plain_thai.txt").read_bytes()
    with api.client() as c:
        r = c.post("/v1/jobs/ingest", files=[("files", ("plain_thai.txt", upload))])
        assert r.status_code == 202, r.text
        assert r.json()["sources"] == ["plain_thai.txt"]
        job = _final(c, r.json()["id"])
        with_laws = c.get(f"/v1/jobs/{job['id']}", params={"laws": "true"}).json()
        laws = c.get("/v1/laws")
    assert job["state"] == "succeeded", job
    assert [e["source"] for e in with_laws["law_entries"]] == ["plain_thai.txt"]
    sources = {law["law"]: law.get("source") for law in laws.json()["laws"]}
    assert "plain_thai.txt" in sources.values(), sources
    assert str(api.root) not in laws.text


def test_jobs_belong_to_the_key_that_submitted_them(api: Api) -> None:
    with api.client(KEY_A) as a, api.client(KEY_B) as b, api.client(None) as anonymous:
        submitted = a.post("/v1/jobs/ingest", json={"paths": ["laws/regulation_en.md"]})
        assert submitted.status_code == 202
        job_id = submitted.json()["id"]
        _final(a, job_id)
        unknown = b.get("/v1/jobs/0123456789abcdef0123456789abcdef")
        for method, path in (
            ("GET", f"/v1/jobs/{job_id}"),
            ("POST", f"/v1/jobs/{job_id}/cancel"),
            ("DELETE", f"/v1/jobs/{job_id}"),
            ("POST", f"/v1/jobs/{job_id}/retry"),
        ):
            r = b.request(method, path)
            assert r.status_code == 404, (method, r.text)
            assert r.json()["title"] == unknown.json()["title"]
            assert r.json()["detail"] == f"job {job_id}"
        assert job_id not in {j["id"] for j in b.get("/v1/jobs").json()["jobs"]}
        assert b.get("/v1/jobs/deadletter").json()["dead_letters"] == []
        assert anonymous.get(f"/v1/jobs/{job_id}").status_code == 401
        # the owner still sees it, cancels (a no-op now), retries (nothing to), deletes it
        assert a.get(f"/v1/jobs/{job_id}").json()["state"] == "succeeded"
        assert job_id in {j["id"] for j in a.get("/v1/jobs").json()["jobs"]}
        assert a.post(f"/v1/jobs/{job_id}/cancel").json()["state"] == "succeeded"
        assert a.post(f"/v1/jobs/{job_id}/retry").status_code == 409
        assert a.delete(f"/v1/jobs/{job_id}").status_code == 204
        assert a.get(f"/v1/jobs/{job_id}").status_code == 404
        assert job_id not in {j["id"] for j in a.get("/v1/jobs").json()["jobs"]}


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/v1/jobs/ingest", b"[" * 50_000 + b"]" * 50_000, 400),
        ("/v1/search", b'{"query": "' + b"[" * 50_000 + b'"}', 422),  # brackets in a string
        ("/v1/search", b'{"query": "x", "laws": ["\\ud800"]}', 422),
        ("/v1/jobs/ingest", b'{"paths": ["\\ud800"]}', 422),
        ("/v1/search", b'{"query": "\\udfff ok"}', 422),
        ("/v1/search", b'{"query": "x", "max_hops": false}', 422),
        ("/v1/search", b'{"query": "x", "top_k": 2.5}', 422),
        ("/v1/jobs/ingest", b'{"paths": "laws"}', 422),
        ("/v1/jobs/ingest", b"not json", 422),
        ("/v1/search", b"x" * (2 * 1024 * 1024), 413),
    ],
)
def test_hand_made_bodies_get_a_4xx_and_the_connection_keeps_working(
    api: Api, path: str, body: bytes, status: int
) -> None:
    with api.client() as c:
        r = c.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith(PROBLEM) and r.json()["status"] == status
        if status != 413:  # a 413 closes the connection on purpose (the rest is unread)
            assert c.get("/v1/laws").status_code == 200  # the same keep-alive connection


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "uvicorn", "services.api.main:create_app", "--factory",
         "--host", "127.0.0.1", "--port", "0"],
        [sys.executable, "-m", "services.cli", "serve", "--port", "0"],
    ],
)  # fmt: skip
def test_production_without_keys_exits_with_one_line(tmp_path: Path, command: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
    env.update(LEXGRAPH_ENVIRONMENT="production", LEXGRAPH_DATA_DIR=str(tmp_path))
    done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 1, output
    assert "Traceback" not in output, output
    assert output.splitlines()[-1].startswith(
        "lexgraph: LEXGRAPH_API_KEYS_SHA256 and LEXGRAPH_API_PRINCIPALS are empty"
    ), output


HOLDER = r"""
import sys, time
from pathlib import Path
from services.core.vector_index import EdgeVectorIndex
index = EdgeVectorIndex(Path(sys.argv[1]), prefix="lexgraph")
index.ensure_collections(512)
print("holding", flush=True)
Path(sys.argv[2]).touch()
while not Path(sys.argv[3]).exists():
    time.sleep(0.1)
index.close()
"""


def test_vectors_held_at_start_are_taken_over_once_free_without_a_restart(
    neo4j_server: LocalNeo4j, tmp_path: Path
) -> None:
    port = free_port()
    env = stack_env(tmp_path, neo4j_server, LEXGRAPH_API_PORT=str(port))
    vectors = tmp_path / "data" / "vectors"
    vectors.mkdir(parents=True)
    holding, release = tmp_path / "holding", tmp_path / "release"
    holder = spawn([sys.executable, "-c", HOLDER, str(vectors), str(holding), str(release)],
                   env=env, cwd=REPO, log=tmp_path / "holder.log")  # fmt: skip
    api = None
    try:
        wait_for(holding.exists, 60, "the other process to hold the vectors")
        api = spawn([sys.executable, "-m", "uvicorn", "services.api.main:create_app",
                     "--factory", "--host", "127.0.0.1", "--port", str(port),
                     "--log-level", "warning"], env=env, cwd=REPO, log=tmp_path / "api.log")  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        wait_for(lambda: http_ok(url + "/healthz"), 120, "the API to start")
        ready = httpx.get(url + "/readyz", timeout=10)
        assert ready.status_code == 503, ready.text
        assert "another process holds" in ready.json()["checks"]["vectors"]
        release.touch()
        holder.wait(timeout=30)
        started = time.monotonic()
        wait_for(lambda: http_ok(url + "/readyz"), 30, "the API to take the vectors over")
        print(f"\nvectors taken over {time.monotonic() - started:.1f} s after the holder exited")
        assert api.poll() is None  # the same process: no restart
        assert httpx.get(url + "/readyz", timeout=10).json()["checks"]["vectors"] == "ok"
    finally:
        stop(api)
        stop(holder)
