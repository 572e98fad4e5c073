"""The ports the core depends on; adapters implement them, tests fake them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ingest.graph import LawGraph


@dataclass(frozen=True)
class SparseVector:
    indices: tuple[int, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class Embedding:
    dense: tuple[float, ...]
    sparse: SparseVector


class Embedder(Protocol):
    """Turns text into one dense and one sparse vector."""

    name: str

    @property
    def dense_size(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[Embedding]: ...

    def embed_query(self, text: str) -> Embedding: ...


@dataclass(frozen=True)
class VectorPoint:
    key: str  # stable key; the point id is uuid5 of it
    embedding: Embedding
    payload: Mapping[str, Any] = field(default_factory=dict)  # must hold "law" and "kind"


@dataclass(frozen=True)
class VectorHit:
    key: str
    score: float
    payload: Mapping[str, Any]


class VectorIndex(Protocol):
    """Two collections ("chunks", "profiles"), each with a named dense and sparse vector."""

    def ensure_collections(self, dense_size: int) -> None: ...

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None: ...

    def delete_law(self, collection: str, law_id: str, *, keep_version: str | None = None) -> None: ...

    def hybrid_search(
        self,
        collection: str,
        query: Embedding,
        *,
        limit: int,
        laws: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: str = "hybrid",  # "hybrid" (RRF) | "dense" | "sparse"
    ) -> list[VectorHit]: ...

    def count(self, collection: str, law_id: str | None = None) -> int: ...

    def close(self) -> None: ...


class GraphStore(Protocol):
    """A Neo4j-compatible graph database reached over Bolt."""

    def apply_schema(self) -> None: ...

    def load_law(self, graph: LawGraph) -> None: ...

    def run_read(self, query_name: str, **params: Any) -> list[dict[str, Any]]: ...

    def counts(self, law_id: str | None = None) -> dict[str, dict[str, int]]: ...

    def ping(self) -> None: ...

    def close(self) -> None: ...
