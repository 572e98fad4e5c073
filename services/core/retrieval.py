"""Retrieval: hybrid vector seeding, one two-hop graph walk, intent-aware ranking, caps.

    question -> analyse -> embed -> hybrid search over chunks and profiles
                (and over the chunks of the laws the question names, and lexically over
                the chunks that match what a long question asks)
             -> each hit weighed by its law's share of the vector evidence
             -> seeds (explicit citations + the best vector nodes, walked 2 hops)
                + anchors (the next vector hits, deeper than the context, walked 1 hop)
             -> ONE walk query (<= 2 hops, both directions, typed relationships,
                published nodes only) -> rank -> complete -> the definitions of the
                part of the law the answer lies in -> cap -> details of what made the
                cut -> SearchResult

Graph reads per request: the laws and their published versions (never cached, so a
half-ingested law stays invisible), the walk, and the details (text, labels) of the nodes
returned; once per law version, its names and which sections use which defined terms.
The walk returns every path it took. Ranking keeps what the flat search found: a node's
score is the better of its fused vector score and its best path from a seed (the seed's
weight x a weight per hop x an intent boost when the node plays the part the question
asks for), so a neighbour fills a slot where its path puts it instead of
displacing the vector hits wholesale. Completion then places, right after each section,
the sections a lawyer must read with it for the question's intent, read off the walk's
paths: the sections that penalise it ("what is the fine") or, for a penal section, the
duties it punishes that the vectors also found; that grant an exemption from it ("unless");
that define the terms it uses ("what does X mean"). The modes "bm25",
"dense" and "hybrid" skip the walk so the evaluation harness can compare them with "graph".
"""

from __future__ import annotations

import itertools
import logging
import math
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Literal, TypeVar

from ingest.graph import RelType
from ingest.ids import KEY_TAGS, node_key
from services.core import telemetry
from services.core.analysis import (
    CitedSection,
    QuestionAnalysis,
    analyse_question,
    arabic_to_thai,
    clean_text,
    normalise_section_number,
)
from services.core.errors import InvalidQuery, NotFound
from services.core.ports import Embedder, Embedding, GraphStore, VectorHit, VectorIndex
from services.core.profiles import node_kind
from services.core.settings import Settings

log = logging.getLogger(__name__)

Mode = Literal["bm25", "dense", "hybrid", "graph"]
MODES: tuple[str, ...] = ("bm25", "dense", "hybrid", "graph")
# The walk query's fixed bound: from a hub such as PDPA s.26 two hops already reach ~70 nodes.
MAX_HOPS = 2
MAX_TOP_K = 100
WALK_TYPES = (
    RelType.REFERENCES, RelType.PENALIZES, RelType.PRESCRIBES, RelType.DEFINES,
    RelType.USES_TERM, RelType.GRANTS_EXEMPTION, RelType.EXEMPTS_FROM, RelType.CITES_EXTERNAL,
)  # fmt: skip
# What an anchor's one hop follows (the last branch of the walk query).
_ANCHOR_TYPES = frozenset(WALK_TYPES) - {RelType.USES_TERM, RelType.CITES_EXTERNAL}

# Relationship weights per hop. Citations carry the most meaning; a term use or an external
# citation says little about relevance. The intent multiplier lifts the family a question
# asks for (x3 is enough to move a 1-hop penalty section above the vector runners-up).
_TYPE_WEIGHT: dict[str, float] = {
    RelType.REFERENCES: 1.0,
    RelType.PENALIZES: 0.8,
    RelType.PRESCRIBES: 0.6,
    RelType.DEFINES: 0.7,
    RelType.USES_TERM: 0.4,
    RelType.GRANTS_EXEMPTION: 0.7,
    RelType.EXEMPTS_FROM: 0.7,
    RelType.CITES_EXTERNAL: 0.3,
}
# What a node does when it answers an intent: a penalty section starts PENALIZES or
# PRESCRIBES edges, a Penalty node is one; likewise for exemptions and definitions. The walk
# shows a node's outgoing edges on the paths that pass through it, so a section reached by
# a plain citation (PDPA s.79 cites s.26, and penalises s.27) is still known as penal.
_INTENT_ROLES: dict[str, frozenset[str]] = {
    "penalty": frozenset({RelType.PENALIZES, RelType.PRESCRIBES}),
    "exception": frozenset({RelType.GRANTS_EXEMPTION, RelType.EXEMPTS_FROM}),
    "definition": frozenset({RelType.DEFINES}),
}
_INTENT_KINDS = {"penalty": "penalty", "exception": "exemption", "definition": "definition"}


@dataclass(frozen=True)
class _Pattern:
    """The steps from a section to a section a lawyer reads with it."""

    steps: tuple[tuple[str, str], ...]  # (type, direction), "in" = against the edge
    role: str | None = None  # a relationship type the companion must also start
    needs_evidence: bool = False  # only companions the vector search also found


# What completes a section for each intent: a section punishing it; a section granting an
# exemption node that exempts from it; the section defining a term it uses.
# The second penalty pattern is weaker (ranked after the first): a penal section that
# cites it, as PDPA s.79 cites s.26 while it penalises a breach of s.27 about s.26 data.
# The third runs the other way, from a penal section the vectors found to the duties it
# punishes; a penal section punishes many (PDPA s.82: nine sections), so only the duties the
# vector search also found, down to its deep list, complete it.
_COMPANION_PATTERNS: dict[str, tuple[_Pattern, ...]] = {
    "penalty": (
        _Pattern(((RelType.PENALIZES, "in"),)),
        _Pattern(((RelType.REFERENCES, "in"),), role=RelType.PENALIZES),
        _Pattern(((RelType.PENALIZES, "out"),), needs_evidence=True),
    ),
    "exception": (_Pattern(((RelType.EXEMPTS_FROM, "in"), (RelType.GRANTS_EXEMPTION, "in"))),),
    "definition": (_Pattern(((RelType.USES_TERM, "out"), (RelType.DEFINES, "in"))),),
}
# A section with a companion for the intent (a duty that carries a penalty, for a
# penalty question) is likelier the conduct the question describes than one without:
# x1.5 moves a fused score of ~0.5 (rank ~8 of the flat top 10) to ~0.75 (rank ~4).
_COMPANION_LIFT = 1.5
_MAX_COMPANIONS = 4  # PDPA s.29 is punished by four sections (83, 84, 86, 87), the most
_INTENT_BOOST = 3.0
_ROLE_BOOST = 2.0
_CONTEXT_WALK_SCALE = 0.5
_HOP_DECAY = 0.6
_RRF_K = 20  # smaller than Qdrant's 60: we fuse short lists and want rank 1 to stand out
_EXCERPT_CHARS = 400
_WALK_ROW_LIMIT = 2000  # a 2-hop walk from three PDPA seeds returns ~190 rows
# Per-hop ceilings of a path's weight: below the seed's own, and a second hop below any
# first, however strongly the intent lifts it.
_MAX_WALK_WEIGHT = {1: 0.95, 2: 0.76}
_SEED_RANK_STEP = 0.1
_ANCHORS_PER_SEED = 4  # 3 seeds -> 12 anchors: PDPA violated sections sit at ranks 4-17
_HIERARCHY_KINDS = frozenset({"law", "chapter", "part"})
_SEED_KINDS = frozenset({"section", "definition", "penalty", "exemption"})  # retrieval_walk labels
_PROFILE_WEIGHT = 0.8  # a profile hit is a node or edge summary, slightly weaker than text


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
    # "citation", "chunks", "profiles", "named_law", "asking", "graph"
    sources: tuple[str, ...] = ()


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


