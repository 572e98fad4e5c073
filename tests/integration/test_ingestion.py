"""`ingest_paths` and `lexgraph ingest` against the session's real Neo4j: the bundled
PDPA, re-ingestion, and bad files next to good ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.build import build_graph
from ingest.parse import read_source
from services.core.graph_store import BoltGraphStore
from services.core.ingestion import ingest_paths
from services.core.settings import Settings
from tests.synthetic import expected_counts

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
PDPA = REPO / "data" / "th-pdpa-2562" / "about.md"
PDPA_OCS = REPO / "data" / "th-pdpa-2562" / "pdpa_2562_ocs.json"


def test_pdpa_ingests_and_a_second_run_changes_nothing(graph_store: BoltGraphStore) -> None:
    report = ingest_paths([PDPA], graph=graph_store)
    assert report.ok, report.errors
    [law] = report.laws
    assert (law.law_id, law.status, law.sections) == ("th-pdpa-2562", "succeeded", 96)
    first = graph_store.counts("th-pdpa-2562")
    expected = expected_counts(build_graph(read_source(PDPA).laws[0]))
    assert first == expected
    again = ingest_paths([PDPA], graph=graph_store)
    assert again.ok and again.laws[0].status == "unchanged"
    assert graph_store.counts("th-pdpa-2562") == first
    assert graph_store.run_read("law_versions", law="th-pdpa-2562") == [
        {"published_version": law.version, "pending_version": None,
         "expressions": [law.version], "expression_from": [""]}]


def test_pdpa_penalty_sections_reach_the_sections_they_punish(
    graph_store: BoltGraphStore,
) -> None:
    assert ingest_paths([PDPA], graph=graph_store).ok
    rows = graph_store.run_cypher(
        "MATCH (p:Section {key: $p})-[r:PENALIZES]->(s:Section {key: $s}) "
        "RETURN r.kind AS kind, r.max_fine_thb AS fine",
        p="th-pdpa-2562:s:84", s="th-pdpa-2562:s:26")
    assert rows == [{"kind": "administrative", "fine": 5_000_000}]
    walk = graph_store.run_cypher(
        "MATCH (s:Section {key: $k})-[*1..2]-(t:Section) RETURN collect(DISTINCT t.key) AS ks",
        k="th-pdpa-2562:s:26")[0]["ks"]
    assert {"th-pdpa-2562:s:79", "th-pdpa-2562:s:84"} <= set(walk)


def test_a_new_version_replaces_the_old_one(graph_store: BoltGraphStore) -> None:
    """about.md and the OCS JSON are the same law with different text: two versions."""
    first = ingest_paths([PDPA], graph=graph_store)
    second = ingest_paths([PDPA_OCS], graph=graph_store)
    assert first.ok and second.ok
    v1, v2 = first.laws[0].version, second.laws[0].version
    assert v1 != v2
    versions = graph_store.run_cypher(
        "MATCH (n:Section {law: 'th-pdpa-2562'}) RETURN collect(DISTINCT n.version) AS v")
    assert versions[0]["v"] == [v2]
    assert graph_store.counts()["nodes"]["Law"] == 1


def test_bad_files_are_reported_by_name_and_the_good_file_still_loads(
    graph_store: BoltGraphStore, tmp_path: Path,
) -> None:
    bad = {
        "empty.md": b"",
        "binary.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00",
        "latin1.md": "หมวด ๑\nมาตรา ๑ ข้อความ".encode() + b"\xff\xfe broken",
        "nosections.md": b"just some prose without headings\n",
        "law.docx": b"PK\x03\x04",
    }
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
    paths = [tmp_path / name for name in bad] + [PDPA]
    report = ingest_paths(paths, graph=graph_store)
    assert not report.ok
    failed = {Path(f.path).name: f.error for f in report.files if not f.ok}
    assert set(failed) == set(bad), failed
    assert "UTF-8" in (failed["latin1.md"] or "")
    assert all(str(tmp_path / name) in " ".join(report.errors) for name in bad)
    # only the PDPA is stored
    assert [law.law_id for law in report.laws if law.error is None] == ["th-pdpa-2562"]
    laws = graph_store.run_cypher("MATCH (l:Law) RETURN collect(l.key) AS k")[0]["k"]
    assert laws == ["th-pdpa-2562"]
    assert graph_store.counts()["nodes"]["Section"] == 96


def test_cli_ingest_exits_non_zero_naming_the_bad_file(
    graph_store: BoltGraphStore, graph_settings: Settings, tmp_path: Path,
) -> None:
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    env = _env(graph_settings)
    result = subprocess.run(
        [sys.executable, "-m", "services.cli", "ingest", "--json", str(empty), str(PDPA)],
        env=env, capture_output=True, text=True, timeout=300, cwd=REPO, check=False)
    assert result.returncode == 1, result.stderr
    assert f"{empty}: empty file" in result.stderr
    report = json.loads(result.stdout)
    assert report["laws_ingested"] == 1
    assert graph_store.counts("th-pdpa-2562")["nodes"]["Section"] == 96


def _env(settings: Settings) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
    env.update({
        "LEXGRAPH_DATA_DIR": str(settings.data_dir),
        "LEXGRAPH_GRAPH_URI": settings.graph_uri,
        "LEXGRAPH_GRAPH_USER": settings.graph_user,
        "LEXGRAPH_GRAPH_PASSWORD": settings.graph_password.get_secret_value(),
        "LEXGRAPH_GRAPH_DATABASE": settings.graph_database,
        "LEXGRAPH_GRAPH_MANAGE_LOCAL": "false",
    })
    return env


def test_a_file_or_law_over_the_ceilings_is_refused_before_any_work(
    graph_store: BoltGraphStore, tmp_path: Path,
) -> None:
    from services.core.sources import IngestLimits

    small_file = ingest_paths([PDPA], graph=graph_store, limits=IngestLimits(max_file_bytes=1000))
    assert not small_file.ok
    assert "over the ceiling of 1,000 (LEXGRAPH_INGEST_MAX_FILE_BYTES)" in small_file.errors[0]
    few_sections = ingest_paths([PDPA], graph=graph_store, limits=IngestLimits(max_sections=50))
    assert not few_sections.ok and few_sections.laws[0].status == "failed"
    assert "law has 96 sections, over the ceiling of 50" in few_sections.errors[0]
    assert graph_store.counts("th-pdpa-2562")["nodes"] == {}


def test_a_folder_ingests_recursively_and_notes_what_it_skips(
    graph_store: BoltGraphStore, tmp_path: Path,
) -> None:
    (tmp_path / "nested" / "deeper").mkdir(parents=True)
    (tmp_path / "nested" / "deeper" / "about.md").write_bytes(PDPA.read_bytes())
    (tmp_path / "nested" / "notes.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / ".hidden").write_text("x", encoding="utf-8")
    report = ingest_paths([tmp_path], graph=graph_store)
    assert report.ok, report.errors
    assert [law.law_id for law in report.laws] == ["th-pdpa-2562"]
    assert len(report.skipped) == 1 and "notes.pdf: not a source file" in report.skipped[0]
