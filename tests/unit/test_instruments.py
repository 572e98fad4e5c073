"""Decrees and regulations read by rule: kind, id, period in force, enabling sections and
what they keep from applying (ingest/instruments.py), on synthetic laws and the PDPA's
bundled decrees."""

from __future__ import annotations

import pytest

from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.graph import RelType
from ingest.ids import law_id_for_title, law_kind
from ingest.instruments import (
    disapplications,
    enabling_sections,
    in_force,
    says_disapplies,
    thai_date,
)
from ingest.models import Law
from ingest.parse import read_source
from ingest.readers.base import chapter_division, make_section
from services.core.settings import REPO_ROOT

ACT = "พระราชบัญญัติทดสอบ พ.ศ. 2560"
DECREES = REPO_ROOT / "data" / "th-pdpa-2562" / "decrees"


def _law(title: str, texts: list[str], *, notes: tuple[str, ...] = (), chapters: int = 0) -> Law:
    law_id = law_id_for_title(title)
    return Law(
        id=law_id,
        title=title,
        language="th",
        jurisdiction="TH",
        source="test",
        year=title[-4:],
        divisions=[
            chapter_division(law_id, str(n), f"หมวด {n}", "", n) for n in range(1, chapters + 1)
        ],
        sections=[
            make_section(law_id, str(i), text, language="th", order=i)
            for i, text in enumerate(texts, 1)
        ],
        notes=notes,
    )


def _act() -> Law:
    return _law(ACT, [f"มาตรา {n} ข้อความ" for n in range(1, 11)], chapters=3)


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("พระราชบัญญัติทดสอบ พ.ศ. 2560", "act"),
        ("พระราชกฤษฎีกาทดสอบ พ.ศ. 2563", "royal_decree"),
        ("กฎกระทรวงทดสอบ (ฉบับที่ ๒) พ.ศ. ๒๕๖๗", "ministerial_regulation"),
        ("ประกาศคณะกรรมการทดสอบ เรื่อง ทดสอบ พ.ศ. 2565", "announcement"),
        ("ระเบียบทดสอบ พ.ศ. 2565", "rule"),
        ("ประมวลรัษฎากร", "code"),
        ("Commission Implementing Regulation (EU) 2021/914", "regulation"),
    ],
)
def test_the_kind_comes_from_the_title(title: str, kind: str) -> None:
    assert law_kind(title) == kind


def test_a_decree_gets_a_short_readable_id_that_names_the_act_it_serves() -> None:
    under_pdpa = (
        "พระราชกฤษฎีกากำหนดหน่วยงานและกิจการที่ผู้ควบคุมข้อมูลส่วนบุคคลไม่อยู่ภายใต้บังคับ"
        "แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒ พ.ศ. ๒๕๖๓"
    )
    assert law_id_for_title(under_pdpa).startswith("th-pdpa-2562-rd-2563-")
    assert law_id_for_title(under_pdpa) == law_id_for_title(under_pdpa.replace("๒๕๖๓", "2563"))
    numbered = law_id_for_title("กฎกระทรวงว่าด้วยการทดสอบ (ฉบับที่ ๒) พ.ศ. ๒๕๖๗")
    assert numbered.startswith("th-mr-2567-no2-") and len(numbered) == len("th-mr-2567-no2-") + 8
    assert law_id_for_title(ACT) == "พระราชบัญญัติทดสอบ-พ.ศ.-2560"  # acts keep their slug


def test_thai_dates_read_in_the_buddhist_era() -> None:
    assert thai_date("๒๗", "พฤษภาคม", "๒๕๖๓") == "2020-05-27"
    assert thai_date("31", "ธันวาคม", "2565") == "2022-12-31"
    assert thai_date("๓๐", "กุมภาพันธ์", "๒๕๖๓") == ""  # no such day


def test_a_period_with_dates_is_read_and_a_gazette_start_stays_unknown() -> None:
    dated = _law(
        "พระราชกฤษฎีกาทดสอบ พ.ศ. 2563",
        ["ชื่อ", "พระราชกฤษฎีกานี้ให้ใช้บังคับตั้งแต่วันที่ ๒๗ พฤษภาคม พ.ศ. ๒๕๖๓ "
         "จนถึงวันที่ ๓๑ พฤษภาคม พ.ศ. ๒๕๖๕"],
    )  # fmt: skip
    period = in_force(dated)
    assert (period.valid_from, period.valid_to, period.not_before) == (
        "2020-05-27", "2022-05-31", "2020-05-27"
    )  # fmt: skip
    gazette = _law(
        "พระราชกฤษฎีกาทดสอบ พ.ศ. 2566",
        ["ชื่อ", "พระราชกฤษฎีกานี้ให้ใช้บังคับเมื่อพ้นกำหนดหนึ่งร้อยห้าสิบวันนับแต่วันประกาศในราชกิจจานุเบกษาเป็นต้นไป"],
    )
    period = in_force(gazette)
    assert (period.valid_from, period.valid_to, period.not_before) == ("", "", "2023-01-01")
    assert "หนึ่งร้อยห้าสิบวัน" in period.commencement


