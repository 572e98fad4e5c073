"""Thin, named, idempotent tasks over services/core/bulk.py (JSON scalar arguments).

- `lexgraph.ingest_corpus(job_id)`: read a job's sources, record its laws, fan out one
  `lexgraph.ingest_law` per law.
- `lexgraph.ingest_law(job_id, law_id, source)`: ingest one law under the publish
  protocol.
- `lexgraph.finish_job(job_id)`: once every law is final, resolve the job's cross-law
  citations once more, check them (the job's `check`) and set the job's final state.
- `lexgraph.ingest_document(job_id)`: store the firm's document a document job holds
  (services/core/document_jobs.py), then finish the job as above.

A store error is retried inside the task first (bulk.LAW_RETRY_DELAYS_S), then by the
queue with exponential back-off (2, 4, 8, ... s, at most 60 s, 6 tries); bad input: no
retry, the law goes to the dead-letter list. The worker's main process runs the orphan
reaper (bulk.requeue_orphans): a law whose runner died is queued again within a minute.

Each worker process builds its clients once (graph driver, embedder, vector index: the
vector owner's internal endpoint on one machine, the Qdrant server in production).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

from celery import Task, signals

from services.core import bulk, document_jobs
from services.core.errors import StoreUnavailable
from services.core.jobs import RedisJobStore
from services.core.settings import get_settings
from services.core.sources import IngestLimits
from services.worker.celery_app import app

log = logging.getLogger(__name__)

MAX_RETRIES = 6
_state: dict[str, Any] = {}


def _jobs() -> RedisJobStore:
    if "jobs" not in _state:
        _state["jobs"] = RedisJobStore.from_url(get_settings().redis_url)
    store: RedisJobStore = _state["jobs"]
    return store


def _deps() -> bulk.LawDeps:
    if "deps" not in _state:
        from services.core import bootstrap  # builds the concrete clients, once per process

        _state["deps"] = bootstrap.build_worker_deps(get_settings())
    deps: bulk.LawDeps = _state["deps"]
    return deps


class _Dispatcher:
    """Fan-out from inside a task: `.delay` sends to the broker, or runs at once when eager."""

    def submit(self, job_id: str) -> None:
        ingest_corpus.delay(job_id)

    def submit_law(self, job_id: str, law_id: str, source: str) -> None:
        ingest_law.delay(job_id, law_id, source)

    def submit_finish(self, job_id: str) -> None:
        finish_job.delay(job_id)

    def submit_document(self, job_id: str) -> None:
        ingest_document.delay(job_id)


@app.task(name=bulk.INGEST_CORPUS_TASK, bind=True, acks_late=True, max_retries=MAX_RETRIES)
def ingest_corpus(self: Task, job_id: str) -> None:
    try:
        bulk.plan_job(
            job_id,
            jobs=_jobs(),
            dispatcher=_Dispatcher(),
            limits=IngestLimits.from_settings(get_settings()),
        )
    except StoreUnavailable as e:
        raise self.retry(exc=e, countdown=_backoff(self.request.retries)) from e


@app.task(name=bulk.INGEST_LAW_TASK, bind=True, acks_late=True, max_retries=MAX_RETRIES)
def ingest_law(self: Task, job_id: str, law_id: str, source: str) -> None:
    final = self.request.retries >= MAX_RETRIES
    try:
        bulk.run_law(
            job_id,
            law_id,
            source,
            jobs=_jobs(),
            deps=_deps(),
            dispatcher=_Dispatcher(),
            final_attempt=final,
        )
    except bulk.LawBusy as e:
        # A second delivery while the first still runs: wait for it to finish (the law
        # is then final and this is a no-op) or to die (its lease lapses, this takes over).
        raise self.retry(exc=e, countdown=int(bulk.LEASE_S), max_retries=None) from e
    except StoreUnavailable as e:
        if final:
            _give_up(job_id, law_id, source, e)
            raise
        log.warning("law %s of job %s: %s; retrying", law_id, job_id, e)
        raise self.retry(exc=e, countdown=_backoff(self.request.retries)) from e
    except Exception as e:
        # Raised before the law was started (building the worker's clients): run_law
        # records every failure after that itself.
        _give_up(job_id, law_id, source, e)
        raise


@app.task(name=bulk.INGEST_DOCUMENT_TASK, bind=True, acks_late=True, max_retries=MAX_RETRIES)
def ingest_document(self: Task, job_id: str) -> None:
    final = self.request.retries >= MAX_RETRIES
    try:
        document_jobs.run_document(
            job_id, jobs=_jobs(), deps=_deps(), dispatcher=_Dispatcher(), final_attempt=final
        )
    except bulk.LawBusy as e:  # as for a law: wait for the runner to finish or to die
        raise self.retry(exc=e, countdown=int(bulk.LEASE_S), max_retries=None) from e
    except StoreUnavailable as e:
        if final:
            _give_up_document(job_id, e)
            raise
        log.warning("document job %s: %s; retrying", job_id, e)
        raise self.retry(exc=e, countdown=_backoff(self.request.retries)) from e
    except Exception as e:
        _give_up_document(job_id, e)
        raise


def _give_up_document(job_id: str, e: Exception) -> None:
    try:
        spec = document_jobs.document_spec(_jobs().get(job_id))
    except Exception:
        log.exception("document job %s could not be read to record it failed", job_id)
        return
    _give_up(job_id, spec["key"], spec["path"], e)


def _give_up(job_id: str, law_id: str, source: str, e: Exception) -> None:
    """The law failed for good, perhaps before run_law could record it: record it failed
    (dead letter, and the job ends once its other laws do) rather than leave it pending,
    a state the orphan reaper does not touch, so that its job would never end. A no-op
    when run_law already recorded it; when Redis itself is down, nothing can be."""
    try:
        bulk.fail_law(_jobs(), _Dispatcher(), job_id, law_id, source, e)
    except StoreUnavailable:
        log.exception("job %s: law %s could not be recorded failed", job_id, law_id)


@app.task(name=bulk.FINISH_JOB_TASK, bind=True, acks_late=True, max_retries=MAX_RETRIES)
def finish_job(self: Task, job_id: str) -> None:
    try:
        bulk.finish_job(job_id, jobs=_jobs(), deps=_deps())
    except StoreUnavailable as e:
        raise self.retry(exc=e, countdown=_backoff(self.request.retries)) from e


@signals.worker_ready.connect
def _start_reaper(sender: Any = None, **_: Any) -> None:
    """In the worker's main process: re-queue the laws of dead runners every
    REAP_INTERVAL_S (bulk.requeue_orphans), so a worker killed with SIGKILL has its law
    running again within a minute rather than after the broker's visibility timeout."""
    if get_settings().broker_url is None:
        return  # eager: no other process to take over
    owner = f"{socket.gethostname()}:{os.getpid()}"

    def loop() -> None:
        stop = threading.Event()
        while not stop.wait(bulk.REAP_INTERVAL_S):
            try:
                bulk.requeue_orphans(
                    _jobs(), _Dispatcher(), owner=owner, interval_s=bulk.REAP_INTERVAL_S
                )
            except Exception:  # the reaper must outlive a Redis or broker hiccup
                log.exception("orphan reaper pass failed")

    threading.Thread(target=loop, name="lexgraph-reaper", daemon=True).start()


def _backoff(retries: int) -> int:
    return int(min(2 ** (retries + 1), 60))
