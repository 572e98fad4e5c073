"""What amended a law, on the real graph server and the embedded vector index: two OCS
records in one laws.jsonl, in the words the corpus's consolidated texts use.

- The first law's record ends with an amending act OCS appends (its commencement and a
  transitional section saying "มาตรา ๕ แห่ง<the law> ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้").
  It is kept as an AmendingAct of the law (never as the law's s.2), which AMENDS the law
  and s.5.
- The second law says the first law's s.6 was amended by a named act (not in the corpus):
  an AmendingAct of the second law AMENDS a section of another law, a cross-law
  relationship that `lexgraph check` compares like a citation.
- history and related list them; ingesting the same file again changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ingest.ids import law_id_for_title
from services.core.embedding import OfflineEmbedder
from services.core.ingestion import ingest_paths
from services.core.links import check
from services.core.neo4j_local import LocalNeo4j
from services.core.retrieval import lookups
from services.core.settings import REPO_ROOT
from services.core.vector_index import EdgeVectorIndex
from tests.live_stack import empty_store

pytestmark = pytest.mark.integration

AMENDED = "พระราชบัญญัติการประกอบกิจการทดสอบ พ.ศ. 2500"
CITING = "พระราชบัญญัติการส่งเสริมทดสอบ พ.ศ. 2560"
NAMED = "พระราชบัญญัติการประกอบกิจการทดสอบ (ฉบับที่ ๒) พ.ศ. ๒๕๔๐"
RECORDS = [
    {"title_th": AMENDED, "provisions": [
        {"section": "1", "title": "มาตรา 1", "content": "มาตรา ๑  พระราชบัญญัตินี้เรียกว่า “พระราชบัญญัติการประกอบกิจการทดสอบ พ.ศ. ๒๕๐๐”"},
        {"section": "2", "title": "มาตรา 2", "content": "มาตรา ๒  พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันที่ ๑ มกราคม พ.ศ. ๒๕๐๐ เป็นต้นไป"},
        {"section": "5", "title": "มาตรา 5", "content": "มาตรา ๕  ผู้ใดประสงค์จะประกอบกิจการต้องได้รับใบอนุญาตจากพนักงานเจ้าหน้าที่"},
        {"section": "6", "title": "มาตรา 6", "content": "มาตรา ๖  ใบอนุญาตให้มีอายุสองปีนับแต่วันที่ออก"},
        {"section": "undefined", "title": "หมายเหตุ", "content": "หมายเหตุ :- เหตุผลในการประกาศใช้พระราชบัญญัติฉบับนี้"},
        {"section": "2", "title": "มาตรา 2", "content": "มาตรา ๒  พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษาเป็นต้นไป"},
        {"section": "7", "title": "มาตรา 7", "content": (
            "มาตรา ๗  ใบอนุญาตที่ออกก่อนวันที่พระราชบัญญัตินี้ใช้บังคับ ให้ใช้ได้ต่อไปจนกว่าจะ"
            "ได้รับใบอนุญาตตามมาตรา ๕ แห่งพระราชบัญญัติการประกอบกิจการทดสอบ พ.ศ. ๒๕๐๐ "
            "ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้"
        )},
        {"section": "undefined", "title": "หมายเหตุ", "content": "หมายเหตุ :- เหตุผลของฉบับแก้ไข"},
    ]},
    {"title_th": CITING, "provisions": [
        {"section": "1", "title": "มาตรา 1", "content": "มาตรา ๑  พระราชบัญญัตินี้เรียกว่า “พระราชบัญญัติการส่งเสริมทดสอบ พ.ศ. ๒๕๖๐”"},
        {"section": "3", "title": "มาตรา 3", "content": (
            "มาตรา ๓  ผู้ได้รับส่งเสริมต้องถือใบอนุญาตตามมาตรา ๖ แห่งพระราชบัญญัติการประกอบ"
            f"กิจการทดสอบ พ.ศ. ๒๕๐๐ ซึ่งแก้ไขเพิ่มเติมโดย{NAMED}"
        )},
    ]},
]  # fmt: skip
LAW = law_id_for_title(AMENDED)
OTHER = law_id_for_title(CITING)


def _ingest(stack: dict[str, Any]) -> Any:
    return ingest_paths(
        [stack["path"]], graph=stack["graph"], vectors=stack["vectors"], embedder=OfflineEmbedder()
    )


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    graph = empty_store(neo4j_server)
    vectors = EdgeVectorIndex(tmp_path_factory.mktemp("vectors"))
    path: Path = tmp_path_factory.mktemp("ocs") / "laws.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8"
    )
    stack = {"graph": graph, "vectors": vectors, "path": path}
    try:
        report = _ingest(stack)
        assert report.ok, report.errors
        assert sorted(law.law_id for law in report.laws) == sorted([LAW, OTHER])
        yield stack
    finally:
        vectors.close()
        graph.close()


def test_the_appended_act_is_an_amending_act_not_the_law_s_sections(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    sections = graph.run_cypher(
        "MATCH (s:Section {law: $law}) RETURN s.number AS n, s.text AS text ORDER BY s.order",
        law=LAW,
    )
    assert [r["n"] for r in sections] == ["1", "2", "5", "6"]
    assert "๑ มกราคม" in sections[1]["text"]  # the law's own s.2, not the amending act's
    rows = graph.run_cypher(
        "MATCH (a:AmendingAct)-[r]->(b) "
        "RETURN a.key AS act, type(r) AS type, b.key AS target, a.provisions AS provisions, "
        "a.notes AS notes ORDER BY act, target"
    )
    assert {(r["act"], r["type"], r["target"]) for r in rows} == {
        (f"{LAW}:amending:appended-1", "AMENDS", LAW),
        (f"{LAW}:amending:appended-1", "AMENDS", f"{LAW}:s:5"),
        (f"{OTHER}:amending:{NAMED.replace(' ', '').replace('๒๕๔๐', '2540').replace('๒', '2')}",
         "AMENDS", f"{LAW}:s:6"),
    }  # fmt: skip
    appended = next(r for r in rows if r["act"].endswith("appended-1"))
    assert appended["provisions"][0].startswith("มาตรา ๒  พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจาก")
    assert appended["notes"] == ["หมายเหตุ :- เหตุผลของฉบับแก้ไข"]
    assert check(graph).ok  # the cross-law AMENDS is what a fresh resolution gives


def test_history_and_related_list_what_amended_a_section(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    s5 = lookups.section_history(graph, LAW, "5")["amended_by"]
    assert [(x["changed"], x["change"], x["act"]) for x in s5] == [
        ("section", "amends", f"{LAW}:amending:appended-1"),
        ("law", "amends", f"{LAW}:amending:appended-1"),
    ]
    assert "ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้" in s5[0]["markers"][0]
    s6 = lookups.section_history(graph, LAW, "6")["amended_by"]
    assert [(x["changed"], x["label"], x["law"]) for x in s6][0] == ("section", NAMED, OTHER)
    assert s6[0]["not_before"] == "1997-01-01" and "valid_from" not in s6[0]  # day unknown
    related = lookups.related_sections(graph, LAW, "6")
    assert [(x["change"], x["label"]) for x in related["amended_by"]] == [("amends", NAMED)]


def test_ingesting_the_same_records_again_changes_nothing(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    count = "MATCH (a:AmendingAct)-[r]->() RETURN count(DISTINCT a) AS acts, count(r) AS edges"
    before = graph.run_cypher(count)
    report = _ingest(stack)
    assert report.ok, report.errors
    assert {law.status for law in report.laws} == {"unchanged"}
    assert graph.run_cypher(count) == before == [{"acts": 2, "edges": 3}]


def test_the_browser_history_query_shows_what_amended_a_section(stack: dict[str, Any]) -> None:
    text = (REPO_ROOT / "cypher" / "browser" / "06_section_history.cypher").read_text("utf-8")
    rows = stack["graph"].run_cypher(text, law=LAW, section="6")
    assert {(row["amended_by"], row["change"]) for row in rows} == {(NAMED, "AMENDS")}
    assert rows[0]["amended"] is not None  # the path, for Browser to draw
