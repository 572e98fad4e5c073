"""Singapore and Japan statute seeds (Ansvar-Systems *-law-mcp repositories).

Same layout as the OCS files but in English or Japanese: `{"title", "provisions":
[{"chapter", "section", "title", "content"}]}`. Singapore's Parts are its top-level
divisions and become chapter-level divisions ("Part 9A"); its sections are labelled
"Section N". Japan's articles are labelled "第N条" and its 章 are the chapters.

SG text was flattened into single lines with spaced markers ("( a )"); the markers are
closed up and put back on their own lines so that `split_paragraphs` finds the
subsections "(1)" and paragraphs "(a)".
"""

from __future__ import annotations

import re
from typing import Any

from ingest.errors import InvalidSource
from ingest.ids import CURATED_NAMES, clean_spaces, law_id_for_title
from ingest.models import Division, Law
from ingest.readers.base import chapter_division, check_unique_numbers, make_section

_SG_PART = re.compile(r"^PART\s+(?P<num>\d+[A-Z]?)\s*[-–—:]?\s*(?P<title>.*)$", re.IGNORECASE)
_JP_CHAPTER = re.compile(r"^Chapter\s+(?P<num>\d+)\s*:\s*(?P<label>第\S+章)\s*(?P<title>.*)$")
_SPACED_MARKER = re.compile(r"\(\s+([a-zA-Z]{1,4}|\d+[A-Z]?)\s+\)")


def looks_like_seed(document: Any) -> bool:
    provisions = document.get("provisions") if isinstance(document, dict) else None
    return (
        isinstance(provisions, list)
        and bool(provisions)
        and isinstance(document.get("title"), str)
        and "title_th" not in document
    )


def read_seed(path: str, document: dict[str, Any]) -> Law:
    provisions = document["provisions"]
    japanese = any(p.get("language") == "ja" for p in provisions)
    title = str(document.get("title") or "")
    law_id = law_id_for_title(title)
    language, jurisdiction = ("ja", "JP") if japanese else ("en", "SG")
    divisions: dict[str, Division] = {}
    sections = []
    for order, provision in enumerate(provisions, start=1):
        number = str(provision.get("section") or "").strip()
        if not number:
            raise InvalidSource(path, f"provision {order} has no section number")
        division = _division(
            law_id, str(provision.get("chapter") or ""), japanese, len(divisions) + 1
        )
        if division is not None:
            division = divisions.setdefault(division.key, division)
        content = clean_spaces(str(provision.get("content") or ""))
        text = content if japanese else _sg_text(number, content)
        sections.append(
            make_section(
                law_id,
                number,
                text,
                language=language,
                order=order,
                unit=None if japanese else "Section",
                title=str(provision.get("title") or "").strip("（）() "),
                chapter_key=division.key if division else None,
            )
        )
    check_unique_numbers(path, sections)
    short_name, aliases = CURATED_NAMES.get(law_id, (str(document.get("short_name") or ""), ()))
    return Law(
        id=law_id,
        title=title,
        language=language,
        jurisdiction=jurisdiction,
        source=path,
        short_name=short_name,
        status=str(document.get("status") or ""),
        year=_year(title, document),
        aliases=aliases,
        divisions=list(divisions.values()),
        sections=sections,
    )


def _division(law_id: str, chapter: str, japanese: bool, order: int) -> Division | None:
    chapter = clean_spaces(chapter).strip()
    if japanese:
        match = _JP_CHAPTER.match(chapter)
        if match:
            return chapter_division(
                law_id,
                match.group("num"),
                match.group("label"),
                match.group("title").strip(),
                order,
            )
        return None
    match = _SG_PART.match(chapter)
    if match:
        number = match.group("num").upper()
        return chapter_division(
            law_id, number, f"Part {number}", match.group("title").strip(), order
        )
    return None


def _sg_text(number: str, content: str) -> str:
    text = _SPACED_MARKER.sub(r"(\1)", content).strip()
    # "2. —(1) In this Act …": the number and the dash that opens its subsections go.
    text = re.sub(rf"^{re.escape(number)}\.\s*(?:—\s*(?=\())?", "", text)
    # Subsections "(1)" open sentences, also after an amendment note ("… [40/2020] (2) …");
    # paragraphs "(a)" follow "—", ":" or "; or" (the "or" stays at the end of its line).
    text = re.sub(r"(?:(?<=[.;:—\]])|^)\s*(?=\(\d+[A-Z]?\)\s)", "\n", text)
    text = re.sub(r"(?<=[—;:])(\s(?:or|and))?\s*(?=\([a-z]{1,2}\)\s)", r"\1\n", text)
    return text.strip()


def _year(title: str, document: dict[str, Any]) -> str:
    match = re.search(r"\b(19|20)\d{2}\b", title)
    if match:
        return match.group(0)
    # e-Gov law ids start with the era and its year: "415AC…" = Heisei 15 = 2003.
    era = re.match(r"^([345])(\d{2})AC", str(document.get("id") or ""))
    if era:
        return str({"3": 1925, "4": 1988, "5": 2018}[era.group(1)] + int(era.group(2)))
    return str(document.get("issued_date") or "")[:4]
