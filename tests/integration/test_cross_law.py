"""Citations between laws survive the order laws arrive in and new versions of either
side, on the session's real graph server: the Securities and Exchange Act cites the
Public Limited Companies Act and the Derivatives Act (NitiBench sources)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.parse import read_source
from services.core.graph_store import BoltGraphStore
from services.core.ingestion import ingest_paths
from services.core.links import check, cross_law_counts
from services.core.settings import Settings
from tests.conftest import REPO, SHARED
from tests.integration.test_ingestion import _env

pytestmark = pytest.mark.integration

NITIBENCH = SHARED / "corpus" / "nitibench-ccl-laws"
SECURITIES = "ห0015-1B-0002.json"  # พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์ พ.ศ. 2535
COMPANIES = "บ0011-1B-0001.json"  # พระราชบัญญัติบริษัทมหาชนจำกัด พ.ศ. 2535
DERIVATIVES = "ส0065-1B-0001.json"  # พระราชบัญญัติสัญญาซื้อขายล่วงหน้า พ.ศ. 2546
FILES = (SECURITIES, COMPANIES, DERIVATIVES)


def _paths() -> list[Path]:
    paths = [NITIBENCH / name for name in FILES]
    missing = [p for p in paths if not p.is_file()]
    if missing:
        pytest.skip(f"NitiBench sources missing: {missing}")
    return paths


def _fresh_counts(paths: list[Path]) -> dict[str, int]:
    """Cross-law relationships of the laws built together, without any database."""
    laws = [law for p in paths for law in read_source(p).laws]
    corpus = CorpusIndex.from_laws(sorted(laws, key=lambda law: law.id))
    counts: dict[str, int] = {}
    for law in laws:
        graph = build_graph(law, corpus)
        own = {n.key for n in graph.nodes}
        for edge in graph.edges:
            if edge.target not in own and edge.type.value != "CITES_EXTERNAL":
                counts[edge.type.value] = counts.get(edge.type.value, 0) + 1
    return dict(sorted(counts.items()))


def test_cross_law_citations_equal_in_one_run_one_at_a_time_and_after_a_new_version(
    graph_store: BoltGraphStore, tmp_path: Path
) -> None:
    paths = _paths()
    fresh = _fresh_counts(paths)
    assert fresh["REFERENCES"] >= 16  # 13 into the Derivatives Act, 3 into the PLC Act

    # (a) one run with all three laws
    report = ingest_paths(paths, graph=graph_store)
    assert report.ok, report.errors
    together = cross_law_counts(graph_store)
    assert together == fresh
    assert report.check is not None and report.check["ok"], report.check

    # (b) the same laws one run each, the citing law first and then in a random order
    for order in ([0, 1, 2], random.Random(21).sample(range(3), 3)):
        graph_store.run_cypher("MATCH (n) DETACH DELETE n", write=True)
        for i in order:
            assert ingest_paths([paths[i]], graph=graph_store).ok
        assert cross_law_counts(graph_store) == together, order
        assert check(graph_store).ok

    # (c) a new version of a cited law (the PLC Act with one uncited section changed):
    # the Securities Act's citations move to the new version, none stays on the old one
    records = json.loads(paths[1].read_text(encoding="utf-8"))
    records[1]["section_content"] += " (ข้อความแก้ไขเพื่อการทดสอบ)"
    changed = tmp_path / COMPANIES
    changed.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    second = ingest_paths([changed], graph=graph_store)
    assert second.ok and second.laws[0].status == "succeeded"
    assert cross_law_counts(graph_store) == together
    result = check(graph_store)
    assert result.ok and result.unpublished_targets == 0, result.as_dict()
    old = graph_store.run_cypher(
        "MATCH (a:Section)-[r:REFERENCES]->(b:Section {law: $law}) WHERE b.version <> $v "
        "RETURN count(r) AS n",
        law=second.laws[0].law_id,
        v=second.laws[0].version,
    )
    assert old == [{"n": 0}]


def test_check_reports_a_lost_citation(
    graph_store: BoltGraphStore, graph_settings: Settings
) -> None:
    paths = _paths()
    assert ingest_paths(paths[:2], graph=graph_store).ok
    assert check(graph_store).ok
    cli = [sys.executable, "-m", "services.cli", "check"]
    env = _env(graph_settings)
    clean = subprocess.run([*cli, "--json"], env=env, capture_output=True, text=True,
                           timeout=300, cwd=REPO, check=False)
    assert clean.returncode == 0, clean.stderr
    assert json.loads(clean.stdout)["found"]["REFERENCES"] == 3  # Securities -> PLC Act
    graph_store.run_cypher(
        "MATCH (a:Section)-[r:REFERENCES]->(b:Section) WHERE a.law <> b.law "
        "WITH r LIMIT 1 DELETE r",
        write=True,
    )
    result = check(graph_store)
    assert not result.ok and len(result.missing) == 1 and not result.extra
    assert result.as_dict()["missing_examples"][0]["type"] == "REFERENCES"
    lost = subprocess.run(cli, env=env, capture_output=True, text=True, timeout=300, cwd=REPO,
                          check=False)
    assert lost.returncode == 1 and "DIFFERS" in lost.stdout and "missing: " in lost.stdout


def test_decrees_tie_to_the_act_whichever_arrives_first(graph_store: BoltGraphStore) -> None:
    """ISSUED_UNDER (from a decree's Law node) and DISAPPLIES (to the Act's chapters) are
    cross-law relationships like citations: a decree loaded before the Act gets them when
    the Act arrives, and a new version of the Act keeps them."""
    pdpa = REPO / "data" / "th-pdpa-2562" / "about.md"
    decrees = REPO / "data" / "th-pdpa-2562" / "decrees"

    def ties() -> set[tuple[str, str, str]]:
        rows = graph_store.run_cypher(
            "MATCH (a)-[r:ISSUED_UNDER|DISAPPLIES]->(b) RETURN type(r) AS t, a.key AS a, "
            "b.key AS b, b.version AS v"
        )
        versions = {r["v"] for r in rows}
        assert len(versions) == 1, versions  # one version of the Act, the published one
        return {(r["t"], r["a"], r["b"]) for r in rows}

    graph_store.run_cypher("MATCH (n) DETACH DELETE n", write=True)
    assert ingest_paths([pdpa, decrees], graph=graph_store).ok
    together = ties()
    assert len(together) == 2 + 6 + 14  # s.4 twice; the 2563 s.3: 6; the 2566 ss.6-12: 2 each
    graph_store.run_cypher("MATCH (n) DETACH DELETE n", write=True)
    assert ingest_paths([decrees], graph=graph_store).ok
    assert ingest_paths([pdpa], graph=graph_store).ok
    assert ties() == together
    assert check(graph_store).ok

    # s.1 with one word more: a new version of the Act
    changed = pdpa.read_text(encoding="utf-8").replace("พระราชบัญญัตินี้เรียกว่า", "พระราชบัญญัตินี้ให้เรียกว่า", 1)
    assert changed != pdpa.read_text(encoding="utf-8")
    new_version = REPO / "var" / "test-pdpa-new-version" / "about.md"
    new_version.parent.mkdir(parents=True, exist_ok=True)
    try:
        new_version.write_text(changed, encoding="utf-8")
        report = ingest_paths([new_version], graph=graph_store)
        assert [law.status for law in report.laws] == ["succeeded"], report.laws
        assert ties() == together
        assert check(graph_store).ok
    finally:
        new_version.unlink(missing_ok=True)


def _ocs(title: str, provisions: list[tuple[str, str]]) -> dict[str, object]:
    """An OCS record: (section, text) pairs, "undefined" for the preamble."""
    return {
        "title_th": title,
        "status": "in_force",
        "provisions": [
            {"section": n, "title": "คำปรารภ", "content": text}
            if n == "undefined"
            else {"section": n, "title": f"มาตรา {n}", "content": f"มาตรา {n} {text}"}
            for n, text in provisions
        ],
    }


def test_a_decree_citing_a_section_it_lacks_reaches_the_act_when_the_act_arrives(
    graph_store: BoltGraphStore, tmp_path: Path
) -> None:
    """ "ตามมาตรา ๘" in a decree of three sections is its enabling Act's s.8 (ingest/build.py
    `_in_enabling_law`): a cross-law citation like any other, there once the Act is loaded
    after the decree, and what `lexgraph check` expects."""
    act = _ocs(
        "พระราชบัญญัติกองทุนทดสอบ พ.ศ. 2560", [(str(n), f"กองทุนมีหน้าที่ข้อ {n}") for n in range(1, 11)]
    )
    decree = _ocs(
        "พระราชกฤษฎีกาเปลี่ยนแปลงกรอบวงเงินกองทุนทดสอบ พ.ศ. 2563",
        [
            ("undefined", "อาศัยอำนาจตามความในมาตรา ๔ วรรคสอง แห่งพระราชบัญญัติกองทุนทดสอบ พ.ศ. ๒๕๖๐"),
            ("1", "พระราชกฤษฎีกานี้เรียกว่า พระราชกฤษฎีกาเปลี่ยนแปลงกรอบวงเงินกองทุนทดสอบ"),
            ("2", "พระราชกฤษฎีกานี้ให้ใช้บังคับตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษา"),
            ("3", "ให้เปลี่ยนแปลงกรอบวงเงินกองทุนตามมาตรา ๘ วรรคหนึ่ง เป็นจำนวนไม่เกินหนึ่งแสนล้านบาท"),
        ],
    )
    paths = {}
    for name, record in (("act", act), ("decree", decree)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")

    def cited() -> set[tuple[str, str]]:
        rows = graph_store.run_cypher(
            "MATCH (a:Section)-[:REFERENCES]->(b:Section) WHERE a.law <> b.law "
            "RETURN a.number AS a, b.number AS b"
        )
        return {(r["a"], r["b"]) for r in rows}

    graph_store.run_cypher("MATCH (n) DETACH DELETE n", write=True)
    assert ingest_paths([paths["decree"]], graph=graph_store).ok
    assert cited() == set()  # the Act is not loaded: s.8 is nowhere yet
    assert ingest_paths([paths["act"]], graph=graph_store).ok
    assert cited() == {("3", "8")}
    assert check(graph_store).ok
