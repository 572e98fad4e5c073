"""A bound on the searches one API process runs at once, with a short queue.

A search is CPU work in Python (question analysis, ranking) around calls that release the
GIL only in part (the Bolt driver, qdrant-edge, the embedder), so past a few at once they
only slow each other down: 50 clients on the 2-core machine pushed every search past the
2 s store deadline and 83% of the answers were 503 "the index did not answer" while the
stores were fine (issue 21). Here at most `concurrency` searches run, each on a thread of
this admission's own pool (sized to match, so a running search never waits for a thread);
up to `queue` more wait, each for at most `queue_wait_s`; any other is refused at once
with `Overloaded` (429 with Retry-After). The store deadline starts when a search starts
running, so a store that really does not answer is still a 503.

A search that outlives its deadline keeps its slot until its thread returns (a driver call
cannot be interrupted safely): the bound counts what really runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from services.api import metrics
from services.core.errors import Overloaded, StoreUnavailable

T = TypeVar("T")


class SearchAdmission:
    def __init__(
        self,
        *,
        concurrency: int,
        queue: int,
        queue_wait_s: float,
        retry_after_s: int = 1,
    ) -> None:
        self.concurrency = concurrency
        self.queue = queue
        self.queue_wait_s = queue_wait_s
        self.retry_after_s = retry_after_s
        self._free = concurrency
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="search")

    @property
    def running(self) -> int:
        return self.concurrency - self._free

    @property
    def waiting(self) -> int:
        return sum(1 for waiter in self._waiters if not waiter.done())

    async def run(self, fn: Callable[[], T], *, timeout_s: float, what: str = "the index") -> T:
        """`fn()` on a search thread once a slot is free; Overloaded when none frees up in
        time or the queue is full; StoreUnavailable when it runs past `timeout_s`."""
        loop = asyncio.get_running_loop()
        queued = time.perf_counter()
        try:
            await self._acquire(loop)
        except Overloaded:
            metrics.record_search_admission(None)
            raise
        metrics.record_search_admission(time.perf_counter() - queued)
        try:
            future: Future[T] = self._pool.submit(fn)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._release))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=timeout_s)
        except TimeoutError as exc:
            raise StoreUnavailable(f"{what} did not answer within {timeout_s:g} s") from exc

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _acquire(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._free > 0 and not self.waiting:
            self._free -= 1
            return
        if self.waiting >= self.queue:
            raise self._overloaded()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout=self.queue_wait_s)
        except BaseException as exc:  # timed out, or the request was cancelled meanwhile
            if waiter.done() and not waiter.cancelled():
                self._release()  # the slot came as this request gave up: pass it on
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            if isinstance(exc, TimeoutError):
                raise self._overloaded() from None
            raise

    def _release(self) -> None:
        """Hand the slot to the longest waiter still waiting, else free it. Runs on the
        event loop, like `_acquire`, so the two never race."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1

    def _overloaded(self) -> Overloaded:
        return Overloaded(
            f"{self.running} searches are running and {self.waiting} waiting, as many as "
            "this process takes",
            retry_after_s=self.retry_after_s,
        )
