"""One law -> its property graph (ingest/graph.py), by rule and deterministic.

Nodes: Law, Chapter, Part, Section, Definition, Penalty, Exemption, ExternalLaw,
AmendingAct, an EU act's Recitals, and curated Concepts where `data/curated/<law id>.json`
exists. Edges: the hierarchy (HAS_CHAPTER, HAS_PART, CONTAINS), reading order (NEXT),
citations (REFERENCES, one per source/target pair, also across laws; CITES_EXTERNAL for
laws outside the corpus), the rule-based relations of `ingest.rules`, a decree's ties to
its parent (`ingest.instruments`), what amended the law (`ingest.amendments`) and the
articles each recital explains (`ingest.explanations`). Nodes and edges come out sorted,
so the same law always gives the same graph. Version and uid properties are the
exporter's business.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ingest.amendments import SELF, Amendment, find_amendments
from ingest.corpus import CorpusIndex, normalise_law_name
from ingest.explanations import explained_sections
from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType
from ingest.ids import law_kind, node_key, section_label, title_year
from ingest.instruments import (
    disapplications,
    enabling_sections,
    in_force,
    period_of,
    says_disapplies,
    year_start,
)
from ingest.models import Law, Section
from ingest.rules import (
    Penalty,
    defining_sections,
    find_definitions,
    find_exemptions,
    find_penalties,
    find_term_uses,
    link_general_penalties,
)
from ingest.structure import place_at
from ingest.xrefs import Resolution, extract_citations, resolve_citation

CURATED_DIR = Path(__file__).resolve().parent.parent / "data" / "curated"

_LABEL_ORDER = {label: i for i, label in enumerate(NodeLabel)}
_TYPE_ORDER = {rel: i for i, rel in enumerate(RelType)}


def build_graph(
    law: Law, corpus: CorpusIndex | None = None, *, curated_dir: Path | None = None
) -> LawGraph:
    """The graph of `law`; citations of other laws resolve against `corpus`."""
    corpus = corpus if corpus is not None else CorpusIndex.from_laws([law])
    builder = _Builder(law)
    builder.structure()
    enabling = enabling_sections(law, corpus)
    resolutions = {
        s.key: _in_enabling_law(_resolutions(s, law, corpus), law, enabling, corpus)
        for s in law.sections
    }
    builder.citations(resolutions)
    builder.penalties(resolutions)
    builder.definitions()
    builder.exemptions(resolutions)
    builder.instrument(enabling, corpus)
    builder.amendments(corpus)
    builder.curated(curated_dir or CURATED_DIR)
    builder.recitals()
    return builder.finish()


def graph_summary(graph: LawGraph) -> dict[str, Any]:
    """What `lexgraph inspect` prints: counts, the edge list, unresolved citations and
    whether the graph is one weakly connected component."""
    nodes: dict[str, int] = defaultdict(int)
    for node in graph.nodes:
        nodes[node.label.value] += 1
    edges: dict[str, int] = defaultdict(int)
    for edge in graph.edges:
        edges[edge.type.value] += 1
    return {
        "law": graph.law_id,
        "nodes": dict(sorted(nodes.items())),
        "edges": dict(sorted(edges.items())),
        "node_count": len(graph.nodes),
        "edge_count": len(graph.edges),
        "edge_list": [_edge_row(edge) for edge in graph.edges],
        "unresolved": list(graph.unresolved),
        "weakly_connected": is_weakly_connected(graph),
    }


def is_weakly_connected(graph: LawGraph) -> bool:
    """True when every node reaches every other ignoring edge direction (edges to nodes of
    other laws, such as a cross-law REFERENCES target, are not counted)."""
    keys = {n.key for n in graph.nodes}
    if not keys:
        return True
    parent = {k: k for k in keys}

    def find(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for edge in graph.edges:
        if edge.source in keys and edge.target in keys:
            parent[find(edge.source)] = find(edge.target)
    return len({find(k) for k in keys}) == 1


def _edge_row(edge: Edge) -> dict[str, Any]:
    row: dict[str, Any] = {"source": edge.source, "type": edge.type.value, "target": edge.target}
    for name in (
        "paragraphs", "clauses", "from_paragraphs", "from_clauses",
        "kind", "max_fine_thb", "max_prison_months",
    ):  # fmt: skip
        if name in edge.props:
            row[name] = edge.props[name]
    return row


def _resolutions(section: Section, law: Law, corpus: CorpusIndex) -> list[Resolution]:
    return [resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)]


def _in_enabling_law(
    resolutions: list[Resolution], law: Law, enabling: list[str], corpus: CorpusIndex
) -> list[Resolution]:
    """A decree or regulation that cites a section it does not have, naming no law ("กรอบ
    วงเงินกองทุนตามมาตรา ๒๖ วรรคหนึ่ง" in a decree of seven sections), cites the law it is
    issued under (its preamble: "อาศัยอำนาจตามความในมาตรา ๒๖ วรรคสาม แห่งพระราชบัญญัติ
    กองทุนน้ำมันเชื้อเพลิง"), when it is issued under one law and that law has the section."""
    parents = {key.partition(":")[0] for key in enabling}  # a law id holds no ":"
    if len(parents) != 1:
        return resolutions
    [parent] = parents
    out = []
    for resolution in resolutions:
        citation = resolution.citation
        if citation.law is None and resolution.law_id == law.id and resolution.target is None:
            target = corpus.section_key(parent, citation.section)
            if target is not None:
                resolution = Resolution(citation, parent, target)
        out.append(resolution)
    return out


class _Builder:
    def __init__(self, law: Law) -> None:
        self.law = law
        self.nodes: dict[tuple[NodeLabel, str], Node] = {}
        self.edges: dict[tuple[RelType, str, str], Edge] = {}
        self.unresolved: list[dict[str, Any]] = []
        self.sections = {s.key: s for s in law.sections}

    # -- nodes and edges --
    def node(self, label: NodeLabel, key: str, props: Mapping[str, Any]) -> None:
        self.nodes.setdefault(
            (label, key), Node(label, key, {"key": key, "law": self.law.id, **props})
        )

    def edge(
        self,
        rel: RelType,
        source: tuple[NodeLabel, str],
        target: tuple[NodeLabel, str],
        props: Mapping[str, Any] | None = None,
    ) -> None:
        self.edges.setdefault(
            (rel, source[1], target[1]),
            Edge(rel, source[0], source[1], target[0], target[1], dict(props or {})),
        )

    # -- steps --
    def structure(self) -> None:
        law = self.law
        period = in_force(law)
        self.node(
            NodeLabel.LAW,
            law.id,
            {
                "title": law.title,
                "kind": law_kind(law.title),
                "valid_from": period.valid_from or None,
                "valid_to": period.valid_to or None,
                "not_before": period.not_before or None,
                "commencement": period.commencement or None,
                "disapplies": says_disapplies(law),
                "short_name": law.short_name,
                "language": law.language,
                "jurisdiction": law.jurisdiction,
                "status": law.status,
                "year": law.year,
                "source": law.source,
                "section_count": len(law.sections),
            },
        )
        divisions = {d.key: d for d in law.divisions}
        for division in sorted(law.divisions, key=lambda d: (d.order, d.key)):
            label = NodeLabel.CHAPTER if division.kind == "chapter" else NodeLabel.PART
            self.node(
                label,
                division.key,
                {
                    "number": division.number,
                    "label": division.label,
                    "title": division.title,
                    "order": division.order,
                },
            )
            parent = divisions.get(division.parent_key or "")
            if label is NodeLabel.PART and parent is not None:
                self.edge(RelType.HAS_PART, (NodeLabel.CHAPTER, parent.key), (label, division.key))
            elif label is NodeLabel.CHAPTER:
                self.edge(RelType.HAS_CHAPTER, (NodeLabel.LAW, law.id), (label, division.key))
            else:  # a part outside any chapter hangs off the law
                self.edge(RelType.HAS_CHAPTER, (NodeLabel.LAW, law.id), (label, division.key))
        ordered = sorted(law.sections, key=lambda s: s.order)
        for section in ordered:
            chapter = divisions.get(section.chapter_key or "")
            part = divisions.get(section.part_key or "")
            self.node(
                NodeLabel.SECTION,
                section.key,
                {
                    "number": section.number,
                    "label": section.label,
                    "title": section.title,
                    "text": section.text,
                    "order": section.order,
                    "chapter": chapter.key if chapter else None,
                    "chapter_title": chapter.title if chapter else None,
                    "part": part.key if part else None,
                    "part_title": part.title if part else None,
                },
            )
            if part is not None:
                container = (NodeLabel.PART, part.key)
            elif chapter is not None:
                container = (NodeLabel.CHAPTER, chapter.key)
            else:
                container = (NodeLabel.LAW, law.id)
            self.edge(RelType.CONTAINS, container, (NodeLabel.SECTION, section.key))
        for before, after in zip(ordered, ordered[1:], strict=False):
            self.edge(RelType.NEXT, (NodeLabel.SECTION, before.key), (NodeLabel.SECTION, after.key))

    def citations(self, resolutions: dict[str, list[Resolution]]) -> None:
        grouped: dict[tuple[str, str], list[Resolution]] = defaultdict(list)
        for source in sorted(resolutions, key=self._order):
            for resolution in resolutions[source]:
                if resolution.target is not None:
                    if resolution.target != source:  # "มาตรานี้"-like self mentions
                        grouped[(source, resolution.target)].append(resolution)
                    continue
                self._unresolved(resolution)
        for (source, target), items in grouped.items():
            self.edge(
                RelType.REFERENCES,
                (NodeLabel.SECTION, source),
                (NodeLabel.SECTION, target),
                {
                    "paragraphs": sorted(
                        {c.paragraph for c in _cites(items) if c.paragraph is not None}
                    ),
                    "clauses": sorted(
                        {"/".join(c.clauses) for c in _cites(items) if c.clauses}, key=_natural
                    ),
                    "spans": _spans(items),
                    **self._citing_places(source, items),
                    "cross_law": target not in self.sections,
                },
            )

    def _citing_places(self, source: str, items: list[Resolution]) -> dict[str, list[Any]]:
        """Where in the citing section the citations sit: paragraphs, and clauses ("6" for
        PDPA s.23 (๖), "5/ก" for (๕) (ก)), so that a question about "section 23(6)" can
        follow only what that clause cites."""
        section = self.sections[source]
        places = {place_at(section.paragraphs, r.citation.span[0]) for r in items}
        return {
            "from_paragraphs": sorted({index for index, _ in places if index is not None}),
            "from_clauses": sorted({"/".join(path) for _, path in places if path}, key=_natural),
        }

    def _unresolved(self, resolution: Resolution) -> None:
        citation = resolution.citation
        self.unresolved.append(
            {
                "source": citation.source,
                "text": citation.text,
                "law": citation.law,
                "section": citation.section,
                "reason": "law not in corpus" if resolution.law_id is None else "no such section",
            }
        )
        if resolution.law_id is None and citation.law:
            key = self._external_law(citation.law)
            edge_key = (RelType.CITES_EXTERNAL, citation.source, key)
            existing = self.edges.get(edge_key)
            sections = sorted(
                {*(existing.props["sections"] if existing else []), citation.section}, key=_natural
            )
            self.edges[edge_key] = Edge(
                RelType.CITES_EXTERNAL,
                NodeLabel.SECTION,
                citation.source,
                NodeLabel.EXTERNAL_LAW,
                key,
                {"sections": sections},
            )

    def penalties(self, resolutions: dict[str, list[Resolution]]) -> None:
        penalized: dict[tuple[str, str], list[Penalty]] = defaultdict(list)
        found = [
            penalty
            for section in sorted(self.law.sections, key=lambda s: s.order)
            for penalty in find_penalties(section, self.law, resolutions[section.key])
        ]
        for penalty in link_general_penalties(found):
            section = self.sections[penalty.section]
            self.node(
                NodeLabel.PENALTY,
                penalty.key,
                {
                    "section": penalty.section,
                    "index": penalty.index,
                    "kind": penalty.kind,
                    "text": penalty.text,
                    "max_fine": penalty.max_fine,
                    "currency": penalty.currency,
                    "max_fine_thb": penalty.max_fine_thb,
                    "max_prison_months": penalty.max_prison_months,
                },
            )
            self.edge(
                RelType.PRESCRIBES,
                (NodeLabel.SECTION, section.key),
                (NodeLabel.PENALTY, penalty.key),
            )
            for target in penalty.breached:
                penalized[(section.key, target)].append(penalty)
        for (source, target), items in penalized.items():
            kinds = sorted({p.kind for p in items})
            self.edge(
                RelType.PENALIZES,
                (NodeLabel.SECTION, source),
                (NodeLabel.SECTION, target),
                {
                    "kind": kinds[0] if len(kinds) == 1 else "+".join(kinds),
                    "max_fine_thb": _max(p.max_fine_thb for p in items),
                    "max_fine": _max(p.max_fine for p in items),
                    "currency": items[0].currency,
                    "max_prison_months": _max(p.max_prison_months for p in items),
                    "penalties": [p.key for p in items],
                    # punished only as another section applies the duty to someone else
                    "applied": all(target in p.applied for p in items),
                },
            )

    def definitions(self) -> None:
        definitions = find_definitions(self.law)
        for definition in definitions:
            self.node(
                NodeLabel.DEFINITION,
                definition.key,
                {
                    "term": definition.term,
                    "text": definition.text,
                    "section": definition.section,
                    "scope": definition.scope,
                },
            )
        for section_key, definition_key in defining_sections(self.law, definitions):
            self.edge(
                RelType.DEFINES,
                (NodeLabel.SECTION, section_key),
                (NodeLabel.DEFINITION, definition_key),
            )
        for section_key, definition_key in find_term_uses(self.law, definitions):
            self.edge(
                RelType.USES_TERM,
                (NodeLabel.SECTION, section_key),
                (NodeLabel.DEFINITION, definition_key),
            )

    def exemptions(self, resolutions: dict[str, list[Resolution]]) -> None:
        for section in sorted(self.law.sections, key=lambda s: s.order):
            for exemption in find_exemptions(section, self.law, resolutions[section.key]):
                self.node(
                    NodeLabel.EXEMPTION,
                    exemption.key,
                    {
                        "section": exemption.section,
                        "index": exemption.index,
                        "kind": exemption.kind,
                        "text": exemption.text,
                        "span": list(exemption.span),
                    },
                )
                self.edge(
                    RelType.GRANTS_EXEMPTION,
                    (NodeLabel.SECTION, section.key),
                    (NodeLabel.EXEMPTION, exemption.key),
                )
                for target in exemption.exempts_from:
                    self.edge(
                        RelType.EXEMPTS_FROM,
                        (NodeLabel.EXEMPTION, exemption.key),
                        (NodeLabel.SECTION, target),
                    )

    def instrument(self, enabling: list[str], corpus: CorpusIndex) -> None:
        """A decree's or regulation's ties to its parent law: ISSUED_UNDER the `enabling`
        sections, and DISAPPLIES to what it keeps from applying, with its scope and the
        decree's period in force (ingest/instruments.py)."""
        for target in enabling:
            self.edge(
                RelType.ISSUED_UNDER, (NodeLabel.LAW, self.law.id), (NodeLabel.SECTION, target)
            )
        period = in_force(self.law)
        for found in disapplications(self.law, corpus):
            for target in found.targets:
                label = NodeLabel.SECTION if ":s:" in target else NodeLabel.CHAPTER
                self.edge(
                    RelType.DISAPPLIES,
                    (NodeLabel.SECTION, found.source),
                    (label, target),
                    {
                        "scope": found.scope,
                        "valid_from": period.valid_from or None,
                        "valid_to": period.valid_to or None,
                        "not_before": period.not_before or None,
                    },
                )

    def amendments(self, corpus: CorpusIndex) -> None:
        """The acts that changed the law: an AmendingAct for each act OCS appends to its
        text (with that act's provisions and remarks; it AMENDS the Law) and for each act a
        marker names, with AMENDS / INSERTS / REPEALS to what the marker says it changed
        (ingest/amendments.py). One relationship per act and target, listing its markers."""
        law = self.law
        for act in law.appended_acts:
            key = node_key(law.id, "amending", f"appended-{act.index}")
            texts = [text for _, _, text in act.provisions]
            period = period_of(texts[:3])
            self.node(
                NodeLabel.AMENDING_ACT,
                key,
                {
                    "label": act.title or f"กฎหมายแก้ไขเพิ่มเติม ลำดับที่ {act.index} ท้าย{law.title}",
                    "name": act.title or None,
                    "appended": act.index,
                    "provisions": [
                        f"{section_label(number, law.language, unit=unit)}  {text}"
                        for unit, number, text in act.provisions
                    ],
                    "notes": list(act.notes),
                    "commencement": period.commencement or None,
                    "valid_from": period.valid_from or None,
                    "valid_to": period.valid_to or None,
                },
            )
            self.edge(RelType.AMENDS, (NodeLabel.AMENDING_ACT, key), (NodeLabel.LAW, law.id))
        grouped: dict[tuple[RelType, str, NodeLabel, str], list[Amendment]] = defaultdict(list)
        for amendment in find_amendments(law, corpus):
            act_key = self._amending_act(amendment.by, corpus)
            label, changed = self._amended(amendment)
            grouped[(RelType[amendment.change.upper()], act_key, label, changed)].append(amendment)
        for (rel, act_key, label, changed), items in grouped.items():
            self.edge(
                rel,
                (NodeLabel.AMENDING_ACT, act_key),
                (label, changed),
                {
                    "markers": list(dict.fromkeys(a.marker for a in items)),
                    "places": list(dict.fromkeys(a.place for a in items)),
                    "by_sections": sorted({n for a in items for n in a.by_sections}, key=_natural),
                },
            )

    def _amending_act(self, by: str, corpus: CorpusIndex) -> str:
        """The AmendingAct node key for a marker's act (made on first use)."""
        law = self.law
        if by.startswith("appended-"):
            return node_key(law.id, "amending", by)
        if by == SELF:
            key = node_key(law.id, "amending", SELF)
            self.node(
                NodeLabel.AMENDING_ACT,
                key,
                {"label": law.title, "name": law.title, "law_id": law.id},
            )
            return key
        key = node_key(law.id, "amending", normalise_law_name(by))
        year = title_year(by)
        self.node(
            NodeLabel.AMENDING_ACT,
            key,
            {
                "label": by,
                "name": by,
                "law_id": corpus.resolve_law(by),
                "year": year or None,
                # the earliest it can have applied from: its day is in no source
                "not_before": year_start(year) or None,
            },
        )
        return key

    def _amended(self, amendment: Amendment) -> tuple[NodeLabel, str]:
        if amendment.target_kind == "section":
            return NodeLabel.SECTION, amendment.target
        if amendment.target_kind == "law":
            return NodeLabel.LAW, amendment.target
        return NodeLabel.EXTERNAL_LAW, self._external_law(amendment.target)

    def _external_law(self, name: str) -> str:
        """The ExternalLaw node key for a law outside the corpus (made on first use)."""
        key = node_key(self.law.id, "ext", normalise_law_name(name))
        self.node(NodeLabel.EXTERNAL_LAW, key, {"name": name})
        return key

    def curated(self, folder: Path) -> None:
        # Look the file up by listing the folder: derived law ids can be longer than a file
        # name may be, and only curated (short-id) laws have a file.
        files = {p.stem: p for p in folder.glob("*.json")} if folder.is_dir() else {}
        path = files.get(self.law.id)
        if path is None:
            return
        data = json.loads(path.read_text(encoding="utf-8"))
        for concept in data.get("concepts", []):
            key = node_key(self.law.id, "concept", concept["id"])
            self.node(
                NodeLabel.CONCEPT,
                key,
                {
                    "kind": concept.get("kind", ""),
                    "name": concept.get("name", ""),
                    "name_en": concept.get("name_en", ""),
                },
            )
            for number in concept.get("sections", []):
                target = next((s.key for s in self.law.sections if s.number == str(number)), None)
                if target is not None:
                    self.edge(RelType.ABOUT, (NodeLabel.SECTION, target), (NodeLabel.CONCEPT, key))

    def recitals(self) -> None:
        """An EU act's recitals, each EXPLAINS the articles whose wording it shares most."""
        law = self.law
        links = explained_sections(law.recitals, law.sections)
        for order, recital in enumerate(law.recitals, start=1):
            key = node_key(law.id, "rc", recital.number)
            self.node(
                NodeLabel.RECITAL,
                key,
                {"number": recital.number, "label": f"Recital {recital.number}",
                 "text": recital.text, "order": order},
            )  # fmt: skip
            for rank, (section, score) in enumerate(links.get(recital.number, []), start=1):
                self.edge(
                    RelType.EXPLAINS,
                    (NodeLabel.RECITAL, key),
                    (NodeLabel.SECTION, section),
                    {"rank": rank, "score": score},
                )

    def finish(self) -> LawGraph:
        nodes = sorted(
            self.nodes.values(), key=lambda n: (_LABEL_ORDER[n.label], self._order(n.key), n.key)
        )
        edges = sorted(
            self.edges.values(),
            key=lambda e: (
                _TYPE_ORDER[e.type],
                self._order(e.source),
                e.source,
                self._order(e.target),
                e.target,
            ),
        )
        unresolved = sorted(
            self.unresolved,
            key=lambda u: (self._order(u["source"]), u["text"], u["law"] or "", u["section"]),
        )
        unique = list(
            {json.dumps(u, ensure_ascii=False, sort_keys=True): u for u in unresolved}.values()
        )
        return LawGraph(law_id=self.law.id, nodes=nodes, edges=edges, unresolved=unique)

    def _order(self, key: str) -> int:
        if not hasattr(self, "_orders"):
            self._orders = {s.key: s.order for s in self.law.sections}
        return self._orders.get(key, -1)


def _cites(items: list[Resolution]) -> list[Any]:
    return [r.citation for r in items]


def _spans(items: list[Resolution]) -> list[list[int]]:
    return [list(span) for span in sorted({r.citation.span for r in items})]


def _max(values: Any) -> int | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def _natural(number: str) -> tuple[int, str]:
    match = re.match(r"\d+", number)
    return (int(match.group(0)) if match else 0, number)
