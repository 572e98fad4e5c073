"""A stage of the search pipeline: a name, the metric its time counts toward, and `run`."""

from __future__ import annotations

from typing import ClassVar

from services.core.retrieval.context import SearchContext


class Stage:
    """One named step. `optional` steps can be switched off by name
    (`Settings.retrieval.disabled`, `lexgraph eval --without NAME`), for ablations."""

    name: ClassVar[str]
    # The telemetry stage (services/core/telemetry.py) its time counts toward.
    metric: ClassVar[str] = "assembly"
    optional: ClassVar[bool] = False

    def run(self, ctx: SearchContext) -> None:
        raise NotImplementedError
