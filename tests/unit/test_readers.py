from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest

from ingest.errors import InvalidSource
from ingest.models import Law, Section
from ingest.parse import merge_structure, read_source
from ingest.readers.sidataplus import read_marked_links
from ingest.structure import clause_kind, clause_path, place_at, split_paragraphs

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "th-pdpa-2562"
FIXTURES = REPO / "tests" / "fixtures"
# CI keeps a copy of shared/ beside the clone.
CORPUS = REPO.parent / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared/corpus not present")


def read_one(path: Path) -> Law:
    laws = read_source(path).laws
    assert len(laws) == 1
    return laws[0]


def section(law: Law, number: str) -> Section:
    return next(s for s in law.sections if s.number == number)


@pytest.fixture(scope="module")
def pdpa_markdown() -> Law:
    return read_one(DATA / "about.md")


@pytest.fixture(scope="module")
def pdpa_ocs() -> Law:
    return read_one(DATA / "pdpa_2562_ocs.json")


# --- PDPA, bundled sources --------------------------------------------------------------


def test_pdpa_markdown_has_96_sections_7_chapters_transitional_and_5_parts(
    pdpa_markdown: Law,
) -> None:
    chapters = [d for d in pdpa_markdown.divisions if d.kind == "chapter"]
    parts = [d for d in pdpa_markdown.divisions if d.kind == "part"]
    assert pdpa_markdown.id == "th-pdpa-2562"
    assert [s.number for s in pdpa_markdown.sections] == [str(n) for n in range(1, 97)]
    assert [c.number for c in chapters] == ["1", "2", "3", "4", "5", "6", "7", "transitional"]
    assert [p.key for p in parts] == [
        "th-pdpa-2562:ch:2:pt:1",
        "th-pdpa-2562:ch:2:pt:2",
        "th-pdpa-2562:ch:2:pt:3",
        "th-pdpa-2562:ch:7:pt:1",
        "th-pdpa-2562:ch:7:pt:2",
    ]


def test_pdpa_introduction_label_is_not_a_chapter(pdpa_markdown: Law) -> None:
    assert all(section(pdpa_markdown, str(n)).chapter_key is None for n in range(1, 8))
    assert section(pdpa_markdown, "8").chapter_key == "th-pdpa-2562:ch:1"
    assert all("บทนำ" not in d.title for d in pdpa_markdown.divisions)


def test_pdpa_section_26_sits_in_chapter_2_part_2_with_nested_clauses(pdpa_markdown: Law) -> None:
    s26 = section(pdpa_markdown, "26")
    assert (s26.key, s26.label) == ("th-pdpa-2562:s:26", "มาตรา ๒๖")
    assert (s26.chapter_key, s26.part_key) == ("th-pdpa-2562:ch:2", "th-pdpa-2562:ch:2:pt:2")
    first = s26.paragraphs[0]
    assert [c.number for c in first.clauses] == ["1", "2", "3", "4", "5"]
    assert [c.label for c in first.clauses[4].children] == ["(ก)", "(ข)", "(ค)", "(ง)", "(จ)"]
    assert len(s26.paragraphs) == 3


def test_pdpa_transitional_provisions_hold_sections_91_to_96(pdpa_markdown: Law) -> None:
    keys = {
        s.number for s in pdpa_markdown.sections if s.chapter_key == "th-pdpa-2562:ch:transitional"
    }
    assert keys == {str(n) for n in range(91, 97)}


def test_pdpa_wiki_links_become_plain_text_and_marked_citations(pdpa_markdown: Law) -> None:
    assert not any("[[" in s.text for s in pdpa_markdown.sections)
    assert "มาตรา ๒๖" in section(pdpa_markdown, "84").text
    marked = {(a, b) for a, b, kind in pdpa_markdown.marked_citations if kind == "marked"}
    assert ("th-pdpa-2562:s:84", "th-pdpa-2562:s:26") in marked
    assert marked == read_marked_links(FIXTURES / "pdpa-sidataplus")


