"""Metric math and gold loading of the evaluation harness, on hand-made examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from services.core.evaluation import (
    GoldFileError,
    GoldQuestion,
    GoldSet,
    evaluate,
    first_distinct,
    format_table,
    gold_section_number,
    jsonl_question_scores,
    load_gold,
    multi_mrr,
    nitibench_question_scores,
    percentile,
    recall,
    reciprocal_rank,
    report_dict,
    split_of,
)

L = "th-pdpa-2562"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
SHARED = FIXTURES.parents[2].parent / "shared"  # ../shared from the repository root


def s(number: str, law: str = L) -> tuple[str, str]:
    return (law, number)


# --- NitiBench definitions ------------------------------------------------------------


def test_multi_mrr_is_one_when_all_gold_sit_at_the_top() -> None:
    assert multi_mrr([s("1"), s("2"), s("9")], [s("1"), s("2")]) == pytest.approx(1.0)
    assert multi_mrr([s("2"), s("1")], [s("1"), s("2")]) == pytest.approx(1.0)


def test_multi_mrr_discounts_by_rank_minus_gold_already_hit() -> None:
    # gold at ranks 2 and 5 of 3 gold: recall 2/3, n_hit 2,
    # sum = 1/(2-0) + 1/(5-1) = 0.75 -> (2/3)/2 * 0.75 = 0.25
    retrieved = [s("9"), s("1"), s("8"), s("7"), s("2")]
    assert multi_mrr(retrieved, [s("1"), s("2"), s("3")]) == pytest.approx(0.25)


def test_multi_mrr_single_gold_equals_mrr() -> None:
    retrieved = [s("9"), s("8"), s("1")]
    assert multi_mrr(retrieved, [s("1")]) == pytest.approx(1 / 3)
    assert reciprocal_rank(retrieved, [s("1")]) == pytest.approx(1 / 3)


def test_multi_mrr_is_zero_without_hits() -> None:
    assert multi_mrr([s("9")], [s("1")]) == 0.0
    assert multi_mrr([], [s("1")]) == 0.0


def test_nitibench_scores_at_each_cutoff() -> None:
    gold = [s("1"), s("2"), s("3"), s("4")]
    retrieved = [
        s("1"),
        s("x1"),
        s("x2"),
        s("x3"),
        s("x4"),
        s("2"),
        s("3"),
        s("x5"),
        s("x6"),
        s("4"),
    ]
    scores = nitibench_question_scores(retrieved, gold, ks=(1, 5, 10))
    assert scores[1] == {
        "hr": 1.0, "multi_hr": 0.0, "recall": 0.25, "mrr": 1.0, "multi_mrr": 0.25, "on_law": 1.0
    }  # fmt: skip
    assert scores[5]["recall"] == 0.25 and scores[5]["multi_hr"] == 0.0
    assert scores[10]["multi_hr"] == 1.0 and scores[10]["recall"] == 1.0
    # ranks 1, 6, 7, 10 with 0, 1, 2, 3 gold before: 1/1 + 1/5 + 1/5 + 1/7
    expected = (1.0 / 4) * (1 + 1 / 5 + 1 / 5 + 1 / 7)
    assert scores[10]["multi_mrr"] == pytest.approx(expected)
    assert scores[10]["mrr"] == 1.0


def test_hit_rate_is_zero_when_gold_below_cutoff() -> None:
    scores = nitibench_question_scores([s("x"), s("y"), s("1")], [s("1")], ks=(1, 5))
    assert scores[1]["hr"] == 0.0 and scores[1]["mrr"] == 0.0
    assert scores[5]["hr"] == 1.0 and scores[5]["mrr"] == pytest.approx(1 / 3)


def test_sections_of_other_laws_do_not_count() -> None:
    assert recall([s("26", "other-law")], [s("26")]) == 0.0


# --- JSONL metrics --------------------------------------------------------------------


def test_all_must_needs_every_must_section() -> None:
    q = GoldQuestion("q", "?", must=(s("26"), s("84")), should=(s("79"),))
    assert jsonl_question_scores([s("26"), s("79")], q) == {
        "all_must": 0.0,
        "must_recall": 0.5,
        "mrr": 1.0,
        "on_law": 1.0,
    }
    assert jsonl_question_scores([s("1"), s("84"), s("26")], q) == {
        "all_must": 1.0,
        "must_recall": 1.0,
        "mrr": 0.5,
        "on_law": 1.0,
    }


def test_first_distinct_keeps_order_and_normalises_numbers() -> None:
    raw = [s("๒๖"), s("26"), s("84"), s("26/1"), s("26 / 1"), s("79")]
    assert first_distinct(raw, 3) == [s("26"), s("84"), s("26/1")]


def test_score_uses_first_k_distinct_sections() -> None:
    # a context that repeats s.26 three times must not push s.84 out of the top 2
    gold = GoldSet(
        "jsonl",
        "mem",
        (GoldQuestion("q", "?", must=(s("26"), s("84")), kind="penalty", lang="th"),),
    )
    report = evaluate(gold, lambda _q: [s("26"), s("26"), s("26"), s("84")], k=2, mode="graph")
    assert report.summary["overall"] == {
        "all_must": 1.0, "must_recall": 1.0, "mrr": 1.0, "on_law": 1.0
    }  # fmt: skip


def test_jsonl_summary_groups_by_kind_and_lang() -> None:
    questions = (
        GoldQuestion("a", "qa", must=(s("26"), s("84")), kind="penalty", lang="th"),
        GoldQuestion("b", "qb", must=(s("33"),), kind="direct", lang="en"),
        GoldQuestion("c", "qc", must=(s("6"),), kind="direct", lang="th"),
    )
    answers = {"qa": [s("26"), s("84")], "qb": [s("1"), s("33")], "qc": [s("9")]}
    report = evaluate(GoldSet("jsonl", "mem", questions), lambda q: answers[q], k=10, mode="m")
    assert report.summary["overall"]["all_must"] == pytest.approx(round(2 / 3, 4))
    assert report.summary["overall"]["mrr"] == pytest.approx(round((1 + 0.5 + 0) / 3, 4))
    assert report.summary["by_kind"]["direct"] == {
        "n": 2,
        "all_must": 0.5,
        "must_recall": 0.5,
        "mrr": 0.25,
        "on_law": 1.0,
    }
    assert report.summary["by_lang"]["th"]["all_must"] == 0.5
    assert report.questions[2]["missing"] == [f"{L}:s:6"]
    table = format_table(GoldSet("jsonl", "mem", questions), 10, [report])
    assert "all_must@10" in table and "kind=direct (n=2)" in table
    assert report_dict(GoldSet("jsonl", "mem", questions), 10, [report])["modes"]["m"]["n"] == 3


def test_an_answer_in_another_law_is_off_law() -> None:
    gold = GoldSet("jsonl", "mem", (GoldQuestion("a", "qa", must=(s("26"),)),))
    drifted = evaluate(gold, lambda _q: [s("26", "eu-gdpr"), s("5", "ccc")], k=10)
    assert drifted.summary["overall"]["on_law"] == 0.0
    assert evaluate(gold, lambda _q: [s("9")], k=10).summary["overall"]["on_law"] == 1.0


def test_every_question_falls_in_one_stable_part() -> None:
    ids = [f"q-{i}" for i in range(400)]
    parts = [split_of(i) for i in ids]
    assert set(parts) == {"tune", "check"}
    assert 0.3 < parts.count("check") / len(parts) < 0.5  # CHECK_PERCENT = 40
    assert parts == [split_of(i) for i in ids]  # the same on every run
    assert split_of("pen-health-collect-th") == "tune"  # and on every machine (sha256)
    questions = tuple(GoldQuestion(i, i, must=(s("1"),)) for i in ids[:10])
    report = evaluate(GoldSet("jsonl", "mem", questions), lambda q: [s("1")], k=10)
    by_part = report.summary["by_part"]
    assert sum(v["n"] for v in by_part.values()) == 10 and by_part["tune"]["all_must"] == 1.0


def test_nitibench_summary_means_over_questions() -> None:
    questions = (
        GoldQuestion("a", "qa", must=(s("1", "rc"), s("2", "rc")), kind="nitibench"),
        GoldQuestion("b", "qb", must=(s("5", "ccc"),), kind="nitibench"),
    )
    answers = {"qa": [s("1", "rc")], "qb": [s("x", "ccc")] * 3 + [s("5", "ccc")]}
    report = evaluate(GoldSet("nitibench", "mem", questions), lambda q: answers[q], k=10)
    at10 = report.summary["at"]["10"]
    assert at10["hr"] == 1.0
    assert at10["multi_hr"] == 0.5
    assert at10["recall"] == pytest.approx(0.75)
    assert at10["mrr"] == pytest.approx(0.75)  # 1 and 1/2 (the repeats collapse)
    assert at10["multi_mrr"] == pytest.approx((0.5 + 0.5) / 2)
    assert report.summary["at"]["1"]["hr"] == 0.5


def test_percentile_interpolates() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert percentile([5.0], 95) == 5.0


# --- gold loading ---------------------------------------------------------------------


def test_jsonl_gold_numbers_and_strings_within_the_line_law(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = [
        {
            "id": "1",
            "question": "q",
            "must": [26, "๘๔"],
            "should": ["77/1"],
            "kind": "penalty",
            "lang": "th",
        },
        {"id": "2", "question": "q", "must": ["69 ทวิ"], "law": "rc"},
    ]
    path.write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8"
    )
    gold = load_gold(path, default_law="dflt")
    assert gold.format == "jsonl"
    assert gold.questions[0].must == (("dflt", "26"), ("dflt", "84"))
    assert gold.questions[0].should == (("dflt", "77/1"),)
    assert gold.questions[1].must == (("rc", "69 ทวิ"),)
    assert gold.laws == ("dflt", "rc")


@pytest.mark.parametrize(
    ("label", "section"),
    [
        ("Art. 6(1)(a)", "6"),
        ("Art 6", "6"),
        ("Article 4(11)", "4"),
        ("section 26(1)", "26"),
        ("Sec. 26", "26"),
        ("ม. 26", "26"),
        ("มาตรา ๒๖ วรรคหนึ่ง", "26"),
        ("83 para. 5", "83"),
        ("19 ทวิ", "19 ทวิ"),
        ("77/1", "77/1"),
        ("48J", "48J"),
    ],
)
def test_a_gold_label_means_its_section(label: str, section: str) -> None:
    assert gold_section_number(label) == section


@pytest.mark.parametrize(
    "line",
    [
        '{"id": "1", "question": "q"}',
        '{"id": "1", "question": "q", "must": []}',
        '{"id": "1", "question": "q", "must": "26"}',
        '{"id": "1", "question": "q", "must": [true]}',
        '{"id": "1", "question": "q", "must": ["Article"]}',
        "not json",
    ],
)
def test_bad_jsonl_gold_names_the_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "0", "question": "q", "must": [1]}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(GoldFileError, match=r"bad\.jsonl:2"):
        load_gold(path)


def test_nitibench_csv_with_bom_and_literal_labels(tmp_path: Path) -> None:
    path = tmp_path / "tax.csv"
    labels = "[{'law': 'ประมวลรัษฎากร', 'sections': '77/1'}, {'law': 'ประมวลรัษฎากร', 'sections': '77/1'}, {'law': 'ประมวลกฎหมายแพ่งและพาณิชย์', 'sections': '797'}]"
    text = (
        'question,answer,relevant_laws,reference_answer\n"คำถาม\nสองบรรทัด",ตอบ,"'
        + labels
        + '",อ้างอิง\n'
    )
    path.write_bytes("\ufeff".encode() + text.encode("utf-8"))
    gold = load_gold(path, law_id_for_name=lambda name: {"ประมวลรัษฎากร": "rc"}.get(name, "ccc"))
    assert gold.format == "nitibench"
    (q,) = gold.questions
    assert q.question == "คำถาม\nสองบรรทัด"
    assert q.must == (("rc", "77/1"), ("ccc", "797"))  # the duplicate label collapses


def test_nitibench_labels_are_never_evaluated_as_code(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text(
        "question,relevant_laws\nq,\"__import__('os').system('true')\"\n", encoding="utf-8"
    )
    with pytest.raises(GoldFileError, match="not a Python literal"):
        load_gold(path)


def test_shipped_dev_set_is_well_formed() -> None:
    gold = load_gold(FIXTURES / "pdpa_dev.jsonl")
    assert len(gold.questions) >= 30
    kinds = {q.kind for q in gold.questions}
    assert {
        "penalty",
        "exception",
        "definition",
        "cross-reference",
        "direct",
        "scope",
        "procedure",
    } <= kinds
    assert {q.lang for q in gold.questions} == {"th", "en"}
    ci = load_gold(FIXTURES / "ci_gold.jsonl")
    assert {q.id for q in ci.questions} <= {q.id for q in gold.questions}


def _pdpa_sections() -> set[str]:
    path = FIXTURES.parents[2] / "data" / "th-pdpa-2562" / "pdpa_2562_ocs.json"
    return {str(p["section"]) for p in json.loads(path.read_text(encoding="utf-8"))["provisions"]}


def _gdpr_articles() -> set[str]:
    path = SHARED / "corpus" / "eu-gdpr" / "gdpr.json"
    if not path.is_file():
        pytest.skip(f"{path} not present")
    return {str(a["number"]) for a in json.loads(path.read_text(encoding="utf-8"))["articles"]}


# The text each gold line's labels are checked against, by the line's `law`
# (a line without one is in the loader's default law, the PDPA).
LAW_SECTIONS = {L: _pdpa_sections, "eu-gdpr": _gdpr_articles}
GOLD_FILES = sorted(p.name for p in FIXTURES.glob("*.jsonl"))


def _records(name: str) -> list[dict[str, Any]]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _label_problems(records: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the labels of these gold lines, each checked in its own law."""
    problems: list[str] = []
    sections: dict[str, set[str]] = {}
    for record in records:
        law = record.get("law") or L
        if law not in LAW_SECTIONS:
            problems.append(f"{record['id']}: no corpus to check law {law!r} against")
            continue
        if law not in sections:
            sections[law] = LAW_SECTIONS[law]()
        labelled = {str(x) for x in record["must"] + record["should"]}
        if not record["must"] or labelled != set(record.get("reason") or {}):
            problems.append(f"{record['id']}: no must, or labels and reasons differ")
        if unknown := labelled - sections[law]:
            problems.append(f"{record['id']}: not in {law}: {sorted(unknown)}")
    return problems


