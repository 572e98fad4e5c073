"""`lexgraph stack up|status|down` manage a local ArcadeDB server under the data dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.core.arcadedb import free_port

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def _stack(action: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "stack", action, "--json"],
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False)


def test_stack_up_status_down(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEXGRAPH_")}
    env.update(LEXGRAPH_DATA_DIR=str(tmp_path), LEXGRAPH_ARCADEDB_HTTP_PORT=str(free_port()),
               LEXGRAPH_GRAPH_URI=f"bolt://127.0.0.1:{free_port()}",
               LEXGRAPH_GRAPH_PASSWORD="stack-test-password")  # noqa: S106 - throwaway server
    try:
        up = _stack("up", env)
        assert up.returncode == 0, up.stderr
        state = json.loads(up.stdout)
        assert state["running"] and state["ready"]
        pid = int((tmp_path / "arcadedb.pid").read_text())
        assert pid == state["pid"]
        again = _stack("up", env)  # already running: no second server
        assert again.returncode == 0 and json.loads(again.stdout)["pid"] == pid
        status = json.loads(_stack("status", env).stdout)
        assert status["ready"] and status["pid"] == pid
    finally:
        down = _stack("down", env)
    assert down.returncode == 0
    assert not Path(f"/proc/{pid}").exists() or b"ArcadeDBServer" not in Path(
        f"/proc/{pid}/cmdline").read_bytes()
    assert not (tmp_path / "arcadedb.pid").exists()
    assert json.loads(_stack("status", env).stdout)["running"] is False
