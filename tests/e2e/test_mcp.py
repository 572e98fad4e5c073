"""MCP end to end: the real API (uvicorn, the Dockerfile's command) on the ingested PDPA
(real Neo4j, embedded vectors, the offline embedder), reached with the MCP SDK's own
streamable HTTP client (initialize, list tools, call each tool), and the `curl` examples
of the README run verbatim through bash against it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from services.core.neo4j_local import LocalNeo4j, free_port
from tests.live_stack import (
    PDPA,
    REPO,
    empty_store,
    ingest_inline,
    stack_env,
    start_api,
    stop,
)

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

LAW = "th-pdpa-2562"
S = f"{LAW}:s:"
TOOLS = {
    "search", "get_section_text", "get_related_sections", "get_penalties", "get_section_history",
    "get_law_summary",
}  # fmt: skip
DOCS = REPO / "README.md"
DOC_BASE = "http://localhost:8080"


@pytest.fixture(scope="module")
def api_url(neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("mcp-stack")
    port = free_port()
    env = stack_env(root, neo4j_server, LEXGRAPH_API_PORT=str(port))
    empty_store(neo4j_server).close()
    ingest_inline(env, PDPA)
    proc = start_api(root, env, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


async def _session_calls(url: str, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with (
        httpx2.AsyncClient(timeout=60) as http,
        streamable_http_client(url + "/mcp", http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        out["init"] = await session.initialize()
        out["tools"] = await session.list_tools()
        out["calls"] = [await session.call_tool(name, args) for name, args in calls]
    return out


def _payload(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    payload = json.loads(result.content[0].text)
    assert payload == result.structured_content
    return payload


def test_sdk_client_initializes_lists_and_calls_every_tool(api_url: str) -> None:
    calls = [
        (
            "search",
            {
                "question": "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ตามมาตรา ๒๖ ถ้าผิดมีโทษอะไร",
                "jurisdictions": ["TH"],
            },
        ),
        ("get_related_sections", {"section": f"{S}26"}),
        ("get_penalties", {"section": f"{S}26"}),
        ("get_section_text", {"section": f"{S}84"}),
        ("get_section_history", {"section": f"{S}4"}),
        ("get_law_summary", {}),
        ("get_law_summary", {"law": LAW}),
    ]
    out = anyio.run(_session_calls, api_url, calls)

    assert out["init"].server_info.name == "lexgraph"
    assert "search" in (out["init"].instructions or "")
    tools = {t.name: t for t in out["tools"].tools}
    assert set(tools) == TOOLS
    assert "first" in (tools["search"].description or "")

    search, related, penalties, text, history, laws, summary = (_payload(r) for r in out["calls"])
    assert f"{S}26" in {s["key"] for s in search["sections"]}
    assert search["index_versions"].get(LAW)
    assert f"{S}84" in json.dumps(search, ensure_ascii=False)

    assert f"{S}84" in {link["key"] for link in related["incoming"].get("PENALIZES", [])}

    found = {p["key"] for p in penalties["penalty_sections"]}
    assert {f"{S}84", f"{S}79"} <= found
    assert penalties["penalties_found"] == len(found)

    assert text["label"] == "มาตรา ๘๔"
    assert "มาตรา ๒๖" in text["text"]  # s.84 names the section it punishes
    assert text["cite_as"].startswith("มาตรา ๘๔ (th-pdpa-2562:s:84")

    assert search["as_of"] and text["as_of"] == search["as_of"]  # today, by default
    assert history["key"] == f"{S}4" and history["versions"][0]["published"] is True

    assert LAW in {law["law"] for law in laws["laws"]}
    assert summary["nodes"]["Section"] == 96


def test_unknown_section_is_a_tool_error_the_agent_can_act_on(api_url: str) -> None:
    out = anyio.run(_session_calls, api_url, [("get_section_text", {"section": f"{S}9999"})])
    result = out["calls"][0]
    assert result.is_error is True
    assert "th-pdpa-2562:s:26" in result.content[0].text


def _doc_curl_blocks() -> list[tuple[str, list[str]]]:
    blocks = re.findall(r"```bash\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)
    examples = []
    for block in blocks:
        if "/mcp" not in block or not block.lstrip().startswith("curl"):
            continue
        expected = [line[5:] for line in block.splitlines() if line.startswith("# -> ")]
        command = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        examples.append((command, expected))
    return examples


def test_docs_have_curl_examples_with_the_accept_header() -> None:
    examples = _doc_curl_blocks()
    assert len(examples) >= 3
    for command, expected in examples:
        assert "Accept: application/json, text/event-stream" in command
        assert expected, command


@pytest.mark.parametrize("example", range(3))
def test_docs_curl_example_runs_verbatim(api_url: str, example: int) -> None:
    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("curl and jq are needed to run the documented examples")
    command, expected = _doc_curl_blocks()[example]
    assert DOC_BASE in command
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command.replace(DOC_BASE, api_url)],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "API_KEY": "unused-in-development"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for line in expected:
        assert line in lines, (line, result.stdout)


def test_bare_curl_without_accept_header_gets_a_jsonrpc_answer_not_a_crash(api_url: str) -> None:
    r = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", api_url + "/mcp",
         "-H", "Content-Type: application/json",
         "-d", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert r.stdout in {"200", "406"}, r.stdout
