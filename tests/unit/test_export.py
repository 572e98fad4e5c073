"""The Cypher export: deterministic bytes, safe literals, few large batches."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ingest.export import (
    EDGE_BATCH,
    ExportError,
    _rows_literal,
    cross_law_statements,
    cypher_literal,
    export_script,
    export_statements,
    render_script,
    schema_statements,
    split_statements,
    transaction_groups,
)
from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType
from tests.synthetic import LAW, NASTY, synthetic_graph

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "synthetic_law.cypher"
VERSION = "0123456789ab"


def decode_cypher_string(literal: str) -> str:
    """Neo4j's reading of a single-quoted string literal (its escape rules)."""
    assert literal[0] == literal[-1] == "'"
    body, out, i = literal[1:-1], [], 0
    simple = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}
    while i < len(body):
        ch = body[i]
        if ch == "'":
            raise AssertionError(f"unescaped quote at {i}: the literal would end there")
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        else:
            raise AssertionError(f"unknown escape \\{nxt}")
    return "".join(out)


def test_export_matches_the_golden_file(request: pytest.FixtureRequest) -> None:
    script = export_script(synthetic_graph(), VERSION)
    if request.config.getoption("--update-golden"):
        GOLDEN.write_bytes(script.encode("utf-8"))
    assert script.encode("utf-8") == GOLDEN.read_bytes()


def test_export_is_byte_identical_whatever_the_input_order() -> None:
    graph = synthetic_graph()
    shuffled = LawGraph(graph.law_id, list(graph.nodes), list(graph.edges), graph.unresolved)
    rng = random.Random(7)
    rng.shuffle(shuffled.nodes)
    rng.shuffle(shuffled.edges)
    assert export_script(shuffled, VERSION) == export_script(graph, VERSION)
    assert export_script(graph, VERSION) == export_script(synthetic_graph(), VERSION)


def test_string_literals_round_trip_and_cannot_end_early() -> None:
    rng = random.Random(1)
    alphabet = "'\"\\`;/*\n\r\t\x00\x1b\u2028\ufeff aZ๒๖😀{}()$"
    samples = [NASTY, "", "'", "\\", "\\'", "'}) MATCH (n) DETACH DELETE n //"]
    samples += ["".join(rng.choice(alphabet) for _ in range(40)) for _ in range(500)]
    for text in samples:
        literal = cypher_literal(text)
        assert "\n" not in literal and "\r" not in literal
        assert decode_cypher_string(literal) == text


def test_values_become_cypher_literals() -> None:
    assert cypher_literal(None) == "null"
    assert cypher_literal(True) == "true"
    assert cypher_literal(5_000_000) == "5000000"
    assert cypher_literal(0.5) == "0.5"
    assert cypher_literal(["a", 1]) == "['a', 1]"
    assert cypher_literal({"b": 1, "a": "x"}) == "{a: 'x', b: 1}"
    with pytest.raises(ExportError):
        cypher_literal(float("nan"))
    with pytest.raises(ExportError):
        cypher_literal({"bad key": 1})


def test_property_names_must_be_identifiers() -> None:
    graph = LawGraph(LAW, [Node(NodeLabel.SECTION, f"{LAW}:s:1", {"x}) DELETE n //": 1})])
    with pytest.raises(ExportError, match="not an identifier"):
        export_statements(graph, VERSION)


def test_nested_values_are_stored_as_json_text() -> None:
    graph = LawGraph(
        LAW,
        [Node(NodeLabel.SECTION, f"{LAW}:s:1", {"spans": [[0, 5], [7, 9]], "meta": {"k": "v"}})],
    )
    text = "\n".join(s.text for s in export_statements(graph, VERSION) if s.kind == "nodes")
    assert "spans: ['[0,5]', '[7,9]']" in text
    assert 'meta: \'{"k":"v"}\'' in text


def test_conflicting_duplicate_nodes_are_refused() -> None:
    key = f"{LAW}:s:1"
    graph = LawGraph(
        LAW,
        [Node(NodeLabel.SECTION, key, {"text": "a"}), Node(NodeLabel.SECTION, key, {"text": "b"})],
    )
    with pytest.raises(ExportError, match="twice"):
        export_statements(graph, VERSION)


