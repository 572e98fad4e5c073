"""Vector index adapters: an embedded qdrant-edge shard per collection, or a Qdrant server.

Both implement `ports.VectorIndex` with the same layout: collections "<prefix>_chunks",
"<prefix>_profiles" (statutes), "<prefix>_passages" (a firm's documents) and, when the
embedder has an English model, "<prefix>_english" (the English-language laws' paragraphs in
that model's vectors, `Embedder.english`); for qdrant-edge, one shard directory each. Each
has a named dense vector "dense" (cosine) and a named sparse vector "sparse" (with Qdrant's
IDF modifier when the embedder asks for it), keyword payload indexes on law, version,
law_version, kind and key (and tenant, scopes, document for passages), and point ids
uuid5(NAMESPACE_URL, "lexgraph:" + key@version) (`ports.point_id`).

`where` (payload field -> allowed values, every field must match one of its values; a
list-valued field such as a passage's `scopes` matches when any element does) goes into
every prefetch and the fused query alike: a caller's access scope is applied before
fusion and before the limit, never to the results.

A hybrid query is two prefetches, dense and sparse, each `prefetch_limit` deep and each
filtered, fused with weighted reciprocal rank fusion (k = 60, the constant of Cormack et al.
2009; Qdrant's own default is 2, which lets a single list's top hit dominate). Qdrant weighs a
list by dividing its ranks by the weight, 1 / (rank / w + k - 1): the dense list's weight
is `dense_weight`, the sparse list's 1 (see `Settings.hybrid_dense_weight`).
Modes "dense" and "sparse" run one of the two alone (the eval harness compares them).

Measured on 2 cores (bench/bench_vectors.py): qdrant-client local mode is brute-force
Python, fine for tests but ~0.3 s a query at 10k points; qdrant-edge answers in a few ms at
50k. Both embedded stores are single-process: the folder is locked by whoever opens it.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

from services.core.errors import VectorsUnavailable
from services.core.ports import (
    Embedding,
    ScopedVectorIndex,
    VectorHit,
    VectorIndex,
    VectorPoint,
    point_id,
    scoped_vectors,
)

logger = logging.getLogger(__name__)

__all__ = [
    "COLLECTIONS",
    "DENSE",
    "SPARSE",
    "EdgeVectorIndex",
    "QdrantVectorIndex",
    "ReopeningVectorIndex",
]

COLLECTIONS = ("chunks", "profiles", "passages", "english")
ENGLISH = "english"  # only created with an English model's vector size
DENSE = "dense"
SPARSE = "sparse"
RRF_K = 60
MODES = ("hybrid", "dense", "sparse")
PAYLOAD_INDEXES = ("law", "version", "law_version", "kind", "key", "tenant", "scopes", "document")
# Points per write call: keeps one request well under Qdrant's 32 MB body limit with
# 1024-d BGE-M3 vectors (~12 KB a point as JSON) and amortises the call overhead.
UPSERT_BATCH = 256

T = TypeVar("T")


def _batches(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _check_collection(collection: str) -> None:
    if collection not in COLLECTIONS:
        raise ValueError(f"unknown collection {collection!r}; expected one of {COLLECTIONS}")


def collection_sizes(dense_size: int, english_size: int | None) -> dict[str, int]:
    """The dense vector size of each collection to create."""
    sizes = {c: dense_size for c in COLLECTIONS if c != ENGLISH}
    if english_size:
        sizes[ENGLISH] = english_size
    return sizes


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}; expected one of {MODES}")


def _selects_nothing(*allowed: Sequence[str] | None) -> bool:
    """An empty allow-list (as opposed to None, no filter) matches no point."""
    return any(values is not None and len(values) == 0 for values in allowed)


def _values(where: Mapping[str, Sequence[str]] | None) -> list[Sequence[str]]:
    return list((where or {}).values())


def _hit(key: Any, score: float, payload: dict[str, Any] | None) -> VectorHit:
    payload = dict(payload or {})
    return VectorHit(key=str(payload.get("key", key)), score=float(score), payload=payload)


def _ranked(points: Iterable[Any]) -> list[VectorHit]:
    """Hits best first, equal scores in key order. Qdrant's order among equal scores (RRF
    ties, chunks with the same words) differs between processes, so without this the same
    question could return a different tenth section after a restart."""
    hits = [_hit(p.id, p.score, p.payload) for p in points]
    hits.sort(key=lambda hit: (-hit.score, hit.key))
    return hits


# ============================================================================ qdrant-edge


class EdgeVectorIndex:
    """qdrant-edge shards under `root` (settings.data_dir / "vectors"), one per collection.

    The shard directory is locked by the process that opens it (a second open fails with
    "failed to open WAL … WouldBlock"), so exactly one process per machine may hold this
    index; others reach it through that process's API.
    """

    def __init__(
        self,
        root: Path,
        *,
        prefix: str = "lexgraph",
        rrf_k: int = RRF_K,
        prefetch_limit: int = 50,
        dense_weight: float = 1.0,
    ) -> None:
        self._root = Path(root)
        self._prefix = prefix
        self._rrf_k = rrf_k
        self._prefetch_limit = prefetch_limit
        self._weights = [dense_weight, 1.0]  # the prefetch order: dense, sparse
        self._shards: dict[str, Any] = {}
        # Writes are serialised; qdrant-edge takes its own locks for concurrent reads.
        self._write_lock = threading.Lock()
        try:
            for collection in COLLECTIONS:
                if self._has_shard(collection):
                    self._shards[collection] = self._call(
                        f"open {self._path(collection)}", self._load, collection
                    )
        except VectorsUnavailable:
            self.close()  # release whichever shard did open
            raise

    # ---- port

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None:
        from qdrant_edge import (
            Distance,
            EdgeConfig,
            EdgeShard,
            EdgeSparseVectorParams,
            EdgeVectorParams,
            Modifier,
            PayloadSchemaType,
            UpdateOperation,
        )

        with self._write_lock:
            for collection, size in collection_sizes(dense_size, english_size).items():
                path = self._path(collection)
                if collection in self._shards:
                    self._check_config(collection, size, sparse_idf)
                    continue
                config = EdgeConfig(
                    vectors={DENSE: EdgeVectorParams(size=size, distance=Distance.Cosine)},
                    sparse_vectors={
                        SPARSE: EdgeSparseVectorParams(
                            modifier=Modifier.Idf if sparse_idf else None
                        )
                    },
                )
                if self._has_shard(collection):
                    shard = self._call(f"open {path}", EdgeShard.load, str(path), config)
                else:
                    path.mkdir(parents=True, exist_ok=True)
                    shard = self._call(f"create {path}", EdgeShard.create, str(path), config)
                    for name in PAYLOAD_INDEXES:
                        shard.update(
                            UpdateOperation.create_field_index(name, PayloadSchemaType.Keyword)
                        )
                self._shards[collection] = shard
                self._write_meta(collection, size, sparse_idf)

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        from qdrant_edge import Point, UpdateOperation
        from qdrant_edge import SparseVector as EdgeSparse

        shard = self._writable(collection)
        with self._write_lock:
            for batch in _batches(points, UPSERT_BATCH):
                edge_points = [
                    Point(
                        point_id(p.uid),
                        {
                            DENSE: list(p.embedding.dense),
                            SPARSE: EdgeSparse(
                                list(p.embedding.sparse.indices), list(p.embedding.sparse.values)
                            ),
                        },
                        {**p.payload, "key": p.key},
                    )
                    for p in batch
                ]
                self._call("upsert", shard.update, UpdateOperation.upsert_points(edge_points))

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        from qdrant_edge import FieldCondition, Filter, MatchAny, MatchValue

        must: list[Any] = [FieldCondition("law", match=MatchValue(law_id))]
        must_not: list[Any] | None = (
            [FieldCondition("version", match=MatchAny(sorted(keep_versions)))]
            if keep_versions
            else None
        )
        self._delete(collection, Filter(must=must, must_not=must_not))

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        from qdrant_edge import FieldCondition, Filter, MatchAny, MatchValue

        must: list[Any] = [
            FieldCondition("law", match=MatchValue(law_id)),
            FieldCondition("version", match=MatchValue(version)),
        ]
        must_not: list[Any] | None = (
            [FieldCondition("key", match=MatchAny(sorted(keep_keys)))] if keep_keys else None
        )
        self._delete(collection, Filter(must=must, must_not=must_not))

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
        from qdrant_edge import Fusion, Prefetch, Query, QueryRequest
        from qdrant_edge import SparseVector as EdgeSparse

        _check_collection(collection)
        _check_mode(mode)
        shard = self._shards.get(collection)
        if (
            shard is None
            or limit <= 0
            or _selects_nothing(laws, kinds, law_versions, *_values(where))
        ):
            return []
        flt = _edge_filter(laws, kinds, law_versions, exclude_law_versions, where)
        dense = Query.Nearest(list(query.dense), using=DENSE)
        sparse = Query.Nearest(
            EdgeSparse(list(query.sparse.indices), list(query.sparse.values)), using=SPARSE
        )
        if mode == "hybrid":
            depth = max(self._prefetch_limit, limit)
            request = QueryRequest(
                limit=limit,
                prefetches=[
                    Prefetch(limit=depth, query=dense, filter=flt),
                    Prefetch(limit=depth, query=sparse, filter=flt),
                ],
                # the stub omits nested Rrf
                query=cast(Any, Fusion.Rrf(k=self._rrf_k, weights=self._weights)),
                filter=flt,
                with_payload=True,
            )
        else:
            if mode == "sparse" and not query.sparse.indices:
                return []
            request = QueryRequest(
                limit=limit,
                query=dense if mode == "dense" else sparse,
                filter=flt,
                with_payload=True,
            )
        points = self._call("query", shard.query, request)
        return _ranked(points)

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        from qdrant_edge import CountRequest, FieldCondition, Filter, MatchValue

        _check_collection(collection)
        shard = self._shards.get(collection)
        if shard is None:
            return 0
        must: list[Any] = []
        if law_id is not None:
            must.append(FieldCondition("law", match=MatchValue(law_id)))
        if version is not None:
            must.append(FieldCondition("version", match=MatchValue(version)))
        request = CountRequest(exact=True, filter=Filter(must=must) if must else None)
        return int(self._call("count", shard.count, request))

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        from qdrant_edge import CountRequest

        _check_collection(collection)
        shard = self._shards.get(collection)
        if shard is None:
            return 0
        flt = _edge_filter(None, None, None, None, where)
        return int(self._call("count", shard.count, CountRequest(exact=True, filter=flt)))

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        if not where:
            raise ValueError("delete_where needs a filter")
        self._delete(collection, _edge_filter(None, None, None, None, where))

    def close(self) -> None:
        with self._write_lock:
            shards, self._shards = self._shards, {}
            for collection, shard in shards.items():
                try:
                    shard.flush()
                    shard.close()
                except Exception:  # qdrant-edge raises plain Exception
                    logger.exception("closing vector shard %s failed", collection)

    # ---- edge-only maintenance

    def optimize(self) -> None:
        """Merge segments and build HNSW indexes (blocking); worth it after a bulk load."""
        with self._write_lock:
            for shard in self._shards.values():
                self._call("optimize", shard.optimize)

    # ---- helpers

    def _path(self, collection: str) -> Path:
        return self._root / f"{self._prefix}_{collection}"

    def _has_shard(self, collection: str) -> bool:
        path = self._path(collection)
        return path.is_dir() and any(path.iterdir())

    def _load(self, collection: str) -> Any:
        from qdrant_edge import EdgeShard

        return EdgeShard.load(str(self._path(collection)))

    def _writable(self, collection: str) -> Any:
        _check_collection(collection)
        shard = self._shards.get(collection)
        if shard is None:
            raise VectorsUnavailable(
                f"vector collection {collection!r} does not exist yet: call ensure_collections"
            )
        return shard

    def _delete(self, collection: str, flt: Any) -> None:
        from qdrant_edge import UpdateOperation

        _check_collection(collection)
        shard = self._shards.get(collection)
        if shard is None:
            return
        with self._write_lock:
            self._call("delete", shard.update, UpdateOperation.delete_points_by_filter(flt))

    def _meta_path(self, collection: str) -> Path:
        # Beside the shard, not inside it: the shard directory belongs to qdrant-edge.
        return self._root / f"{self._prefix}_{collection}.json"

    def _write_meta(self, collection: str, dense_size: int, sparse_idf: bool) -> None:
        import json

        meta = {"dense_size": dense_size, "sparse_idf": sparse_idf}
        self._meta_path(collection).write_text(json.dumps(meta), encoding="utf-8")

    def _check_config(self, collection: str, dense_size: int, sparse_idf: bool) -> None:
        import json

        path = self._meta_path(collection)
        if not path.exists():
            return
        meta = json.loads(path.read_text(encoding="utf-8"))
        if meta != {"dense_size": dense_size, "sparse_idf": sparse_idf}:
            raise VectorsUnavailable(
                f"vector collection {collection!r} at {self._path(collection)} was built with "
                f"{meta}, but the embedder gives dense_size={dense_size}, "
                f"sparse_idf={sparse_idf}: re-index into an empty vectors directory"
            )

    def _call(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except VectorsUnavailable:
            raise
        except Exception as e:  # qdrant-edge raises plain Exception ("Service runtime error")
            message = str(e)
            if "WouldBlock" in message:
                message = (
                    f"another process holds the embedded vector store under {self._root} "
                    f"(only one may open it; use the API of the process that owns it): {e}"
                )
            elif "incompatible" in message.lower():
                message = (
                    f"the vector store under {self._root} was built by another embedder: "
                    f"re-index into an empty vectors directory ({e})"
                )
            raise VectorsUnavailable(f"qdrant-edge {what} failed: {message}") from e


def _edge_filter(
    laws: Sequence[str] | None,
    kinds: Sequence[str] | None,
    law_versions: Sequence[str] | None,
    exclude_law_versions: Sequence[str] | None,
    where: Mapping[str, Sequence[str]] | None = None,
) -> Any:
    from qdrant_edge import FieldCondition, Filter, MatchAny

    must: list[Any] = [
        FieldCondition(name, match=MatchAny(list(values))) for name, values in (where or {}).items()
    ]
    if laws is not None:
        must.append(FieldCondition("law", match=MatchAny(list(laws))))
    if kinds is not None:
        must.append(FieldCondition("kind", match=MatchAny(list(kinds))))
    if law_versions is not None:
        must.append(FieldCondition("law_version", match=MatchAny(list(law_versions))))
    must_not: list[Any] = []
    if exclude_law_versions:
        must_not.append(FieldCondition("law_version", match=MatchAny(list(exclude_law_versions))))
    if not must and not must_not:
        return None
    return Filter(must=must or None, must_not=must_not or None)


# ============================================================================ Qdrant server


class QdrantVectorIndex:
    """A Qdrant server (or qdrant-client local mode in tests) through `qdrant-client`.

    The caller builds the client (bootstrap: url, api key, timeout) and passes it in.
    RRF with an explicit k (the same fusion as qdrant-edge) needs Qdrant server 1.16 or
    later; `rrf_k=None` uses the plain RRF fusion of older servers (their fixed k = 2).
    """

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "lexgraph",
        rrf_k: int | None = RRF_K,
        prefetch_limit: int = 50,
        dense_weight: float = 1.0,
    ) -> None:
        self._client = client
        self._prefix = prefix
        self._rrf_k = rrf_k
        self._prefetch_limit = prefetch_limit
        # The prefetch order: dense, sparse. Equal weights are sent as none, which servers
        # older than weighted RRF accept.
        self._server_weights = None if dense_weight == 1.0 else [dense_weight, 1.0]

    def name(self, collection: str) -> str:
        _check_collection(collection)
        return f"{self._prefix}_{collection}"

    # ---- port

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None:
        from qdrant_client import models

        modifier = models.Modifier.IDF if sparse_idf else None
        for collection, size in collection_sizes(dense_size, english_size).items():
            name = self.name(collection)
            if self._call("collection_exists", self._client.collection_exists, name):
                self._check_config(name, size, modifier)
                continue
            self._call(
                "create_collection",
                self._client.create_collection,
                name,
                vectors_config={
                    DENSE: models.VectorParams(size=size, distance=models.Distance.COSINE)
                },
                sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=modifier)},
            )
            with warnings.catch_warnings():
                # local mode (tests) warns that it ignores payload indexes; servers use them
                warnings.filterwarnings("ignore", message="Payload indexes have no effect")
                for field in PAYLOAD_INDEXES:
                    self._call(
                        "create_payload_index",
                        self._client.create_payload_index,
                        name,
                        field,
                        models.PayloadSchemaType.KEYWORD,
                        wait=True,
                    )

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        from qdrant_client import models

        name = self.name(collection)
        for batch in _batches(points, UPSERT_BATCH):
            structs = [
                models.PointStruct(
                    id=point_id(p.uid),
                    vector={
                        DENSE: list(p.embedding.dense),
                        SPARSE: models.SparseVector(
                            indices=list(p.embedding.sparse.indices),
                            values=list(p.embedding.sparse.values),
                        ),
                    },
                    payload={**p.payload, "key": p.key},
                )
                for p in batch
            ]
            self._call("upsert", self._client.upsert, name, points=structs, wait=True)

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        from qdrant_client import models

        must_not: list[models.Condition] | None = (
            [models.FieldCondition(key="version", match=models.MatchAny(any=sorted(keep_versions)))]
            if keep_versions
            else None
        )
        self._delete(
            collection,
            models.Filter(
                must=[models.FieldCondition(key="law", match=models.MatchValue(value=law_id))],
                must_not=must_not,
            ),
        )

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        from qdrant_client import models

        must: list[models.Condition] = [
            models.FieldCondition(key="law", match=models.MatchValue(value=law_id)),
            models.FieldCondition(key="version", match=models.MatchValue(value=version)),
        ]
        must_not: list[models.Condition] | None = (
            [models.FieldCondition(key="key", match=models.MatchAny(any=sorted(keep_keys)))]
            if keep_keys
            else None
        )
        self._delete(collection, models.Filter(must=must, must_not=must_not))

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
        from qdrant_client import models

        name = self.name(collection)
        _check_mode(mode)
        if limit <= 0 or _selects_nothing(laws, kinds, law_versions, *_values(where)):
            return []
        if collection == ENGLISH and not self._call(
            "collection_exists", self._client.collection_exists, name
        ):
            return []  # laws indexed before an English model was set (qdrant-edge: no shard)
        flt = _client_filter(laws, kinds, law_versions, exclude_law_versions, where)
        dense = list(query.dense)
        sparse = models.SparseVector(
            indices=list(query.sparse.indices), values=list(query.sparse.values)
        )
        if mode == "sparse" and not query.sparse.indices:
            return []
        kwargs: dict[str, Any]
        if mode == "hybrid":
            depth = max(self._prefetch_limit, limit)
            kwargs = {
                "prefetch": [
                    models.Prefetch(query=dense, using=DENSE, limit=depth, filter=flt),
                    models.Prefetch(query=sparse, using=SPARSE, limit=depth, filter=flt),
                ],
                "query": (
                    models.RrfQuery(rrf=models.Rrf(k=self._rrf_k, weights=self._server_weights))
                    if self._rrf_k is not None
                    else models.FusionQuery(fusion=models.Fusion.RRF)
                ),
            }
        elif mode == "dense":
            kwargs = {"query": dense, "using": DENSE}
        else:
            kwargs = {"query": sparse, "using": SPARSE}
        try:
            response = self._call(
                "query_points",
                self._client.query_points,
                name,
                query_filter=flt,
                limit=limit,
                with_payload=True,
                **kwargs,
            )
        except (VectorsUnavailable, ValueError) as e:
            if _collection_missing(e):
                return []  # nothing indexed yet: no hits, not an outage
            raise
        return _ranked(response.points)

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        from qdrant_client import models

        name = self.name(collection)
        if not self._call("collection_exists", self._client.collection_exists, name):
            return 0
        must: list[models.Condition] = []
        if law_id is not None:
            must.append(models.FieldCondition(key="law", match=models.MatchValue(value=law_id)))
        if version is not None:
            must.append(
                models.FieldCondition(key="version", match=models.MatchValue(value=version))
            )
        result = self._call(
            "count",
            self._client.count,
            name,
            count_filter=models.Filter(must=must) if must else None,
            exact=True,
        )
        return int(result.count)

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        name = self.name(collection)
        if not self._call("collection_exists", self._client.collection_exists, name):
            return 0
        flt = _client_filter(None, None, None, None, where)
        result = self._call("count", self._client.count, name, count_filter=flt, exact=True)
        return int(result.count)

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        if not where:
            raise ValueError("delete_where needs a filter")
        self._delete(collection, _client_filter(None, None, None, None, where))

    def optimize(self) -> None:
        """A Qdrant server builds its indexes in the background: nothing to do."""

    def close(self) -> None:
        try:
            self._client.close()
        except Exception:  # closing must never mask the error that led here
            logger.exception("closing the Qdrant client failed")

    # ---- helpers

    def _delete(self, collection: str, flt: Any) -> None:
        from qdrant_client import models

        name = self.name(collection)
        if not self._call("collection_exists", self._client.collection_exists, name):
            return
        self._call(
            "delete",
            self._client.delete,
            name,
            points_selector=models.FilterSelector(filter=flt),
            wait=True,
        )

    def _check_config(self, name: str, dense_size: int, modifier: Any) -> None:
        info = self._call("get_collection", self._client.get_collection, name)
        vectors = info.config.params.vectors
        sparse = info.config.params.sparse_vectors or {}
        have_size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
        have_modifier = sparse[SPARSE].modifier if SPARSE in sparse else "missing"
        if have_modifier == "none":  # the server reports "no modifier" as Modifier.NONE
            have_modifier = None
        if have_size != dense_size or have_modifier != modifier:
            raise VectorsUnavailable(
                f"Qdrant collection {name!r} has dense size {have_size} and sparse modifier "
                f"{have_modifier}, but the embedder needs {dense_size} and {modifier}: "
                "re-index into new collections (another collection_prefix)"
            )

    def _call(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        import grpc
        import httpx
        from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

        try:
            return fn(*args, **kwargs)
        except (
            UnexpectedResponse,
            ResponseHandlingException,
            httpx.HTTPError,
            grpc.RpcError,
            OSError,
            RuntimeError,
        ) as e:
            # RuntimeError: local mode's "Storage folder … is already accessed by another
            # instance"; OSError: connection refused or timed out below the HTTP layer.
            raise VectorsUnavailable(f"Qdrant {what} failed: {e}") from e


def _collection_missing(error: Exception) -> bool:
    """A query on a collection not created yet: 404 from a server, ValueError locally."""
    from qdrant_client.http.exceptions import UnexpectedResponse

    cause = error.__cause__ if isinstance(error, VectorsUnavailable) else error
    if isinstance(cause, UnexpectedResponse):
        return cause.status_code == 404
    return isinstance(cause, ValueError) and "not found" in str(cause)


def _client_filter(
    laws: Sequence[str] | None,
    kinds: Sequence[str] | None,
    law_versions: Sequence[str] | None,
    exclude_law_versions: Sequence[str] | None,
    where: Mapping[str, Sequence[str]] | None = None,
) -> Any:
    from qdrant_client import models

    must: list[models.Condition] = [
        models.FieldCondition(key=name, match=models.MatchAny(any=list(values)))
        for name, values in (where or {}).items()
    ]
    if laws is not None:
        must.append(models.FieldCondition(key="law", match=models.MatchAny(any=list(laws))))
    if kinds is not None:
        must.append(models.FieldCondition(key="kind", match=models.MatchAny(any=list(kinds))))
    if law_versions is not None:
        must.append(
            models.FieldCondition(key="law_version", match=models.MatchAny(any=list(law_versions)))
        )
    must_not: list[models.Condition] = []
    if exclude_law_versions:
        must_not.append(
            models.FieldCondition(
                key="law_version", match=models.MatchAny(any=list(exclude_law_versions))
            )
        )
    if not must and not must_not:
        return None
    return models.Filter(must=must or None, must_not=must_not or None)


# ============================================================================ reopening


def _scoped(index: VectorIndex) -> ScopedVectorIndex:
    scoped = scoped_vectors(index)
    if scoped is None:
        raise TypeError(f"{type(index).__name__} cannot filter by payload")
    return scoped


class ReopeningVectorIndex:
    """A vector index that opens itself when first used and again after a fault.

    The API process owns the embedded store, but at its start another process may still
    hold it (a `lexgraph ingest` finishing, an old server): opening fails with WouldBlock.
    Without this the API stayed 503 until restarted, long after the other process had
    exited (issue 21). Here every call uses the index `open_index()` gave; while none is
    open, a call tries to open one (at most once per `retry_s`; calls in between fail fast
    with the last reason). A call that raises `VectorsUnavailable` retires the index: it is
    closed once no call still uses it, and the next call opens a fresh one.
    """

    def __init__(self, open_index: Callable[[], VectorIndex], *, retry_s: float = 1.0) -> None:
        self._open_index = open_index
        self._retry_s = retry_s
        self._lock = threading.Lock()
        self._index: VectorIndex | None = None
        self._users: dict[int, int] = {}  # id(index) -> calls using it
        self._retired: dict[int, VectorIndex] = {}
        self._last_try = float("-inf")
        self._last_error: VectorsUnavailable | None = None
        self._closed = False

    # ---- port

    def ensure_collections(
        self, dense_size: int, *, sparse_idf: bool = False, english_size: int | None = None
    ) -> None:
        with self._use() as index:
            index.ensure_collections(dense_size, sparse_idf=sparse_idf, english_size=english_size)

    def upsert(self, collection: str, points: Sequence[VectorPoint]) -> None:
        with self._use() as index:
            index.upsert(collection, points)

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        with self._use() as index:
            index.delete_law(collection, law_id, keep_versions=keep_versions)

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        with self._use() as index:
            index.prune_version(collection, law_id, version, keep_keys=keep_keys)

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
        with self._use() as index:
            return index.hybrid_search(
                collection,
                query,
                limit=limit,
                laws=laws,
                kinds=kinds,
                mode=mode,
                law_versions=law_versions,
                exclude_law_versions=exclude_law_versions,
                **({"where": where} if where else {}),
            )  # an index that cannot filter is refused by `documents.Stores.of`

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        with self._use() as index:
            return index.count(collection, law_id, version=version)

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        with self._use() as index:
            return _scoped(index).count_where(collection, where)

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        with self._use() as index:
            _scoped(index).delete_where(collection, where)

    def optimize(self) -> None:
        with self._use() as index:
            index.optimize()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            index, self._index = self._index, None
        if index is not None:
            self._retire(index)

    # ---- helpers

    @contextmanager
    def _use(self) -> Iterator[VectorIndex]:
        index = self._acquire()
        try:
            yield index
        except VectorsUnavailable:
            self._retire(index)
            raise
        finally:
            self._release(index)

    def _acquire(self) -> VectorIndex:
        with self._lock:
            if self._closed:
                raise VectorsUnavailable("the vector index is closed")
            if self._index is None:
                self._index = self._open_locked()
            index = self._index
            self._users[id(index)] = self._users.get(id(index), 0) + 1
            return index

    def _open_locked(self) -> VectorIndex:
        if self._retired:
            raise VectorsUnavailable(
                "the vector index is being reopened after a fault; retry shortly"
            )
        now = time.monotonic()
        if now - self._last_try < self._retry_s and self._last_error is not None:
            raise self._last_error
        self._last_try = now
        try:
            index = self._open_index()
        except VectorsUnavailable as e:
            self._last_error = e
            raise
        if self._last_error is not None:
            logger.info("vector index opened after: %s", self._last_error)
        self._last_error = None
        return index

    def _retire(self, index: VectorIndex) -> None:
        """Take `index` out of use; it is closed when its last call returns."""
        with self._lock:
            if self._index is index:
                self._index = None
            self._retired[id(index)] = index
            idle = not self._users.get(id(index))
        if idle:
            self._close_retired(index)

    def _release(self, index: VectorIndex) -> None:
        with self._lock:
            left = self._users.get(id(index), 1) - 1
            if left:
                self._users[id(index)] = left
            else:
                self._users.pop(id(index), None)
            close = not left and id(index) in self._retired
        if close:
            self._close_retired(index)

    def _close_retired(self, index: VectorIndex) -> None:
        try:
            index.close()
        except Exception:  # closing must never mask the fault that led here
            logger.exception("closing a retired vector index failed")
        with self._lock:
            self._retired.pop(id(index), None)
