"""Concurrent load on `POST /v1/search`: N clients for a duration against an API on
loopback, then throughput, latency percentiles and answers by status.

    python bench/bench_load.py --api-url http://127.0.0.1:8000          # a running API
    python bench/bench_load.py --own-stack --clients 5,20,50             # a throwaway one

Each client is one keep-alive connection that sends the next PDPA dev-set question (Thai
and English, top 10, over every loaded law) as soon as it has its answer. A 429 is
answered as a polite client would: it waits the Retry-After seconds before its next
request (`--no-backoff` sends the next at once instead). Latency is per request, from
sending to the last byte; the percentiles are over the 200s (and over every answer, as a
second line). `--own-stack` starts a local Neo4j on free ports, ingests the PDPA, and
runs `uvicorn --factory services.api.main:create_app` (what the Dockerfile runs) on a free
port, all in a temp dir deleted at the end; it also reads the API's `/metrics` before and
after each step and prints the mean time per retrieval stage and the time searches waited
for a slot, to show where a search's time went under that load. The machine's load average
is printed with each step: the figures mean little without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.core.evaluation import load_gold, percentile  # noqa: E402

DEV_SET = REPO / "tests" / "fixtures" / "eval" / "pdpa_dev.jsonl"
PDPA = REPO / "data" / "th-pdpa-2562" / "about.md"


@dataclass
class Step:
    clients: int
    duration_s: float
    statuses: Counter[str] = field(default_factory=Counter)
    ok_ms: list[float] = field(default_factory=list)
    all_ms: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    stages_ms: dict[str, float] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        def pct(values: list[float], q: float) -> float | None:
            return round(percentile(sorted(values), q), 1) if values else None

        return {
            "clients": self.clients,
            "duration_s": round(self.wall_s, 1),
            "requests": sum(self.statuses.values()),
            "ok_per_s": round(len(self.ok_ms) / self.wall_s, 1) if self.wall_s else 0.0,
            "answers_per_s": round(len(self.all_ms) / self.wall_s, 1) if self.wall_s else 0.0,
            "p50_ms": pct(self.ok_ms, 50),
            "p95_ms": pct(self.ok_ms, 95),
            "p99_ms": pct(self.ok_ms, 99),
            "all_p95_ms": pct(self.all_ms, 95),
            "statuses": dict(sorted(self.statuses.items())),
            "load_before": self.load_before,
            "load_after": self.load_after,
            "stages_ms": self.stages_ms,
        }


async def run_step(
    api_url: str, questions: list[str], clients: int, duration_s: float, *,
    headers: dict[str, str], backoff: bool, top_k: int,
) -> Step:  # fmt: skip
    step = Step(clients, duration_s, load_before=os.getloadavg())
    deadline = time.monotonic() + duration_s

    async def client(n: int) -> None:
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        async with httpx.AsyncClient(
            base_url=api_url, headers=headers, timeout=60.0, limits=limits
        ) as http:
            i = n
            while time.monotonic() < deadline:
                body = {"query": questions[i % len(questions)], "top_k": top_k}
                i += clients
                started = time.perf_counter()
                try:
                    response = await http.post("/v1/search", json=body)
                    await response.aread()
                except httpx.HTTPError as e:
                    step.statuses[type(e).__name__] += 1
                    continue
                elapsed_ms = (time.perf_counter() - started) * 1000.0
                step.statuses[str(response.status_code)] += 1
                step.all_ms.append(elapsed_ms)
                if response.status_code == 200:
                    step.ok_ms.append(elapsed_ms)
                elif response.status_code == 429 and backoff:
                    await asyncio.sleep(float(response.headers.get("retry-after", "1")))

    started = time.monotonic()
    await asyncio.gather(*(client(n) for n in range(clients)))
    step.wall_s = time.monotonic() - started
    step.load_after = os.getloadavg()
    return step


# --- reading /metrics -------------------------------------------------------------------

_SUMS = {
    "lexgraph_retrieval_stage_duration_seconds": "stage",
    "lexgraph_search_queue_wait_seconds": None,
}


def _metric_sums(api_url: str, headers: dict[str, str]) -> dict[str, tuple[float, float]]:
    """name[/stage] -> (sum, count) of the histograms above, from the API's /metrics."""
    try:
        text = httpx.get(api_url + "/metrics", headers=headers, timeout=10).text
    except httpx.HTTPError:
        return {}
    out: dict[str, list[float]] = {}
    for line in text.splitlines():
        for name, label in _SUMS.items():
            for part, index in (("_sum", 0), ("_count", 1)):
                if not line.startswith(name + part):
                    continue
                key = name
                if label and f'{label}="' in line:
                    key += "/" + line.split(f'{label}="', 1)[1].split('"', 1)[0]
                out.setdefault(key, [0.0, 0.0])[index] = float(line.rsplit(" ", 1)[1])
    return {k: (v[0], v[1]) for k, v in out.items()}


def _mean_ms(
    before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]]
) -> dict[str, float]:
    means = {}
    for key, (total, count) in after.items():
        total0, count0 = before.get(key, (0.0, 0.0))
        if count - count0 > 0:
            short = key.rsplit("/", 1)[-1] if "/" in key else "queue_wait"
            means[short] = round(1000.0 * (total - total0) / (count - count0), 2)
    return means


# --- a throwaway stack ------------------------------------------------------------------


