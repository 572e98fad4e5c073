"""The state one search carries through the pipeline's stages.

Each stage reads what earlier stages left here and adds its own part; nothing else is
shared between stages, and nothing outlives the request (the per-law-version caches of
`laws` and `rankers.part_definitions` aside, which never go stale).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from services.core.analysis import KeywordSource, QuestionAnalysis
from services.core.ports import Embedder, Embedding, GraphStore, VectorHit, VectorIndex
from services.core.retrieval.models import Candidate, ContextItem, Law, Seed, Step, WalkPath
from services.core.settings import RetrievalSettings, Settings


@dataclass(frozen=True)
class Query:
    """A validated request (`pipeline.validate_query`)."""

    question: str
    mode: str = "graph"
    laws: tuple[str, ...] | None = None
    jurisdictions: tuple[str, ...] | None = None  # "TH", "EU": their laws only
    top_k: int = 10
    max_hops: int = 2
    explain: bool = False
    as_of: str = ""  # ISO date the law is read as of; validate_query makes "" today


@dataclass
class SearchContext:
    query: Query
    graph: GraphStore
    vectors: VectorIndex
    embedder: Embedder
    settings: Settings
    keywords: KeywordSource | None = None  # the optional LLM keyword step
    timings: dict[str, float] = field(default_factory=dict)

    # read_laws
    catalogue: dict[str, Law] = field(default_factory=dict)
    scope: list[str] | None = None  # the caller's laws
    in_force: dict[str, Law] = field(default_factory=dict)  # each as it read on the day
    visible: list[Law] = field(default_factory=list)  # the published laws searched
    # "law@version" of every published law in force on the query's date
    published: list[str] = field(default_factory=list)
    # analyse, embed
    analysis: QuestionAnalysis | None = None
    embedding: Embedding | None = None  # the question and the terms analysis added
    intents_embedding: Embedding | None = None  # graph mode: `intents.intent_text`
    asking_embedding: Embedding | None = None
    conduct_embedding: Embedding | None = None  # graph mode: without its penalty words
    english_embedding: Embedding | None = None  # the English model's, English questions
    # route_laws
    named: list[str] = field(default_factory=list)  # laws the question names
    jurisdictions: dict[str, str] = field(default_factory=dict)  # law -> "TH", "EU", ...
    # the named laws, unless they are every law searched: their own list, full weight
    singled_out: list[str] = field(default_factory=list)
    placed: list[str] = field(default_factory=list)  # the laws of the places it names
    focus: Mapping[str, float] = field(default_factory=dict)  # law -> weight of its hits
    # vector_search, fuse
    deep_hits: dict[str, list[VectorHit]] = field(default_factory=dict)
    hits: dict[str, list[VectorHit]] = field(default_factory=dict)  # cut to the flat depth
    # lists that only choose seeds, not fused (graph mode: the chunks' lexical list alone, a
    # penalty question's conduct)
    seed_hits: dict[str, list[VectorHit]] = field(default_factory=dict)
    vector_scores: dict[str, float] = field(default_factory=dict)
    deep_scores: dict[str, float] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # node kind of every key hit
    explain_ranks: dict[str, dict[str, int]] = field(default_factory=dict)  # key -> list -> rank
    # intents: the classifier's probabilities, and the intents the rankers act on
    intent_probabilities: dict[str, float] = field(default_factory=dict)
    read_intents: tuple[str, ...] | None = None
    # route_laws
    routes: list[Any] = field(default_factory=list)  # routing.LawRoute, most probable first
    routed: list[str] = field(default_factory=list)  # the chosen laws, when fewer than all
    # seed, walk
    seeds: list[Seed] = field(default_factory=list)
    paths: list[WalkPath] = field(default_factory=list)
    roles: dict[str, set[str]] = field(default_factory=dict)  # key -> types it starts
    # (penal section, duty) of the PENALIZES the walk saw that punish the duty only as
    # another section applies it (`ingest.rules.Penalty.applied`)
    applied_penalties: set[tuple[str, str]] = field(default_factory=set)
    # companions: section key -> [(companion key, pattern strength, path)]
    companions: dict[str, list[tuple[str, int, tuple[Step, ...]]]] = field(default_factory=dict)
    # rank, select, assemble
    candidates: dict[str, Candidate] = field(default_factory=dict)
    ranked: list[Candidate] = field(default_factory=list)
    chosen: list[Candidate] = field(default_factory=list)
    details: dict[str, tuple[list[str], dict[str, Any]]] = field(default_factory=dict)
    sections: list[ContextItem] = field(default_factory=list)
    nodes: list[ContextItem] = field(default_factory=list)

    @property
    def tuning(self) -> RetrievalSettings:
        return self.settings.retrieval

    @property
    def analysed(self) -> QuestionAnalysis:
        """The question's analysis (the `analyse` stage runs first in every mode)."""
        if self.analysis is None:
            raise RuntimeError("the analyse stage has not run")
        return self.analysis

    @property
    def embedded(self) -> Embedding:
        """The question's embedding (the `embed` stage runs before any vector list)."""
        if self.embedding is None:
            raise RuntimeError("the embed stage has not run")
        return self.embedding

    @property
    def intents(self) -> tuple[str, ...]:
        """What the question asks for: read from its meaning and its words (`intents`
        stage), or from its words alone when that stage did not run."""
        if self.read_intents is not None:
            return self.read_intents
        return self.analysis.intents if self.analysis else ()

    def enabled(self, step: str) -> bool:
        return step not in self.settings.retrieval.disabled
