"""The typed-edge rules on small hand-written text, one drafting style at a time: Thai
มาตรา, English common-law sections, EU articles, Japanese 第N条.

Each test names the general drafting pattern it checks; none is copied from one law.
"""

from __future__ import annotations

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.graph import RelType
from ingest.models import Division, Law
from ingest.readers.base import chapter_division, make_section
from ingest.rules import (
    Exemption,
    Penalty,
    find_definitions,
    find_exemptions,
    find_penalties,
    find_term_uses,
    link_general_penalties,
)
from ingest.xrefs import extract_citations, resolve_citation

Texts = dict[str, str]


def _law(
    texts: Texts,
    language: str,
    *,
    law_id: str = "test-law",
    chapters: dict[str, list[str]] | None = None,
) -> Law:
    """A law of `texts` (section number -> text); `chapters` puts sections in divisions
    ("Part 3" in English, "หมวด ๓" in Thai, "第三章" in Japanese)."""
    divisions: list[Division] = []
    chapter_of: dict[str, str] = {}
    for order, (number, members) in enumerate((chapters or {}).items(), start=1):
        division = chapter_division(law_id, number, f"Part {number}", "", order)
        divisions.append(division)
        chapter_of.update({member: division.key for member in members})
    unit = "Section" if language == "en" else None
    sections = [
        make_section(
            law_id, n, t, language=language, order=i, unit=unit, chapter_key=chapter_of.get(n)
        )
        for i, (n, t) in enumerate(texts.items(), start=1)
    ]
    title = {
        "th": "พระราชบัญญัติทดสอบ พ.ศ. 2560",
        "en": "Test Act 2020",
        "ja": "個人情報の保護に関する法律",
    }
    return Law(
        id=law_id,
        title=title[language],
        language=language,
        jurisdiction="XX",
        source="test",
        divisions=divisions,
        sections=sections,
    )


def _resolutions(law: Law, number: str) -> list:  # type: ignore[type-arg]
    corpus = CorpusIndex.from_laws([law])
    section = next(s for s in law.sections if s.number == number)
    return [resolve_citation(c, law, corpus) for c in extract_citations(section, law, corpus)]


def _penalties(law: Law, number: str) -> list[Penalty]:
    section = next(s for s in law.sections if s.number == number)
    return find_penalties(section, law, _resolutions(law, number))


def _breached(law: Law, number: str) -> set[str]:
    return {key.rsplit(":s:", 1)[1] for p in _penalties(law, number) for key in p.breached}


def _exemptions(law: Law, number: str) -> list[Exemption]:
    section = next(s for s in law.sections if s.number == number)
    return find_exemptions(section, law, _resolutions(law, number))


def _carved(exemptions: list[Exemption]) -> set[str]:
    return {key.rsplit(":s:", 1)[1] for e in exemptions for key in e.exempts_from}


_TH = {str(n): "ข้อความ" for n in range(1, 16)}


# --- Thai penalties -------------------------------------------------------------------------


def test_thai_fine_as_pinai_is_a_non_criminal_penalty_for_the_section_not_complied_with() -> None:
    law = _law(
        {**_TH, "20": "ผู้ใดไม่ปฏิบัติตามมาตรา 1 มีความผิดทางพินัยต้องชำระค่าปรับเป็นพินัยไม่เกินห้าหมื่นบาท"}, "th"
    )
    [penalty] = _penalties(law, "20")
    assert (penalty.kind, penalty.max_fine_thb) == ("administrative", 50_000)
    assert _breached(law, "20") == {"1"}


def test_thai_administrative_fine_an_authority_may_impose_is_a_penalty() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ใดไม่ปฏิบัติตามคำสั่งของอธิบดีตามมาตรา 2 ให้อธิบดีมีอำนาจพิจารณามีคำสั่งลงโทษปรับทางปกครองไม่เกินหนึ่งแสนบาท",
        },
        "th",
    )
    [penalty] = _penalties(law, "20")
    assert (penalty.kind, penalty.max_fine_thb) == ("administrative", 100_000)
    assert _breached(law, "20") == {"2"}


def test_thai_doing_business_without_the_licence_a_section_requires_breaches_it() -> None:
    law = _law({**_TH, "20": "ผู้ใดประกอบธุรกิจโดยมิได้รับอนุญาตตามมาตรา 2 ต้องระวางโทษจำคุกไม่เกินสองปี"}, "th")
    assert _breached(law, "20") == {"2"}


