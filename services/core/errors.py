"""One exception root. Adapters translate driver errors into these; only the API's
problem handler maps them to HTTP (RFC 9457 problem+json)."""

from __future__ import annotations

from ingest.errors import InvalidSource

__all__ = [
    "EmbedderUnavailable",
    "GraphQueryError",
    "GraphUnavailable",
    "InvalidQuery",
    "InvalidSource",
    "LexgraphError",
    "NotFound",
    "StoreUnavailable",
    "VectorsUnavailable",
]


class LexgraphError(Exception):
    """Root of every error lexgraph raises on purpose."""


class NotFound(LexgraphError):
    """An unknown law, section or job."""


class InvalidQuery(LexgraphError):
    """A request the service will not run, with the field that was wrong."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class StoreUnavailable(LexgraphError):
    """A backing store (graph, vectors, queue) does not answer; worth retrying."""


class GraphUnavailable(StoreUnavailable):
    pass


class GraphQueryError(LexgraphError):
    """The graph database refused a statement (syntax, constraint, type); not worth
    retrying as is."""


class VectorsUnavailable(StoreUnavailable):
    pass


class EmbedderUnavailable(StoreUnavailable):
    pass
