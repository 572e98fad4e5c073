"""Why graph mode misses the questions it misses, question by question, on one stack: for
each question whose answer lacks a must section, where each must section stood (in the
answer, in the full ranking before the answer was cut, in each vector list) and the laws
routing chose, and each miss put down to one cause (with many laws loaded, the summary also
counts the questions by where routing put their law, and how many of each were answered):

- "routed away": the answer holds no section of the question's law (many laws loaded);
- "in no list": a missing section is in no vector list: the question's words and meaning
  do not find it, whether or not the walk reaches it (its place in the ranking says);
- "ranked out": every missing section is in some vector list, ranked below the answer.

    python bench/bench_misses.py tests/fixtures/eval/gdpr_probe.jsonl \\
        --corpus gdpr --data-dir DIR --skip-load [--part tune] [--json]

How the misses were read before each retrieval change (docs/quality.md: "where the misses
sit"); by default only the tuning parts, which changes are chosen on. NitiBench questions
count as missed when a gold section is missing (Multi-HR).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import add_stack_arguments, open_loaded_stack  # noqa: E402
from ingest.ids import node_key  # noqa: E402
from services.core.evaluation import (  # noqa: E402
    PARTS,
    load_gold,
    section_ref,
    settings_to_score,
    split_of,
)
from services.core.retrieval import vectors  # noqa: E402
from services.core.retrieval.context import SearchContext  # noqa: E402
from services.core.retrieval.laws import law_of  # noqa: E402
from services.core.retrieval.pipeline import pipeline_for, validate_query  # noqa: E402

CAUSES = ("routed away", "in no list", "ranked out")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    golds = [load_gold(path) for path in args.gold]
    rows: list[dict[str, Any]] = []
    with open_loaded_stack(args) as stack:
        deps = stack.deps()
        for gold in golds:
            for question in gold.questions:
                part = split_of(question.id)
                if args.part != "all" and part != args.part:
                    continue
                must = [node_key(law, "s", number) for law, number in question.must]
                row = placed(run_graph(question.question, deps, args.k), must, args.k)
                rows.append({"set": Path(gold.path).stem, "id": question.id, "part": part} | row)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print(report(rows))
    return 0


def run_graph(question: str, deps: Mapping[str, Any], k: int) -> SearchContext:
    """The graph pipeline as `services.core.retrieval.search` runs it, its context kept."""
    settings = settings_to_score(deps["settings"], question)
    query = validate_query(question, settings, top_k=k, mode="graph")
    ctx = SearchContext(query, deps["graph"], deps["vectors"], deps["embedder"], settings)
    pipeline_for("graph").run(ctx)
    return ctx


def placed(ctx: SearchContext, must: Sequence[str], k: int) -> dict[str, Any]:
    """Where each must section stood: its place in the answer and in the ranking (1-based,
    None when absent) and its rank in each vector list (1-based); the routes and the cause."""
    answer = [node_key(law, "s", number) for law, number in map(section_ref, ctx.sections)][:k]
    ranking = [c.key for c in ctx.ranked if c.kind == "section"]
    lists = vectors.list_ranks(ctx.deep_hits)
    sections = {
        key: {
            "answer": answer.index(key) + 1 if key in answer else None,
            "ranking": ranking.index(key) + 1 if key in ranking else None,
            "lists": {name: rank + 1 for name, rank in lists.get(key, {}).items()},
        }
        for key in must
    }
    return {
        "answered": all(s["answer"] for s in sections.values()),
        "cause": cause(sections, answer),
        "sections": sections,
        "routes": [(r.law, round(r.probability, 3)) for r in ctx.routes[:3]],
        "law_rank": law_rank(ctx, {law_of(key) for key in must}),
    }


def law_rank(ctx: SearchContext, laws: set[str]) -> int | None:
    """Where routing put the question's law (the best of its laws), 1-based; 0 when it was
    no candidate; None when nothing was routed (one law loaded)."""
    if not ctx.routes:
        return None
    ranks = [i for i, route in enumerate(ctx.routes, 1) if route.law in laws]
    return min(ranks, default=0)


def cause(sections: Mapping[str, Mapping[str, Any]], answer: Sequence[str]) -> str | None:
    """Why the answer lacks a must section (CAUSES), or None when it lacks none."""
    missing = {key: s for key, s in sections.items() if not s["answer"]}
    if not missing:
        return None
    laws = {law_of(key) for key in sections}
    if not any(law_of(key) in laws for key in answer):
        return "routed away"
    if any(not s["lists"] for s in missing.values()):
        return "in no list"
    return "ranked out"


def report(rows: Sequence[Mapping[str, Any]]) -> str:
    lines = []
    for row in rows:
        if row["answered"]:
            continue
        lines.append(f"{row['set']}|{row['id']} [{row['part']}] {row['cause']}")
        for key, s in row["sections"].items():
            lists = ", ".join(f"{name} {rank}" for name, rank in s["lists"].items()) or "-"
            lines.append(
                f"    {key}: answer {s['answer'] or '-'}, ranking {s['ranking'] or '-'}, "
                f"lists: {lists}"
            )
        if len(row["routes"]) > 1:
            lines.append("    routes: " + ", ".join(f"{law} {p}" for law, p in row["routes"]))
    for part in PARTS:
        of_part = [row for row in rows if row["part"] == part]
        if not of_part:
            continue
        causes = Counter(row["cause"] for row in of_part if not row["answered"])
        answered = sum(row["answered"] for row in of_part)
        lines.append(
            f"{part}: {answered} of {len(of_part)} answered; missed: "
            + ", ".join(f"{name} {causes[name]}" for name in CAUSES)
        )
        routed = [row for row in of_part if row["law_rank"] is not None]
        if routed:
            lines.append(f"{part}, by where routing put the question's law: " + by_rank(routed))
    return "\n".join(lines)


ROUTING_PLACES = ("first", "second", "lower", "not a candidate")


def by_rank(rows: Sequence[Mapping[str, Any]]) -> str:
    """Questions, and how many were answered, by where routing put their law."""

    def place(rank: int) -> str:
        return {0: "not a candidate", 1: "first", 2: "second"}.get(rank, "lower")

    questions = Counter(place(row["law_rank"]) for row in rows)
    answered = Counter(place(row["law_rank"]) for row in rows if row["answered"])
    return ", ".join(
        f"{name} {questions[name]} ({answered[name]} answered)" for name in ROUTING_PLACES
    )


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_stack_arguments(p)
    p.add_argument("--part", default="tune", choices=[*PARTS, "all"])
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--json", action="store_true", help="every question, as JSON")
    return p


if __name__ == "__main__":
    raise SystemExit(main())
