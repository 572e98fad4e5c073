"""Ablation: every optional retrieval step switched off in turn, on every gold set given,
on one stack (a corpus, or every corpus with --corpus all), tuning and check parts apart.

    python bench/bench_ablation.py tests/fixtures/eval/pdpa_dev.jsonl \\
        tests/fixtures/eval/pdpa_long.jsonl --corpus pdpa
    python bench/bench_ablation.py tests/fixtures/eval/pdpa_dev.jsonl \\
        tests/fixtures/eval/gdpr_dev.jsonl ../shared/eval/nitibench-tax/hf_tax.csv \\
        --corpus all --data-dir var/bench-all --skip-load

One row per step (graph mode without it), then graph mode whole and the best flat mode;
per gold set and part: all-must@K (JSONL) or Multi-HR@K / Recall@K (NitiBench), and the
change against graph mode whole. The last column says whether switching the step off
costs anything on any check part, i.e. whether the step helps on questions it was not
chosen on.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import add_stack_arguments, open_loaded_stack  # noqa: E402
from services.core.evaluation import (  # noqa: E402
    PARTS,
    GoldSet,
    evaluate,
    load_gold,
    search_retriever,
)
from services.core.settings import RETRIEVAL_STEPS, with_retrieval_changes  # noqa: E402

FLAT_MODES = ("bm25", "dense", "hybrid")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    golds = [load_gold(path) for path in args.gold]
    steps = list(RETRIEVAL_STEPS) if args.steps == "all" else args.steps.split(",")
    unknown = sorted(set(steps) - set(RETRIEVAL_STEPS))
    if unknown:
        print(f"unknown steps {unknown}; expected some of {', '.join(RETRIEVAL_STEPS)}")
        return 2
    with open_loaded_stack(args) as stack:
        base = stack.deps()

        def score(gold: GoldSet, mode: str, without: tuple[str, ...] = ()) -> dict[str, Any]:
            settings = with_retrieval_changes(base["settings"], disabled=without)
            depth = max(args.k, 10)
            retriever = search_retriever(mode, **(base | {"settings": settings}), top_k=depth)
            return evaluate(gold, retriever, k=args.k, mode=mode).summary

        runs: dict[str, dict[str, dict[str, Any]]] = {}
        for gold in golds:
            name = Path(gold.path).name
            runs[name] = {"graph": score(gold, "graph")}
            for mode in FLAT_MODES:
                runs[name][mode] = score(gold, mode)
            for step in steps:
                runs[name][f"-{step}"] = score(gold, "graph", (step,))
                print(f"{name}: without {step} done", file=sys.stderr)
    table = _table(golds, runs, steps, args.k)
    if args.json:
        print(json.dumps({"corpus": args.corpus, "k": args.k, "runs": runs}, indent=2))
    else:
        print(table)
    return 0


def _metrics(gold: GoldSet) -> tuple[str, ...]:
    return ("multi_hr", "recall") if gold.format == "nitibench" else ("all_must",)


def _part_value(summary: dict[str, Any], part: str, metric: str) -> float:
    return float(summary["by_part"].get(part, {}).get(metric, 0.0))


def _table(
    golds: list[GoldSet], runs: dict[str, dict[str, dict[str, Any]]], steps: list[str], k: int
) -> str:
    """One block per gold set: a row per step switched off, a column per part and metric,
    then whether the step helps on a check part (switching it off loses something there)."""
    blocks = []
    for gold in golds:
        name = Path(gold.path).name
        got = runs[name]
        columns = [(part, metric) for metric in _metrics(gold) for part in PARTS]
        n = {part: got["graph"]["by_part"].get(part, {}).get("n", 0) for part in PARTS}
        header = [name, *(f"{m}@{k} {p} (n={n[p]})" for p, m in columns), "helps on check"]
        rows = [
            [
                "graph, every step",
                *(f"{_part_value(got['graph'], p, m):.3f}" for p, m in columns),
                "",
            ]
        ]
        for step in steps:
            row, helps = [f"without {step}"], False
            for p, m in columns:
                value = _part_value(got[f"-{step}"], p, m)
                delta = value - _part_value(got["graph"], p, m)
                helps = helps or (p == "check" and delta < 0)
                row.append(f"{value:.3f} ({delta:+.3f})")
            rows.append([*row, "yes" if helps else "no"])
        best = ["best flat mode"]
        for p, m in columns:
            mode = max(FLAT_MODES, key=lambda fm: _part_value(got[fm], p, m))
            best.append(f"{_part_value(got[mode], p, m):.3f} {mode}")
        rows.append([*best, ""])
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        blocks.append(
            "\n".join(
                "  ".join(c.ljust(widths[i]) for i, c in enumerate(r)) for r in [header, *rows]
            )
        )
    return "\n\n".join(blocks)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_stack_arguments(p)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--steps", default="all", help='"all" or a comma list of steps')
    p.add_argument("--json", action="store_true")
    return p


if __name__ == "__main__":
    sys.exit(main())
