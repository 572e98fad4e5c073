"""Fit the law router (services/core/retrieval/routing.py) and write its weights.

    python bench/train_router.py --data-dir var/bench-all --corpus all \\
        --out data/routing/law_router.json

Training questions are those whose law is known and that no check part or probe set holds:
the labelled intent set (`data/intents/questions.jsonl`, its laws mapped to corpus ids,
questions on laws not loaded left out) and the tuning parts of the PDPA dev set, the GDPR dev
set and NitiBench-Tax. For each, the graph pipeline runs up to the routing lists on a stack
holding every corpus, and each law a list found is described by `routing.FEATURES`. A
conditional logit (softmax over a question's candidate laws, L2-regularised, gradient
descent) is fitted to put the question's labelled laws first. Validation is leave-one-law-
out: the weights that score a law's questions were fitted without any question on that law.
Prints law@1 and law@3 per law and overall, and writes the weights fitted on everything.
`--hold mass,named` keeps those features' shipped weights and fits only the others beside
them (how a new feature's weight was added: data/routing/law_router.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import CORPORA, corpus_paths, open_stack  # noqa: E402
from ingest.ids import law_id_for_title  # noqa: E402
from services.core.evaluation import load_gold, settings_to_score  # noqa: E402
from services.core.retrieval.context import SearchContext  # noqa: E402
from services.core.retrieval.pipeline import validate_query  # noqa: E402
from services.core.retrieval.routing import (  # noqa: E402
    FEATURES,
    ROUTER_FILE,
    law_features,
    route_evidence,
)
from services.core.retrieval.stages import (  # noqa: E402
    Analyse,
    Embed,
    Fuse,
    NamedLaws,
    ReadLaws,
    VectorSearch,
)

INTENTS = REPO / "data" / "intents" / "questions.jsonl"
GOLD = REPO / "tests" / "fixtures" / "eval"
# The intent set names Thai statutes by readable slugs; these are their titles.
SLUG_TITLES = {
    "th-civil-commercial-code": "ประมวลกฎหมายแพ่งและพาณิชย์",
    "th-revenue-code": "ประมวลรัษฎากร",
    "th-securities-exchange-act-2535": "พระราชบัญญัติหลักทรัพย์และตลาดหลักทรัพย์ พ.ศ. 2535",
    "th-public-limited-companies-act-2535": "พระราชบัญญัติบริษัทมหาชนจำกัด พ.ศ. 2535",
    "th-digital-asset-decree-2561": "พระราชกำหนดการประกอบธุรกิจสินทรัพย์ดิจิทัล พ.ศ. 2561",
    "th-labour-protection-act-2541": "พระราชบัญญัติคุ้มครองแรงงาน พ.ศ. 2541",
    "th-land-traffic-act-2522": "พระราชบัญญัติจราจรทางบก พ.ศ. 2522",
    "th-consumer-protection-act-2522": "พระราชบัญญัติคุ้มครองผู้บริโภค พ.ศ. 2522",
    "th-land-code-2497": "ประมวลกฎหมายที่ดิน",
    "th-computer-crime-act-2550": ("พระราชบัญญัติว่าด้วยการกระทำความผิดเกี่ยวกับคอมพิวเตอร์ พ.ศ. 2550"),
}
STAGES = (
    ReadLaws(),
    Analyse(),
    Embed(graph=True),
    NamedLaws(),
    VectorSearch("graph"),
    Fuse(deep=True),
)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.features and args.features.exists():
        rows = [
            (q_id, frozenset(laws), group, feats)
            for q_id, laws, group, feats in json.loads(args.features.read_text(encoding="utf-8"))
        ]
    else:
        rows = extract(args)
    if args.features:
        cached = [(q_id, sorted(laws), group, feats) for q_id, laws, group, feats in rows]
        args.features.write_text(json.dumps(cached, ensure_ascii=False), encoding="utf-8")
    rows = [
        (q_id, laws, group, {law: [f[n] for n in FEATURES] for law, f in law_features(ev).items()})
        for q_id, laws, group, ev in rows
    ]
    rows = [row for row in rows if row[3]]
    held = held_weights(args.hold)
    report = leave_one_law_out(rows, args.l2, args.steps, held)
    weights = fit(rows, args.l2, args.steps, held)
    print(report)
    out = {
        "about": "Weights of the law router's conditional logit (routing.FEATURES), fitted by "
        "bench/train_router.py on the intent set and the tuning parts of the PDPA dev, "
        "GDPR dev and NitiBench-Tax sets, over every corpus loaded"
        + (f"; {', '.join(sorted(args.hold))} held as shipped before" if args.hold else "")
        + ".",
        "command": " ".join(["python bench/train_router.py", *(argv or sys.argv[1:])]),
        "questions": len(rows),
        "leave_one_law_out": report.splitlines()[-1],
        "weights": {name: round(float(w), 4) for name, w in zip(FEATURES, weights, strict=True)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def extract(args: argparse.Namespace) -> list:
    """Every training question with its routing evidence (`routing.route_evidence`)."""
    with open_stack(args.data_dir) as stack:
        if not args.skip_load:
            stack.ingest(corpus_paths(args.corpus))
        deps = stack.deps()
        loaded = {law_version.split("@", 1)[0] for law_version in stack.published()}
        questions = training_questions(loaded)
        print(f"{len(questions)} training questions over {len(loaded)} laws", file=sys.stderr)
        started = time.perf_counter()
        rows = [(q_id, laws, group, features(text, deps)) for q_id, text, laws, group in questions]
        print(f"features in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return rows


def training_questions(loaded: set[str]) -> list[tuple[str, str, frozenset[str], str]]:
    """(id, question, its laws, the law it is grouped under for validation)."""
    out = []
    for line in INTENTS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        law = record["law"]
        law = law_id_for_title(SLUG_TITLES[law]) if law in SLUG_TITLES else law
        if law in loaded:
            out.append((record["id"], record["text"], frozenset({law}), law))
    for path in (GOLD / "pdpa_dev.jsonl", GOLD / "gdpr_dev.jsonl", NITIBENCH):
        if not path.exists():
            continue
        for q in load_gold(path).part("tune").questions:
            laws = frozenset(law for law, _ in q.must) & loaded
            if laws:
                out.append((q.id, q.question, laws, sorted(laws)[0]))
    return out


def features(question: str, deps: dict) -> dict:
    settings = settings_to_score(deps["settings"], question)
    query = validate_query(question, settings)
    ctx = SearchContext(query, deps["graph"], deps["vectors"], deps["embedder"], settings)
    for stage in STAGES:
        stage.run(ctx)
    return route_evidence(ctx)


def _arrays(rows):
    """Per question: its candidates' feature matrix and which candidates are its laws."""
    out = []
    for _, laws, _, feats in rows:
        names = sorted(feats)
        x = np.array([feats[name] for name in names], dtype=float)
        y = np.array([name in laws for name in names], dtype=bool)
        if y.any():
            out.append((names, x, y))
    return out


