"""Bulk ingestion jobs: plan a job (read its sources, record its laws, fan out one unit of
work per law) and run one law under the publish protocol (services/core/publish.py). A
document job (services/core/document_jobs.py) has one unit, a firm's document, run by the
same `run_unit` under the same lease and orphan reaper.

The Celery tasks (`lexgraph.ingest_corpus`, `lexgraph.ingest_law`) are thin wrappers over
`plan_job` and `run_law`; without a broker the API runs the same two functions in a
background thread (`InlineJobDispatcher`). Job state lives in Redis (`jobs.RedisJobStore`).

Everything here is idempotent, because with `acks_late` a worker killed mid-law gets its
task again: a law already final is skipped, a law half-loaded is loaded again from the
start (MERGE on uid, upsert on uuid5(uid)) and only then published.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from ingest.errors import InvalidSource
from ingest.graph import LawGraph
from ingest.models import Law
from services.core import telemetry
from services.core.errors import GraphQueryError, LexgraphError, StoreUnavailable
from services.core.indexing import optimize_vectors
from services.core.jobs import FINAL_LAW_STATUSES, Job, LawEntry, RedisJobStore
from services.core.links import build_corpus, relink
from services.core.links import check as check_links
from services.core.ports import Embedder, GraphStore, VectorIndex
from services.core.publish import LawOutcome, ingest_law_version
from services.core.sources import IngestLimits

log = logging.getLogger(__name__)

# Files a folder contributes to a job; anything else in it is ignored.
SOURCE_SUFFIXES = (".md", ".markdown", ".txt", ".json", ".jsonl")
INGEST_CORPUS_TASK = "lexgraph.ingest_corpus"
INGEST_LAW_TASK = "lexgraph.ingest_law"
INGEST_DOCUMENT_TASK = "lexgraph.ingest_document"
# Seconds a law's lease lives without renewal (renewed every LEASE_S / 3 while it runs).
LEASE_S = 30.0
# Seconds between passes of the orphan reaper (`requeue_orphans`): a dead runner's law is
# queued again within LEASE_S + 2 * REAP_INTERVAL_S = 50 s.
REAP_INTERVAL_S = 10.0
# Back-off between in-process attempts of a law that failed with a store error; after the
# last one the queue's own retries (services/worker/tasks.py) take over, or the law is
# dead-lettered on the final attempt.
LAW_RETRY_DELAYS_S = (1.0, 4.0)
FINISH_JOB_TASK = "lexgraph.finish_job"


class JobDispatcher(Protocol):
    """Hands work to whoever runs it: a Celery broker, or a thread in this process."""

    def submit(self, job_id: str) -> None: ...

    def submit_law(self, job_id: str, law_id: str, source: str) -> None: ...

    def submit_finish(self, job_id: str) -> None: ...

    def submit_document(self, job_id: str) -> None: ...


def file_name(source: str) -> str:
    return Path(source).name


@dataclass
class LawDeps:
    """The collaborators running a law needs (built once per process by bootstrap)."""

    graph: GraphStore
    vectors: VectorIndex
    embedder: Embedder
    # What a stored law says it came from: never a server path (sources.SourceRoots).
    source_name: Callable[[str], str] = file_name
    limits: IngestLimits = field(default_factory=IngestLimits)


class CeleryJobDispatcher:
    """Enqueue by task name (the API never imports the worker package)."""

    def __init__(self, send_task: Callable[..., Any]) -> None:
        self._send = send_task

    def submit(self, job_id: str) -> None:
        self._send(INGEST_CORPUS_TASK, args=[job_id])

    def submit_law(self, job_id: str, law_id: str, source: str) -> None:
        self._send(INGEST_LAW_TASK, args=[job_id, law_id, source])

    def submit_finish(self, job_id: str) -> None:
        self._send(FINISH_JOB_TASK, args=[job_id])

    def submit_document(self, job_id: str) -> None:
        self._send(INGEST_DOCUMENT_TASK, args=[job_id])


class InlineJobDispatcher:
    """No broker: run jobs in one background thread of this process, law after law."""

    def __init__(self, jobs: RedisJobStore, deps: LawDeps) -> None:
        self._jobs = jobs
        self._deps = deps
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lexgraph-job")
        self._local = threading.local()

    def submit(self, job_id: str) -> None:
        self._pool.submit(self._run_job, job_id)

    def submit_law(self, job_id: str, law_id: str, source: str) -> None:
        run_law(
            job_id,
            law_id,
            source,
            jobs=self._jobs,
            deps=self._deps,
            dispatcher=self,
            final_attempt=True,
        )

    def submit_finish(self, job_id: str) -> None:
        finish_job(job_id, jobs=self._jobs, deps=self._deps)

    def submit_document(self, job_id: str) -> None:
        self._pool.submit(self._run_document, job_id)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _run_job(self, job_id: str) -> None:
        try:
            plan_job(job_id, jobs=self._jobs, dispatcher=self, limits=self._deps.limits)
        except Exception:  # a background thread has nobody to raise to
            log.exception("job %s failed", job_id)
            self._jobs.fail_job(job_id, "internal error; see the API log")

    def _run_document(self, job_id: str) -> None:
        from services.core.document_jobs import run_document

        try:
            run_document(
                job_id, jobs=self._jobs, deps=self._deps, dispatcher=self, final_attempt=True
            )
        except Exception:  # run_unit records failures; this is for the job store itself
            log.exception("document job %s failed", job_id)


def expand_sources(paths: Iterable[str]) -> list[str]:
    """Files named, plus the source files inside folders named (sorted, recursive)."""
    files: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(
                str(p)
                for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES
            )
        else:
            files.append(str(path))
    return list(dict.fromkeys(files))


def read_laws(source: str) -> list[Law]:
    """The laws of one source file, cached per process by (path, mtime, size): a 698-law
    JSONL is read once per worker process, not once per law."""
    path = Path(source)
    try:
        stat = path.stat()
    except OSError as e:
        raise InvalidSource(source, f"cannot read: {e.strerror or e}") from e
    return list(_read_cached(str(path), stat.st_mtime_ns, stat.st_size)[0])


def rejected_records(source: str) -> list[InvalidSource]:
    """Records of a multi-law file (a laws.jsonl line) its reader rejected."""
    stat = Path(source).stat()
    return list(_read_cached(source, stat.st_mtime_ns, stat.st_size)[1])


@lru_cache(maxsize=64)
def _read_cached(
    source: str, mtime_ns: int, size: int
) -> tuple[tuple[Law, ...], tuple[InvalidSource, ...]]:
    from ingest.parse import read_source  # the readers' engineer's module

    result = read_source(Path(source))
    return tuple(result.laws), tuple(result.rejected)


def job_laws(
    sources: Sequence[str], limits: IngestLimits | None = None
) -> tuple[list[tuple[str, Law]], dict[str, str]]:
    """Every readable law of a job's sources with the file it is in (a law's own `source`
    may name a line of a JSONL), and the reason of each unreadable source (a file over
    `limits` is not read)."""
    laws: list[tuple[str, Law]] = []
    broken: dict[str, str] = {}
    for source in expand_sources(sources):
        too_big = limits.file_problem(Path(source)) if limits else None
        if too_big:
            broken[source] = f"InvalidSource: {too_big}"
            continue
        try:
            laws.extend((source, law) for law in read_laws(source))
        except InvalidSource as e:
            broken[source] = f"InvalidSource: {e.problem}"
            continue
        for rejected in rejected_records(source):
            broken[rejected.path] = f"InvalidSource: {rejected.problem}"
    return laws, broken


def plan_job(
    job_id: str,
    *,
    jobs: RedisJobStore,
    dispatcher: JobDispatcher,
    limits: IngestLimits | None = None,
) -> None:
    """Read a job's sources, record its laws, and hand out one unit of work per law; a
    source or law over `limits` (default `IngestLimits()`) fails at once with the reason."""
    limits = limits or IngestLimits()
    job = jobs.get(job_id)
    if job.state not in ("queued", "running"):
        return
    if job.cancel_requested:
        jobs.settle_empty(job_id)
        return
    jobs.mark_running(job_id)
    laws, broken = job_laws(job.sources, limits)
    entries: dict[str, LawEntry] = {}
    for source, law in laws:
        problem = limits.sections_problem(len(law.sections))
        entries.setdefault(law.id, LawEntry(law.id, "pending", source, len(law.sections), None,
                                            f"InvalidSource: {problem}" if problem else None))
    for source, reason in broken.items():
        broken_id = f"source:{Path(source).name}"
        entries[broken_id] = LawEntry(broken_id, "pending", source, 0, None, reason)
    if not entries:
        jobs.fail_job(job_id, "no source files found")
        return
    jobs.plan(job_id, entries.values(), sections_total=sum(e.sections for e in entries.values()))
    for source, reason in broken.items():
        telemetry.record_dead_letter(INGEST_CORPUS_TASK)
        jobs.finish_law(
            job_id, f"source:{Path(source).name}", status="failed", source=source, error=reason
        )  # before fan-out: never the law that completes the job
    for entry in entries.values():
        if entry.error and not entry.law_id.startswith("source:"):
            jobs.finish_law(
                job_id, entry.law_id, status="failed", source=entry.source, error=entry.error
            )
    for entry in entries.values():
        if entry.error is None and not _final(jobs, job_id, entry.law_id):
            dispatcher.submit_law(job_id, entry.law_id, entry.source)
    if jobs.mark_fanned_out(job_id):
        dispatcher.submit_finish(job_id)
    log.info("job %s planned: %d laws, %d unreadable sources", job_id, len(laws), len(broken))


def run_law(
    job_id: str,
    law_id: str,
    source: str,
    *,
    jobs: RedisJobStore,
    deps: LawDeps,
    dispatcher: JobDispatcher,
    final_attempt: bool,
    sleep: Callable[[float], None] = time.sleep,
) -> LawOutcome | None:
    """Ingest one law of a job (`run_unit`)."""
    return run_unit(
        job_id,
        law_id,
        source,
        lambda: _ingest(law_id, source, deps, jobs.get(job_id)),
        jobs=jobs,
        dispatcher=dispatcher,
        final_attempt=final_attempt,
        sleep=sleep,
    )


def run_unit(
    job_id: str,
    unit_id: str,
    source: str,
    work: Callable[[], LawOutcome],
    *,
    jobs: RedisJobStore,
    dispatcher: JobDispatcher,
    final_attempt: bool,
    sleep: Callable[[float], None] = time.sleep,
    progress_reported: bool = False,
) -> LawOutcome | None:
    """Run one unit of a job (a law, or a document: services/core/document_jobs.py) once,
    under its lease: `work()` must be idempotent. A store error (a store that does not
    answer, or one that fails a statement it ran before, such as a transient error or a
    deadlock between two writers) is retried here with back-off (`LAW_RETRY_DELAYS_S`);
    one that persists raises StoreUnavailable (retried by the queue) unless this is the
    final attempt. Any other failure, and a final one, is recorded on the job and in the
    dead-letter list."""
    if jobs.cancel_requested(job_id):
        _finished(jobs, dispatcher, job_id, unit_id, status="cancelled", source=source)
        return None
    if not jobs.start_law(job_id, unit_id, source):
        return None  # already final: a redelivered task
    owner = uuid.uuid4().hex
    if not jobs.take_lease(job_id, unit_id, owner, LEASE_S):
        raise LawBusy(f"{unit_id} of job {job_id} is running elsewhere")
    outcome: LawOutcome | None = None
    try:
        with _lease_renewed(jobs, job_id, unit_id, owner):
            outcome = _with_retries(work, unit_id, sleep=sleep)
    except StoreUnavailable as e:
        if not final_attempt:
            raise
        fail_law(jobs, dispatcher, job_id, unit_id, source, e)
    except (LexgraphError, InvalidSource, ValueError, KeyError) as e:
        fail_law(jobs, dispatcher, job_id, unit_id, source, e)
    except Exception as e:  # a bug on one unit must not leave the job waiting forever
        log.exception("job %s: %s raised", job_id, unit_id)
        fail_law(jobs, dispatcher, job_id, unit_id, source, e)
    if outcome is not None:
        _finished(
            jobs,
            dispatcher,
            job_id,
            unit_id,
            status=outcome.status,
            source=source,
            sections=outcome.sections,
            version=outcome.version,
            progress_reported=progress_reported,
        )
    return outcome


def requeue_orphans(
    jobs: RedisJobStore, dispatcher: JobDispatcher, *, owner: str, interval_s: float
) -> list[tuple[str, str]]:
    """One pass of the orphan reaper, run every `interval_s` by every worker (one of them
    takes each turn): a law that is running but whose lease was gone on two passes in a
    row lost its runner (killed with SIGKILL: the lease lapses within LEASE_S). It goes
    back to pending and to the queue at once, instead of waiting for the broker to
    redeliver the dead runner's unacknowledged task (the visibility timeout, 600 s);
    that redelivery, when it comes, finds the law final (or leased) and does nothing.
    Returns the (job id, law id) pairs re-queued."""
    if not jobs.take_reaper_turn(owner, interval_s * 0.9):
        return []
    requeued: list[tuple[str, str]] = []
    for entry in jobs.unleased_running_laws():
        job_id = entry.version or ""
        if not jobs.seen_unleased_before(job_id, entry.law_id, interval_s * 2.5):
            continue
        if jobs.requeue_law(job_id, entry.law_id):
            log.warning("job %s: %s lost its runner; queued again", job_id, entry.law_id)
            if jobs.get(job_id).kind == "document":
                dispatcher.submit_document(job_id)
            else:
                dispatcher.submit_law(job_id, entry.law_id, entry.source)
            requeued.append((job_id, entry.law_id))
    return requeued


def _with_retries(
    run: Callable[[], LawOutcome], law_id: str, *, sleep: Callable[[float], None]
) -> LawOutcome:
    """`run()`, again after each delay of LAW_RETRY_DELAYS_S while it fails with a store
    error (every step is idempotent, so a retry completes a half-loaded law)."""
    for delay in (*LAW_RETRY_DELAYS_S, None):
        try:
            return run()
        except (StoreUnavailable, GraphQueryError) as e:
            if delay is None:
                raise
            log.warning("law %s: %s; retrying in %.0f s", law_id, e, delay)
            sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover


def finish_job(job_id: str, *, jobs: RedisJobStore, deps: LawDeps) -> None:
    """The last step of a job, once every law is final: resolve the citations of the
    job's laws once more (each law did so when it was published, but two laws published
    at the same time by two workers may each have missed the other), check them against
    a fresh resolution (`links.check`, kept on the job as `check`), then set the job's
    final state. Idempotent."""
    job = jobs.get(job_id)
    if job.state not in ("queued", "running"):
        return
    entries = jobs.laws(job_id)
    loaded = sorted(e.law_id for e in entries if e.status in ("succeeded", "unchanged"))
    if loaded and job.kind == "laws":
        jobs.set_check(job_id, _relink_and_check(job_id, loaded, deps.graph))
    if job.document is not None:  # a document job's upload is not kept once it is final
        _remove_upload(Path(job.document["path"]))
    if any(e.status == "succeeded" for e in entries):
        optimize_vectors(deps.vectors)
    jobs.complete(job_id)
    log.info("job %s finished", job_id)


def _remove_upload(path: Path) -> None:
    path.unlink(missing_ok=True)
    try:
        path.parent.rmdir()
    except OSError:
        pass  # not empty, or gone already


def _build(law: Law, corpus: Any) -> LawGraph:
    from ingest.build import build_graph  # the graph builder's module

    return build_graph(law, corpus)


class LawBusy(Exception):
    """Another runner holds the law's lease; try again once it may have expired."""


