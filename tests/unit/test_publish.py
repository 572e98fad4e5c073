"""The publish protocol with fakes behind the ports: a new version becomes visible only
after the graph and the vectors hold all of it; a crash leaves the old one visible."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pytest

from ingest.graph import LawGraph, Node, NodeLabel
from ingest.models import Law, Section
from services.core.errors import InvalidQuery, VectorsUnavailable
from services.core.publish import (
    Expression,
    content_version,
    ingest_law_version,
    with_expression,
)


class FakeGraph:
    def __init__(self) -> None:
        self.published: dict[str, str] = {}
        self.pending: dict[str, str | None] = {}
        self.expressions: dict[str, tuple[list[str], list[str]]] = {}
        self.nodes: dict[tuple[str, str], int] = {}  # (law, version) -> nodes
        self.writes: list[str] = []

    def run_read(self, name: str, **p: Any) -> list[dict[str, Any]]:
        if name == "law_versions":
            if p["law"] not in self.published and p["law"] not in self.pending:
                return []
            return [
                {
                    "published_version": self.published.get(p["law"]),
                    "pending_version": self.pending.get(p["law"]),
                    "expressions": self.expressions.get(p["law"], (None, None))[0],
                    "expression_from": self.expressions.get(p["law"], (None, None))[1],
                }
            ]
        if name == "law_version_nodes":
            return [{"nodes": self.nodes.get((p["law"], p["version"]), 0)}]
        raise AssertionError(name)

    def run_write(self, name: str, **p: Any) -> list[dict[str, Any]]:
        self.writes.append(name)
        if name == "law_mark_pending":
            self.pending[p["law"]] = p["version"]
        elif name == "law_publish_with_source":
            self.published[p["law"]], self.pending[p["law"]] = p["latest"], None
            self.expressions[p["law"]] = (p["expressions"], p["expression_from"])
        elif name == "law_remove_stale":
            for key in [k for k in self.nodes if k[0] == p["law"] and k[1] not in p["versions"]]:
                del self.nodes[key]
        return []


class FakeVectors:
    def __init__(self) -> None:
        self.deleted: list[tuple[str, str, list[str]]] = []

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        self.deleted.append((collection, law_id, sorted(keep_versions)))


def _law(text: str) -> Law:
    return Law(
        id="x",
        title="X",
        language="th",
        jurisdiction="TH",
        source="a.json",
        sections=[Section(key="x:s:1", number="1", label="มาตรา ๑", text=text)],
    )


def _loader(graph: FakeGraph):  # type: ignore[no-untyped-def]
    def load_graph(law: Law, version: str) -> LawGraph:
        graph.nodes[(law.id, version)] = 1
        return LawGraph(law.id, nodes=[Node(NodeLabel.SECTION, "x:s:1")])

    return load_graph


def test_version_is_published_after_graph_and_vectors_and_old_one_removed() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    first = ingest_law_version(
        _law("a"),
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
    )
    second = ingest_law_version(
        _law("b"),
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
    )
    assert first.status == second.status == "succeeded" and first.version != second.version
    assert graph.published["x"] == second.version
    assert list(graph.nodes) == [("x", second.version)]
    assert ("chunks", "x", [second.version]) in vectors.deleted


def test_unchanged_law_is_a_noop_that_says_so() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    law = _law("a")
    ingest_law_version(
        law,
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
    )
    writes = len(graph.writes)

    def must_not_load(*a: Any) -> LawGraph:
        raise AssertionError("reloaded an unchanged law")

    again = ingest_law_version(
        law,
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=must_not_load,
        load_vectors=must_not_load,
    )
    assert again.status == "unchanged" and again.version == content_version(law)
    # The parsed law is stored again (a law published before LawSource nodes gets one).
    assert graph.writes[writes:] == ["law_source_store", "law_remove_stale"]


def test_crash_while_indexing_keeps_the_previous_version_visible() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    old = ingest_law_version(
        _law("a"),
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
    )

    def vectors_die(*a: Any) -> int:
        raise VectorsUnavailable("owner went away")

    with pytest.raises(VectorsUnavailable):
        ingest_law_version(
            _law("b"),
            graph=graph,
            vectors=vectors,  # type: ignore[arg-type]
            load_graph=_loader(graph),
            load_vectors=vectors_die,
        )
    assert graph.published["x"] == old.version
    assert graph.pending["x"] == content_version(_law("b"))
    # running it again completes the law
    done = ingest_law_version(
        _law("b"),
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
    )
    assert graph.published["x"] == done.version and graph.pending["x"] is None


def test_content_version_ignores_where_the_file_came_from() -> None:
    a, b = _law("a"), _law("a")
    b.source = "/uploads/elsewhere.json"
    assert content_version(a) == content_version(b) and len(content_version(a)) == 12


def _ingest(graph: FakeGraph, vectors: FakeVectors, text: str, valid_from: str | None = None):  # type: ignore[no-untyped-def]
    return ingest_law_version(
        _law(text),
        graph=graph,
        vectors=vectors,  # type: ignore[arg-type]
        load_graph=_loader(graph),
        load_vectors=lambda *a: 3,
        valid_from=valid_from,
    )


def test_a_text_with_a_later_day_keeps_the_earlier_one_until_the_day_before() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    first = _ingest(graph, vectors, "a")
    second = _ingest(graph, vectors, "b", valid_from="2024-01-01")
    assert graph.published["x"] == second.version
    assert graph.expressions["x"] == ([first.version, second.version], ["", "2024-01-01"])
    assert sorted(graph.nodes) == sorted([("x", first.version), ("x", second.version)])
    assert ("chunks", "x", sorted([first.version, second.version])) in vectors.deleted
    # the same text again is a no-op, whichever expression it is
    assert _ingest(graph, vectors, "a").status == "unchanged"
    assert graph.expressions["x"][0] == [first.version, second.version]
    # an earlier text added later goes before the latest, which stays published
    third = _ingest(graph, vectors, "c", valid_from="2020-06-01")
    assert graph.published["x"] == second.version
    assert graph.expressions["x"] == (
        [first.version, third.version, second.version],
        ["", "2020-06-01", "2024-01-01"],
    )


def test_a_changed_text_without_a_day_corrects_the_latest_expression() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    first = _ingest(graph, vectors, "a")
    second = _ingest(graph, vectors, "b", valid_from="2024-01-01")
    fixed = _ingest(graph, vectors, "b, corrected")
    assert graph.expressions["x"] == ([first.version, fixed.version], ["", "2024-01-01"])
    assert ("x", second.version) not in graph.nodes


def test_expressions_are_ordered_by_day_and_a_day_is_replaced_by_a_text_of_the_same_day() -> None:
    kept = (Expression("v1", ""), Expression("v2", "2024-01-01"))
    assert with_expression(kept, "v3", "2024-01-01") == (
        Expression("v1"),
        Expression("v3", "2024-01-01"),
    )
    assert with_expression(kept, "v3", None) == (Expression("v1"), Expression("v3", "2024-01-01"))
    assert with_expression((), "v1", None) == (Expression("v1"),)


def test_a_bad_valid_from_is_refused_before_anything_is_written() -> None:
    graph, vectors = FakeGraph(), FakeVectors()
    with pytest.raises(InvalidQuery, match="valid_from: must be a date as YYYY-MM-DD, got '1 May'"):
        _ingest(graph, vectors, "a", valid_from="1 May")
    assert graph.writes == []


def test_a_catalogue_law_reads_the_expression_of_a_day_and_gives_each_its_days() -> None:
    from services.core.retrieval.models import Law as CatalogueLaw

    law = CatalogueLaw(
        "x", "v3", None, expressions=(("v1", ""), ("v2", "2020-06-01"), ("v3", "2024-01-01"))
    )
    assert [
        law.on(day).version for day in ("2019-01-01", "2020-06-01", "2023-12-31", "2030-01-01")
    ] == ["v1", "v2", "v2", "v3"]
    assert law.law_versions == ["x@v1", "x@v2", "x@v3"]
    assert [(p["valid_from"], p["valid_to"]) for p in law.periods()] == [
        ("", "2020-05-31"),
        ("2020-06-01", "2023-12-31"),
        ("2024-01-01", ""),
    ]
    single = CatalogueLaw("y", "v1", None)
    assert single.on("2000-01-01") is single and single.law_versions == ["y@v1"]
