"""The walk: ONE query from the seeds (`cypher/queries/retrieval_walk.cypher`), at most two
hops, both directions, typed relationships, published nodes only; the query returns the
relationships of the paths it found and `rebuild_paths` gives back the paths, with the
same rules. `rebuild_paths` is the only walk besides the Cypher: the unit tests' fake graph
store runs it too.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence

from ingest.graph import RelType
from ingest.ids import KEY_TAGS
from services.core.ports import GraphStore
from services.core.retrieval.context import SearchContext
from services.core.retrieval.models import MAX_HOPS, Seed, Step, WalkPath
from services.core.retrieval.stage import Stage

WALK_TYPES = (
    RelType.REFERENCES, RelType.PENALIZES, RelType.PRESCRIBES, RelType.DEFINES,
    RelType.USES_TERM, RelType.GRANTS_EXEMPTION, RelType.EXEMPTS_FROM, RelType.CITES_EXTERNAL,
)  # fmt: skip
# What an anchor's one hop follows (the last branch of the walk query).
ANCHOR_TYPES = frozenset(WALK_TYPES) - {RelType.USES_TERM, RelType.CITES_EXTERNAL}

Edge = tuple[str, str, str]  # (type, start key, end key)


class Walk(Stage):
    name = "walk"
    metric = "graph_walk"

    def run(self, ctx: SearchContext) -> None:
        if ctx.seeds and ctx.query.max_hops > 0:
            ctx.paths, ctx.applied_penalties = walk(
                ctx.graph,
                ctx.seeds,
                ctx.published,
                ctx.query.max_hops,
                limit=ctx.tuning.walk.row_limit,
            )
        ctx.roles = roles(path.steps for path in ctx.paths)


def walk(
    graph: GraphStore,
    seeds: Sequence[Seed],
    published: list[str],
    max_hops: int,
    *,
    limit: int = 2000,
) -> tuple[list[WalkPath], set[tuple[str, str]]]:
    """Run the walk query: seeds up to `max_hops`, anchors one hop. It returns the
    relationships of the paths it found; the paths are rebuilt from them here. And the
    (penal section, duty) of its PENALIZES edges whose duty is punished only as applied."""
    rows = graph.run_read(
        "retrieval_walk",
        seeds=[seed.key for seed in seeds if not seed.anchor],
        anchors=[seed.key for seed in seeds if seed.anchor],
        published=published,
        max_hops=max_hops,
        limit=limit,
    )
    edges = {(str(t), str(a), str(b)) for row in rows for t, a, b in row.get("edges") or []}
    applied = {(str(a), str(b)) for row in rows for a, b in row.get("applied") or []}
    return rebuild_paths(seeds, edges, max_hops), applied


def rebuild_paths(seeds: Sequence[Seed], edges: Collection[Edge], max_hops: int) -> list[WalkPath]:
    """Every path from the seeds over `edges` that the walk query's rules allow: at most
    `max_hops` (an anchor: one, over `ANCHOR_TYPES`), a Definition crossed only towards
    the section that defines it, no USES_TERM on hop 2, each node once. Given the edges of
    the paths the query found, this gives back the same paths. Paths through the same
    first edge share its Step."""
    around: dict[str, list[Edge]] = defaultdict(list)
    for edge in sorted(edges):
        around[edge[1]].append(edge)
        if edge[2] != edge[1]:
            around[edge[2]].append(edge)

    def step(hop: int, edge: Edge, here: str) -> Step:
        """The step from `here` along `edge`, to its other end (keys stand in for labels)."""
        rel_type, start, end = edge
        there = end if start == here else start
        return Step(hop, rel_type, "out" if start == here else "in", there, there)

    paths: list[WalkPath] = []
    for seed in seeds:
        origin = Step(0, "", "out", seed.key, seed.key)
        for first in around.get(seed.key, ()):
            if seed.anchor and first[0] not in ANCHOR_TYPES:
                continue
            one = step(1, first, seed.key)
            if one.key == seed.key:
                continue
            middle_kind = kind_of_key(one.key)
            paths.append(WalkPath((origin, one), middle_kind))
            if seed.anchor or max_hops < MAX_HOPS:
                continue
            crossing = middle_kind == "definition"
            for second in around.get(one.key, ()):
                if second == first or second[0] == RelType.USES_TERM:
                    continue
                if crossing and second[0] != RelType.DEFINES:
                    continue
                two = step(2, second, one.key)
                if two.key not in (seed.key, one.key):
                    paths.append(WalkPath((origin, one, two), kind_of_key(two.key)))
    return paths


def roles(paths: Iterable[tuple[Step, ...]]) -> dict[str, set[str]]:
    """node key -> the relationship types it starts, as far as the walk saw them. The walk
    shows a node's outgoing edges on the paths that pass through it, so a section reached
    by a plain citation (PDPA s.79 cites s.26, and penalises s.27) is still known as penal."""
    found: dict[str, set[str]] = defaultdict(set)
    for steps in paths:
        for previous, step in itertools.pairwise(steps):
            start = previous.key if step.direction == "out" else step.key
            found[start].add(step.type)
    return found


def kind_of_key(key: str) -> str:
    """A node's kind from its key's tag (`ingest.ids.KEY_TAGS`): the walk returns keys only,
    which is cheaper than labels."""
    parts = key.split(":", 2)
    return KEY_TAGS.get(parts[1], "node") if len(parts) > 2 else "node"


# What a node does when it answers an intent: a penalty section starts PENALIZES or
# PRESCRIBES edges, a Penalty node is one; likewise for exemptions and definitions.
INTENT_ROLES: dict[str, frozenset[str]] = {
    "penalty": frozenset({RelType.PENALIZES, RelType.PRESCRIBES}),
    "exception": frozenset({RelType.GRANTS_EXEMPTION, RelType.EXEMPTS_FROM}),
    "definition": frozenset({RelType.DEFINES}),
}
INTENT_KINDS = {"penalty": "penalty", "exception": "exemption", "definition": "definition"}