def test_thai_false_statement_in_what_a_section_requires_breaches_it() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ใดแจ้งรายละเอียดตามมาตรา 3 วรรคสอง อันเป็นเท็จ ต้องระวางโทษจำคุกไม่เกินสามเดือน",
            "21": "ผู้ใดแสดงข้อความอันเป็นเท็จในแบบแสดงรายการที่ยื่นตามมาตรา 4 ต้องระวางโทษปรับไม่เกินหนึ่งแสนบาท",
        },
        "th",
    )
    assert _breached(law, "20") == {"3"}
    assert _breached(law, "21") == {"4"}


def test_thai_order_given_under_a_section_is_linked_not_the_appointment_of_who_gave_it() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ใดไม่ปฏิบัติตามคำสั่งของคณะกรรมการ หรือบุคคลซึ่งคณะกรรมการแต่งตั้งตามมาตรา 4 ที่สั่งการตามมาตรา 5 ต้องระวางโทษจำคุกไม่เกินหนึ่งปี",
        },
        "th",
    )
    assert _breached(law, "20") == {"5"}


def test_thai_obstructing_an_official_acting_under_a_section_is_linked_to_it() -> None:
    law = _law(
        {**_TH, "20": "ผู้ใดขัดขวางพนักงานเจ้าหน้าที่ซึ่งปฏิบัติหน้าที่ตามมาตรา 6 ต้องระวางโทษจำคุกไม่เกินหนึ่งปี"}, "th"
    )
    assert _breached(law, "20") == {"6"}


def test_thai_abetting_the_offences_of_other_sections_is_linked_to_them() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ใดก่อให้ผู้อื่นกระทำความผิดตามที่บัญญัติในมาตรา 7 หรือมาตรา 8 ต้องระวางโทษเช่นเดียวกับตัวการ",
        },
        "th",
    )
    assert _breached(law, "20") == {"7", "8"}


def test_thai_section_that_only_describes_the_offender_is_not_breached() -> None:
    law = _law(
        {
            **_TH,
            "20": "กรรมการ หรือบุคคลใดซึ่งรับผิดชอบในการดำเนินงานของนิติบุคคลใดตามมาตรา 9 ผู้ใดโดยทุจริตยักยอกทรัพย์สินของนิติบุคคลนั้น ต้องระวางโทษจำคุกไม่เกินสิบปี",
            "21": "ผู้สอบบัญชีผู้ใดของบริษัทที่ออกหลักทรัพย์ตามมาตรา 13 ปฏิบัติงานไม่เป็นไปตามมาตรฐาน ต้องระวางโทษปรับไม่เกินห้าแสนบาท",
            "22": "ผู้ใดส่งข้อมูลส่วนบุคคลตามมาตรา 14 ไปต่างประเทศโดยไม่เป็นไปตามมาตรา 15 ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท",
        },
        "th",
    )
    assert _breached(law, "20") == set()
    assert _breached(law, "21") == set()  # the company issued securities under s.13
    assert _breached(law, "22") == {"15"}  # s.14 only says which data


def test_thai_person_a_section_obliges_failing_to_act_breaches_it() -> None:
    law = _law(
        {
            **_TH,
            "20": "บุคคลตามมาตรา 10 วรรคสอง ละเลยไม่ดำเนินการจดทะเบียน ต้องระวางโทษเช่นเดียวกับวรรคหนึ่ง",
        },
        "th",
    )
    assert _breached(law, "20") == {"10"}


def test_thai_items_a_clause_says_are_falsified_are_each_breached() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ใดมีหน้าที่ส่งเอกสารหรือข้อมูลดังต่อไปนี้แสดงข้อความอันเป็นเท็จ ต้องระวางโทษจำคุกไม่เกินสองปี\n(1) เอกสารที่ส่งต่อสำนักงานตามมาตรา 11\n(2) รายงานที่เปิดเผยตามมาตรา 12",
        },
        "th",
    )
    assert _breached(law, "20") == {"11", "12"}


