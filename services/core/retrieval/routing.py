"""Law routing: which of the laws searched a question is about, with a probability each.

With many laws loaded the seeds land in whatever statute shares the question's words (a
Thai question on employee data drifts to the Civil and Commercial Code, an English one to
the GDPR when it asked about the Thai PDPA). Each law the lists found is described by its
share of the fused vector evidence, by whether the question names it, and by whether it
names the law's jurisdiction ("a Bangkok clinic", "fined in baht": `analysis.named_places`);
a conditional logit over the laws turns that into probabilities. Its weights are learned
(`bench/train_router.py`) on questions whose law is known, over many laws, and ship in
`data/routing/law_router.json`. More features were tried (where a law's sections ranked in
each list, the question's own words searched dense and lexically apart, its script): they
fitted the training laws and routed held-out laws worse (docs/quality.md, "Law routing").

The laws that together hold `chosen_mass` of the probability (at most `max_laws`) are the
chosen ones. When they are fewer than the laws searched they get a list of their own
("routed"); every hit weighs by its law's probability (`LawFocus`); and the answer gives
each chosen law its share of the sections (`select.Select`): a question that could be about
two statutes gets the best of each, not ten sections of the likelier one.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from services.core.retrieval import vectors
from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import law_of
from services.core.retrieval.stage import Stage
from services.core.retrieval.stages import fuse_lists
from services.core.retrieval.vectors import VectorList
from services.core.settings import REPO_ROOT

ROUTER_FILE = REPO_ROOT / "data" / "routing" / "law_router.json"
# Lists that search the laws of one language only (the English model's, English laws): a
# vote no law in another language can answer. Routing weighs laws against each other, so it
# reads the lists that search every law alike (docs/quality.md, "routing without the English
# list").
ONE_LANGUAGE_LISTS = frozenset({"english"})
FEATURES = (
    "mass",  # the law's share of the fused vector evidence, over the best law's
    "named",  # the question names it
    "place",  # the question names its jurisdiction ("a Bangkok clinic", "EU customers")
)


@dataclass(frozen=True)
class LawRoute:
    law: str
    probability: float
    chosen: bool
    named: bool
    features: dict[str, float]


class RouteLaws(Stage):
    name = "route_laws"
    metric = "vector_search"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        if len(ctx.visible) < 2:
            return
        router = law_router(ROUTER_FILE)
        features = law_features(route_evidence(ctx))
        probabilities = router.probabilities(features)
        chosen = choose(probabilities, ctx.tuning.routing.chosen_mass, ctx.tuning.routing.max_laws)
        ctx.routes = [
            LawRoute(law, p, law in chosen, law in ctx.named, features[law])
            for law, p in sorted(probabilities.items(), key=lambda item: (-item[1], item[0]))
        ]
        if len(chosen) < len(ctx.visible):
            ctx.routed = chosen
            self.search_routed(ctx, chosen)

    @staticmethod
    def search_routed(ctx: SearchContext, chosen: list[str]) -> None:
        """The chosen laws' own chunk list, fused with the others."""
        depth = vectors.flat_depth(ctx) * 2
        routed = VectorList("routed", "chunks", depth, "hybrid", chosen, ctx.embedded)
        found = vectors.run_lists(ctx, [routed])
        ctx.deep_hits |= found
        ctx.hits |= {name: hits[: vectors.flat_depth(ctx)] for name, hits in found.items()}
        fuse_lists(ctx, deep=True)


def route_evidence(ctx: SearchContext) -> dict[str, Any]:
    """What routing reads, as plain data: each law's fused evidence (of the deep lists but
    `ONE_LANGUAGE_LISTS`), the named laws and the laws searched (`bench/train_router.py`
    keeps it to fit the weights)."""
    lists = {name: hits for name, hits in ctx.deep_hits.items() if name not in ONE_LANGUAGE_LISTS}
    if len(lists) < len(ctx.deep_hits):
        scores = vectors.fuse(lists, ctx.tuning.fusion)
    else:  # the fused deep lists as they are
        scores = ctx.deep_scores
    mass: dict[str, float] = defaultdict(float)
    for key, score in scores.items():
        mass[law_of(key)] += score
    placed = set(ctx.placed)
    return {
        "mass": dict(mass),
        "named": list(ctx.named),
        "placed": sorted(law for law in {*mass, *ctx.named} if law in placed),
        "visible": [law.id for law in ctx.visible],
    }


def law_features(evidence: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """law -> FEATURES, for every visible law the lists found or the question names."""
    mass: Mapping[str, float] = evidence["mass"]
    named = set(evidence["named"])
    placed = set(evidence.get("placed", ()))
    most = max(mass.values(), default=0.0) or 1.0
    visible = set(evidence["visible"])
    return {
        law: {
            "mass": mass.get(law, 0.0) / most,
            "named": 1.0 if law in named else 0.0,
            "place": 1.0 if law in placed else 0.0,
        }
        for law in {*mass, *named}
        if law in visible
    }


def choose(probabilities: Mapping[str, float], mass: float, max_laws: int) -> list[str]:
    """The most probable laws until they hold `mass` of the probability, at most `max_laws`."""
    chosen: list[str] = []
    held = 0.0
    for law, p in sorted(probabilities.items(), key=lambda item: (-item[1], item[0])):
        if held >= mass or len(chosen) >= max_laws:
            break
        chosen.append(law)
        held += p
    return chosen


class LawRouter:
    """A conditional logit over the candidate laws: p(law) = softmax(weights . features)."""

    def __init__(self, weights: Mapping[str, float], *, about: Mapping[str, Any] | None = None):
        unknown = set(weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"law router: unknown features {sorted(unknown)}")
        self.weights = {name: float(weights.get(name, 0.0)) for name in FEATURES}
        self.about = dict(about or {})

    def probabilities(self, features: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
        scores = {law: self.score(f) for law, f in features.items()}
        if not scores:
            return {}
        top = max(scores.values())
        exp = {law: math.exp(s - top) for law, s in scores.items()}
        total = sum(exp.values())
        return {law: e / total for law, e in exp.items()}

    def score(self, features: Mapping[str, float]) -> float:
        return sum(self.weights[name] * features.get(name, 0.0) for name in FEATURES)


@lru_cache(maxsize=4)
def law_router(path: Path) -> LawRouter:
    data = json.loads(path.read_text(encoding="utf-8"))
    return LawRouter(data["weights"], about={k: v for k, v in data.items() if k != "weights"})


def routes_out(routes: Sequence[LawRoute]) -> list[dict[str, Any]]:
    """What the response says of routing: each law's probability, whether it was chosen,
    and the features that gave it."""
    return [
        {
            "law": route.law,
            "probability": round(route.probability, 4),
            "chosen": route.chosen,
            "named": route.named,
            "features": {k: round(v, 4) for k, v in route.features.items() if v},
        }
        for route in routes
    ]