def test_sidataplus_article_files_hold_120_hand_links() -> None:
    links = read_marked_links(FIXTURES / "pdpa-sidataplus")
    assert len(links) == 120
    assert len({source for source, _ in links}) == 48
    citing_26 = {int(s.rsplit(":", 1)[1]) for s, t in links if t == "th-pdpa-2562:s:26"}
    assert citing_26 == {25, 27, 33, 37, 38, 39, 40, 41, 79, 84, 87}


def test_pdpa_ocs_json_gives_the_same_law_id_and_section_keys(
    pdpa_markdown: Law, pdpa_ocs: Law
) -> None:
    assert pdpa_ocs.id == pdpa_markdown.id == "th-pdpa-2562"
    assert [s.key for s in pdpa_ocs.sections] == [s.key for s in pdpa_markdown.sections]
    assert [s.label for s in pdpa_ocs.sections] == [s.label for s in pdpa_markdown.sections]
    assert pdpa_ocs.status == "in_force" and pdpa_ocs.year == "2562"


def test_pdpa_ocs_text_drops_heading_preamble_and_remarks(pdpa_ocs: Law) -> None:
    assert len(pdpa_ocs.sections) == 96
    assert not any(s.text.startswith("มาตรา") for s in pdpa_ocs.sections)
    assert not any("หมายเหตุ" in s.text[:20] for s in pdpa_ocs.sections)
    assert section(pdpa_ocs, "26").text.startswith("ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคล")
    # No chapter headings in the OCS file: only the transitional heading survives.
    assert [d.key for d in pdpa_ocs.divisions] == ["th-pdpa-2562:ch:transitional"]
    assert section(pdpa_ocs, "91").chapter_key == "th-pdpa-2562:ch:transitional"
    assert section(pdpa_ocs, "90").chapter_key is None


def test_ocs_text_takes_chapters_and_parts_from_the_markdown_outline(
    pdpa_markdown: Law, pdpa_ocs: Law
) -> None:
    merged = merge_structure(pdpa_ocs, pdpa_markdown)
    assert [s.text for s in merged.sections] == [s.text for s in pdpa_ocs.sections]
    assert merged.divisions == pdpa_markdown.divisions
    assert section(merged, "26").part_key == "th-pdpa-2562:ch:2:pt:2"
    assert len(merged.sections) == 96
    assert len(pdpa_ocs.divisions) == 1  # the input is left as it was


# --- Structure -------------------------------------------------------------------------


def test_a_line_s_clause_kind_is_read_from_its_marker() -> None:
    assert clause_kind("(๑) แจ้ง") == clause_kind("(12) Fines") == "number"
    assert clause_kind("(ก) เป็นหนังสือ") == clause_kind("(iv) records") == "letter"
    assert clause_kind("1. Processing shall be lawful") == clause_kind("ผู้ควบคุมต้อง") == ""


def test_thai_lines_are_paragraphs_and_clauses_nest_letters_under_numbers() -> None:
    paragraphs = split_paragraphs(
        "ผู้ควบคุมต้อง\n(๑) แจ้ง\n(ก) เป็นหนังสือ\n(ข) ทางอิเล็กทรอนิกส์\n(๒) เก็บ\nความในวรรคหนึ่ง"
    )
    assert [p.index for p in paragraphs] == [1, 2]
    clauses = paragraphs[0].clauses
    assert [(c.label, c.number, c.text) for c in clauses] == [
        ("(๑)", "1", "แจ้ง"),
        ("(๒)", "2", "เก็บ"),
    ]
    assert [(c.number, c.text) for c in clauses[0].children] == [
        ("ก", "เป็นหนังสือ"),
        ("ข", "ทางอิเล็กทรอนิกส์"),
    ]


def test_eu_numbered_paragraphs_keep_subparagraphs_and_points() -> None:
    paragraphs = split_paragraphs(
        "1.   Processing is lawful if:\n\n(a)\n\nconsent;\n\n(b)\n\ncontract;\n\n"
        "Point (b) does not apply.\n\n2.   Member States may:\n(a) adapt;\n(i) first;\n(ii) second."
    )
    assert [p.index for p in paragraphs] == [1, 2]
    assert [c.number for c in paragraphs[0].clauses] == ["a", "b"]
    assert "Point (b) does not apply." in paragraphs[0].text
    assert [c.number for c in paragraphs[1].clauses[0].children] == ["i", "ii"]


