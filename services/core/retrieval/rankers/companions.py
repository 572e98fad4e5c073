"""Companions: the sections a lawyer must read with a section for the question's intent,
read off the walk's paths (so they cost no query): who penalises it, or what it penalises
("what is the fine"); who grants an exemption from it ("unless"); who defines the terms it
uses ("what does X mean").

    companions -> companion_lift, companionless_seed (scores) -> ... -> completion (order)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, islice, pairwise

from ingest.graph import RelType
from services.core.retrieval.context import SearchContext
from services.core.retrieval.models import Candidate, Step
from services.core.retrieval.stage import Stage
from services.core.retrieval.walk import INTENT_ROLES

Links = dict[str, list[tuple[str, int, tuple[Step, ...]]]]


@dataclass(frozen=True)
class Pattern:
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
PATTERNS: dict[str, tuple[Pattern, ...]] = {
    "penalty": (
        Pattern(((RelType.PENALIZES, "in"),)),
        Pattern(((RelType.REFERENCES, "in"),), role=RelType.PENALIZES),
        Pattern(((RelType.PENALIZES, "out"),), needs_evidence=True),
    ),
    "exception": (Pattern(((RelType.EXEMPTS_FROM, "in"), (RelType.GRANTS_EXEMPTION, "in"))),),
    "definition": (Pattern(((RelType.USES_TERM, "out"), (RelType.DEFINES, "in"))),),
}


class Companions(Stage):
    """Find every section's companions on the walk's paths; a companion only an anchor's
    edge reached becomes a candidate."""

    name = "companions"

    def run(self, ctx: SearchContext) -> None:
        ctx.companions = find_companions(
            [path.steps for path in ctx.paths],
            ctx.intents,
            ctx.roles,
            ctx.deep_scores,
            ctx.applied_penalties,
        )
        kinds_seen = {path.steps[-1].key: path.kind for path in ctx.paths}
        for links in ctx.companions.values():
            for key, _, _ in links:
                if key not in ctx.candidates:  # reached from an anchor only
                    ctx.candidates[key] = Candidate(
                        key, kinds_seen.get(key, "section"), sources={"graph"}
                    )


class CompanionLift(Stage):
    """A section that has what the question asks about (a penalty, an exemption, a
    definition) is likelier the one it describes than a neighbour without one."""

    name = "companion_lift"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        lift = ctx.tuning.companions.lift
        for key in ctx.companions:
            candidate = ctx.candidates.get(key)
            if candidate is not None and candidate.kind == "section":
                candidate.companion, candidate.lift = 1, lift
                candidate.note(f"companion_lift x{lift} ({len(ctx.companions[key])} companions)")


class CompanionlessSeed(Stage):
    """And a section the walk started from that has none, and does not play the part
    itself (a penalty section, a section granting exemptions), is likelier not: ranks 1-3
    of a penalty question are often duties nothing punishes (civil liability, data
    accuracy), ahead of the duty asked about and its penalty."""

    name = "companionless_seed"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        wanted = frozenset().union(*(INTENT_ROLES[intent] for intent in ctx.intents))
        if not wanted:
            return
        lift = ctx.tuning.companions.lift
        for seed in ctx.seeds:
            candidate = ctx.candidates[seed.key]
            if (
                not seed.anchor
                and candidate.kind == "section"
                and seed.key not in ctx.companions
                and not ctx.roles.get(seed.key, set()) & wanted
            ):
                candidate.companion, candidate.lift = -1, lift
                candidate.note(f"companionless_seed /{lift}")


class Completion(Stage):
    """Put each section's companions right after it, in rank order: the violated section
    and the section that punishes it are read together, so they are returned together,
    however far apart their own scores put them. A companion keeps its own place when it
    already ranks higher; at most `max_per_section` per section and `max_per_pattern` of
    each pattern (a section punished by four is followed by the best-scored of them). Its
    score comes from the section it follows: one hop's decay below it (its own evidence may
    be none, an anchor's edge)."""

    name = "completion"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        if not ctx.companions:
            return
        cap = ctx.tuning.companions.max_per_section
        per_pattern = ctx.tuning.companions.max_per_pattern
        decay = ctx.tuning.walk.hop_decay
        order: list[Candidate] = []
        placed: set[str] = set()
        for candidate in ctx.ranked:
            if candidate.key in placed:
                continue
            order.append(candidate)
            placed.add(candidate.key)
            if candidate.kind != "section" or not (candidate.evidence or candidate.seed_source):
                continue  # only what the question itself matched is completed, not neighbours
            links = [
                (strength, ctx.candidates[key], steps)
                for key, strength, steps in ctx.companions.get(candidate.key, ())
                if key in ctx.candidates and key not in placed
            ]
            links.sort(key=lambda link: (link[0], -link[1].score, link[1].key))  # direct first
            strongest = [
                link
                for _, of_pattern in groupby(links, key=lambda link: link[0])
                for link in islice(of_pattern, per_pattern)
            ]
            for _, companion, steps in strongest[:cap]:
                if not companion.seed_source and not companion.steps:
                    companion.steps = steps  # say which section it completes
                companion.follows = max(companion.follows, candidate.score * decay)
                companion.note(f"completion: follows {candidate.key} ({companion.follows:.3f})")
                order.append(companion)
                placed.add(companion.key)
        ctx.ranked = order


def find_companions(
    paths: Iterable[tuple[Step, ...]],
    intents: Sequence[str],
    roles: Mapping[str, set[str]],
    evidence: Collection[str],
    applied: Collection[tuple[str, str]] = (),
) -> Links:
    """section key -> its companions for the question's intents, each with its pattern's
    strength (0 strongest) and the path that links them. `evidence`: the keys the vector
    search found, for the patterns that need it. `applied`: (penal section, duty) of the
    PENALIZES edges that punish the duty only as another section applies it to someone
    else; over one, a pattern is a step weaker (PDPA s.39's records duty is completed by
    s.82, the controller's fine, before s.88, its representative's). Every edge of a path
    is an edge of the graph, and a pattern of two edges appears on a 2-hop path or as the
    two last steps of one."""
    wanted = [
        (strength, pattern)
        for intent in intents
        for strength, pattern in enumerate(PATTERNS.get(intent, ()))
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
                weight = strength + 1 if applied and _over_applied(window, applied) else strength
                best = found[anchor].get(companion)
                if best is None or (weight, len(window)) < (best[0], len(best[1])):
                    found[anchor][companion] = (
                        weight,
                        tuple(
                            Step(j, s.type, s.direction, s.key, s.label)
                            for j, s in enumerate(window)
                        ),
                    )
    return {
        anchor: [(key, strength, path) for key, (strength, path) in sorted(links.items())]
        for anchor, links in found.items()
    }


def _over_applied(window: Sequence[Step], applied: Collection[tuple[str, str]]) -> bool:
    """Whether a step of `window` crosses a PENALIZES edge of `applied`."""
    for before, step in pairwise(window):
        if step.type == RelType.PENALIZES:
            edge = (before.key, step.key) if step.direction == "out" else (step.key, before.key)
            if edge in applied:
                return True
    return False