@pytest.mark.parametrize("name", GOLD_FILES)
def test_every_shipped_gold_file_gives_a_reason_for_each_real_label(name: str) -> None:
    """Every label is a section of its law's text and has its reason; ids are unique."""
    records = _records(name)
    assert len(load_gold(FIXTURES / name).questions) == len(records)
    assert len({r["id"] for r in records}) == len(records)
    assert _label_problems(records) == []


def test_labels_are_checked_against_the_text_of_their_own_law() -> None:
    def line(law: str | None, must: list[str], reason: list[str] | None = None) -> dict[str, Any]:
        record = {"id": f"{law}-{must}", "must": must, "should": []}
        record["reason"] = {n: "why" for n in (must if reason is None else reason)}
        return record if law is None else {**record, "law": law}

    assert _label_problems([line("eu-gdpr", ["99"]), line(None, ["96"]), line(L, ["26"])]) == []
    assert _label_problems([line(L, ["99"])]) == [f"{L}-['99']: not in {L}: ['99']"]
    assert _label_problems([line(None, ["97"])]) == [f"None-['97']: not in {L}: ['97']"]
    assert _label_problems([line("eu-gdpr", ["100"])]) == [
        "eu-gdpr-['100']: not in eu-gdpr: ['100']"
    ]
    assert _label_problems([line("eu-gdpr", ["9", "83"], reason=["9"])]) == [
        "eu-gdpr-['9', '83']: no must, or labels and reasons differ"
    ]
    assert _label_problems([line("xx-law", ["1"])]) == [
        "xx-law-['1']: no corpus to check law 'xx-law' against"
    ]
    assert "gdpr_dev.jsonl" in GOLD_FILES


