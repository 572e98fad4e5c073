"""`/v1/jobs`: bulk ingestion jobs (submit, progress, failed list, cancel, delete, retry).

The API only records a job and hands its id to the queue by task name
(`lexgraph.ingest_corpus`); workers do the work (services/core/bulk.py). Job state lives in
Redis (services/core/jobs.py), so it outlives both the API and the workers.

Expects on `app.state`: `jobs` (RedisJobStore), `job_dispatcher` (bulk.JobDispatcher) and
`settings`. A job's sources are either uploaded (`multipart/form-data`, one or more `files`
parts, stored under `<data_dir>/uploads/<batch>/<n>/<name>`, at most
`settings.max_upload_bytes` in all, else 413) or named as JSON `{"paths": [...]}`: files or
folders under a configured source root (services/core/sources.py). A path outside every
root, missing, or a link out of a root is 403 with one body whatever the server holds there.
Folders are listed here, at submission, and a link inside one that leads out of every root
is left out. Answers name sources by their path under their root or the upload's name,
never by a server path.

Jobs belong to the principal (API key) that submitted them: another principal gets 404
for them and does not see them in a list.
"""

from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import UploadFile

from services.api.deps import PrincipalDep
from services.api.problems import BODY_PROBLEMS, problem, problem_responses
from services.api.schemas import (
    DeadLetters,
    IngestPaths,
    IngestUpload,
    JobList,
    JobOut,
)
from services.core.bulk import expand_sources
from services.core.errors import Forbidden, InvalidQuery, NotFound, StoreUnavailable
from services.core.jobs import Job, RedisJobStore
from services.core.publish import valid_day
from services.core.settings import Settings
from services.core.sources import UPLOADS_DIR, SourceRoots

log = logging.getLogger(__name__)

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])

_SAFE_NAME = re.compile(r"[^0-9A-Za-z\u0E00-\u0E7F._-]+")
_COPY_CHUNK = 1 << 20
_MAX_UPLOAD_FILES = 10_000
JobState = Literal["queued", "running", "succeeded", "failed", "cancelled"]
JOB_ID_PATTERN = "[0-9a-f]{32}"  # uuid4().hex (RedisJobStore.create)


class _JobIdConvertor(Convertor[str]):
    """Routes match `{job_id:job_id}` only for a job id, so `/v1/jobs/ingest` and
    `/v1/jobs/deadletter` are never also "the job called ingest"."""

    regex = JOB_ID_PATTERN

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("job_id", _JobIdConvertor())
JobId = Annotated[str, Path(pattern=f"^{JOB_ID_PATTERN}$", description="A job's id.")]

_OUTSIDE = (
    "is not a file or folder under the configured source roots (LEXGRAPH_SOURCE_ROOTS); "
    "upload the file instead"
)

_INGEST_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": IngestPaths.model_json_schema()},
            "multipart/form-data": {"schema": IngestUpload.model_json_schema()},
        },
    }
}


def _store(request: Request) -> RedisJobStore:
    store: RedisJobStore | None = getattr(request.app.state, "jobs", None)
    if store is None:
        raise StoreUnavailable("no job store configured")
    return store


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _roots(request: Request) -> SourceRoots:
    return SourceRoots.from_settings(_settings(request))


def _owned(store: RedisJobStore, job_id: str, principal: str) -> Job:
    """The job, if `principal` submitted it and has not deleted it; the same 404 as an
    unknown job otherwise."""
    job = store.get(job_id)
    if job.owner != principal or job.deleted:
        raise NotFound(f"job {job_id}")
    return job


def _public(job: Job, roots: SourceRoots) -> dict[str, Any]:
    body = job.to_dict()
    body["sources"] = [roots.public_name(s) for s in job.sources]
    return body


def _accepted(request: Request, job: Job) -> JSONResponse:
    location = str(request.url_for("get_job", job_id=job.id).path)
    body = {**_public(job, _roots(request)), "links": {"self": location}}
    return JSONResponse(body, status_code=202, headers={"Location": location})


