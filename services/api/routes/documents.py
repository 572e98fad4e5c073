"""`/v1/documents`: a firm's own documents beside the statutes (services/core/documents.py).

`POST` (multipart: `file`, `title`, `date`, optional `scopes`, comma-separated groups)
stores a Markdown, plain-text, DOCX or PDF file for the caller's tenant; `GET`, `PUT`
(the same form) and `DELETE /v1/documents/{id}` read, replace and remove one. The tenant
is always the key's (services/api/security.py), never a field of the request. Readers
read; editors also write their tenant's documents; a key grants only its own groups
unless it is an admin. A document the caller may not see answers 404, like an unknown
one. Every read is audited (services/api/audit.py).

An upload over `settings.document_inline_max_bytes`, or one sent with `background=true`,
goes through the job queue (services/core/document_jobs.py): 202 with the job (its
`document.id`, and `Location` to follow it at `/v1/jobs/{id}`, whose sections are the
passages embedded so far). Without a job store (no Redis) uploads are stored within the
request whatever their size, and `background=true` is 503.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Path, Request, Response, UploadFile
from fastapi.responses import JSONResponse

from services.api import audit
from services.api.deps import AccessDep, ClientsDep, call_store
from services.api.problems import BODY_PROBLEMS, problem_responses
from services.api.schemas import DocumentDeleted, DocumentOut, JobOut
from services.core import document_jobs, documents
from services.core.access import Principal
from services.core.errors import InvalidQuery, StoreUnavailable

router = APIRouter(prefix="/v1/documents", tags=["documents"])

DocumentId = Annotated[
    str, Path(description="Document id, doc-<24 hex>", max_length=40, examples=["doc-" + "0" * 24])
]
FileField = Annotated[UploadFile, File(description="Markdown, text, DOCX or PDF (text layer)")]
# What the schema promises is what the core checks (services/core/documents.py): a title
# of 1-300 characters besides spaces, a date as YYYY-MM-DD, group names (an empty form field
# reads as a missing one).
TitleField = Annotated[
    str,
    Form(
        max_length=300,
        pattern=r"[^\s\x1c-\x1f]",  # something besides spaces (Python's split() ones)
        description="The document's title",
    ),
]
DateField = Annotated[
    str,
    Form(
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        json_schema_extra={"format": "date"},
        description="Its date, YYYY-MM-DD",
    ),
]
_GROUP = r"\s*(?:[^@,\s\x00-\x1f][^,\x00-\x1f]{0,99})?\s*"
ScopesField = Annotated[
    str,
    Form(
        max_length=10_000,
        # each comma-separated name, spaces around it aside: 1-100 characters, no "@" first
        pattern=rf"^{_GROUP}(?:,{_GROUP})*$",
        description="Comma-separated groups that may see it (yours, unless you are an "
        "admin); empty: every principal of your tenant",
    ),
]
BackgroundField = Annotated[
    bool,
    Form(
        description="Store it through the job queue (202 and a job) whatever its size; "
        "uploads over the server's inline limit always are"
    ),
]
_WRITE_PROBLEMS: dict[int | str, dict[str, Any]] = {
    202: {"model": JobOut, "description": "Queued: the job that stores it (`Location`)."},
    **problem_responses(*BODY_PROBLEMS, 403, 404, 503),
}


@router.post("", response_model=DocumentOut, status_code=201, responses=_WRITE_PROBLEMS)
async def upload_document(
    request: Request,
    response: Response,
    clients: ClientsDep,
    access: AccessDep,
    file: FileField,
    title: TitleField,
    date: DateField,
    scopes: ScopesField = "",
    background: BackgroundField = False,
) -> Any:
    """Store a document: parsed into passages, its citations of statutes linked to their
    sections (CITES), its passages embedded with its tenant and scopes. The same bytes
    again are a no-op (`created: false`). A large upload is queued (202, a job)."""
    upload = await _upload(file, title, date, scopes)
    if _queued(request, clients, upload, background):
        return await _submit(request, clients, access, upload, replace=None)
    stored = await _store(clients, access, upload, replace=None)
    if not stored["created"]:
        response.status_code = 200
    return stored


@router.get(
    "/{document_id}", response_model=DocumentOut, responses=problem_responses(404, 422, 503)
)
async def read_document(
    document_id: DocumentId, clients: ClientsDep, access: AccessDep
) -> dict[str, Any]:
    """A visible document with its passages and the sections each cites."""
    found = await call_store(
        clients.settings,
        lambda: documents.get_document(document_id, access=access, graph=clients.graph),
    )
    audit.record("document.read", access, ids=[found["id"]])
    return found


@router.put("/{document_id}", response_model=DocumentOut, responses=_WRITE_PROBLEMS)
async def replace_document(
    request: Request,
    document_id: DocumentId,
    clients: ClientsDep,
    access: AccessDep,
    file: FileField,
    title: TitleField,
    date: DateField,
    scopes: ScopesField = "",
    background: BackgroundField = False,
) -> Any:
    """New contents and metadata for a visible document; the id stays. A large upload is
    queued (202, a job)."""
    upload = await _upload(file, title, date, scopes)
    if _queued(request, clients, upload, background):
        return await _submit(request, clients, access, upload, replace=document_id)
    return await _store(clients, access, upload, replace=document_id)


@router.delete(
    "/{document_id}",
    response_model=DocumentDeleted,
    responses=problem_responses(403, 404, 422, 503),
)
async def delete_document(
    document_id: DocumentId, clients: ClientsDep, access: AccessDep
) -> dict[str, Any]:
    """Remove the document, its passages, their edges and their vector points."""
    stores = _stores(clients)
    deleted = await call_store(
        clients.settings,
        lambda: documents.delete_document(document_id, access=access, stores=stores),
    )
    audit.record("document.delete", access, ids=[document_id])
    return deleted


async def _upload(file: UploadFile, title: str, date: str, scopes: str) -> documents.Upload:
    data = await file.read()
    name = file.filename or ""
    if not name:
        raise InvalidQuery("file", "needs a file name ending in .md, .txt, .docx or .pdf")
    groups = [g.strip() for g in scopes.split(",") if g.strip()]
    return documents.Upload(filename=name, data=data, title=title, date=date, scopes=groups)


async def _store(
    clients: ClientsDep, access: Principal, upload: documents.Upload, *, replace: str | None
) -> dict[str, Any]:
    stores = _stores(clients)
    settings = clients.settings
    # Parsing and embedding a long document takes longer than a search's store deadline.
    stored = await call_store(
        settings.model_copy(update={"store_timeout_s": max(settings.store_timeout_s, 120.0)}),
        lambda: documents.store_document(
            upload,
            access=access,
            stores=stores,
            max_chars=settings.document_passage_chars,
            max_passages=settings.document_max_passages,
            replace=replace,
        ),
        what="the document stores",
    )
    audit.record("document.write", access, ids=[stored["id"]])
    return stored


def _queued(
    request: Request, clients: ClientsDep, upload: documents.Upload, background: bool
) -> bool:
    """Whether this upload goes through the job queue (see the module doc)."""
    if getattr(request.app.state, "jobs", None) is None:
        if background:
            raise StoreUnavailable("background: no job store (Redis) is configured")
        return False
    return background or len(upload.data) > clients.settings.document_inline_max_bytes


async def _submit(
    request: Request,
    clients: ClientsDep,
    access: Principal,
    upload: documents.Upload,
    *,
    replace: str | None,
) -> JSONResponse:
    settings = clients.settings
    job = await call_store(
        settings,
        lambda: document_jobs.submit_document(
            upload,
            access=access,
            graph=clients.graph,
            jobs=request.app.state.jobs,
            dispatcher=request.app.state.job_dispatcher,
            data_dir=settings.data_dir,
            max_chars=settings.document_passage_chars,
            max_passages=settings.document_max_passages,
            replace=replace,
        ),
        what="the document stores",
    )
    key = document_jobs.document_spec(job)["key"]
    audit.record("document.write", access, ids=[key])
    location = str(request.url_for("get_job", job_id=job.id).path)
    links = {"self": location, "document": f"/v1/documents/{key}"}
    return JSONResponse(
        {**job.to_dict(), "links": links}, status_code=202, headers={"Location": location}
    )


def _stores(clients: ClientsDep) -> documents.Stores:
    return documents.Stores.of(clients.graph, clients.vectors, clients.embedder)
