"""Retrieval quality on a fresh (or kept) stack: load a corpus, then score a gold file in
every mode with the same harness as `lexgraph eval` (services/core/evaluation.py).

    python bench/bench_eval.py tests/fixtures/eval/pdpa_dev.jsonl --corpus pdpa
    python bench/bench_eval.py ../shared/eval/nitibench-tax/hf_tax.csv --corpus nitibench \\
        --data-dir var/bench-nitibench            # the 36 laws take long to embed: keep them
    python bench/bench_eval.py tests/fixtures/eval/pdpa_dev.jsonl --corpus pdpa,nitibench \\
        --data-dir var/bench-nitibench            # the PDPA questions among 37 laws

`lexgraph eval GOLD --modes all` does the same against the configured stack (var/ by
default); this script builds its own on free ports so it never touches a running server.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import CORPORA, corpus_paths, open_stack  # noqa: E402
from services.core.evaluation import (  # noqa: E402
    DEFAULT_LAW,
    MODES,
    format_table,
    load_gold,
    report_dict,
    run_modes,
    search_retriever,
)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    gold = load_gold(args.gold, default_law=args.law)
    modes = list(MODES) if args.modes == "all" else args.modes.split(",")
    depth = max(args.k, 10) if gold.format == "nitibench" else args.k
    corpora = [name.strip() for name in args.corpus.split(",") if name.strip()]
    unknown = sorted(set(corpora) - set(CORPORA))
    if unknown or not corpora:
        print(f"unknown corpus {unknown}; expected some of {', '.join(CORPORA)}", file=sys.stderr)
        return 2
    with open_stack(args.data_dir, threads=args.threads) as stack:
        started = time.perf_counter()
        report = stack.ingest([path for name in corpora for path in corpus_paths(name)])
        print(
            f"loaded {args.corpus} in {time.perf_counter() - started:.1f} s: {stack.sizes()}",
            file=sys.stderr,
        )
        if not report.ok:
            print(f"load problems: {report.errors[:5]}", file=sys.stderr)
        if stack.sizes()["chunks"] == 0:
            print("no vector points: the ingestion's vector step is not wired", file=sys.stderr)
            return 1
        reports = run_modes(
            gold,
            modes,
            lambda mode: search_retriever(mode, **stack.deps(), top_k=depth),
            k=args.k,
        )
    if args.json:
        print(json.dumps(report_dict(gold, args.k, reports), ensure_ascii=False, indent=2))
    else:
        print(format_table(gold, args.k, reports))
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gold", type=Path)
    p.add_argument(
        "--corpus", default="pdpa", help=f"one of {', '.join(CORPORA)}, or a comma list of them"
    )
    p.add_argument("--law", default=DEFAULT_LAW)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--modes", default="all", help='"all" or a comma list, e.g. "hybrid,graph"')
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--data-dir", type=Path, help="keep the stack here and reuse it")
    p.add_argument("--json", action="store_true")
    return p


if __name__ == "__main__":
    sys.exit(main())
