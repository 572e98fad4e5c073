"""The API over fakes behind the ports: routes, OpenAPI, problem+json for bad input and
for stores that are down (the same routes run against real stores in tests/e2e)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from services.api.deps import Clients
from services.api.main import create_app
from services.core.settings import Settings
from tests.unit.retrieval_fakes import mini_pdpa

LAW = "th-pdpa-2562"
QUESTION = "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าทำผิดมีโทษอะไร"
PROBLEM = "application/problem+json"


@pytest.fixture
def stores():
    return mini_pdpa()


@pytest.fixture
def client(stores, tmp_path):
    graph, vectors, embedder = stores
    settings = Settings(data_dir=tmp_path, store_timeout_s=0.5)
    app = create_app(settings, clients=Clients(graph, vectors, embedder, settings))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_search_returns_sections_with_paths(client):
    r = client.post("/v1/search", json={"query": QUESTION})
    assert r.status_code == 200, r.text
    body = r.json()
    by_key = {s["key"]: s for s in body["sections"]}
    assert {f"{LAW}:s:26", f"{LAW}:s:84", f"{LAW}:s:79"} <= set(by_key)
    assert by_key[f"{LAW}:s:84"]["reached"] == "[hop1][PENALIZES] มาตรา ๘๔"
    assert body["index_versions"] == {LAW: "abc123def456"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "\x00\x01\x02"}, "query"),
        ({"query": "ก" * 100_000}, "query"),
        ({"query": "x" * 100_001}, "query"),
        ({"query": QUESTION, "top_k": 0}, "top_k"),
        ({"query": QUESTION, "top_k": 10_000}, "top_k"),
        ({"query": QUESTION, "max_hops": 3}, "max_hops"),
        ({"query": QUESTION, "mode": "sql"}, "mode"),
        ({}, "query"),
        ({"query": 5}, "query"),
    ],
)
def test_bad_search_input_is_a_422_problem_naming_the_field(client, body, field):
    r = client.post("/v1/search", json=body)
    assert r.status_code == 422
    assert r.headers["content-type"].startswith(PROBLEM)
    problem = r.json()
    assert problem["status"] == 422 and problem["type"].endswith("/invalid-input")
    assert field in [e["field"] for e in problem["errors"]]


def test_unknown_law_filter_is_404(client):
    r = client.post("/v1/search", json={"query": QUESTION, "laws": ["xx-nope"]})
    assert r.status_code == 404 and r.headers["content-type"].startswith(PROBLEM)
    assert "xx-nope" in r.json()["detail"]


def test_cypher_fragments_get_a_normal_answer(client, stores):
    r = client.post("/v1/search", json={"query": "'}) MATCH (n) DETACH DELETE n //"})
    assert r.status_code == 200
    assert stores[0].nodes


def test_malformed_json_is_a_422_problem(client):
    r = client.post(
        "/v1/search", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)


def test_laws_list_only_published(client):
    r = client.get("/v1/laws")
    assert r.status_code == 200
    assert [law["law"] for law in r.json()["laws"]] == [LAW]


def test_law_summary_counts_and_most_cited(client):
    body = client.get(f"/v1/laws/{LAW}/summary").json()
    assert body["nodes"]["Section"] == 8
    assert body["edges"]["PENALIZES"] == 2
    assert body["most_cited"][0]["key"] == f"{LAW}:s:26"


@pytest.mark.parametrize("section", ["26", "๒๖", "มาตรา ๒๖", "%E0%B9%92%E0%B9%96"])
def test_section_text_accepts_thai_and_arabic_numbers(client, section):
    r = client.get(f"/v1/laws/{LAW}/sections/{section}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["key"] == f"{LAW}:s:26" and "ข้อมูลสุขภาพ" in body["text"]
    assert "uid" not in body


def test_section_text_is_deterministic(client):
    first = client.get(f"/v1/laws/{LAW}/sections/84").json()
    assert first == client.get(f"/v1/laws/{LAW}/sections/84").json()


def test_slash_numbers_route_to_the_section_not_the_subresource(client, stores):
    graph = stores[0]
    graph.add(
        "Section", f"{LAW}:s:26/1", "abc123def456", number="26/1", label="มาตรา ๒๖/๑", text="x"
    )
    assert client.get(f"/v1/laws/{LAW}/sections/26/1").json()["key"] == f"{LAW}:s:26/1"
    assert client.get(f"/v1/laws/{LAW}/sections/26/1/related").status_code == 200


def test_related_groups_edges_by_type_and_direction(client):
    body = client.get(f"/v1/laws/{LAW}/sections/26/related").json()
    assert [n["key"] for n in body["incoming"]["PENALIZES"]] == [f"{LAW}:s:84"]
    assert body["incoming"]["PENALIZES"][0]["paragraphs"] == ["1"]
    assert [n["key"] for n in body["outgoing"]["GRANTS_EXEMPTION"]] == [f"{LAW}:ex:26:1"]


def test_penalties_of_the_violated_section(client):
    body = client.get(f"/v1/laws/{LAW}/sections/26/penalties").json()
    found = {p["key"]: p for p in body["penalty_sections"]}
    assert set(found) == {f"{LAW}:s:84", f"{LAW}:s:79"}
    assert found[f"{LAW}:s:84"]["penalties"][0]["kind"] == "administrative_fine"
    assert (
        found[f"{LAW}:s:79"]["path"] == "มาตรา ๒๖ <-[REFERENCES]- มาตรา ๒๗ <-[PENALIZES]- มาตรา ๗๙"
    )


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/v1/laws/no-such-law/summary", 404),
        ("/v1/laws/no-such-law/sections/26", 404),
        (f"/v1/laws/{LAW}/sections/999", 404),
        (f"/v1/laws/{LAW}/sections/999/related", 404),
        (f"/v1/laws/{LAW}/sections/999/penalties", 404),
        ("/v1/laws/th-health-2550/sections/7", 404),  # pending only: invisible
        (f"/v1/laws/{LAW}/sections/" + "9" * 60, 422),
        (f"/v1/laws/{LAW}/sections/%00", 422),
        ("/v1/nothing-here", 404),
        (f"/v1/laws/{LAW}/sections/abc", 404),
        (f"/v1/laws/{LAW}/sections/-", 404),
    ],
)
def test_lookups_answer_problems(client, path, status):
    r = client.get(path)
    assert r.status_code == status
    assert r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["status"] == status


def test_healthz_and_readyz(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json()["checks"] == {
        "graph": "ok", "vectors": "ok", "embedder": "ok",
    }  # fmt: skip


@pytest.mark.parametrize("which", [0, 1, 2])
def test_a_store_that_is_down_is_a_503_problem(client, stores, which):
    stores[which].down = True
    r = client.post("/v1/search", json={"query": QUESTION})
    assert r.status_code == 503 and r.headers["content-type"].startswith(PROBLEM)
    assert r.headers["retry-after"]
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.headers["content-type"].startswith(PROBLEM)


def test_a_store_that_hangs_is_a_503_within_the_deadline(client, stores):
    graph = stores[0]
    original = graph.run_read

    def slow(name, **params):
        time.sleep(1.5)
        return original(name, **params)

    graph.run_read = slow
    started = time.perf_counter()
    r = client.get(f"/v1/laws/{LAW}/sections/26")
    assert r.status_code == 503 and "did not answer within" in r.json()["detail"]
    assert time.perf_counter() - started < 1.2


def test_unexpected_errors_are_a_500_problem_without_traceback(client, stores):
    def boom(name, **params):
        raise RuntimeError("secret internals")

    stores[0].run_read = boom
    r = client.get("/v1/laws")
    assert r.status_code == 500 and r.headers["content-type"].startswith(PROBLEM)
    assert "secret" not in r.text and "Traceback" not in r.text


def test_openapi_documents_the_routes_and_problems(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/v1/search", "/v1/laws", "/v1/laws/{law}/summary",
                 "/v1/laws/{law}/sections/{section}", "/healthz", "/readyz"):  # fmt: skip
        assert path in paths
    assert "application/problem+json" in paths["/v1/search"]["post"]["responses"]["422"]["content"]


# --- issue 21: every input gets a 4xx -----------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/search", "/v1/jobs/ingest"])
def test_a_50000_deep_body_is_a_400_and_the_connection_keeps_working(client, path):
    deep = b"[" * 50_000 + b"]" * 50_000
    r = client.post(path, content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM)
    assert "deeper than 32 levels" in r.json()["detail"]
    assert client.post("/v1/search", json={"query": QUESTION}).status_code == 200


def test_brackets_inside_strings_do_not_count_as_nesting(client):
    r = client.post("/v1/search", json={"query": "[" * 5000 + " มาตรา ๒๖"})
    assert r.status_code in (200, 422), r.text  # whatever the core says, not the depth check
    assert "deeper" not in r.text


def test_a_body_over_the_size_limit_is_413_before_it_is_parsed(stores, tmp_path):
    graph, vectors, embedder = stores
    settings = Settings(data_dir=tmp_path, max_json_body_bytes=1000)
    app = create_app(settings, clients=Clients(graph, vectors, embedder, settings))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/v1/search", json={"query": "x" * 2000})
        assert r.status_code == 413 and r.headers["content-type"].startswith(PROBLEM)
        assert "1000 bytes" in r.json()["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": "\ud800 มาตรา ๒๖"}, "query"),
        ({"query": QUESTION, "laws": ["th-\udfff"]}, "laws.0"),
        ({"query": QUESTION, "max_hops": False}, "max_hops"),
        ({"query": QUESTION, "max_hops": 1.5}, "max_hops"),
        ({"query": QUESTION, "max_hops": "1"}, "max_hops"),
        ({"query": QUESTION, "top_k": True}, "top_k"),
        ({"query": QUESTION, "laws": [""]}, "laws.0"),
    ],
)
def test_lone_surrogates_and_non_integers_are_422_naming_the_field(client, body, field):
    import json

    raw = json.dumps(body).encode()  # ensure_ascii: the surrogate travels as \\ud800
    r = client.post("/v1/search", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert field in [e["field"] for e in r.json()["errors"]]


def test_the_search_bound_answers_429_with_retry_after(stores, tmp_path):
    import threading

    graph, vectors, embedder = stores
    settings = Settings(
        data_dir=tmp_path, search_concurrency=1, search_queue=0, search_queue_wait_s=0
    )
    app = create_app(settings, clients=Clients(graph, vectors, embedder, settings))
    gate, entered = threading.Event(), threading.Event()
    original = embedder.embed_query

    def slow(text):
        entered.set()
        gate.wait(5)
        return original(text)

    embedder.embed_query = slow
    with TestClient(app, raise_server_exceptions=False) as c:
        first: dict[str, int] = {}
        t = threading.Thread(
            target=lambda: first.setdefault(
                "status", c.post("/v1/search", json={"query": QUESTION}).status_code
            )
        )
        t.start()
        assert entered.wait(5)
        r = c.post("/v1/search", json={"query": QUESTION})
        gate.set()
        t.join(10)
        assert r.status_code == 429 and r.headers["content-type"].startswith(PROBLEM)
        assert r.headers["retry-after"] == "1" and r.json()["status"] == 429
        assert first["status"] == 200


def test_openapi_declares_every_problem_answer(client):
    spec = client.get("/openapi.json").json()
    declared = {
        (path, method): set(op["responses"]) for path, ops in spec["paths"].items()
        for method, op in ops.items()
    }  # fmt: skip
    assert {"400", "404", "413", "422", "429", "503"} <= declared[("/v1/search", "post")]
    assert {"400", "403", "413", "422", "503"} <= declared[("/v1/jobs/ingest", "post")]
    assert {"404", "409", "503"} <= declared[("/v1/jobs/{job_id}/retry", "post")]
    for (path, method), statuses in declared.items():
        for status in {s for s in statuses if not s.startswith("2")}:
            content = spec["paths"][path][method]["responses"][status]["content"]
            assert list(content) == [PROBLEM], (path, method, status)
    body = spec["paths"]["/v1/jobs/ingest"]["post"]["requestBody"]["content"]
    assert {"application/json", "multipart/form-data"} == set(body)
    retry_after = spec["paths"]["/v1/search"]["post"]["responses"]["429"]["headers"]
    assert "Retry-After" in retry_after


def test_405_names_every_method_of_the_path(client):
    r = client.request("OPTIONS", "/v1/jobs/" + "a" * 32)
    assert r.status_code == 405 and r.headers["content-type"].startswith(PROBLEM)
    assert r.headers["allow"] == "DELETE, GET"  # not POST: that is .../cancel, .../retry
    assert client.put("/v1/search", json={}).headers["allow"] == "POST"
    # the collection's own paths are not "the job called ingest"
    assert client.request("OPTIONS", "/v1/jobs/ingest").headers["allow"] == "POST"
    assert client.delete("/v1/jobs/deadletter").headers["allow"] == "GET"


def test_integral_numbers_are_integers(client):
    r = client.post("/v1/search", json={"query": QUESTION, "max_hops": 1.0, "top_k": 5.0})
    assert r.status_code == 200, r.text
