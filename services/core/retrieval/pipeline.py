"""A search is a pipeline of named stages; a mode is a list of them.

    bm25 / dense / hybrid:  read_laws analyse embed vector_search fuse rank select details
                            assemble
    graph:                  read_laws analyse embed intents named_laws vector_search fuse
                            route_laws law_focus seed walk seed_evidence walk_paths
                            multi_seed companions companion_lift companionless_seed
                            cited_first rank english_rerank completion part_definitions
                            scope_sections select details assemble

The flat modes skip the walk so the evaluation harness can compare them with graph mode.
Each stage reads and writes the request's `SearchContext`; `Candidate.score` combines what
the rankers set. Optional stages can be switched off by name (`RETRIEVAL_STEPS` in
services/core/settings.py lists them).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from time import perf_counter

from services.core import telemetry
from services.core.analysis import KeywordSource, clean_text
from services.core.errors import InvalidQuery
from services.core.ports import Embedder, GraphStore, VectorIndex
from services.core.retrieval.assemble import Assemble, Details
from services.core.retrieval.context import Query, SearchContext
from services.core.retrieval.intents import ReadIntents
from services.core.retrieval.laws import as_of_day
from services.core.retrieval.models import MAX_HOPS, MAX_TOP_K, MODES, SearchResult
from services.core.retrieval.rankers.cited_first import CitedFirst
from services.core.retrieval.rankers.companions import (
    CompanionlessSeed,
    CompanionLift,
    Companions,
    Completion,
)
from services.core.retrieval.rankers.english_rerank import EnglishRerank
from services.core.retrieval.rankers.multi_seed import MultiSeed
from services.core.retrieval.rankers.part_definitions import PartDefinitions
from services.core.retrieval.rankers.scope_sections import ScopeSections
from services.core.retrieval.rankers.walk_paths import WalkPaths
from services.core.retrieval.routing import RouteLaws, routes_out
from services.core.retrieval.seeding import SeedEvidence, SeedWalk
from services.core.retrieval.select import Rank, Select
from services.core.retrieval.stage import Stage
from services.core.retrieval.stages import (
    Analyse,
    Embed,
    Fuse,
    LawFocus,
    NamedLaws,
    ReadLaws,
    VectorSearch,
)
from services.core.retrieval.walk import Walk
from services.core.settings import Settings

# A jurisdiction code as the readers write it on a law (ingest/readers): "TH", "EU", "SG"
JURISDICTION_CODE = re.compile(r"[A-Za-z]{2,3}")


class Pipeline:
    def __init__(self, mode: str, stages: Sequence[Stage]) -> None:
        self.mode = mode
        self.stages = tuple(stages)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(stage.name for stage in self.stages)

    def run(self, ctx: SearchContext) -> None:
        """Run the stages in order, each timed (`ctx.timings`, ms) and counted toward its
        telemetry stage once per search; a switched-off stage is skipped."""
        spent: dict[str, float] = defaultdict(float)
        try:
            for stage in self.stages:
                if stage.optional and not ctx.enabled(stage.name):
                    continue
                started = perf_counter()
                try:
                    stage.run(ctx)
                finally:
                    seconds = perf_counter() - started
                    spent[stage.metric] += seconds
                    ctx.timings[stage.name] = round(seconds * 1000.0, 3)
        finally:
            for metric, seconds in spent.items():
                telemetry.observe_stage(metric, seconds)


def pipeline_for(mode: str) -> Pipeline:
    """The stage list of a mode."""
    if mode == "graph":
        return Pipeline(
            mode,
            [
                ReadLaws(), Analyse(), Embed(graph=True), ReadIntents(), NamedLaws(), VectorSearch(mode),
                Fuse(deep=True), RouteLaws(), LawFocus(), SeedWalk(), Walk(), SeedEvidence(), WalkPaths(),
                MultiSeed(), Companions(), CompanionLift(), CompanionlessSeed(), CitedFirst(),
                Rank(), EnglishRerank(), Completion(), PartDefinitions(), ScopeSections(), Select(), Details(),
                Assemble(),
            ],
        )  # fmt: skip
    if mode in MODES:
        return Pipeline(
            mode,
            [
                ReadLaws(), Analyse(), Embed(), VectorSearch(mode), Fuse(), Rank(), Select(),
                Details(), Assemble(),
            ],
        )  # fmt: skip
    raise InvalidQuery("mode", f"must be one of {', '.join(MODES)}")


def search(
    question: str,
    *,
    graph: GraphStore,
    vectors: VectorIndex,
    embedder: Embedder,
    settings: Settings,
    laws: Sequence[str] | None = None,
    top_k: int = 10,
    max_hops: int = 2,
    mode: str = "graph",
    explain: bool = False,
    keywords: KeywordSource | None = None,
    as_of: str | date | None = None,
    jurisdictions: Sequence[str] | None = None,
) -> SearchResult:
    """Answer a question with the sections to read, each with the path that reached it,
    from the laws in force on `as_of` (default today), within `laws` and `jurisdictions`
    ("TH", "EU") when given.
    `keywords`: the optional LLM keyword step (`services.core.llm.LLMKeywords`)."""
    query = validate_query(
        question, settings, laws, top_k, max_hops, mode, explain, as_of,
        jurisdictions=jurisdictions,
    )  # fmt: skip
    ctx = SearchContext(query, graph, vectors, embedder, settings, keywords)
    pipeline_for(query.mode).run(ctx)
    analysis = ctx.analysed
    laws_seen = {item.law for item in [*ctx.sections, *ctx.nodes]}
    return SearchResult(
        query=query.question,
        mode=query.mode,
        sections=ctx.sections,
        nodes=ctx.nodes,
        seeds=ctx.seeds,
        keywords=[
            *analysis.keywords,
            *analysis.glossary_terms,
            *analysis.bridge_terms,
            *analysis.llm_keywords,
        ],
        citations=[c.text for c in analysis.citations],
        intents=list(ctx.intents),
        index_versions={  # the version of each law as it read on the query's day
            law: ctx.in_force[law].version or "" for law in sorted(laws_seen) if law in ctx.in_force
        },
        timings_ms=ctx.timings,
        laws=routes_out(ctx.routes),
        as_of=query.as_of,
    )


def validate_query(
    question: str,
    settings: Settings,
    laws: Sequence[str] | None = None,
    top_k: int = 10,
    max_hops: int = 2,
    mode: str = "graph",
    explain: bool = False,
    as_of: str | date | None = None,
    *,
    jurisdictions: Sequence[str] | None = None,
) -> Query:
    question = validate_question(question, settings)
    if not 1 <= top_k <= MAX_TOP_K:
        raise InvalidQuery("top_k", f"must be between 1 and {MAX_TOP_K}")
    if not 0 <= max_hops <= MAX_HOPS:
        raise InvalidQuery("max_hops", f"must be between 0 and {MAX_HOPS}")
    if mode not in MODES:
        raise InvalidQuery("mode", f"must be one of {', '.join(MODES)}")
    return Query(
        question=question,
        mode=mode,
        laws=tuple(laws) if laws else None,
        jurisdictions=validate_jurisdictions(jurisdictions),
        top_k=top_k,
        max_hops=max_hops,
        explain=explain,
        as_of=as_of_day(as_of),
    )


def validate_jurisdictions(codes: Sequence[str] | None) -> tuple[str, ...] | None:
    """Jurisdiction codes as the readers write them ("TH", "EU", "SG", "JP"): two or three
    letters, upper-cased here; None when none is given."""
    if not codes:
        return None
    if isinstance(codes, str):
        raise InvalidQuery("jurisdictions", 'must be a list of codes, e.g. ["TH"]')
    cleaned = []
    for code in codes:
        if not isinstance(code, str) or not JURISDICTION_CODE.fullmatch(code.strip()):
            raise InvalidQuery(
                "jurisdictions", f"{code!r} is not a jurisdiction code (e.g. TH, EU, SG, JP)"
            )
        cleaned.append(code.strip().upper())
    return tuple(dict.fromkeys(cleaned))


def validate_question(question: str, settings: Settings) -> str:
    if not isinstance(question, str):
        raise InvalidQuery("query", "must be a string")
    if len(question) > settings.max_query_chars * 4:
        raise InvalidQuery("query", f"is longer than {settings.max_query_chars} characters")
    cleaned = clean_text(question)
    if not cleaned:
        raise InvalidQuery("query", "is empty")
    if len(cleaned) > settings.max_query_chars:
        raise InvalidQuery("query", f"is longer than {settings.max_query_chars} characters")
    return cleaned


def section_refs(result: SearchResult) -> list[tuple[str, str]]:
    """(law id, section number) in rank order: what the evaluation harness scores."""
    return [(s.law, s.number or s.key.rsplit(":s:", 1)[-1]) for s in result.sections]