@dataclass(frozen=True)
class _Law:
    id: str
    version: str | None
    pending: str | None

    @property
    def law_version(self) -> str:
        return f"{self.id}@{self.version}"


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
) -> SearchResult:
    """Answer a question with the sections to read, each with the path that reached it."""
    timings: dict[str, float] = {}
    question = validate_question(question, settings)
    top_k, max_hops, mode = _validate_options(top_k, max_hops, mode)

    with _timed(timings, "published"):
        catalogue = _read_laws(graph)
    scope = _scope(catalogue, laws)
    published = sorted(law.law_version for law in catalogue.values() if law.version)

    with _timed(timings, "analysis"), telemetry.stage("analysis"):
        analysis = analyse_question(question, settings)

    with _timed(timings, "embedding"), telemetry.stage("embedding"):
        embedding = embedder.embed_query(_search_text(analysis))
        asking = None
        if mode == "graph" and analysis.asking:
            asking = embedder.embed_query(analysis.asking)

    visible = _visible_laws(catalogue, scope)
    with _timed(timings, "vector_search"), telemetry.stage("vector_search"):
        # The laws the question names ("under the PDPA", "แห่งประมวลรัษฎากร") get a list of
        # their own in graph mode, and say which law a bare "มาตรา ๒๖" means. Naming every
        # law searched (the only one loaded) singles none out.
        named = _names_in(graph, analysis, visible) if mode == "graph" and len(visible) > 1 else []
        own = named if len(named) < len(visible) else []
        hits = _vector_hits(
            vectors, embedding, asking, mode, scope, own, catalogue, top_k, settings
        )

    # Ranks and scores come from the lists the flat modes see; graph mode fetches deeper
    # chunks only to choose anchors (a deeper list would reorder the fused top 10).
    flat_depth = max(top_k, settings.seed_profiles)
    deep_hits, hits = hits, {name: found[:flat_depth] for name, found in hits.items()}
    vector_scores = deep_scores = _fuse(hits)  # the flat modes fetch no deeper list
    kinds = _hit_kinds(deep_hits)
    seeds: list[Seed] = []
    paths: list[WalkPath] = []
    if mode == "graph":
        # Each hit weighs by how much of the vector evidence its law holds.
        deep_scores = _fuse(deep_hits)
        focus = _law_focus(deep_scores, own)
        vector_scores = {k: v * focus[_law_of(k)] for k, v in vector_scores.items()}
        deep_scores = {k: v * focus[_law_of(k)] for k, v in deep_scores.items()}
        with _timed(timings, "seeds"):  # reads the graph when the question cites sections
            seeds = _seeds(
                graph,
                analysis,
                vector_scores,
                deep_scores,
                kinds,
                [law.id for law in visible],
                named,
                hits,
                published,
                settings,
            )
    if seeds and max_hops > 0:
        with _timed(timings, "graph_walk"), telemetry.stage("graph_walk"):
            paths = walk(graph, seeds, published, max_hops)

    with _timed(timings, "assembly"), telemetry.stage("assembly"):
        intents = analysis.intents
        ranked = _rank(paths, intents, vector_scores, deep_scores, kinds, seeds, hits, settings)
    if mode == "graph":
        with _timed(timings, "definitions"):  # reads the graph once per law version
            ranked = _with_part_definitions(graph, ranked, catalogue, top_k)
    chosen = _choose(ranked, top_k, settings)
    with _timed(timings, "details"):
        details = _details(graph, chosen, published)
    sections, nodes = _assemble(chosen, details, top_k, settings)
    telemetry.record_expansion(
        seeds=len(seeds), expanded=sum(1 for i in [*sections, *nodes] if "graph" in i.sources)
    )

    laws_seen = {item.law for item in [*sections, *nodes]}
    return SearchResult(
        query=question,
        mode=mode,
        sections=sections,
        nodes=nodes,
        seeds=seeds,
        keywords=[*analysis.keywords, *analysis.glossary_terms, *analysis.llm_keywords],
        citations=[c.text for c in analysis.citations],
        intents=list(intents),
        index_versions={
            law: catalogue[law].version or "" for law in sorted(laws_seen) if law in catalogue
        },
        timings_ms=timings,
    )


def section_refs(result: SearchResult) -> list[tuple[str, str]]:
    """(law id, section number) in rank order: what the evaluation harness scores."""
    return [(s.law, s.number or s.key.rsplit(":s:", 1)[-1]) for s in result.sections]


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


def _validate_options(top_k: int, max_hops: int, mode: str) -> tuple[int, int, str]:
    if not 1 <= top_k <= MAX_TOP_K:
        raise InvalidQuery("top_k", f"must be between 1 and {MAX_TOP_K}")
    if not 0 <= max_hops <= MAX_HOPS:
        raise InvalidQuery("max_hops", f"must be between 0 and {MAX_HOPS}")
    if mode not in MODES:
        raise InvalidQuery("mode", f"must be one of {', '.join(MODES)}")
    return top_k, max_hops, mode


# --- laws and scope ----------------------------------------------------------------------


def _read_laws(graph: GraphStore) -> dict[str, _Law]:
    catalogue: dict[str, _Law] = {}
    for row in graph.run_read("retrieval_laws"):
        for law_id, version, pending in row.get("laws") or []:
            if law_id:
                catalogue[law_id] = _Law(id=law_id, version=version, pending=pending)
    return catalogue


# What retrieval keeps per law version (its names here, its part definitions below):
# versions are content hashes, so an entry is never stale; a cache past this many law
# versions starts over.
_VERSION_CACHE_MAX = 20_000
_T = TypeVar("_T")
# law version -> its names
_LAW_NAMES: dict[str, tuple[str, ...]] = {}


def _law_names(graph: GraphStore, laws: Sequence[_Law]) -> dict[str, tuple[str, ...]]:
    """The names a question may use for each law, lower-cased. A published version's names
    never change, so they are kept per law version: on 429 laws the query costs 10-40 ms."""

    def read(missing: list[_Law]) -> dict[str, tuple[str, ...]]:
        by_id = {law.id: law for law in missing}
        names: dict[str, tuple[str, ...]] = {}
        for row in graph.run_read("retrieval_law_names", laws=list(by_id)):
            found = [row.get("short_name"), row.get("title"), *(row.get("aliases") or [])]
            names[by_id[str(row["law"])].law_version] = tuple(
                n.lower() for n in found if isinstance(n, str) and len(n) >= 3
            )
        return names

    _keep_per_version(_LAW_NAMES, laws, read)
    return {law.id: _LAW_NAMES.get(law.law_version, ()) for law in laws}