def test_thai_breach_of_the_provisions_of_a_chapter_reaches_its_duty_sections() -> None:
    law = _law(
        {
            "1": "ผู้ประกอบการต้องยื่นแบบ",
            "2": "ให้รัฐมนตรีรักษาการ",
            "3": "ผู้ใดไม่ยื่นแบบ ต้องระวางโทษปรับไม่เกินหนึ่งพันบาท",
            "4": "ผู้ใดเพื่อหลีกเลี่ยงไม่ปฏิบัติตามบทบัญญัติแห่งหมวดนี้ ต้องระวางโทษปรับไม่เกินสองร้อยบาท",
        },
        "th",
        chapters={"1": ["1", "2", "3", "4"]},
    )
    # s.2 lays no duty down; s.3 carries a penalty of its own
    assert _breached(law, "4") == {"1"}


# --- English (common-law) penalties ----------------------------------------------------------


def test_common_law_subsection_is_a_clause_of_its_own_and_its_duty_is_in_its_section() -> None:
    law = _law(
        {
            "1": "(1) An organisation must report every breach to the Commission.\n(2) An organisation which contravenes subsection (1) shall be guilty of an offence and shall be liable on conviction to a fine not exceeding $10,000.",
        },
        "en",
    )
    [penalty] = _penalties(law, "1")
    assert penalty.text.startswith("(2)")
    assert (penalty.kind, penalty.max_fine, penalty.currency) == ("criminal", 10_000, "SGD")
    assert penalty.breached == ()


def test_financial_penalty_for_any_provision_of_listed_parts_reaches_their_duties() -> None:
    law = _law(
        {
            "11": "An organisation must develop policies.",
            "12": "This Part applies to every organisation.",
            "13": "(1) An organisation must not sell data.\n(2) An organisation which contravenes subsection (1) shall be guilty of an offence and shall be liable on conviction to a fine not exceeding $5,000.",
            "20": "(1) A person must not send a message.",
            "21": "A person must keep a register.",
            "30": "(1) The Commission may, if it is satisfied that —\n(a) an organisation has contravened any provision of Part 3;\n(b) a person has contravened —\n(i) any provision of Part 9;\n(ii) section 20(1),\nrequire the organisation or person to pay a financial penalty.",
        },
        "en",
        chapters={"3": ["11", "12", "13"], "9": ["21"], "10": ["20", "30"]},
    )
    [penalty] = _penalties(law, "30")
    assert penalty.kind == "administrative"
    assert _breached(law, "30") == {"11", "21", "20"}


def test_general_penalty_reaches_offences_that_state_no_penalty() -> None:
    law = _law(
        {
            "5": "(1) A specified person must preserve secrecy.\n(2) A person who fails to comply with subsection (1) shall be guilty of an offence.",
            "6": "(1) A person shall be guilty of an offence if the person makes a false request.\n(2) A person guilty of an offence under subsection (1) shall be liable on conviction to a fine not exceeding $5,000.",
            "7": "A person guilty of an offence under this Act for which no penalty is expressly provided shall be liable on conviction to a fine not exceeding $10,000.",
        },
        "en",
    )
    corpus = CorpusIndex.from_laws([law])
    found = [
        p
        for s in law.sections
        for p in find_penalties(
            s, law, [resolve_citation(c, law, corpus) for c in extract_citations(s, law, corpus)]
        )
    ]
    general = next(p for p in link_general_penalties(found) if p.general)
    assert general.breached == (f"{law.id}:s:5",)  # s.6 states its own penalty


def test_non_compliance_with_an_order_referred_to_in_an_article_breaches_it() -> None:
    law = _law(
        {
            "58": "The supervisory authority shall have the power to order compliance.",
            "83": "6. Non-compliance with an order by the supervisory authority as referred to in Article 58(2) shall be subject to administrative fines up to 20 000 000 EUR.",
        },
        "en",
    )
    [penalty] = _penalties(law, "83")
    assert (penalty.kind, penalty.max_fine, penalty.currency) == (
        "administrative",
        20_000_000,
        "EUR",
    )
    assert _breached(law, "83") == {"58"}


def test_english_request_under_and_offence_under_a_section_are_linked() -> None:
    law = _law(
        {
            "5": "A person must not tamper with records.",
            "21": "An organisation must give access on request.",
            "50": "(1) A person shall be guilty of an offence if the person —\n(a) makes a request under section 21(1) without the authority of the individual.\n(2) A person who commits an offence under section 5 is liable on conviction to a fine not exceeding $1,000.",
        },
        "en",
    )
    assert _breached(law, "50") == {"21", "5"}


