"""Settings variants against the shipped settings, question by question, on one stack:
how a retrieval change is chosen on the tuning parts and reported on the check parts.

    python bench/bench_variants.py tests/fixtures/eval/pdpa_dev.jsonl \\
        tests/fixtures/eval/gdpr_dev.jsonl ../shared/eval/nitibench-tax/hf_tax.csv \\
        --corpus all --data-dir var/bench-all --skip-load \\
        --variant "sharper:retrieval.fusion.rrf_k=5" --variant "no-lists:-list_seeds"

A variant is NAME:CHANGES, the changes separated by ";": "retrieval.x.y=V" sets a
retrieval field (`settings.with_retrieval_changes`), "-step" switches a step off. For the
shipped settings and each variant: the questions answered (all-must@K, or Multi-HR@K for
NitiBench) on the tuning and check parts, each set's score, the answers that hold no
section of a law asked about, and the questions each variant won and lost against the
shipped settings, part by part.

`--scoped` searches each question within the laws its labels name, as a perfect router would
(with many laws loaded, the gap to the unscoped run is what routing costs; docs/quality.md,
"what perfect routing would give now"); `--scoped jurisdiction` within every law of their
jurisdictions, as a caller who passes `jurisdictions` would (docs/quality.md, "a
jurisdiction as the caller's scope").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import add_stack_arguments, open_loaded_stack  # noqa: E402
from services.core.evaluation import (  # noqa: E402
    PARTS,
    GoldSet,
    Retriever,
    SectionRef,
    evaluate,
    load_gold,
    search_retriever,
)
from services.core.retrieval.lookups import list_laws  # noqa: E402
from services.core.retrieval.models import MODES  # noqa: E402
from services.core.settings import Settings, with_retrieval_changes  # noqa: E402

SHIPPED = "shipped"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    variants = {SHIPPED: ([], [])} | dict(_variant(spec) for spec in args.variant)
    for name, (assignments, disabled) in variants.items():  # before a stack is started
        try:
            with_retrieval_changes(Settings(), assignments=assignments, disabled=disabled)
        except ValueError as exc:
            raise SystemExit(f"--variant {name}: {exc}") from exc
    golds = [load_gold(path) for path in args.gold]
    with open_loaded_stack(args) as stack:
        base = stack.deps()
        runs: dict[str, dict[str, dict[str, Any]]] = {}
        for name, (assignments, disabled) in variants.items():
            settings = with_retrieval_changes(
                base["settings"], assignments=assignments, disabled=disabled
            )
            runs[name] = {}
            for gold in golds:
                deps = base | {"settings": settings}
                retriever = _retriever(gold, args.mode, deps, max(args.k, 10), args.scoped)
                report = evaluate(gold, retriever, k=args.k, mode=args.mode)
                for row in report.questions:
                    runs[name][f"{Path(gold.path).stem}|{row['id']}"] = _outcome(gold, row, args.k)
            print(f"{name} done", file=sys.stderr)
    if args.json:
        print(json.dumps({"mode": args.mode, "k": args.k, "runs": runs}, indent=2))
    else:
        print(_report(runs))
    return 0


def _retriever(
    gold: GoldSet, mode: str, deps: dict[str, Any], top_k: int, scoped: str | None
) -> Retriever:
    """The pipeline as a retriever; `scoped` "laws": each question searched within the laws
    its `must` labels name, "jurisdiction": within their jurisdictions (a question's text
    stands for it: `evaluate` passes only the text)."""
    if not scoped:
        return search_retriever(mode, **deps, top_k=top_k)
    jurisdiction = (
        {row["law"]: row.get("jurisdiction", "") for row in list_laws(deps["graph"])}
        if scoped == "jurisdiction"
        else {}
    )
    scope_of: dict[str, set[str]] = defaultdict(set)
    for question in gold.questions:
        for law, _ in question.must:
            if scoped == "laws":
                scope_of[question.question].add(law)
            elif jurisdiction.get(law):
                scope_of[question.question].add(jurisdiction[law])
            else:
                raise SystemExit(f"--scoped jurisdiction: {question.id}'s law {law} is not loaded")
    by_scope: dict[tuple[str, ...], Retriever] = {}

    def retrieve(question: str) -> Sequence[SectionRef]:
        scope = tuple(sorted(scope_of[question]))
        if scope not in by_scope:
            key = "laws" if scoped == "laws" else "jurisdictions"
            by_scope[scope] = search_retriever(mode, **deps, top_k=top_k, **{key: list(scope)})
        return by_scope[scope](question)

    return retrieve


def _variant(spec: str) -> tuple[str, tuple[list[str], list[str]]]:
    name, sep, changes = spec.partition(":")
    if not sep or not name or name == SHIPPED:
        raise SystemExit(f"--variant {spec!r}: expected NAME:CHANGES, NAME not {SHIPPED!r}")
    parts = [part.strip() for part in changes.split(";") if part.strip()]
    disabled = [part[1:] for part in parts if part.startswith("-")]
    return name, ([part for part in parts if not part.startswith("-")], disabled)


def _outcome(gold: GoldSet, row: dict[str, Any], k: int) -> dict[str, Any]:
    scores = row["scores"][str(k)] if gold.format == "nitibench" else row["scores"]
    answered = scores["multi_hr"] if gold.format == "nitibench" else scores["all_must"]
    return {
        "part": row["part"],
        "answered": answered >= 1.0,
        "on_law": scores.get("on_law", 1.0) > 0.0,
        "recall": scores.get("recall", scores.get("must_recall", 0.0)),
    }


def _report(runs: dict[str, dict[str, dict[str, Any]]]) -> str:
    shipped = runs[SHIPPED]
    sets = sorted({key.split("|", 1)[0] for key in shipped})
    lines = []
    for name, got in runs.items():
        answered = {p: sum(o["answered"] for o in got.values() if o["part"] == p) for p in PARTS}
        per_set = []
        for name_of_set in sets:
            rows = [o for key, o in got.items() if key.startswith(f"{name_of_set}|")]
            recall = sum(o["recall"] for o in rows) / len(rows)
            share = sum(o["answered"] for o in rows) / len(rows)
            per_set.append(f"{name_of_set} {share:.3f} (recall {recall:.3f})")
        off_law = sum(not o["on_law"] for o in got.values())
        lines.append(
            f"[{name}] answered: "
            + ", ".join(f"{p} {answered[p]}" for p in PARTS)
            + f"; off the law asked about: {off_law} | "
            + " | ".join(per_set)
        )
        if name == SHIPPED:
            continue
        for part in PARTS:
            keys = [key for key, o in got.items() if o["part"] == part]
            won = [key for key in keys if got[key]["answered"] and not shipped[key]["answered"]]
            lost = [key for key in keys if shipped[key]["answered"] and not got[key]["answered"]]
            lines.append(f"    {part}: +{len(won)} {won} -{len(lost)} {lost}")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_stack_arguments(p)
    p.add_argument("--mode", default="graph", choices=MODES)
    p.add_argument("--k", type=int, default=10)
    p.add_argument(
        "--variant", action="append", default=[], help='NAME:CHANGES, e.g. "x:-list_seeds"'
    )
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--scoped",
        nargs="?",
        const="laws",
        choices=("laws", "jurisdiction"),
        help="search each question within the laws its labels name (perfect routing), or "
        "with 'jurisdiction' within every law of their jurisdictions",
    )
    return p


if __name__ == "__main__":
    sys.exit(main())
