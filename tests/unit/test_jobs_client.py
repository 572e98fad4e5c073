"""`lexgraph ingest --async`: submit, draw progress until final, Ctrl-C detaches."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx

from services.core.settings import Settings
from services.jobs_client import DETACHED, submit_and_follow


def _job(state: str, done: int) -> dict[str, Any]:
    return {
        "id": "j1",
        "state": state,
        "eta_s": 3.0 if state == "running" else None,
        "laws": {"total": 2, "done": done, "unchanged": 0, "failed": 0, "cancelled": 0},
        "sections": {"total": 10, "done": 5 * done},
        "errors": {},
    }


def _transport(states: list[dict[str, Any]], on_get: Any = None) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            assert request.url.path == "/v1/jobs/ingest"
            return httpx.Response(202, json=_job("queued", 0), headers={"Location": "/v1/jobs/j1"})
        if on_get:
            on_get()
        return httpx.Response(200, json=states.pop(0) if len(states) > 1 else states[0])

    return httpx.MockTransport(handle)


def test_async_ingest_follows_the_job_to_the_end(tmp_path: Path) -> None:
    out = io.StringIO()
    states = [_job("running", 1), _job("succeeded", 2)]
    code = submit_and_follow(
        [tmp_path], Settings(), poll_s=0, out=out, transport=_transport(states)
    )
    assert code == 0
    text = out.getvalue()
    assert "1/2 laws, 5/10 sections, running, ETA 3 s" in text
    assert "job j1 succeeded: 2 laws done" in text


def test_ctrl_c_detaches_and_leaves_the_job_running(tmp_path: Path) -> None:
    out = io.StringIO()

    def interrupt() -> None:
        raise KeyboardInterrupt

    code = submit_and_follow(
        [tmp_path],
        Settings(),
        poll_s=0,
        out=out,
        transport=_transport([_job("running", 1)], on_get=interrupt),
    )
    assert code == DETACHED
    assert "detached; job j1 keeps running" in out.getvalue()