def _keep_per_version(
    cache: dict[str, _T], laws: Sequence[_Law], read: Callable[[list[_Law]], dict[str, _T]]
) -> None:
    """Add to `cache` (law version -> what `read` found) the laws it lacks, in one read."""
    missing = [law for law in laws if law.law_version not in cache]
    if missing:
        if len(cache) > _VERSION_CACHE_MAX:
            cache.clear()
        cache.update(read(missing))


def _scope(catalogue: Mapping[str, _Law], laws: Sequence[str] | None) -> list[str] | None:
    """The published laws a caller restricted the search to; unknown ones are 404s."""
    if not laws:
        return None
    unknown = [law for law in laws if law not in catalogue or not catalogue[law].version]
    if unknown:
        raise NotFound(f"unknown law: {', '.join(unknown[:5])}")
    return list(dict.fromkeys(laws))


# --- vectors -------------------------------------------------------------------------------


def _search_text(analysis: QuestionAnalysis) -> str:
    extra = [*analysis.glossary_terms, *analysis.llm_keywords]
    return f"{analysis.question}\n{' '.join(extra)}" if extra else analysis.question


def _vector_hits(
    vectors: VectorIndex,
    embedding: Embedding,
    asking: Embedding | None,
    mode: str,
    scope: list[str] | None,
    named: list[str],
    catalogue: Mapping[str, _Law],
    top_k: int,
    settings: Settings,
) -> dict[str, list[VectorHit]]:
    """Hits per list, of published law versions only (pending points may exist): chunks,
    profiles, and two lists of their own in graph mode:
    - "named_law", the chunks of the laws the question names: "can the director be
      punished under the PDPA" among 37 laws otherwise fills the lists with the Securities
      Act's directors before one PDPA section;
    - "asking", the chunks that match the words of a long question's asking part
      (`asking`, its embedding; `analysis.asking_part`), so that what a fact pattern asks
      ranks first in one list instead of under the words of its facts. Lexical only: the
      asked-about terms ("แจ้ง… ภายในกี่ชั่วโมง", "fine") are words the statute uses (figures
      in docs/quality.md)."""
    published = {law.law_version for law in catalogue.values() if law.version}
    hidden = sorted(
        {f"{law.id}@{law.pending}" for law in catalogue.values() if law.pending} - published
    )
    vector_mode = {"bm25": "sparse", "dense": "dense"}.get(mode, "hybrid")
    collections = {"chunks": max(top_k, settings.seed_profiles)}
    if mode == "graph":
        # Deeper than the context: the anchors come from ranks the flat modes cut off.
        collections["chunks"] = max(top_k, settings.seed_profiles) * 2
    if mode in ("hybrid", "graph"):
        collections["profiles"] = settings.seed_profiles
    searches = [
        (collection, collection, embedding, limit, scope, vector_mode)
        for collection, limit in collections.items()
    ]
    if named:
        searches.append(
            ("named_law", "chunks", embedding, collections["chunks"], named, vector_mode)
        )
    if asking is not None:
        searches.append(("asking", "chunks", asking, collections["chunks"], scope, "sparse"))
    hits: dict[str, list[VectorHit]] = {}
    for name, collection, query, limit, laws, search_mode in searches:
        found = vectors.hybrid_search(
            collection,
            query,
            limit=limit + 4,  # room for stale points of a version published a moment ago
            laws=laws,
            mode=search_mode,
            exclude_law_versions=hidden or None,
        )
        hits[name] = [h for h in found if _hit_law_version(h) in published][:limit]
    return hits


def _hit_law_version(hit: VectorHit) -> str:
    payload = hit.payload
    if payload.get("law_version"):
        return str(payload["law_version"])
    return f"{payload.get('law')}@{payload.get('version')}"


def _hit_keys(hit: VectorHit) -> list[str]:
    """Graph keys a hit stands for: the node, or both ends of an edge profile. Profiles of
    the hierarchy (law, chapter, part) are no place to start a citation walk from."""
    payload = hit.payload
    kind = payload.get("kind")
    if kind in _HIERARCHY_KINDS:
        return []
    if kind == "edge":
        ends = [payload.get("source"), payload.get("target")]
        return [str(k) for k in ends if k]
    return [str(payload.get("key") or hit.key)]


def _hit_kinds(hits: Mapping[str, list[VectorHit]]) -> dict[str, str]:
    """Node kind of every key the hits stand for (edge profiles name their ends' kinds)."""
    kinds: dict[str, str] = {}
    for found in hits.values():
        for hit in found:
            payload = hit.payload
            if payload.get("kind") == "edge":
                for end in ("source", "target"):
                    if payload.get(end):
                        kinds.setdefault(
                            str(payload[end]), str(payload.get(f"{end}_kind") or "section")
                        )
            else:
                kinds.setdefault(
                    str(payload.get("key") or hit.key), str(payload.get("kind") or "section")
                )
    return kinds


def _fuse(hits: Mapping[str, list[VectorHit]]) -> dict[str, float]:
    """Reciprocal-rank fusion of the chunk and profile lists into one score per graph key."""
    scores: dict[str, float] = defaultdict(float)
    for collection, found in hits.items():
        weight = _PROFILE_WEIGHT if collection == "profiles" else 1.0
        seen: set[str] = set()
        for rank, hit in enumerate(found):
            for key in _hit_keys(hit):
                if key not in seen:
                    seen.add(key)
                    scores[key] += weight / (_RRF_K + rank + 1)
    if not scores:
        return {}
    top = max(scores.values())
    return {key: score / top for key, score in scores.items()}


def _law_focus(scores: Mapping[str, float], named: Sequence[str] = ()) -> dict[str, float]:
    """law -> a weight from 0.25 to 1: a question is about one law more than others, and the
    law most of the vector evidence lands in is that law (NitiBench-Tax: the Revenue Code
    ahead of the sections of other laws that share its words), unless the question names
    its laws: they weigh 1."""
    mass: dict[str, float] = defaultdict(float)
    for key, score in scores.items():
        mass[_law_of(key)] += score
    top = max(mass.values(), default=1.0) or 1.0
    focus = {law: 0.25 + 0.75 * m / top for law, m in mass.items()}
    return defaultdict(lambda: 0.25, focus | dict.fromkeys(named, 1.0))


def _law_of(key: str) -> str:
    return key.split(":", 1)[0]


# --- seeds ---------------------------------------------------------------------------------


