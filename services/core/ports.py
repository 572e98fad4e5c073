"""The ports the core depends on; adapters implement them, tests fake them."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from ingest.export import CypherStatement
from ingest.graph import LawGraph


@dataclass(frozen=True)
class SparseVector:
    indices: tuple[int, ...]
    values: tuple[float, ...]


# The sparse half of a dense-only embedding (the English model's points and questions).
NO_TERMS = SparseVector((), ())


@dataclass(frozen=True)
class Embedding:
    dense: tuple[float, ...]
    sparse: SparseVector


class PassageModel(Protocol):
    """A dense model for the passages of one language's laws, beside the embedder's own
    (the offline embedder's English model, `services/core/english_model.py`)."""

    size: int

    def documents(self, texts: Sequence[str]) -> list[tuple[float, ...]]: ...

    def query(self, text: str) -> tuple[float, ...]: ...


class Embedder(Protocol):
    """Turns text into one dense and one sparse vector."""

    name: str
    # True when the sparse weights are term frequencies that need the store's IDF modifier
    # (Qdrant `Modifier.IDF`) to become BM25; False when they are final (BGE-M3 lexical weights).
    sparse_idf: bool
    # The English-language laws' paragraphs are searched with this too (collection
    # "english"); None: no such list.
    english: PassageModel | None

    @property
    def dense_size(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[Embedding]: ...

    def embed_query(self, text: str) -> Embedding: ...

    # Several queries in one call: a model call costs about as much for three short texts
    # as for one (graph mode embeds the question, its search text and its parts together).
    def embed_queries(self, texts: Sequence[str]) -> list[Embedding]: ...


@dataclass(frozen=True)
class VectorPoint:
    key: str  # stable citation key of the node or edge (payload "key")
    embedding: Embedding
    # must hold "law" and "kind"; "version" too for anything indexed (see `uid`)
    payload: Mapping[str, Any] = field(default_factory=dict)

    @property
    def uid(self) -> str:
        """`key@version`, as in the graph; the point id is uuid5 of it (`point_id`), so
        two versions of one law coexist until the old one is dropped."""
        version = self.payload.get("version")
        return f"{self.key}@{version}" if version else self.key


def point_id(uid: str) -> str:
    """The vector point id of a graph uid: uuid5(NAMESPACE_URL, "lexgraph:" + uid)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "lexgraph:" + uid))


@dataclass(frozen=True)
class VectorHit:
    key: str
    score: float
    payload: Mapping[str, Any]


class VectorIndex(Protocol):
    """Collections of statute vectors ("chunks", "profiles", and "english" when the embedder
    has an English model), each with a named dense and sparse vector."""

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None: ...

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None: ...

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None: ...

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        """Drop the points of this law version whose key is not in `keep_keys`."""
        ...

    def hybrid_search(
        self,
        collection: str,
        query: Embedding,
        *,
        limit: int,
        laws: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: str = "hybrid",  # "hybrid" (RRF) | "dense" | "sparse"
        law_versions: Sequence[str] | None = None,  # keep only these "law@version"
        exclude_law_versions: Sequence[str] | None = None,  # e.g. unpublished versions
    ) -> list[VectorHit]: ...

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int: ...

    def optimize(self) -> None:
        """Build the search indexes of what was written (blocking); a no-op where the store
        does it on its own."""
        ...

    def close(self) -> None: ...


class ScopedVectorIndex(VectorIndex, Protocol):
    """A vector index that can filter by any payload field, inside every prefetch: what
    a firm's documents need (the "passages" collection, services/core/documents.py).
    Every index here is: qdrant-edge, a Qdrant server and the workers' remote index (a
    document job's worker stores and deletes passages, services/core/document_jobs.py)."""

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
        # payload field -> allowed values, in every prefetch (a caller's access scope)
        where: Mapping[str, Sequence[str]] | None = None,
    ) -> list[VectorHit]: ...

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        """Points whose payload matches `where` (field -> allowed values)."""
        ...

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        """Delete the points whose payload matches `where` (a non-empty filter)."""
        ...


def scoped_vectors(index: VectorIndex) -> ScopedVectorIndex | None:
    """`index` as a `ScopedVectorIndex` when it has the payload-filter methods, else None."""
    if all(callable(getattr(index, name, None)) for name in ("count_where", "delete_where")):
        return cast(ScopedVectorIndex, index)
    return None


class GraphStore(Protocol):
    """A Neo4j-compatible graph database reached over Bolt."""

    def apply_schema(self) -> None: ...

    def load_law(self, graph: LawGraph, version: str | None = None) -> str:
        """Every node and edge of `graph` as `version` (MERGE, re-runnable, not yet
        published); returns the version loaded."""
        ...

    def execute(self, statements: Sequence[CypherStatement]) -> None:
        """Exported data statements (`ingest.export`) in one write transaction."""
        ...

    def run_read(self, query_name: str, **params: Any) -> list[dict[str, Any]]: ...

    def run_write(self, query_name: str, **params: Any) -> list[dict[str, Any]]:
        """One catalog write (`cypher/queries/<name>.cypher`) in its own transaction; used
        by the publish protocol (services/core/publish.py) to flip Law versions."""
        ...

    def counts(self, law_id: str | None = None) -> dict[str, dict[str, int]]: ...

    def ping(self) -> str | None:
        """Raises when the database does not answer; its product and version if known."""
        ...

    def close(self) -> None: ...
