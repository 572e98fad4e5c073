"""What amended a law, read by rule from the markers of its consolidated text and of the
acts OCS appends to it (ingest/amendments.py), and the AmendingAct nodes and AMENDS /
INSERTS / REPEALS relationships the graph gets from them (ingest/build.py)."""

from __future__ import annotations

from ingest.amendments import SELF, count_phrases, find_amendments, read_markers
from ingest.build import build_graph
from ingest.corpus import CorpusIndex
from ingest.graph import NodeLabel, RelType
from ingest.models import AppendedAct, Law
from ingest.serial import law_from_text, law_to_text
from services.core.profiles import profile_documents
from tests.synthetic import thai_law

CODE = "พระราชบัญญัติทดสอบ พ.ศ. 2500"
OTHER = "พระราชบัญญัติอื่น พ.ศ. 2510"


def _code() -> Law:
    """A consolidated act with one bracketed OCS note and one appended amending act whose
    transitional provisions name the sections it amended."""
    appended = AppendedAct(
        index=1,
        title="",
        provisions=(
            ("มาตรา", "2", "พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษาเป็นต้นไป"),
            (
                "มาตรา",
                "9",
                "ผู้ได้รับอนุญาตตามมาตรา ๕ หรือมาตรา ๖ แห่งพระราชบัญญัติทดสอบ พ.ศ. ๒๕๐๐ "
                "ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้ ให้ยังคงใช้ได้ต่อไป",
            ),
            ("มาตรา", "10", "บัญชีท้ายมาตรา ๓๒ แห่งพระราชบัญญัตินี้ ซึ่งแก้ไขเพิ่มเติมโดยมาตรา ๓๔ แห่งพระราชบัญญัตินี้"),
            ("มาตรา", "11", "บรรดาบทบัญญัติที่ถูกยกเลิกโดยพระราชบัญญัตินี้ ให้ยังคงใช้บังคับต่อไป"),
        ),
        notes=("หมายเหตุ :- เหตุผล",),
    )
    return thai_law(
        {
            "5": "ผู้ใดประสงค์จะประกอบกิจการต้องได้รับอนุญาต",
            "6": "ใบอนุญาตให้มีอายุหนึ่งปี",
            "7": (
                "ให้รัฐมนตรีว่าการ [คำว่า “รัฐมนตรีว่าการ” แก้ไขเพิ่มเติมโดยมาตรา ๓ "
                "แห่งพระราชบัญญัติเทียบตำแหน่ง พ.ศ. ๒๔๗๕] รักษาการ"
            ),
            "8": "ให้เสียภาษีมูลค่าเพิ่มโดยคำนวณจากฐานภาษี",  # wording, not a marker
        },
        CODE,
        appended_acts=[appended],
    )


def test_markers_name_the_act_and_what_it_changed() -> None:
    code, other = _code(), thai_law({"1": "ชื่อ"}, OTHER)
    corpus = CorpusIndex.from_laws([code, other])
    found = {
        (a.place.rsplit(":", 1)[-1], a.by, a.target, a.change)
        for a in find_amendments(code, corpus)
    }
    assert found == {
        # a bracketed OCS note: the section it is printed in, by the act it names
        ("7", "พระราชบัญญัติเทียบตำแหน่ง พ.ศ. ๒๔๗๕", f"{code.id}:s:7", "amends"),
        # "มาตรา ๕ หรือมาตรา ๖ แห่ง<the law> ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้": both
        ("มาตรา-9", "appended-1", f"{code.id}:s:5", "amends"),
        ("มาตรา-9", "appended-1", f"{code.id}:s:6", "amends"),
        # "มาตรา ๓๒ แห่งพระราชบัญญัตินี้" is the amending act's own section, never the law's
        ("มาตรา-10", "appended-1", code.id, "amends"),
        # general words of an appended act: a change to the law it is appended to
        ("มาตรา-11", "appended-1", code.id, "repeals"),
    }
    assert count_phrases(code) == 5  # "เพิ่มโดยคำนวณ" is a phrase but no marker
    assert len(read_markers(code, corpus)) == 4


def test_a_law_that_says_it_amends_another_law_amends_that_law_not_itself() -> None:
    other = thai_law({"3": "ข้อความเดิม"}, OTHER)
    amending = thai_law(
        {
            "4": "ใบอนุญาตตามมาตรา ๓ แห่งพระราชบัญญัติอื่น พ.ศ. ๒๕๑๐ ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้",
            "5": "ผู้ซึ่งได้รับอนุญาตตามมาตรา ๔ ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้",
        },
        "พระราชบัญญัติแก้ไข พ.ศ. 2520",
    )
    corpus = CorpusIndex.from_laws([other, amending])
    [amendment] = find_amendments(amending, corpus)
    assert (amendment.by, amendment.target, amendment.target_kind) == (
        SELF,
        f"{other.id}:s:3",
        "section",
    )
    # the marker on its own section 4 resolves nothing: a law does not amend itself
    assert [m.amendments for m in read_markers(amending, corpus)][1] == ()


def test_the_graph_has_an_amending_act_per_act_and_its_changes() -> None:
    code = _code()
    graph = build_graph(code, CorpusIndex.from_laws([code]))
    acts = {n.key: n.props for n in graph.nodes if n.label is NodeLabel.AMENDING_ACT}
    appended = acts[f"{code.id}:amending:appended-1"]
    assert appended["appended"] == 1 and appended["notes"] == ["หมายเหตุ :- เหตุผล"]
    assert appended["provisions"][0].startswith("มาตรา ๒  พระราชบัญญัตินี้ให้ใช้บังคับ")
    assert appended["commencement"].startswith("พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่วันถัดจาก")
    assert appended["valid_from"] is None  # tied to a Gazette day no source holds
    edges = {
        (e.type, e.source.rsplit(":", 1)[-1], e.target)
        for e in graph.edges
        if e.source_label is NodeLabel.AMENDING_ACT
    }
    named = "พระราชบัญญัติเทียบตำแหน่งพ.ศ.2475"
    by_name = acts[f"{code.id}:amending:{named}"]
    assert (by_name["year"], by_name["not_before"]) == ("2475", "1932-01-01")
    assert edges == {
        (RelType.AMENDS, "appended-1", code.id),
        (RelType.AMENDS, "appended-1", f"{code.id}:s:5"),
        (RelType.AMENDS, "appended-1", f"{code.id}:s:6"),
        (RelType.REPEALS, "appended-1", code.id),
        (RelType.AMENDS, named, f"{code.id}:s:7"),
    }
    [s5] = [e for e in graph.edges if e.type is RelType.AMENDS and e.target.endswith(":s:5")]
    assert s5.props["places"] == [f"{code.id}:appended-1:มาตรา-9"]
    assert "ซึ่งแก้ไขเพิ่มเติมโดยพระราชบัญญัตินี้" in s5.props["markers"][0]
    # history, not content: no vector profile of an amending act or its edges
    profiles = profile_documents(code, graph, "v1")
    assert not [p for p in profiles if ":amending:" in p.key]
    assert all("AMENDS" not in p.text for p in profiles)


def test_appended_acts_survive_the_stored_law_format() -> None:
    code = _code()
    assert law_from_text(law_to_text(code)) == code
