"""When a law is in force, what a decree or regulation was issued under, and which
provisions of another law it keeps from applying. (Its kind, from the title: royal decree,
ministerial regulation, ..., is `ingest.ids.law_kind`, which its id depends on.)

Read by rule from the law's own text, in every Thai drafting style the corpus holds:
- the period in force, from the commencement section ("ให้ใช้บังคับตั้งแต่วันที่ ๒๗
  พฤษภาคม พ.ศ. ๒๕๖๓ จนถึงวันที่ ๓๑ พฤษภาคม พ.ศ. ๒๕๖๕"). A start tied to the Gazette
  ("ตั้งแต่วันถัดจากวันประกาศในราชกิจจานุเบกษา") is unknown, since no source holds the
  Gazette date: `valid_from` stays empty, and `not_before` is the first day of the year
  in the title, the earliest it can have been in force, which is what `as_of` filters by;
- the enabling sections, from the preamble ("อาศัยอำนาจตามความในมาตรา … แห่ง…") and the
  remarks ("โดยที่มาตรา … แห่ง… ให้อำนาจ…", "ประกอบกับมาตรา … บัญญัติว่า");
- disapplications: "มิให้นำบทบัญญัติในหมวด ๒ … และมาตรา ๙๕ แห่ง<law> มาใช้บังคับแก่<scope>"
  and "<scope> ย่อมได้รับการยกเว้นการปฏิบัติตามบทบัญญัติหมวด ๒ และหมวด ๓ แห่ง<law>", each
  with the chapters and sections it names and the scope it applies to.

Pure functions of a `Law` (and the corpus, for the laws a text names): no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ingest.corpus import CorpusIndex
from ingest.ids import (
    SUBORDINATE_KINDS,
    law_kind,
    normalise_section_number,
    thai_to_arabic_digits,
    title_year,
)
from ingest.models import Law, Section
from ingest.readers.base import make_section
from ingest.xrefs import extract_citations, resolve_citation

_MONTHS = {
    name: number
    for number, name in enumerate(
        (
            "มกราคม", "กุมภาพันธ์", "มีนาคม", "เมษายน", "พฤษภาคม", "มิถุนายน",
            "กรกฎาคม", "สิงหาคม", "กันยายน", "ตุลาคม", "พฤศจิกายน", "ธันวาคม",
        ),
        start=1,
    )
}  # fmt: skip
_DATE = (
    r"วันที่\s*(?P<{p}d>[0-9๐-๙]{{1,2}})\s*(?P<{p}m>" + "|".join(_MONTHS) + r")\s*"
    r"(?:พ\.\s*ศ\.|พุทธศักราช)\s*(?P<{p}y>[0-9๐-๙]{{4}})"
)
_COMMENCES = re.compile(r"ให้ใช้บังคับ")
_FROM = re.compile(r"ตั้งแต่\s*" + _DATE.format(p="f"))
_UNTIL = re.compile(r"(?:จนถึง|ถึง)\s*" + _DATE.format(p="u"))
# What a note says of the sections that empower it; "บัญญัติ" alone, not the tail of
# "พระราชบัญญัติ" in the name of the law that follows the citation.
_ENABLING_WORDS = re.compile(r"อาศัยอำนาจ|ให้อำนาจ|(?<!ราช)บัญญัติ|กำหนดให้")
_NOT_APPLIED = re.compile(
    r"(?:มิให้นำ|ไม่ให้นำ|ได้รับการยกเว้น(?:การปฏิบัติตาม|ไม่ให้นำ)?)\s*"
    r"(?:บทบัญญัติ|พระราชบัญญัติ)?\s*(?:ใน)?\s*(?P<items>(?:(?:หมวด|มาตรา)\s*[0-9๐-๙/]+\s*(?:และ|,)?\s*)+)"
    r"แห่ง"
)
_ITEM = re.compile(r"(?P<unit>หมวด|มาตรา)\s*(?P<num>[0-9๐-๙]+(?:/[0-9๐-๙]+)?)")
_SCOPE_AFTER = re.compile(r"มาใช้บังคับ(?:แก่|กับ)\s*(?P<scope>[^\n]+)")


@dataclass(frozen=True)
class InForce:
    """When a law is in force. ISO dates; "" where the text does not say."""

    valid_from: str = ""  # the first day in force, when the text gives it
    valid_to: str = ""  # the last day in force ("จนถึงวันที่ …"), when it has one
    not_before: str = ""  # valid_from, else the earliest day it can be in force
    commencement: str = ""  # the commencement sentence as printed


@dataclass(frozen=True)
class Disapplication:
    """Provisions of another law that a section keeps from applying, to whom."""

    source: str  # the decree's section key
    law_id: str  # the law whose provisions stop applying
    targets: tuple[str, ...]  # chapter and section keys of that law
    scope: str  # to whom, as printed


def thai_date(day: str, month: str, year_be: str) -> str:
    """ "๒๗", "พฤษภาคม", "๒๕๖๓" -> "2020-05-27"; "" when it is not a calendar date."""
    try:
        return date(
            int(thai_to_arabic_digits(year_be)) - 543,
            _MONTHS[month],
            int(thai_to_arabic_digits(day)),
        ).isoformat()
    except (KeyError, ValueError):
        return ""


def in_force(law: Law) -> InForce:
    """The period the law's commencement section gives (the first section saying
    "ให้ใช้บังคับ" among the first three)."""
    year = law.year or title_year(law.title)
    earliest = year_start(year) if law.language == "th" else ""
    texts = [section.text for section in sorted(law.sections, key=lambda s: s.order)[:3]]
    return period_of(texts, earliest)


def period_of(texts: list[str], earliest: str = "") -> InForce:
    """The period the first of `texts` saying "ให้ใช้บังคับ" gives; `earliest` (the first
    day it can have applied from) when it ties its start to a day no source holds."""
    for text in texts:
        if not _COMMENCES.search(text):
            continue
        sentence = " ".join(text.split())
        start = _FROM.search(sentence)
        until = _UNTIL.search(sentence, start.end() if start else 0)
        valid_from = thai_date(start["fd"], start["fm"], start["fy"]) if start else ""
        valid_to = thai_date(until["ud"], until["um"], until["uy"]) if until else ""
        return InForce(valid_from, valid_to, valid_from or earliest, sentence[:300])
    return InForce(not_before=earliest)


def enabling_sections(law: Law, corpus: CorpusIndex) -> list[str]:
    """Keys of the sections of other laws that `law`, a decree or regulation, says it is
    issued under. An act is issued under none: its preamble's "มาตรา ๒๖ … ของรัฐธรรมนูญ…
    บัญญัติให้กระทำได้โดยอาศัยอำนาจตามบทบัญญัติแห่งกฎหมาย" names the constitution's
    rule on restricting rights, not a power to issue it."""
    if law_kind(law.title) not in SUBORDINATE_KINDS:
        return []
    targets: list[str] = []
    for index, note in enumerate(law.notes):
        probe = _probe_section(law, index, note)
        for citation in extract_citations(probe, law, corpus):
            resolution = resolve_citation(citation, law, corpus)
            target = resolution.target
            if target is None or resolution.law_id in (None, law.id):
                continue  # a regulation is issued under another law
            if _ENABLING_WORDS.search(_around(note, citation.span)) and target not in targets:
                targets.append(target)
    return targets


def disapplications(law: Law, corpus: CorpusIndex) -> list[Disapplication]:
    """What each section of `law` keeps from applying, resolved to chapters and sections of
    laws in `corpus` (a law it names that is not there gives nothing)."""
    found: list[Disapplication] = []
    for section in sorted(law.sections, key=lambda s: s.order):
        text = re.sub(r"[ \t\u00a0]+", " ", section.text)  # paragraphs stay lines
        for match in _NOT_APPLIED.finditer(text):
            law_id = _law_named_at(text, match.end(), corpus)
            if law_id is None or law_id == law.id:
                continue
            targets = tuple(
                key
                for item in _ITEM.finditer(match["items"])
                if (key := _target_key(corpus, law_id, item["unit"], item["num"])) is not None
            )
            if not targets:
                continue
            after = _SCOPE_AFTER.search(text, match.end())
            scope = after["scope"] if after else text[: match.start()]
            found.append(Disapplication(section.key, law_id, targets, scope.strip(" ,")[:300]))
    return found


def says_disapplies(law: Law) -> bool:
    """Whether any section of `law` keeps provisions of a law from applying, resolved or
    not: retrieval asks the graph for disapplications only when a law in force says so."""
    return any(_NOT_APPLIED.search(re.sub(r"\s+", " ", s.text)) for s in law.sections)


# --- helpers -----------------------------------------------------------------------------


def year_start(year: str) -> str:
    """The first day of a year as printed (Buddhist era when past 2400), "" when not a year."""
    digits = thai_to_arabic_digits(year)
    if not digits.isdigit():
        return ""
    value = int(digits)
    return date(value - 543 if value > 2400 else value, 1, 1).isoformat()


def _probe_section(law: Law, index: int, text: str) -> Section:
    """A note (preamble, remarks) as a section, so the citation parser reads it."""
    return make_section(
        law.id, f"note-{index + 1}", text, language=law.language, order=-1, label="หมายเหตุ"
    )


def _around(text: str, span: tuple[int, int], width: int = 120) -> str:
    """What a citation sits in: the words just before it and just after it."""
    return text[max(0, span[0] - 40) : span[0]] + text[span[1] : span[1] + width]


def _law_named_at(text: str, at: int, corpus: CorpusIndex) -> str | None:
    window = re.sub(r"\s+", "", thai_to_arabic_digits(text[at : at + 200]))
    name = corpus.match_law_name(window)
    return corpus.law_ids_by_name[name] if name else None


def _target_key(corpus: CorpusIndex, law_id: str, unit: str, number: str) -> str | None:
    number = normalise_section_number(number)
    if unit == "มาตรา":
        return corpus.section_key(law_id, number)
    key = f"{law_id}:ch:{number}"
    return key if key in corpus.division_keys.get(law_id, ()) else None
