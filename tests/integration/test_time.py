"""Decrees tied to the Act they are issued under, and the law read as of a day, on the
real graph server and the embedded vector index: the PDPA (about.md, with its chapters)
and its two royal decrees (data/th-pdpa-2562/decrees/).

- The B.E. 2563 decree kept chapters 2, 3, 5, 6, 7 and s.95 from applying to the
  controllers in its schedule from 27 May 2020 to 31 May 2022: s.84 (chapter 7, penalties)
  asked as of 2021-06-01 comes with it, as of 2023-01-01 without it.
- Both decrees are ISSUED_UNDER s.4; the B.E. 2566 one starts on a Gazette date the
  source does not hold, so its start is unknown (not before 2023-01-01).
- A ministerial regulation whose OCS record holds only its remarks (as 89 of the corpus's
  do) is kept as a law of its kind, ISSUED_UNDER the section its remarks name; this one is
  made up for the test, in the words those remarks use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from services.core import retrieval
from services.core.embedding import OfflineEmbedder
from services.core.errors import InvalidQuery
from services.core.ingestion import ingest_paths
from services.core.links import check
from services.core.neo4j_local import LocalNeo4j
from services.core.retrieval import lookups
from services.core.settings import REPO_ROOT, Settings
from services.core.vector_index import EdgeVectorIndex
from tests.live_stack import empty_store

pytestmark = pytest.mark.integration

PDPA = "th-pdpa-2562"
DECREE_2563 = "th-pdpa-2562-rd-2563-cfe899"
DECREE_2566 = "th-pdpa-2562-rd-2566-0a81ad"
SOURCES = [
    REPO_ROOT / "data" / "th-pdpa-2562" / "about.md",
    REPO_ROOT / "data" / "th-pdpa-2562" / "decrees",
]
REGULATION = {
    "title_th": "กฎกระทรวงการแจ้งเหตุการละเมิดข้อมูลส่วนบุคคล (ทดสอบ) พ.ศ. 2567",
    "provisions": [
        {"section": "undefined", "title": "หมายเหตุ", "content": (
            "หมายเหตุ :- เหตุผลในการประกาศใช้กฎกระทรวงฉบับนี้ คือ โดยที่มาตรา ๓๗ (๔) "
            "แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒ บัญญัติให้การแจ้งเหตุการละเมิด"
            "เป็นไปตามหลักเกณฑ์ที่กำหนด จึงจำเป็นต้องออกกฎกระทรวงนี้"
        )},
    ],
}  # fmt: skip
HEALTH_DATA = "บริษัทเก็บข้อมูลสุขภาพของพนักงานโดยไม่ได้รับความยินยอม มีโทษอย่างไร"


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, graph_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    graph = empty_store(neo4j_server)
    vectors = EdgeVectorIndex(
        tmp_path_factory.mktemp("vectors"), dense_weight=graph_settings.hybrid_dense_weight
    )
    regulation = tmp_path_factory.mktemp("regulation") / "regulation.json"
    regulation.write_text(json.dumps(REGULATION, ensure_ascii=False), encoding="utf-8")
    try:
        report = ingest_paths(
            [*SOURCES, regulation], graph=graph, vectors=vectors, embedder=OfflineEmbedder()
        )
        assert report.ok, report.errors
        ids = sorted(law.law_id for law in report.laws)
        assert ids[1:] == [PDPA, DECREE_2563, DECREE_2566] and ids[0].startswith("th-mr-2567-")
        yield {"graph": graph, "vectors": vectors, "settings": graph_settings}
    finally:
        vectors.close()
        graph.close()


def _search(stack: dict[str, Any], question: str, as_of: str | None) -> retrieval.SearchResult:
    return retrieval.search(
        question,
        graph=stack["graph"],
        vectors=stack["vectors"],
        embedder=OfflineEmbedder(),
        settings=stack["settings"],
        top_k=10,
        as_of=as_of,
    )


def _decrees(effects: list[dict[str, Any]]) -> set[str]:
    return {effect["law"] for effect in effects}


def test_the_decrees_are_tied_to_the_act_and_the_check_is_clean(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    rows = graph.run_cypher(
        "MATCH (a)-[r:ISSUED_UNDER|DISAPPLIES]->(b) "
        "RETURN type(r) AS type, a.key AS source, b.key AS target ORDER BY type, source, target"
    )
    issued = {(r["source"], r["target"]) for r in rows if r["type"] == "ISSUED_UNDER"}
    assert {(s, t) for s, t in issued if not s.startswith("th-mr-")} == {
        (DECREE_2563, f"{PDPA}:s:4"), (DECREE_2566, f"{PDPA}:s:4")
    }  # fmt: skip
    assert {t for s, t in issued if s.startswith("th-mr-")} == {f"{PDPA}:s:37"}
    disapplied = {r["target"] for r in rows if r["source"] == f"{DECREE_2563}:s:3"}
    assert disapplied == {f"{PDPA}:ch:{n}" for n in (2, 3, 5, 6, 7)} | {f"{PDPA}:s:95"}
    assert check(graph).ok


def test_s84_as_of_2021_comes_with_the_2563_decree_and_as_of_2023_without(
    stack: dict[str, Any],
) -> None:
    graph = stack["graph"]
    then = lookups.section_text(graph, PDPA, "84", "2021-06-01")
    assert then["in_force"] is True
    [effect] = [e for e in then["applicability"] if e["law"] == DECREE_2563]
    assert effect["via"] == f"{PDPA}:ch:7"
    assert (effect["valid_from"], effect["valid_to"]) == ("2020-05-27", "2022-05-31")
    assert "บัญชีท้าย" in effect["scope"]
    later = lookups.section_text(graph, PDPA, "84", "2023-01-01")
    assert DECREE_2563 not in _decrees(later["applicability"])
    # The penalties of s.26 carry the same: s.84 is a penalty section of chapter 7.
    penalties = lookups.section_penalties(graph, PDPA, "26", "2021-06-01")
    s84 = next(p for p in penalties["penalty_sections"] if p["key"] == f"{PDPA}:s:84")
    assert DECREE_2563 in _decrees(s84["applicability"])


def test_search_as_of_a_day_reads_the_decrees_in_force_then(stack: dict[str, Any]) -> None:
    then = _search(stack, HEALTH_DATA, "2021-06-01")
    assert then.as_of == "2021-06-01"
    s84 = next(s for s in then.sections if s.key == f"{PDPA}:s:84")
    assert DECREE_2563 in _decrees(s84.applicability)
    later = _search(stack, HEALTH_DATA, "2023-01-01")
    for item in later.sections:
        assert DECREE_2563 not in _decrees(item.applicability), item.key
    # A decree not in force is left out of the lists inside the vector query: asked about
    # its own words, its sections come back only on a day it was in force.
    words = "หน่วยงานและกิจการที่ผู้ควบคุมข้อมูลส่วนบุคคลไม่อยู่ภายใต้บังคับ ตามบัญชีท้ายพระราชกฤษฎีกานี้"
    assert DECREE_2563 in {s.law for s in _search(stack, words, "2021-06-01").sections}
    assert DECREE_2563 not in {s.law for s in _search(stack, words, "2023-01-01").sections}
    assert DECREE_2566 not in {s.law for s in _search(stack, words, "2021-06-01").sections}


def test_related_and_history_list_the_decrees_with_their_dates(stack: dict[str, Any]) -> None:
    graph = stack["graph"]
    related = lookups.related_sections(graph, PDPA, "4", "2024-01-01")
    assert [x["key"] for x in related["issued_under"]] == [DECREE_2566]
    assert related["issued_under"][0]["kind"] == "royal_decree"
    before = lookups.related_sections(graph, PDPA, "4", "2021-06-01")
    assert [x["key"] for x in before["issued_under"]] == [DECREE_2563]

    history = lookups.section_history(graph, PDPA, "4")
    dates = {x["law"]: (x.get("valid_from"), x.get("valid_to"), x.get("not_before"))
             for x in history["issued_under"]}  # fmt: skip
    assert dates == {
        DECREE_2563: ("2020-05-27", "2022-05-31", "2020-05-27"),
        DECREE_2566: (None, None, "2023-01-01"),
    }
    decree = lookups.section_history(graph, DECREE_2566, "6")
    [version] = decree["versions"]
    assert version["valid_from"] is None and version["not_before"] == "2023-01-01"
    assert "หนึ่งร้อยห้าสิบวัน" in version["commencement"]
    chapter_7 = lookups.section_history(graph, PDPA, "84")["effects"]
    assert DECREE_2563 in _decrees(chapter_7)  # whatever the day


def test_the_2563_decree_lists_the_no_2_decree_that_extended_it(stack: dict[str, Any]) -> None:
    """OCS appends the (No. 2) decree of B.E. 2564 to the 2563 decree's text: it is kept as
    an amending act of the decree, with the remarks that say it extended it, not as the
    decree's s.2."""
    history = lookups.section_history(stack["graph"], DECREE_2563, "3")
    [act] = history["amended_by"]
    assert (act["changed"], act["change"], act["act"]) == (
        "law", "amends", f"{DECREE_2563}:amending:appended-1"
    )  # fmt: skip
    assert "ตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษา" in act["commencement"]
    assert "valid_from" not in act  # a Gazette day no source holds
    notes = stack["graph"].run_cypher(
        "MATCH (a:AmendingAct {key: $key}) RETURN a.notes AS notes", key=act["act"]
    )[0]["notes"]
    assert "ออกไปอีกจนถึงวันที่ ๓๑ พฤษภาคม พ.ศ. ๒๕๖๕" in notes[0]


