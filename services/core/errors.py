"""One exception root. Adapters translate driver errors into these; only the API's
problem handler maps them to HTTP (RFC 9457 problem+json)."""

from __future__ import annotations

from ingest.errors import InvalidSource

__all__ = [
    "ConfigurationError",
    "EmbedderUnavailable",
    "Forbidden",
    "GraphQueryError",
    "GraphUnavailable",
    "InvalidQuery",
    "InvalidSource",
    "LexgraphError",
    "NotFound",
    "Overloaded",
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


class Forbidden(LexgraphError):
    """A request for something the caller may not have (a server path outside every
    source root). The message never depends on whether the thing exists."""


class Overloaded(LexgraphError):
    """This process is already running and queueing as much as it may; come back after
    `retry_after_s` seconds."""

    def __init__(self, message: str, *, retry_after_s: int = 1) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ConfigurationError(LexgraphError):
    """Settings a process cannot start with; the message says which and what to do."""


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
