"""The law lookups behind the law endpoints and MCP tools (not search): a section's text,
its related sections, its penalties, its history, a law's summary, the published laws.
Deterministic, published versions only.

`as_of` (an ISO day, default today): the section itself is read whether or not its law is
in force that day (`in_force` says), and what it links to (related sections, penalties,
regulations issued under it, decrees that keep it from applying) only from the laws in
force that day, a restriction inside each query.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ingest.ids import node_key
from services.core.analysis import normalise_section_number
from services.core.errors import InvalidQuery, NotFound
from services.core.ports import GraphStore
from services.core.retrieval.applicability import read_applicability
from services.core.retrieval.assemble import kind_of, render_path
from services.core.retrieval.laws import as_of_day, in_force, published_law_versions, read_catalogue
from services.core.retrieval.models import Law, Step

_MAX_SECTION_CHARS = 40
_PUBLIC_LAW_PROPS = (
    "title", "short_name", "kind", "language", "jurisdiction", "status", "year", "source",
    "valid_from", "valid_to", "not_before", "commencement",
)  # fmt: skip
_PERIOD = ("valid_from", "valid_to", "not_before", "commencement")
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


@dataclass(frozen=True)
class _Day:
    """One lookup's view of the catalogue on its day."""

    day: str
    published: list[str]  # "law@version" of every published law
    in_force: list[str]  # of those in force on `day`
    law_in_force: bool  # the looked-up law
    disapplying: bool  # some law in force keeps provisions of a law from applying

    def applicability(self, graph: GraphStore, keys: list[str]) -> dict[str, list[dict[str, Any]]]:
        """The disapplications in force on the day reaching `keys` (no read when no law in
        force says it disapplies anything)."""
        return read_applicability(graph, keys, self.in_force) if self.disapplying else {}

    @property
    def in_force_laws(self) -> list[str]:
        return sorted(law_version.split("@", 1)[0] for law_version in self.in_force)

    def around(self, law: str, versions: Mapping[str, str]) -> list[str]:
        """The versions in force, and the looked-up law's own even when it is not."""
        return sorted({*self.in_force, f"{law}@{versions[law]}"})


def _day(graph: GraphStore, law: str, as_of: str | None) -> tuple[_Day, dict[str, str]]:
    """The lookup's day, and every published law's version as it read that day."""
    catalogue = read_catalogue(graph)
    day = as_of_day(as_of)
    versions = {x.id: str(x.on(day).version) for x in catalogue.values() if x.version}
    _require_law(versions, law)
    live = in_force(catalogue, day)
    return (
        _Day(
            day,
            _published_list(versions),
            sorted(x.law_version for x in live.values()),
            law in live,
            any(x.disapplies for x in live.values()),
        ),
        versions,
    )


def section_text(
    graph: GraphStore, law: str, section: str, as_of: str | None = None
) -> dict[str, Any]:
    on, versions = _day(graph, law, as_of)
    key = section_key_for(law, section)
    rows = graph.run_read("section_text", key=key, published=on.published)
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
        "as_of": on.day,
        "in_force": on.law_in_force,
        "applicability": on.applicability(graph, [key]).get(key, []),
    }


def related_sections(
    graph: GraphStore, law: str, section: str, as_of: str | None = None
) -> dict[str, Any]:
    """In- and out-edges of a section, grouped by relationship type, to the laws in force
    on `as_of`; the regulations issued under it (incoming ISSUED_UNDER, with their dates)
    also under `issued_under`, and the acts that amended, inserted or repealed it (incoming
    AMENDS / INSERTS / REPEALS from AmendingAct nodes) under `amended_by`."""
    on, versions = _day(graph, law, as_of)
    key = section_key_for(law, section)
    rows = graph.run_read(
        "section_related",
        key=key,
        published=on.around(law, versions),
        in_force_laws=on.in_force_laws,
    )
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
        link |= {k: v for k, v in (row.get("law_props") or {}).items() if v is not None}
        (outgoing if row.get("outgoing") else incoming)[str(row["type"])].append(link)
    return {
        "key": key,
        "law": law,
        "as_of": on.day,
        "outgoing": dict(outgoing),
        "incoming": dict(incoming),
        "issued_under": incoming.get("ISSUED_UNDER", []),
        "amended_by": [
            {"change": rel.lower(), **link}
            for rel in ("AMENDS", "INSERTS", "REPEALS")
            for link in incoming.get(rel, [])
        ],
        "applicability": on.applicability(graph, [key]).get(key, []),
    }


