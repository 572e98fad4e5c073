"""One law from two sources with different texts, kept as two versions, on the real graph
server and the embedded vector index: the Commercial Registration Act B.E. 2499 as the
NitiBench corpus has it, then as its OCS consolidated record has it, ingested with
`valid_from` (no source says from when its text applies, so the day is the ingester's).
Lookups and searches as of a day before it read the NitiBench text, from it the OCS one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from ingest.parse import read_source
from services.core import retrieval
from services.core.embedding import OfflineEmbedder
from services.core.ingestion import ingest_paths
from services.core.neo4j_local import LocalNeo4j
from services.core.retrieval import lookups
from services.core.settings import Settings
from services.core.vector_index import EdgeVectorIndex
from tests.conftest import SHARED
from tests.live_stack import empty_store

pytestmark = pytest.mark.integration

NITIBENCH = SHARED / "corpus" / "nitibench-ccl-laws" / "ท0002-1B-0001.json"
OCS = SHARED / "corpus" / "th-laws-ocs" / "laws.jsonl"
TITLE = "พระราชบัญญัติทะเบียนพาณิชย์ พ.ศ. 2499"
DAY = "2022-01-01"


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, graph_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    record = next(
        line
        for line in OCS.read_text(encoding="utf-8").splitlines()
        if json.loads(line).get("title_th") == TITLE
    )
    ocs = tmp_path_factory.mktemp("ocs") / "commercial-registration.jsonl"
    ocs.write_text(record + "\n", encoding="utf-8")
    [first_law], [second_law] = read_source(NITIBENCH).laws, read_source(ocs).laws
    assert first_law.id == second_law.id
    graph = empty_store(neo4j_server)
    vectors = EdgeVectorIndex(
        tmp_path_factory.mktemp("vectors"), dense_weight=graph_settings.hybrid_dense_weight
    )
    embedder = OfflineEmbedder()
    try:
        first = ingest_paths([NITIBENCH], graph=graph, vectors=vectors, embedder=embedder)
        second = ingest_paths(
            [ocs], graph=graph, vectors=vectors, embedder=embedder, valid_from=DAY
        )
        assert first.ok and second.ok, (first.errors, second.errors)
        yield {
            "graph": graph,
            "vectors": vectors,
            "settings": graph_settings,
            "law": first_law.id,
            "texts": (
                {s.number: s.text for s in first_law.sections},
                {s.number: s.text for s in second_law.sections},
            ),
            "versions": (first.laws[0].version, second.laws[0].version),
            "sources": (NITIBENCH, ocs),
        }
    finally:
        vectors.close()
        graph.close()


def _differing(stack: dict[str, Any]) -> str:
    before, after = stack["texts"]
    return next(n for n in sorted(before, key=len) if n in after and before[n] != after[n])


def test_both_versions_are_kept_and_each_is_read_on_its_side_of_the_day(
    stack: dict[str, Any],
) -> None:
    law, number = stack["law"], _differing(stack)
    (before, after), (v1, v2) = stack["texts"], stack["versions"]
    old = lookups.section_text(stack["graph"], law, number, "2021-12-31")
    new = lookups.section_text(stack["graph"], law, number, DAY)
    assert (old["version"], old["text"]) == (v1, before[number])
    assert (new["version"], new["text"]) == (v2, after[number])
    history = lookups.section_history(stack["graph"], law, number)["versions"]
    assert [(v["version"], v["valid_to"], v["changed"]) for v in history] == [
        (v1, "2021-12-31", False),
        (v2, None, True),
    ]


def test_a_search_on_each_side_of_the_day_answers_from_that_side_s_text(
    stack: dict[str, Any],
) -> None:
    law, (v1, v2) = stack["law"], stack["versions"]
    for day, version in (("2021-06-01", v1), ("2023-06-01", v2)):
        result = retrieval.search(
            "การจดทะเบียนพาณิชย์ของผู้ประกอบพาณิชยกิจ",
            graph=stack["graph"],
            vectors=stack["vectors"],
            embedder=OfflineEmbedder(),
            settings=stack["settings"],
            as_of=day,
        )
        assert result.sections and {item.version for item in result.sections} == {version}, day
        assert result.index_versions == {law: version}


def test_ingesting_either_source_again_is_a_no_op(stack: dict[str, Any]) -> None:
    graph, vectors = stack["graph"], stack["vectors"]
    counts = graph.counts(stack["law"])
    for source in stack["sources"]:
        again = ingest_paths([source], graph=graph, vectors=vectors, embedder=OfflineEmbedder())
        assert [law.status for law in again.laws] == ["unchanged"]
    assert graph.counts(stack["law"]) == counts
