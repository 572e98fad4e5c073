"""The statute model every reader produces: Law -> Chapter -> Part -> Section.

Sections keep their paragraphs (วรรค) and numbered clauses ((๑), (ก)) so that a citation
such as "มาตรา ๒๖ วรรคหนึ่ง (๕) (ก)" can point at the exact place it means.

This module is pure data: no parsing, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Clause:
    """A numbered clause: "(๑)" / "(1)" / "(ก)" / "(a)", possibly with sub-clauses."""

    label: str  # as printed, e.g. "(๕)"
    number: str  # normalised, Arabic digits or the letter, e.g. "5", "ก", "a"
    text: str
    children: tuple[Clause, ...] = ()
    span: tuple[int, int] = (0, 0)  # offsets in the section text, sub-clauses included


@dataclass(frozen=True)
class Paragraph:
    """A วรรค (or a numbered paragraph "1." of an EU article), 1-based."""

    index: int
    text: str
    clauses: tuple[Clause, ...] = ()
    span: tuple[int, int] = (0, 0)  # offsets in the section text


@dataclass(frozen=True)
class Division:
    """A chapter (หมวด / Chapter) or a part (ส่วนที่ / Part) of a law."""

    kind: str  # "chapter" | "part"
    key: str  # stable within the corpus, e.g. "th-pdpa-2562:ch:2" or "...:ch:2:pt:1"
    number: str  # normalised ("2", "II" -> "2", "transitional")
    label: str  # display label as in the source, e.g. "หมวด ๒"
    title: str  # e.g. "การคุ้มครองข้อมูลส่วนบุคคล"
    parent_key: str | None = None  # the chapter of a part
    order: int = 0


@dataclass(frozen=True)
class Section:
    """One มาตรา / Article / Section: the unit lawyers cite."""

    key: str  # stable across the corpus: "<law id>:s:<number>", e.g. "th-pdpa-2562:s:26/1"
    number: str  # normalised: Arabic digits, "26/1", "19 ทวิ", "77/1"
    label: str  # display label, e.g. "มาตรา ๒๖", "Article 9"
    text: str  # full text without the heading
    paragraphs: tuple[Paragraph, ...] = ()
    title: str = ""  # heading title where the source has one (GDPR "Lawfulness of processing")
    chapter_key: str | None = None
    part_key: str | None = None
    order: int = 0  # position in the law
    repealed: bool = False  # the source prints "(ยกเลิก)" in place of the text


@dataclass(frozen=True)
class AppendedAct:
    """An act whose provisions an OCS consolidated text prints after the law's own text:
    an act that changed the law, with what of it stays in force beside the law (its
    commencement and transitional provisions; its amending provisions are already merged
    into the law's text). Kept with the law it changed, in its own numbering, so that its
    "มาตรา ๒" is never read as the law's."""

    index: int  # 1-based, in the order OCS prints them after the text
    title: str  # as the act names itself ("พระราชบัญญัตินี้เรียกว่า “…”"), else ""
    provisions: tuple[tuple[str, str, str], ...]  # (unit, number, text) as printed
    notes: tuple[str, ...] = ()  # its remarks (หมายเหตุ): why it was enacted


@dataclass(frozen=True)
class Recital:
    """One recital of an EU act ("(51) Personal data which are, by their nature, …"): the
    act's own plain-words account of why its articles say what they say. Not a provision:
    it is cited as an aid to reading the articles it explains (ingest/explanations.py)."""

    number: str  # "51"
    text: str


@dataclass
class Law:
    """A whole law as one reader understood it."""

    id: str  # stable law id, e.g. "th-pdpa-2562", "eu-gdpr"
    title: str  # full official title
    language: str  # "th" | "en" | "ja"
    jurisdiction: str  # "TH" | "EU" | "SG" | "JP"
    source: str  # path or URL the text came from
    short_name: str = ""
    status: str = ""  # "in_force" | "repealed" | ""
    year: str = ""  # year of enactment as printed in the title (B.E. for Thai laws)
    aliases: tuple[str, ...] = ()  # other names by which other laws cite this one
    divisions: list[Division] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    # Citations as the source itself marked them (for example sidataplus wiki-links or
    # NitiBench's `reference` field): ground truth for tests, never used to build edges.
    marked_citations: list[tuple[str, str, str]] = field(default_factory=list)
    # The preamble and remarks (คำปรารภ, หมายเหตุ) as printed: where a decree or regulation
    # names the sections it is issued under (ingest/instruments.py).
    notes: tuple[str, ...] = ()
    # The acts that changed the law whose provisions its consolidated text appends (OCS).
    appended_acts: list[AppendedAct] = field(default_factory=list)
    # An EU act's recitals, in order (the EUR-Lex reader); other readers leave it empty.
    recitals: list[Recital] = field(default_factory=list)
    # What a reader skipped or repaired (amending-act provisions appended by OCS
    # consolidation, untitled notes, ...): one line each, for reports and logs.
    warnings: list[str] = field(default_factory=list)
