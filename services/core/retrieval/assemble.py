"""The answer: details of the chosen nodes (one graph read), labels, paths, excerpts, and,
with `explain`, what put each where it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ingest.ids import arabic_to_thai_digits
from services.core import telemetry
from services.core.profiles import node_kind
from services.core.retrieval.applicability import read_applicability
from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import law_of
from services.core.retrieval.models import Candidate, ContextItem, Step
from services.core.retrieval.stage import Stage


class Details(Stage):
    """All properties of the chosen nodes; the display name of the other nodes on their
    paths (texts of path nodes would double what travels for nothing)."""

    name = "details"

    def run(self, ctx: SearchContext) -> None:
        full = {c.key for c in ctx.chosen}
        keys = full | {step.key for c in ctx.chosen for step in c.steps}
        if not keys:
            return
        rows = ctx.graph.run_read(
            "retrieval_nodes", keys=sorted(keys), full=sorted(full), published=ctx.published
        )
        for row in rows:
            if not row.get("key"):
                continue
            node = dict(row.get("node") or {})
            node.setdefault("key", row["key"])
            if row.get("name") and not node.get("label"):
                node["label"] = row["name"]
            if row.get("number") and not node.get("number"):
                node["number"] = row["number"]
            ctx.details[str(row["key"])] = (list(row.get("labels") or []), node)


class Assemble(Stage):
    """Context items in rank order; the first `max_full_sections` sections keep their full
    text, the rest an excerpt (the full text is one GET /v1/laws/{law}/sections/{n} away)."""

    name = "assemble"

    def run(self, ctx: SearchContext) -> None:
        labels = {key: display_label(node) for key, (_, node) in ctx.details.items()}
        tuning = ctx.tuning.select
        for candidate in ctx.chosen:
            if candidate.key not in ctx.details:
                continue  # not (or no longer) in a published version of the graph
            node_labels, node = ctx.details[candidate.key]
            item = context_item(candidate, kind_of(node_labels), node, labels)
            if ctx.query.explain:
                item.explanation = explanation(candidate, ctx.explain_ranks.get(candidate.key))
            (ctx.sections if item.kind == "section" else ctx.nodes).append(item)
        ctx.sections = ctx.sections[: ctx.query.top_k]
        if any(law.disapplies for law in ctx.in_force.values()):
            keys = [item.key for item in ctx.sections]
            found = read_applicability(ctx.graph, keys, ctx.published)
            for item in ctx.sections:
                item.applicability = found.get(item.key, [])
        for item in ctx.sections[tuning.max_full_sections :]:
            if len(item.text) > tuning.excerpt_chars:
                item.text = item.text[: tuning.excerpt_chars].rstrip() + " …"
                item.full_text = False
        telemetry.record_expansion(
            seeds=len(ctx.seeds),
            expanded=sum(1 for i in [*ctx.sections, *ctx.nodes] if "graph" in i.sources),
        )


def context_item(
    candidate: Candidate, kind: str, node: Mapping[str, Any], labels: Mapping[str, str]
) -> ContextItem:
    label = labels.get(candidate.key) or candidate.key
    steps = tuple(
        Step(s.hop, s.type, s.direction, s.key, labels.get(s.key, s.key)) for s in candidate.steps
    )
    # A seed that another seed's walk also reached keeps that path: it says how two
    # sections the vectors found relate (s.26 <-[PENALIZES]- s.84).
    path = render_path(steps) if steps else label
    if candidate.seed_source:
        reached = f"[seed][{candidate.seed_source}] {label}"
    elif steps:
        reached = f"[hop{steps[-1].hop}][{steps[-1].type}] {label}"
    else:
        reached = f"[vector] {label}"
    return ContextItem(
        key=candidate.key,
        law=str(node.get("law") or law_of(candidate.key)),
        kind=kind,
        label=label,
        text=str(node.get("text") or node.get("definition") or ""),
        score=round(candidate.score, 6),
        hops=len(steps) - 1 if steps and not candidate.seed_source else 0,
        reached=reached,
        path=path,
        steps=steps[1:],
        seed=steps[0].key if steps else None,
        number=node.get("number"),
        title=node.get("title") or None,
        version=node.get("version"),
        sources=tuple(sorted(candidate.sources)),
    )


def explanation(candidate: Candidate, split_ranks: Mapping[str, int] | None) -> dict[str, Any]:
    """The score's components (`Candidate.score` combines them) and the steps that set
    them. Ranks are 0-based places in each vector list; "dense" and "lexical" are the
    chunk list's two halves searched apart."""
    return {
        "score": round(candidate.score, 6),
        "formula": "max(max(vector x law_focus, seed) x companion, walk, follows) + bonus",
        "components": {
            "vector": round(candidate.vector, 6),
            "law_focus": round(candidate.law_focus, 6),
            "seed": round(candidate.seed, 6),
            "companion": (
                candidate.lift
                if candidate.companion > 0
                else round(1 / candidate.lift, 6)
                if candidate.companion < 0
                else 1.0
            ),  # fmt: skip
            "evidence": round(candidate.evidence, 6),
            "walk": round(candidate.walk, 6),
            "follows": round(candidate.follows, 6),
            "bonus": round(candidate.bonus, 6),
            "pinned": candidate.pinned,
        },
        "ranks": {**candidate.lists, **(split_ranks or {})},
        "trace": list(candidate.trace),
    }


def render_path(steps: Sequence[Step]) -> str:
    """ "มาตรา ๒๖ <-[PENALIZES]- มาตรา ๘๔": arrows keep the edge's own direction."""
    parts = [steps[0].label]
    for step in steps[1:]:
        arrow = f"-[{step.type}]->" if step.direction == "out" else f"<-[{step.type}]-"
        parts.append(f"{arrow} {step.label}")
    return " ".join(parts)


def display_label(node: Mapping[str, Any]) -> str:
    for name in ("label", "term", "title", "name"):
        value = node.get(name)
        if isinstance(value, str) and value:
            return value
    number = node.get("number")
    if number:
        return f"มาตรา {arabic_to_thai_digits(str(number))}"
    return str(node.get("key", ""))


def kind_of(labels: Sequence[str]) -> str:
    return node_kind(labels[0] if labels else "Node")