def test_shipped_gdpr_dev_set_is_well_formed() -> None:
    gold = load_gold(FIXTURES / "gdpr_dev.jsonl")
    assert len(gold.questions) >= 45
    assert gold.laws == ("eu-gdpr",)
    assert {q.lang for q in gold.questions} == {"en"}
    kinds = {q.kind for q in gold.questions}
    assert {
        "penalty",
        "exception",
        "definition",
        "cross-reference",
        "direct",
        "scope",
        "procedure",
    } <= kinds
    for q in gold.questions:
        assert q.id.startswith("gdpr-"), q.id
        if q.kind == "penalty":  # the infringed duty and the fine article
            numbers = {number for _, number in q.must}
            assert "83" in numbers and numbers - {"82", "83", "84"}, q.id


# --- the CLI ----------------------------------------------------------------------------


class _Closable:
    def close(self) -> None:
        pass

    def run_read(self, name: str, **params: object) -> list[dict[str, object]]:
        return []  # no law loaded: the eval warns and scores what the retriever returns


def test_cli_eval_prints_every_mode_side_by_side(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from services import cli
    from services.core import bootstrap, evaluation

    monkeypatch.setattr(bootstrap, "ensure_local_graph", lambda settings: None)
    monkeypatch.setattr(bootstrap, "build_graph_store", lambda settings: _Closable())
    monkeypatch.setattr(bootstrap, "build_worker_vectors", lambda settings: _Closable())
    monkeypatch.setattr(bootstrap, "build_worker_embedder", lambda settings, threads=1: object())
    seen: list[tuple[str, int]] = []

    def fake_retriever(mode: str, *, top_k: int, **deps: object) -> evaluation.Retriever:
        seen.append((mode, top_k))
        answer = [s("26"), s("84")] if mode == "graph" else [s("26")]
        return lambda question: answer

    monkeypatch.setattr(evaluation, "search_retriever", fake_retriever)
    code = cli.main(["eval", str(FIXTURES / "ci_gold.jsonl"), "--modes", "all", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert list(report["modes"]) == ["bm25", "dense", "hybrid", "graph"]
    # the fake graph holds no law: the gold's law is named, on stderr and in the report
    assert report["warnings"] == ["law 'th-pdpa-2562' is not loaded"]
    assert "law 'th-pdpa-2562' is not loaded" in captured.err
    assert {mode for mode, _ in seen} == {"bm25", "dense", "hybrid", "graph"}
    assert all(top_k == 10 for _, top_k in seen)
    assert (
        report["modes"]["graph"]["overall"]["must_recall"]
        > report["modes"]["bm25"]["overall"]["must_recall"]
    )

    code = cli.main(["eval", str(FIXTURES / "ci_gold.jsonl"), "--mode", "hybrid", "--k", "5"])
    assert code == 0
    assert "all_must@5" in capsys.readouterr().out


def test_cli_eval_reports_a_bad_gold_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from services import cli

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "1"}\n', encoding="utf-8")
    assert cli.main(["eval", str(bad)]) == 1
    assert "missing field 'question'" in capsys.readouterr().err
