"""How well a question's intents are read, against the `kind` its gold set gives it (issue 22,
item 2): for each intent the rankers act on, per language and part, how often the words
(`data/lexicon/intents.json`), the model (`services/core/retrieval/intents.py`, at the
shipped threshold) and either of them flag it on questions of that kind (true positives)
and of another kind (false positives). A question's `kind` is one label; a question of
another kind may still ask about a penalty ("what happens if we don't"), so a false
positive here is a question to read, not always an error (docs/quality.md).

    python bench/intent_kinds.py                         # every set of tests/fixtures/eval
    python bench/intent_kinds.py tests/fixtures/eval/gdpr_probe.jsonl

No stack: only the offline embedder, ~5 s for the 356 questions.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.core.analysis import analyse_question  # noqa: E402
from services.core.bootstrap import build_worker_embedder  # noqa: E402
from services.core.evaluation import load_gold, split_of  # noqa: E402
from services.core.retrieval.intents import (  # noqa: E402
    RANKED,
    intent_model,
    intent_text,
    read_by_model,
)
from services.core.settings import Settings  # noqa: E402

GOLD = REPO / "tests" / "fixtures" / "eval"
RULES = ("words", "model", "either")

# (intent, language, part, is it the question's kind, read by words, read by the model)
Reading = tuple[str, str, str, bool, bool, bool]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = Settings()
    embedder = build_worker_embedder(settings)
    model = intent_model(embedder)
    if model is None:
        raise SystemExit("the embedder has no dense vectors: no intent model to score")
    threshold = settings.retrieval.intents.threshold
    readings: list[Reading] = []
    for path in args.gold or sorted(GOLD.glob("*.jsonl")):
        for q in load_gold(path, default_law="-").questions:
            analysis = analyse_question(q.question)
            by_model = read_by_model(
                model.probabilities(embedder.embed_query(intent_text(analysis)).dense), threshold
            )
            for intent in RANKED:
                readings.append(
                    (
                        intent,
                        analysis.language,
                        split_of(q.id),
                        q.kind == intent,
                        intent in analysis.intents,
                        intent in by_model,
                    )
                )
    print(f"{len(readings) // len(RANKED)} questions, model threshold {threshold}")
    print(render(confusion(readings)))
    return 0


def confusion(readings: Iterable[Reading]) -> dict[tuple[str, str, str], Counter[str]]:
    """(intent, language, part) -> counts: "kind" (questions of that kind), "n", and for each
    rule of RULES its true and false positives ("words tp", "words fp", ...)."""
    table: dict[tuple[str, str, str], Counter[str]] = {}
    for intent, language, part, is_kind, by_words, by_model in readings:
        counts = table.setdefault((intent, language, part), Counter())
        counts["n"] += 1
        counts["kind"] += is_kind
        for rule, read in zip(RULES, (by_words, by_model, by_words or by_model), strict=True):
            counts[f"{rule} {'tp' if is_kind else 'fp'}"] += read
    return table


def render(table: dict[tuple[str, str, str], Counter[str]]) -> str:
    head = "intent      lang part   n  kind | " + " | ".join(f"{r:>6} tp  fp" for r in RULES)
    lines = [head]
    for (intent, language, part), c in sorted(table.items()):
        cells = " | ".join(f"{c[f'{r} tp']:>9} {c[f'{r} fp']:>3}" for r in RULES)
        lines.append(f"{intent:<11} {language:<4} {part:<5} {c['n']:>3} {c['kind']:>5} | {cells}")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="*", type=Path, help="gold JSONL files (default: all)")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
