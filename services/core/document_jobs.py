"""A firm's large uploads through the job queue (`POST /v1/documents` over
`settings.document_inline_max_bytes`, or asked for with `background`).

The API checks the upload as `store_document` would before reading it (role, format by
name, metadata, scopes: `documents.document_key`), keeps its bytes under
`<data_dir>/uploads/<batch>/` and records a document job (services/core/jobs.py) whose one
unit is the document's id. A worker, or without a broker a thread of the API, stores it
exactly as the API would (services/core/documents.py), reporting the passages embedded so
far as the job's sections done; the bytes are removed once the job is final.

The unit runs under `bulk.run_unit`'s lease and orphan reaper, like a law: a worker killed
mid-upload has the document run again by another, from the start. Storing it again
completes it or is a no-op: nothing is written before every passage is embedded, points
are upserted by passage id and the graph is written in one transaction.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ingest.errors import InvalidSource
from services.core.access import Principal
from services.core.bulk import JobDispatcher, LawDeps, run_unit
from services.core.documents import Stores, Upload, document_key, store_document
from services.core.jobs import Job, RedisJobStore
from services.core.ports import GraphStore
from services.core.publish import LawOutcome
from services.core.sources import UPLOADS_DIR


def submit_document(
    upload: Upload,
    *,
    access: Principal,
    graph: GraphStore,
    jobs: RedisJobStore,
    dispatcher: JobDispatcher,
    data_dir: Path,
    max_chars: int,
    max_passages: int,
    replace: str | None = None,
) -> Job:
    """Check the upload, keep its bytes and queue the job that stores it."""
    key = document_key(upload, access=access, graph=graph, replace=replace)
    folder = data_dir / UPLOADS_DIR / uuid.uuid4().hex
    folder.mkdir(parents=True)
    path = folder / "document"
    path.write_bytes(upload.data)
    spec: dict[str, Any] = {
        "key": key,
        "path": str(path),
        "filename": upload.filename[:200],
        "title": upload.title,
        "date": upload.date,
        "scopes": list(upload.scopes),
        "replace": replace,
        "principal": asdict(access),
        "max_chars": max_chars,
        "max_passages": max_passages,
    }
    job = jobs.create([upload.filename[:200]], owner=access.id, document=spec)
    dispatcher.submit_document(job.id)
    return job


def run_document(
    job_id: str,
    *,
    jobs: RedisJobStore,
    deps: LawDeps,
    dispatcher: JobDispatcher,
    final_attempt: bool,
    sleep: Callable[[float], None] = time.sleep,
) -> LawOutcome | None:
    """Store the document of a document job (a no-op when it is final already)."""
    spec = document_spec(jobs.get(job_id))

    def work() -> LawOutcome:
        try:
            data = Path(spec["path"]).read_bytes()
        except FileNotFoundError:
            raise InvalidSource(spec["filename"], "is no longer kept; upload it again") from None
        stored = store_document(
            Upload(spec["filename"], data, spec["title"], spec["date"], spec["scopes"]),
            access=_principal(spec["principal"]),
            stores=Stores.of(deps.graph, deps.vectors, deps.embedder),
            max_chars=spec["max_chars"],
            max_passages=spec["max_passages"],
            replace=spec["replace"],
            progress=lambda done, total: jobs.report_progress(job_id, done, total),
        )
        passages = len(stored["passages"])
        if not stored["changed"]:
            jobs.report_progress(job_id, passages, passages)
        return LawOutcome(
            law_id=stored["id"],
            version=str(stored["sha256"])[:16],
            status="succeeded" if stored["changed"] else "unchanged",
            sections=passages,
        )

    return run_unit(
        job_id,
        spec["key"],
        spec["path"],
        work,
        jobs=jobs,
        dispatcher=dispatcher,
        final_attempt=final_attempt,
        sleep=sleep,
        progress_reported=True,
    )


def document_spec(job: Job) -> dict[str, Any]:
    """What a document job stores; ValueError for any other job."""
    if job.document is None:
        raise ValueError(f"job {job.id} is not a document job")
    return job.document


def _principal(data: Mapping[str, Any]) -> Principal:
    return Principal(
        id=str(data["id"]),
        tenant=str(data["tenant"]),
        groups=tuple(data.get("groups") or ()),
        roles=tuple(data.get("roles") or ("reader",)),
    )