@contextmanager
def _lease_renewed(jobs: RedisJobStore, job_id: str, law_id: str, owner: str) -> Iterator[None]:
    """Renew the lease every third of its life while the law runs; a runner killed with
    SIGKILL stops renewing, so its lease lapses within LEASE_S and a redelivery takes over."""
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(LEASE_S / 3):
            try:
                jobs.renew_lease(job_id, law_id, owner, LEASE_S)
            except StoreUnavailable:
                log.warning("could not renew the lease of %s", law_id)

    thread = threading.Thread(target=renew, name=f"lease-{law_id[:20]}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
        try:
            jobs.release_lease(job_id, law_id, owner)
        except StoreUnavailable:
            pass  # it lapses on its own


def corpus_index(sources: tuple[str, ...], graph: GraphStore) -> Any:
    """The CorpusIndex of every readable law of a job and every stored law."""
    laws, _ = job_laws(sources)
    return build_corpus([law for _, law in laws], graph)


def _ingest(law_id: str, source: str, deps: LawDeps, job: Job) -> LawOutcome:
    from services.core.indexing import index_law  # the vector engineer's module

    law = next((x for x in read_laws(source) if x.id == law_id), None)
    if law is None:
        raise InvalidSource(source, f"no law {law_id} in it")
    law = replace(law, source=deps.source_name(source))  # a copy: read_laws caches its laws
    corpus = corpus_index(job.sources, deps.graph)

    def load_graph(law: Law, version: str) -> LawGraph:
        built = _build(law, corpus)
        deps.graph.load_law(built, version)
        return built

    def load_vectors(law: Law, built: LawGraph, version: str) -> int:
        counts = index_law(
            law, built, vectors=deps.vectors, embedder=deps.embedder, version=version
        )
        return sum(counts.values())

    return ingest_law_version(
        law,
        graph=deps.graph,
        vectors=deps.vectors,
        load_graph=load_graph,
        load_vectors=load_vectors,
        on_published=lambda version: _relink(deps.graph, law.id),
        valid_from=job.valid_from,
    )


def _relink(graph: GraphStore, law_id: str) -> None:
    relink(graph, [law_id])


def _relink_and_check(job_id: str, law_ids: list[str], graph: GraphStore) -> dict[str, Any]:
    """The job's `check`. A store that is down raises (the task is retried); a statement
    the store refuses is reported in the check instead of leaving the job unfinished."""
    try:
        relink(graph, law_ids)
        result = check_links(graph, law_ids).as_dict(examples=5)
    except GraphQueryError as e:
        log.exception("job %s: relinking or checking cross-law citations failed", job_id)
        return {"ok": False, "error": str(e)}
    if not result["ok"]:
        log.warning("job %s: cross-law check found differences: %s", job_id, result)
    return result


def _finished(
    jobs: RedisJobStore, dispatcher: JobDispatcher, job_id: str, law_id: str, **kw: Any
) -> None:
    recorded = jobs.finish_law(job_id, law_id, **kw)
    if recorded and kw.get("status") == "succeeded" and not kw.get("progress_reported"):
        telemetry.record_sections_ingested(int(kw.get("sections", 0)))
    elif recorded and kw.get("status") == "failed":
        telemetry.record_dead_letter(INGEST_LAW_TASK)
    if recorded == 2:
        dispatcher.submit_finish(job_id)


def fail_law(
    jobs: RedisJobStore,
    dispatcher: JobDispatcher,
    job_id: str,
    law_id: str,
    source: str,
    e: Exception,
) -> None:
    """Record a law failed for good (dead letter); a no-op when it is already final."""
    log.warning("job %s: law %s failed: %s", job_id, law_id, e)
    _finished(
        jobs,
        dispatcher,
        job_id,
        law_id,
        status="failed",
        source=source,
        error=f"{type(e).__name__}: {e}",
    )


def _final(jobs: RedisJobStore, job_id: str, law_id: str) -> bool:
    entry = jobs.law(job_id, law_id)
    return entry is not None and entry.status in FINAL_LAW_STATUSES
