"""What the search pipeline passes around: seeds, walk paths, candidates, the answer.

A `Candidate` keeps every piece of evidence apart (fused vector score, its law's weight,
its weight as a seed, its best walk path, what it follows, the multi-seed bonus) with a
trace of the steps that touched it; `Candidate.score` is the one place they combine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

# The walk query's fixed bound: from a hub such as PDPA s.26 two hops already reach ~70 nodes.
MAX_HOPS = 2
MAX_TOP_K = 100
MODES: tuple[str, ...] = ("bm25", "dense", "hybrid", "graph")


@dataclass(frozen=True)
class Step:
    hop: int
    type: str
    direction: Literal["out", "in"]  # out: walked along the edge; in: against it
    key: str
    label: str


@dataclass(frozen=True)
class WalkPath:
    """One path of the walk: steps[0] is where it started (a seed or an anchor)."""

    steps: tuple[Step, ...]
    kind: str  # the kind of node it ends at: "section", "penalty", "definition", ...


@dataclass(frozen=True)
class Seed:
    key: str
    law: str
    # "citation" (the question names it), "clause" (cited by a clause the question names)
    # or "vector"
    source: str
    score: float
    label: str = ""
    hops: int = MAX_HOPS  # how far the walk goes from it: 2, or 1 for an anchor
    kind: str = "section"  # its node kind, which picks its branch of the walk query
    # A citation's law is certain when the caller's scope or the question names it, or only
    # one law is loaded; otherwise it is a guess from where the vector hits landed.
    certain: bool = True

    @property
    def anchor(self) -> bool:
        return self.hops < MAX_HOPS


@dataclass(frozen=True)
class Law:
    """A law of the catalogue: its published version and the one being written, if any."""

    id: str
    version: str | None
    pending: str | None
    language: str = ""  # "th", "en", "ja"
    # When it is in force (ISO dates, "" where open or unknown): ingest/instruments.py
    not_before: str = ""
    valid_to: str = ""
    disapplies: bool = False  # a decree that keeps provisions of a law from applying
    # Its kept texts, oldest first: (version, the day it applies from, "" when unknown);
    # `version` is the latest (services/core/publish.py)
    expressions: tuple[tuple[str, str], ...] = ()
    jurisdiction: str = ""  # "TH", "EU", "SG", "JP" (ingest/readers); "" when unknown

    @property
    def law_version(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def law_versions(self) -> list[str]:
        """ "law@version" of every kept expression."""
        return [f"{self.id}@{v}" for v, _ in self.expressions] or [self.law_version]

    def on(self, day: str) -> Law:
        """The law as it read on `day` (ISO date): the latest expression applying from that
        day or before; before the first known day, the earliest text kept."""
        if len(self.expressions) < 2:
            return self
        applying = [v for v, start in self.expressions if not start or start <= day]
        version = applying[-1] if applying else self.expressions[0][0]
        return self if version == self.version else dataclasses.replace(self, version=version)

    def periods(self) -> list[dict[str, str]]:
        """Each kept expression with its days: from (or "" when unknown) and to, the day
        before the next one applies ("" for the latest)."""
        rows = self.expressions or ((self.version or "", ""),)
        out = []
        for i, (version, start) in enumerate(rows):
            nxt = rows[i + 1][1] if i + 1 < len(rows) else ""
            end = (date.fromisoformat(nxt) - timedelta(days=1)).isoformat() if nxt else ""
            out.append({"version": version, "valid_from": start, "valid_to": end})
        return out

    def in_force_on(self, day: str) -> bool:
        """Published and in force on `day` (ISO date); an unknown start is read as the
        earliest day the law can have started (`not_before`)."""
        return bool(self.version) and (
            (not self.not_before or self.not_before <= day)
            and (not self.valid_to or day <= self.valid_to)
        )


@dataclass
class Candidate:
    """A node the vectors or the walk found, with its evidence kept apart."""

    key: str
    kind: str
    vector: float = 0.0  # fused vector score (0..1): vector evidence, nothing else
    law_focus: float = 1.0  # x its law's share of the vector evidence (route laws)
    seed: float = 0.0  # floor: its weight as a seed or an anchor
    # +1: has a companion for the question's intent (x lift); -1: a seed without one (/ lift)
    companion: int = 0
    lift: float = 1.0  # the companion lift in force (CompanionTuning.lift)
    walk: float = 0.0  # its best path from a seed
    follows: float = 0.0  # placed after a section it completes: that section's score x decay
    bonus: float = 0.0  # reached from further seeds
    pinned: bool = False  # a section the question names, its law certain: it comes first
    steps: tuple[Step, ...] = ()  # the best path, steps[0] being the seed
    seed_source: str | None = None  # "citation" / "vector" / "clause" when the node is a seed
    sources: set[str] = field(default_factory=set)
    best_per_seed: dict[str, float] = field(default_factory=dict)
    lists: dict[str, int] = field(default_factory=dict)  # vector list -> rank found at (0-based)
    trace: list[str] = field(default_factory=list)

    @property
    def evidence(self) -> float:
        """What the question itself matched: its vector score weighed by its law, or its
        weight as a seed, lifted when it has what the question asks about."""
        found = max(self.vector * self.law_focus, self.seed)
        if self.companion > 0:
            return found * self.lift
        if self.companion < 0:
            return found / self.lift
        return found

    @property
    def score(self) -> float:
        # The better of the pieces of evidence, not their sum: a vector hit that the walk
        # also reaches keeps its place among the vector hits instead of jumping over
        # stronger ones, and a neighbour enters where its path puts it.
        return max(self.evidence, self.walk, self.follows) + self.bonus

    def note(self, text: str) -> None:
        self.trace.append(text)


@dataclass
class ContextItem:
    key: str
    law: str
    kind: str  # "section", "definition", "penalty", "exemption", "external_law", ...
    label: str  # display label: "มาตรา ๘๔", "Article 9"
    text: str
    score: float
    hops: int
    reached: str  # the seed-article tag: "[hop1][PENALIZES] มาตรา ๘๔" or "[seed][vector] ..."
    path: str  # whole chain with edge directions: "มาตรา ๒๖ <-[PENALIZES]- มาตรา ๘๔"
    steps: tuple[Step, ...] = ()
    seed: str | None = None
    number: str | None = None
    title: str | None = None
    version: str | None = None
    full_text: bool = True
    # "citation", "chunks", "profiles", "named_law", "placed", "asking", "english", "graph"
    sources: tuple[str, ...] = ()
    # With `explain`: the score's components and the steps that set them.
    explanation: dict[str, Any] | None = None
    # Decrees in force on the query's date that keep this section from applying to some
    # (retrieval.applicability)
    applicability: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SearchResult:
    query: str
    mode: str
    sections: list[ContextItem]
    nodes: list[ContextItem]  # expanded non-section nodes: penalties, definitions, exemptions
    seeds: list[Seed]
    keywords: list[str]
    citations: list[str]
    intents: list[str]
    index_versions: dict[str, str]
    timings_ms: dict[str, float] = field(default_factory=dict)
    # graph mode with several laws: each law's routing probability, chosen or not, and why
    laws: list[dict[str, Any]] = field(default_factory=list)
    as_of: str = ""  # the day the laws were read as of (ISO)
