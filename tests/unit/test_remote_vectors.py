"""RemoteVectorIndex against the owner's internal endpoint (in-process app, fake index)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from services.api.routes import internal_vectors
from services.core.errors import VectorsUnavailable
from services.core.ports import Embedding, SparseVector, VectorHit, VectorPoint
from services.core.remote_vectors import (
    INTERNAL_PREFIX,
    TOKEN_HEADER,
    RemoteVectorIndex,
    decode_embedding,
    encode_embedding,
)


class FakeIndex:
    def __init__(self) -> None:
        self.points: dict[str, list[VectorPoint]] = {"chunks": [], "profiles": [], "english": []}
        self.calls: list[tuple[Any, ...]] = []

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None:
        self.calls.append(("ensure", dense_size, sparse_idf, english_size))

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        self.points[collection].extend(points)

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        self.calls.append(("delete_law", collection, law_id, sorted(keep_versions)))

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        self.calls.append(("prune", collection, law_id, version, sorted(keep_keys)))

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        return sum(
            1
            for p in self.points[collection]
            if (law_id is None or p.payload["law"] == law_id)
            and (version is None or p.payload.get("version") == version)
        )

    def optimize(self) -> None:
        self.calls.append(("optimize",))

    def hybrid_search(self, collection: str, query: Embedding, **kw: Any) -> list[VectorHit]:
        return [VectorHit(p.key, 1.0, p.payload) for p in self.points[collection][: kw["limit"]]]


def _remote(token: str = "s3cret") -> tuple[RemoteVectorIndex, FakeIndex]:  # noqa: S107
    app = FastAPI()
    fake = FakeIndex()
    app.state.vectors, app.state.internal_token = fake, "s3cret"
    app.include_router(internal_vectors.router)
    remote = RemoteVectorIndex("http://testserver", token)
    # the same client settings, sent into the app in-process
    remote._client = TestClient(
        app, base_url="http://testserver" + INTERNAL_PREFIX, headers={TOKEN_HEADER: token}
    )
    return remote, fake


def _embedding() -> Embedding:
    return Embedding(dense=(0.25, -1.5, 3.0), sparse=SparseVector((3, 17), (0.5, 1.25)))


def test_embedding_survives_the_wire_format() -> None:
    assert decode_embedding(encode_embedding(_embedding())) == _embedding()


def test_worker_writes_reach_the_owners_index() -> None:
    remote, fake = _remote()
    remote.ensure_collections(3, sparse_idf=True, english_size=2)
    assert ("ensure", 3, True, 2) in fake.calls
    point = VectorPoint("x:s:1", _embedding(), {"law": "x", "version": "v1", "kind": "section"})
    remote.upsert("chunks", [point])
    assert fake.points["chunks"] == [point]
    assert remote.count("chunks", "x", version="v1") == 1 and remote.count("profiles") == 0
    remote.delete_law("chunks", "x", keep_versions=["v1"])
    remote.prune_version("profiles", "x", "v1", keep_keys={"b", "a"})
    assert ("delete_law", "chunks", "x", ["v1"]) in fake.calls
    assert ("prune", "profiles", "x", "v1", ["a", "b"]) in fake.calls
    remote.optimize()  # the owner runs it after answering (TestClient: before returning)
    assert fake.calls[-1] == ("optimize",)
    assert [h.key for h in remote.hybrid_search("chunks", _embedding(), limit=5)] == ["x:s:1"]


def test_a_wrong_token_is_refused() -> None:
    remote, fake = _remote(token="guess")  # noqa: S106
    with pytest.raises(VectorsUnavailable, match="401"):
        remote.upsert("chunks", [VectorPoint("k", _embedding(), {"law": "x", "kind": "s"})])
    assert fake.points["chunks"] == []
