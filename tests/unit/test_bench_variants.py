"""`bench/bench_variants.py`'s reading of a variant and its won / lost report: the figures
a retrieval change is chosen and reported by."""

from __future__ import annotations

import pytest

from bench.bench_variants import SHIPPED, _report, _variant


def test_a_variant_sets_fields_and_switches_steps_off():
    assert _variant("x:retrieval.fusion.rrf_k=5; -list_seeds;-anchors") == (
        "x",
        (["retrieval.fusion.rrf_k=5"], ["list_seeds", "anchors"]),
    )
    for bad in ("no-colon", ":-anchors", f"{SHIPPED}:-anchors"):
        with pytest.raises(SystemExit, match="NAME:CHANGES"):
            _variant(bad)


def test_the_report_counts_answers_per_part_and_what_a_variant_won_and_lost():
    def outcome(part: str, answered: bool, on_law: bool = True) -> dict[str, object]:
        return {"part": part, "answered": answered, "on_law": on_law, "recall": float(answered)}

    runs = {
        SHIPPED: {"a|1": outcome("tune", True), "a|2": outcome("tune", False), "a|3": outcome("check", True)},
        "v": {"a|1": outcome("tune", False, on_law=False), "a|2": outcome("tune", True), "a|3": outcome("check", True)},
    }  # fmt: skip
    lines = _report(runs).splitlines()
    assert lines[0].startswith("[shipped] answered: tune 1, check 1; off the law asked about: 0")
    assert lines[1].startswith("[v] answered: tune 1, check 1; off the law asked about: 1")
    assert "a 0.667 (recall 0.667)" in lines[1]
    assert lines[2].strip() == "tune: +1 ['a|2'] -1 ['a|1']"
    assert lines[3].strip() == "check: +0 [] -0 []"
