"""A firm's own documents (policies, memos, opinions): bytes in, passages and the statute
sections they cite out. Pure: no database, queue or web library.

Formats: Markdown, plain text, DOCX (python-docx) and PDF with a text layer (pypdf). A
document becomes passages: each heading starts one (Markdown `#`, DOCX "Heading" styles,
a short numbered line such as "4.2 Health data" in text and PDF), and a section longer
than `max_chars` is split at paragraph ends. A passage's label is its heading's number
when it has one ("4.2"), else the heading itself, so a path reads
"มาตรา ๒๖ <-[CITES]- Health-data policy 4.2".

Citations are read with the statute rules (`ingest.xrefs.cite_in_question`: lists,
ranges, paragraphs, "s.26", "ม. 26", "Art. 9") and their law is the one named with them
("มาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล", "sections 26 and 84 of the
Personal Data Protection Act"), else a law named right after ("Article 9 GDPR", "s.26
PDPA"), else the last law the passage named before, else the only law the whole document
names. A citation whose law cannot be told is reported, not guessed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ingest.corpus import normalise_law_name
from ingest.errors import InvalidSource
from ingest.ids import node_key, normalise_section_number, thai_to_arabic_digits
from ingest.xrefs import cite_in_question, spell_out_short_forms

FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".docx": "docx",
    ".pdf": "pdf",
}
_MD_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
# "4.2 Health data", "4. Scope", "Clause 3 - Purpose", "ข้อ 5 การเก็บข้อมูล". Not "Section
# 26 of the PDPA says …" (a sentence about a statute) and not a sentence ending in a full
# stop ("26 employees were affected.").
_NUMBERED_HEADING = re.compile(
    r"^(?:(?:Clause|Part|ข้อ|หมวด)\s+)?(?P<num>[0-9๐-๙]{1,3}(?:\.[0-9๐-๙]{1,3}){0,3})\.?"
    r"(?:\s+|\s*[-–:]\s*)(?P<rest>\S.{0,100}?)(?<![.;,])$"
)
_LEADING_NUMBER = re.compile(
    r"^(?:(?:Article|Section|Clause|Part|ข้อ|หมวด)\s+)?([0-9๐-๙]{1,3}(?:\.[0-9๐-๙]{1,3}){0,3})\b"
)
_YEAR = re.compile(r"\s*(?:พ\.\s*ศ\.|ค\.\s*ศ\.)\s*[0-9๐-๙]{4}\s*$|\s+\d{4}$")
_ASCII_NAME = re.compile(r"[ -~]+\Z")
# How far after a citation a law named on its own ("Article 9 GDPR") still belongs to it.
_NAME_AFTER_CHARS = 40
_MAX_HEADING_CHARS = 120


@dataclass(frozen=True)
class PassageText:
    order: int
    label: str  # "4.2", "Scope", "4.2 (2)" for the second part of a long section
    heading: str
    text: str


@dataclass(frozen=True)
class ParsedDocument:
    format: str
    passages: tuple[PassageText, ...]


@dataclass(frozen=True)
class StatuteCitation:
    """A section a passage cites: `key` is the section's citation key, `law` None (and
    `key` None) when the law could not be told."""

    text: str  # as written (short forms spelled out)
    law: str | None
    section: str
    key: str | None


def document_format(filename: str) -> str:
    """The format of an upload from its file name; 422-worthy when it has none we read."""
    suffix = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in FORMATS:
        raise InvalidSource(
            filename[:100],
            f"is not one of {', '.join(sorted(FORMATS))} "
            "(Markdown, plain text, DOCX, PDF with a text layer)",
        )
    return FORMATS[suffix]


def read_document(data: bytes, filename: str, *, max_chars: int = 1200) -> ParsedDocument:
    """The passages of an uploaded file; `InvalidSource` naming what is wrong with it."""
    fmt = document_format(filename)
    if not data:
        raise InvalidSource(filename[:100], "is empty")
    blocks = _BLOCK_READERS[fmt](data, filename)
    passages = _passages(blocks, max_chars)
    if not passages:
        raise InvalidSource(filename[:100], "holds no text")
    return ParsedDocument(fmt, tuple(passages))


def read_citations(
    text: str,
    law_names: Mapping[str, Sequence[str]],
    *,
    default_law: str | None = None,
) -> list[StatuteCitation]:
    """The statute sections `text` cites. `law_names`: law id -> the names it goes by
    (title, short name, aliases); `default_law`: the law a citation naming none means
    (the only law the document names), if any."""
    spelled = spell_out_short_forms(text)
    mentions = law_mentions(spelled, law_names)
    found: list[StatuteCitation] = []
    for citation in cite_in_question(text):
        law = _named_law(citation.law, law_names) if citation.law else None
        if law is None and citation.law is None:
            law = _law_near(mentions, citation.span) or default_law
        number = normalise_section_number(thai_to_arabic_digits(citation.section))
        key = node_key(law, "s", number) if law else None
        found.append(StatuteCitation(citation.text, law, number, key))
    return list(dict.fromkeys(found))


def law_mentions(text: str, law_names: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    """(start, end, law id) of every law name in `text`, in text order; a longer name wins
    over a shorter one inside it."""
    spans: list[tuple[int, int, str]] = []
    for law, names in law_names.items():
        for name in _name_variants(names):
            for match in _name_pattern(name).finditer(text):
                spans.append((match.start(), match.end(), law))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    kept: list[tuple[int, int, str]] = []
    for span in spans:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def named_laws(text: str, law_names: Mapping[str, Sequence[str]]) -> list[str]:
    """The laws `text` names, in order of first mention."""
    return list(dict.fromkeys(law for _, _, law in law_mentions(text, law_names)))


# --- readers: bytes -> (heading | None, paragraph) blocks --------------------------------

Block = tuple[str | None, str]  # (heading, "") starts a section; (None, text) is a paragraph


def _decode(data: bytes, filename: str) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InvalidSource(
            filename[:100], f"is not UTF-8 text (byte {e.start} cannot be read)"
        ) from None
    if "\x00" in text:
        raise InvalidSource(filename[:100], "is binary, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _markdown_blocks(data: bytes, filename: str) -> list[Block]:
    blocks: list[Block] = []
    for paragraph in _paragraphs(_decode(data, filename)):
        first, _, rest = paragraph.partition("\n")
        heading = _MD_HEADING.match(first)
        if heading:
            blocks.append((heading["title"].strip(), ""))
            if rest.strip():
                blocks.append((None, rest.strip()))
        else:
            blocks.append((None, paragraph))
    return blocks


def _text_blocks(data: bytes, filename: str) -> list[Block]:
    return _numbered_blocks(_decode(data, filename))


def _docx_blocks(data: bytes, filename: str) -> list[Block]:
    import docx  # python-docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, OSError) as e:
        raise InvalidSource(filename[:100], f"is not a readable DOCX file ({e})") from None
    except Exception as e:  # zipfile.BadZipFile and lxml errors: not a DOCX either
        raise InvalidSource(filename[:100], f"is not a readable DOCX file ({e})") from None
    blocks: list[Block] = []
    for paragraph in document.paragraphs:
        text = paragraph.text.strip()
        if not text:
            continue
        style = (paragraph.style.name if paragraph.style is not None else "") or ""
        if style.lower().startswith(("heading", "title")):
            blocks.append((text, ""))
        else:
            blocks.append((None, text))
    return blocks


def _pdf_blocks(data: bytes, filename: str) -> list[Block]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InvalidSource(filename[:100], "is an encrypted PDF")
        pages = [page.extract_text() or "" for page in reader.pages]
    except InvalidSource:
        raise
    except (PdfReadError, ValueError, KeyError, OSError) as e:
        raise InvalidSource(filename[:100], f"is not a readable PDF ({e})") from None
    text = "\n\n".join(pages)
    if not text.strip():
        raise InvalidSource(filename[:100], "has no text layer (a scan): OCR it first")
    return _numbered_blocks(text.replace("\r\n", "\n"))


_BLOCK_READERS = {
    "markdown": _markdown_blocks,
    "text": _text_blocks,
    "docx": _docx_blocks,
    "pdf": _pdf_blocks,
}


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]


def _numbered_blocks(text: str) -> list[Block]:
    """Plain text and PDF: a short numbered line ("4.2 Health data") is a heading; blank
    lines end paragraphs (PDF text often has none, so a heading ends one too)."""
    blocks: list[Block] = []
    lines: list[str] = []

    def flush() -> None:
        if lines:
            blocks.append((None, "\n".join(lines)))
            lines.clear()

    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            flush()
        elif len(line) <= _MAX_HEADING_CHARS and _NUMBERED_HEADING.match(line):
            flush()
            blocks.append((line, ""))
        else:
            lines.append(line)
    flush()
    return blocks


def _passages(blocks: list[Block], max_chars: int) -> list[PassageText]:
    """Sections (a heading and the paragraphs under it) cut into passages of at most
    `max_chars`, at paragraph ends (a longer paragraph is cut at a space)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for heading, text in blocks:
        if heading is not None:
            sections.append((heading[:_MAX_HEADING_CHARS], []))
        else:
            sections[-1][1].extend(_cut(text, max_chars))
    passages: list[PassageText] = []
    only = [s for s in sections if s[0] or s[1]]
    for heading, paragraphs in sections:
        # A heading with nothing under it (a document's title above its first section)
        # says nothing a passage could answer with, unless it is all the document has.
        if not paragraphs and (not heading or len(only) > 1):
            continue
        chunks = _pack(paragraphs or [heading], max_chars)
        base = _label(heading) if heading else "preamble"
        for i, chunk in enumerate(chunks):
            label = base if i == 0 else f"{base} ({i + 1})"
            text = f"{heading}\n{chunk}" if heading and paragraphs else chunk
            passages.append(PassageText(len(passages), label, heading, text))
    return passages


