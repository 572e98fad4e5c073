"""Counters and timers the core records; the API and the worker expose them to Prometheus.

The core only records. Exposing is the entrypoints' job: the API serves `/metrics`
(`services/api/metrics.py`), the Celery worker serves its own port
(`services/worker/metrics.py`). prometheus_client keeps one registry per process, so a
retrieval run inside the API shows up on the API's `/metrics`, and an ingestion run inside
a worker child shows up on the worker's port (prefork children write to
`PROMETHEUS_MULTIPROC_DIR`, which the worker's exporter aggregates).

The search pipeline (services/core/retrieval/pipeline.py) records the time each search
spent in each stage with `observe_stage("graph_walk", seconds)`.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

RETRIEVAL_STAGES = ("analysis", "embedding", "vector_search", "graph_walk", "assembly")

# Stage latencies: analysis and assembly take well under a millisecond, a 2-hop walk on
# Neo4j ~9-13 ms (README, "The local Neo4j server"), BGE-M3 on CPU tens to hundreds of ms, hence 0.5 ms .. 5 s.
_STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

RETRIEVAL_STAGE_SECONDS = Histogram(
    "lexgraph_retrieval_stage_duration_seconds",
    "Time spent in one stage of a retrieval (analysis, embedding, vector_search, graph_walk, "
    "assembly).",
    ["stage"],
    buckets=_STAGE_BUCKETS,
)
RETRIEVAL_SEEDS = Histogram(
    "lexgraph_retrieval_seeds",
    "Seed nodes the vector search handed to the graph walk, per query.",
    buckets=(0, 1, 2, 3, 4, 5, 8),
)
RETRIEVAL_EXPANDED = Histogram(
    "lexgraph_retrieval_expanded_nodes",
    "Nodes the graph walk returned after ranking and capping, per query.",
    buckets=(0, 1, 2, 5, 10, 15, 20, 30, 40),
)
SECTIONS_INGESTED = Counter(
    "lexgraph_sections_ingested",
    "Sections written to the graph and the vector index by ingestion runs.",
)
DEAD_LETTERS = Counter(
    "lexgraph_worker_dead_letters",
    "Tasks that exhausted their retries and were parked as dead letters.",
    ["task"],
)

for _stage in RETRIEVAL_STAGES:  # export every stage at 0 so dashboards have a series to show
    RETRIEVAL_STAGE_SECONDS.labels(stage=_stage)


def observe_stage(name: str, seconds: float) -> None:
    """Record the time one search spent in a stage (the pipeline sums its steps' times)."""
    if name not in RETRIEVAL_STAGES:
        raise ValueError(f"unknown retrieval stage {name!r}; expected one of {RETRIEVAL_STAGES}")
    RETRIEVAL_STAGE_SECONDS.labels(stage=name).observe(seconds)


def record_expansion(*, seeds: int, expanded: int) -> None:
    """Record how many seeds one query used and how many nodes its walk kept."""
    RETRIEVAL_SEEDS.observe(seeds)
    RETRIEVAL_EXPANDED.observe(expanded)


def record_sections_ingested(count: int) -> None:
    SECTIONS_INGESTED.inc(count)


def record_dead_letter(task: str) -> None:
    DEAD_LETTERS.labels(task=task).inc()
