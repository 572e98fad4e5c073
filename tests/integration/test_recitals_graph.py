"""The GDPR's recitals on the session's real graph server: each a Recital node of the
published version, EXPLAINS at most two articles of the same version (ingest/explanations.py),
and nothing of them left behind by a second load."""

from __future__ import annotations

import pytest

from services.core.graph_store import BoltGraphStore
from services.core.ingestion import ingest_paths
from tests.conftest import SHARED

pytestmark = pytest.mark.integration

GDPR = SHARED / "corpus" / "eu-gdpr" / "gdpr.json"


def test_recitals_load_with_the_articles_they_explain(graph_store: BoltGraphStore) -> None:
    if not GDPR.is_file():
        pytest.skip(f"the GDPR source is missing: {GDPR}")
    for _ in range(2):  # the second load of the same source changes nothing
        assert ingest_paths([GDPR], graph=graph_store).ok
        rows = graph_store.run_cypher(
            "MATCH (l:Law {key: 'eu-gdpr'}) "
            "MATCH (r:Recital {law: 'eu-gdpr'}) "
            "OPTIONAL MATCH (r)-[e:EXPLAINS]->(s) "
            "RETURN r.number AS number, r.version = l.published_version AS published, "
            "collect({key: s.key, label: labels(s)[0], version: s.version = r.version, "
            "rank: e.rank}) AS explains"
        )
        assert len(rows) == 173  # recitals 1-173, the seed's second 173 kept once
        assert all(row["published"] for row in rows)
        explained = {row["number"]: row["explains"] for row in rows}
        for targets in explained.values():
            assert 1 <= len(targets) <= 2
            assert all(t["label"] == "Section" and t["version"] for t in targets)
            assert sorted(t["rank"] for t in targets) == list(range(1, len(targets) + 1))
        # Recital 86: "The controller should communicate to the data subject a personal
        # data breach…": Art. 34, communication of a breach to the data subject.
        assert "eu-gdpr:s:34" in {t["key"] for t in explained["86"]}