def _label(heading: str) -> str:
    number = _LEADING_NUMBER.match(heading)
    return thai_to_arabic_digits(number.group(1)) if number else heading[:60]


def _cut(text: str, max_chars: int) -> list[str]:
    pieces: list[str] = []
    while len(text) > max_chars:
        at = text.rfind(" ", 0, max_chars)
        at = at if at > max_chars // 2 else max_chars
        pieces.append(text[:at].strip())
        text = text[at:].strip()
    return [*pieces, text] if text else pieces


def _pack(paragraphs: list[str], max_chars: int) -> list[str]:
    chunks: list[str] = []
    for paragraph in paragraphs:
        if chunks and len(chunks[-1]) + 2 + len(paragraph) <= max_chars:
            chunks[-1] += "\n\n" + paragraph
        else:
            chunks.append(paragraph)
    return chunks


# --- law names ---------------------------------------------------------------------------


def _name_variants(names: Sequence[str]) -> list[str]:
    variants: list[str] = []
    for name in names:
        name = name.strip()
        bare = _YEAR.sub("", name).strip()
        for variant in (name, bare):
            if len(variant) >= 3 and variant not in variants:
                variants.append(variant)
    return variants


def _name_pattern(name: str) -> re.Pattern[str]:
    if _ASCII_NAME.match(name):
        words = r"\s+".join(re.escape(w) for w in name.split())
        return re.compile(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])", re.IGNORECASE)
    # Thai names: PDF text breaks them with stray spaces; allow whitespace between letters.
    letters = [re.escape(c) for c in name if not c.isspace()]
    return re.compile(r"\s?".join(letters))