def _seeds(
    graph: GraphStore,
    analysis: QuestionAnalysis,
    vector_scores: Mapping[str, float],
    deep_scores: Mapping[str, float],
    kinds: Mapping[str, str],
    visible: list[str],
    named: list[str],
    hits: Mapping[str, list[VectorHit]],
    published: list[str],
    settings: Settings,
) -> list[Seed]:
    seeds: dict[str, Seed] = {}
    cited_laws, certain = _citation_laws(visible, named, hits) if analysis.citations else ([], True)
    places: dict[str, CitedSection] = {}
    for law_id in cited_laws:
        for cited in analysis.citations[:10]:
            key = node_key(law_id, "s", cited.number)
            seeds.setdefault(key, Seed(key, law_id, "citation", 1.0, cited.text, certain=certain))
            if cited.paragraph or cited.clause:
                places.setdefault(key, cited)
    ranked = sorted(vector_scores.items(), key=lambda item: (-item[1], item[0]))
    walkable = [(k, v) for k, v in ranked if kinds.get(k, "section") in _SEED_KINDS]
    # A seed's weight in the walk comes from its rank, not its fused score: fused scores of
    # the first few hits differ mostly by whether a hit made both lists, and the third seed
    # (PDPA s.26 for the English health-data question) must still lead somewhere.
    for rank, (key, _) in enumerate(walkable[: settings.max_seeds]):
        weight = 1.0 - _SEED_RANK_STEP * rank
        seeds.setdefault(
            key, Seed(key, _law_of(key), "vector", weight, kind=kinds.get(key, "section"))
        )
    # A paragraph or clause the question names stands for the sections it cites ("which
    # rights does section 23(6) list"): they are what it asks about, next to the section
    # itself, one seed rank below it (a tax question citing "มาตรา 40 (2)" names an income
    # class, and what that clause cites is context: NitiBench-Tax graph MRR@10 0.374 at
    # the same weight, 0.388 one step below). They walk one hop, like anchors, which shows
    # who penalises them.
    for key, text in _cited_from(graph, places, published).items():
        hops = seeds[key].hops if key in seeds else 1
        seeds[key] = Seed(key, _law_of(key), "clause", 1.0 - _SEED_RANK_STEP, text, hops=hops)
    # Anchors: the next vector hits, walked one hop only. A penalty question's violated
    # section is often a middling vector hit (the question describes the conduct, the
    # penalty words pull penalty sections up), and only its own edges say who punishes it.
    # One hop shows penalties only; exemptions and definitions are two hops away, so those
    # companions come from the seeds. Only sections are walked: companions complete sections.
    deep = sorted(deep_scores.items(), key=lambda item: (-item[1], item[0]))
    deep = [(k, v) for k, v in deep if kinds.get(k, "section") in _SEED_KINDS and k not in seeds]
    for key, score in deep[: settings.max_seeds * _ANCHORS_PER_SEED]:
        if kinds.get(key, "section") == "section":
            seeds.setdefault(key, Seed(key, _law_of(key), "vector", score, hops=1))
    return list(seeds.values())


def walk(
    graph: GraphStore, seeds: Sequence[Seed], published: list[str], max_hops: int
) -> list[WalkPath]:
    """Run the walk query (`cypher/queries/retrieval_walk.cypher`): seeds in the branch of
    their label, anchors one hop. It returns the relationships of the paths it found; the
    paths are rebuilt from them here."""
    by_kind: dict[str, list[str]] = defaultdict(list)
    for seed in seeds:
        by_kind[seed.kind if seed.hops == MAX_HOPS else "anchor"].append(seed.key)
    rows = graph.run_read(
        "retrieval_walk",
        section_seeds=by_kind["section"],
        definition_seeds=by_kind["definition"],
        penalty_seeds=by_kind["penalty"],
        exemption_seeds=by_kind["exemption"],
        anchors=by_kind["anchor"],
        published=published,
        max_hops=max_hops,
        limit=_WALK_ROW_LIMIT,
    )
    edges = {(str(t), str(a), str(b)) for row in rows for t, a, b in row.get("edges") or []}
    return _paths(seeds, edges, max_hops)


def _paths(
    seeds: Sequence[Seed], edges: Collection[tuple[str, str, str]], max_hops: int
) -> list[WalkPath]:
    """Every path from the seeds over `edges` ([type, start key, end key]) that the walk
    query's rules allow: at most `max_hops` (an anchor: one, over the anchor branch's
    types), a Definition crossed only towards the section that defines it, no USES_TERM
    on hop 2, each node once. The edges are those of the paths the query found, so this
    gives back the same paths. Paths through the same first edge share its Step."""
    around: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for edge in sorted(edges):
        around[edge[1]].append(edge)
        if edge[2] != edge[1]:
            around[edge[2]].append(edge)

    def step(hop: int, edge: tuple[str, str, str], here: str) -> Step:
        """The step from `here` along `edge`, to its other end (keys stand in for labels)."""
        rel_type, start, end = edge
        there = end if start == here else start
        return Step(hop, rel_type, "out" if start == here else "in", there, there)

    paths: list[WalkPath] = []
    for seed in seeds:
        anchor = seed.hops < MAX_HOPS
        origin = Step(0, "", "out", seed.key, seed.key)
        for first in around.get(seed.key, ()):
            if anchor and first[0] not in _ANCHOR_TYPES:
                continue
            one = step(1, first, seed.key)
            if one.key == seed.key:
                continue
            middle_kind = _kind_of_key(one.key)
            paths.append(WalkPath((origin, one), middle_kind))
            if anchor or max_hops < MAX_HOPS:
                continue
            crossing = middle_kind == "definition"
            for second in around.get(one.key, ()):
                if second == first or second[0] == RelType.USES_TERM:
                    continue
                if crossing and second[0] != RelType.DEFINES:
                    continue
                two = step(2, second, one.key)
                if two.key not in (seed.key, one.key):
                    paths.append(WalkPath((origin, one, two), _kind_of_key(two.key)))
    return paths


def _cited_from(
    graph: GraphStore, places: Mapping[str, CitedSection], published: list[str]
) -> dict[str, str]:
    """The sections cited from the paragraph or clause the question names, each with the
    question's citation: {"…:s:19": "section 23(6)", …}."""
    if not places:
        return {}
    rows = graph.run_read("retrieval_cited_places", keys=list(places), published=published)
    return {
        str(row["target"]): places[row["source"]].text
        for row in rows
        if _cites_from(places[row["source"]], row.get("paragraphs"), row.get("clauses"))
    }


def _cites_from(
    place: CitedSection, paragraphs: Sequence[int] | None, clauses: Sequence[str] | None
) -> bool:
    """Whether a citation edge starts in the place the question names. "(6)" after a
    section number reads as a paragraph in EU style and as a clause in Thai drafting, so a
    paragraph number also matches a clause of that number."""
    paths = [path.split("/") for path in clauses or ()]
    if place.clause:
        return any(place.clause in path for path in paths)
    if place.paragraph is None:
        return False
    return (place.paragraph.isdigit() and int(place.paragraph) in (paragraphs or ())) or any(
        path[0] == place.paragraph for path in paths
    )


def _visible_laws(catalogue: Mapping[str, _Law], scope: list[str] | None) -> list[_Law]:
    """The published laws searched: the caller's scope, else every published law."""
    return [law for law in catalogue.values() if law.version and (not scope or law.id in scope)]


def _names_in(graph: GraphStore, analysis: QuestionAnalysis, laws: Sequence[_Law]) -> list[str]:
    """The laws the question names by title, short name or alias."""
    text = analysis.normalised.lower()
    names = _law_names(graph, laws)
    return [law.id for law in laws if any(n in text for n in names.get(law.id, ()))]


def _citation_laws(
    visible: list[str], named: list[str], hits: Mapping[str, list[VectorHit]]
) -> tuple[list[str], bool]:
    """Which laws "มาตรา ๒๖" means, and whether that is certain: the caller's filter or
    the only law loaded, a law the question names, else (a guess) the laws the vector
    search landed in (a bare section number is ambiguous across laws)."""
    if len(visible) <= 1:
        return visible, True
    if named:
        return named, True
    searched = set(visible)
    landed: list[str] = []
    for found in hits.values():
        for hit in found:
            law = str(hit.payload.get("law", ""))
            if law in searched and law not in landed:
                landed.append(law)
    return landed[:2], False