def test_place_at_finds_the_paragraph_and_clause_of_an_offset() -> None:
    text = "ผู้ควบคุมต้อง\n(๑) แจ้ง\n(ก) เป็นหนังสือ\n(๒) เก็บ\nความในวรรคหนึ่ง"
    paragraphs = split_paragraphs(text)
    assert place_at(paragraphs, text.index("ผู้ควบคุม")) == (1, ())
    assert place_at(paragraphs, text.index("แจ้ง")) == (1, ("1",))
    assert place_at(paragraphs, text.index("เป็นหนังสือ")) == (1, ("1", "ก"))
    assert place_at(paragraphs, text.index("เก็บ")) == (1, ("2",))
    assert place_at(paragraphs, text.index("ความใน")) == (2, ())
    assert place_at(paragraphs, len(text)) == (None, ())
    eu = "1.   Lawful if:\n(a)\nconsent;\nPoint (a) applies.\n2.   Member States may adapt."
    paragraphs = split_paragraphs(eu)
    assert place_at(paragraphs, eu.index("consent")) == (1, ("a",))
    assert place_at(paragraphs, eu.index("Point")) == (1, ())  # a subparagraph, after (a)
    assert place_at(paragraphs, eu.index("Member")) == (2, ())


def test_an_inserted_clause_keeps_its_place_in_the_list() -> None:
    """Thai "(๑/๑)" and "(๒ ทวิ)" are clauses of the list, not a new วรรค that would take the
    clauses after them along; their path stays one clause in `clause_path`."""
    text = (
        "ผู้ว่าราชการจังหวัดมีอำนาจ\n(๑) สั่ง\n(๑/๑) ห้าม\n(ก) ชั่วคราว\n(๒) ปิด\n(๒ ทวิ) ยึด\n"
        "(๒ เบญจ) ทำลาย\nวรรคสอง"
    )
    paragraphs = split_paragraphs(text)
    assert [p.index for p in paragraphs] == [1, 2]
    clauses = paragraphs[0].clauses
    assert [(c.label, c.number) for c in clauses] == [
        ("(๑)", "1"),
        ("(๑/๑)", "1/1"),
        ("(๒)", "2"),
        ("(๒ ทวิ)", "2 ทวิ"),
        ("(๒ เบญจ)", "2 เบญจ"),  # every ordinal a section number takes (ingest.ids)
    ]
    assert place_at(paragraphs, text.index("ชั่วคราว")) == (1, ("1/1", "ก"))
    assert place_at(paragraphs, text.index("ปิด")) == (1, ("2",))
    assert clause_kind("(๑/๑) ห้าม") == clause_kind("(5A) Without limiting") == "number"
    assert clause_path("1/1/ก") == ["1/1", "ก"]
    assert clause_path("5/ก") == ["5", "ก"]
    assert clause_path("a/i") == ["a", "i"]


def test_numbered_items_under_an_unnumbered_paragraph_are_its_clauses() -> None:
    """Japan's 号 ("1. 法令に基づく場合") and old Thai "๑." lists are items of the paragraph
    above them, so the next unnumbered line is the second paragraph (第2項), not the ninth."""
    ja = "事業者は、次に掲げる場合を除くほか、提供してはならない。\n  1. 法令に基づく場合\n"
    ja += (
        "  2. 人の生命の保護のために必要がある場合\n事業者は、前項の規定にかかわらず、提供できる。"
    )
    paragraphs = split_paragraphs(ja)
    assert [p.index for p in paragraphs] == [1, 2]
    assert [(c.label, c.number) for c in paragraphs[0].clauses] == [("1.", "1"), ("2.", "2")]
    assert place_at(paragraphs, ja.index("人の生命")) == (1, ("2",))
    th = "ในพระราชบัญญัตินี้\n๑. “น้ำมัน” หมายความว่า น้ำมันเชื้อเพลิง\n๒. “คลัง” หมายความว่า ที่เก็บ\n(ก) ใต้ดิน"
    [paragraph] = split_paragraphs(th)
    assert [c.number for c in paragraph.clauses] == ["1", "2"]
    assert [c.number for c in paragraph.clauses[1].children] == ["ก"]


