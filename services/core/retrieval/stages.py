"""The stages before the walk: laws, question analysis, embedding, vector lists, fusion.

read_laws -> analyse -> embed -> route_laws -> vector_search -> fuse -> law_focus
"""

from __future__ import annotations

from collections.abc import Mapping

from services.core.analysis import analyse_question, without_intent_words
from services.core.ports import NO_TERMS, Embedder, Embedding
from services.core.retrieval import laws, vectors
from services.core.retrieval.context import SearchContext
from services.core.retrieval.intents import intent_text
from services.core.retrieval.models import Candidate
from services.core.retrieval.stage import Stage
from services.core.retrieval.vectors import VectorList


class ReadLaws(Stage):
    """The catalogue of published laws, the caller's scope, the laws searched: those in
    force on the query's date, with their jurisdictions (routing weighs them against the
    places the question names). `published` is what every graph query and vector list is
    restricted to, inside the query."""

    name = "read_laws"

    def run(self, ctx: SearchContext) -> None:
        ctx.catalogue = laws.read_catalogue(ctx.graph)
        ctx.scope = laws.caller_scope(ctx.catalogue, ctx.query.laws, ctx.query.jurisdictions)
        ctx.in_force = laws.in_force(ctx.catalogue, ctx.query.as_of)
        ctx.published = sorted(law.law_version for law in ctx.in_force.values())
        ctx.visible = laws.visible_laws(ctx.in_force, ctx.scope)
        ctx.jurisdictions = {law.id: law.jurisdiction for law in ctx.visible}


class Analyse(Stage):
    """Citations, tokens, keywords, intents and glossary terms of the question."""

    name = "analyse"
    metric = "analysis"

    def run(self, ctx: SearchContext) -> None:
        ctx.analysis = analyse_question(
            ctx.query.question,
            statute_languages={law.language for law in ctx.visible if law.language} or None,
            keywords=ctx.keywords,
        )


class Embed(Stage):
    """The question's embedding, with the terms analysis added; in graph mode, in the same
    model call, also what the intent model reads (`intents.intent_text`), its asking part
    (`asking_list`) and a penalty question's conduct (`conduct_text`); and, for an English
    question when an English-language law is searched, the English model's
    (`english_list`)."""

    name = "embed"
    metric = "embedding"

    def __init__(self, *, graph: bool = False) -> None:
        self.graph = graph

    def run(self, ctx: SearchContext) -> None:
        analysis = ctx.analysed
        search = vectors.search_text(analysis)
        texts = {"search": search}
        if self.graph:
            texts["intents"] = intent_text(analysis)
            if ctx.enabled("asking_list") and analysis.asking:
                texts["asking"] = analysis.asking
            if ctx.enabled("conduct_seeds"):
                texts["conduct"] = conduct_text(search)
        embedded = embed_together(ctx.embedder, texts)
        ctx.embedding = embedded["search"]
        ctx.intents_embedding = embedded.get("intents")
        ctx.asking_embedding = embedded.get("asking")
        ctx.conduct_embedding = embedded.get("conduct")
        english = ctx.embedder.english
        if (
            self.graph
            and english is not None
            and ctx.enabled("english_list")
            and analysis.language == "en"
            and any(law.language == "en" for law in ctx.visible)
        ):
            ctx.english_embedding = Embedding(english.query(analysis.question), NO_TERMS)


def embed_together(embedder: Embedder, texts: Mapping[str, str]) -> dict[str, Embedding]:
    """name -> the embedding of its text, each distinct text embedded once, all in one call."""
    distinct = list(dict.fromkeys(texts.values()))
    embedded = dict(zip(distinct, embedder.embed_queries(distinct), strict=True))
    return {name: embedded[text] for name, text in texts.items()}


class NamedLaws(Stage):
    """The laws the question names ("under the PDPA", "แห่งประมวลรัษฎากร"): they get a list
    of their own and say which law a bare "มาตรา ๒๖" means. Naming every law searched (the
    only one loaded) singles none out. The laws of the jurisdictions it names ("a Thai bank",
    "EU customers") are `placed`: routing reads them as evidence, and unless they are every
    law searched they get a list of their own too."""

    name = "named_laws"
    metric = "vector_search"

    def run(self, ctx: SearchContext) -> None:
        if len(ctx.visible) > 1:
            names = laws.law_names(ctx.graph, ctx.visible)
            ctx.named = laws.named_laws(
                names, ctx.analysed.normalised, ctx.analysed.places, ctx.jurisdictions
            )
        if len(ctx.named) < len(ctx.visible):
            ctx.singled_out = ctx.named
        places = set(ctx.analysed.places)
        ctx.placed = [law.id for law in ctx.visible if law.jurisdiction in places]


