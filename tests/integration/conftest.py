"""Fixtures shared by the integration tests: the PDPA loaded into the test Neo4j, and the
offline embedder's English model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.graph import LawGraph
from ingest.parse import read_source
from services.core.english_model import EnglishModel
from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j
from services.core.settings import ENGLISH_MODEL_JAR
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


@pytest.fixture(scope="session")
def english_model() -> EnglishModel:
    """The real English model, from the jar `lexgraph stack build` fetches (test.sh runs
    it): without the jar the tests that need it fail, naming the path."""
    assert ENGLISH_MODEL_JAR.is_file(), (
        f"no English model at {ENGLISH_MODEL_JAR}: lexgraph stack build"
    )
    return EnglishModel(ENGLISH_MODEL_JAR)