def test_an_article_title_printed_above_its_text_becomes_its_title() -> None:
    from ingest.readers.eurlex import read_eurlex

    text = "Transparent information\n\n1.   The controller shall act.\n\n2.   It shall reply."
    law = read_eurlex(
        "act.json",
        {"full_name": "A Test Regulation", "articles": [{"number": "12", "text": text}]},
    )
    [article] = law.sections
    assert article.title == "Transparent information"
    assert article.text.startswith("1.   The controller")
    assert [p.index for p in article.paragraphs] == [1, 2]


def test_letter_i_after_h_is_a_point_not_a_roman_numeral() -> None:
    text = "1.   List:\n" + "\n".join(f"({c}) item {c};" for c in "abcdefghij")
    clauses = split_paragraphs(text)[0].clauses
    assert [c.number for c in clauses] == list("abcdefghij")


# --- Markdown / plain-text variants ----------------------------------------------------


def test_plain_text_with_arabic_digits_irregular_spacing_and_no_hashes() -> None:
    law = read_one(FIXTURES / "readers" / "plain_thai.txt")
    assert [s.number for s in law.sections] == ["1", "2", "3", "3/1", "19 ทวิ", "20", "21"]
    assert section(law, "19 ทวิ").label == "มาตรา ๑๙ ทวิ"
    assert section(law, "1").chapter_key is None
    chapter_1 = next(d for d in law.divisions if d.key.endswith(":ch:1"))
    assert (chapter_1.label, chapter_1.title) == ("หมวด ๑", "บททั่วไป")
    assert section(law, "19 ทวิ").part_key == f"{law.id}:ch:1:pt:1"
    assert section(law, "21").chapter_key == f"{law.id}:ch:transitional"
    s31 = section(law, "3/1")
    assert s31.key == f"{law.id}:s:3/1"
    assert [c.label for c in s31.paragraphs[0].clauses[0].children] == ["(ก)", "(ข)"]


def test_ministerial_regulation_uses_kho_as_the_section_unit() -> None:
    law = read_one(FIXTURES / "readers" / "ministerial_regulation.md")
    assert [s.label for s in law.sections] == ["ข้อ ๑", "ข้อ ๒", "ข้อ ๓"]
    assert law.sections[0].key == f"{law.id}:s:1"


def test_english_markdown_articles_and_chapters() -> None:
    law = read_one(FIXTURES / "readers" / "regulation_en.md")
    assert law.language == "en"
    assert [(s.label, s.title) for s in law.sections] == [
        ("Article 1", "Subject-matter"),
        ("Article 2", "Definitions"),
        ("Article 3", "Lawfulness"),
    ]
    assert [(d.label, d.title) for d in law.divisions] == [
        ("CHAPTER I", "General provisions"),
        ("CHAPTER II", "Principles"),
    ]
    assert section(law, "3").chapter_key == f"{law.id}:ch:2"
    assert [p.index for p in section(law, "3").paragraphs] == [1, 2]


# --- Bad input -------------------------------------------------------------------------


def problem_of(path: Path) -> str:
    with pytest.raises(InvalidSource) as caught:
        read_source(path)
    assert caught.value.path == str(path)
    assert str(path) in str(caught.value)
    return caught.value.problem


