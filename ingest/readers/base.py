"""What every reader shares: the result type, Thai heading patterns, section building."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ingest.errors import InvalidSource
from ingest.ids import normalise_section_number, section_key, section_label
from ingest.models import Division, Law, Section
from ingest.structure import split_paragraphs


@dataclass
class ReadResult:
    """Laws read from one file, and the laws of a multi-law file that were rejected.

    Iterating yields the laws, so callers written against `list[Law]` keep working.
    """

    laws: list[Law] = field(default_factory=list)
    rejected: list[InvalidSource] = field(default_factory=list)

    def __iter__(self) -> Iterator[Law]:
        return iter(self.laws)

    def __len__(self) -> int:
        return len(self.laws)


# Buddhist-scripture ordinals used for inserted sections ("๑๙ ทวิ" = 19 bis), longest
# first so that "อัฏฐารส" is not read as "อัฏฐ" + text.
_SUFFIXES = sorted(
    """ทวิ ตรี จัตวา เบญจ ฉ สัตต อัฏฐ อัฎฐ อัฐ นว ทศ เอกาทศ ทวาทศ เตรส จตุทศ ปัณรส ปัญจทศ
    โสฬส สัตตรส อัฏฐารส อัฏฐารส เอกูนวีสติ วีสติ เอกวีสติ ทวาวีสติ เตวีสติ จตุวีสติ
    ปัญจวีสติ ฉัพพีสติ สัตตวีสติ อัฏฐวีสติ เอกูนตึสติ ตึสติ""".split(),
    key=len,
    reverse=True,
)
_DIGITS = r"[0-9๐-๙]+"
SECTION_NUMBER = (
    rf"{_DIGITS}(?:\s*/\s*{_DIGITS})?"
    rf"(?:\s*(?:{'|'.join(_SUFFIXES)})(?=[\s/)\]]|$))?"
    rf"(?:\s*/\s*{_DIGITS})?"
)
# "หมวด ๒ การคุ้มครองข้อมูลส่วนบุคคล", "หมวด 1 ทวิ", "ส่วนที่ ๑ บททั่วไป"
CHAPTER_HEADING = re.compile(rf"^หมวด\s*(?P<num>{SECTION_NUMBER})(?:\s+(?P<title>.*))?$")
PART_HEADING = re.compile(rf"^ส่วนที่\s*(?P<num>{SECTION_NUMBER})(?:\s+(?P<title>.*))?$")
TRANSITIONAL_TITLES = ("บทเฉพาะกาล", "บทบัญญัติเฉพาะกาล")
REPEALED = re.compile(r"^\(?\s*ยกเลิก\s*\)?$")


def make_section(
    law_id: str,
    number: str,
    text: str,
    *,
    language: str,
    order: int,
    unit: str | None = None,
    title: str = "",
    chapter_key: str | None = None,
    part_key: str | None = None,
    label: str | None = None,
) -> Section:
    number = normalise_section_number(number)
    text = text.strip()
    return Section(
        key=section_key(law_id, number),
        number=number,
        label=label or section_label(number, language, unit=unit),
        text=text,
        paragraphs=split_paragraphs(text),
        title=title,
        chapter_key=chapter_key,
        part_key=part_key,
        order=order,
        repealed=bool(REPEALED.match(text)),
    )


def chapter_division(law_id: str, number: str, label: str, title: str, order: int) -> Division:
    return Division(
        kind="chapter",
        key=f"{law_id}:ch:{number}",
        number=number,
        label=label,
        title=title,
        order=order,
    )


def part_division(
    law_id: str, chapter_key: str | None, number: str, label: str, title: str, order: int
) -> Division:
    parent = chapter_key or law_id
    return Division(
        kind="part",
        key=f"{parent}:pt:{number}",
        number=number,
        label=label,
        title=title,
        parent_key=chapter_key,
        order=order,
    )


def transitional_division(law_id: str, label: str, order: int) -> Division:
    return chapter_division(law_id, "transitional", label, label, order)


def check_unique_numbers(path: str, sections: list[Section]) -> None:
    seen: dict[str, Section] = {}
    for section in sections:
        first = seen.get(section.number)
        if first is not None:
            raise InvalidSource(
                path,
                f"duplicate section number {section.number} ({first.label} appears at "
                f"positions {first.order} and {section.order})",
            )
        seen[section.number] = section
