"""Shared fixtures. The integration tier runs against a REAL ArcadeDB server (from the
`arcadedb-embedded` package) started here once per test session on free 127.0.0.1 ports
under a temp dir, and stopped by its pid at the end; tests never touch a server they did
not start (other ArcadeDB servers may run on this machine)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.core import arcadedb
from services.core.arcadedb import LocalArcadeDB, free_port
from services.core.graph_store import BoltGraphStore
from services.core.settings import Settings
from tests.live_stack import empty_store

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def arcadedb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalArcadeDB]:
    """A running ArcadeDB server (Bolt) of this test session: `.bolt_uri`, `.user`,
    `.password`, `.database`, `.data_dir`."""
    server = LocalArcadeDB(
        data_dir=tmp_path_factory.mktemp("arcadedb"),
        bolt_port=free_port(),
        http_port=free_port(),
        password="lexgraph-test",  # noqa: S106 - throwaway local server
        heap_mb=768,
    )
    arcadedb.start(server)
    try:
        yield server
    finally:
        arcadedb.stop(server)


@pytest.fixture(scope="session")
def graph_settings(arcadedb_server: LocalArcadeDB) -> Settings:
    """Settings pointing at the session's ArcadeDB server (which the tests manage)."""
    return Settings(
        data_dir=arcadedb_server.data_dir,
        graph_backend="arcadedb",
        graph_uri=arcadedb_server.bolt_uri,
        graph_user=arcadedb_server.user,
        graph_password=arcadedb_server.password,  # type: ignore[arg-type]
        graph_database=arcadedb_server.database,
        arcadedb_http_port=arcadedb_server.http_port,
        graph_manage_local=False,
    )


@pytest.fixture
def graph_store(arcadedb_server: LocalArcadeDB) -> Iterator[BoltGraphStore]:
    """A store on an empty database (everything a previous test wrote is deleted)."""
    store = empty_store(arcadedb_server)
    try:
        yield store
    finally:
        store.close()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite golden files from the current output")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A skipped test is not a passing test: every test here starts what it needs, so a
    skip (a missing server, package or data file) is reported as a failure with its reason."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, which counts as a failure: {reason}"
