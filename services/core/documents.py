"""A firm's own documents beside the statutes: store, read, replace, delete, and find
the visible passages a question or a section leads to.

A document belongs to the tenant of the principal that uploaded it and carries scopes
(services/core/access.py). In the graph it is a `Document` node with `Passage` nodes
(HAS_PASSAGE), and each passage has a CITES edge to every published section it cites
(read by `ingest.documents.read_citations`, the statute citation rules). In the vectors
each passage is a point of the "passages" collection whose payload holds `tenant`,
`scopes` and `document`. Every read of passages carries the caller's scope inside the
query: the vector filter in every prefetch (`Principal.vector_filter`), the predicate in
the Cypher (`Principal.cypher_params`).

Writes check everything first (format, text, citations, embeddings) and only then touch
a store, so bad input damages nothing. The graph side of a document is one transaction
(`document_store`); its points are replaced after it. Documents have stable ids: a new
upload's id comes from its tenant and the SHA-256 of its bytes, so the same bytes again
are the same document (a no-op); a replace keeps the id.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from ingest.documents import (
    ParsedDocument,
    PassageText,
    document_format,
    named_laws,
    read_citations,
    read_document,
)
from ingest.errors import InvalidSource
from services.core.access import Principal
from services.core.errors import ConfigurationError, Forbidden, InvalidQuery, NotFound
from services.core.ports import (
    Embedder,
    GraphStore,
    ScopedVectorIndex,
    VectorIndex,
    VectorPoint,
    scoped_vectors,
)
from services.core.retrieval.laws import published_law_versions

logger = logging.getLogger(__name__)

COLLECTION = "passages"
DOCUMENT_ID = re.compile(r"doc-[0-9a-f]{24}\Z")
_MAX_TITLE_CHARS = 300
# What citing a section the statute search returned adds to a passage's score, over the
# section's rank (a vector hit adds 1 over its own rank).
_CITING_WEIGHT = 0.5
_EMBED_BATCH = 64


@dataclass(frozen=True)
class Upload:
    """What a caller sends: the file and its metadata (never a tenant)."""

    filename: str
    data: bytes
    title: str
    date: str  # ISO 8601 (YYYY-MM-DD)
    scopes: Sequence[str] = ()


@dataclass(frozen=True)
class Stores:
    graph: GraphStore
    vectors: ScopedVectorIndex
    embedder: Embedder

    @classmethod
    def of(cls, graph: GraphStore, vectors: VectorIndex, embedder: Embedder) -> Stores:
        """The stores for documents; a vector index that cannot filter by payload is
        refused rather than searched without the caller's scope."""
        scoped = scoped_vectors(vectors)
        if scoped is None:
            raise ConfigurationError(
                f"{type(vectors).__name__} cannot filter by payload: documents need one "
                "that does (qdrant-edge, a Qdrant server or the vector owner's endpoint)"
            )
        return cls(graph, scoped, embedder)


