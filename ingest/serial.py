"""A `Law` as compact text and back, exactly (`law_from_text(law_to_text(law)) == law`).

The graph keeps the parsed law of each published version next to its nodes, so citations
from a stored law can be resolved again when a law it names arrives or changes, without
its source file (services/core/links.py). JSON, deflated and base64-encoded: the Civil and
Commercial Code's 3.9 MB of JSON become ~0.44 MB of text.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import zlib
from typing import Any

from ingest.models import AppendedAct, Clause, Division, Law, Paragraph, Recital, Section

FORMAT = "law-json-deflate-b64/1"


def law_to_text(law: Law) -> str:
    blob = json.dumps(dataclasses.asdict(law), ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(blob.encode("utf-8"), 6)).decode("ascii")


def law_from_text(text: str) -> Law:
    data = json.loads(zlib.decompress(base64.b64decode(text)).decode("utf-8"))
    return Law(
        **{
            **data,
            "aliases": tuple(data.get("aliases", ())),
            "notes": tuple(data.get("notes", ())),
            "divisions": [Division(**d) for d in data.get("divisions", [])],
            "sections": [_section(s) for s in data.get("sections", [])],
            "marked_citations": [tuple(c) for c in data.get("marked_citations", [])],
            "appended_acts": [_appended(a) for a in data.get("appended_acts", [])],
            "recitals": [Recital(**r) for r in data.get("recitals", [])],
            "warnings": list(data.get("warnings", [])),
        }
    )


def _section(data: dict[str, Any]) -> Section:
    return Section(
        **{**data, "paragraphs": tuple(_paragraph(p) for p in data.get("paragraphs", ()))}
    )


def _appended(data: dict[str, Any]) -> AppendedAct:
    return AppendedAct(
        index=data["index"],
        title=data["title"],
        provisions=tuple(tuple(p) for p in data.get("provisions", ())),
        notes=tuple(data.get("notes", ())),
    )


def _paragraph(data: dict[str, Any]) -> Paragraph:
    return Paragraph(
        index=data["index"],
        text=data["text"],
        clauses=tuple(_clause(c) for c in data.get("clauses", ())),
        span=tuple(data.get("span", (0, 0))),
    )


def _clause(data: dict[str, Any]) -> Clause:
    return Clause(
        label=data["label"],
        number=data["number"],
        text=data["text"],
        children=tuple(_clause(c) for c in data.get("children", ())),
        span=tuple(data.get("span", (0, 0))),
    )