# --- ranking -------------------------------------------------------------------------------


@dataclass
class _Candidate:
    key: str
    kind: str
    vector: float = 0.0  # fused vector score (0..1)
    walk: float = 0.0  # best path score
    bonus: float = 0.0  # reached from further seeds
    steps: tuple[Step, ...] = ()  # the best path, steps[0] being the seed
    seed_source: str | None = None  # "citation" / "vector" when the node is a seed
    sources: set[str] = field(default_factory=set)
    best_per_seed: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        # The better of the two pieces of evidence, not their sum: a vector hit that the
        # walk also reaches keeps its place among the vector hits instead of jumping
        # over stronger ones, and a neighbour enters where its path puts it.
        return max(self.vector, self.walk) + self.bonus


def _rank(
    paths: Sequence[WalkPath],
    intents: tuple[str, ...],
    vector_scores: Mapping[str, float],
    deep_scores: Mapping[str, float],
    kinds: Mapping[str, str],
    seeds: Sequence[Seed],
    hits: Mapping[str, list[VectorHit]],
    settings: Settings,
) -> list[_Candidate]:
    """Order every node the vectors or the walk found, then complete the answer.

    A node's score is the better of its fused vector score and its best path (the
    seed's weight x hop weights x intent boost), plus a quarter of the best paths from
    other seeds (a node several seeds lead to is central). Then each section is followed
    by the sections that answer the question's intent about it (`_complete`)."""
    candidates: dict[str, _Candidate] = {}
    for key, score in vector_scores.items():
        candidates[key] = _Candidate(key, kinds.get(key, "section"), vector=score)
    for collection, found in hits.items():
        for hit in found:
            for key in _hit_keys(hit):
                candidates[key].sources.add(collection)
    seed_by_key = {s.key: s for s in seeds}
    # An anchor from below the flat lists enters just under the weakest flat hit: it is
    # ranked by evidence the flat modes do not see, so it never passes one of their hits
    # unless the intent lifts it.
    floor = 0.99 * min(vector_scores.values(), default=1.0)
    for seed in seeds:
        candidate = candidates.setdefault(seed.key, _Candidate(seed.key, "section"))
        if seed.hops < MAX_HOPS:
            if seed.source == "clause":  # cited from the clause the question names
                candidate.vector = max(candidate.vector, seed.score)
                candidate.sources.add("citation")
            elif candidate.vector == 0.0:
                candidate.vector = min(seed.score, floor)
                candidate.sources.add("chunks")
            continue  # an anchor stays a plain vector hit: its walk only finds companions
        candidate.seed_source = seed.source
        candidate.vector = max(candidate.vector, seed.score)
        if seed.source in ("citation", "clause"):
            candidate.sources.add("citation")

    roles = _roles(path.steps for path in paths)
    walked: list[tuple[str, str, tuple[Step, ...], float, str]] = []
    for path in paths:
        steps, kind = path.steps, path.kind
        start = seed_by_key.get(steps[0].key)
        if start is None or start.hops < MAX_HOPS:
            continue  # an anchor's edges only name companions (below), they score nothing
        # A plain neighbour adds context around what the vectors found rather than the
        # answer itself, so its evidence counts less against a direct hit (the intent
        # boost in `_path_weight` lifts the neighbours that play the part asked for); a
        # section the question cites by number is what it asks about, neighbours included.
        scale = 1.0 if start.source == "citation" else _CONTEXT_WALK_SCALE
        score = start.score * scale
        score *= _path_weight(steps, intents, kind, roles.get(steps[-1].key, set()))
        walked.append((steps[0].key, steps[-2].key, steps, score, kind))

    for origin, _, steps, score, kind in _cap_fanout(walked, settings.hub_fanout_cap):
        key = steps[-1].key
        candidate = candidates.setdefault(key, _Candidate(key, kind))
        candidate.kind = kind
        candidate.sources.add("graph")
        if score > candidate.best_per_seed.get(origin, -1.0):
            candidate.best_per_seed[origin] = score
        if score > candidate.walk:
            candidate.walk, candidate.steps = score, steps
    for candidate in candidates.values():
        if len(candidate.best_per_seed) > 1:
            others = sorted(candidate.best_per_seed.values(), reverse=True)[1:]
            candidate.bonus = 0.25 * sum(others[:2])
    companions = _companions([path.steps for path in paths], intents, roles, deep_scores)
    kinds_seen = {path.steps[-1].key: path.kind for path in paths}
    for links in companions.values():
        for key, _, _ in links:
            if key not in candidates:  # reached from an anchor only
                candidates[key] = _Candidate(key, kinds_seen.get(key, "section"), sources={"graph"})
    for key in companions:
        # A section that has what the question asks about (a penalty, an exemption, a
        # definition) is likelier the one it describes than a neighbour without one.
        if key in candidates and candidates[key].kind == "section":
            candidates[key].vector *= _COMPANION_LIFT
    # And a section the walk started from that has none, and does not play the part
    # itself (a penalty section, a section granting exemptions), is likelier not: ranks 1-3
    # of a penalty question are often duties nothing punishes (civil liability, data
    # accuracy), ahead of the duty asked about and its penalty.
    wanted = frozenset().union(*(_INTENT_ROLES[intent] for intent in intents))
    for seed in seeds:
        candidate = candidates[seed.key]
        if (
            wanted
            and seed.hops == MAX_HOPS
            and candidate.kind == "section"
            and seed.key not in companions
            and not roles.get(seed.key, set()) & wanted
        ):
            candidate.vector /= _COMPANION_LIFT
    # A section the question names by number is what it asks about: it comes first, when
    # its law is certain. (NitiBench-Tax: 24 of 50 questions cite sections, and every one
    # of the 38 sections they cite is a gold label.)
    named = {seed.key for seed in seeds if seed.source == "citation" and seed.certain}
    ranked = sorted(candidates.values(), key=lambda c: (c.key not in named, -c.score, c.key))
    return _complete(ranked, companions, candidates)


def _companions(
    paths: Iterable[tuple[Step, ...]],
    intents: Sequence[str],
    roles: Mapping[str, set[str]],
    evidence: Collection[str],
) -> dict[str, list[tuple[str, int, tuple[Step, ...]]]]:
    """section key -> the sections a lawyer reads with it for the question's intents,
    each with its pattern's strength (0 strongest) and the path that links them: who
    penalises it, or what it penalises (penalty), who grants an exemption from it
    (exception), who defines the terms it uses (definition). `evidence`: the keys the
    vector search found, for the patterns that need it.

    Read off the walk's own paths, so it costs no query: every edge of a path is an
    edge of the graph, and a pattern of two edges appears on a 2-hop path or as the two
    last steps of one."""
    wanted = [
        (strength, pattern)
        for intent in intents
        for strength, pattern in enumerate(_COMPANION_PATTERNS.get(intent, ()))
    ]
    found: dict[str, dict[str, tuple[int, tuple[Step, ...]]]] = defaultdict(dict)
    for steps in paths:
        for strength, pattern in wanted:
            width = len(pattern.steps)
            for i in range(len(steps) - width):
                window = steps[i : i + width + 1]
                anchor, companion = window[0].key, window[-1].key
                if pattern.role and pattern.role not in roles.get(companion, ()):
                    continue
                if pattern.needs_evidence and companion not in evidence:
                    continue
                if any(
                    (step.type, step.direction) != expected
                    for step, expected in zip(window[1:], pattern.steps, strict=True)
                ):
                    continue
                best = found[anchor].get(companion)
                if best is None or (strength, len(window)) < (best[0], len(best[1])):
                    found[anchor][companion] = (
                        strength,
                        tuple(
                            Step(j, s.type, s.direction, s.key, s.label)
                            for j, s in enumerate(window)
                        ),
                    )
    return {
        anchor: [(key, strength, path) for key, (strength, path) in sorted(links.items())]
        for anchor, links in found.items()
    }


