"""Chunk and profile texts (seed article, Steps 1 and 3): context prefixes, both edge
directions in node profiles, short texts, payloads that carry the version."""

from __future__ import annotations

import pytest

from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType
from ingest.models import Division, Law, Section
from services.core.profiles import (
    MAX_NAMES_PER_RELATION,
    chunk_documents,
    chunk_text,
    edge_key,
    node_kind,
    paragraph_documents,
    profile_documents,
    reading_units,
)

LAW = "th-pdpa-2562"
S26 = f"{LAW}:s:26"
S84 = f"{LAW}:s:84"
S6 = f"{LAW}:s:6"
CH2 = f"{LAW}:ch:2"
PT2 = f"{LAW}:ch:2:pt:2"
CH7 = f"{LAW}:ch:7"
TEXT_26 = (
    "ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคลเกี่ยวกับเชื้อชาติ เผ่าพันธุ์ ความคิดเห็นทางการเมือง "
    "ข้อมูลสุขภาพ ความพิการ โดยไม่ได้รับความยินยอมโดยชัดแจ้งจากเจ้าของข้อมูลส่วนบุคคล เว้นแต่\n"
    "(๑) เพื่อป้องกันหรือระงับอันตรายต่อชีวิต ร่างกาย หรือสุขภาพของบุคคล"
)
TEXT_84 = "ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนมาตรา ๒๖ วรรคหนึ่งหรือวรรคสาม ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท"


def mini_pdpa() -> tuple[Law, LawGraph]:
    """Three PDPA sections, their chapter/part, a definition, a penalty and the s.84 -> s.26
    citation, shaped the way ingest/build.py shapes them."""
    law = Law(
        id=LAW,
        title="พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒",
        language="th",
        jurisdiction="TH",
        source="test",
        short_name="PDPA",
        divisions=[
            Division("chapter", CH2, "2", "หมวด ๒", "การคุ้มครองข้อมูลส่วนบุคคล"),
            Division("part", PT2, "2", "ส่วนที่ ๒", "การเก็บรวบรวมข้อมูลส่วนบุคคล", CH2),
            Division("chapter", CH7, "7", "หมวด ๗", "บทกำหนดโทษ"),
        ],
        sections=[
            Section(S6, "6", "มาตรา ๖", "“ข้อมูลส่วนบุคคล” หมายความว่า ข้อมูลเกี่ยวกับบุคคล", order=6),
            Section(S26, "26", "มาตรา ๒๖", TEXT_26, chapter_key=CH2, part_key=PT2, order=26),
            Section(S84, "84", "มาตรา ๘๔", TEXT_84, chapter_key=CH7, order=84),
        ],
    )
    definition = f"{LAW}:def:ข้อมูลส่วนบุคคล"
    penalty = f"{LAW}:pen:84:1"
    nodes = [
        Node(NodeLabel.LAW, LAW, {"title": law.title}),
        Node(NodeLabel.CHAPTER, CH2, {"label": "หมวด ๒", "title": "การคุ้มครองข้อมูลส่วนบุคคล"}),
        Node(NodeLabel.PART, PT2, {"label": "ส่วนที่ ๒", "title": "การเก็บรวบรวมข้อมูลส่วนบุคคล"}),
        Node(NodeLabel.CHAPTER, CH7, {"label": "หมวด ๗", "title": "บทกำหนดโทษ"}),
        *(
            Node(NodeLabel.SECTION, s.key, {"label": s.label, "number": s.number})
            for s in law.sections
        ),
        Node(NodeLabel.DEFINITION, definition, {"term": "ข้อมูลส่วนบุคคล", "text": "ข้อมูลเกี่ยวกับบุคคล"}),
        Node(
            NodeLabel.PENALTY,
            penalty,
            {
                "section": "84",
                "index": 1,
                "kind": "administrative",
                "text": "ปรับทางปกครองไม่เกินห้าล้านบาท",
                "max_fine_thb": 5_000_000,
            },
        ),
    ]
    sec = NodeLabel.SECTION
    edges = [
        Edge(RelType.HAS_CHAPTER, NodeLabel.LAW, LAW, NodeLabel.CHAPTER, CH2),
        Edge(RelType.HAS_PART, NodeLabel.CHAPTER, CH2, NodeLabel.PART, PT2),
        Edge(RelType.CONTAINS, NodeLabel.PART, PT2, sec, S26),
        Edge(RelType.CONTAINS, NodeLabel.CHAPTER, CH7, sec, S84),
        Edge(RelType.NEXT, sec, S26, sec, S84),
        Edge(RelType.REFERENCES, sec, S84, sec, S26, {"paragraphs": [1, 3]}),
        Edge(
            RelType.PENALIZES,
            sec,
            S84,
            sec,
            S26,
            {"kind": "administrative", "max_fine_thb": 5_000_000},
        ),
        Edge(RelType.PRESCRIBES, sec, S84, NodeLabel.PENALTY, penalty),
        Edge(RelType.DEFINES, sec, S6, NodeLabel.DEFINITION, definition),
        Edge(RelType.USES_TERM, sec, S26, NodeLabel.DEFINITION, definition),
    ]
    return law, LawGraph(law_id=LAW, nodes=nodes, edges=edges)