def _named_law(name: str, law_names: Mapping[str, Sequence[str]]) -> str | None:
    wanted = normalise_law_name(name)
    for law, names in law_names.items():
        if any(normalise_law_name(n) == wanted for n in _name_variants(names)):
            return law
    # "… of the Personal Data Protection Act" when the title is "Personal Data Protection
    # Act 2012" (and the other way round): the names without their years.
    bare = normalise_law_name(_YEAR.sub("", name))
    for law, names in law_names.items():
        if any(normalise_law_name(_YEAR.sub("", n)) == bare for n in names):
            return law
    # A name read up to the next space carries what follows it ("…ส่วนบุคคล;", "…Act),"):
    # the longest known name it starts with.
    best: tuple[int, str | None] = (0, None)
    for law, names in law_names.items():
        for variant in _name_variants(names):
            known = normalise_law_name(variant)
            if len(known) > best[0] and wanted.startswith(known):
                best = (len(known), law)
    return best[1]


def _law_near(mentions: list[tuple[int, int, str]], span: tuple[int, int]) -> str | None:
    """The law named right after the citation ("Article 9 GDPR"), else the last one named
    before it."""
    for start, _, law in mentions:
        if span[1] <= start <= span[1] + _NAME_AFTER_CHARS:
            return law
    before = [law for start, end, law in mentions if end <= span[0]]
    return before[-1] if before else None
