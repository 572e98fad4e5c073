"""The head of the ranking reordered, law by law, by the English model's relevance.

The English model (`english_model.py`) ranks an English question against the English laws'
paragraphs better than any other list (the GDPR's three sets: 115 of the 230 needed articles
in its first 5, the fused chunks list 94), but in the fused ranking its list is one vote
among five, and the head of the ranking is mostly seeds whose places come from list ranks.
So the first `head` sections are reordered: each section of an English-language law gains
`weight` x its place in the English list (1 at its first rank, 0 from rank `ranks`).

Each law keeps the places it held: its sections are reordered among those places only. The
model reads only English laws, so a gain for them alone would push an English question's
answer from the Thai PDPA, whose text it cannot read, to the GDPR (docs/quality.md, "the
English model as a reranker").
"""

from __future__ import annotations

from collections import defaultdict

from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import law_of
from services.core.retrieval.models import Candidate
from services.core.retrieval.stage import Stage
from services.core.retrieval.vectors import list_ranks


class EnglishRerank(Stage):
    name = "english_rerank"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        english = ctx.deep_hits.get("english")
        if not english:
            return
        tuning = ctx.tuning.english_rerank
        ranks = {key: found["english"] for key, found in list_ranks({"english": english}).items()}

        def relevance(candidate: Candidate) -> float:
            """1 at the English list's first rank, 0 from `ranks` or outside it (a
            section of a law in another language)."""
            rank = ranks.get(candidate.key, tuning.ranks)
            return max(0.0, 1.0 - rank / tuning.ranks)

        head = [
            i
            for i, candidate in enumerate(ctx.ranked)
            if candidate.kind == "section" and not candidate.pinned
        ][: tuning.head]
        places: dict[str, list[int]] = defaultdict(list)
        for i in head:
            places[law_of(ctx.ranked[i].key)].append(i)
        ranked = list(ctx.ranked)
        for law_places in places.values():
            sections = [ctx.ranked[i] for i in law_places]
            by_relevance = sorted(sections, key=lambda c: -(c.score + tuning.weight * relevance(c)))
            for i, before, after in zip(law_places, sections, by_relevance, strict=True):
                if after is not before:
                    after.note(f"english_rerank: relevance {relevance(after):.2f}")
                ranked[i] = after
        ctx.ranked = ranked
