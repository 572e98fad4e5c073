"""EUR-Lex article files (the GDPR seed): `{"full_name", "celex_id", "articles": [...],
"recitals": [...]}`.

The seed's `chapter` field is off by one at most chapter ends (the last article of a
chapter carries the next chapter's number; Arts. 97-99 say VII), and the text has no
chapter headings, so the GDPR's chapters come from the Regulation's own table of
contents below. Other EUR-Lex files keep the field as given.
"""

from __future__ import annotations

import re
from typing import Any

from ingest.errors import InvalidSource
from ingest.ids import CURATED_NAMES, clean_spaces, law_id_for_title
from ingest.models import Division, Law, Recital
from ingest.readers.base import chapter_division, check_unique_numbers, make_section

# (chapter, first article, title) from Regulation (EU) 2016/679, OJ L 119, 4.5.2016.
_GDPR_CHAPTERS = (
    ("I", 1, "General provisions"),
    ("II", 5, "Principles"),
    ("III", 12, "Rights of the data subject"),
    ("IV", 24, "Controller and processor"),
    ("V", 44, "Transfers of personal data to third countries or international organisations"),
    ("VI", 51, "Independent supervisory authorities"),
    ("VII", 60, "Cooperation and consistency"),
    ("VIII", 77, "Remedies, liability and penalties"),
    ("IX", 85, "Provisions relating to specific processing situations"),
    ("X", 92, "Delegated acts and implementing acts"),
    ("XI", 94, "Final provisions"),
)
# Art. 99's scraped text runs on into the signature block, OJ footnotes and page script.
_SIGNATURE = re.compile(r"\n\s*Done at Brussels")
# An article without a `title` whose text opens with it, on a line of its own above
# paragraph "1." (the GDPR seed's Arts. 12 and 89).
_TITLE_IN_TEXT = re.compile(r"^(?P<title>[^\n]{1,300})\n\s*\n(?=1\.\s)")


def looks_like_eurlex(document: Any) -> bool:
    return isinstance(document, dict) and isinstance(document.get("articles"), list)


def read_eurlex(path: str, document: dict[str, Any]) -> Law:
    title = str(document.get("full_name") or document.get("title") or document.get("id") or "")
    if not title:
        raise InvalidSource(path, "no full_name/title")
    law_id = law_id_for_title(title)
    chapters = _chapters(law_id, document) if law_id == "eu-gdpr" else {}
    divisions: list[Division] = []
    sections = []
    warnings: list[str] = []
    for order, article in enumerate(document["articles"], start=1):
        number = str(article.get("number") or "").strip()
        if not number:
            raise InvalidSource(path, f"article {order} has no number")
        text = _SIGNATURE.split(clean_spaces(str(article.get("text") or "")), maxsplit=1)[0]
        heading = str(article.get("title") or "")
        if not heading and (opening := _TITLE_IN_TEXT.match(text)):
            heading, text = opening.group("title").strip(), text[opening.end() :]
        chapter = chapters.get(int(number)) if number.isdigit() else None
        if chapter is not None and chapter not in divisions:
            divisions.append(chapter)
        sections.append(
            make_section(
                law_id,
                number,
                text,
                language="en",
                order=order,
                title=heading,
                chapter_key=chapter.key if chapter else None,
            )
        )
    check_unique_numbers(path, sections)
    short_name, aliases = CURATED_NAMES.get(law_id, (str(document.get("id") or ""), ()))
    return Law(
        id=law_id,
        title=title,
        language="en",
        jurisdiction="EU",
        source=path,
        short_name=short_name,
        status="in_force",
        year=str(document.get("effective_date") or "")[:4] if law_id != "eu-gdpr" else "2016",
        aliases=aliases,
        divisions=divisions,
        sections=sections,
        recitals=_recitals(path, document, warnings),
        warnings=warnings,
    )


def _recitals(path: str, document: dict[str, Any], warnings: list[str]) -> list[Recital]:
    """`"recitals": [{"recital_number": 1, "text": "…"}, …]`, where the file has them. A
    recital printed twice with the same text (the GDPR seed repeats recital 173) is kept
    once; two different texts under one number are an error."""
    recitals: dict[str, Recital] = {}
    for order, item in enumerate(document.get("recitals") or [], start=1):
        if not isinstance(item, dict):
            raise InvalidSource(path, f"recital {order} is not an object")
        number = str(item.get("recital_number") or item.get("number") or "").strip()
        text = clean_spaces(str(item.get("text") or ""))
        if not number or not text:
            raise InvalidSource(path, f"recital {order} has no number or no text")
        if number in recitals:
            if recitals[number].text != text:
                raise InvalidSource(path, f"recital {number} appears twice with different texts")
            warnings.append(f"recital {number} appears twice with the same text: kept once")
            continue
        recitals[number] = Recital(number, text)
    return list(recitals.values())


def _chapters(law_id: str, document: dict[str, Any]) -> dict[int, Division]:
    numbers = sorted(
        int(a["number"]) for a in document["articles"] if str(a.get("number")).isdigit()
    )
    by_article: dict[int, Division] = {}
    for index, (roman, first, title) in enumerate(_GDPR_CHAPTERS):
        last = _GDPR_CHAPTERS[index + 1][1] - 1 if index + 1 < len(_GDPR_CHAPTERS) else max(numbers)
        division = chapter_division(law_id, str(index + 1), f"CHAPTER {roman}", title, index + 1)
        for number in range(first, last + 1):
            by_article[number] = division
    return by_article
