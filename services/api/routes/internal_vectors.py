"""`/internal/vectors/...`: the vector-owning API process serves its index to workers.

Only mounted when this process owns an embedded vector index (`vector_backend = "edge"`);
with a Qdrant server every process talks to Qdrant directly. Guarded by the shared token
(`services/core/remote_vectors.py`), compared in constant time; outside `/v1`, so the
public API keys neither grant nor need access. The client is `RemoteVectorIndex`.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Depends, Header, HTTPException, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from services.core.indexing import optimize_vectors
from services.core.ports import ScopedVectorIndex, VectorIndex, scoped_vectors
from services.core.remote_vectors import (
    INTERNAL_PREFIX,
    TOKEN_HEADER,
    decode_embedding,
    decode_point,
)
from services.core.vector_index import COLLECTIONS as _COLLECTIONS

# payload field -> allowed values (documents' tenant, scopes, document, version)
Where = dict[str, list[str]]


def _authorised(
    request: Request, token: str | None = Header(default=None, alias=TOKEN_HEADER)
) -> None:
    expected: str | None = getattr(request.app.state, "internal_token", None)
    if not expected or not token or not hmac.compare_digest(token, expected):
        raise HTTPException(status_code=401, detail="internal token missing or wrong")


router = APIRouter(
    prefix=INTERNAL_PREFIX,
    tags=["internal"],
    dependencies=[Depends(_authorised)],
    include_in_schema=False,
)


def _vectors(request: Request) -> VectorIndex:
    vectors: VectorIndex | None = getattr(request.app.state, "vectors", None)
    if vectors is None:
        raise HTTPException(status_code=503, detail="this process holds no vector index")
    return vectors


Vectors = Annotated[VectorIndex, Depends(_vectors)]


def _collection(collection: str) -> str:
    if collection not in _COLLECTIONS:
        raise HTTPException(status_code=404, detail=f"unknown collection {collection!r}")
    return collection


class EnsureBody(BaseModel):
    dense_size: int = Field(gt=0, le=8192)
    sparse_idf: bool = False
    english_size: int | None = Field(default=None, gt=0, le=8192)


class UpsertBody(BaseModel):
    points: list[dict[str, Any]]


class DeleteLawBody(BaseModel):
    law_id: str
    keep_versions: list[str] = []


class PruneBody(BaseModel):
    law_id: str
    version: str
    keep_keys: list[str]


class CountBody(BaseModel):
    law_id: str | None = None
    version: str | None = None


class WhereBody(BaseModel):
    where: Where = Field(min_length=1)


class SearchBody(BaseModel):
    query: dict[str, Any]
    limit: int = Field(gt=0, le=1000)
    laws: list[str] | None = None
    kinds: list[str] | None = None
    mode: str = "hybrid"
    law_versions: list[str] | None = None
    exclude_law_versions: list[str] | None = None
    where: Where | None = None


@router.post("/ping")
def ping() -> dict[str, bool]:
    return {"ok": True}


@router.post("/ensure")
async def ensure(body: EnsureBody, vectors: Vectors) -> dict[str, bool]:
    await run_in_threadpool(
        vectors.ensure_collections,
        body.dense_size,
        sparse_idf=body.sparse_idf,
        english_size=body.english_size,
    )
    return {"ok": True}


@router.post("/optimize")
def optimize(vectors: Vectors, background: BackgroundTasks) -> dict[str, bool]:
    """Build the indexes of what was written, after answering. qdrant-edge holds the GIL
    while it optimises, so this process answers nothing meanwhile (15 s at 67k points,
    nothing when there is nothing new to index): workers call it once per bulk job."""
    background.add_task(optimize_vectors, vectors)
    return {"scheduled": True}


@router.post("/{collection}/upsert")
async def upsert(collection: str, body: UpsertBody, vectors: Vectors) -> dict[str, int]:
    points = [decode_point(p) for p in body.points]
    await run_in_threadpool(vectors.upsert, _collection(collection), points)
    return {"upserted": len(points)}


@router.post("/{collection}/delete_law")
async def delete_law(collection: str, body: DeleteLawBody, vectors: Vectors) -> dict[str, bool]:
    await run_in_threadpool(
        vectors.delete_law, _collection(collection), body.law_id, keep_versions=body.keep_versions
    )
    return {"ok": True}


@router.post("/{collection}/prune_version")
async def prune_version(collection: str, body: PruneBody, vectors: Vectors) -> dict[str, bool]:
    await run_in_threadpool(
        vectors.prune_version,
        _collection(collection),
        body.law_id,
        body.version,
        keep_keys=set(body.keep_keys),
    )
    return {"ok": True}


@router.post("/{collection}/count")
async def count(collection: str, body: CountBody, vectors: Vectors) -> dict[str, int]:
    n = await run_in_threadpool(
        vectors.count, _collection(collection), body.law_id, version=body.version
    )
    return {"count": n}


def _scoped(vectors: VectorIndex) -> ScopedVectorIndex:
    scoped = scoped_vectors(vectors)
    if scoped is None:
        raise HTTPException(status_code=503, detail="this vector index cannot filter by payload")
    return scoped


@router.post("/{collection}/count_where")
async def count_where(collection: str, body: WhereBody, vectors: Vectors) -> dict[str, int]:
    n = await run_in_threadpool(_scoped(vectors).count_where, _collection(collection), body.where)
    return {"count": n}


@router.post("/{collection}/delete_where")
async def delete_where(collection: str, body: WhereBody, vectors: Vectors) -> dict[str, bool]:
    await run_in_threadpool(_scoped(vectors).delete_where, _collection(collection), body.where)
    return {"ok": True}


@router.post("/{collection}/search")
async def search(
    collection: str, body: SearchBody, vectors: Vectors
) -> dict[str, list[dict[str, Any]]]:
    search = vectors.hybrid_search
    scope: dict[str, Any] = {}
    if body.where is not None:  # only an index that filters by payload is asked to
        search, scope = _scoped(vectors).hybrid_search, {"where": body.where}
    hits = await run_in_threadpool(
        search,
        _collection(collection),
        decode_embedding(body.query),
        limit=body.limit,
        laws=body.laws,
        kinds=body.kinds,
        mode=body.mode,
        law_versions=body.law_versions,
        exclude_law_versions=body.exclude_law_versions,
        **scope,
    )
    return {"hits": [{"key": h.key, "score": h.score, "payload": dict(h.payload)} for h in hits]}
