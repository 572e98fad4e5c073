"""The publish protocol with fakes behind the ports: a new version becomes visible only
after the graph and the vectors hold all of it; a crash leaves the old one visible."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.graph import LawGraph, Node, NodeLabel
from ingest.models import Law, Section
from services.core.errors import VectorsUnavailable
from services.core.publish import content_version, ingest_law_version


class FakeGraph:
    def __init__(self) -> None:
        self.published: dict[str, str] = {}
        self.pending: dict[str, str | None] = {}
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
            self.published[p["law"]], self.pending[p["law"]] = p["version"], None
        elif name == "law_remove_stale":
            for key in [k for k in self.nodes if k[0] == p["law"] and k[1] != p["version"]]:
                del self.nodes[key]
        return []


class FakeVectors:
    def __init__(self) -> None:
        self.deleted: list[tuple[str, str, str | None]] = []

    def delete_law(self, collection: str, law_id: str, *, keep_version: str | None = None) -> None:
        self.deleted.append((collection, law_id, keep_version))


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
    assert ("chunks", "x", second.version) in vectors.deleted


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
