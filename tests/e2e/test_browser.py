"""Neo4j Browser for lawyers, for real: the session's Neo4j server serves Browser at
/browser/; Debian's headless Chromium, driven by npm playwright-core
(tests/e2e/browser/drive_browser.mjs), connects with the password, gets lexgraph's style
and PDPA guide on connect (the launcher's post-connect command), runs the guide's saved
query "everything within two hops of s.26" and sees its nodes drawn. The screenshot is
kept as a test artifact in test-artifacts/neo4j-browser-pdpa.png."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.parse import read_source
from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j
from tests.conftest import REPO
from tests.live_stack import PDPA, empty_store

pytestmark = pytest.mark.e2e

DRIVER_DIR = REPO / "tests" / "e2e" / "browser"
CHROMIUM = "/usr/bin/chromium"
ARTIFACT = REPO / "test-artifacts" / "neo4j-browser-pdpa.png"


@pytest.fixture
def pdpa_graph_only(neo4j_server: LocalNeo4j) -> Iterator[BoltGraphStore]:
    laws = read_source(PDPA).laws
    law = next(law for law in laws if law.id == "th-pdpa-2562")
    store = empty_store(neo4j_server)
    store.apply_schema()
    version = store.load_law(build_graph(law, CorpusIndex.from_laws(laws)))
    store.run_write("law_publish", law=law.id, version=version)
    try:
        yield store
    finally:
        store.close()


def test_lawyer_runs_a_saved_query_in_neo4j_browser_and_sees_the_pdpa_graph(
    neo4j_server: LocalNeo4j, pdpa_graph_only: BoltGraphStore
) -> None:
    assert shutil.which("node") and (DRIVER_DIR / "node_modules" / "playwright-core").is_dir(), (
        "run ./test.sh (it installs tests/e2e/browser's npm packages)"
    )
    assert shutil.which(CHROMIUM) or (REPO / CHROMIUM).exists(), "apt-get install chromium"
    # What the saved query returns in Cypher, to compare with what Browser draws.
    expected = pdpa_graph_only.run_cypher(
        (REPO / "cypher" / "browser" / "01_within_two_hops.cypher").read_text(encoding="utf-8"),
        law="th-pdpa-2562", section="26",
    )  # fmt: skip
    ARTIFACT.parent.mkdir(exist_ok=True)
    ARTIFACT.unlink(missing_ok=True)
    done = subprocess.run(
        ["node", "drive_browser.mjs", neo4j_server.browser_url, neo4j_server.password,
         neo4j_server.database, str(ARTIFACT)],
        cwd=DRIVER_DIR, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["errors"] == [], seen
    assert seen["connected"] and seen["guide"] and seen["style"], seen
    # s.26 and every distinct end node of its walk are drawn (Browser adds no others
    # than the paths' nodes, which are these).
    assert seen["nodes"] == 1 + len({row["key"] for row in expected}), seen
    assert seen["relationships"] > 0
    assert ARTIFACT.is_file() and ARTIFACT.stat().st_size > 20_000
