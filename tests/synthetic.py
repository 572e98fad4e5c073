"""Hand-made test data: a small law graph for export and loading tests (independent of the
readers and the graph builder), with text meant to break naive escaping, and Thai laws
made of a few sections for the rule tests."""

from __future__ import annotations

from typing import Any

from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType
from ingest.ids import law_id_for_title, title_aliases
from ingest.models import Law
from ingest.readers.base import make_section

LAW = "test-law"
# Quotes of every kind, backslashes (also before quotes), an injection attempt, newlines,
# CR, tab, other control characters, a line separator, emoji (astral plane), Thai.
NASTY = (
    "It's \"quoted\" `back`ticked\\ and \\' escaped\n"
    "'}) MATCH (n) DETACH DELETE n //\r\n"
    "\"}) MATCH (n) DETACH DELETE n /* \ttab \x00\x07\x1b \u2028 sep \ufeff bom\n"
    "emoji 😀👩‍⚖️🇹🇭 ไทย มาตรา ๒๖ ; semicolon ; \\u0041 not an escape \\n"
)
SEMICOLON_KEY_TEXT = "a;b"


def synthetic_graph(*, text: str = NASTY, sections: int = 6) -> LawGraph:
    """Law -> 2 chapters -> sections, NEXT chain, citations with hubs and a cycle,
    a definition used by every section, a penalty and an external law."""
    nodes = [
        Node(NodeLabel.LAW, LAW, {"title": "Test Act " + text, "language": "th"}),
        Node(NodeLabel.CHAPTER, f"{LAW}:ch:1", {"number": "1", "title": "General"}),
        Node(NodeLabel.CHAPTER, f"{LAW}:ch:2", {"number": "2", "title": "Penalties"}),
        Node(NodeLabel.DEFINITION, f"{LAW}:def:data", {"term": "data", "text": text}),
        Node(NodeLabel.PENALTY, f"{LAW}:pen:{sections}:1",
             {"kind": "administrative", "max_fine_thb": 5_000_000, "ratio": 0.5}),
        Node(NodeLabel.EXTERNAL_LAW, "ext:civil-code", {"title": "ประมวลกฎหมายแพ่งและพาณิชย์"}),
    ]
    edges = [
        Edge(RelType.HAS_CHAPTER, NodeLabel.LAW, LAW, NodeLabel.CHAPTER, f"{LAW}:ch:1"),
        Edge(RelType.HAS_CHAPTER, NodeLabel.LAW, LAW, NodeLabel.CHAPTER, f"{LAW}:ch:2"),
    ]
    keys = [f"{LAW}:s:{i}" for i in range(1, sections + 1)]
    for i, key in enumerate(keys, start=1):
        chapter = f"{LAW}:ch:{1 if i < sections else 2}"
        nodes.append(Node(NodeLabel.SECTION, key, {
            "number": str(i), "label": f"มาตรา {i}", "order": i, "repealed": False,
            "text": f"section {i}: {text}", "paragraphs": [f"p1 {text}", "p2"],
        }))
        edges.append(Edge(RelType.CONTAINS, NodeLabel.CHAPTER, chapter, NodeLabel.SECTION, key))
        edges.append(Edge(RelType.USES_TERM, NodeLabel.SECTION, key, NodeLabel.DEFINITION,
                          f"{LAW}:def:data"))
        if i > 1:
            edges.append(Edge(RelType.NEXT, NodeLabel.SECTION, keys[i - 2], NodeLabel.SECTION,
                              key))
            # every section cites section 1 (a hub) and section 1 cites it back (cycles)
            edges.append(Edge(RelType.REFERENCES, NodeLabel.SECTION, key, NodeLabel.SECTION,
                              keys[0], {"paragraphs": [1], "clauses": ["5", "ก"],
                                        "spans": [f"มาตรา ๑ {text}"]}))
            edges.append(Edge(RelType.REFERENCES, NodeLabel.SECTION, keys[0], NodeLabel.SECTION,
                              key, {"paragraphs": [], "clauses": [], "spans": ["x"]}))
    edges.append(Edge(RelType.DEFINES, NodeLabel.SECTION, keys[0], NodeLabel.DEFINITION,
                      f"{LAW}:def:data"))
    edges.append(Edge(RelType.PENALIZES, NodeLabel.SECTION, keys[-1], NodeLabel.SECTION,
                      keys[1], {"kind": "administrative", "max_fine_thb": 5_000_000}))
    edges.append(Edge(RelType.PRESCRIBES, NodeLabel.SECTION, keys[-1], NodeLabel.PENALTY,
                      f"{LAW}:pen:{sections}:1"))
    edges.append(Edge(RelType.CITES_EXTERNAL, NodeLabel.SECTION, keys[2], NodeLabel.EXTERNAL_LAW,
                      "ext:civil-code", {"spans": [text]}))
    return LawGraph(LAW, nodes, edges, unresolved=[{"source": keys[2], "text": text,
                                                     "law": "ประมวลกฎหมายแพ่ง", "section": "1"}])


def expected_counts(graph: LawGraph) -> dict[str, dict[str, int]]:
    nodes: dict[str, int] = {}
    for n in graph.nodes:
        nodes[str(n.label)] = nodes.get(str(n.label), 0) + 1
    edges: dict[str, int] = {}
    for e in graph.edges:
        edges[str(e.type)] = edges.get(str(e.type), 0) + 1
    return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items()))}


def thai_law(texts: dict[str, str], title: str = "พระราชบัญญัติทดสอบ พ.ศ. 2560", **fields: Any) -> Law:
    """A Thai law titled `title` whose sections are `texts` (number -> text), in that
    order; `fields` set any other `Law` field (e.g. `appended_acts`)."""
    law_id = law_id_for_title(title)
    return Law(
        id=law_id,
        title=title,
        language="th",
        jurisdiction="TH",
        source="test",
        aliases=title_aliases(title),
        sections=[
            make_section(law_id, number, text, language="th", order=i)
            for i, (number, text) in enumerate(texts.items(), start=1)
        ],
        **fields,
    )
