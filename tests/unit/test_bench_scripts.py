"""Every benchmark script imports: a renamed argument in the code a script builds on at
import time (train_router's stage list) otherwise shows only when someone next runs it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize(
    "script", sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")
)
def test_a_bench_script_imports(script):
    module = importlib.import_module(f"bench.{script}")
    assert callable(getattr(module, "main", None)) or script.startswith("_")


def _section(answer, ranking, lists):
    return {"answer": answer, "ranking": ranking, "lists": lists}


def test_bench_misses_puts_each_miss_down_to_one_cause():
    from bench.bench_misses import cause, report

    found = _section(2, 2, {"chunks": 1})
    walked_only = _section(None, 14, {})
    listed_low = _section(None, 31, {"english": 9})
    answer = ["th-pdpa-2562:s:26", "th-pdpa-2562:s:84"]
    assert cause({"th-pdpa-2562:s:84": found}, answer) is None
    assert cause({"th-pdpa-2562:s:84": found, "th-pdpa-2562:s:27": walked_only}, answer) == (
        "in no list"
    )
    assert cause({"th-pdpa-2562:s:27": listed_low}, answer) == "ranked out"
    # No section of the question's law in the answer: routing, whatever the lists say.
    assert cause({"eu-gdpr:s:9": listed_low}, answer) == "routed away"

    rows = [
        {"set": "s", "id": "q1", "part": "tune", "answered": True, "cause": None,
         "sections": {"th-pdpa-2562:s:84": found}, "routes": [], "law_rank": None},
        {"set": "s", "id": "q2", "part": "tune", "answered": False, "cause": "ranked out",
         "sections": {"th-pdpa-2562:s:27": listed_low}, "routes": [], "law_rank": None},
    ]  # fmt: skip
    text = report(rows)
    assert "s|q2 [tune] ranked out" in text
    assert "th-pdpa-2562:s:27: answer -, ranking 31, lists: english 9" in text
    assert "s|q1" not in text
    assert text.endswith("tune: 1 of 2 answered; missed: routed away 0, in no list 0, ranked out 1")


def test_bench_misses_counts_questions_by_where_routing_put_their_law():
    from bench.bench_misses import law_rank, report

    class Route:
        def __init__(self, law):
            self.law = law

    class Ctx:
        routes = [Route("eu-gdpr"), Route("sg-pdpa-2012"), Route("th-pdpa-2562")]

    assert law_rank(Ctx(), {"th-pdpa-2562"}) == 3
    assert law_rank(Ctx(), {"jp-appi"}) == 0  # no candidate
    assert law_rank(Ctx(), {"jp-appi", "sg-pdpa-2012"}) == 2  # the best of its laws
    Ctx.routes = []
    assert law_rank(Ctx(), {"th-pdpa-2562"}) is None  # one law loaded: nothing routed

    def row(qid, answered, rank):
        return {"set": "s", "id": qid, "part": "tune", "answered": answered,
                "cause": None if answered else "routed away", "sections": {},
                "routes": [], "law_rank": rank}  # fmt: skip

    rows = [row("a", True, 1), row("b", False, 1), row("c", True, 2), row("d", False, 5),
            row("e", False, 0)]  # fmt: skip
    assert report(rows).endswith(
        "tune, by where routing put the question's law: first 2 (1 answered), "
        "second 1 (1 answered), lower 1 (0 answered), not a candidate 1 (0 answered)"
    )
