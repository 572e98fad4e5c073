"""The vector side of a search: which lists are searched, and their fusion into one score
per graph key.

Lists: "chunks" (section text) and "profiles" (node and edge summaries), in every mode that
has them, and two of graph mode's own:
- "named_law", the chunks of the laws the question names: "can the director be punished
  under the PDPA" among 37 laws otherwise fills the lists with the Securities Act's
  directors before one PDPA section;
- "placed", the chunks of the laws of the jurisdictions the question names ("a Thai
  bank", "EU customers"): an English question's words and meaning match the English
  laws first, and a Thai law it is about may otherwise be in no list, so no evidence of
  routing's (`routing.FEATURES` "place") can lift it;
- "asking", the chunks that match the words of a long question's asking part
  (`analysis.asking_part`), so that what a fact pattern asks ranks first in one list
  instead of under the words of its facts. Lexical only: the asked-about terms ("แจ้ง…
  ภายในกี่ชั่วโมง", "fine") are words the statute uses (figures in docs/quality.md);
- "english", an English question's meaning by the English model over the paragraphs of
  the English-language laws (collection "english"), each section ranked by its best
  paragraph.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from services.core.analysis import QuestionAnalysis
from services.core.ports import Embedding, VectorHit
from services.core.retrieval.context import SearchContext
from services.core.settings import FusionTuning

HIERARCHY_KINDS = frozenset({"law", "chapter", "part"})
# Room for stale points of a version published a moment ago.
_STALE_ROOM = 4
# Paragraph points fetched per section sought: a section's paragraphs often come together.
_PARAGRAPHS_PER_SECTION = 3


@dataclass(frozen=True)
class VectorList:
    name: str  # the list's name in hits and sources: "chunks", "profiles", "named_law", ...
    collection: str
    limit: int
    mode: str  # "hybrid" | "dense" | "sparse"
    laws: list[str] | None  # None: every law searched
    embedding: Embedding


def search_text(analysis: QuestionAnalysis) -> str:
    """What the question's embedding is made of: its text and the terms analysis added
    (the statutory terms in another language among them)."""
    extra = [*analysis.glossary_terms, *analysis.bridge_terms, *analysis.llm_keywords]
    return f"{analysis.question}\n{' '.join(extra)}" if extra else analysis.question


def flat_depth(ctx: SearchContext) -> int:
    """How deep the lists the flat modes see go (and the scores every mode ranks by)."""
    return max(ctx.query.top_k, ctx.tuning.seeds.profiles)


def run_lists(ctx: SearchContext, lists: list[VectorList]) -> dict[str, list[VectorHit]]:
    """Hits per list, of the law versions in `ctx.published` only: pending points may
    exist, and a law not in force on the query's date is excluded inside the query, before
    similarity, so that it takes no place in a list's top k."""
    catalogue = ctx.catalogue
    published = set(ctx.published)
    pending = {f"{law.id}@{law.pending}" for law in catalogue.values() if law.pending}
    out_of_force = {v for law in catalogue.values() if law.version for v in law.law_versions}
    hidden = sorted((pending | out_of_force) - published)
    hits: dict[str, list[VectorHit]] = {}
    for vector_list in lists:
        per_section = _PARAGRAPHS_PER_SECTION if vector_list.collection == "english" else 1
        found = ctx.vectors.hybrid_search(
            vector_list.collection,
            vector_list.embedding,
            limit=vector_list.limit * per_section + _STALE_ROOM,
            laws=vector_list.laws,
            mode=vector_list.mode,
            exclude_law_versions=hidden or None,
        )
        found = [h for h in found if hit_law_version(h) in published]
        if per_section > 1:
            found = best_paragraphs(found)
        hits[vector_list.name] = found[: vector_list.limit]
    return hits


def best_paragraphs(found: list[VectorHit]) -> list[VectorHit]:
    """Each section once, at its best paragraph's place."""
    seen: set[str] = set()
    best = []
    for hit in found:
        section = str(hit.payload.get("section") or hit.key)
        if section not in seen:
            seen.add(section)
            best.append(hit)
    return best


def hit_law_version(hit: VectorHit) -> str:
    payload = hit.payload
    if payload.get("law_version"):
        return str(payload["law_version"])
    return f"{payload.get('law')}@{payload.get('version')}"


def hit_keys(hit: VectorHit) -> list[str]:
    """Graph keys a hit stands for: the node, both ends of an edge profile, or the articles
    a recital explains (`ingest/explanations.py`), or the section of a paragraph. Profiles of
    the hierarchy (law, chapter, part) are no place to start a citation walk from."""
    payload = hit.payload
    kind = payload.get("kind")
    if kind in HIERARCHY_KINDS:
        return []
    if kind == "paragraph":
        return [str(payload["section"])]
    if kind == "recital":
        return [str(k) for k in payload.get("explains") or ()]
    if kind == "edge":
        ends = [payload.get("source"), payload.get("target")]
        return [str(k) for k in ends if k]
    return [str(payload.get("key") or hit.key)]


def hit_kinds(hits: Mapping[str, list[VectorHit]]) -> dict[str, str]:
    """Node kind of every key the hits stand for (edge profiles name their ends' kinds)."""
    kinds: dict[str, str] = {}
    for found in hits.values():
        for hit in found:
            payload = hit.payload
            if payload.get("kind") == "paragraph":
                kinds.setdefault(str(payload["section"]), "section")
            elif payload.get("kind") == "recital":
                for key in payload.get("explains") or ():
                    kinds.setdefault(str(key), "section")
            elif payload.get("kind") == "edge":
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


def fuse(hits: Mapping[str, list[VectorHit]], tuning: FusionTuning) -> dict[str, float]:
    """Reciprocal-rank fusion of the lists into one score per graph key, the best 1."""
    scores: dict[str, float] = defaultdict(float)
    weights = {"profiles": tuning.profile_weight, "english": tuning.english_weight}
    for name, found in hits.items():
        weight = weights.get(name, 1.0)
        seen: set[str] = set()
        for rank, hit in enumerate(found):
            for key in hit_keys(hit):
                if key not in seen:
                    seen.add(key)
                    scores[key] += weight / (tuning.rrf_k + rank + 1)
    if not scores:
        return {}
    top = max(scores.values())
    return {key: score / top for key, score in scores.items()}


def list_ranks(hits: Mapping[str, list[VectorHit]]) -> dict[str, dict[str, int]]:
    """key -> list name -> the rank (0-based) it was first found at."""
    ranks: dict[str, dict[str, int]] = defaultdict(dict)
    for name, found in hits.items():
        for rank, hit in enumerate(found):
            for key in hit_keys(hit):
                ranks[key].setdefault(name, rank)
    return ranks
