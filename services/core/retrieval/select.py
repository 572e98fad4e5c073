"""Order the candidates by their combined score, and choose what makes the answer."""

from __future__ import annotations

from services.core.retrieval.context import SearchContext
from services.core.retrieval.models import Candidate
from services.core.retrieval.stage import Stage
from services.core.retrieval.vectors import HIERARCHY_KINDS


class Rank(Stage):
    """Every candidate by `Candidate.score`, pinned ones (`cited_first`) first."""

    name = "rank"

    def run(self, ctx: SearchContext) -> None:
        ctx.ranked = sorted(ctx.candidates.values(), key=lambda c: (not c.pinned, -c.score, c.key))


class Select(Stage):
    """The top `top_k` sections and up to `max_expanded` other nodes; of what only the
    walk found, at most `max_expanded` nodes in all (the seed article's context cap).
    Laws get no reserved places: a rival law's sections are in when they rank there (its
    seeds and list hits; docs/quality.md, "a rival law's reserved places")."""

    name = "select"

    def run(self, ctx: SearchContext) -> None:
        cap = ctx.tuning.select.max_expanded
        budget = cap
        sections: list[Candidate] = []
        others: list[Candidate] = []
        for candidate in ctx.ranked:
            graph_only = candidate.sources == {"graph"}
            if graph_only and budget <= 0:
                continue
            if candidate.kind == "section":
                if len(sections) >= ctx.query.top_k:
                    continue
                sections.append(candidate)
            else:
                if len(others) >= cap or candidate.kind in HIERARCHY_KINDS:
                    continue
                others.append(candidate)
            if graph_only:
                budget -= 1
        ctx.chosen = sections + others
