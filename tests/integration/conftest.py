"""Fixtures shared by the integration tests: the PDPA loaded into the test Neo4j."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.graph import LawGraph
from ingest.parse import read_source
from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j
from tests.conftest import REPO, SHARED
from tests.live_stack import empty_store

LAW = "th-pdpa-2562"


def _pdpa_source() -> Path:
    for candidate in (
        REPO / "data" / "th-pdpa-2562" / "about.md",
        REPO / "data" / "corpus" / "th-pdpa-2562" / "about.md",
        SHARED / "corpus" / "th-pdpa-2562" / "sidataplus" / "about.md",
    ):
        if candidate.is_file():
            return candidate
    pytest.skip("the PDPA source (sidataplus about.md) is not available")


@pytest.fixture(scope="module")
def pdpa_graph() -> LawGraph:
    laws = read_source(_pdpa_source()).laws
    law = next(law for law in laws if law.id == LAW)
    return build_graph(law, CorpusIndex.from_laws(laws))


@pytest.fixture(scope="module")
def pdpa_store(neo4j_server: LocalNeo4j, pdpa_graph: LawGraph) -> Iterator[BoltGraphStore]:
    store = empty_store(neo4j_server)
    store.apply_schema()
    version = store.load_law(pdpa_graph)
    store.run_write("law_publish", law=LAW, version=version)
    try:
        yield store
    finally:
        store.close()
