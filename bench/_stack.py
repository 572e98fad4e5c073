"""A one-machine stack for benchmarks: a local Neo4j server on free 127.0.0.1 ports, an
embedded qdrant-edge index beside it and the offline embedder, with laws ingested through
the same `ingest_paths` as `lexgraph ingest`.

By default everything lives in a temp dir that is deleted at the end. `data_dir` keeps the
stack (graph + vectors) so a later run reuses it: laws whose content is already published
are "unchanged" no-ops, so loading the 698-law corpus is paid once. The server is started
here and stopped through its own pid file; nothing touches a server this process did not
start.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.core import neo4j_local
from services.core.bootstrap import build_english_model
from services.core.embedding import OfflineEmbedder
from services.core.evaluation import percentile
from services.core.graph_store import BoltGraphStore
from services.core.ingestion import IngestReport, ingest_paths
from services.core.neo4j_local import LocalNeo4j, free_port
from services.core.retrieval import published_law_versions
from services.core.settings import REPO_ROOT, Settings
from services.core.vector_index import EdgeVectorIndex

SHARED = REPO_ROOT.parent / "shared"
LAUNCHER = REPO_ROOT / "deploy" / "neo4j-local"
PDPA = REPO_ROOT / "data" / "th-pdpa-2562" / "pdpa_2562_ocs.json"
NITIBENCH_LAWS = SHARED / "corpus" / "nitibench-ccl-laws"
OCS_698 = SHARED / "corpus" / "th-laws-ocs" / "laws.jsonl"
DEV_SET = REPO_ROOT / "tests" / "fixtures" / "eval" / "pdpa_dev.jsonl"
# One name per corpus of ../shared/corpus; "all" is every one of them: a firm's many laws.
_SOURCES = {
    "pdpa": [PDPA],
    # the PDPA's royal decrees (ISSUED_UNDER s.4, DISAPPLIES; README, "Time")
    "decrees": sorted((REPO_ROOT / "data" / "th-pdpa-2562" / "decrees").glob("*.json")),
    "gdpr": [SHARED / "corpus" / "eu-gdpr" / "gdpr.json"],
    "sg": [SHARED / "corpus" / "sg-pdpa-2012" / "pdpa-2012.json"],
    "jp": [SHARED / "corpus" / "jp-appi" / "415AC0000000057_appi_ja.json"],
    "nitibench": None,  # the 36 files of NITIBENCH_LAWS
    "ocs698": [OCS_698],  # 698 OCS laws; the PDPA among them is the same law, one version
}
CORPORA = (*_SOURCES, "all")


def corpus_paths(name: str) -> list[Path]:
    """The source files of a named corpus (`CORPORA`)."""
    if name == "all":
        return [path for corpus in _SOURCES for path in corpus_paths(corpus)]
    if name not in _SOURCES:
        raise ValueError(f"unknown corpus {name!r}; expected one of {', '.join(CORPORA)}")
    return _SOURCES[name] or sorted(NITIBENCH_LAWS.glob("*.json"))


@dataclass
class Stack:
    settings: Settings
    graph: BoltGraphStore
    vectors: EdgeVectorIndex
    embedder: OfflineEmbedder

    def ingest(self, paths: Sequence[Path], *, with_vectors: bool = True) -> IngestReport:
        return ingest_paths(
            paths,
            graph=self.graph,
            vectors=self.vectors if with_vectors else None,
            embedder=self.embedder if with_vectors else None,
        )

    def load(self, corpus: str, *, vectors: str) -> tuple[IngestReport, float, bool]:
        """Ingest a named corpus, with vectors for the PDPA (or for every corpus when
        `vectors` is "all"); print its load problems. The report, the seconds it took, and
        whether it was embedded."""
        with_vectors = corpus == "pdpa" or vectors == "all"
        started = time.perf_counter()
        report = self.ingest(corpus_paths(corpus), with_vectors=with_vectors)
        load_s = time.perf_counter() - started
        if not report.ok:
            print(f"{corpus}: {len(report.errors)} load problems, first: {report.errors[:3]}")
        return report, load_s, with_vectors

    def deps(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "vectors": self.vectors,
            "embedder": self.embedder,
            "settings": self.settings,
        }

    def sizes(self) -> dict[str, int]:
        """Published laws, graph nodes and edges, and vector points now loaded."""
        counts = self.graph.counts()
        return {
            "laws": len(self.published()),
            "graph_nodes": int(sum(counts.get("nodes", {}).values())),
            "graph_edges": int(sum(counts.get("edges", {}).values())),
            "chunks": self.vectors.count("chunks"),
            "profiles": self.vectors.count("profiles"),
        }

    def published(self) -> list[str]:
        return sorted(
            f"{law}@{version}" for law, version in published_law_versions(self.graph).items()
        )


@contextmanager
def open_stack(
    data_dir: Path | None = None, *, heap_mb: int = 2048, threads: int = 1
) -> Iterator[Stack]:
    """A running stack on `data_dir` (kept) or on a temp dir (deleted at the end)."""
    if data_dir is None:
        with tempfile.TemporaryDirectory(prefix="lexgraph-bench-") as tmp:
            with _stack_on(Path(tmp), heap_mb=heap_mb, threads=threads) as stack:
                yield stack
    else:
        data_dir = data_dir.resolve()  # the server's pid check compares absolute paths
        data_dir.mkdir(parents=True, exist_ok=True)
        with _stack_on(data_dir, heap_mb=heap_mb, threads=threads) as stack:
            yield stack


def add_stack_arguments(p: argparse.ArgumentParser) -> None:
    """Gold files and the stack they are scored on (`open_loaded_stack`)."""
    p.add_argument("gold", type=Path, nargs="+")
    p.add_argument("--corpus", default="pdpa", choices=CORPORA)
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) the stack here")
    p.add_argument("--skip-load", action="store_true", help="the data dir is loaded already")


@contextmanager
def open_loaded_stack(args: argparse.Namespace) -> Iterator[Stack]:
    """The stack of `add_stack_arguments`, its corpus loaded unless `--skip-load`; the load
    time and the stack's sizes go to stderr."""
    with open_stack(args.data_dir) as stack:
        if not args.skip_load:
            started = time.perf_counter()
            stack.ingest(corpus_paths(args.corpus))
            print(f"loaded {args.corpus} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        print(f"stack: {stack.sizes()}", file=sys.stderr)
        yield stack


@contextmanager
def _stack_on(root: Path, *, heap_mb: int, threads: int) -> Iterator[Stack]:
    server = LocalNeo4j(
        data_dir=root,
        launcher_dir=LAUNCHER,
        bolt_port=free_port(),
        http_port=free_port(),
        password="lexgraph-bench",  # noqa: S106 - throwaway local server
        heap_mb=heap_mb,
    )
    neo4j_local.start(server)
    graph = vectors = None
    try:
        settings = Settings(
            data_dir=root,
            graph_uri=server.bolt_uri,
            graph_user=server.user,
            graph_password=server.password,  # type: ignore[arg-type]
            graph_database=server.database,
            neo4j_http_port=server.http_port,
            graph_manage_local=False,
        )
        graph = BoltGraphStore(
            server.bolt_uri, user=server.user, password=server.password, database=server.database
        )
        graph.apply_schema()
        vectors = EdgeVectorIndex(
            root / "vectors",
            prefix=settings.collection_prefix,
            dense_weight=settings.hybrid_dense_weight,
        )
        embedder = OfflineEmbedder(
            dense_model=settings.offline_dense_model,
            threads=threads,
            english=build_english_model(settings, threads=threads),
        )
        yield Stack(settings, graph, vectors, embedder)
    finally:
        if vectors is not None:
            vectors.close()
        if graph is not None:
            graph.close()
        neo4j_local.stop(server)


def time_interleaved(
    calls: Mapping[str, Sequence[Callable[[], object]]], *, rounds: int
) -> dict[str, dict[str, float]]:
    """Like `time_calls`, for several labelled call lists: one list after the other in
    each round, so that a noisy machine's slow minute falls on all of them alike."""
    for group in calls.values():
        for call in group:
            call()
    timings: dict[str, list[float]] = {label: [] for label in calls}
    for _ in range(rounds):
        for label, group in calls.items():
            for call in group:
                started = time.perf_counter()
                call()
                timings[label].append((time.perf_counter() - started) * 1000.0)
    return {label: _stats(values) for label, values in timings.items()}


def time_calls(calls: Sequence[Callable[[], object]], *, rounds: int) -> dict[str, float]:
    """Warm (one untimed pass first), one client (sequential): p50/p95/mean in ms."""
    for call in calls:
        call()
    timings: list[float] = []
    for _ in range(rounds):
        for call in calls:
            started = time.perf_counter()
            call()
            timings.append((time.perf_counter() - started) * 1000.0)
    return _stats(timings)


def _stats(timings: list[float]) -> dict[str, float]:
    timings = sorted(timings)
    return {
        "n": len(timings),
        "p50": round(percentile(timings, 50), 2),
        "p95": round(percentile(timings, 95), 2),
        "mean": round(statistics.fmean(timings), 2),
    }
