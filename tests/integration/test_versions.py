"""A law's texts kept side by side, each read on the days it applied, on the real graph
server and the embedded vector index.

The PDPA (about.md) is ingested as it is, then a second text of it in which s.26 also names
location data ("ข้อมูลตำแหน่งที่อยู่"), ingested with `valid_from` 2025-01-01 as an
amendment would be. Searches and lookups as of 2024 read the first text, as of 2025 the
second; the history lists both with their days; nothing of the first is destroyed; the same
text again is a no-op, and a corrected text without a day replaces only the latest one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.core import retrieval
from services.core.embedding import OfflineEmbedder
from services.core.errors import InvalidQuery
from services.core.ingestion import ingest_paths
from services.core.neo4j_local import LocalNeo4j
from services.core.retrieval import lookups
from services.core.settings import REPO_ROOT, Settings
from services.core.vector_index import EdgeVectorIndex
from tests.live_stack import empty_store

pytestmark = pytest.mark.integration

PDPA = "th-pdpa-2562"
SOURCE = REPO_ROOT / "data" / "th-pdpa-2562" / "about.md"
ADDED = "ข้อมูลตำแหน่งที่อยู่"
QUESTION = "ห้ามเก็บรวบรวมข้อมูลชีวภาพ ข้อมูลสุขภาพ โดยไม่ได้รับความยินยอมโดยชัดแจ้ง"


def _amended(folder: Path, *, extra: str = "") -> Path:
    """The PDPA's text with s.26 naming location data too (and `extra` after it)."""
    text = SOURCE.read_text(encoding="utf-8")
    old = "ข้อมูลชีวภาพ หรือข้อมูลอื่นใด"
    assert text.count(old) == 1
    path = folder / "about.md"
    path.write_text(text.replace(old, f"ข้อมูลชีวภาพ {ADDED}{extra} หรือข้อมูลอื่นใด"), "utf-8")
    return path


def _points(vectors: EdgeVectorIndex, version: str) -> int:
    return sum(vectors.count(c, PDPA, version=version) for c in ("chunks", "profiles"))


def _versions(graph: Any) -> list[str]:
    rows = graph.run_cypher(
        "MATCH (s:Section {law: $law}) RETURN collect(DISTINCT s.version) AS v", law=PDPA
    )
    return sorted(rows[0]["v"])


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, graph_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    graph = empty_store(neo4j_server)
    vectors = EdgeVectorIndex(
        tmp_path_factory.mktemp("vectors"), dense_weight=graph_settings.hybrid_dense_weight
    )
    folder = tmp_path_factory.mktemp("amended")
    try:
        first = ingest_paths([SOURCE], graph=graph, vectors=vectors, embedder=OfflineEmbedder())
        second = ingest_paths(
            [_amended(folder)],
            graph=graph,
            vectors=vectors,
            embedder=OfflineEmbedder(),
            valid_from="2025-01-01",
        )
        assert first.ok and second.ok, (first.errors, second.errors)
        yield {
            "graph": graph,
            "vectors": vectors,
            "settings": graph_settings,
            "folder": folder,
            "v1": first.laws[0].version,
            "v2": second.laws[0].version,
        }
    finally:
        vectors.close()
        graph.close()


def _search(stack: dict[str, Any], as_of: str) -> retrieval.SearchResult:
    return retrieval.search(
        QUESTION,
        graph=stack["graph"],
        vectors=stack["vectors"],
        embedder=OfflineEmbedder(),
        settings=stack["settings"],
        laws=[PDPA],
        as_of=as_of,
    )


def test_both_texts_are_kept_with_their_nodes_and_points(stack: dict[str, Any]) -> None:
    v1, v2 = stack["v1"], stack["v2"]
    assert v1 != v2
    assert _versions(stack["graph"]) == sorted([v1, v2])
    assert _points(stack["vectors"], v1) > 0 and _points(stack["vectors"], v2) > 0
    [row] = stack["graph"].run_read("law_versions", law=PDPA)
    assert row["published_version"] == v2
    assert (row["expressions"], row["expression_from"]) == ([v1, v2], ["", "2025-01-01"])


