"""`lexgraph ingest --async`: upload (or name server paths), draw progress until final,
wait for an API that goes away and follow the job again, Ctrl-C detaches.

The transport is httpx's mock; tests/integration/test_async_cli.py does the same against
a real API process that is restarted while the job runs."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

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


def _corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    (folder / "a.json").write_text('{"a": 1}', encoding="utf-8")
    (folder / "sub" / "b.md").write_text("# b", encoding="utf-8")
    (folder / "notes.pdf").write_bytes(b"%PDF")
    return folder


def _transport(
    states: list[dict[str, Any]],
    *,
    on_get: Callable[[], None] | None = None,
    posts: list[httpx.Request] | None = None,
    failures: list[Any] | None = None,
) -> httpx.MockTransport:
    """Answers POST with 202 and GET with the next state. `failures` are served first,
    one per request: an exception to raise or a status to answer."""

    def handle(request: httpx.Request) -> httpx.Response:
        if failures:
            failure = failures.pop(0)
            if isinstance(failure, Exception):
                raise failure
            return httpx.Response(failure, json={"detail": "restarting"})
        if request.method == "POST":
            assert request.url.path == "/v1/jobs/ingest"
            request.read()
            if posts is not None:
                posts.append(request)
            return httpx.Response(202, json=_job("queued", 0), headers={"Location": "/v1/jobs/j1"})
        if on_get:
            on_get()
        return httpx.Response(200, json=states.pop(0) if len(states) > 1 else states[0])

    return httpx.MockTransport(handle)


def test_async_ingest_uploads_the_folders_files_and_follows_the_job(tmp_path: Path) -> None:
    out = io.StringIO()
    posts: list[httpx.Request] = []
    states = [_job("running", 1), _job("succeeded", 2)]
    code = submit_and_follow(
        [_corpus(tmp_path)], Settings(), poll_s=0, out=out,
        transport=_transport(states, posts=posts),
    )  # fmt: skip
    assert code == 0
    text = out.getvalue()
    assert "1/2 laws, 5/10 sections, running, ETA 3 s" in text
    assert "job j1 succeeded: 2 laws done" in text
    body = posts[0].content
    assert posts[0].headers["content-type"].startswith("multipart/form-data")
    assert b'filename="a.json"' in body and b'filename="b.md"' in body
    assert b"notes.pdf" not in body  # not a source file


def test_server_paths_are_sent_as_they_are_and_nothing_is_read_here(tmp_path: Path) -> None:
    posts: list[httpx.Request] = []
    code = submit_and_follow(
        [Path("nitibench/ก0028-1B-0001.json")], Settings(), server_paths=True, poll_s=0,
        out=io.StringIO(), transport=_transport([_job("succeeded", 2)], posts=posts),
    )  # fmt: skip
    assert code == 0
    assert json.loads(posts[0].content) == {"paths": ["nitibench/ก0028-1B-0001.json"]}


def test_an_api_that_restarts_is_waited_for_and_the_job_followed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("services.jobs_client.time.sleep", lambda s: None)
    out = io.StringIO()
    script: list[Any] = [
        httpx.ConnectError("refused"), 503, "post",  # the submission, retried twice
        _job("running", 1),
        httpx.ReadError("reset"), 502, httpx.ConnectError("refused"),  # the API restarts
        _job("running", 1), _job("succeeded", 2),
    ]  # fmt: skip
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        step = script.pop(0)
        if isinstance(step, Exception):
            raise step
        if isinstance(step, int):
            return httpx.Response(step, json={"detail": "restarting"})
        if step == "post":
            assert request.method == "POST"
            return httpx.Response(202, json=_job("queued", 0), headers={"Location": "/v1/jobs/j1"})
        assert request.method == "GET" and request.url.path == "/v1/jobs/j1"
        return httpx.Response(200, json=step)

    code = submit_and_follow(
        [_corpus(tmp_path)], Settings(), poll_s=0, out=out, transport=httpx.MockTransport(handle)
    )
    text = out.getvalue()
    assert code == 0, text
    assert seen == ["POST"] * 3 + ["GET"] * 6 and not script
    assert "does not answer (ConnectError: refused); waiting for it" in text
    assert "does not answer (ReadError: reset); waiting for it" in text
    assert text.count("answers again") == 2 and "job j1 succeeded" in text


def test_an_api_that_stays_away_detaches_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("services.jobs_client.time.sleep", lambda s: None)
    out = io.StringIO()
    failures: list[Any] = [httpx.ConnectError("refused")] * 1000
    code = submit_and_follow(
        [_corpus(tmp_path)], Settings(), poll_s=0, wait_api_s=0, out=out,
        transport=_transport([_job("running", 1)], failures=failures),
    )  # fmt: skip
    assert code == 1
    assert "has not answered for 0 s" in out.getvalue() and "nothing was submitted" in out.getvalue()


def test_ctrl_c_detaches_and_leaves_the_job_running(tmp_path: Path) -> None:
    out = io.StringIO()

    def interrupt() -> None:
        raise KeyboardInterrupt

    code = submit_and_follow(
        [_corpus(tmp_path)],
        Settings(),
        poll_s=0,
        out=out,
        transport=_transport([_job("running", 1)], on_get=interrupt),
    )
    assert code == DETACHED
    assert "detached; job j1 keeps running" in out.getvalue()


def test_an_upload_over_the_limit_says_what_to_do_instead(tmp_path: Path) -> None:
    out = io.StringIO()

    def too_large(request: httpx.Request) -> httpx.Response:
        return httpx.Response(413, json={"detail": "uploads are limited to 10 bytes in all"})

    code = submit_and_follow(
        [_corpus(tmp_path)], Settings(), out=out, transport=httpx.MockTransport(too_large)
    )
    assert code == 1
    assert "413: uploads are limited" in out.getvalue() and "--server-paths" in out.getvalue()
