"""Search latency with a firm's documents and access scopes against without, warm, one
client: what `POST /v1/search` does (the statute search, then the caller's visible
passages: a scoped vector query and the scoped CITES walk), on the PDPA, before and after
1,000 documents across 2 tenants are stored.

    python bench/bench_documents.py                        # 1,000 documents, 3 rounds
    python bench/bench_documents.py --documents 200 --rounds 2

The documents are generated: each is a short Markdown policy of a few numbered passages on
a privacy topic, citing PDPA sections the way firms do ("s.26 PDPA", "มาตรา ๒๖ แห่ง
พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล"), owned by one of the two tenants and visible to a
random choice of its groups (or to the whole tenant). The timed callers are a reader of
each tenant with one group, and each tenant's admin; the queries are the PDPA dev-set
questions, each asked by the next caller in turn. "without" is timed on the same stack
before any document is stored, "with" after; each prints p50 / p95 and the ratio.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench._stack import DEV_SET, Stack, open_stack, time_calls  # noqa: E402
from services.core import documents  # noqa: E402
from services.core.access import Principal  # noqa: E402
from services.core.evaluation import load_gold  # noqa: E402
from services.core.retrieval import search  # noqa: E402

TENANTS = ("firm-a", "firm-b")
GROUPS = ("m1", "m2", "team")
CALLERS = [
    Principal("bench:a-reader", "firm-a", ("m1",), ("reader",)),
    Principal("bench:b-reader", "firm-b", ("m2",), ("reader",)),
    Principal("bench:a-admin", "firm-a", (), ("admin",)),
    Principal("bench:b-admin", "firm-b", (), ("admin",)),
]
TOPICS = [
    ("Health data", "Health data of staff is sensitive; we collect it only with explicit consent",
     ["มาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล", "s.84 PDPA"]),
    ("Consent", "Consent is freely given, recorded, and as easy to withdraw as to give",
     ["section 19 PDPA"]),
    ("Breaches", "A personal data breach is reported to the office within seventy-two hours",
     ["s.37 PDPA"]),
    ("Transfers", "Transfers abroad need a destination with adequate protection",
     ["มาตรา ๒๘ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล"]),
    ("Officer", "The data protection officer advises the firm and checks compliance",
     ["s.41 PDPA", "s.42 PDPA"]),
    ("Retention", "Client files are kept for ten years after the matter closes", []),
    ("Billing", "Invoices are issued monthly and payable within thirty days", []),
    ("Marketing", "Direct marketing stops as soon as the person objects", ["s.32 PDPA"]),
]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    questions = [q.question for q in load_gold(args.queries).questions]
    with open_stack(args.data_dir) as stack:
        report, load_s, _ = stack.load("pdpa", vectors="pdpa")
        print(f"PDPA loaded in {load_s:.1f} s ({'ok' if report.ok else report.errors[:2]})")
        stores = documents.Stores.of(stack.graph, stack.vectors, stack.embedder)
        # The first passes over a fresh stack warm Neo4j's query plans and caches: untimed,
        # so that "without" is not slowed by what "with" then gets for free.
        time_calls(_calls(stack, stores, questions), rounds=2)
        without = time_calls(_calls(stack, stores, questions), rounds=args.rounds)
        stored_s, passages = _store_documents(stores, args.documents, random.Random(args.seed))
        print(f"stored {args.documents} documents ({passages} passages) in {stored_s:.1f} s")
        with_docs = time_calls(_calls(stack, stores, questions), rounds=args.rounds)
    row: dict[str, Any] = {
        "documents": args.documents,
        "passages": passages,
        "without": without,
        "with": with_docs,
        "ratio": {q: round(with_docs[q] / without[q], 3) for q in ("p50", "p95")},
    }
    print(
        f"without documents p50 {without['p50']:.1f} ms  p95 {without['p95']:.1f} ms | "
        f"with {args.documents} documents and scopes p50 {with_docs['p50']:.1f} ms  "
        f"p95 {with_docs['p95']:.1f} ms | ratio p50 {row['ratio']['p50']:.2f}x, "
        f"p95 {row['ratio']['p95']:.2f}x, n={with_docs['n']}"
    )
    if args.json:
        print(json.dumps(row, indent=2))
    return 0


def _calls(stack: Stack, stores: documents.Stores, questions: list[str]) -> list[Any]:
    """One call per question, as the search route makes it, each by the next caller."""

    def call(question: str, caller: Principal) -> None:
        result = search(question, **stack.deps(), top_k=10, mode="graph")
        documents.find_passages(
            result.query,
            [(s.key, s.label) for s in result.sections],
            access=caller,
            stores=stores,
            limit=10,
        )

    callers = [CALLERS[i % len(CALLERS)] for i in range(len(questions))]
    return [functools.partial(call, q, c) for q, c in zip(questions, callers, strict=True)]


def _store_documents(stores: documents.Stores, n: int, rng: random.Random) -> tuple[float, int]:
    """`n` generated documents, alternating tenants, stored by each tenant's admin."""
    admins = {c.tenant: c for c in CALLERS if c.has_role("admin")}
    started = time.perf_counter()
    passages = 0
    for i in range(n):
        tenant = TENANTS[i % len(TENANTS)]
        chosen = rng.sample(TOPICS, k=rng.randint(2, 4))
        lines = [f"# Policy {i}", ""]
        for j, (heading, sentence, cites) in enumerate(chosen, start=1):
            cited = f" (see {', '.join(cites)})" if cites else ""
            lines += [f"## {j} {heading}", "", f"{sentence}{cited}. Revision {i}.{j}.", ""]
        scopes = rng.choice([(), (), ("m1",), ("m2",), ("team",), ("m1", "team")])
        upload = documents.Upload(
            f"policy-{i}.md", "\n".join(lines).encode(), title=f"Policy {i}",
            date="2026-11-30", scopes=scopes,
        )  # fmt: skip
        stored = documents.store_document(upload, access=admins[tenant], stores=stores)
        passages += len(stored["passages"])
    return time.perf_counter() - started, passages


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--documents", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--queries", type=Path, default=DEV_SET, help="gold JSONL whose questions are timed"
    )
    p.add_argument("--data-dir", type=Path, help="keep the stack here (a fresh one otherwise)")
    p.add_argument("--json", action="store_true")
    return p


if __name__ == "__main__":
    raise SystemExit(main())