def test_a_search_reads_the_text_that_applied_on_its_day(stack: dict[str, Any]) -> None:
    for as_of, version, has_added in (("2024-06-01", stack["v1"], False),
                                      ("2025-06-01", stack["v2"], True)):  # fmt: skip
        result = _search(stack, as_of)
        keys = [item.key for item in result.sections]
        assert len(keys) == len(set(keys)), "one version of each section, never two"
        [s26] = [item for item in result.sections if item.key == f"{PDPA}:s:26"]
        assert (s26.version, ADDED in s26.text) == (version, has_added), as_of
        assert result.index_versions[PDPA] == version


def test_a_lookup_reads_the_text_of_its_day(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    before = lookups.section_text(graph, PDPA, "26", "2024-12-31")
    after = lookups.section_text(graph, PDPA, "๒๖", "2025-01-01")
    assert ADDED not in before["text"] and before["version"] == stack["v1"]
    assert ADDED in after["text"] and after["version"] == stack["v2"]
    for day in ("2024-12-31", "2025-01-01"):  # what cites s.26, of that day's text only
        incoming = lookups.related_sections(graph, PDPA, "26", day)["incoming"]
        keys = [(kind, link["key"]) for kind, links in incoming.items() for link in links]
        assert keys and len(keys) == len(set(keys)), (day, incoming)
        penalties = lookups.section_penalties(graph, PDPA, "26", day)["penalty_sections"]
        assert f"{PDPA}:s:79" in [p["key"] for p in penalties], day


def test_the_history_lists_each_text_with_its_days(stack: dict[str, Any]) -> None:
    history = lookups.section_history(stack["graph"], PDPA, "26")
    first, second = history["versions"]
    assert (first["version"], first["valid_to"], first["published"], first["changed"]) == (
        stack["v1"],
        "2024-12-31",
        False,
        False,
    )
    assert (second["version"], second["valid_from"], second["published"], second["changed"]) == (
        stack["v2"],
        "2025-01-01",
        True,
        True,
    )
    assert ADDED not in first["text"] and ADDED in second["text"]
    unchanged = lookups.section_history(stack["graph"], PDPA, "27")["versions"]
    assert [v["changed"] for v in unchanged] == [False, False]


def test_the_browser_versions_query_shows_each_text_with_its_day(stack: dict[str, Any]) -> None:
    text = (REPO_ROOT / "cypher" / "browser" / "07_section_versions.cypher").read_text("utf-8")
    rows = stack["graph"].run_cypher(text, law=PDPA, section="26")
    assert [(r["version"], r["valid_from"], r["latest"]) for r in rows] == [
        (stack["v1"], "", False),
        (stack["v2"], "2025-01-01", True),
    ]
    assert ADDED not in rows[0]["text"] and ADDED in rows[1]["text"]
    assert stack["graph"].run_cypher(text, law=PDPA, section="9999") == []


def test_the_same_text_again_is_a_no_op_and_a_correction_replaces_the_latest_only(
    stack: dict[str, Any],
) -> None:
    graph, vectors = stack["graph"], stack["vectors"]
    counts = graph.counts(PDPA)
    again = ingest_paths([SOURCE], graph=graph, vectors=vectors, embedder=OfflineEmbedder())
    assert again.laws[0].status == "unchanged" and graph.counts(PDPA) == counts

    corrected = _amended(stack["folder"], extra=" ข้อมูลการเดินทาง")
    fixed = ingest_paths([corrected], graph=graph, vectors=vectors, embedder=OfflineEmbedder())
    assert fixed.ok and fixed.laws[0].status == "succeeded"
    v3 = fixed.laws[0].version
    assert _versions(graph) == sorted([stack["v1"], v3])
    assert _points(vectors, stack["v2"]) == 0 and _points(vectors, stack["v1"]) > 0
    [row] = graph.run_read("law_versions", law=PDPA)
    assert (row["expressions"], row["expression_from"]) == ([stack["v1"], v3], ["", "2025-01-01"])
    stack["v2"] = v3  # the later tests of this module read the corrected text


def test_a_bad_valid_from_is_refused_by_name_and_stores_nothing(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    counts = graph.counts(PDPA)
    with pytest.raises(InvalidQuery) as e:
        ingest_paths([SOURCE], graph=graph, valid_from="2025-13-01")
    assert e.value.field == "valid_from" and graph.counts(PDPA) == counts
