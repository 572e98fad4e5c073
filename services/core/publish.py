"""Versioned, publish-when-complete ingestion of one law.

A law's version is the hash of its content. Loading a new version never touches what
queries read: its nodes carry `uid = key@version` next to the old ones, its points carry
`law_version = law@version`. Queries keep only what belongs to `Law.published_version`.
The protocol, per law:

1. `content_version(law)`; when it equals `Law.published_version`, the law is unchanged:
   a no-op (after sweeping anything stale a crash may have left behind).
2. `Law.pending_version = version` (visible to operators, ignored by queries).
3. Graph: load every node and edge of the new version (MERGE on uid, re-runnable).
4. Vectors: embed and upsert every chunk and profile point of the new version.
5. Check the graph holds every node of the version, then flip
   `Law.published_version = version` (and clear `pending_version`) in one write, which
   also keeps the parsed law of that version on its `LawSource` node (links.py reads it).
6. `on_published(version)`: the caller re-resolves citations between this law and the
   others (services/core/links.py), while the old version's nodes still exist, so other
   laws' citations move from the old version to the new one without a gap.
7. Remove the old version's nodes, edges and points: those of every version that is not
   one of the law's kept expressions.

A law is a work with expressions (FRBR): each kept version has the day it applies from
(`valid_from`, "" when unknown), and applies until the next one does. Ingested without a
day, a changed text replaces the latest expression (a correction, as before); ingested with
`valid_from`, it becomes the expression from that day and the previous one closes the day
before, its nodes and points kept. A text equal to any kept expression is a no-op.
`Law.published_version` is always the latest expression; retrieval reads the expression in
force on its `as_of` (services/core/retrieval/laws.py).

A crash anywhere before step 5 leaves the previous version published and the partial new
one invisible; running the law again completes it (every step is idempotent). A crash
between 5 and 7 leaves stale data that is invisible and swept on the next run (which also
re-resolves the citations: an unchanged law runs steps 6 and 7 again).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from ingest.graph import LawGraph, NodeLabel
from ingest.models import Law
from ingest.serial import FORMAT, law_to_text
from services.core import telemetry
from services.core.errors import GraphUnavailable, InvalidQuery
from services.core.indexing import STATUTE_COLLECTIONS
from services.core.ports import GraphStore, VectorIndex

log = logging.getLogger(__name__)

# Bump when the graph builder or the embedding layout changes what a law becomes, so an
# unchanged source is re-ingested once with the new pipeline.
# 7: English paragraphs read clause by clause, each after its list's opening; 8: sections
# read as drafted (inserted clauses "(๕/๑)", "(5A)" and numbered items stay in their list, a
# title printed above the text is the title, Singapore list lines), cited clauses side by
# side are siblings, a decree's citation of a section it lacks reaches its enabling Act, and
# an unspaced Thai law name stops before "นั้น" (that); 9: a PENALIZES edge says whether it
# punishes its duty only as another section applies it ("applied"), a list of breaches
# goes on after such a section, and "ปรับ ทางปกครอง" is an administrative fine.
PIPELINE_VERSION = "9"
# Labels whose nodes belong to one version of one law (Law, ExternalLaw and Concept nodes
# are shared across versions).
VERSIONED_LABELS = frozenset(
    {
        NodeLabel.CHAPTER,
        NodeLabel.PART,
        NodeLabel.SECTION,
        NodeLabel.DEFINITION,
        NodeLabel.PENALTY,
        NodeLabel.EXEMPTION,
    }
)

# Parses and loads a law's graph for one version; returns the graph it loaded.
GraphLoader = Callable[[Law, str], LawGraph]
# Embeds and upserts a law's points for one version; returns the number of points.
VectorLoader = Callable[[Law, LawGraph, str], int]
# Runs once the law's version is published (or found unchanged), before stale removal.
PublishedHook = Callable[[str], None]


@dataclass(frozen=True)
class Expression:
    """One kept version of a law and the day it applies from ("" when unknown)."""

    version: str
    valid_from: str = ""


@dataclass(frozen=True)
class LawVersions:
    published: str | None
    pending: str | None
    expressions: tuple[Expression, ...] = ()  # oldest first; the last is `published`


@dataclass(frozen=True)
class LawOutcome:
    law_id: str
    version: str
    status: Literal["succeeded", "unchanged"]
    sections: int
    nodes: int = 0
    edges: int = 0
    points: int = 0
    seconds: float = 0.0


def content_version(law: Law) -> str:
    """12 hex of the SHA-256 of the law's content (its source path left out, so the same
    text uploaded twice or read from another folder has the same version)."""
    data = dataclasses.asdict(law)
    data.pop("source", None)
    data.pop("marked_citations", None)
    blob = json.dumps([PIPELINE_VERSION, data], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


def law_versions(graph: GraphStore, law_id: str) -> LawVersions:
    rows = graph.run_read("law_versions", law=law_id)
    if not rows:
        return LawVersions(None, None)
    row = rows[0]
    published = row.get("published_version")
    return LawVersions(
        published,
        row.get("pending_version"),
        expressions_of(published, row.get("expressions"), row.get("expression_from")),
    )


def expressions_of(
    published: str | None, versions: Sequence[str] | None, froms: Sequence[str] | None
) -> tuple[Expression, ...]:
    """A Law node's kept expressions; a law published before expressions were kept has one,
    its published version, from a day unknown."""
    if versions:
        froms = froms or [""] * len(versions)
        return tuple(Expression(v, f or "") for v, f in zip(versions, froms, strict=True))
    return (Expression(published),) if published else ()


def with_expression(
    expressions: Sequence[Expression], version: str, valid_from: str | None
) -> tuple[Expression, ...]:
    """The law's expressions once `version` is added: without a day it replaces the latest
    one (keeping its day); with one it becomes the expression from that day (replacing one
    from the same day). Oldest first, an unknown day first of all."""
    if valid_from is None:
        start = expressions[-1].valid_from if expressions else ""
        kept = list(expressions[:-1])
    else:
        start = valid_from
        kept = [e for e in expressions if e.valid_from != valid_from]
    return tuple(sorted([*kept, Expression(version, start)], key=lambda e: e.valid_from))


def valid_day(value: str | None) -> str | None:
    """A `valid_from` as an ISO day, or None; a clear error for anything else."""
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise InvalidQuery(
            "valid_from", f"must be a date as YYYY-MM-DD, got {str(value)[:40]!r}"
        ) from None


def published_versions(graph: GraphStore) -> dict[str, str]:
    """law id -> published version of every visible law."""
    rows = graph.run_read("published_laws")
    return {r["law"]: r["version"] for r in rows if r.get("version")}


def ingest_law_version(
    law: Law,
    *,
    graph: GraphStore,
    vectors: VectorIndex,
    load_graph: GraphLoader,
    load_vectors: VectorLoader,
    force: bool = False,
    on_published: PublishedHook | None = None,
    valid_from: str | None = None,
) -> LawOutcome:
    """Ingest one law under the publish protocol above; idempotent and crash-safe.
    `valid_from` (ISO day): the day this text applies from, kept beside the earlier ones."""
    started = time.perf_counter()
    valid_from = valid_day(valid_from)
    version = content_version(law)
    current = law_versions(graph, law.id)
    kept = [e.version for e in current.expressions]
    if version in kept and not force:
        if version == current.published:
            graph.run_write(
                "law_source_store",
                law=law.id,
                version=version,
                format=FORMAT,
                model=law_to_text(law),
            )
            if on_published is not None:
                on_published(version)
        remove_stale(law.id, kept, graph=graph, vectors=vectors)
        log.info("law %s unchanged at version %s", law.id, version)
        return LawOutcome(law.id, version, "unchanged", len(law.sections))

    graph.run_write("law_mark_pending", law=law.id, version=version, title=law.title)
    law_graph = load_graph(law, version)
    points = load_vectors(law, law_graph, version)
    nodes = _check_graph_holds(graph, law.id, version, law_graph)
    expressions = with_expression(current.expressions, version, valid_from)
    graph.run_write(
        "law_publish_with_source",
        law=law.id,
        version=version,
        latest=expressions[-1].version,
        expressions=[e.version for e in expressions],
        expression_from=[e.valid_from for e in expressions],
        format=FORMAT,
        model=law_to_text(law),
    )
    telemetry.record_sections_ingested(len(law.sections))
    if on_published is not None:
        on_published(version)
    remove_stale(law.id, [e.version for e in expressions], graph=graph, vectors=vectors)
    seconds = time.perf_counter() - started
    log.info(
        "law %s published version %s (%d sections, %d nodes, %d points) in %.2f s",
        law.id,
        version,
        len(law.sections),
        nodes,
        points,
        seconds,
    )
    return LawOutcome(
        law.id,
        version,
        "succeeded",
        len(law.sections),
        nodes,
        len(law_graph.edges),
        points,
        seconds,
    )


def remove_stale(
    law_id: str, versions: Sequence[str], *, graph: GraphStore, vectors: VectorIndex
) -> None:
    """Delete every node, edge and point of `law_id` that is of none of `versions`."""
    graph.run_write("law_remove_stale", law=law_id, versions=list(versions))
    for collection in STATUTE_COLLECTIONS:
        vectors.delete_law(collection, law_id, keep_versions=versions)


def _check_graph_holds(graph: GraphStore, law_id: str, version: str, law_graph: LawGraph) -> int:
    """The number of the version's nodes in the graph; raises when some are missing."""
    expected = sum(1 for n in law_graph.nodes if n.label in VERSIONED_LABELS)
    rows = graph.run_read("law_version_nodes", law=law_id, version=version)
    found = int(rows[0]["nodes"]) if rows else 0
    if found < expected:
        raise GraphUnavailable(
            f"graph holds {found} of {expected} nodes of {law_id}@{version}; not publishing"
        )
    return found
