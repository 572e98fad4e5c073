"""The bound on concurrent searches: at most `concurrency` run, `queue` wait, the rest get
Overloaded at once; a wait longer than `queue_wait_s` is Overloaded too; the store
deadline counts from when a search starts running."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from services.api.admission import SearchAdmission
from services.core.errors import Overloaded, StoreUnavailable


def _blocker(gate: threading.Event, running: list[int], peak: list[int]):  # type: ignore[no-untyped-def]
    lock = threading.Lock()

    def work() -> str:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        gate.wait(5)
        with lock:
            running[0] -= 1
        return "ok"

    return work


def test_runs_at_most_concurrency_queues_some_and_refuses_the_rest() -> None:
    async def scenario() -> list[object]:
        admission = SearchAdmission(concurrency=2, queue=3, queue_wait_s=5)
        gate, running, peak = threading.Event(), [0], [0]
        work = _blocker(gate, running, peak)
        tasks = [asyncio.create_task(admission.run(work, timeout_s=10)) for _ in range(8)]
        await asyncio.sleep(0.3)
        assert admission.running == 2 and admission.waiting == 3
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert peak[0] == 2
        assert admission.running == 0 and admission.waiting == 0
        admission.close()
        return results

    results = asyncio.run(scenario())
    assert results.count("ok") == 5
    refused = [r for r in results if isinstance(r, Overloaded)]
    assert len(refused) == 3 and all(r.retry_after_s == 1 for r in refused)


def test_a_wait_past_the_queue_limit_is_overloaded_not_a_timeout() -> None:
    async def scenario() -> None:
        admission = SearchAdmission(concurrency=1, queue=5, queue_wait_s=0.2)
        gate = threading.Event()
        first = asyncio.create_task(admission.run(lambda: gate.wait(5), timeout_s=10))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        with pytest.raises(Overloaded):
            await admission.run(lambda: "late", timeout_s=10)
        assert 0.15 < time.monotonic() - started < 1.0
        gate.set()
        assert await first is True
        # the slot came back: the next one runs at once
        assert await admission.run(lambda: "next", timeout_s=10) == "next"
        admission.close()

    asyncio.run(scenario())


def test_a_search_past_the_deadline_is_503_and_keeps_its_slot_until_it_returns() -> None:
    async def scenario() -> None:
        admission = SearchAdmission(concurrency=1, queue=0, queue_wait_s=0)
        gate = threading.Event()
        with pytest.raises(StoreUnavailable, match="did not answer within 0.1 s"):
            await admission.run(lambda: gate.wait(5), timeout_s=0.1)
        assert admission.running == 1  # the thread still runs: no second search yet
        with pytest.raises(Overloaded):
            await admission.run(lambda: "x", timeout_s=1)
        gate.set()
        await asyncio.sleep(0.1)
        assert admission.running == 0
        assert await admission.run(lambda: "x", timeout_s=1) == "x"
        admission.close()

    asyncio.run(scenario())


def test_a_cancelled_waiter_gives_its_place_back() -> None:
    async def scenario() -> None:
        admission = SearchAdmission(concurrency=1, queue=1, queue_wait_s=5)
        gate = threading.Event()
        first = asyncio.create_task(admission.run(lambda: gate.wait(5), timeout_s=10))
        await asyncio.sleep(0.05)
        waiter = asyncio.create_task(admission.run(lambda: "w", timeout_s=10))
        await asyncio.sleep(0.05)
        assert admission.waiting == 1
        waiter.cancel()
        await asyncio.sleep(0.05)
        assert admission.waiting == 0
        gate.set()
        await first
        await asyncio.sleep(0.05)
        assert admission.running == 0
        admission.close()

    asyncio.run(scenario())