def test_enabling_sections_are_another_laws_sections_named_as_the_power() -> None:
    act = _act()
    decree = _law(
        "พระราชกฤษฎีกาทดสอบ พ.ศ. 2563",
        ["ชื่อ", "ให้ใช้บังคับ", "ตามมาตรา ๒ วรรคหนึ่ง"],
        notes=(
            "อาศัยอำนาจตามความในมาตรา ๔ วรรคสอง แห่งพระราชบัญญัติทดสอบ พ.ศ. ๒๕๖๐ จึงทรงพระกรุณา",
            # its own s.2 next to "ให้อำนาจ" is no enabling section: a decree is issued
            # under another law
            "หมายเหตุ :- เช่นเดียวกับที่ได้รับการยกเว้นตามมาตรา ๒ วรรคหนึ่ง และให้อำนาจยกเว้น",
        ),
    )
    corpus = CorpusIndex.from_laws([act, decree])
    assert enabling_sections(decree, corpus) == [f"{act.id}:s:4"]
    assert enabling_sections(decree, CorpusIndex.from_laws([decree])) == []  # act not loaded


def test_a_section_the_decree_lacks_is_the_enabling_acts() -> None:
    """ "ตามมาตรา ๘" in a decree of four sections names no law: it is the section of the Act
    the decree is issued under; "มาตรา ๒" stays the decree's own, and a number neither has
    stays unresolved."""
    act = _act()
    decree = _law(
        "พระราชกฤษฎีกาทดสอบ พ.ศ. 2563",
        ["ชื่อ", "ให้ใช้บังคับ", "กรอบวงเงินตามมาตรา ๘ วรรคหนึ่ง", "ตามมาตรา ๒ และมาตรา ๒๐"],
        notes=("อาศัยอำนาจตามความในมาตรา ๔ วรรคสอง แห่งพระราชบัญญัติทดสอบ พ.ศ. ๒๕๖๐",),
    )
    graph = build_graph(decree, CorpusIndex.from_laws([act, decree]))
    cited = {(e.source, e.target) for e in graph.edges if e.type is RelType.REFERENCES}
    assert cited == {
        (f"{decree.id}:s:3", f"{act.id}:s:8"),
        (f"{decree.id}:s:4", f"{decree.id}:s:2"),
    }
    assert [u["section"] for u in graph.unresolved] == ["20"]
    alone = build_graph(decree, CorpusIndex.from_laws([decree]))  # the Act not loaded
    assert sorted(u["section"] for u in alone.unresolved) == ["20", "8"]


def test_disapplications_name_chapters_and_sections_of_the_act_and_the_scope() -> None:
    act = _act()
    decree = _law(
        "พระราชกฤษฎีกาทดสอบ พ.ศ. 2563",
        ["ชื่อ", "ให้ใช้บังคับ",
         "มิให้นำบทบัญญัติในหมวด ๒ หมวด ๓ และหมวด ๙ และมาตรา ๙ แห่งพระราชบัญญัติทดสอบ "
         "พ.ศ. ๒๕๖๐ มาใช้บังคับแก่ผู้ประกอบการตามบัญชีท้ายพระราชกฤษฎีกานี้\nวรรคสอง",
         "เมื่อผู้ประกอบการได้รับคำขอ ผู้ประกอบการดังกล่าวย่อมได้รับการยกเว้นการปฏิบัติตาม"
         "บทบัญญัติหมวด ๑ แห่งพระราชบัญญัติทดสอบ พ.ศ. ๒๕๖๐"],
    )  # fmt: skip
    assert says_disapplies(decree) and not says_disapplies(act)
    found = disapplications(decree, CorpusIndex.from_laws([act, decree]))
    assert [(f.source, f.targets) for f in found] == [
        (f"{decree.id}:s:3", (f"{act.id}:ch:2", f"{act.id}:ch:3", f"{act.id}:s:9")),
        (f"{decree.id}:s:4", (f"{act.id}:ch:1",)),
    ]  # chapter 9 does not exist and is left out
    assert found[0].scope == "ผู้ประกอบการตามบัญชีท้ายพระราชกฤษฎีกานี้"
    assert found[1].scope.startswith("เมื่อผู้ประกอบการได้รับคำขอ")
    assert disapplications(decree, CorpusIndex.from_laws([decree])) == []


def test_the_bundled_pdpa_decrees_keep_their_notes_and_read_their_periods() -> None:
    laws = {law.id: law for path in sorted(DECREES.glob("*.json")) for law in read_source(path)}
    first = laws["th-pdpa-2562-rd-2563-cfe899"]
    assert len(first.notes) == 2 and first.notes[0].startswith("พระบาทสมเด็จ")
    assert in_force(first).valid_to == "2022-05-31"
    # the (No. 2) decree's own s.2, appended by OCS, is not read as the decree's s.2
    assert "จนถึงวันที่" in next(s for s in first.sections if s.number == "2").text
