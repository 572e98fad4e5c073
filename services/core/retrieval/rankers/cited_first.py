"""A section the question names by number comes first, when its law is certain."""

from __future__ import annotations

from services.core.retrieval.context import SearchContext
from services.core.retrieval.stage import Stage


class CitedFirst(Stage):
    """NitiBench-Tax: 24 of 50 questions cite sections, and every one of the 38 sections
    they cite is a gold label."""

    name = "cited_first"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        for seed in ctx.seeds:
            if seed.source == "citation" and seed.certain:
                candidate = ctx.candidates[seed.key]
                candidate.pinned = True
                candidate.note(f"cited_first: the question names {seed.label}")
