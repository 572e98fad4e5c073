"""Order the candidates by their combined score, and choose what makes the answer."""

from __future__ import annotations

from collections import defaultdict

from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import law_of
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
    When laws were routed, each chosen law nearly as probable as the first keeps at least
    `min_sections` of its best sections in the answer (`guarantee`): a question that could
    be about two statutes gets the best of each, not ten sections of the likelier one."""

    name = "select"

    def run(self, ctx: SearchContext) -> None:
        cap = ctx.tuning.select.max_expanded
        budget = cap
        sections: list[Candidate] = []
        spare: list[Candidate] = []  # sections below the top_k, for the guarantee
        others: list[Candidate] = []
        for candidate in ctx.ranked:
            graph_only = candidate.sources == {"graph"}
            if graph_only and budget <= 0:
                continue
            if candidate.kind == "section":
                if len(sections) >= ctx.query.top_k:
                    spare.append(candidate)
                    continue
                sections.append(candidate)
            else:
                if len(others) >= cap or candidate.kind in HIERARCHY_KINDS:
                    continue
                others.append(candidate)
            if graph_only:
                budget -= 1
        if ctx.routed:
            tuning = ctx.tuning.routing
            top = max(route.probability for route in ctx.routes)
            rivals = [
                route.law
                for route in ctx.routes
                if route.chosen and route.probability >= tuning.rival_share * top
            ]
            sections = guarantee(sections, spare, rivals, tuning.min_sections)
        ctx.chosen = sections + others


def last_in_answer(ranked: list[Candidate], candidate: Candidate, top_k: int) -> list[Candidate]:
    """`ranked` with `candidate` as the answer's last section (the `top_k`-th), or after
    every section when there are fewer: a section a step adds to end the answer."""
    rest = [c for c in ranked if c.key != candidate.key]
    sections = [c for c in rest if c.kind == "section"]
    if len(sections) < top_k:
        return [*rest, candidate]
    at = rest.index(sections[top_k - 1])
    return [*rest[:at], candidate, *rest[at:]]


def guarantee(
    sections: list[Candidate], spare: list[Candidate], laws: list[str], least: int
) -> list[Candidate]:
    """`sections` where each of `laws` holds at least `least` sections when `spare` has
    them: a missing one takes the place of the lowest-ranked section of a law that holds
    more than its own guarantee. Rank order is kept."""
    order = {c.key: i for i, c in enumerate([*sections, *spare])}
    kept = list(sections)
    for law in laws:
        count = sum(1 for c in kept if law_of(c.key) == law)
        extra = [c for c in spare if law_of(c.key) == law and c not in kept]
        while count < least and extra:
            held: dict[str, int] = defaultdict(int)
            for c in kept:
                held[law_of(c.key)] += 1
            movable = [
                c for c in kept
                if law_of(c.key) != law
                and (law_of(c.key) not in laws or held[law_of(c.key)] > least)
            ]  # fmt: skip
            if not movable:
                break
            kept.remove(max(movable, key=lambda c: order[c.key]))
            kept.append(extra.pop(0))
            count += 1
    return sorted(kept, key=lambda c: order[c.key])
