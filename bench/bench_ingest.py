"""Bulk ingestion throughput on the one-machine default (a script, not a test).

Starts, on free 127.0.0.1 ports under a temp dir: Redis (Debian `redis-server`), Neo4j
(deploy/neo4j-local), the API process owning the embedded vectors (what `lexgraph serve`
runs) and one Celery worker with two prefork processes (both cores); submits the corpus
as one job through `POST /v1/jobs/ingest` and polls it. Reports wall time, sections per
second and the peak resident memory (VmHWM) of every process. Stops what it started, by
pid.

    python bench/bench_ingest.py                       # the 698-law OCS corpus
    python bench/bench_ingest.py --source ../shared/corpus/nitibench-ccl-laws
    python bench/bench_ingest.py --limit 50            # the first 50 laws of the JSONL
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
LAUNCHER = REPO / "deploy" / "neo4j-local"

from services.core import neo4j_local  # noqa: E402
from services.core.neo4j_local import LocalNeo4j, free_port  # noqa: E402
from services.worker import worker_command  # noqa: E402

SHARED = REPO.parent / "shared"
DEFAULT_SOURCE = SHARED / "corpus" / "th-laws-ocs" / "laws.jsonl"

API = r"""
import logging, sys
import uvicorn
from services.api.main import create_app
from services.core.settings import get_settings
logging.basicConfig(level=logging.WARNING)
uvicorn.run(create_app(get_settings()), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning")
"""


def tree(pid: int) -> list[int]:
    """pid and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def peak_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"
    return raw.strip()[:80]


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def run(source: Path, limit: int | None, root: Path, timeout_s: float) -> dict[str, Any]:
    if limit and source.suffix == ".jsonl":
        subset = root / f"first-{limit}.jsonl"
        with source.open(encoding="utf-8") as f, subset.open("w", encoding="utf-8") as out:
            for i, line in enumerate(f):
                if i >= limit:
                    break
                out.write(line)
        source = subset
    redis_port, api_port = free_port(), free_port()
    graph = LocalNeo4j(
        data_dir=root / "neo4j",
        launcher_dir=LAUNCHER,
        bolt_port=free_port(),
        http_port=free_port(),
        password="lexgraph-bench",  # noqa: S106 - throwaway local server
        heap_mb=2048,
    )
    env = {
        **os.environ,
        "LEXGRAPH_DATA_DIR": str(root / "data"),
        "LEXGRAPH_GRAPH_URI": graph.bolt_uri,
        "LEXGRAPH_GRAPH_PASSWORD": graph.password,
        "LEXGRAPH_GRAPH_MANAGE_LOCAL": "false",
        "LEXGRAPH_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "LEXGRAPH_BROKER_URL": f"redis://127.0.0.1:{redis_port}/1",
        "LEXGRAPH_VECTOR_OWNER_URL": f"http://127.0.0.1:{api_port}",
        "LEXGRAPH_INTERNAL_TOKEN": os.urandom(16).hex(),
        "LEXGRAPH_WORKER_METRICS_PORT": str(free_port()),
    }
    procs: dict[str, subprocess.Popen[bytes]] = {}

    def spawn(name: str, cmd: list[str]) -> None:
        log = (root / f"{name}.log").open("wb")
        procs[name] = subprocess.Popen(  # noqa: S603 - our own interpreter and servers
            cmd, env=env, cwd=root, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    peaks: dict[int, tuple[str, float]] = {}

    def sample() -> None:
        pids = [p for proc in procs.values() for p in tree(proc.pid)]
        status = neo4j_local.status(graph)
        if status.pid:
            pids.append(status.pid)
        for pid in pids:
            mb = peak_rss_mb(pid)
            if mb is not None:
                peaks[pid] = (cmdline(pid), max(mb, peaks.get(pid, ("", 0.0))[1]))

    (root / "data").mkdir(parents=True, exist_ok=True)
    spawn(
        "redis",
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(redis_port),
            "--dir",
            str(root),
            "--save",
            "",
        ],
    )
    neo4j_local.start(graph)
    try:
        spawn("api", [sys.executable, "-c", API, str(api_port)])
        base = f"http://127.0.0.1:{api_port}"
        _wait(lambda: _ok(base + "/healthz"), 120)
        spawn("worker", worker_command("WARNING"))
        time.sleep(3)
        started = time.monotonic()
        job = httpx.post(base + "/v1/jobs/ingest", json={"paths": [str(source)]}, timeout=60)
        job.raise_for_status()
        job_id = job.json()["id"]
        state: dict[str, Any] = {}
        while time.monotonic() - started < timeout_s:
            state = httpx.get(f"{base}/v1/jobs/{job_id}", timeout=60).json()
            sample()
            if state["state"] in ("succeeded", "failed", "cancelled"):
                break
            time.sleep(2)
        wall = time.monotonic() - started
        sample()
        sections = state.get("sections", {}).get("done", 0)
        return {
            "source": str(source),
            "state": state.get("state"),
            "laws": state.get("laws"),
            "sections": state.get("sections"),
            "wall_s": round(wall, 1),
            "sections_per_s": round(sections / wall, 1) if wall else None,
            "failed_laws": dict(list(state.get("errors", {}).items())[:20]),
            "peak_rss_mb": {f"{pid} {name}": round(mb) for pid, (name, mb) in peaks.items()},
            "cores": os.cpu_count(),
        }
    finally:
        for name in ("worker", "api", "redis"):
            if name in procs:
                stop(procs[name])
        neo4j_local.stop(graph)


def _ok(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(predicate: Any, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise TimeoutError("the API did not come up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--limit", type=int, default=None, help="first N laws of a JSONL")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--out", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lexgraph-bench-") as tmp:
        figures = run(args.source, args.limit, Path(tmp), args.timeout)
    text = json.dumps(figures, ensure_ascii=False, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
