"""Paragraphs (วรรค / numbered EU paragraphs) and clauses ((๑), (ก), (a), (i)) of a section.

Input is a section's text with one paragraph or clause per line, as every reader
produces it. Thai drafting makes each line a new วรรค unless it starts with a clause
marker; EU drafting numbers its paragraphs "1.", "2." and keeps unnumbered lines
(subparagraphs) inside the numbered paragraph they follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ingest.ids import thai_to_arabic_digits
from ingest.models import Clause, Paragraph

_NUMBER = r"[0-9๐-๙]{1,3}"
_THAI_LETTER = r"[ก-ฮ]"
_LATIN_LETTER = r"[a-z]{1,2}"  # GDPR runs past (z) to (aa) in no article, but be safe
_ROMAN = r"(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)"
_MARKER = re.compile(rf"^\((?P<mark>{_NUMBER}|{_THAI_LETTER}|{_ROMAN}|{_LATIN_LETTER})\)\s*")
_EU_PARAGRAPH = re.compile(r"^(?P<num>\d{1,3})\.\s+(?=\S)")


@dataclass
class _ClauseBuilder:
    label: str
    number: str
    kind: str  # "number" | "letter" | "roman"
    lines: list[str] = field(default_factory=list)
    children: list[_ClauseBuilder] = field(default_factory=list)

    def build(self) -> Clause:
        return Clause(
            label=self.label,
            number=self.number,
            text=" ".join(self.lines).strip(),
            children=tuple(child.build() for child in self.children),
        )


@dataclass
class _ParagraphBuilder:
    index: int
    lines: list[str] = field(default_factory=list)
    clauses: list[_ClauseBuilder] = field(default_factory=list)

    def build(self) -> Paragraph:
        return Paragraph(
            index=self.index,
            text="\n".join(self.lines).strip(),
            clauses=tuple(clause.build() for clause in self.clauses),
        )


def split_paragraphs(text: str) -> tuple[Paragraph, ...]:
    """Paragraphs of a section text with their clauses nested: "(ก)" under "(๕)",
    "(i)" under "(a)"; EU "1." paragraphs keep their number as the index."""
    lines = _join_bare_markers([line.strip() for line in text.splitlines()])
    lines = [line for line in lines if line]
    numbered_eu = sum(1 for line in lines if _EU_PARAGRAPH.match(line)) >= 1 and bool(
        lines and _EU_PARAGRAPH.match(lines[0])
    )
    paragraphs: list[_ParagraphBuilder] = []
    for line in lines:
        marker = _MARKER.match(line)
        if marker and paragraphs:
            _add_clause(paragraphs[-1], marker.group("mark"), line, marker.end())
            paragraphs[-1].lines.append(line)
            continue
        eu = _EU_PARAGRAPH.match(line) if numbered_eu else None
        if eu:
            paragraphs.append(_ParagraphBuilder(index=int(eu.group("num")), lines=[line]))
        elif numbered_eu and paragraphs:
            paragraphs[-1].lines.append(line)  # an EU subparagraph stays in its paragraph
        else:
            paragraphs.append(_ParagraphBuilder(index=len(paragraphs) + 1, lines=[line]))
            if marker:  # a text that opens with a clause: the clause is the paragraph
                _add_clause(paragraphs[-1], marker.group("mark"), line, marker.end())
    return tuple(paragraph.build() for paragraph in paragraphs)


def _join_bare_markers(lines: list[str]) -> list[str]:
    """OCS and EUR-Lex put a lone "(a)" / "(๑)" on its own line before the clause text."""
    joined: list[str] = []
    pending = ""
    for line in lines:
        if not line:
            continue
        if pending:
            line = f"{pending} {line}"
            pending = ""
        marker = _MARKER.match(line)
        if marker and marker.end() == len(line):
            pending = line
            continue
        joined.append(line)
    if pending:
        joined.append(pending)
    return joined


def _add_clause(paragraph: _ParagraphBuilder, mark: str, line: str, end: int) -> None:
    kind = _marker_kind(mark, paragraph)
    number = thai_to_arabic_digits(mark) if kind == "number" else mark
    clause = _ClauseBuilder(label=f"({mark})", number=number, kind=kind, lines=[line[end:]])
    top = paragraph.clauses
    # Nest one level: letters under numbers (Thai "(ก)" under "(๕)"), romans under
    # letters (EU "(i)" under "(a)"). Anything else is a sibling.
    if top and _nests_under(kind, top[-1].kind):
        top[-1].children.append(clause)
    else:
        top.append(clause)


def _marker_kind(mark: str, paragraph: _ParagraphBuilder) -> str:
    if re.fullmatch(_NUMBER, mark):
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
