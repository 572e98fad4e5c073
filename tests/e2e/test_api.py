"""The HTTP API end to end: uvicorn running `services.api.main:create_app` (the lifespan
builds the real clients through bootstrap) on the PDPA ingested into a real Neo4j
server and the embedded qdrant-edge index with the offline embedder."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from services.core.neo4j_local import LocalNeo4j, free_port
from tests.live_stack import (
    PDPA,
    REPO,
    empty_store,
    http_ok,
    ingest_inline,
    spawn,
    stack_env,
    start_api,
    stop,
    wait_for,
)

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

LAW = "th-pdpa-2562"
S = f"{LAW}:s:"
PROBLEM = "application/problem+json"
QUESTION_TH = "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าทำผิดมีโทษอะไร"
QUESTION_EN = (
    "Can a company collect employees' health data, and what is the penalty if it gets it wrong?"
)


@pytest.fixture(scope="module")
def api(neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("api-stack")
    port = free_port()
    env = stack_env(root, neo4j_server, LEXGRAPH_API_PORT=str(port),
                    LEXGRAPH_STORE_TIMEOUT_S="2")  # fmt: skip
    empty_store(neo4j_server).close()
    report = ingest_inline(env, PDPA)
    _index_if_ingestion_did_not(env, report)
    proc = start_api(root, env, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


def _index_if_ingestion_did_not(env: dict[str, str], report: Any) -> None:
    """Until `lexgraph ingest` fills the vector collections itself (its vector step), fill
    them here with the same core function, before the API opens the embedded store."""
    if all(law.points for law in report.laws):
        return
    from ingest.build import build_graph
    from ingest.corpus import CorpusIndex
    from ingest.parse import read_source
    from services.core import bootstrap
    from services.core.indexing import index_law
    from services.core.settings import Settings

    settings = Settings(**{k.removeprefix("LEXGRAPH_").lower(): v for k, v in env.items()
                           if k.startswith("LEXGRAPH_")})  # fmt: skip
    laws = list(read_source(PDPA).laws)
    corpus = CorpusIndex.from_laws(laws)
    vectors = bootstrap.build_worker_vectors(settings)
    try:
        embedder = bootstrap.build_worker_embedder(settings)
        for law, result in zip(laws, report.laws, strict=True):
            index_law(law, build_graph(law, corpus), vectors=vectors, embedder=embedder,
                      version=result.version)  # fmt: skip
    finally:
        vectors.close()


def search(api: str, query: str, **extra: Any) -> httpx.Response:
    return httpx.post(f"{api}/v1/search", json={"query": query, **extra}, timeout=30)


@pytest.mark.parametrize("question", [QUESTION_TH, QUESTION_EN])
def test_health_question_finds_the_prohibition_and_its_penalties(api: str, question: str) -> None:
    r = search(api, question, top_k=10)
    assert r.status_code == 200, r.text
    body = r.json()
    sections = {s["key"]: s for s in body["sections"]}
    print("\n".join(f"{s['key']:<22} {s['score']:.3f} {s['reached']} | {s['path']}"
                    for s in body["sections"]))  # fmt: skip
    for number in ("26", "84", "79"):
        assert S + number in sections, f"s.{number} not in the top 10: {list(sections)}"
    for item in body["sections"]:
        assert item["law"] == LAW and item["label"] and item["text"] and item["score"] > 0
        assert item["reached"] and item["path"]
    assert sections[S + "84"]["hops"] >= 1 and "PENALIZES" in sections[S + "84"]["path"]
    assert body["index_versions"][LAW]
    assert "penalty" in body["intents"]


def test_graph_mode_links_the_penalty_to_the_prohibition(api: str) -> None:
    """Whatever the vectors find on their own, graph mode says how s.84 relates to s.26."""
    sections = {s["key"]: s for s in search(api, QUESTION_TH).json()["sections"]}
    assert sections[S + "84"]["path"].startswith("มาตรา ๒๖")
    assert "[PENALIZES]" in sections[S + "84"]["path"]
    hybrid = search(api, QUESTION_TH, mode="hybrid").json()["sections"]
    assert all(s["hops"] == 0 and s["reached"].startswith("[vector]") for s in hybrid)


def test_jurisdictions_scope_the_search_to_their_laws(api: str) -> None:
    scoped = search(api, QUESTION_EN, top_k=10, jurisdictions=["th"])
    assert scoped.status_code == 200, scoped.text
    assert scoped.json()["sections"] == search(api, QUESTION_EN, top_k=10).json()["sections"]
    laws = httpx.get(f"{api}/v1/laws", timeout=10).json()["laws"]
    assert [law["jurisdiction"] for law in laws] == ["TH"]


def test_laws_summary_and_section_text(api: str) -> None:
    laws = httpx.get(f"{api}/v1/laws", timeout=10).json()["laws"]
    assert [law["law"] for law in laws] == [LAW]
    summary = httpx.get(f"{api}/v1/laws/{LAW}/summary", timeout=10).json()
    assert summary["nodes"]["Section"] == 96
    assert summary["edges"]["REFERENCES"] > 50 and summary["most_cited"]
    texts = [httpx.get(f"{api}/v1/laws/{LAW}/sections/{n}", timeout=10).json()
             for n in ("26", "๒๖", "มาตรา ๒๖")]  # fmt: skip
    assert texts[0] == texts[1] == texts[2]
    assert texts[0]["key"] == S + "26" and "สุขภาพ" in texts[0]["text"]


def test_related_and_penalties_of_section_26(api: str) -> None:
    related = httpx.get(f"{api}/v1/laws/{LAW}/sections/26/related", timeout=10).json()
    assert S + "84" in {n["key"] for n in related["incoming"]["PENALIZES"]}
    penalties = httpx.get(f"{api}/v1/laws/{LAW}/sections/26/penalties", timeout=10).json()
    found = {p["key"]: p for p in penalties["penalty_sections"]}
    assert {S + "84", S + "79"} <= set(found)
    assert found[S + "84"]["penalties"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("post", "/v1/search", {"query": ""}, 422),
        ("post", "/v1/search", {"query": "ก" * 100_000}, 422),
        ("post", "/v1/search", {"query": "\x00\x01\x1f"}, 422),
        ("post", "/v1/search", {"query": QUESTION_TH, "top_k": 0}, 422),
        ("post", "/v1/search", {"query": QUESTION_TH, "top_k": 10_000}, 422),
        ("post", "/v1/search", {"query": QUESTION_TH, "max_hops": 3}, 422),
        ("post", "/v1/search", {"query": QUESTION_TH, "laws": ["no-such-law"]}, 404),
        ("post", "/v1/search", {"query": QUESTION_TH, "jurisdictions": ["EU"]}, 404),
        ("post", "/v1/search", {"query": QUESTION_TH, "jurisdictions": ["T1"]}, 422),
        ("post", "/v1/search", {"query": QUESTION_TH, "jurisdictions": "TH"}, 422),
        ("get", "/v1/laws/no-such-law/summary", None, 404),
        ("get", f"/v1/laws/{LAW}/sections/9999", None, 404),
        ("get", f"/v1/laws/{LAW}/sections/9999/penalties", None, 404),
    ],
)
def test_bad_input_is_a_problem_never_a_500(
    api: str, method: str, path: str, body: Any, status: int
) -> None:
    r = httpx.request(method, api + path, json=body, timeout=30)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["status"] == status and r.json()["detail"]


def test_cypher_in_the_question_is_only_text(api: str) -> None:
    r = search(api, "') MATCH (n) DETACH DELETE n RETURN 1 // มาตรา ๒๖")
    assert r.status_code == 200
    assert httpx.get(f"{api}/v1/laws/{LAW}/summary", timeout=10).json()["nodes"]["Section"] == 96


def test_ready_and_openapi(api: str) -> None:
    ready = httpx.get(f"{api}/readyz", timeout=10)
    assert ready.status_code == 200 and set(ready.json()["checks"].values()) == {"ok"}
    graph = ready.json()["graph"]  # the backend, and the version its server reports
    assert graph["backend"] == "neo4j"
    assert re.fullmatch(r"Neo4j Kernel 5\.26\.\d+ community", graph["server"]), graph
    spec = httpx.get(f"{api}/openapi.json", timeout=10).json()
    assert "/v1/search" in spec["paths"] and "/v1/laws/{law}/sections/{section}" in spec["paths"]


def test_a_graph_that_is_down_is_a_503_within_two_seconds(
    api: str, neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("down-stack")
    port = free_port()
    env = stack_env(
        root,
        neo4j_server,
        LEXGRAPH_API_PORT=str(port),
        LEXGRAPH_STORE_TIMEOUT_S="2",
        LEXGRAPH_GRAPH_URI=f"bolt://127.0.0.1:{free_port()}",
    )  # nothing listens
    proc = spawn([sys.executable, "-m", "uvicorn", "services.api.main:create_app", "--factory",
                  "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
                 env=env, cwd=REPO, log=root / "api.log")  # fmt: skip
    try:
        wait_for(lambda: http_ok(f"http://127.0.0.1:{port}/healthz"), 120, "the API to start")
        for path in ("/v1/laws", f"/v1/laws/{LAW}/sections/26"):
            started = time.monotonic()
            r = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10)
            assert r.status_code == 503 and r.headers["content-type"].startswith(PROBLEM)
            assert time.monotonic() - started < 2.5
        ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=10)
        assert ready.status_code == 503 and "graph" in ready.json()["detail"]
    finally:
        stop(proc)
