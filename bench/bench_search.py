"""Search latency, warm, one client: vector-only vs the full pipeline, in the same run, on
the PDPA alone and again after the 36-law and the 698-law corpora are loaded.

    python bench/bench_search.py                                 # PDPA, 36 laws, 698 laws
    python bench/bench_search.py --corpora pdpa                  # quick
    python bench/bench_search.py --data-dir var/bench            # keep (and reuse) the stack
    python bench/bench_search.py --corpora pdpa,decrees --vectors all --as-of 2021-06-01

"vector-only" is retrieval mode `hybrid` (dense + sparse RRF over chunks and profiles, no
graph); "full" is mode `graph` (hybrid seeding + the 2-hop walk + ranking). Queries are the
PDPA dev-set questions (Thai and English), searched over every loaded law (no law filter),
top 10. Each step loads one more corpus cumulatively and then times every query `--rounds`
times after one untimed pass. Loading prints its own wall time and throughput. With
`--as-of`, the full pipeline is timed again with that `as_of` (the laws in force that day,
excluded inside the vector filter and the Cypher), in the same rounds as the runs without.

Loading needs vectors for the PDPA; `--vectors pdpa` (the default for the big corpora)
loads the 36/698-law corpora into the graph only, because embedding ~18k (36 laws, ~20 min) or
~70k (698 laws, estimated) texts with the offline embedder takes hours on 2 cores; the figures say
which it was.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import DEV_SET, open_stack, time_interleaved  # noqa: E402
from services.core.evaluation import load_gold  # noqa: E402
from services.core.retrieval import search  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    questions = [q.question for q in load_gold(args.queries).questions]
    rows = []
    with open_stack(args.data_dir, threads=args.threads) as stack:
        for corpus in corpora:
            report, load_s, with_vectors = stack.load(corpus, vectors=args.vectors)
            sizes = stack.sizes()
            if sizes["chunks"] == 0:
                print("no vector points after loading: the ingestion's vector step is not wired")
                return 1
            sections = sum(law.sections for law in report.laws if law.status == "succeeded")
            row: dict[str, Any] = {
                "step": f"+{corpus}",
                "vectors": "all" if with_vectors else "graph only",
                "load_s": round(load_s, 1),
                "sections_loaded": sections,
                "sections_per_s": round(sections / load_s, 1) if sections and load_s else None,
                **sizes,
            }
            runs = {"vector_only": ("hybrid", None), "full": ("graph", None)}
            if args.as_of:
                runs["full_as_of"] = ("graph", args.as_of)
            calls = {
                label: [
                    (lambda q=q, m=mode, d=day: search(
                        q, **stack.deps(), top_k=args.top_k, mode=m, as_of=d
                    ))
                    for q in questions
                ]
                for label, (mode, day) in runs.items()
            }  # fmt: skip
            row.update(time_interleaved(calls, rounds=args.rounds))
            row["graph_overhead_pct"] = round(
                100.0 * (row["full"]["p50"] / row["vector_only"]["p50"] - 1.0), 1
            )
            if args.as_of:
                row["as_of_overhead_pct"] = {
                    q: round(100.0 * (row["full_as_of"][q] / row["full"][q] - 1.0), 1)
                    for q in ("p50", "p95")
                }
            rows.append(row)
            _print_row(row)
    if args.json:
        print(json.dumps(rows, indent=2))
    _print_summary(rows)
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--corpora", default="pdpa,nitibench,ocs698", help="cumulative steps, in order"
    )
    p.add_argument(
        "--vectors",
        choices=("pdpa", "all"),
        default="pdpa",
        help="which corpora get vectors (the PDPA always does)",
    )
    p.add_argument(
        "--queries", type=Path, default=DEV_SET, help="gold JSONL whose questions are timed"
    )
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--top-k", type=int, default=10)
    p.add_argument("--threads", type=int, default=1, help="offline embedder BLAS threads")
    p.add_argument("--data-dir", type=Path, help="keep the stack here and reuse it")
    p.add_argument("--as-of", help="also time the full pipeline with this as_of (YYYY-MM-DD)")
    p.add_argument("--json", action="store_true")
    return p


def _print_row(row: dict[str, Any]) -> None:
    print(
        f"{row['step']:<11} laws={row['laws']:<4} nodes={row['graph_nodes']:<7} "
        f"chunks={row['chunks']:<6} profiles={row['profiles']:<7} ({row['vectors']}, "
        f"loaded in {row['load_s']} s)\n"
        f"  vector-only p50 {row['vector_only']['p50']:.1f} ms  p95 {row['vector_only']['p95']:.1f} ms"
        f" | full p50 {row['full']['p50']:.1f} ms  p95 {row['full']['p95']:.1f} ms"
        f" | graph adds {row['graph_overhead_pct']}% (p50), n={row['full']['n']}",
        flush=True,
    )
    if "full_as_of" in row:
        extra = row["as_of_overhead_pct"]
        print(
            f"  full with as_of p50 {row['full_as_of']['p50']:.1f} ms  "
            f"p95 {row['full_as_of']['p95']:.1f} ms | as_of adds {extra['p50']}% (p50), "
            f"{extra['p95']}% (p95)",
            flush=True,
        )


def _print_summary(rows: list[dict[str, Any]]) -> None:
    if len(rows) < 2:
        return
    base = rows[0]["full"]["p95"]
    for row in rows[1:]:
        print(f"full p95 {row['step']} / {rows[0]['step']}: {row['full']['p95'] / base:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
