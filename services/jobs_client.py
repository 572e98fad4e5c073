"""`lexgraph ingest --async`: submit a bulk ingestion job to the API and follow it.

The files are uploaded (folders expand here, recursively, to their source files), so any
API can take them, on this machine or another; with `--server-paths` the arguments are
instead paths on the server under one of its source roots (LEXGRAPH_SOURCE_ROOTS) and
nothing is uploaded, the way to submit a corpus larger than the API's upload limit.

The job runs in the workers, not here: this only polls `GET /v1/jobs/{id}` and draws a
progress bar on stderr. An API that stops answering (restarting, a proxy in between
answering 502/503/504) is waited for, for up to `wait_api_s`, then the job is followed
again from where it is: the job lives in Redis and the workers keep going meanwhile. A
submission is retried only when it cannot have reached the API (no connection) or the API
answered that it could not take it (503). Ctrl-C detaches (the job keeps running; the
command prints how to look at it again). Exit codes: 0 succeeded, 1 failed or cancelled
(or the API refused the submission), 3 detached (also when the API stayed away).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

import httpx

from services.core.settings import Settings

DETACHED = 3
_FINAL = ("succeeded", "failed", "cancelled")
_BAR = 30
_UNAVAILABLE = (502, 503, 504)  # the API (or the proxy before it) is not there right now


class _ApiAway(Exception):
    """The API did not answer (or answered that it cannot) for longer than we wait."""


class _ApiRefused(Exception):
    """The API answered the job's address with an error that waiting will not mend."""


def api_base(settings: Settings, override: str | None = None) -> str:
    return (override or f"http://{settings.api_host}:{settings.api_port}").rstrip("/")


