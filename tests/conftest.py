"""Shared fixtures. The integration tier runs against a REAL Neo4j 5.26 Community server
(deploy/neo4j-local, jars from the Maven registry) started here once per test session on
free 127.0.0.1 ports under a temp dir, and stopped by its pid at the end; tests never touch
a server they did not start (other Neo4j servers may run on this machine)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.core import neo4j_local
from services.core.graph_store import BoltGraphStore
from services.core.neo4j_local import LocalNeo4j, free_port
from services.core.settings import Settings
from tests.live_stack import empty_store

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
LAUNCHER = REPO / "deploy" / "neo4j-local"


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalNeo4j]:
    """A running Neo4j server (Bolt + HTTP/Browser) of this test session: `.bolt_uri`,
    `.user`, `.password`, `.database`, `.data_dir`, `.http_port`. The launcher's jars are
    built first when missing (`lexgraph stack build`; ./test.sh does it up front)."""
    server = LocalNeo4j(
        data_dir=tmp_path_factory.mktemp("neo4j"),
        launcher_dir=LAUNCHER,
        bolt_port=free_port(),
        http_port=free_port(),
        password="lexgraph-test",  # noqa: S106 - throwaway local server
        heap_mb=768,
        pagecache="128m",
    )
    neo4j_local.start(server)
    try:
        yield server
    finally:
        neo4j_local.stop(server)


@pytest.fixture(scope="session")
def graph_settings(neo4j_server: LocalNeo4j) -> Settings:
    """Settings pointing at the session's Neo4j server (which the tests manage)."""
    return Settings(
        data_dir=neo4j_server.data_dir,
        graph_backend="neo4j",
        graph_uri=neo4j_server.bolt_uri,
        graph_user=neo4j_server.user,
        graph_password=neo4j_server.password,  # type: ignore[arg-type]
        graph_database=neo4j_server.database,
        neo4j_http_port=neo4j_server.http_port,
        graph_manage_local=False,
    )


@pytest.fixture
def graph_store(neo4j_server: LocalNeo4j) -> Iterator[BoltGraphStore]:
    """A store on an empty database (everything a previous test wrote is deleted)."""
    store = empty_store(neo4j_server)
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
