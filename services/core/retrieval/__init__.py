"""Retrieval: hybrid vector seeding, one two-hop graph walk, intent-aware ranking, caps.

    question -> analyse -> embed -> route laws -> vector lists (chunks, profiles, the
             laws the question names, a long question's asking part) -> fusion -> law
             focus -> seeds (citations, the best vector hits, walked 2 hops) + anchors (the
             next hits, 1 hop) -> ONE walk query -> rankers (path scores, multi-seed,
             companions, cited first) -> rank -> completion -> part definitions -> select
             -> details -> SearchResult

`pipeline` lists each mode's stages; `docs/architecture.md` says what each does. Graph
reads per request: the laws and their published versions (never cached, so a half-ingested
law stays invisible), the walk, and the details of the nodes returned; once per law
version, its names and which sections use which defined terms. `lookups` answers the law
endpoints (a section's text, related sections, penalties, a law's summary).
"""

from services.core.retrieval.laws import published_law_versions
from services.core.retrieval.models import (
    MAX_HOPS,
    MAX_TOP_K,
    MODES,
    ContextItem,
    SearchResult,
    Seed,
    Step,
    WalkPath,
)
from services.core.retrieval.pipeline import (
    pipeline_for,
    search,
    section_refs,
    validate_question,
)
from services.core.retrieval.walk import rebuild_paths, walk
from services.core.settings import RETRIEVAL_STEPS as STEPS

__all__ = [
    "MAX_HOPS",
    "MAX_TOP_K",
    "MODES",
    "STEPS",
    "ContextItem",
    "SearchResult",
    "Seed",
    "Step",
    "WalkPath",
    "pipeline_for",
    "published_law_versions",
    "rebuild_paths",
    "search",
    "section_refs",
    "validate_question",
    "walk",
]