# --- Japanese penalties ----------------------------------------------------------------------


def test_japanese_corporate_liability_lists_the_articles_with_their_fines() -> None:
    law = _law(
        {
            "10": "第五条の規定に違反した者は、一年以下の拘禁刑に処する。",
            "11": "第六条の規定による報告をせず、又は虚偽の報告をした者は、五十万円以下の罰金に処する。",
            "12": "法人の代表者が、その法人の業務に関して、次の各号に掲げる違反行為をしたときは、行為者を罰するほか、その法人に対して当該各号に定める罰金刑を科する。\n  1. 第十条一億円以下の罰金刑\n  2. 第十一条同条の罰金刑",
            "5": "秘密を漏らしてはならない。",
            "6": "報告しなければならない。",
        },
        "ja",
    )
    [penalty] = _penalties(law, "12")
    assert penalty.kind == "criminal"
    assert _breached(law, "12") == {"10", "11"}
    assert _breached(law, "11") == {"6"}


def test_japanese_article_that_only_describes_the_offender_is_not_breached() -> None:
    law = _law(
        {
            "5": "職員は、秘密を漏らしてはならない。",
            "9": "第五条に規定する者が、不正な利益を図る目的で提供したときは、一年以下の拘禁刑又は五十万円以下の罰金に処する。",
        },
        "ja",
    )
    assert _breached(law, "9") == set()


def test_japanese_breach_of_the_provisions_of_this_chapter_reaches_its_duties() -> None:
    law = _law(
        {
            "1": "事業者は、記録を作成しなければならない。",
            "2": "この章は、事業者に適用する。",
            "3": "この章の規定に違反した者は、十万円以下の過料に処する。",
        },
        "ja",
        chapters={"4": ["1", "2", "3"]},
    )
    [penalty] = _penalties(law, "3")
    assert (penalty.kind, penalty.max_fine, penalty.currency) == ("administrative", 100_000, "JPY")
    assert _breached(law, "3") == {"1"}


# --- definitions -------------------------------------------------------------------------------


def test_japanese_definition_and_its_chapter_scope_limit_term_uses() -> None:
    law = _law(
        {
            "2": "この法律において「個人情報」とは、生存する個人に関する情報をいう。",
            "16": "この章において「個人データ」とは、データベースを構成する個人情報をいう。",
            "17": "事業者は、個人データを安全に管理しなければならない。",
            "60": "行政機関は、個人データ及び個人情報を適正に取り扱う。",
        },
        "ja",
        chapters={"1": ["2"], "4": ["16", "17"], "5": ["60"]},
    )
    definitions = {d.term: d for d in find_definitions(law)}
    assert definitions["個人情報"].scope == "law"
    assert (definitions["個人データ"].scope, definitions["個人データ"].scope_keys) == (
        "chapter",
        (f"{law.id}:ch:4",),
    )
    uses = set(find_term_uses(law, list(definitions.values())))
    assert (f"{law.id}:s:17", f"{law.id}:def:個人データ") in uses
    assert (f"{law.id}:s:60", f"{law.id}:def:個人データ") not in uses  # outside chapter 4
    assert (f"{law.id}:s:60", f"{law.id}:def:個人情報") in uses


def test_thai_definition_forms_and_chapter_scope() -> None:
    law = _law(
        {
            "1": "ในพระราชบัญญัตินี้\n“ผู้ประกอบการ” หมายความว่า บุคคลซึ่งประกอบกิจการ",
            "2": "ทรัพย์ หมายความว่า วัตถุมีรูปร่าง",
            "3": "ในหมวดนี้ คำว่า “ผู้รับประกันภัย” ท่านหมายความว่า คู่สัญญาฝ่ายซึ่งตกลงจะใช้ค่าสินไหมทดแทน",
            "4": "ผู้รับประกันภัยต้องจ่ายค่าสินไหมทดแทน",
            "5": "ผู้รับประกันภัยและผู้ประกอบการต้องแจ้งนายทะเบียน\nค่าสินไหมทดแทนตามวรรคหนึ่ง ให้หมายความรวมถึงค่าใช้จ่าย",
        },
        "th",
        chapters={"1": ["1", "2", "5"], "2": ["3", "4"]},
    )
    definitions = {d.term: d for d in find_definitions(law)}
    assert set(definitions) == {"ผู้ประกอบการ", "ทรัพย์", "ผู้รับประกันภัย"}  # not the paragraph note
    assert definitions["ผู้รับประกันภัย"].scope == "chapter"
    uses = set(find_term_uses(law, list(definitions.values())))
    assert (f"{law.id}:s:4", f"{law.id}:def:ผู้รับประกันภัย") in uses
    assert (f"{law.id}:s:5", f"{law.id}:def:ผู้รับประกันภัย") not in uses
    assert (f"{law.id}:s:5", f"{law.id}:def:ผู้ประกอบการ") in uses


