"""The Celery worker: its app (`celery_app`), tasks and metrics."""

from __future__ import annotations

import sys


def worker_command(loglevel: str = "INFO", name: str | None = None) -> list[str]:
    """The command line of one Celery worker of this app, run by this interpreter, as the
    tests and the ingest benchmark start it: prefork with two processes, without gossip and
    mingle (they only slow a worker's start on one machine). Production starts its workers
    from the Dockerfile."""
    command = [
        sys.executable, "-m", "celery", "-A", "services.worker.celery_app:app", "worker",
        "--pool", "prefork", "--concurrency", "2", "--loglevel", loglevel,
    ]  # fmt: skip
    if name:
        command += ["-n", name]
    return [*command, "--without-gossip", "--without-mingle"]
