"""Scale: the 2-hop graph walk and full search latency with 1, 36 and 698 laws loaded.

    python bench/bench_scale.py                          # 1 -> 36 -> 698 laws
    python bench/bench_scale.py --data-dir var/bench     # reuse a stack bench_search built

The walk is the catalog query `retrieval_walk` (the one search runs) from fixed PDPA seeds:
s.26 alone (the hub: sensitive data, cited by 11 sections), and s.26 + s.27 + s.37 together
(what a penalty question seeds). Full search is mode `graph`, top 10, over every loaded law,
on the PDPA dev-set questions. Warm, one client; p50/p95 over `--rounds` passes after one
untimed pass. The 36/698-law corpora are loaded into the graph only unless `--vectors all`
(see bench_search.py for why).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import (  # noqa: E402
    DEV_SET,
    Stack,
    open_stack,
    time_calls,
)
from services.core.evaluation import load_gold  # noqa: E402
from services.core.retrieval import Seed, WalkPath, search, walk  # noqa: E402

SEED_SETS = {
    "s26": ["th-pdpa-2562:s:26"],
    "s26+27+37": ["th-pdpa-2562:s:26", "th-pdpa-2562:s:27", "th-pdpa-2562:s:37"],
}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    questions = [q.question for q in load_gold(args.queries).questions]
    rows = []
    with open_stack(args.data_dir, threads=args.threads) as stack:
        for corpus in corpora:
            _, load_s, _ = stack.load(corpus, vectors=args.vectors)
            published = stack.published()
            row: dict[str, Any] = {
                "step": f"+{corpus}",
                "load_s": round(load_s, 1),
                **stack.sizes(),
            }
            for name, seeds in SEED_SETS.items():
                walk = _walk_call(stack, seeds, published)
                paths, _ = walk()
                row[f"walk_{name}"] = {
                    **time_calls([walk], rounds=args.walk_rounds),
                    "paths": len(paths),
                    "reached": len({p.steps[-1].key for p in paths}),
                }
            calls = [
                (lambda q=q: search(q, **stack.deps(), top_k=10, mode="graph")) for q in questions
            ]
            row["search_full"] = time_calls(calls, rounds=args.rounds)
            rows.append(row)
            _print_row(row)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def _walk_call(
    stack: Stack, seeds: list[str], published: list[str]
) -> Callable[[], tuple[list[WalkPath], set[tuple[str, str]]]]:
    walk_seeds = [Seed(key, key.split(":", 1)[0], "vector", 1.0) for key in seeds]
    return lambda: walk(stack.graph, walk_seeds, published, max_hops=2)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--corpora", default="pdpa,nitibench,ocs698", help="cumulative steps, in order"
    )
    p.add_argument("--vectors", choices=("pdpa", "all"), default="pdpa")
    p.add_argument("--queries", type=Path, default=DEV_SET)
    p.add_argument("--rounds", type=int, default=3, help="passes over the questions")
    p.add_argument("--walk-rounds", type=int, default=50)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--data-dir", type=Path)
    p.add_argument("--json", action="store_true")
    return p


def _print_row(row: dict[str, Any]) -> None:
    walks = "  ".join(
        f"walk {name}: p50 {row[f'walk_{name}']['p50']:.1f} ms p95 {row[f'walk_{name}']['p95']:.1f} ms"
        f" ({row[f'walk_{name}']['paths']} paths, {row[f'walk_{name}']['reached']} nodes)"
        for name in SEED_SETS
    )
    s = row["search_full"]
    print(
        f"{row['step']:<11} laws={row['laws']:<4} nodes={row['graph_nodes']:<7} "
        f"edges={row['graph_edges']:<7} chunks={row['chunks']:<6} (loaded in {row['load_s']} s)\n"
        f"  {walks}\n  full search p50 {s['p50']:.1f} ms p95 {s['p95']:.1f} ms (n={s['n']})",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
