"""The walk query returns relationships and `retrieval.walk` rebuilds the paths from them.
Checked on the real graph database (the Neo4j fixture, PDPA loaded) against a plain
path query that returns every path whole, under the same rules. Likewise the read of the
sections that use another section's defined terms, and of a law's scope sections."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from services.core.graph_store import BoltGraphStore
from services.core.retrieval import Seed, walk
from services.core.retrieval.models import Law
from services.core.retrieval.rankers import part_definitions, scope_sections
from tests.integration.conftest import LAW

pytestmark = pytest.mark.integration

WALKED = (
    "REFERENCES|PENALIZES|PRESCRIBES|DEFINES|USES_TERM|GRANTS_EXEMPTION|EXEMPTS_FROM|CITES_EXTERNAL"
)
ANCHOR = "REFERENCES|PENALIZES|PRESCRIBES|DEFINES|GRANTS_EXEMPTION|EXEMPTS_FROM"
# Slow but plain: every path whole, no index-friendly branches, no rebuilding.
WHOLE_PATHS = """
UNWIND $keys AS k
MATCH p = (s {key: k})-[:%s*1..%d]-(n)
WHERE NOT (length(p) = 2 AND (type(relationships(p)[1]) = 'USES_TERM'
           OR (nodes(p)[1]:Definition AND type(relationships(p)[1]) <> 'DEFINES')))
RETURN [x IN nodes(p) | x.key] AS keys, [r IN relationships(p) | type(r)] AS types,
       [r IN relationships(p) | startNode(r).key] AS starts
"""


def _whole(store: BoltGraphStore, keys: list[str], types: str, hops: int) -> set[Any]:
    rows = store.run_cypher(WHOLE_PATHS % (types, hops), keys=keys)
    return {
        (tuple(r["keys"]), tuple(r["types"]), tuple(r["starts"]))
        for r in rows
        if len(set(r["keys"])) == len(r["keys"])  # retrieval reads a node once per path
    }


@pytest.mark.parametrize("max_hops", [1, 2])
def test_rebuilt_paths_are_the_paths_of_the_graph(pdpa_store: BoltGraphStore, max_hops: int):
    published = [f"{r['law']}@{r['version']}" for r in pdpa_store.run_read("published_laws")]
    seeds = [
        Seed(f"{LAW}:s:26", LAW, "vector", 1.0),
        Seed(f"{LAW}:def:ข้อมูลส่วนบุคคล", LAW, "vector", 0.9, kind="definition"),
        Seed(f"{LAW}:pen:84:1", LAW, "vector", 0.8, kind="penalty"),
        Seed(f"{LAW}:ex:26:1", LAW, "vector", 0.8, kind="exemption"),
        Seed(f"{LAW}:s:37", LAW, "vector", 0.5, hops=1),  # an anchor: one hop
    ]
    paths, _ = walk(pdpa_store, seeds, published, max_hops)
    rebuilt = {
        (
            tuple(s.key for s in path.steps),
            tuple(s.type for s in path.steps[1:]),
            tuple(a.key if s.direction == "out" else s.key for a, s in pairwise(path.steps)),
        )
        for path in paths
    }
    expected = _whole(pdpa_store, [s.key for s in seeds[:4]], WALKED, max_hops)
    expected |= _whole(pdpa_store, [f"{LAW}:s:37"], ANCHOR, 1)
    assert len(expected) > 50
    assert rebuilt == expected


def test_the_walk_tells_a_duty_punished_only_as_applied(pdpa_store: BoltGraphStore):
    """s.88 fines a foreign controller's representative for the records duty of s.39 "as
    applied mutatis mutandis" by s.39 paragraph 2; s.82 fines the controller itself."""
    published = [f"{r['law']}@{r['version']}" for r in pdpa_store.run_read("published_laws")]
    paths, applied = walk(pdpa_store, [Seed(f"{LAW}:s:39", LAW, "vector", 1.0)], published, 1)
    penal = {path.steps[1].key for path in paths if path.steps[1].type == "PENALIZES"}
    assert {f"{LAW}:s:82", f"{LAW}:s:88"} <= penal
    assert applied == {(f"{LAW}:s:88", f"{LAW}:s:39")}


def test_the_part_definitions_read_matches_a_plain_query(pdpa_store: BoltGraphStore):
    (row,) = pdpa_store.run_read("published_laws")
    law_version = f"{row['law']}@{row['version']}"
    rows = pdpa_store.run_read("retrieval_part_definitions", laws=[[LAW, law_version]])
    plain = pdpa_store.run_cypher(
        "MATCH (s:Section)-[:USES_TERM]->(d:Definition)<-[:DEFINES]-(t:Section) "
        "WHERE s.law = $law AND s.key <> t.key RETURN s.key AS s, d.key AS d, t.key AS t",
        law=LAW,
    )
    uses = {(r["section"], r["term"], r["defines"]) for r in rows}
    assert uses == {(r["s"], r["d"], r["t"]) for r in plain} and len(uses) > 100
    # The PDPA's one defining section, s.6, says its definitions hold in the whole Act
    # ("ในพระราชบัญญัตินี้"): not a part's, so retrieval adds it to no answer.
    assert {r["head"].split()[0] for r in rows} == {"ในพระราชบัญญัตินี้"}
    part_definitions.PART_DEFINITIONS.clear()
    law = Law(LAW, row["version"], None)
    assert part_definitions.part_definitions(pdpa_store, [law]) == {law_version: {}}


def test_the_pdpa_s_scope_sections_are_read_from_the_graph(pdpa_store: BoltGraphStore):
    (row,) = pdpa_store.run_read("published_laws")
    law = Law(LAW, row["version"], None)
    scope_sections.SCOPE_SECTIONS.clear()
    # s.4 (what the Act does not apply to) and s.5 (its reach abroad); not s.2 (in force from)
    assert scope_sections.scope_sections(pdpa_store, [law], 12) == {
        law.law_version: (f"{LAW}:s:4", f"{LAW}:s:5")
    }
    scope_sections.SCOPE_SECTIONS.clear()
