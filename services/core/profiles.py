"""The texts that get embedded: one chunk per section, one profile per graph node and edge.

Chunks follow the seed article's Step 1: the section is the unit lawyers cite, so a long
section stays one chunk, and its text is prefixed with where it lives,
"[<law title>] [<chapter label title>] [<part label title>] <section label>\\n<text>", so the
vector knows its context. (How much of a long chunk the dense model reads is the embedder's
business: see `embedding.OFFLINE_MAX_DENSE_CHARS`; the sparse side reads all of it.)

Profiles follow Step 3: every node and every edge rendered as a short text, such as
"มาตรา ๒๖ (Section) …; relationships: DEFINES (นิยาม): ข้อมูลอ่อนไหว; PENALIZED_BY
(บทกำหนดโทษ): มาตรา ๗๙, มาตรา ๘๔", so that vector search can land on a graph node, the seed
of the graph walk. A node's profile lists edges in both directions: the penalty for s.26
lives in s.84, which only points at s.26, and s.26's profile is where that shows.

Structural edges (NEXT, CONTAINS, HAS_CHAPTER, HAS_PART) and USES_TERM get no profile of
their own: they say nothing the node profiles do not, and on the 698-law corpus they would
more than double the profile collection. They still appear inside node profiles (CONTAINS
as "IN", USES_TERM as the terms a section uses).

Pure functions: no I/O, no embedding.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ingest.graph import AMENDMENT_TYPES, Edge, LawGraph, Node, NodeLabel, RelType
from ingest.models import Division, Law, Section
from ingest.structure import clause_kind, split_paragraphs

__all__ = [
    "PROFILED_EDGE_TYPES",
    "IndexDocument",
    "chunk_documents",
    "chunk_text",
    "edge_key",
    "node_kind",
    "profile_documents",
]

# Caps that keep a profile "short": a hub such as PDPA s.26 has 24 first-hop neighbours.
MAX_NAMES_PER_RELATION = 12
MAX_DESCRIPTION_CHARS = 300
# An edge profile quotes its target first (what is penalized, exempted, defined, cited)
# and then its source; 240 characters of PDPA s.26 reach "ข้อมูลสุขภาพ" (health data).
MAX_TARGET_CONTEXT_CHARS = 240
MAX_SOURCE_CONTEXT_CHARS = 160

STRUCTURAL_EDGE_TYPES = frozenset(
    {RelType.NEXT, RelType.CONTAINS, RelType.HAS_CHAPTER, RelType.HAS_PART}
)
# USES_TERM gets no edge profile either: on the PDPA it is 295 of 534 non-structural edges,
# each one "section uses ข้อมูลส่วนบุคคล", and those profiles crowded the top hits while
# adding nothing the section's own profile (which lists its terms) does not say.
# A recital is profiled whole, naming the articles it explains (its payload's `explains`
# makes a hit on it count for them); EXPLAINS gets no edge profile, and the articles'
# profiles stay about the articles.
PROFILED_EDGE_TYPES = (
    frozenset(RelType)
    - STRUCTURAL_EDGE_TYPES
    - {RelType.USES_TERM, RelType.EXPLAINS}
    - AMENDMENT_TYPES
)

# Name of an edge read from its target's side, and a short gloss in the law's language:
# the gloss gives the sparse vector the words a question uses ("โทษ", "penalty").
_INVERSE = {
    RelType.HAS_CHAPTER: "CHAPTER_OF",
    RelType.HAS_PART: "PART_OF",
    RelType.CONTAINS: "IN",
    RelType.REFERENCES: "REFERENCED_BY",
    RelType.CITES_EXTERNAL: "CITED_BY",
    RelType.PENALIZES: "PENALIZED_BY",
    RelType.PRESCRIBES: "PRESCRIBED_BY",
    RelType.DEFINES: "DEFINED_IN",
    RelType.USES_TERM: "TERM_USED_IN",
    RelType.GRANTS_EXEMPTION: "EXEMPTION_IN",
    RelType.EXEMPTS_FROM: "EXEMPTED_BY",
    RelType.ABOUT: "SUBJECT_OF",
}
_GLOSS_TH = {
    "HAS_CHAPTER": "หมวด",
    "HAS_PART": "ส่วน",
    "CONTAINS": "มาตรา",
    "REFERENCES": "อ้างถึง",
    "CITES_EXTERNAL": "อ้างถึงกฎหมายอื่น",
    "PENALIZES": "โทษสำหรับการฝ่าฝืน",
    "PRESCRIBES": "กำหนดโทษ",
    "DEFINES": "นิยาม",
    "USES_TERM": "ใช้คำว่า",
    "GRANTS_EXEMPTION": "ข้อยกเว้น",
    "EXEMPTS_FROM": "ยกเว้น",
    "ABOUT": "เรื่อง",
    "CHAPTER_OF": "หมวดของ",
    "PART_OF": "ส่วนของ",
    "IN": "อยู่ใน",
    "REFERENCED_BY": "ถูกอ้างถึงโดย",
    "CITED_BY": "ถูกอ้างถึงโดย",
    "PENALIZED_BY": "บทกำหนดโทษ",
    "PRESCRIBED_BY": "โทษตาม",
    "DEFINED_IN": "นิยามใน",
    "TERM_USED_IN": "ใช้ใน",
    "EXEMPTION_IN": "ข้อยกเว้นใน",
    "EXEMPTED_BY": "ข้อยกเว้น",
    "SUBJECT_OF": "เรื่องของ",
}
_GLOSS_EN = {
    "PENALIZES": "penalty for breach",
    "PRESCRIBES": "penalty",
    "PENALIZED_BY": "penalties",
    "PRESCRIBED_BY": "penalty under",
    "GRANTS_EXEMPTION": "exceptions",
    "EXEMPTS_FROM": "exception to",
    "EXEMPTION_IN": "exception in",
    "EXEMPTED_BY": "exceptions",
    "REFERENCED_BY": "cited by",
    "CITED_BY": "cited by",
}
# Edge properties worth a word in an edge profile (ingest/graph.py, architecture.md).
_EDGE_PROPS = ("paragraphs", "clauses", "sections", "kind", "max_fine_thb", "max_prison_months")
_PENALTY_PROPS = ("kind", "max_fine_thb", "max_prison_months")
_WORDS = {
    "th": {"penalty": "โทษ", "exemption": "ข้อยกเว้น"},
    "en": {"penalty": "penalty", "exemption": "exception"},
}
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class IndexDocument:
    """One text to embed, with the key its point id derives from and its payload."""

    key: str
    text: str
    payload: Mapping[str, Any]


def chunk_documents(law: Law, version: str) -> list[IndexDocument]:
    """One chunk per section, in law order."""
    divisions = {d.key: d for d in law.divisions}
    return [
        IndexDocument(
            key=section.key,
            text=chunk_text(law, section, divisions),
            payload=_payload(law.id, version, "section", section.key, section.label)
            | {"number": section.number},
        )
        for section in law.sections
    ]


def paragraph_documents(law: Law, version: str) -> list[IndexDocument]:
    """One document per line of each section (`reading_units`), under the section's heading,
    for the English model (`Embedder.english`): the model reads 512 tokens, and a question in
    a client's words matches one paragraph of a long article better than the whole. Each
    stands for its section (payload `section`; `retrieval.vectors.hit_keys`)."""
    divisions = {d.key: d for d in law.divisions}
    documents = []
    for section in law.sections:
        heading, _, body = chunk_text(law, section, divisions).partition("\n")
        for n, paragraph in enumerate(reading_units(section) or [body], 1):
            key = f"{section.key}#p{n}"
            payload = _payload(law.id, version, "paragraph", key, section.label)
            documents.append(
                IndexDocument(
                    key=key,
                    text=f"{heading}\n{paragraph}",
                    payload=payload | {"section": section.key},
                )
            )
    return documents


def reading_units(section: Section) -> list[str]:
    """What the English model reads of a section, one text each: each line of its
    paragraphs (`ingest/structure.py`, a lone "(a)" already joined to the words after it),
    a clause after the line that opens its list (`with_lead_ins`)."""
    paragraphs = section.paragraphs or split_paragraphs(section.text)
    lines = (_flat(line) for paragraph in paragraphs for line in paragraph.text.splitlines())
    return with_lead_ins([line for line in lines if line])


# How a line that opens a list of clauses ends ("… on one of the following conditions:",
# "… do not impose any obligation on —").
_LEAD_IN_END = (":", "—", "–")


def with_lead_ins(lines: list[str]) -> list[str]:
    """Each clause of a list after the line that opens it: "(d) the personal data have been
    unlawfully processed;" reads as a ground for erasure only under "… the erasure of
    personal data … where one of the following grounds applies:". The list ends at a line
    that is no clause or a clause of the opening line's own kind ("(2)" after "(1) … on —")."""
    out: list[str] = []
    lead_in = lead_kind = ""
    for line in lines:
        kind = clause_kind(line)
        if lead_in and kind and kind != lead_kind:
            out.append(f"{lead_in} {line}")
            continue
        out.append(line)
        lead_in, lead_kind = (line, kind) if line.endswith(_LEAD_IN_END) else ("", "")
    return out


