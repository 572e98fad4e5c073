"""The vector index of another process, reached over a small internal HTTP API.

The embedded vector store (qdrant-edge) can be opened by one process only (DESIGN.md:
a second open fails with `WouldBlock`). On one machine `lexgraph serve` owns it; Celery
workers parse, load the graph (the graph server serves many processes) and embed, then hand their
points to the owner through `RemoteVectorIndex`, which implements `ports.VectorIndex` over
`/internal/vectors/...` (services/api/routes/internal_vectors.py). In production workers
use `QdrantVectorIndex` against the Qdrant server instead: the worker code is the same.

The wire format is JSON with dense vectors as base64 little-endian float32 (a 512-d vector
is 2.7 KB instead of ~10 KB as JSON numbers). Every request carries the shared token in
`X-Lexgraph-Internal-Token`.
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import httpx
import numpy as np

from services.core.errors import InvalidQuery, VectorsUnavailable
from services.core.ports import Embedding, SparseVector, VectorHit, VectorPoint
from services.core.settings import Settings

TOKEN_HEADER = "X-Lexgraph-Internal-Token"  # noqa: S105 - a header name, not a secret
INTERNAL_PREFIX = "/internal/vectors"
# Upserts go out in batches of this many points (~1.5 MB of 512-d vectors per request).
UPSERT_BATCH = 512


def internal_token(settings: Settings, *, create: bool = False) -> str:
    """The shared secret between the vector owner and the workers: from settings, else the
    owner's token file (`<data_dir>/internal-token`, mode 0600), created when `create`."""
    if settings.internal_token is not None:
        return settings.internal_token.get_secret_value()
    path = settings.data_dir / "internal-token"
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    if not create:
        raise VectorsUnavailable(f"no internal token: {path} missing and none configured")
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token)
    return token


def encode_embedding(embedding: Embedding) -> dict[str, Any]:
    dense = np.asarray(embedding.dense, dtype="<f4").tobytes()
    return {
        "dense": base64.b64encode(dense).decode("ascii"),
        "sparse_indices": list(embedding.sparse.indices),
        "sparse_values": list(embedding.sparse.values),
    }


def decode_embedding(data: Mapping[str, Any]) -> Embedding:
    dense = np.frombuffer(base64.b64decode(data["dense"]), dtype="<f4")
    return Embedding(
        dense=tuple(float(x) for x in dense),
        sparse=SparseVector(
            indices=tuple(int(i) for i in data.get("sparse_indices", ())),
            values=tuple(float(v) for v in data.get("sparse_values", ())),
        ),
    )


def encode_point(point: VectorPoint) -> dict[str, Any]:
    return {"key": point.key, "payload": dict(point.payload), **encode_embedding(point.embedding)}


def decode_point(data: Mapping[str, Any]) -> VectorPoint:
    return VectorPoint(key=data["key"], embedding=decode_embedding(data), payload=data["payload"])


def _where(where: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    return {field: list(values) for field, values in where.items()}


class RemoteVectorIndex:
    """`ports.ScopedVectorIndex` backed by the vector-owning process's internal endpoint
    (a worker storing a firm's document filters and deletes by payload)."""

    def __init__(self, base_url: str, token: str, *, timeout_s: float = 60.0) -> None:
        self._client = httpx.Client(
            base_url=base_url.rstrip("/") + INTERNAL_PREFIX,
            headers={TOKEN_HEADER: token},
            timeout=timeout_s,
        )

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None:
        self._post(
            "/ensure",
            {"dense_size": dense_size, "sparse_idf": sparse_idf, "english_size": english_size},
        )

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        for start in range(0, len(points), UPSERT_BATCH):
            batch = points[start : start + UPSERT_BATCH]
            self._post(f"/{collection}/upsert", {"points": [encode_point(p) for p in batch]})

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        self._post(
            f"/{collection}/delete_law", {"law_id": law_id, "keep_versions": sorted(keep_versions)}
        )

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        self._post(
            f"/{collection}/prune_version",
            {"law_id": law_id, "version": version, "keep_keys": sorted(keep_keys)},
        )

    def optimize(self) -> None:
        # The owner answers at once and optimises afterwards (15-21 s at 67k points).
        self._post("/optimize", {})

    def hybrid_search(
        self,
        collection: str,
        query: Embedding,
        *,
        limit: int,
        laws: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: str = "hybrid",
        law_versions: Sequence[str] | None = None,
        exclude_law_versions: Sequence[str] | None = None,
        where: Mapping[str, Sequence[str]] | None = None,
    ) -> list[VectorHit]:
        body = {
            "query": encode_embedding(query),
            "limit": limit,
            "laws": list(laws) if laws is not None else None,
            "kinds": list(kinds) if kinds is not None else None,
            "mode": mode,
            "law_versions": list(law_versions) if law_versions is not None else None,
            "exclude_law_versions": (
                list(exclude_law_versions) if exclude_law_versions is not None else None
            ),
            "where": _where(where) if where is not None else None,
        }
        hits = self._post(f"/{collection}/search", body)["hits"]
        return [VectorHit(key=h["key"], score=h["score"], payload=h["payload"]) for h in hits]

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        body = {"law_id": law_id, "version": version}
        return int(self._post(f"/{collection}/count", body)["count"])

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        return int(self._post(f"/{collection}/count_where", {"where": _where(where)})["count"])

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        self._post(f"/{collection}/delete_where", {"where": _where(where)})

    def ping(self) -> None:
        self._post("/ping", {})

    def close(self) -> None:
        self._client.close()

    def _post(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        try:
            response = self._client.post(path, json=body)
        except httpx.HTTPError as e:
            raise VectorsUnavailable(f"vector owner at {self._client.base_url}: {e}") from e
        if response.status_code in (400, 404, 422):
            raise InvalidQuery("vectors", response.text[:500])
        if response.status_code >= 300:
            # 401/403 is a misconfigured token, 5xx an owner in trouble: both may heal
            # (the owner restarts and rewrites its token file), so both are retryable.
            raise VectorsUnavailable(
                f"vector owner answered {response.status_code}: {response.text[:500]}"
            )
        result: dict[str, Any] = response.json()
        return result
