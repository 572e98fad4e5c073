"""NitiBench statute files: `[{law_name, section_num, section_content, reference}]`.

`section_content` repeats the law name and "มาตรา N" before the text; both are cut.
`reference` lists the sections each section cites, as the dataset's annotators marked
them. They go to `Law.marked_citations` as (source key, target key, kind):
- the target key is always `section_key(law_id_for_title(target law name), number)`,
  so a cross-law target in the corpus has exactly the key its own reader gives it;
- kind is "marked" when `include` is true (target inside the NitiBench corpus) and
  "marked-outside-corpus" when it is false.
Revenue Code schedule items ("บัญชีอัตราอากรแสตมป์ 1") are kept as sections whose number
is that text, because the 5,127-section count includes them.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.errors import InvalidSource
from ingest.ids import (
    clean_spaces,
    law_id_for_title,
    normalise_section_number,
    section_key,
    short_name_for,
    thai_to_arabic_digits,
    title_aliases,
    title_year,
)
from ingest.models import Law
from ingest.readers.base import SECTION_NUMBER, check_unique_numbers, make_section

_RECORD_FIELDS = {"law_name", "section_num", "section_content"}


def looks_like_nitibench(document: Any) -> bool:
    return (
        isinstance(document, list)
        and bool(document)
        and isinstance(document[0], dict)
        and _RECORD_FIELDS <= set(document[0])
    )


def read_nitibench(path: str, records: list[dict[str, Any]]) -> Law:
    names = {str(record.get("law_name") or "") for record in records}
    if len(names) != 1:
        raise InvalidSource(path, f"expected one law per file, found {len(names)} law names")
    title = names.pop().strip()
    law_id = law_id_for_title(title)
    sections = []
    marked: list[tuple[str, str, str]] = []
    for order, record in enumerate(records, start=1):
        raw_number = str(record.get("section_num") or "").strip()
        if not raw_number:
            raise InvalidSource(path, f"record {order} has no section_num")
        section = make_section(
            law_id,
            raw_number,
            _strip_prefix(str(record.get("section_content") or ""), title, raw_number),
            language="th",
            order=order,
        )
        sections.append(section)
        marked.extend(_marked(section.key, title, record.get("reference") or []))
    check_unique_numbers(path, sections)
    return Law(
        id=law_id,
        title=title,
        language="th",
        jurisdiction="TH",
        source=path,
        short_name=short_name_for(title),
        year=title_year(title),
        aliases=title_aliases(title),
        sections=sections,
        marked_citations=marked,
    )


def _marked(
    source: str, title: str, references: list[dict[str, Any]]
) -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for reference in references:
        target_law = str(reference.get("law_name") or title).strip()
        target = section_key(law_id_for_title(target_law), str(reference["section_num"]))
        kind = "marked" if reference.get("include", True) else "marked-outside-corpus"
        if (source, target, kind) not in found:
            found.append((source, target, kind))
    return found


def _strip_prefix(content: str, title: str, number: str) -> str:
    text = clean_spaces(content).strip()
    if text.startswith(title):
        text = text[len(title) :].lstrip()
    # "มาตรา 3 โสฬส", "มาตรา3 โสฬส", "มาตรา 4/1" with any spacing and either digits.
    wanted = normalise_section_number(number)
    match = re.match(rf"^มาตรา\s*({SECTION_NUMBER})", text)
    if match and normalise_section_number(match.group(1)) == wanted:
        return text[match.end() :].strip()
    # Schedule items repeat their heading ("บัญชีอัตราอากรแสตมป์") before the text.
    head = thai_to_arabic_digits(number).rsplit(" ", 1)[0]
    if not wanted[:1].isdigit() and text.startswith(head):
        return text[len(head) :].strip()
    return text
