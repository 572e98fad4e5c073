"""`lexgraph stack up|status|down` manage a local Neo4j server under the data dir: one
server per data dir, its data kept across restarts, Neo4j Browser and lexgraph's guide
served on its HTTP port, and a clean stop on SIGTERM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from neo4j import GraphDatabase

from services.core.neo4j_local import MAIN_CLASS, free_port

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "stack-test-password"  # noqa: S105 - throwaway server


def _stack(action: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "stack", action, "--json"],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=240,
                          check=False)


def _run(uri: str, query: str) -> list[dict[str, object]]:
    with GraphDatabase.driver(uri, auth=("neo4j", PASSWORD)) as driver:
        records, _, _ = driver.execute_query(query, database_="statutes")
    return [r.data() for r in records]


def test_stack_up_status_down_keeps_data(tmp_path: Path) -> None:
    http_port, bolt_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
    env.update(LEXGRAPH_DATA_DIR=str(tmp_path), LEXGRAPH_NEO4J_HTTP_PORT=str(http_port),
               LEXGRAPH_GRAPH_URI=f"bolt://127.0.0.1:{bolt_port}",
               LEXGRAPH_GRAPH_PASSWORD=PASSWORD, LEXGRAPH_NEO4J_HEAP_MB="512",
               LEXGRAPH_NEO4J_PAGECACHE="64m")  # fmt: skip
    uri = f"bolt://127.0.0.1:{bolt_port}"
    pid = 0
    try:
        up = _stack("up", env)
        assert up.returncode == 0, up.stderr
        state = json.loads(up.stdout)
        assert state["running"] and state["ready"]
        pid = int((tmp_path / "neo4j.pid").read_text())
        assert pid == state["pid"]
        assert state["browser_url"] == f"http://127.0.0.1:{http_port}/browser/"
        again = _stack("up", env)  # already running: no second server
        assert again.returncode == 0 and json.loads(again.stdout)["pid"] == pid
        status = json.loads(_stack("status", env).stdout)
        assert status["ready"] and status["pid"] == pid
        assert httpx.get(state["browser_url"], timeout=10).status_code == 200
        guide = httpx.get(f"{state['browser_url']}lexgraph/pdpa-guide.html", timeout=10)
        assert guide.status_code == 200 and "MATCH (l:Law)" in guide.text
        _run(uri, "CREATE (:Probe {name: 'kept'})")
    finally:
        down = _stack("down", env)
    assert down.returncode == 0
    assert not Path(f"/proc/{pid}").exists() or MAIN_CLASS.encode() not in Path(
        f"/proc/{pid}/cmdline").read_bytes()
    assert not (tmp_path / "neo4j.pid").exists()
    assert json.loads(_stack("status", env).stdout)["running"] is False
    assert "Stopped." in (tmp_path / "neo4j.log").read_text(errors="replace")  # clean stop

    try:
        assert _stack("up", env).returncode == 0
        assert _run(uri, "MATCH (p:Probe) RETURN p.name AS name") == [{"name": "kept"}]
    finally:
        assert _stack("down", env).returncode == 0