def test_a_bad_as_of_is_refused_by_name(stack: dict[str, Any]) -> None:
    with pytest.raises(InvalidQuery) as e:
        lookups.section_text(stack["graph"], PDPA, "84", "1 June 2021")
    assert e.value.field == "as_of"


def test_the_browser_history_query_shows_the_decrees_of_a_section(stack: dict[str, Any]) -> None:
    text = (REPO_ROOT / "cypher" / "browser" / "06_section_history.cypher").read_text("utf-8")
    graph = stack["graph"]
    s4 = graph.run_cypher(text, law=PDPA, section="4")
    assert {row["issued_under"] for row in s4} == {DECREE_2563, DECREE_2566}
    s84 = graph.run_cypher(text, law=PDPA, section="84")
    assert {(row["disapplied_by"], row["via"]) for row in s84} == {
        (f"{DECREE_2563}:s:3", f"{PDPA}:ch:7")
    }
    assert {row["to"] for row in s84} == {"2022-05-31"}


def test_a_regulation_known_by_its_remarks_alone_is_listed_under_its_section(
    stack: dict[str, Any],
) -> None:
    related = lookups.related_sections(stack["graph"], PDPA, "37", "2025-01-01")
    [regulation] = related["issued_under"]
    assert regulation["kind"] == "ministerial_regulation"
    assert regulation["key"].startswith("th-mr-2567-")
    assert regulation.get("valid_from") is None and regulation["not_before"] == "2024-01-01"
    assert lookups.related_sections(stack["graph"], PDPA, "37", "2023-01-01")["issued_under"] == []
