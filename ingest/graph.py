"""The property-graph model a law becomes: typed nodes and edges, keyed for MERGE.

Labels and relationship types are closed enums: Cypher is built only from these, never from
input. Every node has a `key` unique within its label across the whole corpus; every edge
is unique per (type, source, target), so loading the same law twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class NodeLabel(StrEnum):
    LAW = "Law"
    CHAPTER = "Chapter"
    PART = "Part"
    SECTION = "Section"
    DEFINITION = "Definition"
    PENALTY = "Penalty"
    EXEMPTION = "Exemption"
    EXTERNAL_LAW = "ExternalLaw"  # a cited law that is not in the corpus
    CONCEPT = "Concept"  # curated: rights, principles, lawful bases (per-law data file)
    AMENDING_ACT = "AmendingAct"  # an act that changed the law (ingest/amendments.py)
    RECITAL = "Recital"  # an EU act's recital (ingest/explanations.py)


class RelType(StrEnum):
    HAS_CHAPTER = "HAS_CHAPTER"  # Law -> Chapter
    HAS_PART = "HAS_PART"  # Chapter -> Part
    CONTAINS = "CONTAINS"  # Law/Chapter/Part -> Section (its nearest division)
    NEXT = "NEXT"  # Section -> the following Section of the same law
    REFERENCES = "REFERENCES"  # Section -> Section it cites (same or another law)
    CITES_EXTERNAL = "CITES_EXTERNAL"  # Section -> ExternalLaw not in the corpus
    PENALIZES = "PENALIZES"  # penalty Section -> Section whose breach it punishes
    PRESCRIBES = "PRESCRIBES"  # penalty Section -> Penalty
    DEFINES = "DEFINES"  # Section -> Definition
    USES_TERM = "USES_TERM"  # Section -> Definition it uses
    GRANTS_EXEMPTION = "GRANTS_EXEMPTION"  # Section -> Exemption (clause text)
    EXEMPTS_FROM = "EXEMPTS_FROM"  # Exemption -> Section it carves out of, where named
    ABOUT = "ABOUT"  # Section -> Concept (curated)
    ISSUED_UNDER = "ISSUED_UNDER"  # Law (decree, regulation) -> enabling Section of another law
    # decree Section -> Chapter/Section of another law it keeps from applying (scope, dates)
    DISAPPLIES = "DISAPPLIES"
    # AmendingAct -> the Section (of this or another law), the Law or the ExternalLaw it
    # changed, as a marker in the text says ("ซึ่งแก้ไขเพิ่มเติมโดย…"); an act OCS appends
    # to a law's text AMENDS that Law.
    AMENDS = "AMENDS"
    INSERTS = "INSERTS"
    REPEALS = "REPEALS"
    # Recital -> the Sections of its act whose wording it shares most (ingest/explanations.py)
    EXPLAINS = "EXPLAINS"


# What changed a law: history, not content a question is about (no vector profiles, no walk).
AMENDMENT_TYPES = frozenset({RelType.AMENDS, RelType.INSERTS, RelType.REPEALS})


@dataclass(frozen=True)
class Node:
    label: NodeLabel
    key: str
    props: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Edge:
    type: RelType
    source_label: NodeLabel
    source: str  # node key
    target_label: NodeLabel
    target: str  # node key
    props: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class LawGraph:
    """All nodes and edges one law contributes, plus what could not be resolved."""

    law_id: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    # Citations that name something not in the corpus or not in the cited law:
    # {"source": key, "text": span text, "law": cited law title or None, "section": str}
    unresolved: list[dict[str, Any]] = field(default_factory=list)
