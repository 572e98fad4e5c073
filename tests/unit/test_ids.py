from __future__ import annotations

from urllib.parse import quote

import pytest

from ingest.ids import (
    arabic_to_thai_digits,
    law_id_for_title,
    normalise_section_number,
    normalise_title,
    section_key,
    section_label,
    thai_to_arabic_digits,
    title_aliases,
    title_year,
)


def test_digits_convert_both_ways() -> None:
    assert thai_to_arabic_digits("มาตรา ๒๖/๑") == "มาตรา 26/1"
    assert arabic_to_thai_digits("26/1") == "๒๖/๑"
    assert thai_to_arabic_digits(arabic_to_thai_digits("0123456789")) == "0123456789"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("๒๖", "26"),
        ("๒๖/๑", "26/1"),
        ("26 / 1", "26/1"),
        ("19 ทวิ", "19 ทวิ"),
        ("๑๙ ทวิ", "19 ทวิ"),
        ("๑๙\u00a0\u00a0ทวิ", "19 ทวิ"),
        ("  19   ทวิ  ", "19 ทวิ"),
        ("37เอกวีสติ", "37 เอกวีสติ"),
        ("๖๕ เอกวีสติ/๑", "65 เอกวีสติ/1"),
        ("มาตรา ๒๖", "26"),
        ("Article 9", "9"),
        ("\u0e376", "6"),  # OCS typo: a stray vowel mark before the digits
        ("26\u200b", "26"),
        ("77/1", "77/1"),
        ("บัญชีอัตราอากรแสตมป์  1", "บัญชีอัตราอากรแสตมป์ 1"),
    ],
)
def test_section_numbers_normalise_to_arabic_digits_and_single_spaces(
    raw: str, expected: str
) -> None:
    assert normalise_section_number(raw) == expected


def test_section_key_is_law_id_and_normalised_number() -> None:
    assert section_key("th-pdpa-2562", "๒๖") == "th-pdpa-2562:s:26"
    assert section_key("th-pdpa-2562", "๒๖/๑") == "th-pdpa-2562:s:26/1"
    assert section_key("x", "๑๙ ทวิ") == "x:s:19 ทวิ"


def test_section_labels_follow_language_and_unit() -> None:
    assert section_label("26", "th") == "มาตรา ๒๖"
    assert section_label("19 ทวิ", "th") == "มาตรา ๑๙ ทวิ"
    assert section_label("1", "th", unit="ข้อ") == "ข้อ ๑"
    assert section_label("9", "en") == "Article 9"
    assert section_label("26", "en", unit="Section") == "Section 26"
    assert section_label("17", "ja") == "第17条"


@pytest.mark.parametrize(
    ("title", "law_id"),
    [
        ("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒", "th-pdpa-2562"),
        ("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562", "th-pdpa-2562"),
        ("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล  พ.ศ.2562", "th-pdpa-2562"),
        ("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พุทธศักราช ๒๕๖๒", "th-pdpa-2562"),
        ("General Data Protection Regulation", "eu-gdpr"),
        ("Personal Data Protection Act 2012", "sg-pdpa-2012"),
        ("個人情報の保護に関する法律", "jp-appi"),
    ],
)
def test_curated_laws_get_short_ids(title: str, law_id: str) -> None:
    assert law_id_for_title(title) == law_id


def test_a_decree_naming_the_pdpa_in_its_title_is_not_the_pdpa() -> None:
    decree = (
        "พระราชกฤษฎีกากำหนดหน่วยงานและกิจการที่ผู้ควบคุมข้อมูลส่วนบุคคลไม่อยู่ภายใต้บังคับ"
        "แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562 พ.ศ. 2563"
    )
    assert law_id_for_title(decree) != "th-pdpa-2562"


def test_derived_ids_ignore_digit_script_spacing_and_repeal_mark() -> None:
    variants = [
        "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์ พ.ศ. 2535",
        "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์ พ.ศ. ๒๕๓๕",
        "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์   พ.ศ.2535",
        "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์ พ.ศ. 2535 (ยกเลิก)",
    ]
    assert len({law_id_for_title(title) for title in variants}) == 1
    assert law_id_for_title(variants[0]) == "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์-พ.ศ.-2535"
    assert law_id_for_title("ประมวลกฎหมายแพ่งและพาณิชย์") == "ประมวลกฎหมายแพ่งและพาณิชย์"


def test_derived_ids_are_path_safe_and_bounded() -> None:
    title = "ประกาศคณะกรรมการ ที่ ทจ. 1/2560: เรื่อง (ทดสอบ) " + "ยาวมาก" * 60
    law_id = law_id_for_title(title)
    assert "/" not in law_id and ":" not in law_id and " " not in law_id
    assert len(law_id) <= 120
    assert law_id == law_id_for_title(title)  # deterministic
    assert "/" not in quote(law_id, safe="")


def test_decomposed_sara_am_gives_the_same_id() -> None:
    assert law_id_for_title("พระราชบัญญัติจัดการฝึกและอบรมเด็กบางจ\u0e4d\u0e32พวก") == law_id_for_title(
        "พระราชบัญญัติจัดการฝึกและอบรมเด็กบางจำพวก"
    )


def test_title_year_is_the_last_year_printed() -> None:
    assert title_year("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒") == "2562"
    assert (
        title_year("พระราชบัญญัติยกเลิกพระราชบัญญัติการซื้อขายสินค้าเกษตรล่วงหน้า พ.ศ. 2542 พ.ศ. 2558") == "2558"
    )
    assert title_year("ประมวลกฎหมายแพ่งและพาณิชย์") == ""
    assert normalise_title("พระราชบัญญัติเงินตรา พุทธศักราช ๒๔๘๕") == "พระราชบัญญัติเงินตรา พ.ศ. 2485"


def test_aliases_include_title_without_year_and_citation_form() -> None:
    aliases = title_aliases("พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562")
    assert "พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล" in aliases
    assert "กฎหมายว่าด้วยการคุ้มครองข้อมูลส่วนบุคคล" in aliases
    other = title_aliases("พระราชบัญญัติบริษัทมหาชนจำกัด พ.ศ. 2535")
    assert "พระราชบัญญัติบริษัทมหาชนจำกัด" in other
