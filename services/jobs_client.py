"""`lexgraph ingest --async`: submit a bulk ingestion job to the API and follow it.

The job runs in the workers, not here: this only polls `GET /v1/jobs/{id}` and draws a
progress bar on stderr. Ctrl-C detaches (the job keeps running; the command prints how to
look at it again). Exit codes: 0 succeeded, 1 failed or cancelled, 3 detached.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import httpx

from services.core.settings import Settings

DETACHED = 3
_FINAL = ("succeeded", "failed", "cancelled")
_BAR = 30


def api_base(settings: Settings, override: str | None = None) -> str:
    return (override or f"http://{settings.api_host}:{settings.api_port}").rstrip("/")


def submit_and_follow(
    sources: Sequence[Path],
    settings: Settings,
    *,
    api_url: str | None = None,
    api_key: str | None = None,
    poll_s: float = 1.0,
    out: TextIO = sys.stderr,
    transport: httpx.BaseTransport | None = None,
) -> int:
    base = api_base(settings, api_url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    with httpx.Client(base_url=base, headers=headers, timeout=30.0, transport=transport) as client:
        response = client.post(
            "/v1/jobs/ingest", json={"paths": [str(p.resolve()) for p in sources]}
        )
        if response.status_code != 202:
            print(f"lexgraph: {base} answered {response.status_code}: {response.text}", file=out)
            return 1
        job_id = response.json()["id"]
        location = response.headers.get("location", f"/v1/jobs/{job_id}")
        print(f"job {job_id} submitted ({base}{location})", file=out)
        try:
            job = _follow(client, location, poll_s, out)
        except KeyboardInterrupt:
            print(f"\ndetached; job {job_id} keeps running: GET {base}{location}", file=out)
            return DETACHED
    _summary(job, out)
    return 0 if job["state"] == "succeeded" else 1


def _follow(client: httpx.Client, location: str, poll_s: float, out: TextIO) -> dict[str, Any]:
    while True:
        job: dict[str, Any] = client.get(location).json()
        _draw(job, out)
        if job["state"] in _FINAL:
            print(file=out)
            return job
        time.sleep(poll_s)


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