def test_english_flattened_definitions_each_get_their_own_text_and_part_scope() -> None:
    law = _law(
        {
            "2": "(1) In this Act, unless the context otherwise requires — “business” includes any activity; “Commission” means the Personal Data Protection Commission; “document” means information recorded in any form;",
            "36": "In this Part, “message” means any message, whether in sound or text;",
        },
        "en",
        chapters={"1": ["2"], "9": ["36"]},
    )
    definitions = {d.term: d for d in find_definitions(law)}
    assert definitions["Commission"].text == "the Personal Data Protection Commission"
    assert definitions["document"].text == "information recorded in any form"
    assert (definitions["message"].scope, definitions["message"].scope_keys) == (
        "chapter",
        (f"{law.id}:ch:9",),
    )
    graph = build_graph(law, CorpusIndex.from_laws([law]))
    scopes = {
        n.props["term"]: n.props["scope"] for n in graph.nodes if n.label.value == "Definition"
    }
    assert scopes["message"] == "chapter" and scopes["Commission"] == "law"


def test_definition_text_takes_the_list_its_line_opens_and_stops_at_the_next() -> None:
    thai = _law(
        {
            "4": "ในพระราชบัญญัตินี้\n“บริษัทลูก” หมายความว่า\n(1) บริษัทที่มีบริษัทอื่นเป็นบริษัทแม่ หรือ\n(2) บริษัทลูกของบริษัทตาม (1)\n“บริษัทร่วม” หมายความว่า บริษัทลูกที่มีบริษัทแม่ร่วมกัน",
            "5": "ในหมวดนี้\n(1) “บุคคล” หมายความว่า บุคคลธรรมดา หรือนิติบุคคล\n(2) “ภาษีซื้อ” หมายความว่า ภาษีที่ถูกเรียกเก็บ และให้หมายความรวมถึง\n(ก) ภาษีที่ได้เสียเมื่อนำเข้า\n(ข) ภาษีที่ได้นำส่ง\n(3) “ผู้ส่งออก” หมายความว่า ผู้ประกอบการซึ่งส่งออก",
        },
        "th",
    )
    texts = {d.term: d.text for d in find_definitions(thai)}
    assert texts["บริษัทลูก"] == "(1) บริษัทที่มีบริษัทอื่นเป็นบริษัทแม่ หรือ (2) บริษัทลูกของบริษัทตาม (1)"
    assert texts["บุคคล"] == "บุคคลธรรมดา หรือนิติบุคคล"  # not the next item "(2)"
    assert texts["ภาษีซื้อ"].endswith("(ก) ภาษีที่ได้เสียเมื่อนำเข้า (ข) ภาษีที่ได้นำส่ง")
    english = _law(
        {
            "2": "(1) In this Act — “organisation” includes any body, whether or not —\n(a) formed in Singapore;\n(b) resident in Singapore; “personal data” means data about an individual;\n“user data” means data provided by an individual. [22/2016]\n(2) The Minister may specify any statutory body.",
            "4": "For the purposes of this Regulation:\n\n(16)\n\n‘main establishment’ means:\n\n(a)\n\nas regards a controller, the place of its central administration;\n\n(b)\n\nas regards a processor, the place of its central administration;\n\n(17)\n\n‘representative’ means a natural or legal person;",
        },
        "en",
    )
    texts = {d.term: d.text for d in find_definitions(english)}
    assert texts["organisation"] == (
        "any body, whether or not — (a) formed in Singapore; (b) resident in Singapore"
    )
    assert texts["user data"] == "data provided by an individual. [22/2016]"  # not "(2) …"
    assert texts["main establishment"] == (
        ": (a) as regards a controller, the place of its central administration; (b) as regards"
        " a processor, the place of its central administration"
    )  # not the next definition's "(17)"


