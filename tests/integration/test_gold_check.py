"""A gold set read against the laws loaded in a real Neo4j (`evaluation.check_gold`): a law
written by its name becomes its id, and labels no loaded law holds are named, not scored
silently as misses."""

from __future__ import annotations

import json
from pathlib import Path

from services.core.evaluation import check_gold, load_gold
from services.core.graph_store import BoltGraphStore

LAW = "th-pdpa-2562"


def _gold(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    return path


def test_a_law_written_by_its_name_is_read_as_its_id(
    pdpa_store: BoltGraphStore, tmp_path: Path
) -> None:
    path = _gold(
        tmp_path,
        [
            {"id": "1", "question": "q", "must": ["มาตรา ๒๖"], "law": "PDPA"},
            {"id": "2", "question": "q", "must": ["27"], "law": "พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล"},
            {"id": "3", "question": "q", "must": ["Art. 6(1)(a)"], "law": "eu-gdpr"},
        ],
    )
    gold, warnings = check_gold(load_gold(path), pdpa_store)
    assert [q.must for q in gold.questions] == [
        ((LAW, "26"),),
        ((LAW, "27"),),
        (("eu-gdpr", "6"),),
    ]
    assert warnings == ["law 'eu-gdpr' is not loaded"]


def test_labels_the_loaded_laws_do_not_hold_are_named(
    pdpa_store: BoltGraphStore, tmp_path: Path
) -> None:
    path = _gold(tmp_path, [{"id": "1", "question": "q", "must": ["26", "999"], "law": LAW}])
    gold, warnings = check_gold(load_gold(path), pdpa_store)
    assert gold.questions[0].must == ((LAW, "26"), (LAW, "999"))
    assert warnings == [f"1 labelled sections are not in the loaded laws: {LAW}:s:999"]
