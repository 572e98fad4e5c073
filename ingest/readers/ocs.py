"""OCS provision files (searchlaw.ocs.go.th as scraped into Ansvar-Systems seeds).

One law: `{"title_th", "status", "be_year", "provisions": [{"section", "title",
"content"}]}`; a laws.jsonl holds one such record per line.

Rules, from the quirks in shared/corpus/PROVENANCE.md:
- The section number comes from the heading inside `content` ("มาตรา ๖๕ เอกวีสติ/๑"),
  which is right where the `section` field is truncated, misspelt ("ุ6") or "undefined";
  the field is the fallback when the content has no heading.
- Preamble (คำปรารภ) and remarks (หมายเหตุ) are not sections; the law's own are kept
  in `Law.notes`, where a decree names what it is issued under. A heading-only provision
  ("บทเฉพาะกาล", "หมวด ๑ …") becomes a chapter-level division.
- OCS consolidated texts append the provisions of amending acts after the law's own
  text. The law's text ends at the first remarks provision after a section, or at the
  first repeated section number, whichever comes first; each block that follows (up to
  its remarks) is one act that changed the law, kept as `Law.appended_acts` in its own
  numbering, never as the law's sections: its "มาตรา ๒" or "มาตรา ๓๙" are not this law's
  (ingest/amendments.py reads what it says it amended). A block before the law's text
  (the act promulgating a code) is skipped and counted in `Law.warnings`.
- A decree or regulation whose record holds only its notes (many ministerial regulations:
  OCS gives their remarks, not their ข้อ) is kept without sections, for what its notes say
  it is issued under; any other record without a numbered section is refused.
- A law is ministerial-regulation style when its headings say "ข้อ" and none say "มาตรา":
  then ข้อ is the section unit ("ข้อ ๑"). In a มาตรา law a ข้อ-headed provision is an
  annexed instrument and is skipped with a warning.
- "(ยกเลิก)" sections stay (with `repealed=True`): other laws still cite them.
  Ranges ("มาตรา ๒๔๙ ถึง มาตรา ๒๗๖ (ยกเลิก)") and untitled notes are skipped with a
  warning.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ingest.errors import InvalidSource
from ingest.ids import (
    SUBORDINATE_KINDS,
    law_id_for_title,
    law_kind,
    normalise_section_number,
    normalise_title,
    short_name_for,
    title_aliases,
    title_year,
)
from ingest.models import AppendedAct, Division, Law, Section
from ingest.readers.base import (
    CHAPTER_HEADING,
    PART_HEADING,
    SECTION_NUMBER,
    TRANSITIONAL_TITLES,
    ReadResult,
    chapter_division,
    make_section,
    part_division,
    transitional_division,
)

_NOT_SECTIONS = {"คำปรารภ", "หมายเหตุ"}
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING = re.compile(
    rf"^\*?\s*(?P<unit>มาตรา|ข้อ)\s*(?P<num>{SECTION_NUMBER})"
    rf"(?P<range>\s*ถึง\s*(?:มาตรา|ข้อ)\s*{SECTION_NUMBER})?(?=\s|$|\()"
)
_HEADING_LINES = 3  # marginal titles ("ว่าด้วยโทษ") stand on the lines before a heading
# An act's own name, in its section 1: "พระราชบัญญัตินี้เรียกว่า “…”".
_CALLED = re.compile(r"(?:พระราชบัญญัติ|พระราชกำหนด)นี้เรียกว่า\s*[“\"](?P<title>[^”\"\n]{5,200})[”\"]")


def looks_like_ocs(document: Any) -> bool:
    return isinstance(document, dict) and "title_th" in document and "provisions" in document


def read_ocs_law(path: str, record: dict[str, Any]) -> Law:
    """One OCS record; `InvalidSource` when it holds no section of its own."""
    return _Reader(path, record).read()


def read_ocs_records(path: str, text: str) -> ReadResult:
    """A laws.jsonl: every line becomes a law or a rejection naming the line and law."""
    result = ReadResult()
    first_line: dict[str, int] = {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            result.rejected.append(InvalidSource(where, f"invalid JSON: {error.msg}"))
            continue
        if not looks_like_ocs(record):
            result.rejected.append(
                InvalidSource(where, "not an OCS record (no title_th/provisions)")
            )
            continue
        try:
            law = read_ocs_law(f"{where} ({record['title_th']})", record)
        except InvalidSource as error:
            result.rejected.append(error)
            continue
        if law.id in first_line:
            # The seed repo scraped a few laws twice under different file names.
            result.rejected.append(
                InvalidSource(
                    law.source,
                    f"duplicate law (same law id as line {first_line[law.id]}: {law.id})",
                )
            )
            continue
        first_line[law.id] = line_number
        result.laws.append(law)
    if not result.laws and not result.rejected:
        raise InvalidSource(path, "no records")
    return result


@dataclass
class _Provision:
    unit: str
    number: str
    text: str
    title: str
    heading_lines: list[str]


@dataclass
class _Reader:
    path: str
    record: dict[str, Any]
    divisions: list[Division] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    appended: list[AppendedAct] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def read(self) -> Law:
        title = re.sub(r"\s*\(ยกเลิก\)\s*$", "", str(self.record.get("title_th") or "")).strip()
        if not title:
            raise InvalidSource(self.path, "record has no title_th")
        provisions = self.record.get("provisions") or []
        if not isinstance(provisions, list) or not provisions:
            raise InvalidSource(self.path, "no provisions (metadata only)")
        law_id = law_id_for_title(title)
        self._collect(law_id, provisions)
        if not self.sections and not (law_kind(title) in SUBORDINATE_KINDS and self.notes):
            raise InvalidSource(
                self.path, "no numbered sections (only preamble, remarks or headings)"
            )
        if not self.sections:
            self.warnings.append(
                "no numbered sections: the regulation is kept for its notes, which name what "
                "it is issued under"
            )
        return Law(
            id=law_id,
            title=title,
            language="th",
            jurisdiction="TH",
            source=self.path,
            short_name=short_name_for(title),
            status=str(self.record.get("status") or ""),
            year=str(self.record.get("be_year") or title_year(title)),
            aliases=title_aliases(title),
            divisions=self.divisions,
            sections=self.sections,
            notes=tuple(self.notes),
            appended_acts=self.appended,
            warnings=self.warnings,
        )

    def _collect(self, law_id: str, provisions: list[dict[str, Any]]) -> None:
        parsed = [self._parse(raw) for raw in provisions]
        blocks = _blocks(provisions, parsed)
        counts = [sum(parsed[index] is not None for index in block) for block in blocks]
        own = max(range(len(blocks)), key=lambda index: (counts[index], -index))
        self.notes = _block_notes(provisions, blocks, own)
        unit = self._unit([parsed[index] for index in blocks[own]])
        chapter_key: str | None = None
        part_key: str | None = None
        for index in blocks[own]:
            raw, provision = provisions[index], parsed[index]
            content = _clean(str(raw.get("content") or ""))
            heading = _division_line(content)
            if provision is None and heading is not None:
                chapter_key, part_key = self._open_division(law_id, heading, chapter_key, part_key)
                continue
            if provision is None:
                self._skip(raw, content)
                continue
            if provision.unit != unit:
                self.warnings.append(
                    f"skipped {provision.unit} {provision.number}: a {provision.unit} inside a "
                    f"{unit} law belongs to an annexed instrument"
                )
                continue
            for line in provision.heading_lines:
                found = _division_line(line)
                if found is not None:
                    chapter_key, part_key = self._open_division(
                        law_id, found, chapter_key, part_key
                    )
            self.sections.append(
                make_section(
                    law_id,
                    provision.number,
                    provision.text,
                    language="th",
                    order=len(self.sections) + 1,
                    unit=None if unit == "มาตรา" else unit,
                    title=provision.title,
                    chapter_key=chapter_key,
                    part_key=part_key,
                )
            )
        for index in range(own + 1, len(blocks)):
            if counts[index]:
                number = len(self.appended) + 1
                self.appended.append(_appended_act(provisions, parsed, blocks, index, number))
        before = sum(counts[:own])
        if before:
            self.warnings.append(
                f"kept text block {own + 1} of {len(blocks)}; skipped {before} sections of "
                "the act OCS consolidation prints before the text (the act promulgating a code)"
            )

    @staticmethod
    def _unit(parsed: list[_Provision | None]) -> str:
        units = Counter(p.unit for p in parsed if p is not None)
        return "มาตรา" if units["มาตรา"] or not units["ข้อ"] else "ข้อ"

    def _parse(self, raw: dict[str, Any]) -> _Provision | None:
        kind = str(raw.get("title") or "").strip()
        if kind in _NOT_SECTIONS or not kind:
            return None
        content = _clean(str(raw.get("content") or ""))
        lines = content.split("\n")
        for index, line in enumerate(lines[:_HEADING_LINES]):
            match = _HEADING.match(line.strip())
            if match is None:
                continue
            if match.group("range"):
                return None
            rest = line.strip()[match.end() :].strip()
            text = "\n".join([rest, *lines[index + 1 :]]).strip()
            before = [item.strip() for item in lines[:index] if item.strip()]
            titles = [item for item in before if _division_line(item) is None]
            return _Provision(
                unit=match.group("unit"),
                number=normalise_section_number(match.group("num")),
                text=_join_wrapped_number(text),
                title=" ".join(titles),
                heading_lines=before,
            )
        field_number = normalise_section_number(str(raw.get("section") or ""))
        if field_number[:1].isdigit() and kind.startswith("มาตรา"):
            return _Provision("มาตรา", field_number, content, "", [])
        return None

    def _open_division(
        self,
        law_id: str,
        heading: tuple[str, str, str, str],
        chapter_key: str | None,
        part_key: str | None,
    ) -> tuple[str | None, str | None]:
        kind, number, label, title = heading
        order = len(self.divisions) + 1
        if kind == "transitional":
            division = transitional_division(law_id, label, order)
        elif kind == "chapter":
            division = chapter_division(law_id, number, label, title, order)
        else:
            division = part_division(law_id, chapter_key, number, label, title, order)
        if all(existing.key != division.key for existing in self.divisions):
            self.divisions.append(division)
        if kind == "part":
            return chapter_key, division.key
        return division.key, None

    def _skip(self, raw: dict[str, Any], content: str) -> None:
        kind = str(raw.get("title") or "").strip()
        if not kind:
            self.warnings.append(f"skipped an untitled note: {content[:40]!r}")
        elif "ถึง" in content[:60]:
            self.warnings.append(f"skipped a section range: {content[:60]!r}")
        else:
            self.warnings.append(f"skipped provision {kind!r} with no section number")


def _appended_act(
    provisions: list[dict[str, Any]],
    parsed: list[_Provision | None],
    blocks: list[list[int]],
    index: int,
    number: int,
) -> AppendedAct:
    """Block `index`, the `number`th act after the law's text, as the act it prints, with
    the remarks that follow it (OCS prints each act's remarks after its provisions)."""
    kept = [p for i in blocks[index] if (p := parsed[i]) is not None]
    named = _CALLED.search("\n".join(p.text for p in kept))
    end = min(blocks[index + 1]) if index + 1 < len(blocks) and blocks[index + 1] else None
    remarks = [
        _clean(str(raw.get("content") or ""))
        for raw in provisions[max(blocks[index]) + 1 : end]
        if str(raw.get("title") or "").strip() == "หมายเหตุ"
    ]
    return AppendedAct(
        index=number,
        title=" ".join(named["title"].split()) if named else "",
        provisions=tuple((p.unit, p.number, p.text) for p in kept),
        notes=tuple(remarks),
    )


def _block_notes(provisions: list[dict[str, Any]], blocks: list[list[int]], own: int) -> list[str]:
    """The preamble and remarks of block `own`: those after the previous block's last
    provision and before the next block's first."""
    previous = [index for block in blocks[:own] for index in block]
    following = [index for block in blocks[own + 1 :] for index in block]
    start = max(previous) + 1 if previous else 0
    end = min(following) if following else len(provisions)
    return [
        _clean(str(provisions[index].get("content") or ""))
        for index in range(start, end)
        if str(provisions[index].get("title") or "").strip() in _NOT_SECTIONS
    ]


def _blocks(provisions: list[dict[str, Any]], parsed: list[_Provision | None]) -> list[list[int]]:
    """Provision indexes split into the acts OCS concatenated: a new block starts after
    remarks (หมายเหตุ) and where a section number repeats within the current block."""
    blocks: list[list[int]] = [[]]
    seen: set[tuple[str, str]] = set()
    for index, (raw, provision) in enumerate(zip(provisions, parsed, strict=True)):
        kind = str(raw.get("title") or "").strip()
        if kind == "หมายเหตุ":
            if seen:
                blocks.append([])
                seen = set()
            continue
        if kind in _NOT_SECTIONS:
            continue
        if provision is not None:
            number = (provision.unit, provision.number)
            if number in seen:
                blocks.append([])
                seen = set()
            seen.add(number)
        blocks[-1].append(index)
    return blocks


def _clean(content: str) -> str:
    content = _HTML_COMMENT.sub("", content).replace("\r\n", "\n").replace("\xa0", " ")
    # Underlines under headings ("บทเฉพาะกาล\n___________") are typography, not text.
    content = re.sub(r"(?m)^[ \t]*[_=\-]{3,}[ \t]*$", "", content)
    return re.sub(r"\n{3,}", "\n\n", content).strip()


def _join_wrapped_number(text: str) -> str:
    """OCS wraps lines inside citations ("ตามมาตรา\\n๑๗๒ วรรคสอง"); rejoin them so the
    citation extractor sees one phrase."""
    return re.sub(r"(มาตรา|ข้อ)\s*\n\s*(?=[0-9๐-๙])", r"\1 ", text)


def _division_line(content: str) -> tuple[str, str, str, str] | None:
    """(kind, number, label, title) for a heading-only text."""
    first = content.strip().split("\n", 1)
    head = first[0].strip()
    rest = first[1].strip() if len(first) > 1 else ""
    if head in TRANSITIONAL_TITLES and not rest:
        return ("transitional", "transitional", head, head)
    for kind, pattern in (("chapter", CHAPTER_HEADING), ("part", PART_HEADING)):
        match = pattern.match(head)
        if match and len(head) <= 200 and "\n" not in rest:
            number = normalise_section_number(match.group("num"))
            title = (match.group("title") or rest).strip()
            return (kind, number, re.sub(r"\s+", " ", head[: match.end("num")]).strip(), title)
    return None


__all__ = ["looks_like_ocs", "normalise_title", "read_ocs_law", "read_ocs_records"]
