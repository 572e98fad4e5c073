"""Whether a section applies on a day: the decrees in force then that keep it, or its
chapter or part, from applying, and to whom (DISAPPLIES relationships, built by
ingest/instruments.py from texts such as "มิให้นำบทบัญญัติในหมวด ๗ … มาใช้บังคับแก่…").

A search, the section, related and penalties lookups and a section's history all report
them the same way: one dict per decree provision and the place it reaches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import Any

from services.core.ports import GraphStore

_FIELDS = (
    "source", "source_label", "law", "law_title", "law_kind", "via", "via_label", "scope",
    "valid_from", "valid_to", "not_before",
)  # fmt: skip


def read_applicability(
    graph: GraphStore, keys: Collection[str], published: Collection[str]
) -> dict[str, list[dict[str, Any]]]:
    """section key -> the disapplications reaching it from decrees among `published`
    ("law@version"; pass the versions in force on a day for what applied that day)."""
    if not keys:
        return {}
    rows = graph.run_read(
        "section_applicability", keys=sorted(set(keys)), published=sorted(published)
    )
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        found[str(row["key"])].append({field: row.get(field) for field in _FIELDS})
    return dict(found)
