"""Vector store benchmark (not a test): upsert rate and hybrid query latency, qdrant-edge vs
qdrant-client local mode, on synthetic points shaped like lexgraph's.

    .venv/bin/python bench/bench_vectors.py                      # 1k, 10k, 50k; both adapters
    .venv/bin/python bench/bench_vectors.py --sizes 1000 --adapters edge --queries 500

Points: 512-d unit dense vectors (the offline embedder's size) and sparse vectors of 40
terms drawn Zipf-like from a 50k vocabulary (BM25-style weights; collections use the IDF
modifier, as the offline embedder asks), spread over 100 laws. Queries: one warm client,
hybrid (dense + sparse prefetch, RRF) with limit 10, unfiltered and filtered to 3 laws,
plus dense-only. qdrant-client runs in-memory (`:memory:`), so its figures are compute,
not disk. Edge is measured as written and again after `optimize()` (HNSW built).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ingest.ids import section_key
from services.core.ports import Embedding, SparseVector, VectorIndex, VectorPoint
from services.core.vector_index import EdgeVectorIndex, QdrantVectorIndex

DENSE = 512
VOCAB = 50_000
TERMS = 40
LAWS = 100


def _points(n: int, rng: np.random.Generator) -> list[VectorPoint]:
    dense = rng.standard_normal((n, DENSE)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    ranks = np.arange(1, VOCAB + 1)
    zipf = (1.0 / ranks) / (1.0 / ranks).sum()
    points = []
    for i in range(n):
        terms = np.unique(rng.choice(VOCAB, size=TERMS, p=zipf))
        weights = rng.uniform(0.5, 2.0, size=len(terms))
        law = f"law-{i % LAWS}"
        points.append(
            VectorPoint(
                key=section_key(law, str(i)),
                embedding=Embedding(
                    dense=tuple(dense[i].tolist()),
                    sparse=SparseVector(tuple(int(t) for t in terms), tuple(weights.tolist())),
                ),
                payload={
                    "law": law,
                    "version": "v1",
                    "law_version": f"{law}@v1",
                    "kind": "section",
                    "label": f"s.{i}",
                },
            )
        )
    return points


def _queries(count: int, rng: np.random.Generator) -> list[Embedding]:
    queries = []
    for _ in range(count):
        dense = rng.standard_normal(DENSE)
        dense /= np.linalg.norm(dense)
        terms = np.unique(rng.integers(0, 2000, size=6))
        queries.append(
            Embedding(
                dense=tuple(dense.tolist()),
                sparse=SparseVector(tuple(int(t) for t in terms), tuple([1.0] * len(terms))),
            )
        )
    return queries


def _latency(run: Callable[[Embedding], object], queries: list[Embedding]) -> tuple[float, float]:
    run(queries[0])  # warm
    times = []
    for query in queries:
        started = time.perf_counter()
        run(query)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    return statistics.median(times), p95


def _bench(
    name: str, index: VectorIndex, points: list[VectorPoint], queries: list[Embedding]
) -> None:
    index.ensure_collections(DENSE, sparse_idf=True)
    started = time.perf_counter()
    for start in range(0, len(points), 1024):
        index.upsert("chunks", points[start : start + 1024])
    upsert_s = time.perf_counter() - started
    assert index.count("chunks") == len(points)
    rows = [("upsert", f"{len(points) / upsert_s:,.0f} points/s ({upsert_s:.1f} s)")]
    _queries_for(name, index, queries, rows)
    if isinstance(index, EdgeVectorIndex):
        started = time.perf_counter()
        index.optimize()
        rows.append(("optimize()", f"{time.perf_counter() - started:.1f} s"))
        _queries_for(name + "+opt", index, queries, rows)
    for label, value in rows:
        print(f"  {name:<14} n={len(points):>6}  {label:<26} {value}", flush=True)


def _queries_for(
    name: str, index: VectorIndex, queries: list[Embedding], rows: list[tuple[str, str]]
) -> None:
    laws = ["law-1", "law-2", "law-3"]
    cases: dict[str, Callable[[Embedding], object]] = {
        "hybrid": lambda q: index.hybrid_search("chunks", q, limit=10),
        "hybrid, 3 laws": lambda q: index.hybrid_search("chunks", q, limit=10, laws=laws),
        "dense": lambda q: index.hybrid_search("chunks", q, limit=10, mode="dense"),
    }
    for label, run in cases.items():
        p50, p95 = _latency(run, queries)
        rows.append((f"{label} p50/p95", f"{p50:.2f} / {p95:.2f} ms  [{name}]"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 50_000])
    parser.add_argument("--adapters", nargs="+", default=["edge", "client-local"])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--client-budget-s",
        type=float,
        default=60.0,
        help="cap on query time per client-local case (its queries are ~1 s at 50k)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    for size in args.sizes:
        points = _points(size, rng)
        for adapter in args.adapters:
            with tempfile.TemporaryDirectory() as tmp:
                if adapter == "edge":
                    index: VectorIndex = EdgeVectorIndex(Path(tmp) / "vectors", prefix="bench")
                    count = args.queries
                else:
                    from qdrant_client import QdrantClient

                    index = QdrantVectorIndex(QdrantClient(":memory:"), prefix="bench")
                    # keep the slow adapter's run bounded: ~30 ms a query at 1k, ~1 s at 50k
                    per_query_s = 0.03 * size / 1000
                    count = max(10, min(args.queries, int(args.client_budget_s / 3 / per_query_s)))
                try:
                    _bench(adapter, index, points, _queries(count, rng))
                finally:
                    index.close()
                gc.collect()


if __name__ == "__main__":
    main()