def store_document(
    upload: Upload,
    *,
    access: Principal,
    stores: Stores,
    max_chars: int = 1200,
    max_passages: int = 5000,
    replace: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Store a new document (or, with `replace`, new contents of that one); returns the
    document as `get_document` does, plus `created`/`changed` and `unresolved` (the
    citations that name no published section). `progress(done, total)` hears of the
    passages embedded so far."""
    key, sha256, title, day, scopes = _checked(upload, access, stores.graph, replace)
    existing = _owner(stores.graph, key)
    if existing and _unchanged(existing, sha256, title, day, scopes, replacing=replace is not None):
        return get_document(key, access=access, graph=stores.graph) | {
            "created": False, "changed": False, "unresolved": []
        }  # fmt: skip
    parsed = _parse(upload, max_chars, max_passages)
    published = _published(stores.graph)
    rows, unresolved = _passage_rows(key, parsed, stores.graph, published)
    points = _points(key, sha256, access.tenant, scopes, title, rows, stores.embedder, progress)
    document = {
        "key": key, "tenant": access.tenant, "scopes": scopes, "title": title, "date": day,
        "sha256": sha256, "filename": upload.filename[:200], "format": parsed.format,
        "created_by": access.id,
    }  # fmt: skip
    _write(stores, key, document, rows, points, published, existing)
    logger.info("stored document %s (%d passages) for %s", key, len(rows), access.tenant)
    return get_document(key, access=access, graph=stores.graph) | {
        "created": existing is None, "changed": True, "unresolved": unresolved
    }  # fmt: skip


def document_key(
    upload: Upload, *, access: Principal, graph: GraphStore, replace: str | None = None
) -> str:
    """The id `store_document` will write, after the checks it makes before reading the
    file (role, format by name, metadata, scopes, the replaced document's visibility):
    what an upload handed to the job queue is checked with and answered by."""
    return _checked(upload, access, graph, replace)[0]


def _checked(
    upload: Upload, access: Principal, graph: GraphStore, replace: str | None
) -> tuple[str, str, str, str, list[str]]:
    """Key, SHA-256, title, day and scopes of an upload this principal may write."""
    access.require("editor", "uploading a document")
    try:
        document_format(upload.filename)
    except InvalidSource as e:
        raise InvalidQuery("file", f"{e.path!r} {e.problem}") from None
    title, day = _check_metadata(upload)
    scopes = access.grantable(upload.scopes)
    sha256 = hashlib.sha256(upload.data).hexdigest()
    return _target_key(replace, sha256, access, graph, scopes), sha256, title, day, scopes


def _write(
    stores: Stores,
    key: str,
    document: dict[str, Any],
    rows: list[dict[str, Any]],
    points: list[VectorPoint],
    published: list[str],
    existing: Mapping[str, Any] | None,
) -> None:
    """New points first (their ids carry the new content's version, beside the old ones),
    then the graph in one transaction, then the old version's points. A graph that fails
    leaves the document as it was: its new points are taken out again. Until the old
    points go, a search may see both versions' points; the graph read that follows every
    vector search names each passage once."""
    version = document["sha256"][:16]
    old = str(existing["sha256"])[:16] if existing and existing.get("sha256") else None
    stores.vectors.ensure_collections(
        stores.embedder.dense_size, sparse_idf=stores.embedder.sparse_idf
    )
    stores.vectors.upsert(COLLECTION, points)
    try:
        stores.graph.run_write(
            "document_store", document=document, passages=rows, published=published
        )
    except Exception:
        if old != version:
            stores.vectors.delete_where(COLLECTION, {"document": [key], "version": [version]})
        raise
    if old is not None and old != version:
        stores.vectors.delete_where(COLLECTION, {"document": [key], "version": [old]})
    # The same bytes with other metadata (a replace that changes scopes) keep their point
    # ids: the upsert above rewrote their payloads in place.


def get_document(key: str, *, access: Principal, graph: GraphStore) -> dict[str, Any]:
    """A visible document with its passages and what each cites; 404 otherwise (an
    invisible document reads as an unknown one)."""
    _check_key(key)
    rows = graph.run_read("document_get", key=key, **access.cypher_params())
    if not rows:
        raise NotFound(f"no document {key!r}")
    props = dict(rows[0]["document"] or {})
    return {
        "id": props["key"],
        "title": props.get("title"),
        "date": props.get("date"),
        "tenant": props.get("tenant"),
        "scopes": list(props.get("scopes") or []),
        "format": props.get("format"),
        "filename": props.get("filename"),
        "sha256": props.get("sha256"),
        "passages": [
            {**p, "cites": [c for c in p.get("cites") or [] if c]}
            for p in rows[0]["passages"] or []
            if p
        ],
    }


def delete_document(key: str, *, access: Principal, stores: Stores) -> dict[str, Any]:
    """Remove the document's node, passages, their edges and its points."""
    access.require("editor", "deleting a document")
    _check_key(key)
    owner = _owner(stores.graph, key)
    if owner is None or not access.sees(owner["tenant"], owner["scopes"]):
        raise NotFound(f"no document {key!r}")
    stores.vectors.delete_where(COLLECTION, {"document": [key]})
    rows = stores.graph.run_write("document_delete", key=key)
    logger.info("deleted document %s for %s", key, access.tenant)
    return {"id": key, "deleted": True, "passages": int(rows[0]["passages"]) if rows else 0}


def citing_passages(
    section_keys: Sequence[str], *, access: Principal, graph: GraphStore, limit: int = 200
) -> list[dict[str, Any]]:
    """Visible passages that cite these sections, each with the section it cites."""
    if not section_keys:
        return []
    return graph.run_read(
        "document_citing_passages",
        sections=list(dict.fromkeys(section_keys)),
        published=_published(graph),
        limit=limit,
        **access.cypher_params(),
    )


def by_document(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`citing_passages` rows grouped by document, in document order."""
    grouped: dict[str, dict[str, Any]] = {}
    for row in rows:
        entry = grouped.setdefault(
            row["document"],
            {"document": row["document"], "title": row.get("title"), "date": row.get("date"),
             "passages": []},
        )  # fmt: skip
        entry["passages"].append(
            {"key": row["key"], "label": row.get("label"), "cited_as": row.get("cited_as")}
        )
    return sorted(grouped.values(), key=lambda d: d["document"])


def find_passages(
    question: str,
    sections: Sequence[tuple[str, str]],
    *,
    access: Principal,
    stores: Stores,
    limit: int,
) -> list[dict[str, Any]]:
    """The caller's visible passages for a question: the best `limit` by hybrid vector
    search (scope inside every prefetch), and the best `limit` of the visible passages
    that cite the sections the statute search returned (`sections`: (key, label) in rank
    order; scope inside the Cypher), each with its kind and the paths that reached it. A
    passage scores 1 / rank as a vector hit plus `_CITING_WEIGHT` / rank of each returned
    section it cites."""
    embedding = stores.embedder.embed_query(question)
    hits = stores.vectors.hybrid_search(
        COLLECTION, embedding, limit=limit, where=access.vector_filter()
    )
    labels = dict(sections)
    if not hits and not labels:
        return []
    weight = {key: _CITING_WEIGHT / (i + 1) for i, key in enumerate(labels)}
    rows = stores.graph.run_read(
        "document_passages",
        keys=[h.key for h in hits],
        sections=list(labels),
        weights=list(weight.values()),
        published=_published(stores.graph),
        limit=limit,
        **access.cypher_params(),
    )
    vector_rank = {hit.key: rank for rank, hit in enumerate(hits)}
    found = []
    for row in rows:  # a vector hit whose passage a delete is removing right now is absent
        cited = sorted((k for k in set(row["cites"]) if k in weight), key=lambda k: -weight[k])
        via = [f"{labels[k] or k} <-[CITES]- {_name(row)}" for k in cited]
        if row["found_by_vector"]:
            score, reached = 1.0 / (vector_rank[row["key"]] + 1), "vector"
            via.insert(0, f"[vector] {_name(row)}")
        else:
            score, reached = 0.0, "cites"
        score = sum((weight[k] for k in cited), score)
        found.append(_passage_out(row, score=score, reached=reached, paths=via))
    ranked = sorted(found, key=lambda p: (-p["score"], p["key"]))
    return [p | {"score": round(p["score"], 6)} for p in ranked]


def document_counts(graph: GraphStore, key: str | None = None) -> dict[str, int]:
    """Documents, passages and CITES edges (of one document, or all)."""
    row = graph.run_read("document_counts", key=key)[0]
    return {name: int(row[name]) for name in ("documents", "passages", "cites")}


# --- helpers -----------------------------------------------------------------------------


def _check_key(key: str) -> None:
    if not DOCUMENT_ID.match(key):
        raise NotFound(f"no document {key[:60]!r} (a document id looks like doc-<24 hex>)")


def _check_metadata(upload: Upload) -> tuple[str, str]:
    title = " ".join(upload.title.split())
    if not title or len(title) > _MAX_TITLE_CHARS:
        raise InvalidQuery("title", f"must be 1-{_MAX_TITLE_CHARS} characters")
    try:
        day = date.fromisoformat(upload.date.strip()).isoformat()
    except ValueError:
        raise InvalidQuery(
            "date", f"must be a date as YYYY-MM-DD (got {upload.date[:40]!r})"
        ) from None
    return title, day


def _target_key(
    replace: str | None, sha256: str, access: Principal, graph: GraphStore, scopes: list[str]
) -> str:
    """The id to write: the replaced document's (it must be visible), the tenant's
    document with these bytes, or a new id from tenant and bytes."""
    if replace is not None:
        _check_key(replace)
        owner = _owner(graph, replace)
        if owner is None or not access.sees(owner["tenant"], owner["scopes"]):
            raise NotFound(f"no document {replace!r}")
        return replace
    rows = graph.run_read("document_by_content", tenant=access.tenant, sha256=sha256)
    if rows:
        if not access.sees(access.tenant, rows[0]["scopes"] or []):
            raise Forbidden(
                "a document with these bytes already exists in this tenant under scopes "
                "this key cannot see; ask its owner or an admin"
            )
        return str(rows[0]["key"])
    digest = hashlib.sha256(f"{access.tenant}\x00{sha256}".encode()).hexdigest()
    return f"doc-{digest[:24]}"


def _unchanged(
    existing: Mapping[str, Any],
    sha256: str,
    title: str,
    day: str,
    scopes: list[str],
    *,
    replacing: bool,
) -> bool:
    """A new upload of bytes the tenant holds is a no-op whatever its metadata (a replace
    changes metadata); a replace with the same bytes and metadata is one too."""
    if existing["sha256"] != sha256:
        return False
    if not replacing:
        return True
    props = existing["document"] or {}
    return (
        props.get("title") == title
        and props.get("date") == day
        and list(existing["scopes"] or []) == scopes
    )


def _owner(graph: GraphStore, key: str) -> dict[str, Any] | None:
    rows = graph.run_read("document_owner", key=key)
    return rows[0] if rows else None


def _parse(upload: Upload, max_chars: int, max_passages: int) -> ParsedDocument:
    try:
        parsed = read_document(upload.data, upload.filename, max_chars=max_chars)
    except InvalidSource as e:
        raise InvalidQuery("file", f"{e.path!r} {e.problem}") from None
    if len(parsed.passages) > max_passages:
        raise InvalidQuery(
            "file", f"has {len(parsed.passages)} passages, more than the {max_passages} allowed"
        )
    return parsed


def _published(graph: GraphStore) -> list[str]:
    return sorted(f"{law}@{v}" for law, v in published_law_versions(graph).items())


def _law_names(graph: GraphStore) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for row in graph.run_read("document_law_names"):
        found = [row.get("title"), row.get("short_name"), *(row.get("aliases") or [])]
        names[str(row["law"])] = [n for n in found if isinstance(n, str) and n.strip()]
    return names


def _passage_rows(
    key: str, parsed: ParsedDocument, graph: GraphStore, published: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The passages as `document_store` rows, with the published sections each cites, and
    the citations that point at none."""
    names = _law_names(graph)
    whole = "\n".join(p.text for p in parsed.passages)
    laws = named_laws(whole, names)
    default = laws[0] if len(laws) == 1 else None
    cited = {p.order: read_citations(p.text, names, default_law=default) for p in parsed.passages}
    wanted = sorted({c.key for found in cited.values() for c in found if c.key})
    known = {
        row["key"] for row in graph.run_read("document_sections", keys=wanted, published=published)
    }
    rows: list[dict[str, Any]] = []
    unresolved: list[dict[str, str]] = []
    for passage in parsed.passages:
        cites: dict[str, str] = {}
        for citation in cited[passage.order]:
            if citation.key is not None and citation.key in known:
                cites.setdefault(citation.key, citation.text)
            else:
                unresolved.append(
                    {"passage": passage.label, "citation": citation.text,
                     "problem": "no published section" if citation.law else "names no known law"}
                )  # fmt: skip
        rows.append(_row(key, passage, cites))
    return rows, unresolved


def _row(key: str, passage: PassageText, cites: Mapping[str, str]) -> dict[str, Any]:
    return {
        "key": f"{key}:p:{passage.order}",
        "order": passage.order,
        "label": passage.label,
        "heading": passage.heading,
        "text": passage.text,
        "cites": [{"key": k, "text": t} for k, t in cites.items()],
    }


def _points(
    key: str,
    sha256: str,
    tenant: str,
    scopes: list[str],
    title: str,
    rows: list[dict[str, Any]],
    embedder: Embedder,
    progress: Callable[[int, int], None] | None,
) -> list[VectorPoint]:
    """One point per passage; the document's title leads its text, as a heading would."""
    points: list[VectorPoint] = []
    for start in range(0, len(rows), _EMBED_BATCH):
        batch = rows[start : start + _EMBED_BATCH]
        embeddings = embedder.embed_documents([f"{title}\n{r['text']}" for r in batch])
        for row, embedding in zip(batch, embeddings, strict=True):
            payload = {
                "kind": "passage", "document": key, "tenant": tenant, "scopes": scopes,
                "version": sha256[:16], "label": row["label"],
            }  # fmt: skip
            points.append(VectorPoint(key=row["key"], embedding=embedding, payload=payload))
        if progress is not None:
            progress(len(points), len(rows))
    return points


def _name(row: Mapping[str, Any]) -> str:
    """A passage as a path names it: "Health-data policy 4.2"."""
    return f"{row.get('title') or row.get('document')} {row.get('label')}".strip()


def _passage_out(
    row: Mapping[str, Any], *, score: float, reached: str, paths: list[str]
) -> dict[str, Any]:
    return {
        "kind": "passage",
        "key": row["key"],
        "document": row["document"],
        "title": row.get("title"),
        "date": row.get("date"),
        "label": row.get("label"),
        "text": row.get("text", ""),
        "score": score,
        "reached": reached,
        "path": paths[0],
        "paths": paths,
    }
