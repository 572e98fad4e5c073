"""Every Cypher file lexgraph ships or exports passes Neo4j's own linter
(`@neo4j-cypher/language-support`, `lintCypherQuery`, offline with the machine's Node.js):
the integration tests run our Cypher on a real Neo4j 5.26; the linter also checks the files
no test runs whole (the generated exports) without a server."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ingest.build import build_graph
from ingest.export import export_script
from ingest.parse import read_source
from services.core.cypher import shipped_cypher_files
from services.core.publish import content_version

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
LINTER = REPO / "tools" / "cypher-lint"
PDPA = REPO / "data" / "th-pdpa-2562" / "about.md"


def lint(*files: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node, "Node.js is required for the Cypher linter (apt-get install nodejs)"
    assert (LINTER / "node_modules" / "@neo4j-cypher" / "language-support").is_dir(), (
        "run `npm ci` in tools/cypher-lint first (.ci/run and ./test.sh do)")
    return subprocess.run([node, "lint.mjs", *map(str, files)], cwd=LINTER, text=True,
                          capture_output=True, timeout=600, check=False)


def test_every_shipped_cypher_file_passes_the_neo4j_linter() -> None:
    files = shipped_cypher_files()
    assert any("schema" in str(f) for f in files) and any("queries" in str(f) for f in files)
    result = lint(*files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pdpa_export_passes_the_neo4j_linter(tmp_path: Path) -> None:
    law = read_source(PDPA).laws[0]
    script = tmp_path / f"{law.id}.cypher"
    script.write_text(export_script(build_graph(law), content_version(law)), encoding="utf-8")
    result = lint(script)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr


def test_the_linter_reports_invalid_cypher(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cypher"
    bad.write_text("MATCH (n:Section {key: 'x'}) RETURN n;\nMATCH (n RETURN n;\n",
                   encoding="utf-8")
    result = lint(bad)
    assert result.returncode == 1
    assert "bad.cypher:2:" in result.stdout and "error" in result.stdout