def _by_key(docs):
    return {d.key: d for d in docs}


def test_chunk_text_carries_law_chapter_and_part_context():
    law, _ = mini_pdpa()
    text = chunk_text(law, law.sections[1])
    assert text.startswith(
        "[พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒] [หมวด ๒ การคุ้มครองข้อมูลส่วนบุคคล] "
        "[ส่วนที่ ๒ การเก็บรวบรวมข้อมูลส่วนบุคคล] มาตรา ๒๖\n"
    )
    assert text.endswith(TEXT_26)


def test_section_outside_any_chapter_has_only_the_law_as_context():
    law, _ = mini_pdpa()
    assert chunk_text(law, law.sections[0]).startswith(f"[{law.title}] มาตรา ๖\n")


def test_every_section_is_one_chunk_however_long():
    law, _ = mini_pdpa()
    long_text = "ข้อความยาว " * 5000
    law.sections.append(Section(f"{LAW}:s:95", "95", "มาตรา ๙๕", long_text, order=95))
    docs = chunk_documents(law, "abc123def456")
    assert [d.key for d in docs] == [s.key for s in law.sections]
    assert docs[-1].text.endswith(long_text)  # the embedder, not the chunker, truncates


def test_paragraphs_are_one_document_each_under_their_section_s_heading():
    law, _ = mini_pdpa()
    docs = [d for d in paragraph_documents(law, "abc123def456") if d.payload["section"] == S26]
    heading = chunk_text(law, law.sections[1]).split("\n")[0]
    assert [d.key for d in docs] == [f"{S26}#p1", f"{S26}#p2"]  # TEXT_26 has two lines
    assert [d.text for d in docs] == [f"{heading}\n{line}" for line in TEXT_26.split("\n")]
    assert docs[1].payload == {
        "law": LAW,
        "version": "abc123def456",
        "law_version": f"{LAW}@abc123def456",
        "kind": "paragraph",
        "key": f"{S26}#p2",
        "label": "มาตรา ๒๖",
        "section": S26,
    }


def test_a_clause_is_read_after_the_line_that_opens_its_list():
    # EUR-Lex puts "(a)" on a line of its own above the clause's words.
    text = (
        "1.\u00a0\u00a0\u00a0Processing shall be lawful only if:\n\n(a)\n\nconsent is given;\n\n"
        "(b)\n\nit is needed for a contract.\n\nPoint (b) does not apply to authorities.\n\n"
        "2.\u00a0\u00a0\u00a0Member States may keep their rules."
    )
    section = Section("eu-gdpr:s:6", "6", "Article 6", text)
    assert reading_units(section) == [
        "1. Processing shall be lawful only if:",
        "1. Processing shall be lawful only if: (a) consent is given;",
        "1. Processing shall be lawful only if: (b) it is needed for a contract.",
        "Point (b) does not apply to authorities.",
        "2. Member States may keep their rules.",
    ]


def test_a_list_ends_at_a_clause_of_its_opening_line_s_kind_and_a_lone_dash_is_no_unit():
    text = (
        "—\n(1) This Act does not apply to —\n(a) any individual acting in a personal capacity;\n"
        "(b) any public agency.\n(2) The Commission administers this Act.\n(a) a clause of no list"
    )
    section = Section("sg-pdpa-2012:s:4", "4", "Section 4", text)
    assert reading_units(section) == [
        "(1) This Act does not apply to —",
        "(1) This Act does not apply to — (a) any individual acting in a personal capacity;",
        "(1) This Act does not apply to — (b) any public agency.",
        "(2) The Commission administers this Act.",
        "(a) a clause of no list",
    ]


