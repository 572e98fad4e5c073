"""A law's run retries store errors with back-off before it gives up (bulk._with_retries)."""

from __future__ import annotations

import pytest

from services.core.bulk import LAW_RETRY_DELAYS_S, _with_retries
from services.core.errors import GraphQueryError, GraphUnavailable, InvalidQuery
from services.core.publish import LawOutcome

OUTCOME = LawOutcome("law", "v1", "succeeded", 3)


def _flaky(errors: list[Exception]):  # type: ignore[no-untyped-def]
    calls = []

    def run() -> LawOutcome:
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return OUTCOME

    return run, calls


def test_a_transient_store_error_is_retried_with_back_off() -> None:
    run, calls = _flaky([GraphQueryError("BrokenChunkChainException"), GraphUnavailable("x")])
    slept: list[float] = []
    assert _with_retries(run, "law", sleep=slept.append) is OUTCOME
    assert len(calls) == 3 and slept == list(LAW_RETRY_DELAYS_S)


def test_a_store_error_that_persists_is_raised_after_the_last_attempt() -> None:
    run, calls = _flaky([GraphUnavailable(str(i)) for i in range(5)])
    slept: list[float] = []
    with pytest.raises(GraphUnavailable, match="2"):
        _with_retries(run, "law", sleep=slept.append)
    assert len(calls) == len(LAW_RETRY_DELAYS_S) + 1


def test_an_input_error_is_not_retried() -> None:
    run, calls = _flaky([InvalidQuery("law", "bad")])
    with pytest.raises(InvalidQuery):
        _with_retries(run, "law", sleep=lambda s: None)
    assert len(calls) == 1
