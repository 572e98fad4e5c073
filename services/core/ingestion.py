"""Ingestion use-case: source files -> laws -> graphs -> graph database (-> vectors).

Per run:
1. read every file; a file that cannot become laws is reported (its path and the problem)
   and nothing of it is stored;
2. index all laws read together with the laws already stored, and build each graph;
   a law whose graph cannot be built is reported and nothing of it is stored;
3. load each law under the publish protocol of `services/core/publish.py`: mark pending,
   load the graph (the exported Cypher, transactions of 20,000 rows), index the vectors,
   check, publish, re-resolve the citations between it and the stored laws
   (`services/core/links.py`, both directions), remove older versions;
4. check the cross-law citations of the laws loaded against a fresh resolution
   (`links.check`; the report's `check`).

Functions receive their collaborators (graph store, vector index, embedder); they never
build them (bootstrap does).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from ingest.errors import InvalidSource
from ingest.export import ExportError
from ingest.graph import LawGraph
from ingest.models import Law
from services.core.bulk import SOURCE_SUFFIXES
from services.core.errors import LexgraphError
from services.core.indexing import index_law, optimize_vectors
from services.core.links import build_corpus, relink
from services.core.links import check as check_links
from services.core.ports import Embedder, GraphStore, VectorIndex
from services.core.publish import content_version, ingest_law_version, valid_day
from services.core.sources import IngestLimits

log = logging.getLogger(__name__)


@dataclass
class LawResult:
    law_id: str
    title: str = ""
    version: str = ""
    status: str = "pending"  # succeeded | unchanged | failed
    sections: int = 0
    nodes: int = 0
    edges: int = 0
    points: int = 0
    seconds: float = 0.0
    error: str | None = None


@dataclass
class FileResult:
    path: str
    laws: list[LawResult] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # laws a reader skipped, with reasons
    error: str | None = None  # the file as a whole could not be read

    @property
    def ok(self) -> bool:
        return self.error is None and all(law.error is None for law in self.laws)

    @property
    def errors(self) -> list[str]:
        problems = [self.error] if self.error else []
        return problems + [f"{law.law_id}: {law.error}" for law in self.laws if law.error]


@dataclass
class IngestReport:
    files: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0
    check: dict[str, Any] | None = None  # links.check over the laws loaded
    skipped: list[str] = field(default_factory=list)  # files of folders that are no source

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.files)

    @property
    def errors(self) -> list[str]:
        return [f"{f.path}: {problem}" for f in self.files for problem in f.errors]

    @property
    def laws(self) -> list[LawResult]:
        return [law for f in self.files for law in f.laws]

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "laws_ingested": sum(1 for law in self.laws if law.error is None),
            "errors": self.errors,
            "check": self.check,
            "skipped": self.skipped,
            "files": [
                {
                    "path": f.path,
                    "ok": f.ok,
                    "error": f.error,
                    "rejected": f.rejected,
                    "laws": [asdict(law) for law in f.laws],
                }
                for f in self.files
            ],
        }


@dataclass
class _Pending:
    """A law read and built, waiting to be loaded."""

    law: Law
    result: LawResult
    graph: LawGraph | None = None


def ingest_paths(
    paths: Iterable[str | Path],
    *,
    graph: GraphStore,
    vectors: VectorIndex | None = None,
    embedder: Embedder | None = None,
    source_name: Callable[[Path], str] | None = None,
    limits: IngestLimits | None = None,
    valid_from: str | None = None,
) -> IngestReport:
    """Ingest every law in `paths`; one file's problem never stops the others.
    `source_name` says what the stored law names as its source (default: the file's
    name; the CLI passes `SourceRoots.public_name`): never a server path. A file or law
    over `limits` (default `IngestLimits()`) is refused before any work on it.
    `valid_from` (ISO day): the texts apply from that day, and a law's earlier text is kept
    as the version before it (services/core/publish.py); a bad day is refused first."""
    valid_from = valid_day(valid_from)
    started = time.perf_counter()
    report = IngestReport()
    files, report.skipped = expand_paths(paths)
    pending = _read_all(
        files, report, source_name or (lambda path: path.name), limits or IngestLimits()
    )
    graph.apply_schema()
    _build_all(pending, graph)
    loaded: list[_Pending] = []
    for item in pending:
        if item.result.error is None and _load(
            item, graph=graph, vectors=vectors, embedder=embedder, valid_from=valid_from
        ):
            loaded.append(item)
    if loaded:
        try:
            report.check = check_links(graph, [item.law.id for item in loaded]).as_dict()
        except LexgraphError as e:  # the laws are published; say that the check did not run
            report.check = {"ok": False, "error": f"cross-law check failed: {e}"}
    if vectors is not None and any(item.result.points for item in loaded):
        optimize_vectors(vectors)
    report.seconds = time.perf_counter() - started
    return report


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """Files named, plus the source files inside folders named (recursive, sorted), and a
    note for each file of a folder that is not a source (hidden files are passed over)."""
    files: list[Path] = []
    skipped: list[str] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            files.append(path)
            continue
        for child in sorted(path.rglob("*")):
            relative = child.relative_to(path)
            if not child.is_file() or any(p.startswith(".") for p in relative.parts):
                continue
            if child.suffix.lower() in SOURCE_SUFFIXES:
                files.append(child)
            else:
                skipped.append(f"{child}: not a source file ({', '.join(SOURCE_SUFFIXES)})")
    return list(dict.fromkeys(files)), skipped


# --- steps -----------------------------------------------------------------------------


def _read_all(
    paths: Iterable[str | Path],
    report: IngestReport,
    source_name: Callable[[Path], str],
    limits: IngestLimits,
) -> list[_Pending]:
    from ingest.parse import read_source  # the readers' module

    pending: list[_Pending] = []
    seen: dict[str, str] = {}
    for raw in paths:
        path = Path(raw)
        file_result = FileResult(str(path))
        report.files.append(file_result)
        file_result.error = limits.file_problem(path)
        if file_result.error:
            continue
        try:
            result = read_source(path)
        except InvalidSource as e:
            file_result.error = e.problem
            continue
        except (OSError, UnicodeError) as e:
            file_result.error = f"cannot read: {e}"
            continue
        except Exception as e:  # a reader bug must not stop the other files
            log.exception("reading %s failed", path)
            file_result.error = f"reader failed: {type(e).__name__}: {e}"
            continue
        laws, rejected = _laws_and_rejected(result)
        file_result.rejected = [str(r) for r in rejected]
        if not laws:
            file_result.error = "no law found" + (
                f" ({len(rejected)} rejected)" if rejected else ""
            )
            continue
        for law in laws:
            law_result = LawResult(law.id, law.title, sections=len(law.sections))
            file_result.laws.append(law_result)
            if law.id in seen:
                law_result.status = "failed"
                law_result.error = f"law {law.id} was already read from {seen[law.id]} in this run"
                continue
            too_big = limits.sections_problem(len(law.sections))
            if too_big:
                law_result.status, law_result.error = "failed", too_big
                continue
            seen[law.id] = str(path)
            pending.append(_Pending(replace(law, source=source_name(path)), law_result))
    return pending


def _build_all(pending: list[_Pending], graph: GraphStore) -> None:
    from ingest.build import build_graph  # the citation/rules module

    corpus = build_corpus([item.law for item in pending], graph)
    for item in pending:
        try:
            item.graph = build_graph(item.law, corpus)
        except (InvalidSource, ExportError, ValueError) as e:
            _fail(item, f"cannot build the graph: {e}")
        except Exception as e:  # a builder bug must not stop the other laws
            log.exception("building the graph of %s failed", item.law.id)
            _fail(item, f"graph builder failed: {type(e).__name__}: {e}")


def _load(
    item: _Pending,
    *,
    graph: GraphStore,
    vectors: VectorIndex | None,
    embedder: Embedder | None,
    valid_from: str | None,
) -> bool:
    law_graph = item.graph
    assert law_graph is not None  # noqa: S101 - built above

    def load_graph(law: Law, version: str) -> LawGraph:
        graph.load_law(law_graph, version)
        return law_graph

    def load_vectors(law: Law, built: LawGraph, version: str) -> int:
        return _index_vectors(law, built, version, vectors=vectors, embedder=embedder)

    try:
        outcome = ingest_law_version(
            item.law,
            graph=graph,
            vectors=vectors or cast(VectorIndex, _NoVectors()),
            load_graph=load_graph,
            load_vectors=load_vectors,
            on_published=lambda version: _relink(graph, item.law.id),
            valid_from=valid_from,
        )
    except (LexgraphError, ExportError) as e:
        _fail(item, str(e))
        return False
    result = item.result
    result.version, result.status, result.seconds = (
        outcome.version,
        outcome.status,
        round(outcome.seconds, 3),
    )
    result.nodes, result.edges, result.points = (
        len(law_graph.nodes),
        len(law_graph.edges),
        outcome.points,
    )
    return True


# ----------------------------------------------------------------------------------------
# VECTOR STEP (owner: embeddings/vectors engineer). Embed the law's section chunks and
# node/edge profiles for `version` and upsert them into `vectors`; return the number of
# points. Runs after the graph is loaded and before the version is published.
# ----------------------------------------------------------------------------------------
def _index_vectors(
    law: Law,
    law_graph: LawGraph,
    version: str,
    *,
    vectors: VectorIndex | None,
    embedder: Embedder | None,
) -> int:
    if vectors is None or embedder is None:
        return 0
    counts = index_law(law, law_graph, vectors=vectors, embedder=embedder, version=version)
    return sum(counts.values())


def _relink(graph: GraphStore, law_id: str) -> None:
    relink(graph, [law_id])


# --- helpers ---------------------------------------------------------------------------


def _laws_and_rejected(result: Any) -> tuple[list[Law], list[Any]]:
    """`read_source` returns a ReadResult(laws, rejected); a bare list of laws also works."""
    if isinstance(result, list | tuple) and all(isinstance(x, Law) for x in result):
        return list(result), []
    return list(getattr(result, "laws", [])), list(getattr(result, "rejected", []))


def _fail(item: _Pending, problem: str) -> None:
    item.result.status = "failed"
    item.result.error = problem


class _NoVectors:
    """Stands in for the vector index in a graph-only run (no embedder configured)."""

    def delete_law(
        self, collection: str, law_id: str, *, keep_versions: Collection[str] = ()
    ) -> None:
        return None

    def prune_version(
        self, collection: str, law_id: str, version: str, *, keep_keys: Collection[str]
    ) -> None:
        return None

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        return 0


__all__ = ["FileResult", "IngestReport", "LawResult", "content_version", "ingest_paths"]
