"""Prometheus metrics of the Celery worker, served on the worker's own port.

Decision: each worker serves `/metrics` on `LEXGRAPH_WORKER_METRICS_PORT` (9540) and
Prometheus finds every worker replica by DNS (`deploy/prometheus/prometheus.yml`). Pushing
through Redis was the alternative; it needs an extra exporter and loses the `up` signal, so
pull it is. Celery's prefork children are separate processes: with
`PROMETHEUS_MULTIPROC_DIR` set (the worker image sets it and wipes it at start) each child
writes its samples there and the parent's exporter serves their sum. Without it (solo or
threads pool, tests) the process registry is served directly.

Recorded from Celery's own signals, so tasks need no code for it: tasks by name and outcome,
their durations and retries. Dead letters and sections ingested are recorded by the core
(`services/core/telemetry.py`) where they happen.
"""

from __future__ import annotations

import logging
from threading import Lock
from time import perf_counter
from typing import Any

from celery import signals
from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server

from services.core import telemetry
from services.core.settings import Settings

log = logging.getLogger(__name__)

# The tasks every deployment runs; their series exist at 0 from the start, so the retry and
# dead-letter panels show "none" rather than "no data".
KNOWN_TASKS = ("lexgraph.ingest_law", "lexgraph.ingest_corpus", "lexgraph.finish_job")

TASKS = Counter(
    "lexgraph_worker_tasks",
    "Celery tasks finished, by task name and state (success, failure, retry).",
    ["task", "state"],
)
TASK_SECONDS = Histogram(
    "lexgraph_worker_task_duration_seconds",
    "Run time of one Celery task execution (a retried task counts each attempt).",
    ["task"],
    # A law takes ~0.2 s (PDPA, offline embedder) to minutes (a large code with BGE-M3).
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0),
)
RETRIES = Counter(
    "lexgraph_worker_task_retries",
    "Celery task retries scheduled, by task name.",
    ["task"],
)

# Series born at 0: the first task a fresh worker runs is then an increase Prometheus can
# see (a series that first appears at 1 has no rate, and its quantiles are NaN).
TASK_STATES = ("success", "failure", "retry")
for _task in KNOWN_TASKS:
    RETRIES.labels(task=_task)
    TASK_SECONDS.labels(task=_task)
    telemetry.DEAD_LETTERS.labels(task=_task)
    for _state in TASK_STATES:
        TASKS.labels(task=_task, state=_state)

_started: dict[str, float] = {}
_started_lock = Lock()
_connected = False


def connect_signals() -> None:
    """Record every task this process runs (idempotent; also right for eager mode)."""
    global _connected
    if _connected:
        return
    signals.task_prerun.connect(_on_prerun, weak=False)
    signals.task_postrun.connect(_on_postrun, weak=False)
    signals.task_retry.connect(_on_retry, weak=False)
    _connected = True


def install_worker_metrics(settings: Settings) -> None:
    """Call once where the Celery app is defined: connects the signals and starts the
    exporter when the worker process boots (not in processes that only send tasks)."""
    connect_signals()

    def _serve(**_: Any) -> None:
        serve_metrics(settings)

    signals.worker_init.connect(_serve, weak=False)


def serve_metrics(settings: Settings) -> None:
    if not settings.worker_metrics_port:
        return
    registry = _multiprocess_registry()
    try:
        if registry is None:
            start_http_server(settings.worker_metrics_port, addr=settings.worker_metrics_host)
        else:
            start_http_server(
                settings.worker_metrics_port, addr=settings.worker_metrics_host, registry=registry
            )
    except OSError as exc:
        # A second worker on the same host and port: it works on, unobserved; say so.
        log.warning(
            "worker metrics not served on %s:%d: %s",
            settings.worker_metrics_host,
            settings.worker_metrics_port,
            exc,
        )
        return
    log.info(
        "worker metrics on http://%s:%d/metrics",
        settings.worker_metrics_host,
        settings.worker_metrics_port,
    )


def _multiprocess_registry() -> CollectorRegistry | None:
    """A registry summing all prefork children, or None when multiprocess mode is off."""
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    try:
        multiprocess.MultiProcessCollector(registry)  # reads PROMETHEUS_MULTIPROC_DIR
    except ValueError:
        return None
    return registry


def _task_name(task: Any, fallback: Any = None) -> str:
    name = getattr(task, "name", None) or getattr(fallback, "task", None)
    return str(name) if name else "unknown"


def _on_prerun(task_id: str | None = None, **_: Any) -> None:
    if task_id:
        with _started_lock:
            _started[task_id] = perf_counter()


def _on_postrun(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    name = _task_name(task)
    TASKS.labels(task=name, state=(state or "unknown").lower()).inc()
    with _started_lock:
        started = _started.pop(task_id, None) if task_id else None
    if started is not None:
        TASK_SECONDS.labels(task=name).observe(perf_counter() - started)


def _on_retry(sender: Any = None, request: Any = None, **_: Any) -> None:
    RETRIES.labels(task=_task_name(sender, request)).inc()
