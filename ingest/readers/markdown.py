"""Markdown or plain text statutes.

Thai: หมวด / ส่วนที่ / บทเฉพาะกาล headings and "มาตรา N" (or "ข้อ N") sections, Thai or
Arabic digits, with or without "#", including the sidataplus layout where a section opens
a line as "&emsp; [[มาตรา ๑]] text". English: "CHAPTER I" / "Section 1" / "Article N"
(or "PART 1" / "Section N" for Singapore-style acts).

Divisions come into being only when a section follows them: a table of contents lists
the same headings with no sections under them and so leaves no trace. A heading the
reader does not know ("บทนำ", "สารบัญ") closes the chapter it sits at or above, which is
why ss.1–7 of the sidataplus PDPA belong to no chapter.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from ingest.errors import InvalidSource
from ingest.ids import (
    clean_spaces,
    law_id_for_title,
    normalise_section_number,
    section_key,
    short_name_for,
    title_aliases,
    title_year,
)
from ingest.models import Division, Law, Section
from ingest.readers.base import (
    CHAPTER_HEADING,
    PART_HEADING,
    SECTION_NUMBER,
    TRANSITIONAL_TITLES,
    chapter_division,
    check_unique_numbers,
    make_section,
    part_division,
    transitional_division,
)
from ingest.readers.sidataplus import WIKI_LINK, link_target_number, replace_links

_THAI = re.compile(r"[\u0e00-\u0e7f]")
_HEADING_MARKS = re.compile(r"^(?P<hashes>#{1,6})\s*")
_BOLD = re.compile(r"^\*\*(?P<inner>.*?)\*\*\s*")
_ROMAN = re.compile(r"^[IVXLC]+$")
_EN_CHAPTER = re.compile(
    r"^(?:CHAPTER|Chapter)\s+(?P<num>[IVXLC]+|\d+)\b\s*[-–—:.]?\s*(?P<title>.*)$"
)
_EN_PART = re.compile(r"^(?:PART|Part)\s+(?P<num>[IVXLC]+|\d+[A-Z]?)\b\s*[-–—:.]?\s*(?P<title>.*)$")
_EN_SUBSECTION = re.compile(r"^Section\s+(?P<num>\d+)\b\s*[-–—:.]?\s*(?P<title>.*)$")
_TITLE_PREFIXES = ("พระราชบัญญัติ", "พระราชกำหนด", "พระราชกฤษฎีกา", "ประมวล", "กฎกระทรวง")


@dataclass
class _Heading:
    kind: str  # "chapter" | "part"
    number: str
    label: str
    title: str
    level: int  # count of "#", 0 for a plain-text heading
    division: Division | None = None


@dataclass
class _State:
    law_id: str
    language: str
    unit: str
    divisions: list[Division] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    marked: list[tuple[str, str, str]] = field(default_factory=list)
    chapter: _Heading | None = None
    part: _Heading | None = None
    awaiting_title: _Heading | None = None
    current: dict[str, object] | None = None  # the section being collected


def read_markdown(path: str, text: str) -> Law:
    front, body = _front_matter(text)
    lines = [_clean_line(line) for line in body.splitlines()]
    title = front.get("title") or _guess_title(lines) or path.rsplit("/", 1)[-1]
    language = "th" if _THAI.search(body) else "en"
    law_id = law_id_for_title(title)
    state = _State(law_id=law_id, language=language, unit=_section_unit(lines, language))
    for line in lines:
        _consume(state, line)
    _close_section(state)
    if not state.sections:
        raise InvalidSource(
            path,
            "no recognisable sections (expected lines starting with 'มาตรา N', 'ข้อ N' or "
            "'Article N')",
        )
    check_unique_numbers(path, state.sections)
    return Law(
        id=law_id,
        title=title,
        language=language,
        jurisdiction=_jurisdiction(law_id, language),
        source=path,
        short_name=short_name_for(title),
        year=title_year(title),
        aliases=title_aliases(title),
        divisions=state.divisions,
        sections=state.sections,
        marked_citations=state.marked,
    )


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end == -1:
        return {}, text
    fields: dict[str, str] = {}
    for line in text[3:end].splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip().strip("'\"")
    return fields, text[end + 4 :]


def _clean_line(line: str) -> str:
    return clean_spaces(html.unescape(line)).strip()


def _guess_title(lines: list[str]) -> str:
    for line in lines[:20]:
        stripped = _HEADING_MARKS.sub("", line).strip()
        if stripped.startswith(_TITLE_PREFIXES) or re.match(
            r"^[A-Z].*\b(Act|Regulation)\b", stripped
        ):
            return stripped
    return ""


def _section_unit(lines: list[str], language: str) -> str:
    """มาตรา unless the text has only ข้อ (ministerial regulations); Article unless an
    English text has only "Section N" headings (Singapore)."""
    if language == "th":
        units = ("มาตรา", "ข้อ")
    else:
        units = ("Article", "Section")
    for unit in units:
        if any(_section_start(_strip_heading(line)[1], unit, language) for line in lines):
            return unit
    return units[0]


def _strip_heading(line: str) -> tuple[int, str]:
    match = _HEADING_MARKS.match(line)
    level = len(match.group("hashes")) if match else 0
    content = line[match.end() :] if match else line
    bold = _BOLD.match(content)
    if bold:
        content = bold.group("inner") + " " + content[bold.end() :]
    return level, content.strip()


def _section_start(content: str, unit: str, language: str) -> tuple[str, str] | None:
    """(number, rest of line) when the line opens a section."""
    link = WIKI_LINK.match(content)
    if link:
        number = link_target_number(link.group("target"))
        if number is not None and link.group("target").strip().startswith(unit):
            return number, content[link.end() :].strip()
        return None
    if language == "th":
        match = re.match(rf"^{unit}\s*(?P<num>{SECTION_NUMBER})(?=\s|$)\s*(?P<rest>.*)$", content)
        return (match.group("num"), match.group("rest")) if match else None
    match = re.match(
        rf"^{unit}\s+(?P<num>\d+[A-Z]?)(?=\s|$|[.:–—-])\s*[.:–—-]?\s*(?P<rest>.*)$", content
    )
    if not match:
        return None
    rest = match.group("rest")
    # "Article 6 shall apply..." in a body is a citation; a heading is bare or titled.
    if rest and not rest[0].isupper():
        return None
    return match.group("num"), rest


def _consume(state: _State, line: str) -> None:
    if not line or line.startswith(">") or re.fullmatch(r"-{3,}|\*{3,}|_{3,}", line):
        return
    level, content = _strip_heading(line)
    start = _section_start(content, state.unit, state.language)
    if start is not None:
        _close_section(state)
        _open_section(state, *start)
        return
    heading = _division_heading(content, level, state.language, state.unit)
    if heading is not None:
        _close_section(state)
        if heading.kind == "chapter":
            state.chapter, state.part = heading, None
        else:
            state.part = heading
        state.awaiting_title = heading if not heading.title else None
        return
    if level > 0:
        _close_section(state)
        if state.chapter is not None and level <= state.chapter.level:
            state.chapter, state.part = None, None
        elif state.part is not None and level <= state.part.level:
            state.part = None
        return
    if state.awaiting_title is not None and state.current is None:
        state.awaiting_title.title = content
        state.awaiting_title = None
        return
    if state.current is not None:
        lines = state.current["lines"]
        assert isinstance(lines, list)  # noqa: S101 - narrows the dict value for mypy
        if state.language == "en" and not lines and not state.current["title"]:
            if _looks_like_title(content):
                state.current["title"] = content  # "Article 6" then "Lawfulness of processing"
                return
        lines.append(content)


def _looks_like_title(line: str) -> bool:
    return (
        len(line) <= 120
        and line[:1].isupper()
        and not line.endswith((".", ";", ":", ","))
        and not re.match(r"^\d+\.", line)
    )


def _division_heading(content: str, level: int, language: str, unit: str) -> _Heading | None:
    if language == "th":
        if content in TRANSITIONAL_TITLES:
            return _Heading("chapter", "transitional", content, content, level)
        for kind, pattern in (("chapter", CHAPTER_HEADING), ("part", PART_HEADING)):
            match = pattern.match(content)
            if match and len(content) <= 200:
                number = normalise_section_number(match.group("num"))
                label = re.sub(r"\s+", " ", content[: match.end("num")]).strip()
                return _Heading(kind, number, label, (match.group("title") or "").strip(), level)
        return None
    chapter_pattern = _EN_CHAPTER if unit == "Article" else _EN_PART
    match = chapter_pattern.match(content)
    if match:
        return _Heading(
            "chapter",
            _arabic(match.group("num")),
            content[: match.end("num")],
            match.group("title"),
            level,
        )
    if unit == "Article":
        match = _EN_SUBSECTION.match(content)
        if match and (level > 0 or not match.group("title")[:1].islower()):
            return _Heading(
                "part", match.group("num"), content[: match.end("num")], match.group("title"), level
            )
    return None


def _arabic(number: str) -> str:
    if not _ROMAN.match(number):
        return number
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for char, following in zip(number, number[1:] + " ", strict=True):
        value = values[char]
        total += -value if values.get(following, 0) > value else value
    return str(total)


def _open_section(state: _State, number: str, rest: str) -> None:
    state.awaiting_title = None
    chapter_key = _materialise(state, state.chapter, None)
    part_key = _materialise(state, state.part, chapter_key)
    title = ""
    lines: list[str] = []
    if state.language == "en":
        title = rest  # "Article 9 Processing of special categories of personal data"
    elif rest:
        lines.append(rest)
    state.current = {
        "number": number,
        "title": title,
        "lines": lines,
        "chapter_key": chapter_key,
        "part_key": part_key,
    }


def _materialise(state: _State, heading: _Heading | None, chapter_key: str | None) -> str | None:
    if heading is None:
        return None
    if heading.division is None:
        existing = {division.key: division for division in state.divisions}
        order = len(state.divisions) + 1
        if heading.kind == "chapter" and heading.number == "transitional":
            division = transitional_division(state.law_id, heading.label, order)
        elif heading.kind == "chapter":
            division = chapter_division(
                state.law_id, heading.number, heading.label, heading.title, order
            )
        else:
            division = part_division(
                state.law_id, chapter_key, heading.number, heading.label, heading.title, order
            )
        heading.division = existing.get(division.key, division)
        if division.key not in existing:
            state.divisions.append(division)
    return heading.division.key


def _close_section(state: _State) -> None:
    current = state.current
    if current is None:
        return
    state.current = None
    lines = current["lines"]
    assert isinstance(lines, list)  # noqa: S101 - narrows the dict value for mypy
    text, targets = replace_links("\n".join(str(line) for line in lines))
    number = str(current["number"])
    section = make_section(
        state.law_id,
        number,
        text,
        language=state.language,
        order=len(state.sections) + 1,
        unit=state.unit if state.unit != "มาตรา" else None,
        title=str(current["title"]),
        chapter_key=current["chapter_key"] if isinstance(current["chapter_key"], str) else None,
        part_key=current["part_key"] if isinstance(current["part_key"], str) else None,
    )
    state.sections.append(section)
    for target in targets:
        marked = (section.key, section_key(state.law_id, target), "marked")
        if marked[1] != section.key and marked not in state.marked:
            state.marked.append(marked)


def _jurisdiction(law_id: str, language: str) -> str:
    prefix = law_id.split("-", 1)[0]
    if prefix in {"eu", "sg", "jp", "th"} and "-" in law_id:
        return prefix.upper()
    return "TH" if language == "th" else ""