def test_chunk_payload_carries_law_version_kind_key_and_label():
    law, _ = mini_pdpa()
    payload = _by_key(chunk_documents(law, "abc123def456"))[S26].payload
    assert payload == {
        "law": LAW,
        "version": "abc123def456",
        "law_version": f"{LAW}@abc123def456",
        "kind": "section",
        "key": S26,
        "label": "มาตรา ๒๖",
        "number": "26",
    }


def test_section_profile_names_the_penalty_sections_that_cite_it():
    law, graph = mini_pdpa()
    profile = _by_key(profile_documents(law, graph, "v1"))[S26].text
    assert profile.startswith("มาตรา ๒๖ (Section) [PDPA]: ห้ามมิให้เก็บรวบรวม")
    assert "PENALIZED_BY (บทกำหนดโทษ): มาตรา ๘๔" in profile
    assert "REFERENCED_BY (ถูกอ้างถึงโดย): มาตรา ๘๔" in profile
    assert "USES_TERM (ใช้คำว่า): ข้อมูลส่วนบุคคล" in profile
    assert "IN (อยู่ใน): ส่วนที่ ๒ การเก็บรวบรวมข้อมูลส่วนบุคคล" in profile
    assert "NEXT" not in profile


def test_penalty_section_profile_names_what_it_penalizes_and_the_fine():
    law, graph = mini_pdpa()
    docs = _by_key(profile_documents(law, graph, "v1"))
    assert "PENALIZES (โทษสำหรับการฝ่าฝืน): มาตรา ๒๖" in docs[S84].text
    penalty = docs[f"{LAW}:pen:84:1"]
    assert penalty.text.startswith("มาตรา ๘๔ โทษ 1 (Penalty)")
    assert "max_fine_thb=5000000" in penalty.text
    assert penalty.payload["kind"] == "penalty"


def test_penalizes_edge_profile_joins_both_sections_texts():
    law, graph = mini_pdpa()
    penalizes = next(e for e in graph.edges if e.type is RelType.PENALIZES)
    doc = _by_key(profile_documents(law, graph, "v1"))[edge_key(penalizes)]
    assert doc.text.startswith(
        "มาตรา ๘๔ -[PENALIZES (โทษสำหรับการฝ่าฝืน)]-> มาตรา ๒๖ "
        "(kind=administrative; max_fine_thb=5000000) [PDPA]: ห้ามมิให้เก็บรวบรวม"
    )
    assert "ข้อมูลสุขภาพ" in doc.text  # the target's words: a health-data question lands here
    assert "|| ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืน" in doc.text  # then the source's
    assert doc.payload["kind"] == "edge"
    assert (doc.payload["rel"], doc.payload["source"], doc.payload["target"]) == (
        "PENALIZES",
        S84,
        S26,
    )


def test_every_node_and_every_meaningful_edge_gets_one_profile():
    law, graph = mini_pdpa()
    docs = profile_documents(law, graph, "v1")
    skipped = {
        RelType.NEXT,
        RelType.CONTAINS,
        RelType.HAS_CHAPTER,
        RelType.HAS_PART,
        RelType.USES_TERM,
    }
    expected = [n.key for n in graph.nodes] + [
        edge_key(e) for e in graph.edges if e.type not in skipped
    ]
    assert [d.key for d in docs] == expected
    assert len({d.key for d in docs}) == len(docs)


def test_hub_profile_stays_short():
    law, graph = mini_pdpa()
    for i in range(100):
        key = f"{LAW}:s:{100 + i}"
        graph.nodes.append(Node(NodeLabel.SECTION, key, {"label": f"มาตรา {100 + i}"}))
        graph.edges.append(Edge(RelType.REFERENCES, NodeLabel.SECTION, key, NodeLabel.SECTION, S26))
    profile = _by_key(profile_documents(law, graph, "v1"))[S26].text
    assert f"(+{100 + 1 - MAX_NAMES_PER_RELATION})" in profile
    assert len(profile) < 1200


def test_profiles_are_deterministic():
    law, graph = mini_pdpa()
    assert profile_documents(law, graph, "v1") == profile_documents(law, graph, "v1")


def test_graph_of_another_law_is_refused():
    law, graph = mini_pdpa()
    graph.law_id = "eu-gdpr"
    with pytest.raises(ValueError, match="eu-gdpr"):
        profile_documents(law, graph, "v1")


def test_node_kind_is_snake_case_of_the_label():
    assert node_kind(NodeLabel.EXTERNAL_LAW) == "external_law"
    assert node_kind(NodeLabel.SECTION) == "section"