@router.post(
    "/ingest",
    status_code=202,
    response_model=JobOut,
    responses={
        202: {"description": "The job, queued; `Location` is where to follow it."},
        **problem_responses(*BODY_PROBLEMS, 403, 503),
    },
    openapi_extra=_INGEST_BODY,
)
async def submit_ingest(request: Request, principal: PrincipalDep) -> JSONResponse:
    """Submit sources for ingestion: uploaded files, or paths under the source roots."""
    settings = _settings(request)
    content_type = request.headers.get("content-type", "")
    if content_type.lower().startswith("multipart/form-data"):
        saved = await _save_uploads(request, settings)
        if saved is None:
            return _too_large(request, settings)
        sources, valid_from = saved
    else:
        sources, valid_from = _checked_paths(await request.body(), _roots(request))
    store = _store(request)
    job = store.create(sources, owner=principal, valid_from=valid_from)
    request.app.state.job_dispatcher.submit(job.id)
    return _accepted(request, store.get(job.id))


@router.get(
    "",
    response_model=JobList,
    responses=problem_responses(422, 503),
)
def list_jobs(
    request: Request,
    principal: PrincipalDep,
    state: Annotated[JobState | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict[str, Any]:
    """Your jobs, newest first."""
    roots = _roots(request)
    jobs = _store(request).list_jobs(state=state, owner=principal, limit=limit)
    return {"jobs": [_public(j, roots) for j in jobs]}


@router.get("/deadletter", response_model=DeadLetters, responses=problem_responses(503))
def dead_letters(request: Request, principal: PrincipalDep) -> dict[str, Any]:
    """Laws of your jobs that failed, with the reason (cleared when a law later succeeds)."""
    roots = _roots(request)
    letters = _store(request).dead_letters(owner=principal)
    return {
        "dead_letters": [
            {**d.to_dict(), "source": roots.public_name(d.source)} for d in letters
        ]
    }


@router.get(
    "/{job_id:job_id}",
    name="get_job",
    response_model=JobOut,
    responses=problem_responses(404, 422, 503),
)
def get_job(
    request: Request, job_id: JobId, principal: PrincipalDep, laws: bool = False
) -> dict[str, Any]:
    """State, laws and sections done, ETA, per-law errors (`laws=true`: every law)."""
    store = _store(request)
    roots = _roots(request)
    body = _public(_owned(store, job_id, principal), roots)
    if laws:
        body["law_entries"] = [
            {
                "law_id": e.law_id,
                "status": e.status,
                "source": roots.public_name(e.source),
                "sections": e.sections,
                "version": e.version,
                "error": e.error,
            }
            for e in store.laws(job_id)
        ]
    return body


@router.post(
    "/{job_id:job_id}/cancel",
    status_code=202,
    response_model=JobOut,
    responses=problem_responses(404, 422, 503),
)
def cancel_job(request: Request, job_id: JobId, principal: PrincipalDep) -> JSONResponse:
    """Cooperative cancel: laws not started are skipped, the law in progress finishes and
    publishes whole; the job then reads `cancelled`."""
    store = _store(request)
    _owned(store, job_id, principal)
    _cancel(request, store, job_id)
    return JSONResponse(_public(store.get(job_id), _roots(request)), status_code=202)


@router.delete(
    "/{job_id:job_id}",
    status_code=204,
    responses={
        204: {"description": "Deleted: the job reads as unknown (404) from now on."},
        **problem_responses(404, 422, 503),
    },
)
def delete_job(request: Request, job_id: JobId, principal: PrincipalDep) -> Response:
    """Cancel the job if it still runs (as `POST .../cancel`) and forget it. The laws it
    published stay published."""
    store = _store(request)
    _owned(store, job_id, principal)
    _cancel(request, store, job_id)
    store.delete(job_id)
    return Response(status_code=204)


@router.post(
    "/{job_id:job_id}/retry",
    status_code=202,
    response_model=JobOut,
    responses=problem_responses(404, 409, 422, 503),
)
def retry_job(request: Request, job_id: JobId, principal: PrincipalDep) -> JSONResponse:
    """A new job over the failed and cancelled laws' sources of `job_id`."""
    store = _store(request)
    if _owned(store, job_id, principal).kind == "document":
        return problem(
            409,
            f"job {job_id} stored an uploaded document, whose bytes are not kept once its "
            "job ends: upload the document again",
            instance=request.url.path,
            slug="upload-again",
            title="Upload the document again",
        )
    sources = store.retry_sources(job_id)
    if not sources:
        return problem(
            409,
            f"job {job_id} has no failed or cancelled laws",
            instance=request.url.path,
            slug="nothing-to-retry",
            title="Nothing to retry",
        )
    job = store.create(
        sources, owner=principal, retry_of=job_id, valid_from=store.get(job_id).valid_from
    )
    request.app.state.job_dispatcher.submit(job.id)
    return _accepted(request, store.get(job.id))


# --- helpers ---------------------------------------------------------------------------


def _cancel(request: Request, store: RedisJobStore, job_id: str) -> None:
    job = store.request_cancel(job_id)
    if job.state in ("queued", "running") and store.all_laws_final(job_id):
        # nothing is running that would finish the job: its finishing step runs now
        request.app.state.job_dispatcher.submit_finish(job_id)


def _too_large(request: Request, settings: Settings) -> JSONResponse:
    return problem(
        413,
        f"uploads are limited to {settings.max_upload_bytes} bytes in all",
        instance=request.url.path,
        slug="payload-too-large",
        title="Upload too large",
    )


def _checked_paths(body: bytes, roots: SourceRoots) -> tuple[list[str], str | None]:
    """The real files the body's paths name (folders listed), all under a root, and the
    day they apply from when the body gives one."""
    try:
        request = IngestPaths.model_validate_json(body or b"null")
    except ValidationError as e:
        if body.strip() in (b"", b"null") or not body.lstrip().startswith(b"{"):
            raise InvalidQuery(
                "body", "JSON {\"paths\": [...]} or multipart/form-data with `files`"
            ) from None
        raise RequestValidationError(e.errors(include_url=False)) from None
    files: list[str] = []
    for i, raw in enumerate(request.paths):
        real = roots.resolve(raw)
        if real is None:
            raise Forbidden(f"paths[{i}] {_OUTSIDE}")
        if real.is_dir():
            listed = expand_sources([str(real)])
            kept = roots.confined(listed)
            if len(kept) < len(listed):
                log.warning("%d links in %s lead out of the source roots; left out",
                            len(listed) - len(kept), roots.public_name(real))
            files.extend(kept)
        else:
            files.append(str(real))
    return list(dict.fromkeys(files)), request.valid_from


async def _save_uploads(
    request: Request, settings: Settings
) -> tuple[list[str], str | None] | None:
    """Store the uploaded files; None when they exceed the size limit (nothing kept). With
    the day they apply from, when the form gives one (`valid_from`)."""
    try:
        form = await request.form(max_files=_MAX_UPLOAD_FILES, max_fields=100)
    except Exception as e:  # starlette raises its own MultiPartException (400-worthy)
        raise InvalidQuery("files", f"not a readable multipart body: {e}") from None
    try:
        uploads = [v for v in form.getlist("files") if isinstance(v, UploadFile)]
        if not uploads:
            raise InvalidQuery("files", "multipart upload with one or more `files` parts")
        day = form.get("valid_from")  # given empty, or as a file, it is refused by name
        valid_from = None if day is None else valid_day(day if isinstance(day, str) else "")
        batch = settings.data_dir / UPLOADS_DIR / uuid.uuid4().hex
        written = 0
        saved: list[str] = []
        for i, upload in enumerate(uploads):
            name = _SAFE_NAME.sub("_", FilePath(upload.filename or "").name).strip(".") or "upload"
            folder = batch / f"{i:04d}"
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / name
            with target.open("wb") as out:
                while chunk := await upload.read(_COPY_CHUNK):
                    written += len(chunk)
                    if written > settings.max_upload_bytes:
                        _remove(batch)
                        return None
                    out.write(chunk)
            saved.append(str(target))
        return saved, valid_from
    finally:
        await form.close()


def _remove(folder: FilePath) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_dir():
            path.rmdir()
        else:
            path.unlink()
    folder.rmdir()