def test_japanese_definition_text_ends_outside_brackets_and_takes_its_items() -> None:
    law = _law(
        {
            "16": "この章において「データベース等」とは、個人情報を含む情報の集合物であって、次に掲げるもの（政令で定めるものを除く。）をいう。\n  1. 電子計算機を用いて検索することができるもの\n  2. 容易に検索することができるもの\nこの章において「取扱事業者」とは、情報の集合物（第四十一条において「データベース」という。）を事業の用に供している者をいう。",
        },
        "ja",
    )
    texts = {d.term: d.text for d in find_definitions(law)}
    assert texts["データベース等"] == (
        "個人情報を含む情報の集合物であって、次に掲げるもの（政令で定めるものを除く。）をいう。"
        " 1. 電子計算機を用いて検索することができるもの 2. 容易に検索することができるもの"
    )
    assert texts["取扱事業者"].endswith("を事業の用に供している者をいう。")


def test_thai_civil_code_framed_term_is_the_term_inside_the_frame() -> None:
    law = _law({"1": "อันผู้ทรงนั้น หมายความว่า บุคคลผู้มีตั๋วเงินไว้ในครอบครอง", "2": "ผู้ทรงอาจโอนตั๋วเงิน"}, "th")
    definitions = find_definitions(law)
    assert [d.term for d in definitions] == ["ผู้ทรง"]
    assert (f"{law.id}:s:2", f"{law.id}:def:ผู้ทรง") in set(find_term_uses(law, definitions))


# --- exemptions -------------------------------------------------------------------------------


def test_japanese_not_apply_names_the_articles_or_its_own_paragraphs() -> None:
    law = _law(
        {
            "10": "事業者は、記録しなければならない。",
            "11": "事業者は、通知しなければならない。ただし、緊急の場合は、この限りでない。\n前項の規定は、次に掲げる場合については、適用しない。",
            "12": "仮名加工情報については、第十条及び第十一条の規定は、適用しない。",
        },
        "ja",
    )
    exemptions = _exemptions(law, "11")
    assert [e.kind for e in exemptions] == ["except", "not_apply"]
    assert _carved(exemptions) == {"11"}
    assert _carved(_exemptions(law, "12")) == {"10", "11"}


def test_japanese_chapter_wide_exemption_reaches_its_articles() -> None:
    law = _law(
        {
            "20": "事業者は、記録しなければならない。",
            "21": "事業者は、通知しなければならない。",
            "22": "報道機関が報道の用に供する目的で取り扱うときは、この章の規定は、適用しない。",
        },
        "ja",
        chapters={"4": ["20", "21", "22"]},
    )
    assert _carved(_exemptions(law, "22")) == {"20", "21"}


def test_english_exemptions_own_subsection_derogation_parts_and_except() -> None:
    law = _law(
        {
            "4": "(1) Parts 3 and 4 do not apply to business contact information.",
            "9": "1. Processing of health data shall be prohibited.",
            "11": "An organisation must appoint an officer.",
            "13": "An organisation must obtain consent except where the law requires otherwise.",
            "20": "(1) An organisation must notify.\n(2) Subsection (1) does not apply where the data is public.",
            "30": "By way of derogation from Article 9(1), processing shall be lawful for archiving.",
        },
        "en",
        chapters={"3": ["11"], "4": ["13"]},
    )
    assert _carved(_exemptions(law, "4")) == {"11", "13"}
    assert _carved(_exemptions(law, "20")) == {"20"}
    assert [(e.kind, _carved([e])) for e in _exemptions(law, "30")] == [("exempt", {"9"})]
    assert [e.kind for e in _exemptions(law, "13")] == ["except"]


def test_thai_exemption_granted_outright_but_not_a_mention_of_one() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ควบคุมอาจส่งข้อมูลไปต่างประเทศได้ โดยได้รับยกเว้นไม่ต้องปฏิบัติตามมาตรา 5",
            "21": "ในกรณีที่ผู้ควบคุมใช้ข้อมูลที่ได้รับยกเว้นตามวรรคหนึ่ง ให้บันทึกไว้",
        },
        "th",
    )
    [granted] = _exemptions(law, "20")
    assert (granted.kind, _carved([granted])) == ("exempt", {"5"})
    assert _exemptions(law, "21") == []