@contextmanager
def own_stack(extra_env: dict[str, str], api_code: Path = REPO) -> Iterator[str]:
    """Neo4j on free ports + the PDPA + the API under uvicorn, in a temp dir; the API
    runs from `api_code` (another checkout, to compare with an older commit)."""
    from services.core import bootstrap, neo4j_local
    from services.core.ingestion import ingest_paths
    from services.core.neo4j_local import LocalNeo4j, free_port
    from services.core.settings import REPO_ROOT, Settings

    with tempfile.TemporaryDirectory(prefix="lexgraph-load-") as tmp:
        root = Path(tmp)
        server = LocalNeo4j(data_dir=root / "neo4j",
        launcher_dir=REPO_ROOT / "deploy" / "neo4j-local", bolt_port=free_port(),
                               http_port=free_port(), password="lexgraph-bench",  # noqa: S106
                               heap_mb=768)  # fmt: skip
        neo4j_local.start(server)
        api: subprocess.Popen[bytes] | None = None
        try:
            env = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
            lexgraph = {
                "LEXGRAPH_DATA_DIR": str(root / "data"),
                "LEXGRAPH_GRAPH_URI": server.bolt_uri,
                "LEXGRAPH_GRAPH_USER": server.user,
                "LEXGRAPH_GRAPH_PASSWORD": server.password,
                "LEXGRAPH_GRAPH_DATABASE": server.database,
                "LEXGRAPH_GRAPH_MANAGE_LOCAL": "false",
                "LEXGRAPH_API_PORT": str(free_port()),
                **extra_env,
            }
            settings = Settings(**{k.removeprefix("LEXGRAPH_").lower(): v
                                   for k, v in lexgraph.items()})  # fmt: skip
            graph = bootstrap.build_graph_store(settings)
            vectors = bootstrap.build_worker_vectors(settings)
            try:
                report = ingest_paths([PDPA], graph=graph, vectors=vectors,
                                      embedder=bootstrap.build_worker_embedder(settings))  # fmt: skip
            finally:
                vectors.close()
                graph.close()
            assert report.ok, report.errors  # noqa: S101
            port = lexgraph["LEXGRAPH_API_PORT"]
            api = subprocess.Popen(  # noqa: S603
                [sys.executable, "-m", "uvicorn", "services.api.main:create_app", "--factory",
                 "--host", "127.0.0.1", "--port", port, "--log-level", "warning"],
                env={**env, **lexgraph, "PYTHONPATH": str(api_code)}, cwd=api_code,
                stdout=(root / "api.log").open("wb"), stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
            url = f"http://127.0.0.1:{port}"
            _wait_ready(url, api, root / "api.log")
            yield url
        finally:
            if api is not None:
                api.terminate()
                api.wait(timeout=30)
            neo4j_local.stop(server)


def _wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the API exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            if httpx.get(url + "/readyz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit("the API did not become ready in 180 s")


# --- main -------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    questions = [q.question for q in load_gold(args.queries).questions]
    clients = [int(c) for c in args.clients.split(",") if c.strip()]
    headers = {"Authorization": f"Bearer {args.api_key}"} if args.api_key else {}
    extra_env = dict(pair.split("=", 1) for pair in args.env)
    if args.own_stack:
        with own_stack(extra_env, args.api_code.resolve()) as url:
            rows = _run_all(url, questions, clients, args, headers)
    else:
        rows = _run_all(args.api_url.rstrip("/"), questions, clients, args, headers)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def _run_all(
    url: str, questions: list[str], clients: list[int], args: argparse.Namespace,
    headers: dict[str, str],
) -> list[dict[str, Any]]:  # fmt: skip
    # one untimed pass: the first questions pay one-off costs (plans, caches)
    asyncio.run(run_step(url, questions, 1, args.warmup, headers=headers,
                         backoff=True, top_k=args.top_k))  # fmt: skip
    rows = []
    print(f"{'clients':>7} {'requests':>8} {'200/s':>6} {'p50':>7} {'p95':>7} {'p99':>7}  "
          f"statuses  (load average before -> after; stage means ms)")  # fmt: skip
    for n in clients:
        before = _metric_sums(url, headers)
        step = asyncio.run(run_step(url, questions, n, args.duration, headers=headers,
                                    backoff=not args.no_backoff, top_k=args.top_k))  # fmt: skip
        step.stages_ms = _mean_ms(before, _metric_sums(url, headers))
        row = step.row()
        rows.append(row)
        print(f"{n:>7} {row['requests']:>8} {row['ok_per_s']:>6} {row['p50_ms']!s:>7} "
              f"{row['p95_ms']!s:>7} {row['p99_ms']!s:>7}  {row['statuses']}  "
              f"(load {_load(row['load_before'])} -> {_load(row['load_after'])}; "
              f"{row['stages_ms']})", flush=True)  # fmt: skip
    return rows


def _load(values: tuple[float, float, float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--api-url", default="http://127.0.0.1:8000")
    p.add_argument("--api-key", help="when the API requires one")
    p.add_argument("--own-stack", action="store_true",
                   help="start a throwaway Neo4j + PDPA + API instead of --api-url")
    p.add_argument("--api-code", type=Path, default=REPO, metavar="DIR",
                   help="with --own-stack: run the API from this source tree (e.g. "
                   "`git archive <commit>` unpacked) to compare with it")
    p.add_argument("--env", action="append", default=[], metavar="LEXGRAPH_X=V",
                   help="a setting for the --own-stack API (repeatable)")
    p.add_argument("--clients", default="5,20,50", help="comma list: one step per value")
    p.add_argument("--duration", type=float, default=60.0, help="seconds per step")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of one client first")
    p.add_argument("--top-k", type=int, default=10)
    p.add_argument("--no-backoff", action="store_true",
                   help="after a 429, send the next request at once")
    p.add_argument("--queries", type=Path, default=DEV_SET)
    p.add_argument("--json", action="store_true", help="also print the rows as JSON")
    return p


if __name__ == "__main__":
    sys.exit(main())