def submit_and_follow(
    sources: Sequence[Path],
    settings: Settings,
    *,
    api_url: str | None = None,
    api_key: str | None = None,
    server_paths: bool = False,
    valid_from: str | None = None,
    poll_s: float = 1.0,
    wait_api_s: float = 300.0,
    out: TextIO = sys.stderr,
    transport: httpx.BaseTransport | None = None,
) -> int:
    base = api_base(settings, api_url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    with httpx.Client(base_url=base, headers=headers, timeout=30.0, transport=transport) as client:
        waiter = _Waiter(base, wait_api_s, poll_s, out)
        try:
            response = _submit(client, sources, server_paths, waiter, valid_from)
        except _ApiAway as e:
            print(f"lexgraph: {e}; nothing was submitted", file=out)
            return 1
        if response.status_code != 202:
            print(f"lexgraph: {base} answered {response.status_code}: {_detail(response)}",
                  file=out)  # fmt: skip
            if response.status_code == 413 and not server_paths:
                print("lexgraph: put the files under one of the API's source roots "
                      "(LEXGRAPH_SOURCE_ROOTS) and pass --server-paths", file=out)  # fmt: skip
            return 1
        job_id = response.json()["id"]
        location = response.headers.get("location", f"/v1/jobs/{job_id}")
        print(f"job {job_id} submitted ({base}{location})", file=out)
        try:
            job = _follow(client, location, waiter)
        except KeyboardInterrupt:
            print(f"\ndetached; job {job_id} keeps running: GET {base}{location}", file=out)
            return DETACHED
        except _ApiAway as e:
            print(f"\nlexgraph: {e}; job {job_id} keeps running: GET {base}{location}",
                  file=out)  # fmt: skip
            return DETACHED
        except _ApiRefused as e:
            print(f"\nlexgraph: {e}", file=out)
            return 1
    _summary(job, out)
    return 0 if job["state"] == "succeeded" else 1


class _Waiter:
    """Retries while the API is away, for at most `wait_api_s` in one stretch."""

    def __init__(self, base: str, wait_api_s: float, poll_s: float, out: TextIO) -> None:
        self.base, self.wait_api_s, self.poll_s, self.out = base, wait_api_s, poll_s, out
        self._away_since: float | None = None
        self._delay = 0.5

    def away(self, why: str) -> None:
        """Note one failed attempt and sleep before the next; _ApiAway past the limit."""
        now = time.monotonic()
        if self._away_since is None:
            self._away_since = now
            print(f"\nthe API at {self.base} does not answer ({why}); waiting for it",
                  file=self.out)  # fmt: skip
        elif now - self._away_since > self.wait_api_s:
            raise _ApiAway(f"the API at {self.base} has not answered for "
                           f"{self.wait_api_s:.0f} s ({why})")  # fmt: skip
        time.sleep(self._delay)
        self._delay = min(self._delay * 2, 5.0)

    def back(self) -> None:
        if self._away_since is not None:
            print(f"the API at {self.base} answers again", file=self.out)
        self._away_since, self._delay = None, 0.5


def _submit(
    client: httpx.Client,
    sources: Sequence[Path],
    server_paths: bool,
    waiter: _Waiter,
    valid_from: str | None = None,
) -> httpx.Response:
    day = {"valid_from": valid_from} if valid_from else {}
    while True:
        try:
            if server_paths:
                body = {"paths": [str(p) for p in sources], **day}
                response = client.post("/v1/jobs/ingest", json=body)
            else:
                with _upload_parts(sources) as files:
                    response = client.post(
                        "/v1/jobs/ingest", files=files, data=day, timeout=300.0
                    )
        except httpx.ConnectError as e:  # never reached the API: safe to send again
            waiter.away(f"{type(e).__name__}: {e}")
            continue
        if response.status_code == 503:  # the API could not take it (no job store yet)
            waiter.away(f"503: {_detail(response)}")
            continue
        waiter.back()
        return response


@contextlib.contextmanager
def _upload_parts(sources: Sequence[Path]) -> Iterator[list[tuple[str, tuple[str, IO[bytes]]]]]:
    from services.core.bulk import expand_sources

    files = expand_sources([str(p) for p in sources])
    if not files:
        raise FileNotFoundError(f"no source files in {', '.join(map(str, sources))}")
    with contextlib.ExitStack() as stack:
        yield [("files", (Path(f).name, stack.enter_context(Path(f).open("rb")))) for f in files]


def _follow(client: httpx.Client, location: str, waiter: _Waiter) -> dict[str, Any]:
    while True:
        try:
            response = client.get(location)
        except httpx.TransportError as e:  # reads are safe to repeat: re-attach when back
            waiter.away(f"{type(e).__name__}: {e}")
            continue
        if response.status_code in _UNAVAILABLE:
            waiter.away(f"{response.status_code}: {_detail(response)}")
            continue
        waiter.back()
        if response.status_code != 200:
            raise _ApiRefused(f"GET {location} answered {response.status_code}: "
                              f"{_detail(response)}")  # fmt: skip
        job: dict[str, Any] = response.json()
        _draw(job, waiter.out)
        if job["state"] in _FINAL:
            print(file=waiter.out)
            return job
        time.sleep(waiter.poll_s)


def _detail(response: httpx.Response) -> str:
    try:
        return str(response.json().get("detail", response.text))
    except ValueError:
        return response.text[:500]


def _draw(job: dict[str, Any], out: TextIO) -> None:
    laws, sections = job["laws"], job["sections"]
    settled = laws["done"] + laws["failed"] + laws["cancelled"]
    total = max(laws["total"], 1)
    filled = int(_BAR * settled / total) if laws["total"] else 0
    eta = f", ETA {job['eta_s']:.0f} s" if job.get("eta_s") is not None else ""
    line = (
        f"\r[{'#' * filled}{'.' * (_BAR - filled)}] {settled}/{laws['total']} laws, "
        f"{sections['done']}/{sections['total']} sections, {job['state']}{eta}   "
    )
    out.write(line)
    out.flush()


def _summary(job: dict[str, Any], out: TextIO) -> None:
    laws = job["laws"]
    print(
        f"job {job['id']} {job['state']}: {laws['done']} laws done "
        f"({laws['unchanged']} unchanged), {laws['failed']} failed, "
        f"{laws['cancelled']} cancelled",
        file=out,
    )
    for law_id, error in sorted(job.get("errors", {}).items()):
        print(f"lexgraph: {law_id}: {error}", file=out)
