"""Where the walk starts: sections the question cites, the best vector hits, the first
sections of each vector list, the sections a cited clause cites, and anchors (the next vector
hits, walked one hop).

A seed's weight in the walk comes from its rank, not its fused score (`SeedTuning`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ingest.ids import node_key
from ingest.structure import clause_path
from services.core.analysis import CitedSection
from services.core.ports import GraphStore
from services.core.retrieval import vectors
from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import citation_laws, law_of
from services.core.retrieval.models import Candidate, Seed
from services.core.retrieval.stage import Stage

SEED_KINDS = frozenset({"section", "definition", "penalty", "exemption"})  # retrieval_walk labels
# Lists whose first sections are seeds only in the laws routing chose: a question's meaning
# alone says little of which law it is about (the dense lists alone put the right law first
# for 8-28% of the questions among every corpus; docs/quality.md, "where routing loses").
ROUTED_ONLY = frozenset({"conduct"})


class SeedWalk(Stage):
    name = "seed"

    def run(self, ctx: SearchContext) -> None:
        analysis = ctx.analysed
        tuning = ctx.tuning.seeds
        seeds: dict[str, Seed] = {}
        places: dict[str, CitedSection] = {}
        if analysis.citations:
            visible = [law.id for law in ctx.visible]
            cited_laws, certain = citation_laws(visible, ctx.named, ctx.hits)
            for law_id in cited_laws:
                for cited in analysis.citations[:10]:
                    key = node_key(law_id, "s", cited.number)
                    seeds.setdefault(
                        key, Seed(key, law_id, "citation", 1.0, cited.text, certain=certain)
                    )
                    if cited.paragraph or cited.clause:
                        places.setdefault(key, cited)
        focused = focused_scores(ctx, ctx.vector_scores)
        ranked = sorted(focused.items(), key=lambda item: (-item[1], item[0]))
        walkable = [(k, v) for k, v in ranked if ctx.kinds.get(k, "section") in SEED_KINDS]
        for rank, (key, _) in enumerate(walkable[: tuning.max_seeds]):
            weight = 1.0 - tuning.rank_step * rank
            seeds.setdefault(
                key, Seed(key, law_of(key), "vector", weight, kind=ctx.kinds.get(key, "section"))
            )
        if ctx.enabled("list_seeds"):
            self.add_list_seeds(ctx, seeds)
        if ctx.enabled("clause_seeds"):
            self.add_clause_seeds(ctx, seeds, places)
        if ctx.enabled("anchors"):
            self.add_anchors(ctx, seeds)
        ctx.seeds = list(seeds.values())

    @staticmethod
    def add_list_seeds(ctx: SearchContext, seeds: dict[str, Seed]) -> None:
        """The first sections of each vector list start the walk too, one rank step below
        the last fused seed. Each list is one view of the question (the sections' text, their
        words alone, the profiles of sections and citations, the asking part, a penalty
        question's conduct); fusion rewards the lists' agreement, so a section one list puts
        first can fall below the fused seeds when the others miss it (docs/quality.md, "each
        list's first sections as seeds"). A `ROUTED_ONLY` list seeds in the routed laws only."""
        tuning = ctx.tuning.seeds
        weight = 1.0 - tuning.rank_step * tuning.max_seeds
        for name, found in [*ctx.hits.items(), *ctx.seed_hits.items()]:
            laws = ctx.routed if name in ROUTED_ONLY else []  # empty: every law
            sections = dict.fromkeys(
                key
                for hit in found
                for key in vectors.hit_keys(hit)
                if ctx.kinds.get(key, "section") == "section" and (not laws or law_of(key) in laws)
            )
            for key in list(sections)[: tuning.per_list]:
                seeds.setdefault(key, Seed(key, law_of(key), "vector", weight))

    @staticmethod
    def add_clause_seeds(
        ctx: SearchContext, seeds: dict[str, Seed], places: Mapping[str, CitedSection]
    ) -> None:
        """A paragraph or clause the question names stands for the sections it cites
        ("which rights does section 23(6) list"): they are what it asks about, next to the
        section itself, one seed rank below it (a tax question citing "มาตรา 40 (2)" names
        an income class, and what that clause cites is context: NitiBench-Tax graph MRR@10
        0.374 at the same weight, 0.388 one step below). They walk one hop, like anchors,
        which shows who penalises them."""
        weight = 1.0 - ctx.tuning.seeds.rank_step
        for key, text in cited_from(ctx.graph, places, ctx.published).items():
            hops = seeds[key].hops if key in seeds else 1
            seeds[key] = Seed(key, law_of(key), "clause", weight, text, hops=hops)

    @staticmethod
    def add_anchors(ctx: SearchContext, seeds: dict[str, Seed]) -> None:
        """The next vector hits, walked one hop only. A penalty question's violated section
        is often a middling vector hit (the question describes the conduct, the penalty
        words pull penalty sections up), and only its own edges say who punishes it. One
        hop shows penalties only; exemptions and definitions are two hops away, so those
        companions come from the seeds. Only sections are walked: companions complete
        sections."""
        focused = focused_scores(ctx, ctx.deep_scores)
        deep = sorted(focused.items(), key=lambda item: (-item[1], item[0]))
        deep = [
            (k, v) for k, v in deep if ctx.kinds.get(k, "section") in SEED_KINDS and k not in seeds
        ]
        tuning = ctx.tuning.seeds
        for key, score in deep[: tuning.max_seeds * tuning.anchors_per_seed]:
            if ctx.kinds.get(key, "section") == "section":
                seeds.setdefault(key, Seed(key, law_of(key), "vector", score, hops=1))


def focused_scores(ctx: SearchContext, scores: Mapping[str, float]) -> dict[str, float]:
    """Fused vector scores weighed by their law (`LawFocus`; 1 when it is off)."""
    if not ctx.focus:
        return dict(scores)
    return {key: score * ctx.focus[law_of(key)] for key, score in scores.items()}


def cited_from(
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
        if cites_from(places[row["source"]], row.get("paragraphs"), row.get("clauses"))
    }


def cites_from(
    place: CitedSection, paragraphs: list[int] | None, clauses: list[str] | None
) -> bool:
    """Whether a citation edge starts in the place the question names. "(6)" after a
    section number reads as a paragraph in EU style and as a clause in Thai drafting, so a
    paragraph number also matches a clause of that number."""
    paths = [clause_path(path) for path in clauses or ()]
    if place.clause:
        return any(place.clause in path for path in paths)
    if place.paragraph is None:
        return False
    return (place.paragraph.isdigit() and int(place.paragraph) in (paragraphs or ())) or any(
        path[0] == place.paragraph for path in paths
    )


class SeedEvidence(Stage):
    """Seeds and anchors become candidates with their weight as evidence: a seed its rank's
    weight (or a citation's 1); a clause-cited section one rank below; an anchor from below
    the flat lists just under the weakest flat hit (`SeedTuning.anchor_floor`): it is
    ranked by evidence the flat modes do not see, so it never passes one of their hits
    unless the intent lifts it. An anchor stays a plain vector hit: its walk only finds
    companions."""

    name = "seed_evidence"

    def run(self, ctx: SearchContext) -> None:
        focused = focused_scores(ctx, ctx.vector_scores)
        floor = ctx.tuning.seeds.anchor_floor * min(focused.values(), default=1.0)
        for seed in ctx.seeds:
            candidate = ctx.candidates.setdefault(seed.key, Candidate(seed.key, "section"))
            if seed.anchor:
                if seed.source == "clause":  # cited from the clause the question names
                    candidate.seed = max(candidate.seed, seed.score)
                    candidate.sources.add("citation")
                    candidate.note(f"seed: cited by {seed.label} ({seed.score:.2f})")
                elif candidate.vector * candidate.law_focus == 0.0:
                    candidate.seed = min(seed.score, floor)
                    candidate.sources.add("chunks")
                    candidate.note(f"anchor below the flat lists ({candidate.seed:.3f})")
                continue
            candidate.seed_source = seed.source
            candidate.seed = max(candidate.seed, seed.score)
            candidate.note(f"seed: {seed.source} ({seed.score:.2f}), walked {seed.hops} hops")
            if seed.source in ("citation", "clause"):
                candidate.sources.add("citation")