def _flat(text: str) -> str:
    """`text` on one line; "" for text with no word in it, such as a lone "—" line."""
    return " ".join(text.split()) if any(ch.isalnum() for ch in text) else ""


def chunk_text(law: Law, section: Section, divisions: Mapping[str, Division] | None = None) -> str:
    """The chunk text: law, chapter and part context, then the section label and text."""
    divisions = divisions if divisions is not None else {d.key: d for d in law.divisions}
    context = [law.title]
    for division_key in (section.chapter_key, section.part_key):
        division = divisions.get(division_key) if division_key else None
        if division is not None:
            context.append(_join(division.label, division.title))
    heading = " ".join(f"[{c}]" for c in context if c)
    return f"{heading} {_join(section.label, section.title)}\n{section.text}"


def profile_documents(law: Law, graph: LawGraph, version: str) -> list[IndexDocument]:
    """One profile per node of the law's graph, then one per non-structural edge. What
    amended the law (AmendingAct nodes, `AMENDMENT_TYPES`) is history, not content: it
    gets no profile and stays out of the other profiles."""
    if graph.law_id != law.id:
        raise ValueError(f"graph of {graph.law_id!r} given with law {law.id!r}")
    graph = LawGraph(
        law_id=graph.law_id,
        nodes=[n for n in graph.nodes if n.label is not NodeLabel.AMENDING_ACT],
        edges=[e for e in graph.edges if e.type not in AMENDMENT_TYPES],
        unresolved=graph.unresolved,
    )
    names = _display_names(law, graph.nodes)
    sections = {s.key: s for s in law.sections}
    descriptions = {node.key: _description(node, sections) for node in graph.nodes}
    docs: dict[str, IndexDocument] = {}
    out_edges, in_edges = _adjacency(graph.edges)
    for node in graph.nodes:
        if node.key not in docs:
            text = _node_profile(
                law, node, names, descriptions[node.key], out_edges[node.key], in_edges[node.key]
            )
            payload = _payload(law.id, version, node_kind(node.label), node.key, names[node.key])
            if node.label is NodeLabel.RECITAL:
                explains = [e for e in out_edges[node.key] if e.type is RelType.EXPLAINS]
                payload["explains"] = [
                    e.target for e in sorted(explains, key=lambda e: e.props.get("rank", 0))
                ]
            docs[node.key] = IndexDocument(key=node.key, text=text, payload=payload)
    for edge in graph.edges:
        if edge.type not in PROFILED_EDGE_TYPES:
            continue
        key = edge_key(edge)
        if key not in docs:
            docs[key] = IndexDocument(
                key=key,
                text=_edge_profile(law, edge, names, descriptions),
                payload=_payload(law.id, version, "edge", key, _edge_label(edge, names))
                | {
                    "rel": str(edge.type),
                    "source": edge.source,
                    "target": edge.target,
                    "source_kind": node_kind(edge.source_label),
                    "target_kind": node_kind(edge.target_label),
                },
            )
    return list(docs.values())


