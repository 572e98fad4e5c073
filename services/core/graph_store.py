"""`BoltGraphStore`: the graph port over Bolt with the `neo4j` driver, on Neo4j 5 (the
local server of services/core/neo4j_local.py, or a remote one in production).

Writes run in explicit transactions through `execute_write`, which retries transient
errors (deadlocks between concurrent workers' MERGEs) with back-off and rolls a failed
law load back whole.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import neo4j
from neo4j import GraphDatabase, ManagedTransaction, RoutingControl
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from ingest.export import (
    CypherStatement,
    export_statements,
    graph_version,
    schema_statements,
    transaction_groups,
)
from ingest.graph import LawGraph
from services.core.cypher import load_query
from services.core.errors import GraphQueryError, GraphUnavailable

log = logging.getLogger(__name__)

LOAD_KINDS = ("nodes", "edges")
# UNWIND rows per load transaction: ~100 sections of text or ~200 relationships a row
# batch, so 20,000 rows stay far below a server's transaction memory.
LOAD_TX_ROWS = 20_000


_SCHEMA_ALREADY_THERE = frozenset(
    {
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
        "Neo.ClientError.Schema.IndexAlreadyExists",
        "Neo.ClientError.Schema.ConstraintAlreadyExists",
    }
)


class BoltGraphStore:
    """A Neo4j-compatible graph database reached over Bolt (implements `ports.GraphStore`)."""

    def __init__(
        self,
        uri: str,
        *,
        user: str,
        password: str,
        database: str,
        timeout_s: float = 5.0,
        max_retry_s: float = 15.0,
    ) -> None:
        self.uri = uri
        self.database = database
        self._driver = GraphDatabase.driver(
            uri,
            auth=(user, password),
            connection_timeout=timeout_s,
            max_transaction_retry_time=max_retry_s,
            # Neo4j warns about property keys no node has yet (a first load's version
            # checks) on every such query; those are expected, not worth a log line each.
            notifications_min_severity="OFF",
        )

    # --- port ----------------------------------------------------------------------

    def apply_schema(self) -> None:
        """Constraints and indexes (IF NOT EXISTS), each on its own: schema changes may not
        share a transaction with each other or with data writes in Neo4j."""
        with self._session() as session:
            for statement in schema_statements():
                try:
                    session.run(statement.text).consume()
                except ClientError as e:
                    # IF NOT EXISTS is checked before the rule is made: two workers that
                    # create it at once fail the second, and the rule exists either way.
                    if e.code not in _SCHEMA_ALREADY_THERE:
                        raise

    def load_law(self, graph: LawGraph, version: str | None = None) -> str:
        """Every node and relationship of `graph` as `version` (default: a hash of the graph)
        by executing the exported statements, in transactions of at most LOAD_TX_ROWS
        rows; returns the version. Publishing the version is the caller's next step
        (services/core/publish.py), which checks the graph holds all of it first: until
        then the version is invisible, so it need not be loaded in one transaction (and
        100,000 sections in one exceeded Neo4j's 512 MiB transaction memory)."""
        version = version or graph_version(graph)
        statements = [
            s for s in export_statements(graph, version, parameters=True) if s.kind in LOAD_KINDS
        ]
        started = time.perf_counter()
        for group in transaction_groups(statements, LOAD_TX_ROWS):
            self.execute(group)
        log.info(
            "loaded %s@%s: %d statements in %.2f s",
            graph.law_id,
            version,
            len(statements),
            time.perf_counter() - started,
        )
        return version

    def execute(self, statements: Sequence[CypherStatement]) -> None:
        """Data statements in one explicit write transaction (all or nothing)."""

        def work(tx: ManagedTransaction) -> None:
            for statement in statements:
                tx.run(statement.text, dict(statement.params or {})).consume()

        with self._session() as session:
            session.execute_write(work)

    def run_read(self, query_name: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(load_query(query_name), params, RoutingControl.READ)

    def run_write(self, query_name: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(load_query(query_name), params, RoutingControl.WRITE)

    def run_cypher(self, text: str, *, write: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Ad-hoc Cypher, for tests and operator tools; application code names catalog
        queries (`run_read`/`run_write`)."""
        return self._run(text, params, RoutingControl.WRITE if write else RoutingControl.READ)

    def counts(self, law_id: str | None = None) -> dict[str, dict[str, int]]:
        nodes = self.run_read("graph_node_counts", law=law_id)
        edges = self.run_read("graph_edge_counts", law=law_id)
        return {
            "nodes": dict(sorted((r["label"], int(r["count"])) for r in nodes if r["label"])),
            "edges": dict(sorted((r["type"], int(r["count"])) for r in edges)),
        }

    def ping(self) -> str:
        """The server's product and version ("Neo4j Kernel 5.26.30 community"); raises
        when it does not answer."""
        rows = self.run_read("ping")
        return " ".join(str(rows[0][k]) for k in ("name", "version", "edition")) if rows else ""

    def close(self) -> None:
        self._driver.close()

    # --- helpers -------------------------------------------------------------------

    def _run(
        self, query: str, params: dict[str, Any], routing: RoutingControl
    ) -> list[dict[str, Any]]:
        with _translated_errors(self.uri):
            records, _, _ = self._driver.execute_query(
                query, params, database_=self.database, routing_=routing
            )
        return [r.data() for r in records]

    @contextmanager
    def _session(self) -> Iterator[neo4j.Session]:
        with _translated_errors(self.uri), self._driver.session(database=self.database) as s:
            yield s


@contextmanager
def _translated_errors(uri: str) -> Iterator[None]:
    try:
        yield
    except (ServiceUnavailable, SessionExpired, TransientError, AuthError) as e:
        raise GraphUnavailable(f"graph database at {uri}: {e}") from e
    except (ClientError, Neo4jError) as e:
        raise GraphQueryError(f"graph database at {uri} refused a statement: {e}") from e
    except DriverError as e:
        raise GraphUnavailable(f"graph database at {uri}: {e}") from e
