"""Bulk ingestion jobs against real servers: a Redis (Debian `redis-server`) started here
on a free port under a temp dir, Neo4j from tests/conftest.py, the API process owning
the embedded vectors, and Celery worker processes (killed with SIGKILL mid-corpus).

Everything this module starts it stops by pid; nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ingest.parse import read_source
from services.core.errors import GraphUnavailable, NotFound
from services.core.jobs import LawEntry, RedisJobStore
from services.core.neo4j_local import free_port
from services.worker import worker_command
from tests.live_stack import empty_store, http_ok, wait_for

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
NITIBENCH = SHARED / "corpus" / "nitibench-ccl-laws"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
MAX_UPLOAD_BYTES = 4 * 1024 * 1024
INLINE_DOCUMENT_BYTES = 256 * 1024


def _probe_rounds(path: Path) -> int:
    """Rounds the probe has finished (0 while the file is missing or being rewritten)."""
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return 0


def stop_pid(
    proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM, timeout_s: float = 15
) -> None:
    """Stop a process this module started (and its process group, which it leads)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip("redis-server not installed")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    proc = subprocess.Popen(
        [
            REDIS_SERVER,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "yes",
            "--protected-mode",
            "yes",
        ],
        stdout=(folder / "redis.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=port)
        wait_for(lambda: _pings(client), 10, "redis-server")
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop_pid(proc)


def _pings(client) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(client.ping())
    except Exception:
        return False


@pytest.fixture
def store(redis_url: str) -> Iterator[RedisJobStore]:
    s = RedisJobStore.from_url(redis_url)
    yield s
    s.close()


# --- the job store ----------------------------------------------------------------------


def test_job_counts_each_law_once_even_when_a_task_runs_twice(store: RedisJobStore) -> None:
    job = store.create(["/corpus"])
    store.plan(
        job.id,
        [LawEntry("a", "pending", "a.json", 10), LawEntry("b", "pending", "b.json", 5)],
        sections_total=15,
    )
    store.mark_fanned_out(job.id)
    assert store.start_law(job.id, "a", "a.json")
    assert store.finish_law(job.id, "a", status="succeeded", source="a.json", sections=10)
    # the redelivered copy of the same task
    assert not store.start_law(job.id, "a", "a.json")
    assert not store.finish_law(job.id, "a", status="succeeded", source="a.json", sections=10)
    running = store.get(job.id)
    assert (running.state, running.laws_done, running.sections_done) == ("running", 1, 10)
    assert running.eta_s is not None
    # the last law reports that the job is ready for its finishing step
    assert store.finish_law(job.id, "b", status="unchanged", source="b.json", sections=5) == 2
    assert store.get(job.id).state == "running"
    done = store.complete(job.id)
    assert (done.state, done.laws_done, done.laws_unchanged, done.sections_done) == (
        "succeeded",
        2,
        1,
        15,
    )
    assert done.eta_s is None


def test_failed_law_goes_to_dead_letters_and_fails_the_job(store: RedisJobStore) -> None:
    job = store.create(["/corpus"])
    store.plan(
        job.id,
        [LawEntry("good", "pending", "g.json", 3), LawEntry("bad", "pending", "b.json", 0)],
        sections_total=3,
    )
    store.mark_fanned_out(job.id)
    store.finish_law(job.id, "good", status="succeeded", source="g.json", sections=3)
    store.finish_law(job.id, "bad", status="failed", source="b.json", error="InvalidSource: x")
    final = store.complete(job.id)
    assert final.state == "failed" and final.laws_done == 1 and final.laws_failed == 1
    assert final.errors == {"bad": "InvalidSource: x"}
    assert any(d.job_id == job.id and d.law_id == "bad" for d in store.dead_letters())
    assert store.retry_sources(job.id) == ["b.json"]
    assert job.id in {j.id for j in store.list_jobs(state="failed")}
    # a later success of the same law clears its dead letter
    retry = store.create(["b.json"], retry_of=job.id)
    store.plan(retry.id, [LawEntry("bad", "pending", "b.json", 2)], sections_total=2)
    store.mark_fanned_out(retry.id)
    store.finish_law(retry.id, "bad", status="succeeded", source="b.json", sections=2)
    assert not any(d.law_id == "bad" for d in store.dead_letters())
    assert store.get(retry.id).retry_of == job.id


@pytest.mark.parametrize("error", [RuntimeError("no embedder"), GraphUnavailable("no graph")])
def test_a_law_whose_task_fails_before_it_starts_is_failed_not_left_pending(
    store: RedisJobStore, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """A worker that cannot build its clients (a bug, or a graph down past the last
    retry) fails the law: a pending law is never re-queued, so its job would never end."""
    from services.worker import tasks

    job = store.create(["/corpus"])
    store.plan(job.id, [LawEntry("law", "pending", "l.json", 2)], sections_total=2)
    store.mark_fanned_out(job.id)
    finishing: list[str] = []

    def broken() -> None:
        raise error

    monkeypatch.setitem(tasks._state, "jobs", store)
    monkeypatch.setattr(tasks, "_deps", broken)
    monkeypatch.setattr(
        tasks._Dispatcher, "submit_finish", lambda _, job_id: finishing.append(job_id)
    )
    with pytest.raises(type(error)):  # the task itself fails too (eager: raised here)
        tasks.ingest_law.apply(args=(job.id, "law", "l.json"), retries=tasks.MAX_RETRIES)
    entry = store.law(job.id, "law")
    assert entry is not None and entry.status == "failed"
    assert entry.error == f"{type(error).__name__}: {error}"
    assert finishing == [job.id]  # every law is final: the job is finished
    assert any(d.job_id == job.id and d.law_id == "law" for d in store.dead_letters())


def test_cancel_skips_laws_not_started_and_lets_the_running_one_finish(
    store: RedisJobStore,
) -> None:
    job = store.create(["/corpus"])
    store.plan(job.id, [LawEntry(x, "pending", f"{x}.json", 1) for x in "abc"], sections_total=3)
    store.mark_fanned_out(job.id)
    assert store.start_law(job.id, "a", "a.json")
    cancelling = store.request_cancel(job.id)
    assert cancelling.state == "running" and cancelling.laws_cancelled == 2
    assert not store.start_law(job.id, "b", "b.json")
    assert store.finish_law(job.id, "a", status="succeeded", source="a.json", sections=1) == 2
    final = store.complete(job.id)
    assert (final.state, final.laws_done, final.laws_cancelled) == ("cancelled", 1, 2)


def test_a_law_has_one_runner_until_its_lease_lapses(store: RedisJobStore) -> None:
    assert store.take_lease("j", "law", "first", ttl_s=0.3)
    assert not store.take_lease("j", "law", "second", ttl_s=0.3)
    assert store.renew_lease("j", "law", "first", ttl_s=0.3)
    assert not store.renew_lease("j", "law", "second", ttl_s=0.3)
    time.sleep(0.4)  # the first runner died: nobody renewed
    assert store.take_lease("j", "law", "second", ttl_s=5)
    store.release_lease("j", "law", "first")  # not its lease any more: no effect
    assert not store.take_lease("j", "law", "third", ttl_s=5)
    store.release_lease("j", "law", "second")
    assert store.take_lease("j", "law", "third", ttl_s=5)


class _Recorder:
    def __init__(self) -> None:
        self.laws: list[tuple[str, str, str]] = []

    def submit(self, job_id: str) -> None:
        raise AssertionError("the reaper re-queues laws, not jobs")

    def submit_law(self, job_id: str, law_id: str, source: str) -> None:
        self.laws.append((job_id, law_id, source))

    def submit_finish(self, job_id: str) -> None:
        raise AssertionError("the reaper never finishes a job")


def test_a_dead_runners_law_is_queued_again_after_two_reaper_passes(
    store: RedisJobStore,
) -> None:
    from services.core.bulk import requeue_orphans

    job = store.create(["/corpus"])
    store.plan(job.id, [LawEntry(x, "pending", f"{x}.json", 1) for x in "abc"], sections_total=3)
    store.mark_fanned_out(job.id)
    for law in "ab":
        assert store.start_law(job.id, law, f"{law}.json")
    assert store.take_lease(job.id, "a", "killed-worker", ttl_s=0.2)
    assert store.take_lease(job.id, "b", "live-worker", ttl_s=30)
    time.sleep(0.3)  # the runner of "a" was killed: its lease lapsed
    dispatcher, interval = _Recorder(), 0.3

    def reap() -> list[tuple[str, str]]:
        found = requeue_orphans(store, dispatcher, owner="test", interval_s=interval)
        time.sleep(interval)  # the next turn
        return [x for x in found if x[0] == job.id]

    assert reap() == []  # first sighting: maybe a runner between start and lease
    assert reap() == [(job.id, "a")]
    assert [x for x in dispatcher.laws if x[0] == job.id] == [(job.id, "a", "a.json")]
    entries = {e.law_id: e.status for e in store.laws(job.id)}
    assert entries == {"a": "pending", "b": "running", "c": "pending"}
    assert reap() == [] and reap() == []  # pending until a runner takes it: not again
    assert store.start_law(job.id, "a", "a.json")  # the re-queued task runs it


def test_a_document_job_has_one_unit_and_counts_its_passages_once(
    store: RedisJobStore,
) -> None:
    """A document job is planned whole at creation; the passages embedded are its progress,
    and finishing the unit does not count them again. Its answer names the document and
    nothing of what storing it needs (the upload's path, the uploader)."""
    spec = {"key": "doc-" + "a" * 24, "path": "/srv/uploads/x/document", "principal": {}}
    job = store.create(["policy.md"], owner="key:1", document=spec)
    assert (job.kind, job.laws_total) == ("document", 1)
    assert [(e.law_id, e.status) for e in store.laws(job.id)] == [(spec["key"], "pending")]
    assert job.to_dict()["document"] == {"id": spec["key"]}
    assert "/srv/uploads" not in json.dumps(job.to_dict())
    assert store.start_law(job.id, spec["key"], spec["path"])
    store.report_progress(job.id, 64, 150)
    running = store.get(job.id)
    assert (running.state, running.sections_done, running.sections_total) == ("running", 64, 150)
    store.report_progress(job.id, 150, 150)
    done = store.finish_law(
        job.id, spec["key"], status="succeeded", source=spec["path"], sections=150,
        progress_reported=True,
    )  # fmt: skip
    assert done == 2  # the job's one unit is final: time for its finishing step
    final = store.complete(job.id)
    assert (final.state, final.sections_done, final.laws_done) == ("succeeded", 150, 1)


def test_job_state_survives_a_new_client(store: RedisJobStore, redis_url: str) -> None:
    job = store.create(["/x"])
    other = RedisJobStore.from_url(redis_url)
    assert other.get(job.id).sources == ("/x",)
    with pytest.raises(NotFound):
        other.get("nope")
    other.close()


# --- the whole one-machine stack: API owning the vectors + Celery workers + Redis -------

# The API process, as `lexgraph serve` runs it: it owns the embedded vectors.
API_LAUNCHER = r"""
import logging, sys
import uvicorn
from services.api.main import create_app
from services.core.settings import get_settings
logging.basicConfig(level=logging.INFO)
uvicorn.run(create_app(get_settings()), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning")
"""

# A reader that polls the graph database and the API the whole time a job runs and
# records every moment a published law is not whole: its published version's Section
# count differs from the source's, or its vector counts for that version change after
# first being seen (a law still filling up). One line of JSON per problem.
PROBE = r"""
import json, os, sys, time
from pathlib import Path
from urllib.parse import quote
import httpx, neo4j
from ingest.parse import read_source
from services.core.remote_vectors import RemoteVectorIndex
corpus, out, stop = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
expected = {}
for f in sorted(corpus.iterdir()):
    try:
        for law in read_source(f):
            expected[law.id] = len(law.sections)
    except Exception:
        pass
driver = neo4j.GraphDatabase.driver(os.environ["LEXGRAPH_GRAPH_URI"],
    auth=(os.environ["LEXGRAPH_GRAPH_USER"], os.environ["LEXGRAPH_GRAPH_PASSWORD"]))
db = os.environ["LEXGRAPH_GRAPH_DATABASE"]
vectors = RemoteVectorIndex(os.environ["LEXGRAPH_VECTOR_OWNER_URL"],
                            os.environ["LEXGRAPH_INTERNAL_TOKEN"])
seen_points, rounds, api_rounds, max_published, problems = {}, 0, 0, 0, []
while not stop.exists():
    rows, _, _ = driver.execute_query(
        "MATCH (l:Law) WHERE l.published_version IS NOT NULL "
        "RETURN l.key AS law, l.published_version AS v", database_=db)
    max_published = max(max_published, len(rows))
    for r in rows:
        n, _, _ = driver.execute_query(
            "MATCH (s:Section) WHERE s.law = $law AND s.version = $v RETURN count(s) AS n",
            law=r["law"], v=r["v"], database_=db)
        if n[0]["n"] != expected.get(r["law"], -1):
            problems.append({"where": "graph", "law": r["law"], "version": r["v"],
                             "sections": n[0]["n"], "expected": expected.get(r["law"])})
        for c in ("chunks", "profiles"):
            points = vectors.count(c, r["law"], version=r["v"])
            key = f"{c}|{r['law']}@{r['v']}"
            if points == 0 or seen_points.setdefault(key, points) != points:
                problems.append({"where": "api", "collection": c, "law": r["law"],
                                 "points": points, "first_seen": seen_points[key]})
    # the public API: every law GET /v1/laws lists has all its sections in its summary
    api = os.environ["LEXGRAPH_VECTOR_OWNER_URL"]
    listed = httpx.get(api + "/v1/laws", timeout=30).json()["laws"]
    for item in listed:
        summary = httpx.get(f"{api}/v1/laws/{quote(item['law'], safe='')}/summary",
                            timeout=30)
        if summary.status_code != 200:
            problems.append({"where": "api-summary", "law": item["law"],
                             "status": summary.status_code})
            continue
        sections = summary.json()["nodes"].get("Section", 0)
        if sections != expected.get(item["law"], -1):
            problems.append({"where": "api-summary", "law": item["law"],
                             "sections": sections, "expected": expected.get(item["law"])})
    api_rounds += bool(listed)
    rounds += 1
    Path(str(out) + ".rounds").write_text(str(rounds))
    time.sleep(0.2)
out.write_text(json.dumps({"rounds": rounds, "api_rounds": api_rounds,
                           "max_published": max_published,
                           "problems": problems[:50], "points": seen_points},
                          ensure_ascii=False))
"""


class Stack:
    """Redis + Neo4j (shared fixtures) + the API process + Celery worker processes."""

    def __init__(self, root: Path, redis_url: str, neo4j_server) -> None:  # type: ignore[no-untyped-def]
        self.root = root
        self.api_port = free_port()
        self.api_url = f"http://127.0.0.1:{self.api_port}"
        base = redis_url.rsplit("/", 1)[0]
        self.env = {
            **os.environ,
            "LEXGRAPH_DATA_DIR": str(root / "data"),
            "LEXGRAPH_GRAPH_URI": neo4j_server.bolt_uri,
            "LEXGRAPH_GRAPH_USER": neo4j_server.user,
            "LEXGRAPH_GRAPH_PASSWORD": neo4j_server.password,
            "LEXGRAPH_GRAPH_DATABASE": neo4j_server.database,
            "LEXGRAPH_GRAPH_MANAGE_LOCAL": "false",
            "LEXGRAPH_REDIS_URL": f"{base}/0",
            "LEXGRAPH_BROKER_URL": f"{base}/1",
            "LEXGRAPH_VECTOR_OWNER_URL": self.api_url,
            "LEXGRAPH_INTERNAL_TOKEN": uuid.uuid4().hex,
            "LEXGRAPH_API_PORT": str(self.api_port),
            # a killed worker's laws come back this many seconds after their delivery
            "LEXGRAPH_QUEUE_VISIBILITY_TIMEOUT_S": "60",
            # The probe checks what the API shows while two workers load 36 laws on two
            # cores, not how fast it answers (test_api covers the 2 s store timeout): one
            # run saw a law summary take over 2 s then and come back 503.
            "LEXGRAPH_STORE_TIMEOUT_S": "10",
            "LEXGRAPH_MAX_UPLOAD_BYTES": str(MAX_UPLOAD_BYTES),
            # documents over this go through the queue (test_a_large_document_...)
            "LEXGRAPH_DOCUMENT_INLINE_MAX_BYTES": str(INLINE_DOCUMENT_BYTES),
            # the tests' corpora are copied under the session's temp dir
            "LEXGRAPH_SOURCE_ROOTS": json.dumps([str(root.parent)]),
            "LEXGRAPH_WORKER_METRICS_PORT": "0",
            "PYTHONUNBUFFERED": "1",
        }
        (root / "data").mkdir(parents=True, exist_ok=True)
        self.api: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []

    def start_api(self) -> None:
        self.api = self._spawn([sys.executable, "-c", API_LAUNCHER, str(self.api_port)], "api")
        wait_for(lambda: http_ok(self.api_url + "/healthz"), 120, "the API process")

    def start_worker(self) -> subprocess.Popen[bytes]:
        n = len(self.workers)
        proc = self._spawn(worker_command("INFO", f"w{n}@lexgraph-test"), f"worker{n}")
        self.workers.append(proc)
        return proc

    def stop(self) -> None:
        for proc in self.workers:
            stop_pid(proc)
        if self.api is not None:
            stop_pid(self.api)

    def _spawn(self, cmd: list[str], name: str) -> subprocess.Popen[bytes]:
        log = (self.root / f"{name}.log").open("ab")
        return subprocess.Popen(
            cmd,
            env=self.env,
            cwd=self.root,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, redis_url: str, neo4j_server):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("stack")
    empty_store(neo4j_server).close()
    s = Stack(root, redis_url, neo4j_server)
    try:
        s.start_api()
        s.start_worker()
        yield s
    finally:
        s.stop()


def _driver(server):  # type: ignore[no-untyped-def]
    import neo4j

    return neo4j.GraphDatabase.driver(server.bolt_uri, auth=(server.user, server.password))


def _graph_counts(server) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Nodes per label, relationships per type, and duplicate checks (uid, edge triples; a
    law's LawSource node is one per law, keyed by `of_law`)."""
    db = server.database
    counts: dict[str, int] = {}
    with _driver(server) as driver:
        rows, _, _ = driver.execute_query(
            "MATCH (n) RETURN labels(n)[0] AS label, count(*) AS n, "
            "count(DISTINCT coalesce(n.uid, n.of_law)) AS uids",
            database_=db,
        )
        for r in rows:
            counts[f"node:{r['label']}"] = r["n"]
            counts[f"dup:{r['label']}"] = r["n"] - r["uids"]
        rows, _, _ = driver.execute_query(
            "MATCH (a)-[r]->(b) RETURN type(r) AS t, count(*) AS n, "
            "count(DISTINCT [a.uid, b.uid]) AS pairs",
            database_=db,
        )
        for r in rows:
            counts[f"edge:{r['t']}"] = r["n"]
            counts[f"dupedge:{r['t']}"] = r["n"] - r["pairs"]
    return counts


def _vector_counts(stack: Stack) -> dict[str, int]:
    from services.core.remote_vectors import RemoteVectorIndex

    vectors = RemoteVectorIndex(stack.api_url, stack.env["LEXGRAPH_INTERNAL_TOKEN"])
    try:
        return {f"points:{c}": vectors.count(c) for c in ("chunks", "profiles")}
    finally:
        vectors.close()


def _submit(stack: Stack, paths: list[str]) -> str:
    response = httpx.post(stack.api_url + "/v1/jobs/ingest", json={"paths": paths}, timeout=30)
    assert response.status_code == 202, response.text
    assert response.headers["location"] == f"/v1/jobs/{response.json()['id']}"
    return str(response.json()["id"])


def _job(stack: Stack, job_id: str) -> dict:  # type: ignore[type-arg]
    response = httpx.get(f"{stack.api_url}/v1/jobs/{job_id}", timeout=30)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _wait_final(stack: Stack, job_id: str, timeout_s: float) -> dict:  # type: ignore[type-arg]
    return wait_for(  # type: ignore[no-any-return]
        lambda: (j := _job(stack, job_id))["state"] in ("succeeded", "failed", "cancelled") and j,
        timeout_s,
        f"job {job_id}",
        interval_s=1.0,
    )


def _corpus(root: Path, names: list[str] | None = None) -> Path:
    folder = root / "corpus"
    folder.mkdir(exist_ok=True)
    for f in sorted(NITIBENCH.glob("*.json")):
        if names is None or f.name in names:
            shutil.copy(f, folder / f.name)
    (folder / "zz-corrupt.json").write_text('{"this is": not a law', encoding="utf-8")
    return folder


def _wipe_vectors(stack: Stack, law_ids: list[str]) -> None:
    from services.core.remote_vectors import RemoteVectorIndex

    vectors = RemoteVectorIndex(stack.api_url, stack.env["LEXGRAPH_INTERNAL_TOKEN"])
    for law_id in law_ids:
        for c in ("chunks", "profiles"):
            vectors.delete_law(c, law_id)
    vectors.close()


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
@pytest.mark.timeout(3000)
def test_corpus_job_survives_a_killed_worker_and_never_shows_half_a_law(
    stack: Stack,
    neo4j_server,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    corpus = _corpus(tmp_path)
    stop_file, probe_out = tmp_path / "stop-probe", tmp_path / "probe.json"
    probe = subprocess.Popen(
        [sys.executable, "-c", PROBE, str(corpus), str(probe_out), str(stop_file)],
        env=stack.env,
        cwd=tmp_path,
        start_new_session=True,
        stdout=(tmp_path / "probe.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    started = time.monotonic()
    job_id = _submit(stack, [str(corpus)])

    # SIGKILL the worker (its whole process group: main process and prefork children)
    # while it is in the middle of the corpus, then start a new one.
    wait_for(lambda: _job(stack, job_id)["laws"]["done"] >= 6, 900, "six laws done")
    at_kill = _job(stack, job_id)
    stop_pid(stack.workers[-1], signal.SIGKILL)
    assert at_kill["state"] == "running" and at_kill["laws"]["done"] < 36
    stack.start_worker()
    final = _wait_final(stack, job_id, 1800)
    crashed_wall = time.monotonic() - started

    # Let the probe finish one whole round that began after the job ended, so that it has
    # seen the last law published before it stops.
    rounds_file = Path(str(probe_out) + ".rounds")
    at_end = _probe_rounds(rounds_file)
    wait_for(lambda: _probe_rounds(rounds_file) >= at_end + 2, 120, "a probe round after the end")
    stop_file.touch()
    probe.wait(timeout=60)
    seen = json.loads(probe_out.read_text(encoding="utf-8"))
    assert seen["problems"] == [], seen["problems"]
    assert seen["rounds"] > 10 and seen["api_rounds"] > 5 and seen["max_published"] >= 36

    # 36 laws in, the corrupt file in the dead-letter list with its reason
    assert final["state"] == "failed"  # one law failed; the others are published
    assert final["laws"]["done"] == 36 and final["laws"]["failed"] == 1
    assert final["sections"]["done"] == final["sections"]["total"] > 5000
    letters = httpx.get(stack.api_url + "/v1/jobs/deadletter", timeout=30).json()
    corrupt = [d for d in letters["dead_letters"] if d["job_id"] == job_id]
    assert len(corrupt) == 1 and "zz-corrupt.json" in corrupt[0]["source"]
    assert "InvalidSource" in corrupt[0]["error"]
    failed = httpx.get(stack.api_url + "/v1/jobs", params={"state": "failed"}, timeout=30)
    assert job_id in {j["id"] for j in failed.json()["jobs"]}
    after_crash = {**_graph_counts(neo4j_server), **_vector_counts(stack)}
    assert all(v == 0 for k, v in after_crash.items() if k.startswith("dup")), after_crash

    # the same corpus again: every law a no-op, nothing duplicated
    again = _wait_final(stack, _submit(stack, [str(corpus)]), 600)
    assert again["laws"]["unchanged"] == 36 and again["laws"]["done"] == 36
    assert {**_graph_counts(neo4j_server), **_vector_counts(stack)} == after_crash

    # an uninterrupted run from empty stores gives the same counts as the killed one
    laws = httpx.get(f"{stack.api_url}/v1/jobs/{job_id}", params={"laws": "true"}, timeout=30)
    law_ids = [e["law_id"] for e in laws.json()["law_entries"]]
    empty_store(neo4j_server).close()
    _wipe_vectors(stack, law_ids)
    assert _vector_counts(stack) == {"points:chunks": 0, "points:profiles": 0}
    started = time.monotonic()
    clean = _wait_final(stack, _submit(stack, [str(corpus)]), 1800)
    clean_wall = time.monotonic() - started
    assert clean["laws"]["done"] == 36 and clean["laws"]["unchanged"] == 0
    assert {**_graph_counts(neo4j_server), **_vector_counts(stack)} == after_crash
    (stack.root / "figures.json").write_text(
        json.dumps(
            {
                "crashed_run_wall_s": round(crashed_wall, 1),
                "clean_run_wall_s": round(clean_wall, 1),
                "counts": after_crash,
            },
            indent=1,
        )
    )
    print(
        f"\nkilled-worker run {crashed_wall:.1f} s, clean run {clean_wall:.1f} s, "
        f"counts {after_crash}"
    )


SMALL_LAWS = ["ว0008-1B-0001.json", "ว0029-1B-0001.json", "ก0106-1B-0001.json"]


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
def test_upload_over_the_limit_is_413_and_a_small_upload_is_ingested(stack: Stack) -> None:
    too_big = httpx.post(
        stack.api_url + "/v1/jobs/ingest",
        files=[("files", ("big.json", b"x" * (MAX_UPLOAD_BYTES + 1)))],
        timeout=30,
    )
    assert too_big.status_code == 413
    assert too_big.headers["content-type"].startswith("application/problem+json")
    assert too_big.json()["status"] == 413
    law = (NITIBENCH / SMALL_LAWS[0]).read_bytes()
    accepted = httpx.post(
        stack.api_url + "/v1/jobs/ingest", files=[("files", (SMALL_LAWS[0], law))], timeout=30
    )
    assert accepted.status_code == 202, accepted.text
    job = _wait_final(stack, accepted.json()["id"], 600)
    assert job["state"] == "succeeded" and job["laws"]["done"] == 1


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
def test_a_job_checks_the_cross_law_citations_of_its_laws(stack: Stack, tmp_path: Path) -> None:
    """The Financial Institutions Businesses Act cites the PLC Act 20 times; the job's
    finishing step checks those citations against a fresh resolution and says so."""
    corpus = _corpus(tmp_path, ["ธ0012-1B-0001.json", "บ0011-1B-0001.json"])
    job = _wait_final(stack, _submit(stack, [str(corpus)]), 900)
    assert job["laws"]["done"] == 2, job
    check = job["check"]
    assert check["ok"] and check["laws"] == 2, check
    assert check["found"] == check["expected"] and check["found"]["REFERENCES"] >= 20, check


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
def test_retry_resubmits_only_the_failed_laws(stack: Stack, tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, SMALL_LAWS[:1])
    job = _wait_final(stack, _submit(stack, [str(corpus)]), 600)
    assert job["state"] == "failed" and "source:zz-corrupt.json" in job["errors"]
    retried = httpx.post(f"{stack.api_url}/v1/jobs/{job['id']}/retry", timeout=30)
    assert retried.status_code == 202
    # named by its path under the source root, never by the server path
    assert retried.json()["sources"] == [str(corpus.relative_to(stack.root.parent) / "zz-corrupt.json")]
    again = _wait_final(stack, retried.json()["id"], 600)
    assert again["retry_of"] == job["id"] and again["laws"]["total"] == 1
    assert httpx.post(f"{stack.api_url}/v1/jobs/{again['id']}/retry", timeout=30).status_code == 202
    assert httpx.get(f"{stack.api_url}/v1/jobs/nope", timeout=30).status_code == 404


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
def test_cancel_stops_laws_not_started_and_publishes_none_by_halves(
    stack: Stack,
    neo4j_server,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    empty_store(neo4j_server).close()
    corpus = _corpus(tmp_path)  # 36 laws: far more than finish before the cancel lands
    job_id = _submit(stack, [str(corpus)])
    wait_for(lambda: _job(stack, job_id)["state"] == "running", 120, "the job to start")
    cancelled = httpx.post(f"{stack.api_url}/v1/jobs/{job_id}/cancel", timeout=30)
    assert cancelled.status_code == 202 and cancelled.json()["cancel_requested"]
    final = _wait_final(stack, job_id, 900)
    assert final["state"] == "cancelled" and final["laws"]["cancelled"] > 0
    assert final["laws"]["done"] + final["laws"]["cancelled"] + final["laws"]["failed"] == 37
    # every law that did get published is whole
    with _driver(neo4j_server) as driver:
        rows, _, _ = driver.execute_query(
            "MATCH (l:Law) WHERE l.published_version IS NOT NULL "
            "OPTIONAL MATCH (s:Section) WHERE s.law = l.key AND s.version = l.published_version "
            "RETURN l.key AS law, count(s) AS sections",
            database_=neo4j_server.database,
        )
    entries = httpx.get(
        f"{stack.api_url}/v1/jobs/{job_id}", params={"laws": "true"}, timeout=30
    ).json()["law_entries"]
    expected = {e["law_id"]: e["sections"] for e in entries}
    assert len(rows) == final["laws"]["done"]
    assert all(r["sections"] == expected[r["law"]] for r in rows), rows


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
def test_a_job_with_valid_from_keeps_the_law_s_earlier_text_before_that_day(
    stack: Stack, tmp_path: Path
) -> None:
    """The Commercial Registration Act as NitiBench has it, then its OCS record uploaded
    with `valid_from`: each text is read on its side of the day (tests/integration/
    test_two_sources.py does the same without the queue)."""
    from urllib.parse import quote

    nitibench = NITIBENCH / "ท0002-1B-0001.json"
    record = next(
        line
        for line in (SHARED / "corpus" / "th-laws-ocs" / "laws.jsonl").read_text("utf-8").splitlines()
        if json.loads(line).get("title_th") == "พระราชบัญญัติทะเบียนพาณิชย์ พ.ศ. 2499"
    )
    first = _wait_final(stack, _submit(stack, [str(_corpus(tmp_path, [nitibench.name]))]), 600)
    assert first["laws"]["done"] == 1, first
    bad = httpx.post(
        stack.api_url + "/v1/jobs/ingest",
        files=[("files", ("ocs.jsonl", record.encode("utf-8")))],
        data={"valid_from": "1 Jan 2022"},
        timeout=30,
    )
    assert bad.status_code == 422 and "valid_from" in bad.text
    upload = httpx.post(
        stack.api_url + "/v1/jobs/ingest",
        files=[("files", ("ocs.jsonl", record.encode("utf-8")))],
        data={"valid_from": "2022-01-01"},
        timeout=30,
    )
    assert upload.status_code == 202, upload.text
    job = _wait_final(stack, upload.json()["id"], 600)
    assert job["state"] == "succeeded" and job["valid_from"] == "2022-01-01", job
    [law] = read_source(nitibench).laws
    versions = {
        day: httpx.get(
            f"{stack.api_url}/v1/laws/{quote(law.id)}/sections/3", params={"as_of": day}, timeout=30
        ).json()["version"]
        for day in ("2021-12-31", "2022-01-01")
    }
    assert versions["2021-12-31"] != versions["2022-01-01"], versions
    history = httpx.get(f"{stack.api_url}/v1/laws/{quote(law.id)}/sections/3/history", timeout=30)
    assert [v["valid_to"] for v in history.json()["versions"]] == ["2021-12-31", None]


def _retention_schedule(clauses: int) -> bytes:
    """A Markdown document of `clauses` passages (one per clause, each text its own)."""
    lines = ["# Records retention schedule\n"]
    for i in range(clauses):
        classes = " ".join(
            f"Record class {i}-{j} covers correspondence, billing entries and working papers, "
            "each reviewed by the matter partner before erasure."
            for j in range(6)
        )
        lines.append(
            f"## Clause {i}\n\nClause {i}: the personal data of client matter {i} is kept for "
            f"{i % 7 + 1} years after the matter closes and then erased. {classes}\n"
        )
    return "\n".join(lines).encode()


def _document_counts(server, key: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """The document's nodes and edges, and the store's Document/Passage totals with their
    distinct keys (a passage written twice would show)."""
    with _driver(server) as driver:
        rows, _, _ = driver.execute_query(
            "OPTIONAL MATCH (d:Document) WITH count(d) AS documents "
            "OPTIONAL MATCH (p:Passage) WITH documents, count(p) AS passages, "
            "count(DISTINCT p.key) AS passage_keys "
            "OPTIONAL MATCH (:Document {key: $key})-[h:HAS_PASSAGE]->(:Passage) "
            "RETURN documents, passages, passage_keys, count(h) AS has_passage",
            key=key,
            database_=server.database,
        )
    return dict(rows[0])


def _passage_points(stack: Stack, key: str) -> dict[str, int]:
    from services.core.remote_vectors import RemoteVectorIndex

    vectors = RemoteVectorIndex(stack.api_url, stack.env["LEXGRAPH_INTERNAL_TOKEN"])
    try:
        return {
            "points": vectors.count("passages"),
            "document_points": vectors.count_where("passages", {"document": [key]}),
        }
    finally:
        vectors.close()


@pytest.mark.skipif(not NITIBENCH.exists(), reason="needs ../shared/corpus/nitibench-ccl-laws")
@pytest.mark.timeout(900)
def test_a_large_document_goes_through_the_queue_and_survives_a_killed_worker(
    stack: Stack,
    neo4j_server,  # type: ignore[no-untyped-def]
) -> None:
    """A document over the inline limit is answered 202 with a job; its worker is killed
    with SIGKILL while it embeds the passages; another worker stores it whole once (no
    passage, edge or point twice), it is searchable, and a delete takes every node, edge
    and point of it out of both stores, counts back to before. A small one is stored
    within the request."""
    law = (NITIBENCH / SMALL_LAWS[0]).read_bytes()  # something for the search to rank too
    loaded = httpx.post(
        stack.api_url + "/v1/jobs/ingest", files=[("files", (SMALL_LAWS[0], law))], timeout=30
    )
    assert _wait_final(stack, loaded.json()["id"], 600)["state"] == "succeeded"
    small = httpx.post(
        stack.api_url + "/v1/documents",
        files={"file": ("note.md", _retention_schedule(3))},
        data={"title": "Short note", "date": "2026-11-30"},
        timeout=60,
    )
    assert small.status_code == 201, small.text
    assert httpx.delete(f"{stack.api_url}/v1/documents/{small.json()['id']}", timeout=60).is_success

    data = _retention_schedule(1500)
    assert INLINE_DOCUMENT_BYTES < len(data) < MAX_UPLOAD_BYTES
    before_graph = _document_counts(neo4j_server, "")
    before_points = _passage_points(stack, "")["points"]
    response = httpx.post(
        stack.api_url + "/v1/documents",
        files={"file": ("retention.md", data)},
        data={"title": "Records retention schedule", "date": "2026-11-30"},
        timeout=60,
    )
    assert response.status_code == 202, response.text
    queued = response.json()
    key = queued["document"]["id"]
    assert queued["kind"] == "document" and queued["sources"] == ["retention.md"]
    assert response.headers["location"] == f"/v1/jobs/{queued['id']}"
    assert queued["links"]["document"] == f"/v1/documents/{key}"

    # Kill the worker while it embeds: some passages done, not all.
    at_kill = wait_for(
        lambda: 0 < (j := _job(stack, queued["id"]))["sections"]["done"] and j,
        300,
        "the first passages embedded",
        interval_s=0.1,
    )
    stop_pid(stack.workers[-1], signal.SIGKILL)
    assert at_kill["state"] == "running"
    assert at_kill["sections"]["done"] < at_kill["sections"]["total"] == 1500
    assert httpx.get(f"{stack.api_url}/v1/documents/{key}", timeout=30).status_code == 404
    stack.start_worker()
    final = _wait_final(stack, queued["id"], 600)
    assert final["state"] == "succeeded", final
    assert final["laws"]["done"] == 1 and final["sections"] == {"total": 1500, "done": 1500}

    stored = httpx.get(f"{stack.api_url}/v1/documents/{key}", timeout=60)
    assert stored.status_code == 200 and len(stored.json()["passages"]) == 1500
    after_graph = _document_counts(neo4j_server, key)
    assert after_graph == {
        "documents": before_graph["documents"] + 1,
        "passages": before_graph["passages"] + 1500,
        "passage_keys": before_graph["passage_keys"] + 1500,
        "has_passage": 1500,
    }
    assert _passage_points(stack, key) == {
        "points": before_points + 1500,
        "document_points": 1500,
    }
    uploads = stack.root / "data" / "uploads"
    assert not list(uploads.rglob("document")), "the upload's bytes outlived its job"
    found = httpx.post(
        stack.api_url + "/v1/search",
        json={"query": "how long is the personal data of client matter 1234 kept"},
        timeout=60,
    )
    assert found.status_code == 200, found.text
    assert key in {p["document"] for p in found.json()["passages"]}
    # A document job is retried by uploading again: its bytes are gone.
    retry = httpx.post(f"{stack.api_url}/v1/jobs/{queued['id']}/retry", timeout=30)
    assert retry.status_code == 409 and "upload" in retry.json()["detail"]

    gone = httpx.delete(f"{stack.api_url}/v1/documents/{key}", timeout=120)
    assert gone.status_code == 200 and gone.json()["passages"] == 1500
    assert _document_counts(neo4j_server, key) == before_graph | {"has_passage": 0}
    assert _passage_points(stack, key) == {"points": before_points, "document_points": 0}


def test_a_queued_document_that_cannot_be_read_fails_its_job_by_name(stack: Stack) -> None:
    """`background=true` queues even a small upload; a file whose name passes but whose
    bytes do not read fails the job with the reason, and stores nothing."""
    bad_date = httpx.post(
        stack.api_url + "/v1/documents",
        files={"file": ("scan.pdf", b"%PDF-1.4 no text layer")},
        data={"title": "Scan", "date": "30 Nov 2026", "background": "true"},
        timeout=60,
    )
    assert bad_date.status_code == 422 and "date" in bad_date.text  # checked before queueing
    response = httpx.post(
        stack.api_url + "/v1/documents",
        files={"file": ("scan.pdf", b"%PDF-1.4 no text layer")},
        data={"title": "Scan", "date": "2026-11-30", "background": "true"},
        timeout=60,
    )
    assert response.status_code == 202, response.text
    key = response.json()["document"]["id"]
    final = _wait_final(stack, response.json()["id"], 300)
    assert final["state"] == "failed" and final["laws"]["failed"] == 1
    assert "scan.pdf" in final["errors"][key], final["errors"]
    assert httpx.get(f"{stack.api_url}/v1/documents/{key}", timeout=30).status_code == 404
    assert not list((stack.root / "data" / "uploads").rglob("document"))
