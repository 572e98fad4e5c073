"""API keys, Prometheus metrics and the MCP endpoint of the app, over the fake stores
(the same surfaces run against real processes in tests/e2e and tests/integration)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from services.api.deps import Clients
from services.api.main import create_app
from services.core import telemetry
from services.core.errors import ConfigurationError
from services.core.settings import Settings
from tests.unit.retrieval_fakes import mini_pdpa

LAW = "th-pdpa-2562"
KEY = "test-key-7f3a"
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def _client(settings: Settings) -> TestClient:
    graph, vectors, embedder = mini_pdpa()
    app = create_app(settings, clients=Clients(graph, vectors, embedder, settings))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def prod(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        data_dir=tmp_path,
        environment="production",
        api_keys_sha256=[hashlib.sha256(KEY.encode()).hexdigest()],
    )
    with _client(settings) as c:
        yield c


@pytest.fixture
def dev(tmp_path: Path) -> Iterator[TestClient]:
    with _client(Settings(data_dir=tmp_path)) as c:
        yield c


def _rpc(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}


def _tool_result(response: Any) -> dict[str, Any]:
    body = response.json()
    assert "result" in body, body
    return body["result"]


# --- API keys ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", [f"/v1/laws/{LAW}/summary", "/v1/laws"])
def test_production_refuses_v1_without_a_key(prod: TestClient, path: str) -> None:
    r = prod.get(path)
    assert r.status_code == 401
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert r.json()["status"] == 401


def test_production_refuses_mcp_without_a_key(prod: TestClient) -> None:
    r = prod.post("/mcp", json=_rpc("tools/list"), headers=MCP_HEADERS)
    assert r.status_code == 401


@pytest.mark.parametrize(
    "headers", [{"Authorization": f"Bearer {KEY}"}, {"X-API-Key": KEY}], ids=["bearer", "x-api-key"]
)
def test_production_accepts_a_valid_key(prod: TestClient, headers: dict[str, str]) -> None:
    assert prod.get(f"/v1/laws/{LAW}/summary", headers=headers).status_code == 200
    r = prod.post("/mcp", json=_rpc("tools/list"), headers={**MCP_HEADERS, **headers})
    assert r.status_code == 200


def test_production_refuses_a_wrong_key(prod: TestClient) -> None:
    r = prod.get("/v1/laws", headers={"Authorization": "Bearer not-the-key"})
    assert r.status_code == 401


@pytest.mark.parametrize("path", ["/healthz", "/metrics"])
def test_ops_endpoints_stay_open(prod: TestClient, path: str) -> None:
    assert prod.get(path).status_code == 200


def test_ops_endpoints_can_require_a_key(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        environment="production",
        api_keys_sha256=[hashlib.sha256(KEY.encode()).hexdigest()],
        open_ops_endpoints=False,
    )
    with _client(settings) as c:
        assert c.get("/metrics").status_code == 401
        assert c.get("/metrics", headers={"X-API-Key": KEY}).status_code == 200


def test_production_without_any_key_hash_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="LEXGRAPH_API_KEYS_SHA256"):
        _client(Settings(data_dir=tmp_path, environment="production"))


def test_development_needs_no_key(dev: TestClient) -> None:
    assert dev.get(f"/v1/laws/{LAW}/summary").status_code == 200


# --- metrics ----------------------------------------------------------------------------


def _sample(text: str, name: str, **labels: str) -> float | None:
    for line in text.splitlines():
        if not line.startswith(name + "{") and line.split(" ")[0] != name:
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_requests_are_counted_by_route_template_and_status(dev: TestClient) -> None:
    dev.get(f"/v1/laws/{LAW}/summary")
    dev.get("/v1/laws/no-such-law/summary")
    dev.get("/no/such/path")
    text = dev.get("/metrics").text
    route = "/v1/laws/{law}/summary"
    assert _sample(text, "lexgraph_http_requests_total", route=route, status="200")
    assert _sample(text, "lexgraph_http_requests_total", route=route, status="404")
    assert _sample(text, "lexgraph_http_requests_total", route="unmatched", status="404")
    assert _sample(text, "lexgraph_http_request_duration_seconds_count", route=route)
    assert "/v1/laws/no-such-law" not in text  # raw paths never become labels
    assert _sample(text, "lexgraph_problems_total", type="https://lexgraph.dev/problems/not-found")


def test_search_records_stage_latencies_and_walk_width(dev: TestClient) -> None:
    before = {s: _stage_count(s) for s in telemetry.RETRIEVAL_STAGES}
    r = dev.post("/v1/search", json={"query": "เก็บข้อมูลสุขภาพได้ไหม มาตรา ๒๖ มีโทษอะไร"})
    assert r.status_code == 200, r.text
    for stage in telemetry.RETRIEVAL_STAGES:
        assert _stage_count(stage) == before[stage] + 1, stage
    text = dev.get("/metrics").text
    assert _sample(text, "lexgraph_retrieval_seeds_count")
    assert _sample(text, "lexgraph_retrieval_expanded_nodes_count")


def _stage_count(stage: str) -> float:
    return (
        REGISTRY.get_sample_value(
            "lexgraph_retrieval_stage_duration_seconds_count", {"stage": stage}
        )
        or 0.0
    )


def test_unknown_stage_name_is_refused() -> None:
    with pytest.raises(ValueError):
        telemetry.observe_stage("embeding", 0.001)


# --- MCP --------------------------------------------------------------------------------


def test_mcp_lists_the_six_tools_with_workflow_docstrings(dev: TestClient) -> None:
    r = dev.post("/mcp", json=_rpc("tools/list"), headers=MCP_HEADERS)
    assert r.status_code == 200, r.text
    tools = {t["name"]: t for t in _tool_result(r)["tools"]}
    assert set(tools) == {
        "search", "get_section_text", "get_related_sections", "get_penalties",
        "get_section_history", "get_law_summary",
    }  # fmt: skip
    assert "as_of" in tools["search"]["inputSchema"]["properties"]
    assert "first" in tools["search"]["description"]
    assert "before you cite" in tools["get_section_text"]["description"]
    assert "VIOLATED" in tools["get_penalties"]["description"]


def test_mcp_penalties_for_section_26_name_section_84(dev: TestClient) -> None:
    r = dev.post(
        "/mcp",
        json=_rpc("tools/call", {"name": "get_penalties", "arguments": {"section": f"{LAW}:s:26"}}),
        headers=MCP_HEADERS,
    )
    result = _tool_result(r)
    assert result["isError"] is False
    payload = json.loads(result["content"][0]["text"])
    assert f"{LAW}:s:84" in {p["key"] for p in payload["penalty_sections"]}


def test_mcp_unknown_section_is_a_tool_error_with_a_hint(dev: TestClient) -> None:
    r = dev.post(
        "/mcp",
        json=_rpc("tools/call", {"name": "get_section_text", "arguments": {"section": "26"}}),
        headers=MCP_HEADERS,
    )
    result = _tool_result(r)
    assert result["isError"] is True
    assert "th-pdpa-2562:s:26" in result["content"][0]["text"]
    text = dev.get("/metrics").text
    assert _sample(text, "lexgraph_mcp_tool_calls_total", tool="get_section_text", outcome="error")