def test_empty_and_blank_files_are_rejected(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.json"
    blank.write_text(" \n\t\n", encoding="utf-8")
    assert problem_of(empty) == "empty file"
    assert problem_of(blank) == "empty file"


def test_binary_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "law.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert "binary file" in problem_of(path)


def test_invalid_utf8_reports_the_byte_offset(tmp_path: Path) -> None:
    path = tmp_path / "law.txt"
    prefix = "มาตรา ๑ ข้อความ ".encode()
    path.write_bytes(prefix + b"\xff\xfe broken")
    problem = problem_of(path)
    assert "not valid UTF-8" in problem
    assert f"offset {len(prefix)}" in problem
    assert "0xff" in problem


def test_text_without_sections_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# บันทึก\n\nข้อความทั่วไปที่ไม่มีมาตรา\n", encoding="utf-8")
    assert "no recognisable sections" in problem_of(path)


def test_duplicate_section_numbers_in_markdown_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "dup.md"
    path.write_text("มาตรา ๑ ข้อความ\nมาตรา ๒ ข้อความ\nมาตรา 2 อีกครั้ง\n", encoding="utf-8")
    problem = problem_of(path)
    assert "duplicate section number 2" in problem


def test_unknown_extension_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "law.pdf"
    path.write_bytes(b"%PDF-1.4")
    assert "unknown format '.pdf'" in problem_of(path)


def test_invalid_and_unrecognised_json_are_rejected(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"title_th": ', encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text('{"hello": "world"}', encoding="utf-8")
    assert "invalid JSON" in problem_of(broken)
    assert "unrecognised JSON layout" in problem_of(other)


def test_missing_file_is_rejected(tmp_path: Path) -> None:
    assert problem_of(tmp_path / "absent.md") == "no such file"


def test_ocs_record_without_sections_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "law.json"
    path.write_text(
        json.dumps(
            {
                "title_th": "พระราชบัญญัติทดสอบ พ.ศ. 2567",
                "provisions": [{"section": "undefined", "title": "หมายเหตุ", "content": "หมายเหตุ"}],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    assert "no numbered sections" in problem_of(path)


def test_a_regulation_known_by_its_remarks_alone_is_kept_for_them(tmp_path: Path) -> None:
    remark = "หมายเหตุ :- โดยที่มาตรา ๕ แห่งพระราชบัญญัติทดสอบ พ.ศ. ๒๕๖๐ บัญญัติให้…"
    path = tmp_path / "regulation.json"
    path.write_text(
        json.dumps(
            {
                "title_th": "กฎกระทรวงทดสอบ พ.ศ. 2567",
                "provisions": [{"section": "undefined", "title": "หมายเหตุ", "content": remark}],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    law = read_one(path)
    assert law.sections == [] and law.notes == (remark,)
    assert any("kept for its notes" in w for w in law.warnings)


def test_jsonl_rejects_bad_lines_and_reads_the_rest(tmp_path: Path) -> None:
    good = {
        "title_th": "พระราชบัญญัติทดสอบ พ.ศ. 2567",
        "status": "in_force",
        "be_year": 2567,
        "provisions": [
            {"section": "1", "title": "มาตรา 1", "content": "มาตรา ๑  พระราชบัญญัตินี้เรียกว่า"},
            {"section": "2", "title": "มาตรา 2", "content": "มาตรา ๒  ให้ใช้บังคับ"},
        ],
    }
    empty = {"title_th": "ประกาศทดสอบ", "provisions": []}
    path = tmp_path / "laws.jsonl"
    lines = [
        json.dumps(good, ensure_ascii=False),
        "{not json",
        json.dumps(empty, ensure_ascii=False),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_source(path)
    assert [law.id for law in result] == ["พระราชบัญญัติทดสอบ-พ.ศ.-2567"]
    assert [(e.path.split(":")[-1].split(" ")[0], e.problem) for e in result.rejected] == [
        ("2", "invalid JSON: Expecting property name enclosed in double quotes"),
        ("3", "no provisions (metadata only)"),
    ]


def test_consolidated_ocs_text_keeps_the_law_and_its_appended_amending_acts_apart(
    tmp_path: Path,
) -> None:
    record = {
        "title_th": "พระราชกฤษฎีกาทดสอบ พ.ศ. 2563",
        "provisions": [
            {"section": "undefined", "title": "คำปรารภ", "content": "โดยที่เป็นการสมควร"},
            {"section": "1", "title": "มาตรา 1", "content": "มาตรา ๑  ชื่อ"},
            {"section": "2", "title": "มาตรา 2", "content": "มาตรา ๒  ฉบับรวม"},
            {"section": "3", "title": "มาตรา 3", "content": "มาตรา ๓  (ยกเลิก)"},
            {"section": "undefined", "title": "หมายเหตุ", "content": "หมายเหตุ :- เหตุผล"},
            {"section": "2", "title": "มาตรา 2", "content": "มาตรา ๒  ของฉบับแก้ไข"},
            {"section": "undefined", "title": "หมายเหตุ", "content": "หมายเหตุ :- เหตุผลของฉบับแก้ไข"},
        ],
    }
    path = tmp_path / "decree.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    law = read_one(path)
    assert [s.number for s in law.sections] == ["1", "2", "3"]
    assert section(law, "2").text == "ฉบับรวม"
    assert section(law, "3").repealed
    # the amending act's s.2 is its own, not the decree's, and keeps its remarks
    [act] = law.appended_acts
    assert (act.index, act.provisions) == (1, (("มาตรา", "2", "ของฉบับแก้ไข"),))
    assert act.notes == ("หมายเหตุ :- เหตุผลของฉบับแก้ไข",)
    assert law.notes == ("โดยที่เป็นการสมควร", "หมายเหตุ :- เหตุผล")
    assert not any("skipped" in w for w in law.warnings)


def test_ocs_record_numbered_by_kho_is_labelled_kho(tmp_path: Path) -> None:
    record = {
        "title_th": "กฎกระทรวงทดสอบ พ.ศ. 2567",
        "provisions": [
            {"section": "1", "title": "ข้อ 1", "content": "ข้อ ๑  กฎกระทรวงนี้ให้ใช้บังคับ"},
            {"section": "2", "title": "ข้อ 2", "content": "ข้อ ๒  คำขอให้ยื่นเป็นหนังสือ"},
        ],
    }
    path = tmp_path / "regulation.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    law = read_one(path)
    assert [s.label for s in law.sections] == ["ข้อ ๑", "ข้อ ๒"]
    assert section(law, "2").text == "คำขอให้ยื่นเป็นหนังสือ"


# --- Shared corpus ---------------------------------------------------------------------


@needs_corpus
def test_sidataplus_copy_in_shared_matches_bundled_reading(pdpa_markdown: Law) -> None:
    shared = read_one(CORPUS / "th-pdpa-2562" / "sidataplus" / "about.md")
    assert [s.key for s in shared.sections] == [s.key for s in pdpa_markdown.sections]
    assert read_marked_links(CORPUS / "th-pdpa-2562" / "sidataplus") == read_marked_links(
        FIXTURES / "pdpa-sidataplus"
    )


@needs_corpus
def test_gdpr_has_99_articles_in_11_chapters_with_clean_text() -> None:
    law = read_one(CORPUS / "eu-gdpr" / "gdpr.json")
    assert law.id == "eu-gdpr" and law.jurisdiction == "EU"
    assert [s.number for s in law.sections] == [str(n) for n in range(1, 100)]
    assert [s.label for s in law.sections[:2]] == ["Article 1", "Article 2"]
    assert len(law.divisions) == 11
    # The seed's chapter field says II for Art. 4 and VII for Arts. 97-99.
    assert section(law, "4").chapter_key == "eu-gdpr:ch:1"
    assert section(law, "99").chapter_key == "eu-gdpr:ch:11"
    assert not any("\u00a0" in s.text for s in law.sections)
    article_99 = section(law, "99").text
    assert "Done at Brussels" not in article_99 and "document).ready" not in article_99
    paragraph_5 = section(law, "83").paragraphs[4]
    assert paragraph_5.index == 5 and [c.number for c in paragraph_5.clauses] == list("abcde")


@needs_corpus
def test_nitibench_36_laws_5127_sections_with_prefixes_stripped() -> None:
    files = sorted((CORPUS / "nitibench-ccl-laws").glob("*.json"))
    laws = [read_one(path) for path in files]
    marked = Counter(kind for law in laws for _, _, kind in law.marked_citations)
    print(
        f"nitibench: {len(laws)} laws, {sum(len(law.sections) for law in laws)} sections, {dict(marked)}"
    )
    assert len(laws) == 36 and len({law.id for law in laws}) == 36
    assert sum(len(law.sections) for law in laws) == 5127
    for law in laws:
        assert not any(s.text.startswith(("มาตรา", law.title)) for s in law.sections), law.id
    ccc = next(law for law in laws if law.title == "ประมวลกฎหมายแพ่งและพาณิชย์")
    assert ccc.id == "ประมวลกฎหมายแพ่งและพาณิชย์"
    assert section(ccc, "1").text == "กฎหมายนี้ให้เรียกว่า ประมวลกฎหมายแพ่งและพาณิชย์"
    assert marked["marked-outside-corpus"] == 71


@needs_corpus
def test_nitibench_cross_law_references_use_the_target_laws_own_keys() -> None:
    securities = read_one(CORPUS / "nitibench-ccl-laws" / "ห0015-1B-0002.json")
    targets = {t for _, t, _ in securities.marked_citations}
    assert "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์-พ.ศ.-2535:s:31/7" in targets
    assert all(":s:" in t for t in targets)


@needs_corpus
def test_laws_jsonl_every_law_is_read_or_rejected_with_a_reason() -> None:
    started = time.perf_counter()
    result = read_source(CORPUS / "th-laws-ocs" / "laws.jsonl")
    elapsed = time.perf_counter() - started
    reasons = Counter(e.problem.split(" (")[0] for e in result.rejected)
    sections = sum(len(law.sections) for law in result.laws)
    print(
        f"laws.jsonl: {len(result.laws)} accepted ({sections} sections), "
        f"{len(result.rejected)} rejected {dict(reasons)} in {elapsed:.2f}s"
    )
    assert len(result.laws) + len(result.rejected) == 698
    assert all(e.problem for e in result.rejected)
    assert len({law.id for law in result.laws}) == len(result.laws)
    pdpa = next(law for law in result.laws if law.id == "th-pdpa-2562")
    assert [s.key for s in pdpa.sections] == [f"th-pdpa-2562:s:{n}" for n in range(1, 97)]


@needs_corpus
def test_ocs_and_nitibench_readings_of_shared_laws_agree_on_keys() -> None:
    ocs = {law.id: law for law in read_source(CORPUS / "th-laws-ocs" / "laws.jsonl").laws}
    securities_companies = read_one(CORPUS / "nitibench-ccl-laws" / "บ0011-1B-0001.json")
    assert securities_companies.id in ocs
    keys = {s.key for s in securities_companies.sections}
    assert keys == {s.key for s in ocs[securities_companies.id].sections}


@needs_corpus
def test_singapore_and_japan_seeds_read() -> None:
    sg = read_one(CORPUS / "sg-pdpa-2012" / "pdpa-2012.json")
    jp = read_one(CORPUS / "jp-appi" / "415AC0000000057_appi_ja.json")
    assert (sg.id, len(sg.sections), section(sg, "26").label) == ("sg-pdpa-2012", 86, "Section 26")
    assert [c.number for c in section(sg, "13").paragraphs[0].clauses] == ["a", "b"]
    assert (jp.id, len(jp.sections), section(jp, "17").label) == ("jp-appi", 137, "第17条")
    assert jp.divisions[0].label == "第一章"


def test_singapore_subsections_are_the_clauses_of_one_paragraph() -> None:
    """Each subsection on its own line, also after an amendment note, and each paragraph
    after "—", ":" or "; or" (the "or" kept); the dash after the section number goes; an
    inserted "(2A)" keeps its place among the subsections."""
    from ingest.readers.seeds import read_seed

    document = {
        "title": "Personal Data Protection Act 2012",
        "provisions": [
            {
                "section": "48J",
                "chapter": "PART 9C ENFORCEMENT",
                "content": "48J. — ( 1 ) The Commission may require a person to pay a financial "
                "penalty. [40/2020] ( 2 ) Subsection (1) does not apply to an offence. "
                "( 2A ) Subsection (2) applies to — ( a ) an individual; or ( b ) an "
                "organisation. ( 3 ) A penalty is any of the following: ( a ) a debt; ( b ) a "
                "charge.",
            }
        ],
    }
    [law_section] = read_seed("sg.json", document).sections
    assert law_section.text.splitlines() == [
        "(1) The Commission may require a person to pay a financial penalty. [40/2020]",
        "(2) Subsection (1) does not apply to an offence.",
        "(2A) Subsection (2) applies to —",
        "(a) an individual; or",
        "(b) an organisation.",
        "(3) A penalty is any of the following:",
        "(a) a debt;",
        "(b) a charge.",
    ]
    [paragraph] = law_section.paragraphs
    assert [c.number for c in paragraph.clauses] == ["1", "2", "2A", "3"]
    assert [c.number for c in paragraph.clauses[2].children] == ["a", "b"]
