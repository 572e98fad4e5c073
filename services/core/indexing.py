"""The indexing step of ingestion: one law's section chunks and graph profiles, embedded and
written to the "chunks" and "profiles" collections under one version; for an English-language
law, when the embedder has an English model, its paragraphs in that model's vectors too
("english", `Embedder.english`).

Versions and visibility (docs/architecture.md): points carry `law_version`; a new version is
indexed next to the published one, searches exclude unpublished versions, and only after the
law is published does the caller drop the older versions (`drop_other_versions`). Indexing
the same law and version again rewrites the same point ids and prunes points whose key
vanished, so counts stay equal and nothing is duplicated.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Sequence

from ingest.graph import LawGraph
from ingest.models import Law
from services.core.errors import LexgraphError, VectorsUnavailable
from services.core.ports import NO_TERMS, Embedder, Embedding, VectorIndex, VectorPoint
from services.core.profiles import (
    IndexDocument,
    chunk_documents,
    paragraph_documents,
    profile_documents,
)

logger = logging.getLogger(__name__)

__all__ = [
    "EMBED_BATCH",
    "STATUTE_COLLECTIONS",
    "drop_other_versions",
    "index_law",
    "optimize_vectors",
]

# Texts per embed call: large enough to amortise USE's per-call cost (~7 ms a section in
# batches vs ~3 ms + overhead one by one), small enough to keep BGE-M3's padded batch cheap.
EMBED_BATCH = 64
# Every collection a law's points are in.
STATUTE_COLLECTIONS = ("chunks", "profiles", "english")


def index_law(
    law: Law,
    graph: LawGraph,
    *,
    vectors: VectorIndex,
    embedder: Embedder,
    version: str,
) -> dict[str, int]:
    """Fill the collections for `law` at `version`; returns the points each now holds for it.

    Raises `VectorsUnavailable` when the store then holds a different number of points for
    this law version than were written, so the caller never publishes a partial index.
    """
    started = time.perf_counter()
    english = embedder.english
    vectors.ensure_collections(
        embedder.dense_size,
        sparse_idf=embedder.sparse_idf,
        english_size=english.size if english is not None else None,
    )
    documents = {
        "chunks": chunk_documents(law, version),
        "profiles": profile_documents(law, graph, version),
    }
    embed: dict[str, Callable[[list[str]], list[Embedding]]] = {}
    if english is not None and law.language == "en":
        documents["english"] = paragraph_documents(law, version)
        embed["english"] = lambda texts: [
            Embedding(dense=vector, sparse=NO_TERMS) for vector in english.documents(texts)
        ]
    counts: dict[str, int] = {}
    for collection, docs in documents.items():
        _write(
            collection, docs, vectors=vectors, embed=embed.get(collection, embedder.embed_documents)
        )
        vectors.prune_version(collection, law.id, version, keep_keys={d.key for d in docs})
        counts[collection] = vectors.count(collection, law.id, version=version)
        if counts[collection] != len(docs):
            raise VectorsUnavailable(
                f"{collection} holds {counts[collection]} points for {law.id}@{version} "
                f"after writing {len(docs)}"
            )
    logger.info(
        "indexed %s@%s: %d chunks, %d profiles, %d English paragraphs in %.1f s",
        law.id,
        version,
        counts["chunks"],
        counts["profiles"],
        counts.get("english", 0),
        time.perf_counter() - started,
    )
    return counts


def drop_other_versions(
    law_id: str, *, vectors: VectorIndex, keep_versions: Collection[str]
) -> None:
    """After a version is published: remove the law's points of every version but
    `keep_versions` (the law's kept expressions, services/core/publish.py)."""
    for collection in STATUTE_COLLECTIONS:
        vectors.delete_law(collection, law_id, keep_versions=keep_versions)


def optimize_vectors(vectors: VectorIndex) -> None:
    """After a bulk load: let the store build its HNSW indexes where it does not on its own.

    qdrant-edge only indexes when asked: at 50k points a hybrid query takes p50 22 ms before
    `optimize()` and 2 ms after (bench/bench_vectors.py), and the optimize itself takes
    seconds (15-21 s at 67k points, holding the GIL: the process does nothing else), so it
    runs once at the end of `ingest_paths` and of a bulk job, not per law; with nothing new
    to index it returns at once. A Qdrant server optimizes in the background; there this
    does nothing. The points are stored either way, so a failure here is logged, not
    raised: searches are slower until the next run.
    """
    started = time.perf_counter()
    try:
        vectors.optimize()
    except LexgraphError as e:
        logger.warning("optimizing the vector index failed (searches stay slower): %s", e)
        return
    logger.info("optimized vector index in %.1f s", time.perf_counter() - started)


def _write(
    collection: str,
    docs: Sequence[IndexDocument],
    *,
    vectors: VectorIndex,
    embed: Callable[[list[str]], list[Embedding]],
) -> None:
    for start in range(0, len(docs), EMBED_BATCH):
        batch = docs[start : start + EMBED_BATCH]
        embeddings = embed([d.text for d in batch])
        vectors.upsert(
            collection,
            [
                VectorPoint(key=d.key, embedding=e, payload=d.payload)
                for d, e in zip(batch, embeddings, strict=True)
            ],
        )