def _complete(
    ranked: list[_Candidate],
    companions: Mapping[str, list[tuple[str, int, tuple[Step, ...]]]],
    candidates: Mapping[str, _Candidate],
) -> list[_Candidate]:
    """Put each section's companions right after it, in rank order: the violated
    section and the section that punishes it are read together, so they are returned
    together, however far apart their own scores put them. A companion keeps its own
    place when it already ranks higher; at most `_MAX_COMPANIONS` per section."""
    if not companions:
        return ranked
    order: list[_Candidate] = []
    placed: set[str] = set()
    for candidate in ranked:
        if candidate.key in placed:
            continue
        order.append(candidate)
        placed.add(candidate.key)
        if candidate.kind != "section" or not (candidate.vector or candidate.seed_source):
            continue  # only what the question itself matched is completed, not neighbours
        links = [
            (strength, candidates[key], steps)
            for key, strength, steps in companions.get(candidate.key, ())
            if key in candidates and key not in placed
        ]
        links.sort(key=lambda link: (link[0], -link[1].score, link[1].key))  # direct first
        for _, companion, steps in links[:_MAX_COMPANIONS]:
            if not companion.seed_source and not companion.steps:
                companion.steps = steps  # say which section it completes
            # Its place comes from the section it follows, and so does its score: one
            # hop's decay below it (its own evidence may be none, an anchor's edge).
            companion.walk = max(companion.walk, candidate.score * _HOP_DECAY)
            order.append(companion)
            placed.add(companion.key)
    return order


# A part's definitions: a defining section whose text says its definitions hold in one
# chapter or part ("ในหมวดนี้", "ในส่วนนี้", "In this Chapter", "この章において"), as the
# Revenue Code's s.77/1 (VAT) and s.39 (income tax) do; not one whose definitions hold in
# the whole law ("ในพระราชบัญญัตินี้", PDPA s.6), which every answer would otherwise end in.
_PART_SCOPE = re.compile(
    r"^\W*(?:ในหมวดนี้|ในส่วนนี้|in this (?:chapter|part|title|division)\b"
    r"|for the purposes of this (?:chapter|part|title|division)\b|この(?:章|節|款)において)",
    re.IGNORECASE,
)
_DEFINITIONS_FROM_TOP = 5  # the sections whose terms are looked up
_DEFINITIONS_SUPPORT = 2  # how many of them must use the part's terms

# law version -> section -> ((term, defining section), ...), the part definitions only
_PART_DEFINITIONS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {}


def _with_part_definitions(
    graph: GraphStore, ranked: list[_Candidate], catalogue: Mapping[str, _Law], top_k: int
) -> list[_Candidate]:
    """Add the definitions of the part of the law the answer lies in, as its last section:
    a tax ruling on VAT turns on what s.77/1 calls a "sale" or a "service", though the
    question never says "definition". Added when at least `_DEFINITIONS_SUPPORT` of the
    top `_DEFINITIONS_FROM_TOP` sections use terms one section of their law defines for a
    part of it (`_PART_SCOPE`), and the answer does not already hold it. The path says
    which section's term led there: s.82/3 -[USES_TERM]-> ผู้ประกอบการ <-[DEFINES]- s.77/1."""
    sections = [c for c in ranked if c.kind == "section"]
    top = sections[:_DEFINITIONS_FROM_TOP]
    laws = {_law_of(c.key): catalogue.get(_law_of(c.key)) for c in top}
    published = [law for law in laws.values() if law and law.version]
    definitions = _part_definitions(graph, published)
    support: dict[str, list[tuple[_Candidate, str]]] = defaultdict(list)
    for candidate in top:
        law = laws[_law_of(candidate.key)]
        uses = definitions.get(law.law_version, {}) if law else {}
        for term, defining in uses.get(candidate.key, ()):
            support[defining].append((candidate, term))
    if not support:
        return ranked
    # the most support, then the one the higher-ranked sections use
    order = {c.key: i for i, c in enumerate(top)}
    best = min(support, key=lambda k: (-len(support[k]), order[support[k][0][0].key], k))
    if len(support[best]) < _DEFINITIONS_SUPPORT or best in {c.key for c in sections[:top_k]}:
        return ranked
    user, term = support[best][0]
    candidate = next((c for c in ranked if c.key == best), None) or _Candidate(best, "section")
    candidate.sources.add("graph")
    if not candidate.seed_source and not candidate.steps:
        candidate.steps = (
            Step(0, "", "out", user.key, user.key),
            Step(1, RelType.USES_TERM, "out", term, term),
            Step(2, RelType.DEFINES, "in", best, best),
        )
    candidate.walk = max(candidate.walk, user.score * _HOP_DECAY**2)
    rest = [c for c in ranked if c.key != best]
    if len(sections) < top_k:
        return [*rest, candidate]
    at = rest.index(sections[top_k - 1])
    return [*rest[:at], candidate, *rest[at:]]


def _part_definitions(
    graph: GraphStore, laws: Sequence[_Law]
) -> dict[str, dict[str, tuple[tuple[str, str], ...]]]:
    """law version -> section -> the (term, defining section) pairs of the part
    definitions its text uses, one term per defining section. Kept per law version (a
    content hash, so never stale): the first read of a law costs ~30-400 ms (36 laws
    loaded, the Revenue Code the most)."""

    def read(missing: list[_Law]) -> dict[str, dict[str, tuple[tuple[str, str], ...]]]:
        rows = graph.run_read(
            "retrieval_part_definitions", laws=[[law.id, law.law_version] for law in missing]
        )
        uses: dict[str, dict[str, dict[str, str]]] = {
            law.law_version: defaultdict(dict) for law in missing
        }
        for row in rows:
            if str(row["law_version"]) not in uses or not _PART_SCOPE.match(row["head"] or ""):
                continue
            terms = uses[str(row["law_version"])][str(row["section"])]
            defining, term = str(row["defines"]), str(row["term"])
            terms[defining] = min(term, terms.get(defining, term))
        return {
            lv: {
                section: tuple(sorted((t, d) for d, t in terms.items()))
                for section, terms in by_section.items()
            }
            for lv, by_section in uses.items()
        }

    _keep_per_version(_PART_DEFINITIONS, laws, read)
    return {law.law_version: _PART_DEFINITIONS[law.law_version] for law in laws}