def held_weights(names: list[str]) -> dict[int, float]:
    """FEATURES index -> weight, for the features whose shipped weights (ROUTER_FILE) are
    kept while a new feature's weight is fitted beside them."""
    unknown = sorted(set(names) - set(FEATURES))
    if unknown:
        raise SystemExit(f"--hold: unknown features {unknown}; known: {', '.join(FEATURES)}")
    shipped = json.loads(ROUTER_FILE.read_text(encoding="utf-8"))["weights"]
    return {FEATURES.index(name): float(shipped[name]) for name in names}


def fit(rows, l2: float, steps: int, held: dict[int, float] | None = None) -> np.ndarray:
    """Maximise the mean log-probability of a question's laws under softmax(X w); the
    `held` weights stay as given."""
    data = _arrays(rows)
    w = np.zeros(len(FEATURES))
    free = np.ones(len(FEATURES))
    for index, value in (held or {}).items():
        w[index], free[index] = value, 0.0
    rate = 0.5
    for _ in range(steps):
        grad = -l2 * w
        for _, x, y in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            q = p * y / (p[y].sum())  # the posterior over the labelled laws
            grad += x.T @ (q - p) / len(data)
        w += rate * grad * free
    return w


def rank_of_law(names, x, y, w) -> int:
    order = np.argsort(-(x @ w), kind="stable")
    return next(i for i, j in enumerate(order) if y[j])


def leave_one_law_out(rows, l2: float, steps: int, held: dict[int, float] | None = None) -> str:
    by_group: dict[str, list] = defaultdict(list)
    for row in rows:
        by_group[row[2]].append(row)
    lines, hits1, hits3, total = [], 0, 0, 0
    for group, left_out in sorted(by_group.items()):
        w = fit([r for r in rows if r[2] != group], l2, steps, held)
        ranks = [rank_of_law(*arrays, w) for arrays in _arrays(left_out)]
        at1, at3 = sum(r == 0 for r in ranks), sum(r < 3 for r in ranks)
        hits1, hits3, total = hits1 + at1, hits3 + at3, total + len(ranks)
        lines.append(
            f"{group[:40]:40} n={len(ranks):3}  law@1 {at1 / len(ranks):.3f}  "
            f"law@3 {at3 / len(ranks):.3f}"
        )
    lines.append(
        f"leave-one-law-out over {total} questions: law@1 {hits1 / total:.3f}, "
        f"law@3 {hits3 / total:.3f}"
    )
    return "\n".join(lines)


NITIBENCH = REPO.parent / "shared" / "eval" / "nitibench-tax" / "hf_tax.csv"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default="all", choices=CORPORA)
    p.add_argument("--data-dir", type=Path, required=True, help="the stack (kept)")
    p.add_argument("--skip-load", action="store_true", help="the data dir is loaded already")
    p.add_argument("--out", type=Path, default=ROUTER_FILE)
    p.add_argument("--features", type=Path, help="cache of the features (read if it exists)")
    p.add_argument("--l2", type=float, default=0.01)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument(
        "--hold",
        type=lambda value: [name for name in value.split(",") if name],
        default=[],
        help="features whose shipped weights stay (comma list), e.g. mass,named",
    )
    return p


if __name__ == "__main__":
    sys.exit(main())
