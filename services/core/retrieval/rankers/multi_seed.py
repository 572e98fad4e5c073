"""A node several seeds lead to is central."""

from __future__ import annotations

from services.core.retrieval.context import SearchContext
from services.core.retrieval.stage import Stage


class MultiSeed(Stage):
    """A bonus of `share` x the best paths to it from up to `others` further seeds."""

    name = "multi_seed"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        tuning = ctx.tuning.multi_seed
        for candidate in ctx.candidates.values():
            if len(candidate.best_per_seed) > 1:
                others = sorted(candidate.best_per_seed.values(), reverse=True)[1:]
                candidate.bonus = tuning.share * sum(others[: tuning.others])
                candidate.note(
                    f"multi_seed +{candidate.bonus:.3f} ({len(candidate.best_per_seed)} seeds)"
                )
