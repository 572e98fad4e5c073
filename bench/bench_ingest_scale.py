"""Ingest time and memory against a law's size: synthetic NitiBench-style JSON laws of
1k, 10k, 100k and 200k sections (one law, no chapters, so every CONTAINS edge shares the
Law node; each section cites the one before and half its number, and carries a penalty
clause), each in a fresh child process: read, build the graph, export the statements, load
them into the graph server (graph only, as `BoltGraphStore.load_law` does, then publish). Prints seconds per
phase, the statements, the child's peak RSS, and what the default ceilings
(LEXGRAPH_INGEST_MAX_FILE_BYTES / _MAX_SECTIONS) say about the file.

    .venv/bin/python bench/bench_ingest_scale.py [--sizes 1000,10000,100000,200000]
        [--load-up-to 200000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TITLE = "พระราชบัญญัติทดสอบขนาดใหญ่ พ.ศ. 2560"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,200000")
    parser.add_argument("--load-up-to", type=int, default=200_000,
                        help="load into the graph only laws of at most this many sections")
    parser.add_argument("--graph-uri", help="a running graph server (Bolt) to load into "
                        "instead of a throwaway local one; with --graph-user/-password/-database")
    parser.add_argument("--graph-user", default="neo4j")
    parser.add_argument("--graph-password", default="")
    parser.add_argument("--graph-database", default="neo4j")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("FILE", "LOAD"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(Path(args.child[0]), args.child[1] == "1")))
        return 0

    from services.core.sources import IngestLimits

    defaults = IngestLimits()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="lexgraph-scale-") as tmp, _graph(args) as graph:
        store, settings = graph
        env = {
            **os.environ,
            "LEXGRAPH_GRAPH_URI": settings.graph_uri,
            "LEXGRAPH_GRAPH_USER": settings.graph_user,
            "LEXGRAPH_GRAPH_PASSWORD": settings.graph_password.get_secret_value(),
            "LEXGRAPH_GRAPH_DATABASE": settings.graph_database,
        }
        for n in [int(x) for x in args.sizes.split(",")]:
            path = Path(tmp) / f"synthetic-{n}.json"
            _write_law(path, n)
            load = n <= args.load_up_to
            out = subprocess.run(  # noqa: S603 - this script, its own temp file
                [sys.executable, __file__, "--child", str(path), "1" if load else "0"],
                env=env, capture_output=True, text=True, check=False,
            )
            if out.returncode != 0:
                print(out.stderr[-3000:], file=sys.stderr)
                return 1
            row = json.loads(out.stdout.strip().splitlines()[-1])
            row["file_mb"] = round(path.stat().st_size / 1e6, 1)
            row["default_ceilings"] = (
                defaults.file_problem(path) or defaults.sections_problem(n) or "accepted"
            )
            rows.append(row)
            if not args.json:
                _print_row(row, header=len(rows) == 1)
            _wipe(store)
            path.unlink()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


@contextmanager
def _graph(args: argparse.Namespace) -> Iterator[tuple[Any, Any]]:
    """(store, settings): the server named by --graph-uri, or a throwaway local stack."""
    from bench._stack import open_stack
    from services.core import bootstrap
    from services.core.settings import Settings

    if args.graph_uri is None:
        with open_stack() as stack:
            yield stack.graph, stack.settings
        return
    settings = Settings(
        graph_uri=args.graph_uri,
        graph_user=args.graph_user,
        graph_password=args.graph_password,
        graph_database=args.graph_database,
        graph_manage_local=False,
    )
    store = bootstrap.build_graph_store(settings)
    try:
        yield store, settings
    finally:
        store.close()


def _wipe(store: Any) -> None:
    """Delete everything, a batch at a time: relationships first (the Law node of a law
    without chapters has one per section, too many for one transaction's memory)."""
    for query in (
        "MATCH ()-[r]->() WITH r LIMIT 50000 DELETE r RETURN count(*) AS n",
        "MATCH (n) WITH n LIMIT 50000 DETACH DELETE n RETURN count(*) AS n",
    ):
        while store.run_cypher(query, write=True)[0]["n"]:
            pass


def _write_law(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("[")
        for i in range(1, n + 1):
            record = {
                "law_name": TITLE,
                "section_num": str(i),
                "section_content": (
                    f"{TITLE} มาตรา {i} ผู้ใดฝ่าฝืนมาตรา {max(1, i - 1)} ต้องระวางโทษปรับไม่เกิน"
                    f"หนึ่งหมื่นบาท ทั้งนี้ ให้นำความในมาตรา {max(1, i // 2)} วรรคหนึ่ง มาใช้บังคับ"
                    "โดยอนุโลม"
                ),
                "reference": [],
            }
            f.write(("," if i > 1 else "") + json.dumps(record, ensure_ascii=False))
        f.write("]")


def _child(path: Path, load: bool) -> dict[str, Any]:
    from ingest.build import build_graph
    from ingest.export import export_statements, transaction_groups
    from ingest.parse import read_source
    from services.core import bootstrap
    from services.core.graph_store import LOAD_KINDS, LOAD_TX_ROWS
    from services.core.publish import content_version
    from services.core.settings import Settings

    row: dict[str, Any] = {}
    started = time.perf_counter()
    [law] = read_source(path).laws
    row["sections"] = len(law.sections)
    row["read_s"] = _lap(started)
    mark = time.perf_counter()
    graph = build_graph(law)
    row["build_s"], row["edges"] = _lap(mark), len(graph.edges)
    mark = time.perf_counter()
    version = content_version(law)
    statements = [
        s for s in export_statements(graph, version, parameters=True) if s.kind in LOAD_KINDS
    ]
    row["export_s"], row["statements"] = _lap(mark), len(statements)
    row["load_s"] = None
    if load:
        store = bootstrap.build_graph_store(Settings())
        try:
            store.apply_schema()
            mark = time.perf_counter()
            store.run_write("law_mark_pending", law=law.id, version=version, title=law.title)
            for group in transaction_groups(statements, LOAD_TX_ROWS):
                store.execute(group)
            store.run_write("law_publish", law=law.id, version=version)
            row["load_s"] = _lap(mark)
        finally:
            store.close()
    row["total_s"] = _lap(started)
    row["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return row


def _lap(since: float) -> float:
    return round(time.perf_counter() - since, 2)


def _print_row(row: dict[str, Any], *, header: bool) -> None:
    if header:
        print(f"{'sections':>8} {'file MB':>7} {'read s':>7} {'build s':>8} {'export s':>8} "
              f"{'stmts':>7} {'load s':>8} {'total s':>8} {'RSS MB':>7}  default ceilings")
    load = "-" if row["load_s"] is None else f"{row['load_s']:.1f}"
    print(f"{row['sections']:>8} {row['file_mb']:>7} {row['read_s']:>7.1f} {row['build_s']:>8.1f} "
          f"{row['export_s']:>8.1f} {row['statements']:>7} {load:>8} {row['total_s']:>8.1f} "
          f"{row['peak_rss_mb']:>7}  {row['default_ceilings'][:60]}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