def _choose(ranked: list[_Candidate], top_k: int, settings: Settings) -> list[_Candidate]:
    """The top `top_k` sections and up to `max_expanded` other nodes; of what only the
    walk found, at most `max_expanded` nodes in all (the seed article's context cap)."""
    budget = settings.max_expanded
    sections: list[_Candidate] = []
    others: list[_Candidate] = []
    for candidate in ranked:
        graph_only = candidate.sources == {"graph"}
        if graph_only and budget <= 0:
            continue
        if candidate.kind == "section":
            if len(sections) >= top_k:
                continue
            sections.append(candidate)
        else:
            if len(others) >= settings.max_expanded or candidate.kind in _HIERARCHY_KINDS:
                continue
            others.append(candidate)
        if graph_only:
            budget -= 1
    return sections + others


def _details(
    graph: GraphStore, chosen: Sequence[_Candidate], published: list[str]
) -> dict[str, tuple[list[str], dict[str, Any]]]:
    """All properties of the chosen nodes; the display name of the other nodes on their
    paths (texts of path nodes would double what travels for nothing)."""
    full = {c.key for c in chosen}
    keys = full | {step.key for c in chosen for step in c.steps}
    if not keys:
        return {}
    rows = graph.run_read(
        "retrieval_nodes", keys=sorted(keys), full=sorted(full), published=published
    )
    details: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for row in rows:
        if not row.get("key"):
            continue
        node = dict(row.get("node") or {})
        node.setdefault("key", row["key"])
        if row.get("name") and not node.get("label"):
            node["label"] = row["name"]
        if row.get("number") and not node.get("number"):
            node["number"] = row["number"]
        details[str(row["key"])] = (list(row.get("labels") or []), node)
    return details


def _assemble(
    chosen: Sequence[_Candidate],
    details: Mapping[str, tuple[list[str], dict[str, Any]]],
    top_k: int,
    settings: Settings,
) -> tuple[list[ContextItem], list[ContextItem]]:
    labels = {key: _display_label(node) for key, (_, node) in details.items()}
    sections: list[ContextItem] = []
    nodes: list[ContextItem] = []
    for candidate in chosen:
        if candidate.key not in details:
            continue  # not (or no longer) in a published version of the graph
        node_labels, node = details[candidate.key]
        item = _item(candidate, _kind(node_labels), node, labels)
        (sections if item.kind == "section" else nodes).append(item)
    return _cap_sections(sections, top_k, settings), nodes


def _steps(row: Mapping[str, Any]) -> tuple[Step, ...] | None:
    keys = [str(k) for k in row.get("path_keys") or []]
    names = [str(n) for n in row.get("path_labels") or keys]
    types = list(row.get("path_types") or [])
    starts = list(row.get("path_starts") or [])
    if not keys or len(set(keys)) != len(keys) or len(types) != len(keys) - 1:
        return None
    if len(names) != len(keys):
        names = keys
    steps = [Step(0, "", "out", keys[0], names[0])]
    for i, rel_type in enumerate(types):
        direction: Literal["out", "in"] = "out" if starts[i] == keys[i] else "in"
        steps.append(Step(i + 1, str(rel_type), direction, keys[i + 1], names[i + 1]))
    return tuple(steps)


def _roles(paths: Iterable[tuple[Step, ...]]) -> dict[str, set[str]]:
    """node key -> the relationship types it starts, as far as the walk saw them."""
    roles: dict[str, set[str]] = defaultdict(set)
    for steps in paths:
        for previous, step in itertools.pairwise(steps):
            start = previous.key if step.direction == "out" else step.key
            roles[start].add(step.type)
    return roles


def _path_weight(
    steps: Sequence[Step], intents: Sequence[str], kind: str, roles: set[str]
) -> float:
    """Product of the hop weights, lifted when the node it ends at plays the part the
    question asks for: x3 when the last edge itself says so (s.84 -PENALIZES-> s.26, a
    section -PRESCRIBES-> a Penalty), x2 when only its other edges do (s.79 cites s.26 and
    penalises s.27). Squashed (tanh) under a per-hop ceiling: below the seed, a second hop
    below a first, order kept."""
    weight = 1.0
    for step in steps[1:]:
        weight *= _TYPE_WEIGHT.get(step.type, 0.3) * _HOP_DECAY
    last = steps[-1]
    boost = 1.0
    for intent in intents:
        types = _INTENT_ROLES[intent]
        plays = _INTENT_KINDS[intent] == kind
        if last.type in types and (last.direction == "in" or plays):
            boost = max(boost, _INTENT_BOOST)
        elif roles & types or plays:
            boost = max(boost, _ROLE_BOOST)
    ceiling = _MAX_WALK_WEIGHT[len(steps) - 1]
    return ceiling * math.tanh(weight * boost / ceiling)


def _cap_fanout(
    walked: list[tuple[str, str, tuple[Step, ...], float, str]], cap: int
) -> list[tuple[str, str, tuple[Step, ...], float, str]]:
    """Keep at most `cap` children per (seed, parent, hop): a hub such as PDPA s.26
    (degree 24) otherwise floods hop 2 with every section citing its neighbours."""
    groups: dict[tuple[str, str, int], list[tuple[str, str, tuple[Step, ...], float, str]]]
    groups = defaultdict(list)
    for entry in walked:
        groups[(entry[0], entry[1], len(entry[2]))].append(entry)
    kept = []
    for group in groups.values():
        group.sort(key=lambda e: (-e[3], e[2][-1].key))
        kept.extend(group[:cap])
    return kept


def _cap_sections(sections: list[ContextItem], top_k: int, settings: Settings) -> list[ContextItem]:
    """The top `top_k`; the first `max_full_sections` keep their full text, the rest an
    excerpt (the full text is one GET /v1/laws/{law}/sections/{n} away)."""
    capped = sections[:top_k]
    for item in capped[settings.max_full_sections :]:
        if len(item.text) > _EXCERPT_CHARS:
            item.text = item.text[:_EXCERPT_CHARS].rstrip() + " …"
            item.full_text = False
    return capped


def _item(
    candidate: _Candidate, kind: str, node: Mapping[str, Any], labels: Mapping[str, str]
) -> ContextItem:
    label = labels.get(candidate.key) or candidate.key
    steps = tuple(
        Step(s.hop, s.type, s.direction, s.key, labels.get(s.key, s.key)) for s in candidate.steps
    )
    # A seed that another seed's walk also reached keeps that path: it says how two
    # sections the vectors found relate (s.26 <-[PENALIZES]- s.84).
    path = _render_path(steps) if steps else label
    if candidate.seed_source:
        reached = f"[seed][{candidate.seed_source}] {label}"
    elif steps:
        reached = f"[hop{steps[-1].hop}][{steps[-1].type}] {label}"
    else:
        reached = f"[vector] {label}"
    return ContextItem(
        key=candidate.key,
        law=str(node.get("law") or _law_of(candidate.key)),
        kind=kind,
        label=label,
        text=str(node.get("text") or node.get("definition") or ""),
        score=round(candidate.score, 6),
        hops=len(steps) - 1 if steps and not candidate.seed_source else 0,
        reached=reached,
        path=path,
        steps=steps[1:],
        seed=steps[0].key if steps else None,
        number=node.get("number"),
        title=node.get("title") or None,
        version=node.get("version"),
        sources=tuple(sorted(candidate.sources)),
    )


