"""Penalties, definitions and exemptions found by rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.corpus import CorpusIndex
from ingest.models import Law
from ingest.parse import read_source
from ingest.readers.base import make_section
from ingest.rules import (
    Penalty,
    find_definitions,
    find_exemptions,
    find_penalties,
    find_term_uses,
)
from ingest.xrefs import extract_citations, resolve_citation
from tests.synthetic import thai_law

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PDPA_OCS = SHARED / "corpus/th-pdpa-2562/ocs/pdpa_2562_ocs.json"
GDPR = SHARED / "corpus/eu-gdpr/gdpr.json"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared corpus not present")


def _penalties(law: Law, number: str) -> list[Penalty]:
    corpus = CorpusIndex.from_laws([law])
    section = next(s for s in law.sections if s.number == number)
    resolutions = [
        resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)
    ]
    return find_penalties(section, law, resolutions)


@pytest.fixture(scope="module")
def pdpa() -> Law:
    if not PDPA_OCS.is_file():
        pytest.skip("../shared corpus not present")
    return read_source(PDPA_OCS).laws[0]


def _breached(penalties: list[Penalty]) -> set[str]:
    return {key.rsplit(":s:", 1)[1] for p in penalties for key in p.breached}


@needs_shared
def test_s84_penalizes_s26_with_an_administrative_fine_of_five_million(pdpa: Law) -> None:
    penalties = _penalties(pdpa, "84")
    print(
        f"\ns.84: {[(p.kind, p.max_fine, p.max_prison_months, _breached([p])) for p in penalties]}"
    )
    [penalty] = penalties
    assert penalty.kind == "administrative"
    assert penalty.max_fine_thb == 5_000_000
    assert penalty.max_prison_months is None
    assert _breached(penalties) == {"26", "27", "28", "29"}


@needs_shared
def test_s79_penalizes_s27_and_s28_criminally_but_not_the_qualifying_s26(pdpa: Law) -> None:
    penalties = _penalties(pdpa, "79")
    print(
        f"\ns.79: {[(p.kind, p.max_fine, p.max_prison_months, _breached([p])) for p in penalties]}"
    )
    assert [p.kind for p in penalties] == ["criminal", "criminal"]
    assert [(p.max_fine_thb, p.max_prison_months) for p in penalties] == [
        (500_000, 6),
        (1_000_000, 12),
    ]
    assert _breached(penalties) == {"27", "28"}


@needs_shared
def test_every_pdpa_penalty_section_has_a_penalty_and_a_breached_section(pdpa: Law) -> None:
    found = {}
    for number in ["79", "80", "82", "83", "84", "85", "86", "87", "88", "89"]:
        penalties = _penalties(pdpa, number)
        found[number] = (
            sorted({p.kind for p in penalties}),
            max(p.max_fine_thb or 0 for p in penalties),
            sorted(_breached(penalties), key=lambda n: int(n.split("/")[0])),
        )
        print(f"s.{number}: {found[number]}")
    assert found["82"][2] == ["19", "23", "30", "39", "41", "42"]
    assert found["83"][1] == 3_000_000
    assert found["89"][2] == ["75", "76"]
    # a representative's fine for ss.39 and 41 as applied to it by their own paragraphs
    assert found["88"] == (["administrative"], 1_000_000, ["39", "41"])
    assert [[k.rsplit(":s:", 1)[1] for k in p.applied] for p in _penalties(pdpa, "88")] == [
        ["39", "41"]
    ]
    assert found["80"] == (["criminal"], 500_000, [])  # disclosure offence, no section named
    assert _penalties(pdpa, "90") == []  # procedure for administrative fines, not a penalty


def test_a_duty_breached_as_another_section_applies_it_is_marked_applied() -> None:
    law = thai_law(
        {
            "1": "ผู้ควบคุมต้องบันทึกรายการ",
            "2": "ให้นำความในมาตรา 1 และมาตรา 3 มาใช้บังคับแก่ตัวแทนโดยอนุโลม",
            "3": "ผู้ควบคุมต้องแต่งตั้งเจ้าหน้าที่",
            "4": "ผู้ควบคุมผู้ใดไม่ปฏิบัติตามมาตรา 1 หรือไม่ปฏิบัติตามมาตรา 3 ซึ่งได้นำมาใช้บังคับ"
            "โดยอนุโลมตามมาตรา 2 ต้องระวางโทษปรับทางปกครองไม่เกินหนึ่งล้านบาท",
            # a line-wrapped source: "ปรับ ทางปกครอง"
            "5": "ตัวแทนผู้ใดไม่ปฏิบัติตามมาตรา 1 ซึ่งได้นำมาใช้บังคับโดยอนุโลมตามมาตรา 2 และ"
            "มาตรา 3 ซึ่งได้นำมาใช้บังคับโดยอนุโลมตามมาตรา 2 ต้องระวางโทษปรับ ทางปกครองไม่เกิน"
            "หนึ่งล้านบาท",
        }
    )
    [controller] = _penalties(law, "4")
    assert _breached([controller]) == {"1", "3"}
    assert [key.rsplit(":s:", 1)[1] for key in controller.applied] == ["3"]
    [representative] = _penalties(law, "5")
    assert _breached([representative]) == {"1", "3"}  # the list goes on after "ตามมาตรา 2"
    assert [key.rsplit(":s:", 1)[1] for key in representative.applied] == ["1", "3"]
    assert (representative.kind, representative.max_fine_thb) == ("administrative", 1_000_000)


def test_citation_that_only_qualifies_the_act_is_not_a_breach() -> None:
    law = thai_law(
        {
            "1": "ข้อความ",
            "2": "ข้อความ",
            "3": "ผู้ใดฝ่าฝืนมาตรา 1 อันเกี่ยวกับข้อมูลตามมาตรา 2 ต้องระวางโทษจำคุกไม่เกินสามปี",
        }
    )
    [penalty] = _penalties(law, "3")
    assert _breached([penalty]) == {"1"}
    assert penalty.max_prison_months == 36
    assert penalty.kind == "criminal"


@needs_shared
def test_gdpr_article_83_tiers_penalize_the_listed_articles() -> None:
    law = read_source(GDPR).laws[0]
    penalties = _penalties(law, "83")
    # 83(4) (10 million), 83(5) and 83(6) (20 million each): one tier per paragraph
    tiers = {p.text[:2]: (p.max_fine, _breached([p])) for p in penalties if p.breached}
    print(
        f"\nGDPR 83: {[(p.max_fine, p.currency, sorted(_breached([p]), key=int)) for p in penalties]}"
    )
    assert tiers["5."][0] == 20_000_000 and {"5", "6", "7", "9"} <= tiers["5."][1]
    assert tiers["4."][0] == 10_000_000
    assert {"8", "11", "25", "39", "42", "43"} <= tiers["4."][1]
    # 83(6): "Non-compliance with an order by the supervisory authority as referred to in
    # Article 58(2)"
    assert tiers["6."] == (20_000_000, {"58"})


@needs_shared
def test_japanese_penalties_name_the_articles_before_the_breach() -> None:
    texts = {
        "30": "開示", "31": "訂正", "51": "届出", "56": "提供", "143": "秘密",
        "177": "第百四十三条の規定に違反して秘密を漏らし、又は盗用した者は、"
        "二年以下の拘禁刑又は百万円以下の罰金に処する。",
        "185": "次の各号のいずれかに該当する者は、十万円以下の過料に処する。\n"
        "  1. 第三十条第二項（第三十一条第三項において準用する場合を含む。）又は第五十六条の"
        "規定に違反した者\n"
        "  2. 第五十一条第一項の規定による届出をせず、又は虚偽の届出をした者",
    }  # fmt: skip
    sections = [
        make_section("jp-test", n, t, language="ja", order=i)
        for i, (n, t) in enumerate(texts.items(), start=1)
    ]
    law = Law(
        id="jp-test", title="個人情報の保護に関する法律", language="ja", jurisdiction="JP",
        source="test", aliases=(), sections=sections,
    )  # fmt: skip
    (criminal,) = _penalties(law, "177")
    assert _breached([criminal]) == {"143"}
    assert (criminal.kind, criminal.max_fine, criminal.currency) == ("criminal", 1_000_000, "JPY")
    assert criminal.max_prison_months == 24
    (fine,) = _penalties(law, "185")
    assert _breached([fine]) == {"30", "56", "51"}  # not 31: it only says where 30 applies
    assert (fine.kind, fine.max_fine) == ("administrative", 100_000)


def test_pdpa_definitions_and_term_use(pdpa: Law) -> None:
    definitions = find_definitions(pdpa)
    terms = {d.term for d in definitions}
    print(f"\nPDPA definitions: {sorted(terms)}")
    assert {"ข้อมูลส่วนบุคคล", "ผู้ควบคุมข้อมูลส่วนบุคคล", "ผู้ประมวลผลข้อมูลส่วนบุคคล", "บุคคล"} <= terms
    assert all(d.section == "th-pdpa-2562:s:6" for d in definitions)
    uses = find_term_uses(pdpa, definitions)
    assert ("th-pdpa-2562:s:26", "th-pdpa-2562:def:ข้อมูลส่วนบุคคล") in uses
    assert not any(source == "th-pdpa-2562:s:6" for source, _ in uses)


def test_a_short_term_inside_a_longer_defined_term_is_not_a_use() -> None:
    law = thai_law(
        {
            "1": "ในพระราชบัญญัตินี้\n“ข้อมูลส่วนบุคคล” หมายความว่า ข้อมูลเกี่ยวกับบุคคล\n“บุคคล” หมายความว่า บุคคลธรรมดา",
            "2": "ห้ามเปิดเผยข้อมูลส่วนบุคคล",
            "3": "บุคคลใดจะร้องขอก็ได้",
        }
    )
    definitions = find_definitions(law)
    uses = set(find_term_uses(law, definitions))
    assert {d.term for d in definitions} == {"ข้อมูลส่วนบุคคล", "บุคคล"}
    assert (law.sections[1].key, f"{law.id}:def:ข้อมูลส่วนบุคคล") in uses
    assert (law.sections[1].key, f"{law.id}:def:บุคคล") not in uses
    assert (law.sections[2].key, f"{law.id}:def:บุคคล") in uses


@needs_shared
def test_gdpr_article_4_definitions() -> None:
    law = read_source(GDPR).laws[0]
    terms = {d.term for d in find_definitions(law)}
    print(f"\nGDPR definitions: {len(terms)}")
    assert {"personal data", "processing", "controller", "processor", "consent"} <= terms
    assert len(terms) >= 25


def test_exemption_clauses_and_what_they_carve_out_of() -> None:
    law = thai_law(
        {
            "1": "ผู้ควบคุมต้องแจ้ง\nห้ามเปิดเผย เว้นแต่\n(1) ได้รับความยินยอม\n(2) กฎหมายบัญญัติ",
            "2": "ความในมาตรา 1 มิให้นำมาใช้บังคับแก่การเก็บรวบรวมเพื่อประโยชน์ส่วนตน",
        }
    )
    corpus = CorpusIndex.from_laws([law])
    first = find_exemptions(law.sections[0], law, [])
    assert [(e.kind, e.text) for e in first] == [
        ("except", "เว้นแต่\n(1) ได้รับความยินยอม\n(2) กฎหมายบัญญัติ")
    ]
    section = law.sections[1]
    resolutions = [
        resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)
    ]
    [exemption] = find_exemptions(section, law, resolutions)
    assert exemption.kind == "not_apply"
    assert exemption.exempts_from == (law.sections[0].key,)


@needs_shared
def test_gdpr_shall_not_apply_names_the_articles_it_carves_out_of() -> None:
    law = read_source(GDPR).laws[0]
    corpus = CorpusIndex.from_laws([law])
    carved = set()
    for section in law.sections:
        resolutions = [
            resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)
        ]
        for exemption in find_exemptions(section, law, resolutions):
            carved |= {(section.number, t) for t in exemption.exempts_from}
    print(f"\nGDPR EXEMPTS_FROM: {sorted(carved)}")
    # Art. 11(2): "Articles 15 to 20 shall not apply except where ..."
    assert {("11", f"eu-gdpr:s:{n}") for n in range(15, 21)} <= carved