def test_relationships_of_one_shape_share_one_batch() -> None:
    # Neo4j plans each statement shape once: one batch per (type, labels), rows sharing
    # a node included, split only past EDGE_BATCH rows.
    graph = synthetic_graph(sections=30)
    edges = [s for s in export_statements(graph, VERSION) if s.kind == "edges"]
    shapes = [s.text.split("] AS row", 1)[1] for s in edges]
    assert len(shapes) == len(set(shapes))
    assert sum(s.rows for s in edges) == len({(e.type, e.source, e.target) for e in graph.edges})
    assert all(s.rows <= EDGE_BATCH for s in edges)


def test_every_node_carries_key_law_version_and_uid() -> None:
    text = "\n".join(s.text for s in export_statements(synthetic_graph(), VERSION))
    assert f"uid: '{LAW}:s:1@{VERSION}'" in text
    assert f"law_version: '{LAW}@{VERSION}'" in text
    assert "MERGE (n:Law {key: row.key})" in text
    assert "pending_version" not in text.split("SET l.published_version")[0]


def test_publish_and_cleanup_come_last_and_stand_alone() -> None:
    statements = export_statements(synthetic_graph(), VERSION)
    assert [s.kind for s in statements[-2:]] == ["publish", "cleanup"]
    assert "published_version" in statements[-2].text
    assert "DETACH DELETE" in statements[-1].text


def test_schema_has_a_uid_constraint_for_every_label() -> None:
    texts = [s.text for s in schema_statements()]
    for label in NodeLabel:
        assert any(f"(n:{label.value}) REQUIRE n.uid IS UNIQUE" in t for t in texts), label
    assert all("IF NOT EXISTS" in t for t in texts)


def test_split_statements_ignores_semicolons_in_strings_and_comments() -> None:
    script = (
        '// a; comment\nRETURN \'a;b\' AS x;\n/* c; d */ RETURN "e;\\"f" AS y ;'
        "RETURN `g;h` AS z;\n// trailing only\n"
    )
    assert split_statements(script) == [
        "RETURN 'a;b' AS x",
        '/* c; d */ RETURN "e;\\"f" AS y',
        "RETURN `g;h` AS z",
    ]


def test_rendered_script_splits_back_into_its_statements() -> None:
    statements = export_statements(synthetic_graph(), VERSION)
    script = render_script(statements, header="header; with semicolon")
    assert split_statements(script) == [s.text for s in statements]


def test_a_cross_law_citation_matches_only_the_cited_laws_published_version() -> None:
    graph = LawGraph(
        "a-law",
        nodes=[Node(NodeLabel.SECTION, "a-law:s:1", {"text": "cites b 5"})],
        edges=[Edge(RelType.REFERENCES, NodeLabel.SECTION, "a-law:s:1", NodeLabel.SECTION,
                    "b-law:s:5")],
    )
    [edges] = [s for s in export_statements(graph, VERSION) if s.kind == "edges"]
    assert "MATCH (b:Section {key: row.t})" in edges.text
    assert "MATCH (b_law:Law {key: b.law})\nWHERE b.version = b_law.published_version" in (
        edges.text
    )
    statements = cross_law_statements(graph, VERSION, parameters=False)
    # Section, Exemption and AmendingAct sources of this version, the Law's ISSUED_UNDER,
    # then the relationships again, then ExternalLaw nodes nothing cites.
    assert [s.kind for s in statements] == ["unlink"] * 4 + ["edges", "unlink"]
    assert "(a:AmendingAct" in statements[2].text
    assert "ISSUED_UNDER" in statements[3].text and "version" not in statements[3].text
    assert statements[4].text == edges.text


def test_parameterised_statements_are_the_script_with_rows_passed_as_parameters() -> None:
    graph = synthetic_graph(sections=30)
    literal = export_statements(graph, VERSION)
    passed = export_statements(graph, VERSION, parameters=True)
    assert len(literal) == len(passed)
    for a, b in zip(literal, passed, strict=True):
        if b.params is None:
            assert a.text == b.text
            continue
        assert "$rows" in b.text and "'" not in b.text  # no statute text in the statement
        assert b.text.replace("$rows", _rows_literal(b.params["rows"])) == a.text


def test_load_transactions_hold_at_most_the_row_ceiling_in_order() -> None:
    statements = export_statements(synthetic_graph(sections=300), VERSION, parameters=True)
    groups = transaction_groups(statements, 250)
    assert [s for g in groups for s in g] == statements
    assert all(sum(s.rows for s in g) <= 250 or len(g) == 1 for g in groups)
    assert len(groups) > 1
