"""Paragraphs (วรรค / numbered EU paragraphs) and clauses ((๑), (ก), (a), (i)) of a section.

Input is a section's text with one paragraph or clause per line, as every reader
produces it. Thai drafting makes each line a new วรรค unless it starts with a clause
marker; EU drafting numbers its paragraphs "1.", "2." and keeps unnumbered lines
(subparagraphs) inside the numbered paragraph they follow; in a text that does not open
with "1.", a line numbered "1." is an item of the paragraph above it (Japan's 号, old Thai
"๑." lists). A clause an amendment inserted keeps its place in the list: Thai "(๕/๑)" and
"(๑ ทวิ)", common-law "(5A)" are clauses "5/1", "1 ทวิ", "5A" (no clause nests a number
under a number, so "5/1" in a clause path such as "5/1/ก" is one clause: `clause_path`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ingest.ids import THAI_ORDINAL, normalise_section_number
from ingest.models import Clause, Paragraph

_NUMBER = r"[0-9๐-๙]{1,3}"
# A number with what an amendment adds to insert a clause after it: "/๑", " ทวิ", "A".
_INSERTED_NUMBER = rf"{_NUMBER}(?:\s?/\s?[0-9๐-๙]{{1,2}}|[A-Z]{{1,2}}|\s?{THAI_ORDINAL})?"
_THAI_LETTER = r"[ก-ฮ]"
_LATIN_LETTER = r"[a-z]{1,2}"  # GDPR runs past (z) to (aa) in no article, but be safe
_ROMAN = r"(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)"
_MARKER = re.compile(
    rf"^\((?P<mark>{_INSERTED_NUMBER}|{_THAI_LETTER}|{_ROMAN}|{_LATIN_LETTER})\)\s*"
)
# "1.": an EU paragraph where the text opens with one, else an item of a paragraph.
_NUMBERED = re.compile(r"^(?P<num>\d{1,3})\.\s+(?=\S)")


@dataclass
class _ClauseBuilder:
    label: str
    number: str
    kind: str  # "number" | "letter" | "roman"
    span: tuple[int, int]
    lines: list[str] = field(default_factory=list)
    children: list[_ClauseBuilder] = field(default_factory=list)

    def build(self) -> Clause:
        return Clause(
            label=self.label,
            number=self.number,
            text=" ".join(self.lines).strip(),
            children=tuple(child.build() for child in self.children),
            span=self.span,
        )


@dataclass
class _ParagraphBuilder:
    index: int
    span: tuple[int, int]
    lines: list[str] = field(default_factory=list)
    clauses: list[_ClauseBuilder] = field(default_factory=list)

    def add(self, line: _Line) -> None:
        self.lines.append(line.text)
        self.span = (self.span[0], line.end)

    def build(self) -> Paragraph:
        return Paragraph(
            index=self.index,
            text="\n".join(self.lines).strip(),
            clauses=tuple(clause.build() for clause in self.clauses),
            span=self.span,
        )


def split_paragraphs(text: str) -> tuple[Paragraph, ...]:
    """Paragraphs of a section text with their clauses nested: "(ก)" under "(๕)",
    "(i)" under "(a)"; EU "1." paragraphs keep their number as the index, other "1." lines
    are items. Each clause keeps its offsets in `text` (its own line, and its sub-clauses'
    lines)."""
    lines = _join_bare_markers(_lines(text))
    numbered_eu = bool(lines and _NUMBERED.match(lines[0].text))
    paragraphs: list[_ParagraphBuilder] = []
    for line in lines:
        marker = _MARKER.match(line.text)
        item = None if numbered_eu else _NUMBERED.match(line.text)
        if paragraphs and (marker or item):
            if marker:
                _add_clause(paragraphs[-1], marker.group("mark"), line, marker.end())
            elif item:
                mark = item.group("num")
                _add_clause(paragraphs[-1], mark, line, item.end(), label=f"{mark}.")
            paragraphs[-1].add(line)
            continue
        eu = _NUMBERED.match(line.text) if numbered_eu else None
        if numbered_eu and paragraphs and not eu:
            paragraphs[-1].add(line)  # an EU subparagraph stays in its paragraph
            continue
        index = int(eu.group("num")) if eu else len(paragraphs) + 1
        paragraphs.append(_ParagraphBuilder(index, (line.start, line.end), [line.text]))
        if marker:  # a text that opens with a clause: the clause is the paragraph
            _add_clause(paragraphs[-1], marker.group("mark"), line, marker.end())
    return tuple(paragraph.build() for paragraph in paragraphs)


def clause_kind(line: str) -> str:
    """What kind of clause marker a line opens with: "number" ("(1)", "(๑)"), "letter"
    ("(a)", "(ก)", "(iv)"), or "" for a line that opens with none."""
    marker = _MARKER.match(line)
    if not marker:
        return ""
    return "number" if re.fullmatch(_INSERTED_NUMBER, marker.group("mark")) else "letter"


def place_at(paragraphs: Sequence[Paragraph], offset: int) -> tuple[int | None, tuple[str, ...]]:
    """Where `offset` of the text `paragraphs` came from lies: the paragraph's index and
    the clause path inside it, e.g. (1, ("6",)) inside "(๖)" of the first paragraph,
    (1, ("5", "ก")) inside "(๕) (ก)", (2, ()) in a second paragraph without clauses."""
    for paragraph in paragraphs:
        if not paragraph.span[0] <= offset < paragraph.span[1]:
            continue
        path: list[str] = []
        clauses = paragraph.clauses
        while found := next((c for c in clauses if c.span[0] <= offset < c.span[1]), None):
            path.append(found.number)
            clauses = found.children
        return paragraph.index, tuple(path)
    return None, ()


def clause_path(joined: str) -> list[str]:
    """A clause path as `place_at` gives it, joined with "/" ("5/ก", "a/i"), split again:
    "5/1/ก" -> ["5/1", "ก"], since a "/" before a digit belongs to an inserted clause."""
    return re.split(r"/(?![0-9])", joined)


@dataclass(frozen=True)
class _Line:
    text: str  # stripped
    start: int  # offsets of the stripped text in the section text
    end: int


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    offset = 0
    for raw in text.splitlines(keepends=True):
        stripped = raw.strip()
        if stripped:
            start = offset + raw.index(stripped)
            lines.append(_Line(stripped, start, start + len(stripped)))
        offset += len(raw)
    return lines


def _join_bare_markers(lines: list[_Line]) -> list[_Line]:
    """OCS and EUR-Lex put a lone "(a)" / "(๑)" on its own line before the clause text."""
    joined: list[_Line] = []
    pending: _Line | None = None
    for line in lines:
        if pending is not None:
            line = _Line(f"{pending.text} {line.text}", pending.start, line.end)
            pending = None
        marker = _MARKER.match(line.text)
        if marker and marker.end() == len(line.text):
            pending = line
            continue
        joined.append(line)
    if pending is not None:
        joined.append(pending)
    return joined


def _add_clause(
    paragraph: _ParagraphBuilder, mark: str, line: _Line, end: int, label: str = ""
) -> None:
    kind = _marker_kind(mark, paragraph)
    number = normalise_section_number(mark) if kind == "number" else mark
    clause = _ClauseBuilder(
        label=label or f"({mark})",
        number=number,
        kind=kind,
        span=(line.start, line.end),
        lines=[line.text[end:]],
    )
    top = paragraph.clauses
    # Nest one level: letters under numbers (Thai "(ก)" under "(๕)"), romans under
    # letters (EU "(i)" under "(a)"). Anything else is a sibling.
    if top and _nests_under(kind, top[-1].kind):
        top[-1].children.append(clause)
        top[-1].span = (top[-1].span[0], line.end)
    else:
        top.append(clause)


def _marker_kind(mark: str, paragraph: _ParagraphBuilder) -> str:
    if re.fullmatch(_INSERTED_NUMBER, mark):
        return "number"
    if re.fullmatch(_ROMAN, mark):
        last = paragraph.clauses[-1] if paragraph.clauses else None
        if last is None or last.kind != "letter":
            return "letter"
        if last.children and last.children[-1].kind == "roman":
            return "roman"
        # "(i)" right after "(h)" (or "(v)" after "(u)") is the next letter, not a roman.
        if len(mark) == 1 and len(last.number) == 1 and ord(mark) == ord(last.number) + 1:
            return "letter"
        return "roman"
    return "letter"


def _nests_under(kind: str, parent_kind: str) -> bool:
    return (kind, parent_kind) in {("letter", "number"), ("roman", "letter")}
