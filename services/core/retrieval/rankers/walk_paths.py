"""A node the walk reached scores by its best path from a seed."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from services.core.retrieval.context import SearchContext
from services.core.retrieval.models import Candidate, Step
from services.core.retrieval.stage import Stage
from services.core.retrieval.walk import INTENT_KINDS, INTENT_ROLES
from services.core.settings import WalkTuning

# (seed key, parent key, steps, score, kind)
_Walked = tuple[str, str, tuple[Step, ...], float, str]


class WalkPaths(Stage):
    """A path scores the seed's weight x a weight per hop x an intent boost when the node
    it ends at plays the part the question asks for. A plain neighbour counts half
    (`WalkTuning.context_scale`): it adds context around what the vectors found rather than
    the answer itself; a section the question cites by number is what it asks about,
    neighbours included. At most `hub_fanout_cap` children per (seed, parent, hop)."""

    name = "walk_paths"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        tuning = ctx.tuning.walk
        seed_by_key = {s.key: s for s in ctx.seeds}
        walked: list[_Walked] = []
        for path in ctx.paths:
            steps, kind = path.steps, path.kind
            start = seed_by_key.get(steps[0].key)
            if start is None or start.anchor:
                continue  # an anchor's edges only name companions, they score nothing
            scale = 1.0 if start.source == "citation" else tuning.context_scale
            score = start.score * scale
            score *= path_weight(
                steps, ctx.intents, kind, ctx.roles.get(steps[-1].key, set()), tuning
            )
            walked.append((steps[0].key, steps[-2].key, steps, score, kind))

        for origin, _, steps, score, kind in cap_fanout(walked, tuning.hub_fanout_cap):
            key = steps[-1].key
            candidate = ctx.candidates.setdefault(key, Candidate(key, kind))
            candidate.kind = kind
            candidate.sources.add("graph")
            if score > candidate.best_per_seed.get(origin, -1.0):
                candidate.best_per_seed[origin] = score
            if score > candidate.walk:
                candidate.walk, candidate.steps = score, steps
        for candidate in ctx.candidates.values():
            if candidate.steps and not candidate.seed_source:
                candidate.note(f"walk: {candidate.walk:.3f} over {len(candidate.steps) - 1} hops")


def path_weight(
    steps: Sequence[Step], intents: Sequence[str], kind: str, roles: set[str], tuning: WalkTuning
) -> float:
    """Product of the hop weights, lifted when the node it ends at plays the part the
    question asks for: `intent_boost` when the last edge itself says so (s.84
    -PENALIZES-> s.26, a section -PRESCRIBES-> a Penalty), `role_boost` when only its other
    edges do (s.79 cites s.26 and penalises s.27). Squashed (tanh) under a per-hop ceiling:
    below the seed, a second hop below a first, order kept."""
    weight = 1.0
    for step in steps[1:]:
        weight *= tuning.type_weights.get(step.type, tuning.other_type_weight) * tuning.hop_decay
    last = steps[-1]
    boost = 1.0
    for intent in intents:
        types = INTENT_ROLES[intent]
        plays = INTENT_KINDS[intent] == kind
        if last.type in types and (last.direction == "in" or plays):
            boost = max(boost, tuning.intent_boost)
        elif roles & types or plays:
            boost = max(boost, tuning.role_boost)
    ceiling = tuning.max_weight_hop1 if len(steps) - 1 == 1 else tuning.max_weight_hop2
    return ceiling * math.tanh(weight * boost / ceiling)


def cap_fanout(walked: list[_Walked], cap: int) -> list[_Walked]:
    """Keep at most `cap` children per (seed, parent, hop), the best first."""
    groups: dict[tuple[str, str, int], list[_Walked]] = defaultdict(list)
    for entry in walked:
        groups[(entry[0], entry[1], len(entry[2]))].append(entry)
    kept = []
    for group in groups.values():
        group.sort(key=lambda e: (-e[3], e[2][-1].key))
        kept.extend(group[:cap])
    return kept
