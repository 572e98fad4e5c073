"""Read a source file into laws: checks that apply to every format, then the reader.

| extension | reader |
|---|---|
| .md .markdown .txt | `readers.markdown` (Thai หมวด/ส่วนที่/มาตรา or English Chapter/Article) |
| .json | `readers.ocs` (OCS), `readers.seeds` (SG/JP), `readers.nitibench`, `readers.eurlex` (GDPR) |
| .jsonl | `readers.ocs.read_ocs_records`: one law per line; bad lines are rejected, not fatal |
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from ingest.errors import InvalidSource
from ingest.models import Law
from ingest.readers.base import ReadResult
from ingest.readers.eurlex import looks_like_eurlex, read_eurlex
from ingest.readers.markdown import read_markdown
from ingest.readers.nitibench import looks_like_nitibench, read_nitibench
from ingest.readers.ocs import looks_like_ocs, read_ocs_law, read_ocs_records
from ingest.readers.seeds import looks_like_seed, read_seed

__all__ = ["ReadResult", "merge_structure", "read_source"]

TEXT_SUFFIXES = {".md", ".markdown", ".txt"}
SUFFIXES = sorted(TEXT_SUFFIXES | {".json", ".jsonl"})
_BINARY_PROBE = 8192


def read_source(path: Path) -> ReadResult:
    """Laws in `path`. A file that holds one law raises `InvalidSource` when it cannot
    become a law; a laws.jsonl keeps going and lists the laws it rejected."""
    name = str(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InvalidSource(
            name,
            f"unknown format {suffix or '(no extension)'!r}; expected one of {', '.join(SUFFIXES)}",
        )
    text = _read_text(path)
    if suffix in TEXT_SUFFIXES:
        return ReadResult(laws=[read_markdown(name, text)])
    if suffix == ".jsonl":
        return read_ocs_records(name, text)
    return ReadResult(laws=[_read_json(name, text)])


def merge_structure(text: Law, outline: Law) -> Law:
    """`text`'s sections placed in `outline`'s chapters and parts.

    For one law read from two sources: the OCS PDPA has the cleaner text but no chapter
    headings, sidataplus `about.md` has the headings but PDF artefacts. Sections are
    matched by key; a section the outline lacks keeps no chapter. Marked citations of
    both readings are kept.
    """
    if text.id != outline.id:
        raise ValueError(f"cannot merge {text.id!r} with the structure of {outline.id!r}")
    placed = {section.key: section for section in outline.sections}
    sections = [
        replace(
            section,
            chapter_key=placed[section.key].chapter_key if section.key in placed else None,
            part_key=placed[section.key].part_key if section.key in placed else None,
        )
        for section in text.sections
    ]
    marked = list(dict.fromkeys([*text.marked_citations, *outline.marked_citations]))
    return replace(
        text,
        divisions=list(outline.divisions),
        sections=sections,
        marked_citations=marked,
        aliases=tuple(dict.fromkeys([*text.aliases, *outline.aliases])),
        warnings=list(text.warnings),
    )


def _read_text(path: Path) -> str:
    name = str(path)
    if not path.exists():
        raise InvalidSource(name, "no such file")
    if path.is_dir():
        raise InvalidSource(name, "is a directory, not a file")
    data = path.read_bytes()
    if not data.strip():
        raise InvalidSource(name, "empty file")
    nul = data.find(b"\x00", 0, _BINARY_PROBE)
    if nul != -1:
        raise InvalidSource(name, f"binary file (NUL byte at offset {nul}), not a text source")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidSource(
            name,
            f"not valid UTF-8: byte 0x{data[error.start]:02x} at offset {error.start} ({error.reason})",
        ) from error
    return text.removeprefix("\ufeff")


def _read_json(name: str, text: str) -> Any:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidSource(
            name, f"invalid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from error
    if looks_like_nitibench(document):
        return read_nitibench(name, document)
    if looks_like_eurlex(document):
        return read_eurlex(name, document)
    if looks_like_ocs(document):
        return read_ocs_law(name, document)
    if looks_like_seed(document):
        return read_seed(name, document)
    raise InvalidSource(
        name,
        "unrecognised JSON layout (expected OCS {title_th, provisions}, NitiBench "
        "[{law_name, section_num, section_content}] or EUR-Lex {articles})",
    )
