"""The evaluation harness on the real pipeline: the PDPA ingested into a real ArcadeDB
server and the embedded qdrant-edge index with the offline embedder, scored on the small
CI gold file. Fails when `graph` mode stops beating `hybrid` (all-must@10): the graph walk
is the product, and this is where a change that makes it worse shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from services.core.embedding import OfflineEmbedder
from services.core.evaluation import format_table, load_gold, run_modes, search_retriever
from services.core.graph_store import BoltGraphStore
from services.core.ingestion import ingest_paths
from services.core.settings import REPO_ROOT, Settings
from services.core.vector_index import EdgeVectorIndex

pytestmark = pytest.mark.integration

CI_GOLD = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "ci_gold.jsonl"
PDPA = REPO_ROOT / "data" / "th-pdpa-2562" / "pdpa_2562_ocs.json"


@pytest.fixture(scope="module")
def pdpa_stack(
    graph_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, object]]:
    graph = BoltGraphStore(
        graph_settings.graph_uri,
        user=graph_settings.graph_user,
        password=graph_settings.graph_password.get_secret_value(),
        database=graph_settings.graph_database,
    )
    graph.run_cypher("MATCH (n) DETACH DELETE n", write=True)
    vectors = EdgeVectorIndex(tmp_path_factory.mktemp("vectors"))
    embedder = OfflineEmbedder()
    try:
        report = ingest_paths([PDPA], graph=graph, vectors=vectors, embedder=embedder)
        assert report.ok, report.errors
        assert report.laws[0].points > 0, "the PDPA was ingested without vectors"
        yield {"graph": graph, "vectors": vectors, "embedder": embedder, "settings": graph_settings}
    finally:
        vectors.close()
        graph.close()


def test_graph_mode_beats_hybrid_on_ci_gold(pdpa_stack: dict[str, object]) -> None:
    gold = load_gold(CI_GOLD)
    reports = run_modes(
        gold,
        ["hybrid", "graph"],
        lambda mode: search_retriever(mode, top_k=10, **pdpa_stack),  # type: ignore[arg-type]
        k=10,
    )
    hybrid, graph = (r.summary["overall"]["all_must"] for r in reports)
    table = format_table(gold, 10, reports)
    assert graph > hybrid, f"graph mode no longer beats hybrid on all-must@10:\n{table}"