def section_penalties(
    graph: GraphStore, law: str, section: str, as_of: str | None = None
) -> dict[str, Any]:
    """Penalty sections (and their Penalty nodes) of the laws in force on `as_of` reachable
    from the violated section within 3 hops, each with the path that links them and the
    decrees in force then that keep it from applying to some."""
    on, versions = _day(graph, law, as_of)
    key = section_key_for(law, section)
    rows = graph.run_read("section_penalties", key=key, published=on.around(law, versions))
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
    applying = on.applicability(graph, list(found))
    for entry in found.values():
        entry["applicability"] = applying.get(entry["key"], [])
    return {"key": key, "law": law, "as_of": on.day, "penalty_sections": list(found.values())}


def section_history(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    """A section's text in each kept expression of its law with the days it applied, the
    regulations issued under it and every decree that kept it from applying, with each
    one's period, whatever the day, and the acts that amended, inserted or repealed it or
    changed its law (`amended_by`: AmendingAct nodes, ingest/amendments.py), each once."""
    catalogue = read_catalogue(graph)
    versions = {x.id: x.version for x in catalogue.values() if x.version}
    _require_law(versions, law)
    key = section_key_for(law, section)
    published = sorted({*_published_list(versions), *catalogue[law].law_versions})
    rows = graph.run_read("section_history", key=key, published=published)
    disapplying = any(x.disapplies and x.version for x in catalogue.values())
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    node = _public(rows[0].get("node"))
    return {
        "key": key,
        "law": law,
        "label": node.get("label"),
        "versions": _versions(catalogue[law], rows),
        "amended_by": _amended_by(rows),
        "issued_under": [
            {k: v for k, v in item.items() if v is not None}
            for item in rows[0].get("issued_under") or []
        ],
        "effects": (
            read_applicability(graph, [key], published).get(key, []) if disapplying else []
        ),
    }


def _amended_by(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The amending acts of every row (one per kept version of the section), each act and
    change once: what the section's text says changed it first, then its law's."""
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    for row in rows:
        for item in row.get("amended_by") or []:
            entry = {k: v for k, v in item.items() if v not in (None, [])}
            found.setdefault((item["changed"], item["act"], item["change"]), entry)
    return sorted(found.values(), key=lambda e: (e["changed"] != "section", e["act"]))


def _versions(law: Law, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The section in each expression of `law` (`Law.periods`), oldest first. The law's
    own period in force (from its commencement section) bounds the first and the last."""
    nodes = {str((row.get("node") or {}).get("version")): row.get("node") or {} for row in rows}
    law_props = rows[0].get("law") or {}
    periods = law.periods()
    out, before = [], None
    for i, period in enumerate(periods):
        node = nodes.get(period["version"])
        text = node.get("text") if node else None
        entry = {
            "version": period["version"],
            "published": period["version"] == law.version,
            "source": law_props.get("source") if period["version"] == law.version else None,
            "valid_from": period["valid_from"] or None,
            "valid_to": period["valid_to"] or None,
            "text": text,
            "changed": i > 0 and text != before,
        }
        if i == 0:  # the law's commencement dates where the first text's day is unknown
            entry |= {k: entry.get(k) or law_props.get(k) for k in _PERIOD}
        if i == len(periods) - 1:
            entry["valid_to"] = entry["valid_to"] or law_props.get("valid_to")
        out.append(entry)
        before = text
    return out


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