def test_thai_not_apply_names_what_is_not_applied_in_each_word_order() -> None:
    law = _law(
        {
            **_TH,
            # "มิให้นำ X มาใช้บังคับ": X, not the section cited earlier for context
            "20": "เพื่อให้ดำเนินงานได้ต่อไปตามมาตรา 1 มิให้นำมาตรา 2 มาใช้บังคับกับบริษัท",
            # "X มิให้นำมาใช้บังคับ": X, before the verb
            "21": "ผู้ควบคุมต้องแจ้ง\nความในวรรคหนึ่งมิให้นำมาใช้บังคับแก่การเปิดเผยตามมาตรา 3",
            # "ให้นำ … มาใช้บังคับ … แต่ … ตามมาตรา 4 มิให้ใช้บังคับกับ": only the clause after แต่
            "22": "ให้นำมาตรา 5 และมาตรา 6 มาใช้บังคับแก่คณะกรรมการโดยอนุโลม แต่ข้อห้ามตามมาตรา 4 มิให้ใช้บังคับกับกรรมการ",
            # "ไม่อยู่ในบังคับ…ตาม X": X comes after
            "23": "นอกจากกรณีตามมาตรา 7 กิจการที่ได้รับยกเว้นตามมาตรา 8 ย่อมไม่อยู่ในบังคับต้องเสียภาษีตามมาตรา 9",
            # only describing: "สิทธิ … ตามมาตรา 10 ที่ไม่อยู่ในบังคับอายุความ"
            "24": "สิทธิเรียกร้องตามมาตรา 10 ที่ไม่อยู่ในบังคับอายุความสองปี มีอายุความห้าปี",
        },
        "th",
    )
    assert _carved(_exemptions(law, "20")) == {"2"}
    assert _carved(_exemptions(law, "21")) == {"21"}
    assert _carved(_exemptions(law, "22")) == {"4"}
    assert _carved(_exemptions(law, "23")) == {"9"}
    assert _carved(_exemptions(law, "24")) == set()


def test_thai_exemption_that_is_denied_is_not_granted() -> None:
    law = _law(
        {
            **_TH,
            "20": "ผู้ประกอบกิจการไม่ได้รับยกเว้นการจดทะเบียนตามมาตรา 1 ต้องจดทะเบียน",
            "21": "การชำระภาษีเป็นงวดไม่เป็นเหตุให้ยกเว้นการเสียเงินเพิ่มตามมาตรา 2",
        },
        "th",
    )
    assert _exemptions(law, "20") == [] and _exemptions(law, "21") == []


def test_thai_chapter_that_does_not_apply_reaches_its_sections() -> None:
    law = _law(
        {
            "1": "ผู้ควบคุมต้องแจ้ง",
            "2": "ผู้ควบคุมต้องบันทึก",
            "9": "บทบัญญัติในหมวด 1 มิให้ใช้บังคับแก่การใช้ข้อมูลเพื่อประโยชน์ส่วนตน",
        },
        "th",
        chapters={"1": ["1", "2"], "2": ["9"]},
    )
    assert _carved(_exemptions(law, "9")) == {"1", "2"}


# --- what the graph gets --------------------------------------------------------------------


def test_graph_links_a_general_penalty_and_a_part_wide_penalty() -> None:
    law = _law(
        {
            "11": "An organisation must develop policies.",
            "59": "(1) A specified person must preserve secrecy.\n(2) A person who fails to comply with subsection (1) shall be guilty of an offence.",
            "56": "A person guilty of an offence under this Act for which no penalty is expressly provided shall be liable on conviction to a fine not exceeding $10,000.",
            "48": "(1) The Commission may, if it is satisfied that an organisation has intentionally or negligently contravened any provision of Part 3, require the organisation to pay a financial penalty.",
        },
        "en",
        chapters={"3": ["11"]},
    )
    graph = build_graph(law, CorpusIndex.from_laws([law]))
    penalizes = {
        (e.source.rsplit(":s:", 1)[1], e.target.rsplit(":s:", 1)[1])
        for e in graph.edges
        if e.type is RelType.PENALIZES
    }
    assert penalizes == {("56", "59"), ("48", "11")}
