"""Loading laws into a real Neo4j server over Bolt (the server from tests/conftest.py)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from ingest.export import (
    CypherStatement,
    export_script,
    export_statements,
    split_statements,
)
from ingest.graph import LawGraph, Node, NodeLabel
from services.core.errors import GraphQueryError
from services.core.graph_store import BoltGraphStore
from tests.synthetic import LAW, NASTY, expected_counts, synthetic_graph

pytestmark = pytest.mark.integration

V1, V2 = "aaaaaaaaaaa1", "bbbbbbbbbbb2"


def _law_counts(store: BoltGraphStore) -> dict[str, dict[str, int]]:
    return store.counts()


def test_loading_a_law_twice_changes_nothing(graph_store: BoltGraphStore) -> None:
    graph = synthetic_graph(sections=20)
    graph_store.apply_schema()
    graph_store.load_law(graph, V1)
    first = _law_counts(graph_store)
    assert first == expected_counts(graph)
    graph_store.apply_schema()
    graph_store.load_law(graph, V1)
    assert _law_counts(graph_store) == first


def test_nasty_text_comes_back_byte_for_byte_and_executes_nothing(
    graph_store: BoltGraphStore,
) -> None:
    graph_store.apply_schema()
    graph_store.run_cypher("CREATE (:Law {key: 'bystander', uid: 'bystander'})", write=True)
    graph = synthetic_graph()
    graph_store.load_law(graph, V1)
    rows = graph_store.run_cypher(
        "MATCH (s:Section {uid: $uid}) RETURN s.text AS text, s.paragraphs AS paragraphs",
        uid=f"{LAW}:s:1@{V1}")
    assert rows[0]["text"] == f"section 1: {NASTY}"
    assert rows[0]["text"].encode("utf-8") == f"section 1: {NASTY}".encode()
    assert rows[0]["paragraphs"] == [f"p1 {NASTY}", "p2"]
    law = graph_store.run_cypher("MATCH (l:Law {key: $k}) RETURN l.title AS t", k=LAW)
    assert law[0]["t"] == "Test Act " + NASTY
    spans = graph_store.run_cypher(
        "MATCH (:Section {uid: $s})-[r:REFERENCES]->(:Section {uid: $t}) RETURN r.spans AS s",
        s=f"{LAW}:s:2@{V1}", t=f"{LAW}:s:1@{V1}")
    assert spans[0]["s"] == [f"มาตรา ๑ {NASTY}"]
    # the injection attempt deleted nothing: the bystander and every node are there
    assert graph_store.run_cypher("MATCH (l:Law {key: 'bystander'}) RETURN count(l) AS c")[0][
        "c"] == 1
    assert graph_store.counts()["nodes"]["Section"] == 6


def test_exported_script_runs_as_is_statement_by_statement_twice(
    graph_store: BoltGraphStore,
) -> None:
    """As cypher-shell would: each statement on its own (auto-commit), then all again."""
    graph = synthetic_graph(sections=12)
    statements = split_statements(export_script(graph, V1))
    for _ in range(2):
        for text in statements:
            graph_store.run_cypher(text, write=True)
        assert graph_store.counts() == expected_counts(graph)
    law = graph_store.run_cypher(
        "MATCH (l:Law {key: $k}) RETURN l.published_version AS p, l.pending_version AS q", k=LAW)
    assert law == [{"p": V1, "q": None}]


def test_publishing_a_new_version_removes_the_old_one(graph_store: BoltGraphStore) -> None:
    graph_store.apply_schema()
    old, new = synthetic_graph(sections=8), synthetic_graph(sections=5)
    for graph, version in ((old, V1), (new, V2)):
        statements = export_statements(graph, version)
        graph_store.execute([s for s in statements if s.kind in ("nodes", "edges")])
        # both versions coexist until the new one is published
        graph_store.execute([s for s in statements if s.kind == "publish"])
        graph_store.execute([s for s in statements if s.kind == "cleanup"])
    assert graph_store.counts() == expected_counts(new)
    versions = graph_store.run_cypher(
        "MATCH (n:Section) RETURN collect(DISTINCT n.version) AS v")[0]["v"]
    assert versions == [V2]
    assert graph_store.run_read("law_versions", law=LAW) == [
        {"published_version": V2, "pending_version": None, "expressions": None,
         "expression_from": None}]


def test_a_failing_load_stores_nothing(graph_store: BoltGraphStore) -> None:
    graph = synthetic_graph()
    statements = [s for s in export_statements(graph, V1) if s.kind in ("nodes", "edges")]
    broken = [*statements, CypherStatement("edges", "MATCH (n:Section) RETURN count(n) / 0 AS boom")]
    with pytest.raises(GraphQueryError):
        graph_store.execute(broken)
    assert graph_store.counts() == {"nodes": {}, "edges": {}}


def test_unique_uid_constraint_is_enforced(graph_store: BoltGraphStore) -> None:
    graph_store.apply_schema()
    graph_store.load_law(synthetic_graph(), V1)
    with pytest.raises(GraphQueryError):
        graph_store.run_cypher("CREATE (:Section {uid: $u})", write=True, u=f"{LAW}:s:1@{V1}")


def test_relationships_to_another_law_reach_its_published_version_only(
    graph_store: BoltGraphStore,
) -> None:
    graph_store.apply_schema()
    graph_store.load_law(synthetic_graph(), V1)
    other = LawGraph("other-law", [Node(NodeLabel.SECTION, "other-law:s:1", {"text": "x"})])
    other.edges.append(replace(synthetic_graph().edges[0], source_label=NodeLabel.SECTION,
                               source="other-law:s:1", target_label=NodeLabel.SECTION,
                               target=f"{LAW}:s:3", type="REFERENCES"))  # type: ignore[arg-type]
    query = ("MATCH (a:Section {law: 'other-law'})-[:REFERENCES]->(b:Section) "
             "RETURN b.key AS k, b.version AS v")
    graph_store.load_law(other, V2)
    assert graph_store.run_cypher(query) == []  # the cited law has no published version
    graph_store.run_write("law_publish", law=LAW, version=V1)
    graph_store.load_law(synthetic_graph(text="new text"), V2)  # a pending second version
    graph_store.load_law(other, V2)
    assert graph_store.run_cypher(query) == [{"k": f"{LAW}:s:3", "v": V1}]


def test_load_time_of_a_hundred_section_law(graph_store: BoltGraphStore) -> None:
    graph = synthetic_graph(sections=100)
    graph_store.apply_schema()
    started = time.perf_counter()
    graph_store.load_law(graph, V1)
    seconds = time.perf_counter() - started
    print(f"loaded {len(graph.nodes)} nodes, {len(graph.edges)} edges in {seconds:.2f} s")
    assert graph_store.counts() == expected_counts(graph)
    assert seconds < 30
