"""Every saved Neo4j Browser query (`cypher/browser/*.cypher`) runs on the real graph
database (the Neo4j fixture) against the ingested PDPA and returns the rows a lawyer
expects. Expectations are hard facts of the Act (s.84 penalizes s.26; s.79 punishes
breaches concerning s.26 data; s.6 defines "ข้อมูลส่วนบุคคล") plus sets recomputed in
Python from the same `LawGraph` that was loaded, so the Cypher is checked against an
independent walk. When Node's Neo4j parser is installed (tools/cypher-lint) each file is
also checked by Neo4j's own linter.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import deque
from typing import Any

import pytest

from ingest.graph import LawGraph, NodeLabel
from services.core.graph_store import BoltGraphStore
from tests.conftest import REPO
from tests.integration.conftest import LAW

pytestmark = pytest.mark.integration

BROWSER = REPO / "cypher" / "browser"
LINT_DIR = REPO / "tools" / "cypher-lint"
S = f"{LAW}:s:"
PARAMS = {"law": LAW, "section": "26", "from": "26", "to": "84", "tenant": "default"}
# The walk of 01 (structure and USES_TERM left out, see the file) and the links of 05.
WALK_TYPES = {"REFERENCES", "PENALIZES", "PRESCRIBES", "DEFINES", "GRANTS_EXEMPTION",
              "EXEMPTS_FROM", "CITES_EXTERNAL", "ABOUT"}  # fmt: skip
PATH_TYPES = {"REFERENCES", "PENALIZES", "PRESCRIBES", "GRANTS_EXEMPTION", "EXEMPTS_FROM"}


def _run(store: BoltGraphStore, name: str, **params: Any) -> list[dict[str, Any]]:
    text = (BROWSER / name).read_text(encoding="utf-8")
    return store.run_cypher(text, **{**PARAMS, **params})


def _adjacency(graph: LawGraph, types: set[str]) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {}
    for e in graph.edges:
        if e.type.value in types:
            adj.setdefault(e.source, set()).add(e.target)
            adj.setdefault(e.target, set()).add(e.source)
    return adj


def _distances(adj: dict[str, set[str]], start: str, limit: int) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        if seen[key] == limit:
            continue
        for nxt in adj.get(key, ()):
            if nxt not in seen:
                seen[nxt] = seen[key] + 1
                queue.append(nxt)
    return seen


def test_every_saved_query_is_one_parameterised_statement() -> None:
    files = sorted(BROWSER.glob("*.cypher"))
    assert len(files) == 8
    for path in files:
        text = path.read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        assert ";" not in code, path.name
        assert "$law" in code, path.name
        assert ":param" in text, f"{path.name} must tell the lawyer which :param to set"


def test_two_hops_of_section_26_reach_its_penalty_sections(
    pdpa_store: BoltGraphStore, pdpa_graph: LawGraph
) -> None:
    rows = _run(pdpa_store, "01_within_two_hops.cypher")
    reached = {r["key"]: r["hops"] for r in rows}
    hops: dict[str, int] = {}
    for r in rows:
        hops[r["key"]] = min(hops.get(r["key"], 9), r["hops"])
    assert hops[f"{S}84"] == 1 and hops[f"{S}79"] == 1
    assert hops[f"{LAW}:pen:84:1"] == 2  # s.26 <-PENALIZES- s.84 -PRESCRIBES-> penalty
    expected = _distances(_adjacency(pdpa_graph, WALK_TYPES), f"{S}26", 2)
    expected.pop(f"{S}26")
    assert set(reached) == set(expected)
    assert hops == expected
    assert all(r["label"] for r in rows)
    section_row = next(r for r in rows if r["key"] == f"{S}84")
    assert section_row["type"] == "Section" and section_row["label"] == "มาตรา ๘๔"


def test_penalties_for_section_26_include_sections_79_and_84(
    pdpa_store: BoltGraphStore, pdpa_graph: LawGraph
) -> None:
    rows = _run(pdpa_store, "02_penalties_for_section.cypher")
    links = {(r["penalty_section"], r["link"]) for r in rows}
    assert {(f"{S}79", "REFERENCES"), (f"{S}84", "PENALIZES"), (f"{S}84", "REFERENCES")} <= links
    penalizing = {e.source for e in pdpa_graph.edges if e.type.value == "PENALIZES"}
    expected = {
        (e.source, e.type.value)
        for e in pdpa_graph.edges
        if e.type.value in {"PENALIZES", "REFERENCES"}
        and e.target == f"{S}26"
        and e.source in penalizing
    }
    assert links == expected
    penalties = {r["penalty"] for r in rows}
    assert f"{LAW}:pen:84:1" in penalties
    assert {p for p in penalties if p.startswith(f"{LAW}:pen:79:")}, penalties
    fine_84 = {r["max_fine_thb"] for r in rows if r["penalty"] == f"{LAW}:pen:84:1"}
    assert fine_84 == {5_000_000}  # s.84: administrative fine up to five million baht


def test_penalties_for_section_39_tell_the_one_that_punishes_it_only_as_applied(
    pdpa_store: BoltGraphStore,
) -> None:
    # s.39's records duty: s.82 fines the controller; s.88 a foreign controller's
    # representative, to whom s.39 paragraph 2 applies the duty
    applied = {
        r["penalty_section"]: r["applied"]
        for r in _run(pdpa_store, "02_penalties_for_section.cypher", section="39")
        if r["link"] == "PENALIZES"
    }
    assert applied[f"{S}82"] is False and applied[f"{S}88"] is True


def test_sections_citing_section_26(pdpa_store: BoltGraphStore, pdpa_graph: LawGraph) -> None:
    rows = _run(pdpa_store, "03_cited_by.cypher")
    expected = {
        e.source
        for e in pdpa_graph.edges
        if e.type.value in {"REFERENCES", "PENALIZES"} and e.target == f"{S}26"
    }
    assert {r["citing"] for r in rows} == expected
    assert {f"{S}79", f"{S}84"} <= expected
    by_key = {r["citing"]: r for r in rows}
    assert set(by_key[f"{S}84"]["how"]) == {"PENALIZES", "REFERENCES"}
    assert all(r["law"] == LAW and r["other_law"] is False for r in rows)
    assert len(rows) == len(by_key)  # one row per citing section


def test_definitions_section_26_uses(pdpa_store: BoltGraphStore, pdpa_graph: LawGraph) -> None:
    rows = _run(pdpa_store, "04_definitions_used.cypher")
    expected = {
        e.target for e in pdpa_graph.edges if e.type.value == "USES_TERM" and e.source == f"{S}26"
    }
    assert {r["definition"] for r in rows} == expected
    personal_data = next(r for r in rows if r["term"] == "ข้อมูลส่วนบุคคล")
    assert personal_data["defined_in"] == "มาตรา ๖"
    assert personal_data["meaning"]


@pytest.mark.parametrize("target", ["84", "79", "83", "28"])
def test_path_between_sections_is_a_shortest_legal_chain(
    pdpa_store: BoltGraphStore, pdpa_graph: LawGraph, target: str
) -> None:
    rows = _run(pdpa_store, "05_path_between_sections.cypher", to=target)
    expected = _distances(_adjacency(pdpa_graph, PATH_TYPES), f"{S}26", 6).get(f"{S}{target}")
    if expected is None:
        assert rows == []
        return
    assert len(rows) == 1
    row = rows[0]
    assert row["length"] == expected
    assert row["steps"][0] == "มาตรา ๒๖" and len(row["links"]) == expected
    assert set(row["links"]) <= PATH_TYPES


def test_path_from_26_to_84_is_one_penalty_link(pdpa_store: BoltGraphStore) -> None:
    row = _run(pdpa_store, "05_path_between_sections.cypher")[0]
    assert row["length"] == 1
    assert row["steps"] == ["มาตรา ๒๖", "มาตรา ๘๔"]
    assert row["links"][0] in {"PENALIZES", "REFERENCES"}


def test_unknown_section_returns_no_rows(pdpa_store: BoltGraphStore) -> None:
    for name in sorted(p.name for p in BROWSER.glob("*.cypher")):
        assert _run(pdpa_store, name, section="9999", **{"from": "9999"}) == [], name


def test_saved_queries_parse_as_neo4j_5_cypher() -> None:
    node = shutil.which("node")
    if node is None or not (LINT_DIR / "node_modules" / "@neo4j-cypher").is_dir():
        pytest.skip("Neo4j's Cypher parser (tools/cypher-lint, npm) is not installed")
    script = (
        "import { lintCypherQuery } from '@neo4j-cypher/language-support';"
        "import { readFileSync } from 'fs';"
        "const out = {};"
        "for (const f of JSON.parse(process.argv[1])) {"
        "  const r = lintCypherQuery(readFileSync(f, 'utf8'),"
        "    {parameters: {law: '', section: '', from: '', to: '', tenant: ''}});"
        "  const d = Array.isArray(r) ? r : (r.diagnostics ?? []);"
        "  out[f] = d.filter(x => x.severity === 1).map(x => x.message);"
        "}"
        "console.log(JSON.stringify(out));"
    )
    files = [str(p) for p in sorted(BROWSER.glob("*.cypher"))]
    result = subprocess.run(
        [node, "--input-type=module", "-e", script, json.dumps(files)],
        capture_output=True, text=True, timeout=120, cwd=LINT_DIR,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    errors = {f: e for f, e in json.loads(result.stdout).items() if e}
    assert not errors, errors


def test_browser_style_captions_every_node_type_with_a_property_it_has(
    pdpa_graph: LawGraph,
) -> None:
    grass = (REPO / "deploy" / "neo4j" / "lexgraph.grass").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^node\.(\w+)\s*\{(.*?)^\}", grass, flags=re.S | re.M))
    assert set(blocks) == {label.value for label in NodeLabel}
    colours = {
        tuple(re.findall(r"^\s*color:\s*(#[0-9A-Fa-f]{6})", b, re.M)) for b in blocks.values()
    }
    assert len(colours) == len(blocks), "each node type has its own colour"
    for label, body in blocks.items():
        caption = re.search(r'caption:\s*"\{(\w+)\}"', body)
        assert caption, label
        nodes = [n for n in pdpa_graph.nodes if n.label.value == label]
        assert all(n.props.get(caption.group(1)) for n in nodes), (label, caption.group(1))
    section = next(n for n in pdpa_graph.nodes if n.key == f"{S}26")
    assert re.search(r'caption:\s*"\{label\}"', blocks["Section"])
    assert section.props["label"] == "มาตรา ๒๖"
