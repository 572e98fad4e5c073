"""The CLI commands that need no database: inspect and export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.cli import main

REPO = Path(__file__).resolve().parents[2]
PDPA = REPO / "data" / "th-pdpa-2562" / "about.md"


def test_inspect_json_describes_the_pdpa_graph(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(PDPA), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["law"] == "th-pdpa-2562"
    assert summary["nodes"]["Section"] == 96
    assert summary["weakly_connected"] is True
    assert summary["edges"]["REFERENCES"] == 120
    edge = next(e for e in summary["edge_list"] if e["type"] == "REFERENCES")
    assert {"source", "type", "target"} <= set(edge)
    assert isinstance(summary["unresolved"], list)


def test_export_writes_the_same_bytes_twice(tmp_path: Path) -> None:
    first, second = tmp_path / "a.cypher", tmp_path / "b.cypher"
    assert main(["export", str(PDPA), "--out", str(first)]) == 0
    assert main(["export", str(PDPA), "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text(encoding="utf-8")
    assert text.count("CREATE CONSTRAINT") >= 9
    assert "SET l.published_version = " in text


def test_bad_source_exits_non_zero_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    assert main(["inspect", str(empty)]) == 1
    assert f"{empty}: empty file" in capsys.readouterr().err
    binary = tmp_path / "blob.json"
    binary.write_bytes(b"\x00\x01\x02")
    assert main(["export", str(binary), "--out", str(tmp_path / "x.cypher")]) == 1
    assert str(binary) in capsys.readouterr().err
    assert not (tmp_path / "x.cypher").exists()


def test_ingest_refuses_a_bad_valid_from_before_starting_anything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ingest", str(PDPA), "--valid-from", "next May"]) == 1
    assert "valid_from: must be a date as YYYY-MM-DD, got 'next May'" in capsys.readouterr().err
