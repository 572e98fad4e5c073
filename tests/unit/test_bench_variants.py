"""`bench/bench_variants.py`'s reading of a variant and its won / lost report: the figures
a retrieval change is chosen and reported by."""

from __future__ import annotations

import pytest

import bench.bench_variants as bench_variants
from bench.bench_variants import SHIPPED, _report, _variant
from services.core.evaluation import GoldQuestion, GoldSet


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


def test_scoped_searches_each_question_within_the_laws_its_labels_name(monkeypatch):
    made: list[tuple[str, object]] = []

    def fake_search_retriever(mode, *, top_k, laws=None, **deps):
        made.append((mode, laws))
        return lambda question: [(laws[0] if laws else "any", question)]

    monkeypatch.setattr(bench_variants, "search_retriever", fake_search_retriever)
    gold = GoldSet(
        "jsonl",
        "g.jsonl",
        (
            GoldQuestion("1", "q one", (("eu-gdpr", "9"), ("eu-gdpr", "83"))),
            GoldQuestion("2", "q two", (("th-pdpa-2562", "26"),)),
            GoldQuestion("3", "q three", (("eu-gdpr", "17"),)),
        ),
    )
    scoped = bench_variants._retriever(gold, "graph", {}, 10, scoped="laws")
    assert scoped("q two") == [("th-pdpa-2562", "q two")]
    assert scoped("q one") == [("eu-gdpr", "q one")]
    scoped("q three")  # the GDPR's retriever again, not a new one
    assert made == [("graph", ["th-pdpa-2562"]), ("graph", ["eu-gdpr"])]

    made.clear()
    unscoped = bench_variants._retriever(gold, "hybrid", {}, 10, scoped=None)
    assert unscoped("q two") == [("any", "q two")]
    assert made == [("hybrid", None)]


def test_scoped_by_jurisdiction_searches_every_law_of_the_labels_jurisdictions(monkeypatch):
    made: list[object] = []

    def fake_search_retriever(mode, *, top_k, jurisdictions=None, **deps):
        made.append(jurisdictions)
        return lambda question: [(",".join(jurisdictions), question)]

    loaded = [
        {"law": "th-pdpa-2562", "jurisdiction": "TH"},
        {"law": "eu-gdpr", "jurisdiction": "EU"},
    ]
    monkeypatch.setattr(bench_variants, "search_retriever", fake_search_retriever)
    monkeypatch.setattr(bench_variants, "list_laws", lambda graph: loaded)
    gold = GoldSet(
        "jsonl",
        "g.jsonl",
        (
            GoldQuestion("1", "q one", (("eu-gdpr", "9"), ("th-pdpa-2562", "26"))),
            GoldQuestion("2", "q two", (("th-pdpa-2562", "26"),)),
            GoldQuestion("3", "q three", (("sg-pdpa-2012", "13"),)),
        ),
    )
    with pytest.raises(SystemExit, match="3's law sg-pdpa-2012 is not loaded"):
        bench_variants._retriever(gold, "graph", {"graph": None}, 10, scoped="jurisdiction")
    gold = GoldSet("jsonl", "g.jsonl", gold.questions[:2])
    scoped = bench_variants._retriever(gold, "graph", {"graph": None}, 10, scoped="jurisdiction")
    assert scoped("q one") == [("EU,TH", "q one")]
    assert scoped("q two") == [("TH", "q two")]
    assert made == [["EU", "TH"], ["TH"]]
