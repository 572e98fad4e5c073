"""`/v1/jobs`: bulk ingestion jobs (submit, progress, failed list, cancel, retry, uploads).

The API only records a job and hands its id to the queue by task name
(`lexgraph.ingest_corpus`); workers do the work (services/core/bulk.py). Job state lives in
Redis (services/core/jobs.py), so it outlives both the API and the workers.

Expects on `app.state`: `jobs` (RedisJobStore), `job_dispatcher` (bulk.JobDispatcher) and
`settings`. A request body is either JSON `{"paths": [...]}` naming files or folders the
workers can read, or `multipart/form-data` with one or more `files` parts, stored under
`<data_dir>/uploads/<id>/` (at most `settings.max_upload_bytes` in all; 413 past it).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import UploadFile

from services.core.errors import InvalidQuery, NotFound
from services.core.jobs import JOB_STATES, Job, RedisJobStore
from services.core.settings import Settings

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])

PROBLEM_TYPE = "https://lexgraph.dev/problems/"
_SAFE_NAME = re.compile(r"[^0-9A-Za-z\u0E00-\u0E7F._-]+")
_COPY_CHUNK = 1 << 20


def _problem(status: int, slug: str, title: str, detail: str) -> JSONResponse:
    return JSONResponse(
        {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail},
        status_code=status,
        media_type="application/problem+json",
    )


def _store(request: Request) -> RedisJobStore:
    store: RedisJobStore | None = getattr(request.app.state, "jobs", None)
    if store is None:
        raise HTTPException(status_code=503, detail="no job store configured")
    return store


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _accepted(request: Request, job: Job) -> JSONResponse:
    location = str(request.url_for("get_job", job_id=job.id).path)
    body = {**job.to_dict(), "links": {"self": location}}
    return JSONResponse(body, status_code=202, headers={"Location": location})


@router.post("/ingest", status_code=202)
async def submit_ingest(request: Request) -> JSONResponse:
    """Submit sources for ingestion: JSON paths or uploaded files. 202 + Location."""
    settings = _settings(request)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        declared = int(request.headers.get("content-length") or 0)
        if declared > settings.max_upload_bytes:
            return _too_large(settings)
        sources = await _save_uploads(request, settings)
        if sources is None:
            return _too_large(settings)
    else:
        try:
            payload = await request.json()
        except ValueError as e:
            raise InvalidQuery("body", "JSON {'paths': [...]} or multipart files") from e
        sources = _checked_paths(payload)
    store = _store(request)
    job = store.create(sources)
    request.app.state.job_dispatcher.submit(job.id)
    return _accepted(request, store.get(job.id))


@router.get("")
def list_jobs(
    request: Request,
    state: str | None = Query(default=None),
    limit: int = Query(default=50, ge=1, le=500),
) -> dict[str, Any]:
    if state is not None and state not in JOB_STATES:
        raise InvalidQuery("state", f"one of {', '.join(JOB_STATES)}")
    jobs = _store(request).list_jobs(state=state, limit=limit)
    return {"jobs": [j.to_dict() for j in jobs]}


@router.get("/deadletter")
def dead_letters(request: Request) -> dict[str, Any]:
    """Laws that failed, with the reason, across jobs (cleared when a law later succeeds)."""
    return {"dead_letters": [d.to_dict() for d in _store(request).dead_letters()]}


@router.get("/{job_id}", name="get_job")
def get_job(request: Request, job_id: str, laws: bool = False) -> dict[str, Any]:
    store = _store(request)
    body = store.get(job_id).to_dict()
    if laws:
        body["law_entries"] = [
            {
                "law_id": e.law_id,
                "status": e.status,
                "source": e.source,
                "sections": e.sections,
                "version": e.version,
                "error": e.error,
            }
            for e in store.laws(job_id)
        ]
    return body


@router.delete("/{job_id}", status_code=202)
def cancel_job(request: Request, job_id: str) -> JSONResponse:
    """Cooperative cancel: laws not started are skipped, the law in progress finishes."""
    store = _store(request)
    job = store.request_cancel(job_id)
    if job.state in ("queued", "running") and store.all_laws_final(job_id):
        # nothing is running that would finish the job: its finishing step runs now
        request.app.state.job_dispatcher.submit_finish(job_id)
    return JSONResponse(store.get(job_id).to_dict(), status_code=202)


@router.post("/{job_id}/retry", status_code=202)
def retry_job(request: Request, job_id: str) -> JSONResponse:
    """A new job over the failed and cancelled laws' sources of `job_id`."""
    store = _store(request)
    store.get(job_id)  # 404 for an unknown job
    sources = store.retry_sources(job_id)
    if not sources:
        return _problem(
            409,
            "nothing-to-retry",
            "Nothing to retry",
            f"job {job_id} has no failed or cancelled laws",
        )
    job = store.create(sources, retry_of=job_id)
    request.app.state.job_dispatcher.submit(job.id)
    return _accepted(request, store.get(job.id))


def _too_large(settings: Settings) -> JSONResponse:
    return _problem(
        413,
        "payload-too-large",
        "Upload too large",
        f"uploads are limited to {settings.max_upload_bytes} bytes in all",
    )


def _checked_paths(payload: Any) -> list[str]:
    paths = payload.get("paths") if isinstance(payload, dict) else None
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        raise InvalidQuery("paths", "a non-empty list of file or folder paths")
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise NotFound(f"no such source: {', '.join(missing[:5])}")
    return [str(Path(p).resolve()) for p in paths]


async def _save_uploads(request: Request, settings: Settings) -> list[str] | None:
    """Store the uploaded files; None when they exceed the size limit (nothing kept)."""
    form = await request.form(max_files=10_000)
    uploads = [v for v in form.getlist("files") if isinstance(v, UploadFile)]
    if not uploads:
        raise InvalidQuery("files", "multipart upload with one or more `files` parts")
    folder = settings.data_dir / "uploads" / uuid.uuid4().hex
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    saved: list[str] = []
    try:
        for i, upload in enumerate(uploads):
            name = _SAFE_NAME.sub("_", Path(upload.filename or f"upload-{i}").name) or f"u{i}"
            target = folder / f"{i:04d}-{name}"
            with target.open("wb") as out:
                while chunk := await upload.read(_COPY_CHUNK):
                    written += len(chunk)
                    if written > settings.max_upload_bytes:
                        raise _TooLarge
                    out.write(chunk)
            saved.append(str(target))
    except _TooLarge:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        return None
    finally:
        await form.close()
    return saved


class _TooLarge(Exception):
    pass
