"""The law lookups behind the law endpoints and MCP tools (not search): a section's text,
its related sections, its penalties, a law's summary, the published laws. Deterministic,
published versions only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, Literal

from ingest.ids import node_key
from services.core.analysis import normalise_section_number
from services.core.errors import InvalidQuery, NotFound
from services.core.ports import GraphStore
from services.core.retrieval.assemble import kind_of, render_path
from services.core.retrieval.laws import published_law_versions
from services.core.retrieval.models import Step

_MAX_SECTION_CHARS = 40
_PUBLIC_LAW_PROPS = ("title", "short_name", "language", "jurisdiction", "status", "year", "source")
_HIDDEN_PROPS = frozenset({"uid", "law_version"})


def list_laws(graph: GraphStore) -> list[dict[str, Any]]:
    laws = []
    for row in graph.run_read("laws_list"):
        props = row.get("props") or {}
        laws.append(
            {"law": row["law"], "version": row["version"]}
            | {name: props.get(name) for name in _PUBLIC_LAW_PROPS if props.get(name)}
        )
    return laws


def law_summary(graph: GraphStore, law: str, *, most_cited: int = 10) -> dict[str, Any]:
    """Structure counts and the most-cited sections of one published law."""
    versions = published_law_versions(graph)
    version = _require_law(versions, law)
    law_version = f"{law}@{version}"
    published = _published_list(versions)
    nodes = graph.run_read("law_summary_nodes", law=law, law_version=law_version)
    edges: dict[str, int] = defaultdict(int)
    for row in graph.run_read("law_summary_edges", law=law, law_version=law_version):
        if row.get("type"):
            edges[str(row["type"])] += int(row["count"])
    cited = graph.run_read(
        "law_most_cited", law=law, law_version=law_version, published=published, limit=most_cited
    )
    return {
        "law": law,
        "version": version,
        "nodes": {
            str(r["label"]): int(r["count"])
            for r in sorted(nodes, key=lambda r: str(r["label"]))
            if r.get("count")
        },
        "edges": dict(sorted(edges.items())),
        "most_cited": [
            {
                "key": r["key"],
                "number": r.get("number"),
                "label": r.get("label"),
                "cited_by": int(r["cited"]),
            }
            for r in cited
        ],
    }


def section_text(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_text", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    node = _public(rows[0].get("node"))
    division = _public(rows[0].get("division"))
    labels = rows[0].get("division_labels") or []
    return {
        "key": node.get("key", key),
        "law": law,
        "number": node.get("number"),
        "label": node.get("label"),
        "title": node.get("title") or None,
        "text": node.get("text", ""),
        "version": node.get("version"),
        "division": (
            {
                "kind": kind_of(labels),
                "key": division.get("key"),
                "label": division.get("label"),
                "title": division.get("title"),
            }  # fmt: skip
            if division
            else None
        ),
    }


def related_sections(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    """In- and out-edges of a section, grouped by relationship type."""
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_related", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    outgoing: dict[str, list[dict[str, Any]]] = defaultdict(list)
    incoming: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row.get("type"):
            continue
        link = {
            "key": row.get("key"),
            "kind": kind_of(row.get("labels") or []),
            "label": row.get("label"),
            "law": row.get("law"),
        } | {k: v for k, v in (row.get("props") or {}).items() if v not in (None, [], "")}
        (outgoing if row.get("outgoing") else incoming)[str(row["type"])].append(link)
    return {"key": key, "law": law, "outgoing": dict(outgoing), "incoming": dict(incoming)}


def section_penalties(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    """Penalty sections (and their Penalty nodes) reachable from the violated section
    within 3 hops, each with the path that links them."""
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_penalties", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        ps = _public(row.get("penalty_section"))
        if not ps.get("key"):
            continue
        steps = _steps(row)
        entry = found.setdefault(
            ps["key"],
            {
                "key": ps["key"],
                "label": ps.get("label"),
                "law": ps.get("law"),
                "text": ps.get("text", ""),
                "hops": len(steps) - 1 if steps else None,
                "path": render_path(steps) if steps else None,
                "penalties": [],
            },
        )
        penalty = _public(row.get("penalty"))
        if penalty.get("key") and all(p["key"] != penalty["key"] for p in entry["penalties"]):
            entry["penalties"].append(
                {k: v for k, v in penalty.items() if k not in ("law", "version")}
            )
    return {"key": key, "law": law, "penalty_sections": list(found.values())}


def section_key_for(law: str, section: str) -> str:
    """The key of "26", "๒๖", "26/1", "มาตรา ๒๖" in `law`; 422 for anything else."""
    raw = section.strip()
    if not raw or len(raw) > _MAX_SECTION_CHARS or any(ord(c) < 32 or c == "\x7f" for c in raw):
        raise InvalidQuery(
            "section", f"must be a section number such as 26, ๒๖ or 26/1 (got {section[:50]!r})"
        )
    number = normalise_section_number(raw)
    if not number or not number[0].isalnum():
        raise InvalidQuery(
            "section", f"must be a section number such as 26, ๒๖ or 26/1 (got {section[:50]!r})"
        )
    return node_key(law, "s", number)


def _require_law(versions: Mapping[str, str], law: str) -> str:
    version = versions.get(law)
    if not version:
        raise NotFound(f"no published law {law[:100]!r}")
    return version


def _published_list(versions: Mapping[str, str]) -> list[str]:
    return sorted(f"{law}@{version}" for law, version in versions.items())


def _public(props: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (props or {}).items() if k not in _HIDDEN_PROPS and v is not None}


def _steps(row: Mapping[str, Any]) -> tuple[Step, ...] | None:
    keys = [str(k) for k in row.get("path_keys") or []]
    names = [str(n) for n in row.get("path_labels") or keys]
    types = list(row.get("path_types") or [])
    starts = list(row.get("path_starts") or [])
    if not keys or len(set(keys)) != len(keys) or len(types) != len(keys) - 1:
        return None
    if len(names) != len(keys):
        names = keys
    steps = [Step(0, "", "out", keys[0], names[0])]
    for i, rel_type in enumerate(types):
        direction: Literal["out", "in"] = "out" if starts[i] == keys[i] else "in"
        steps.append(Step(i + 1, str(rel_type), direction, keys[i + 1], names[i + 1]))
    return tuple(steps)
