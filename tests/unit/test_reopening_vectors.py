"""ReopeningVectorIndex: opens on first use, again after a fault, never closes an index a
call still uses (the real store across processes: tests/e2e/test_hardening.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from services.core.errors import VectorsUnavailable
from services.core.vector_index import ReopeningVectorIndex


class FakeIndex:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False
        self.fail_next = False
        self.gate: threading.Event | None = None
        self.waiting = threading.Event()  # set while a call waits at the gate

    def count(self, collection: str, law_id: str | None = None, *, version: str | None = None) -> int:
        assert not self.closed, "used after close"
        if self.gate is not None:
            self.waiting.set()
            self.gate.wait(5)
        if self.fail_next:
            self.fail_next = False
            raise VectorsUnavailable("shard broke")
        return 7

    def close(self) -> None:
        self.closed = True


class Opener:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.opened: list[FakeIndex] = []

    def __call__(self) -> Any:
        if self.failures:
            self.failures -= 1
            raise VectorsUnavailable("another process holds the embedded vector store")
        index = FakeIndex(f"#{len(self.opened)}")
        self.opened.append(index)
        return index


def test_a_store_locked_at_start_is_opened_once_it_is_free() -> None:
    opener = Opener(failures=2)
    vectors = ReopeningVectorIndex(opener, retry_s=0)
    for _ in range(2):
        with pytest.raises(VectorsUnavailable, match="another process"):
            vectors.count("chunks")
    assert vectors.count("chunks") == 7
    assert vectors.count("chunks") == 7 and len(opener.opened) == 1


def test_attempts_to_open_are_spaced_by_retry_s() -> None:
    opener = Opener(failures=1)
    vectors = ReopeningVectorIndex(opener, retry_s=60)
    for _ in range(3):
        with pytest.raises(VectorsUnavailable):
            vectors.count("chunks")
    assert opener.failures == 0 and not opener.opened  # one attempt, then the same answer


def test_a_fault_closes_the_index_and_the_next_call_opens_a_new_one() -> None:
    opener = Opener(failures=0)
    vectors = ReopeningVectorIndex(opener, retry_s=0)
    assert vectors.count("chunks") == 7
    opener.opened[0].fail_next = True
    with pytest.raises(VectorsUnavailable, match="shard broke"):
        vectors.count("chunks")
    assert opener.opened[0].closed
    assert vectors.count("chunks") == 7 and len(opener.opened) == 2
    vectors.close()
    assert opener.opened[1].closed
    with pytest.raises(VectorsUnavailable, match="closed"):
        vectors.count("chunks")


def test_a_retired_index_is_closed_only_after_its_last_call_returns() -> None:
    opener = Opener(failures=0)
    vectors = ReopeningVectorIndex(opener, retry_s=0)
    vectors.count("chunks")
    first = opener.opened[0]
    first.gate = threading.Event()
    slow = threading.Thread(target=vectors.count, args=("chunks",))
    slow.start()  # a call that is still using the index when another one faults
    assert first.waiting.wait(5)
    failing = threading.Thread(target=_swallow, args=(vectors, first))
    failing.start()
    failing.join(timeout=1)
    assert not first.closed
    with pytest.raises(VectorsUnavailable, match="being reopened"):
        vectors.count("chunks")  # no second open while the old one holds the store
    first.gate.set()
    slow.join(timeout=5)
    assert first.closed
    assert vectors.count("chunks") == 7 and len(opener.opened) == 2


def _swallow(vectors: ReopeningVectorIndex, index: FakeIndex) -> None:
    index.fail_next = True
    gate, index.gate = index.gate, None
    try:
        vectors.count("chunks")
    except VectorsUnavailable:
        pass
    finally:
        index.gate = gate