class VectorSearch(Stage):
    """The mode's vector lists. Graph mode fetches chunks twice as deep as the flat modes:
    the anchors come from ranks the flat modes cut off."""

    name = "vector_search"
    metric = "vector_search"

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def run(self, ctx: SearchContext) -> None:
        ctx.deep_hits = vectors.run_lists(ctx, self.lists(ctx))
        # Ranks and scores come from the lists the flat modes see; graph mode's deeper
        # chunks only choose anchors (a deeper list would reorder the fused top 10).
        depth = vectors.flat_depth(ctx)
        ctx.hits = {name: found[:depth] for name, found in ctx.deep_hits.items()}
        if self.mode == "graph" and ctx.enabled("list_seeds") and ctx.tuning.seeds.per_list:
            ctx.seed_hits = vectors.run_lists(ctx, self.seed_lists(ctx))
        if ctx.query.explain:
            ctx.explain_ranks = vectors.list_ranks(vectors.run_lists(ctx, self.split(ctx)))

    def lists(self, ctx: SearchContext) -> list[VectorList]:
        vector_mode = {"bm25": "sparse", "dense": "dense"}.get(self.mode, "hybrid")
        depth = vectors.flat_depth(ctx)
        chunks = depth * 2 if self.mode == "graph" else depth
        found = [VectorList("chunks", "chunks", chunks, vector_mode, ctx.scope, ctx.embedded)]
        if self.mode in ("hybrid", "graph"):
            profiles = ctx.tuning.seeds.profiles
            found.append(
                VectorList("profiles", "profiles", profiles, vector_mode, ctx.scope, ctx.embedded)
            )
        if ctx.singled_out and ctx.enabled("named_law_list"):
            found.append(
                VectorList(
                    "named_law", "chunks", chunks, vector_mode, ctx.singled_out, ctx.embedded
                )
            )
        if ctx.placed and len(ctx.placed) < len(ctx.visible) and ctx.enabled("placed_list"):
            found.append(
                VectorList("placed", "chunks", chunks, vector_mode, ctx.placed, ctx.embedded)
            )
        if ctx.asking_embedding is not None:
            found.append(
                VectorList("asking", "chunks", chunks, "sparse", ctx.scope, ctx.asking_embedding)
            )
        if ctx.english_embedding is not None:
            found.append(
                VectorList("english", "english", chunks, "dense", ctx.scope, ctx.english_embedding)
            )
        return found

    def seed_lists(self, ctx: SearchContext) -> list[VectorList]:
        """The chunks' lexical list on its own, whose first sections are seeds
        (`seeding.add_list_seeds`): the chunks list fuses the dense and lexical lists inside
        the vector store, and a section the question's words single out can rank low there
        when its meaning (USE's, a weak match for a question in a client's words) does not.
        And for a penalty question, its conduct searched by meaning (`conduct`). Three chunks
        per section sought: a section's first chunks often come together."""
        depth = 3 * ctx.tuning.seeds.per_list
        found = [VectorList("lexical", "chunks", depth, "sparse", ctx.scope, ctx.embedded)]
        # the embed stage embeds the conduct when `conduct_seeds` is on
        if "penalty" in ctx.intents and ctx.conduct_embedding is not None:
            found.append(
                VectorList("conduct", "chunks", depth, "dense", ctx.scope, ctx.conduct_embedding)
            )
        return found

    def split(self, ctx: SearchContext) -> list[VectorList]:
        """For `explain`: the chunks' dense and lexical lists apart (the hybrid list fuses
        them inside the vector store)."""
        depth = vectors.flat_depth(ctx) * 2
        return [
            VectorList(name, "chunks", depth, mode, ctx.scope, ctx.embedded)
            for name, mode in (("dense", "dense"), ("lexical", "sparse"))
        ]


class Fuse(Stage):
    """One score per graph key from the lists (reciprocal-rank fusion), and node kinds."""

    name = "fuse"
    metric = "vector_search"

    def __init__(self, *, deep: bool = False) -> None:
        self.deep = deep

    def run(self, ctx: SearchContext) -> None:
        fuse_lists(ctx, deep=self.deep)


def conduct_text(search_text: str) -> str:
    """A penalty question's search text without its penalty words: the conduct it
    describes. Those words pull penal sections up every list. The walk reaches a duty's
    penalty in one hop, but not the one duty of the forty a penalty punishes (GDPR Art. 83):
    the duty has to be a seed, and it is what the conduct means (docs/quality.md, "a penalty
    question's conduct as a seed list"). A question with no penalty words (the intent model
    alone read it as one) is its own conduct."""
    conduct = without_intent_words(search_text, "penalty")
    return search_text if conduct == " ".join(search_text.split()) else conduct


def fuse_lists(ctx: SearchContext, *, deep: bool) -> None:
    """Scores, kinds and candidates from the lists in `ctx.hits` (and `ctx.deep_hits`)."""
    ctx.kinds = vectors.hit_kinds(ctx.deep_hits)
    ctx.vector_scores = vectors.fuse(ctx.hits, ctx.tuning.fusion)
    # the flat modes fetch no deeper list
    ctx.deep_scores = vectors.fuse(ctx.deep_hits, ctx.tuning.fusion) if deep else ctx.vector_scores
    ranks = vectors.list_ranks(ctx.hits)
    ctx.candidates = {}
    for key, score in ctx.vector_scores.items():
        candidate = Candidate(key, ctx.kinds.get(key, "section"), vector=score)
        candidate.lists = ranks.get(key, {})
        candidate.sources.update(candidate.lists)
        ctx.candidates[key] = candidate


class LawFocus(Stage):
    """Each hit weighs by its law: by the law's probability when laws were routed
    (`routing`), else by how much of the vector evidence its law holds; a law the
    question names weighs fully (`laws.law_focus`)."""

    name = "law_focus"
    metric = "vector_search"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        floor = ctx.tuning.law_focus.floor
        if ctx.routes:
            ctx.focus = laws.routed_focus(
                {route.law: route.probability for route in ctx.routes}, ctx.singled_out, floor=floor
            )
        else:
            ctx.focus = laws.law_focus(ctx.deep_scores, ctx.singled_out, floor=floor)
        for key, candidate in ctx.candidates.items():
            candidate.law_focus = ctx.focus[laws.law_of(key)]
            if candidate.law_focus != 1.0:
                candidate.note(f"law_focus x{candidate.law_focus:.3f}")