def edge_key(edge: Edge) -> str:
    """Stable key of an edge profile: one per (type, source, target), as in the graph."""
    return f"{edge.source}-{edge.type}->{edge.target}"


def node_kind(label: NodeLabel | str) -> str:
    """Payload `kind` of a node (and retrieval's kind of a node): "section",
    "definition", …, "external_law"."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", str(label)).lower()


# ---------------------------------------------------------------------------- helpers


def _payload(law_id: str, version: str, kind: str, key: str, label: str) -> dict[str, Any]:
    return {
        "law": law_id,
        "version": version,
        "law_version": f"{law_id}@{version}",
        "kind": kind,
        "key": key,
        "label": label,
    }


def _node_profile(
    law: Law,
    node: Node,
    names: Mapping[str, str],
    description: str,
    outgoing: list[Edge],
    incoming: list[Edge],
) -> str:
    head = f"{names[node.key]} ({node.label})"
    if node.label is not NodeLabel.LAW:
        head += f" [{law.short_name or law.title}]"
    relations = _relations(law.language, outgoing, incoming, names)
    if description == names[node.key]:
        description = ""  # a Law's title, a Chapter's title: already the name
    parts = [head + (f": {description}" if description else "")]
    if relations:
        parts.append("relationships: " + "; ".join(relations))
    return "; ".join(parts)


def _relations(
    language: str, outgoing: list[Edge], incoming: list[Edge], names: Mapping[str, str]
) -> list[str]:
    groups: dict[str, list[str]] = defaultdict(list)
    for edge in outgoing:
        if edge.type is not RelType.NEXT:
            groups[str(edge.type)].append(names.get(edge.target, edge.target))
    for edge in incoming:
        if edge.type not in (RelType.NEXT, RelType.EXPLAINS):
            groups[_INVERSE[edge.type]].append(names.get(edge.source, edge.source))
    rendered = []
    for name, targets in groups.items():
        unique = list(dict.fromkeys(targets))
        shown = ", ".join(unique[:MAX_NAMES_PER_RELATION])
        if len(unique) > MAX_NAMES_PER_RELATION:
            shown += f", … (+{len(unique) - MAX_NAMES_PER_RELATION})"
        rendered.append(f"{name}{_gloss(name, language)}: {shown}")
    return rendered


def _edge_profile(
    law: Law, edge: Edge, names: Mapping[str, str], descriptions: Mapping[str, str]
) -> str:
    source = names.get(edge.source, edge.source)
    target = names.get(edge.target, edge.target)
    details = _details(edge.props, _EDGE_PROPS)
    line = f"{source} -[{edge.type}{_gloss(str(edge.type), law.language)}]-> {target}"
    if details:
        line += f" ({details})"
    context = [
        _clip(descriptions.get(edge.target, ""), MAX_TARGET_CONTEXT_CHARS),
        _clip(descriptions.get(edge.source, ""), MAX_SOURCE_CONTEXT_CHARS),
    ]
    return f"{line} [{law.short_name or law.title}]: " + " || ".join(c for c in context if c)


def _details(props: Mapping[str, Any], names: Iterable[str]) -> str:
    shown = []
    for name in names:
        value = props.get(name)
        if value in (None, "", [], ()):
            continue
        if isinstance(value, list | tuple):
            value = ",".join(str(v) for v in value)
        shown.append(f"{name}={value}")
    return "; ".join(shown)


def _edge_label(edge: Edge, names: Mapping[str, str]) -> str:
    return (
        f"{names.get(edge.source, edge.source)} {edge.type} {names.get(edge.target, edge.target)}"
    )


def _gloss(relation: str, language: str) -> str:
    gloss = (_GLOSS_TH if language == "th" else _GLOSS_EN).get(relation)
    return f" ({gloss})" if gloss else ""


def _display_names(law: Law, nodes: Iterable[Node]) -> dict[str, str]:
    sections = {s.key: s for s in law.sections}
    sections_by_number = {s.number: s for s in law.sections}
    divisions = {d.key: d for d in law.divisions}
    words = _WORDS["th" if law.language == "th" else "en"]
    names: dict[str, str] = {}
    for node in nodes:
        if node.key in sections:
            names[node.key] = sections[node.key].label
        elif node.key in divisions:
            division = divisions[node.key]
            names[node.key] = _join(division.label, division.title)
        elif node.label is NodeLabel.LAW:
            names[node.key] = law.title
        elif node.label in (NodeLabel.PENALTY, NodeLabel.EXEMPTION):
            # "มาตรา ๘๔ โทษ 1": the node has no name of its own, its section gives one
            owner = str(node.props.get("section", ""))
            section = sections.get(owner) or sections_by_number.get(owner)
            word = words["penalty" if node.label is NodeLabel.PENALTY else "exemption"]
            names[node.key] = _join(
                section.label if section else owner, word, str(node.props.get("index", ""))
            )
        elif node.label is NodeLabel.CONCEPT:
            english = str(node.props.get("name_en", "") or "")
            name = _first_prop(node, ("name", "label")) or node.key
            names[node.key] = f"{name} ({english})" if english and english != name else name
        else:
            names[node.key] = _first_prop(node, ("label", "term", "title", "name")) or node.key
    return names


def _description(node: Node, sections: Mapping[str, Section]) -> str:
    section = sections.get(node.key) if node.label is NodeLabel.SECTION else None
    if section is not None:
        text = _join(section.title, section.text)
    else:
        text = _first_prop(node, ("text", "definition", "description", "summary", "title"))
    if node.label is NodeLabel.RECITAL:
        return _WS.sub(" ", text).strip()  # whole: its words are what it is searched by
    if node.label is NodeLabel.PENALTY:
        details = _details(node.props, _PENALTY_PROPS)
        return _clip(text, MAX_DESCRIPTION_CHARS - len(details) - 3) + (
            f" ({details})" if details else ""
        )
    return _clip(text, MAX_DESCRIPTION_CHARS)


def _first_prop(node: Node, names: Iterable[str]) -> str:
    for name in names:
        value = node.props.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _adjacency(edges: Iterable[Edge]) -> tuple[dict[str, list[Edge]], dict[str, list[Edge]]]:
    out_edges: dict[str, list[Edge]] = defaultdict(list)
    in_edges: dict[str, list[Edge]] = defaultdict(list)
    for edge in edges:
        out_edges[edge.source].append(edge)
        in_edges[edge.target].append(edge)
    return out_edges, in_edges


def _join(*parts: str) -> str:
    return " ".join(p.strip() for p in parts if p and p.strip())


def _clip(text: str, limit: int) -> str:
    text = _WS.sub(" ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