def _render_path(steps: Sequence[Step]) -> str:
    """ "มาตรา ๒๖ <-[PENALIZES]- มาตรา ๘๔": arrows keep the edge's own direction."""
    parts = [steps[0].label]
    for step in steps[1:]:
        arrow = f"-[{step.type}]->" if step.direction == "out" else f"<-[{step.type}]-"
        parts.append(f"{arrow} {step.label}")
    return " ".join(parts)


def _display_label(node: Mapping[str, Any]) -> str:
    for name in ("label", "term", "title", "name"):
        value = node.get(name)
        if isinstance(value, str) and value:
            return value
    number = node.get("number")
    if number:
        return f"มาตรา {arabic_to_thai(str(number))}"
    return str(node.get("key", ""))


def _kind_of_key(key: str) -> str:
    """A node's kind from its key's tag (`ingest.ids.KEY_TAGS`): the walk returns keys only,
    which is cheaper than labels."""
    parts = key.split(":", 2)
    return KEY_TAGS.get(parts[1], "node") if len(parts) > 2 else "node"


def _kind(labels: Sequence[str]) -> str:
    return node_kind(labels[0] if labels else "Node")


class _timed:
    def __init__(self, timings: dict[str, float], name: str) -> None:
        self.timings, self.name = timings, name

    def __enter__(self) -> None:
        self.started = perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timings[self.name] = round((perf_counter() - self.started) * 1000.0, 3)


# --- lookups behind the law endpoints (deterministic, published versions only) ----------

_MAX_SECTION_CHARS = 40
_PUBLIC_LAW_PROPS = ("title", "short_name", "language", "jurisdiction", "status", "year", "source")
_HIDDEN_PROPS = frozenset({"uid", "law_version"})


def published_law_versions(graph: GraphStore) -> dict[str, str]:
    """law id -> published version, read fresh (never cached: publishing flips it)."""
    return {law.id: law.version for law in _read_laws(graph).values() if law.version}


def list_laws(graph: GraphStore) -> list[dict[str, Any]]:
    laws = []
    for row in graph.run_read("laws_list"):
        props = row.get("props") or {}
        laws.append(
            {"law": row["law"], "version": row["version"]}
            | {name: props.get(name) for name in _PUBLIC_LAW_PROPS if props.get(name)}
        )
    return laws


def law_summary(graph: GraphStore, law: str, *, most_cited: int = 10) -> dict[str, Any]:
    """Structure counts and the most-cited sections of one published law."""
    versions = published_law_versions(graph)
    version = _require_law(versions, law)
    law_version = f"{law}@{version}"
    published = _published_list(versions)
    nodes = graph.run_read("law_summary_nodes", law=law, law_version=law_version)
    edges: dict[str, int] = defaultdict(int)
    for row in graph.run_read("law_summary_edges", law=law, law_version=law_version):
        if row.get("type"):
            edges[str(row["type"])] += int(row["count"])
    cited = graph.run_read(
        "law_most_cited", law=law, law_version=law_version, published=published, limit=most_cited
    )
    return {
        "law": law,
        "version": version,
        "nodes": {
            str(r["label"]): int(r["count"])
            for r in sorted(nodes, key=lambda r: str(r["label"]))
            if r.get("count")
        },
        "edges": dict(sorted(edges.items())),
        "most_cited": [
            {
                "key": r["key"],
                "number": r.get("number"),
                "label": r.get("label"),
                "cited_by": int(r["cited"]),
            }
            for r in cited
        ],
    }


def section_text(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_text", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    node = _public(rows[0].get("node"))
    division = _public(rows[0].get("division"))
    labels = rows[0].get("division_labels") or []
    return {
        "key": node.get("key", key),
        "law": law,
        "number": node.get("number"),
        "label": node.get("label"),
        "title": node.get("title") or None,
        "text": node.get("text", ""),
        "version": node.get("version"),
        "division": (
            {
                "kind": _kind(labels),
                "key": division.get("key"),
                "label": division.get("label"),
                "title": division.get("title"),
            }  # fmt: skip
            if division
            else None
        ),
    }


def related_sections(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    """In- and out-edges of a section, grouped by relationship type."""
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_related", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    outgoing: dict[str, list[dict[str, Any]]] = defaultdict(list)
    incoming: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row.get("type"):
            continue
        link = {
            "key": row.get("key"),
            "kind": _kind(row.get("labels") or []),
            "label": row.get("label"),
            "law": row.get("law"),
        } | {k: v for k, v in (row.get("props") or {}).items() if v not in (None, [], "")}
        (outgoing if row.get("outgoing") else incoming)[str(row["type"])].append(link)
    return {"key": key, "law": law, "outgoing": dict(outgoing), "incoming": dict(incoming)}


def section_penalties(graph: GraphStore, law: str, section: str) -> dict[str, Any]:
    """Penalty sections (and their Penalty nodes) reachable from the violated section
    within 3 hops, each with the path that links them."""
    versions = published_law_versions(graph)
    _require_law(versions, law)
    key = section_key_for(law, section)
    rows = graph.run_read("section_penalties", key=key, published=_published_list(versions))
    if not rows:
        raise NotFound(f"no section {section!r} in law {law!r}")
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        ps = _public(row.get("penalty_section"))
        if not ps.get("key"):
            continue
        steps = _steps(row)
        entry = found.setdefault(
            ps["key"],
            {
                "key": ps["key"],
                "label": ps.get("label"),
                "law": ps.get("law"),
                "text": ps.get("text", ""),
                "hops": len(steps) - 1 if steps else None,
                "path": _render_path(steps) if steps else None,
                "penalties": [],
            },
        )
        penalty = _public(row.get("penalty"))
        if penalty.get("key") and all(p["key"] != penalty["key"] for p in entry["penalties"]):
            entry["penalties"].append(
                {k: v for k, v in penalty.items() if k not in ("law", "version")}
            )
    return {"key": key, "law": law, "penalty_sections": list(found.values())}


def section_key_for(law: str, section: str) -> str:
    """The key of "26", "๒๖", "26/1", "มาตรา ๒๖" in `law`; 422 for anything else."""
    raw = section.strip()
    if not raw or len(raw) > _MAX_SECTION_CHARS or any(ord(c) < 32 or c == "\x7f" for c in raw):
        raise InvalidQuery(
            "section", f"must be a section number such as 26, ๒๖ or 26/1 (got {section[:50]!r})"
        )
    number = normalise_section_number(raw)
    if not number or not number[0].isalnum():
        raise InvalidQuery(
            "section", f"must be a section number such as 26, ๒๖ or 26/1 (got {section[:50]!r})"
        )
    return node_key(law, "s", number)


def _require_law(versions: Mapping[str, str], law: str) -> str:
    version = versions.get(law)
    if not version:
        raise NotFound(f"no published law {law[:100]!r}")
    return version


def _published_list(versions: Mapping[str, str]) -> list[str]:
    return sorted(f"{law}@{version}" for law, version in versions.items())


def _public(props: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (props or {}).items() if k not in _HIDDEN_PROPS and v is not None}
