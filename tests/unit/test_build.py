"""A law's whole graph: structure, citations, penalties, definitions, exemptions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ingest.build import build_graph, graph_summary
from ingest.corpus import CorpusIndex
from ingest.graph import Edge, LawGraph, NodeLabel, RelType
from ingest.models import Law
from ingest.parse import read_source

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PDPA_OCS = SHARED / "corpus/th-pdpa-2562/ocs/pdpa_2562_ocs.json"
PDPA_MD = SHARED / "corpus/th-pdpa-2562/sidataplus/about.md"
CCC = SHARED / "corpus/nitibench-ccl-laws/ป0003-1D-0002.json"
REVENUE_CODE = SHARED / "corpus/nitibench-ccl-laws/ป0008-1D-0001.json"
GDPR = SHARED / "corpus/eu-gdpr/gdpr.json"
APPI = SHARED / "corpus/jp-appi/415AC0000000057_appi_ja.json"
pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared corpus not present")

PDPA = "th-pdpa-2562"


@pytest.fixture(scope="module", params=[PDPA_OCS, PDPA_MD], ids=["ocs-json", "sidataplus-md"])
def pdpa(request: pytest.FixtureRequest) -> tuple[Law, LawGraph]:
    law = read_source(request.param).laws[0]
    return law, build_graph(law, CorpusIndex.from_laws([law]))


def _edge(graph: LawGraph, rel: RelType, source: str, target: str) -> Edge:
    matches = [e for e in graph.edges if (e.type, e.source, e.target) == (rel, source, target)]
    assert len(matches) == 1, f"{rel} {source} -> {target}: {len(matches)} edges"
    return matches[0]


def _s(number: str) -> str:
    return f"{PDPA}:s:{number}"


def test_pdpa_graph_counts_and_connectivity(pdpa: tuple[Law, LawGraph]) -> None:
    law, graph = pdpa
    summary = graph_summary(graph)
    print(f"\n{Path(law.source).name}: nodes {summary['nodes']} edges {summary['edges']}")
    print(f"unresolved: {[(u['source'], u['law'], u['section']) for u in summary['unresolved']]}")
    assert summary["law"] == PDPA
    assert summary["nodes"]["Section"] == 96
    assert summary["edges"]["REFERENCES"] == 120
    assert summary["edges"]["NEXT"] == 95
    assert summary["edges"]["CONTAINS"] == 96
    assert summary["weakly_connected"] is True
    assert len(summary["edge_list"]) == summary["edge_count"]


def test_pdpa_markdown_graph_has_the_chapters_and_parts() -> None:
    law = read_source(PDPA_MD).laws[0]
    summary = graph_summary(build_graph(law, CorpusIndex.from_laws([law])))
    assert summary["nodes"]["Chapter"] == 8  # 7 chapters + transitional provisions
    assert summary["nodes"]["Part"] == 5
    assert summary["edges"]["HAS_PART"] == 5


def test_penalty_section_reaches_violated_section(pdpa: tuple[Law, LawGraph]) -> None:
    _, graph = pdpa
    s84 = _edge(graph, RelType.PENALIZES, _s("84"), _s("26")).props
    assert (s84["kind"], s84["max_fine_thb"], s84["max_prison_months"]) == (
        "administrative",
        5_000_000,
        None,
    )
    for target in ("27", "28"):
        s79 = _edge(graph, RelType.PENALIZES, _s("79"), _s(target)).props
        assert (s79["kind"], s79["max_fine_thb"], s79["max_prison_months"]) == (
            "criminal",
            1_000_000,
            12,
        )
    assert not [
        e
        for e in graph.edges
        if e.type is RelType.PENALIZES and e.source == _s("79") and e.target == _s("26")
    ]
    penalties = {n.key: n.props for n in graph.nodes if n.label is NodeLabel.PENALTY}
    assert penalties[f"{PDPA}:pen:84:1"]["max_fine_thb"] == 5_000_000
    _edge(graph, RelType.PRESCRIBES, _s("84"), f"{PDPA}:pen:84:1")


def test_references_keep_paragraphs_clauses_and_spans(pdpa: tuple[Law, LawGraph]) -> None:
    law, graph = pdpa
    props = _edge(graph, RelType.REFERENCES, _s("84"), _s("26")).props
    assert props["paragraphs"] == [1, 3]
    text = next(s.text for s in law.sections if s.number == "84")
    assert all(text[a:b].startswith("มาตรา") for a, b in props["spans"])
    assert len(props["spans"]) == 3  # s.84 names s.26 three times
    clauses = _edge(graph, RelType.REFERENCES, _s("86"), _s("37")).props["clauses"]
    assert clauses == ["5"]


def test_references_say_which_clause_of_the_citing_section_cites(
    pdpa: tuple[Law, LawGraph],
) -> None:
    _, graph = pdpa
    # s.23 (๖): the rights a privacy notice must name; s.23 (๑): the lawful bases of s.24
    for number in ("19", "30", "31", "32", "33", "34", "36", "73"):
        props = _edge(graph, RelType.REFERENCES, _s("23"), _s(number)).props
        assert props["from_clauses"] == ["6"] and props["from_paragraphs"] == [1]
    assert _edge(graph, RelType.REFERENCES, _s("23"), _s("24")).props["from_clauses"] == ["1"]
    # s.84 cites s.26 from its first paragraph, which has no clauses
    props = _edge(graph, RelType.REFERENCES, _s("84"), _s("26")).props
    assert props["from_paragraphs"] == [1] and props["from_clauses"] == []


def test_s20_civil_code_citations_are_external_until_the_code_is_in_the_corpus(
    pdpa: tuple[Law, LawGraph],
) -> None:
    law, graph = pdpa
    external = [e for e in graph.edges if e.type is RelType.CITES_EXTERNAL]
    assert [(e.source, e.props["sections"]) for e in external] == [
        (_s("20"), ["22", "23", "24", "27"])
    ]
    [node] = [n for n in graph.nodes if n.label is NodeLabel.EXTERNAL_LAW]
    assert node.props["name"].replace(" ", "") == "ประมวลกฎหมายแพ่งและพาณิชย์"
    assert sorted(u["section"] for u in graph.unresolved) == ["22", "23", "24", "27"]

    ccc = read_source(CCC).laws[0]
    with_ccc = build_graph(law, CorpusIndex.from_laws([law, ccc]))
    cross = sorted(
        e.target
        for e in with_ccc.edges
        if e.type is RelType.REFERENCES and e.target.startswith(ccc.id)
    )
    print(f"\ns.20 with the CCC in the corpus: {cross}")
    assert cross == [f"{ccc.id}:s:{n}" for n in ("22", "23", "24", "27")]
    assert not [e for e in with_ccc.edges if e.type is RelType.CITES_EXTERNAL]
    assert with_ccc.unresolved == []


def test_revenue_code_stamp_duty_sections_reference_every_item_of_the_schedule() -> None:
    """s.104 charges "ตราสารที่ระบุไว้ในบัญชีท้ายหมวดนี้" (the instruments in the schedule at
    the end of this chapter): the 30 "บัญชีอัตราอากรแสตมป์" items that follow s.129."""
    law = read_source(REVENUE_CODE).laws[0]
    graph = build_graph(law, CorpusIndex.from_laws([law]))
    items = [s.key for s in law.sections if s.number.startswith("บัญชีอัตราอากรแสตมป์")]
    cites_schedule = {
        e.source for e in graph.edges if e.type is RelType.REFERENCES and e.target in items
    }
    numbers = sorted(key.rsplit(":s:", 1)[1] for key in cites_schedule)
    print(f"\nsections citing the stamp-duty schedule: {numbers}")
    assert len(items) == 30
    assert numbers == ["104", "107", "108", "110", "113", "118", "119"]
    s104 = f"{law.id}:s:104"
    for item in items:
        assert _edge(graph, RelType.REFERENCES, s104, item).props["spans"]


def test_definitions_and_exemptions_are_linked(pdpa: tuple[Law, LawGraph]) -> None:
    _, graph = pdpa
    _edge(graph, RelType.DEFINES, _s("6"), f"{PDPA}:def:ข้อมูลส่วนบุคคล")
    _edge(graph, RelType.USES_TERM, _s("26"), f"{PDPA}:def:ข้อมูลส่วนบุคคล")
    grants = [e for e in graph.edges if e.type is RelType.GRANTS_EXEMPTION and e.source == _s("26")]
    assert grants, "s.26 lists the exceptions to its prohibition"
    counts = Counter(e.type.value for e in graph.edges)
    print(
        f"\nDEFINES {counts['DEFINES']} USES_TERM {counts['USES_TERM']} GRANTS_EXEMPTION {counts['GRANTS_EXEMPTION']} EXEMPTS_FROM {counts['EXEMPTS_FROM']}"
    )


def test_graph_is_deterministic_and_keys_unique(pdpa: tuple[Law, LawGraph]) -> None:
    law, graph = pdpa
    again = build_graph(law, CorpusIndex.from_laws([law]))

    def dump(g: LawGraph) -> str:
        return json.dumps(
            [[n.label, n.key, dict(n.props)] for n in g.nodes]
            + [[e.type, e.source, e.target, dict(e.props)] for e in g.edges]
            + [g.unresolved],
            ensure_ascii=False,
        )

    assert dump(graph) == dump(again)
    assert len({(n.label, n.key) for n in graph.nodes}) == len(graph.nodes)
    assert len({(e.type, e.source, e.target) for e in graph.edges}) == len(graph.edges)
    keys = {n.key for n in graph.nodes}
    assert all(e.source in keys and e.target in keys for e in graph.edges)
    assert all(n.props["key"] == n.key and n.props["law"] == PDPA for n in graph.nodes)


def test_citing_places_count_paragraphs_as_printed() -> None:
    """GDPR Art. 12 cites Art. 11 from its paragraphs 2 and 6 (its title, printed above its
    text in the seed, is no paragraph); APPI 第27条 cites 第20条 from its second 項 (the seven
    items of the first are no paragraphs)."""
    for path, source, target, paragraphs in (
        (GDPR, "eu-gdpr:s:12", "eu-gdpr:s:11", [2, 6]),
        (APPI, "jp-appi:s:27", "jp-appi:s:20", [2]),
    ):
        law = read_source(path).laws[0]
        graph = build_graph(law, CorpusIndex.from_laws([law]))
        edge = _edge(graph, RelType.REFERENCES, source, target)
        assert edge.props["from_paragraphs"] == paragraphs


def test_gdpr_graph_resolves_article_83_5() -> None:
    law = read_source(GDPR).laws[0]
    graph = build_graph(law, CorpusIndex.from_laws([law]))
    for article in ("5", "6", "7", "9"):
        _edge(graph, RelType.REFERENCES, "eu-gdpr:s:83", f"eu-gdpr:s:{article}")
        props = _edge(graph, RelType.PENALIZES, "eu-gdpr:s:83", f"eu-gdpr:s:{article}").props
        assert props["max_fine"] == 20_000_000 and props["currency"] == "EUR"
    summary = graph_summary(graph)
    print(f"\nGDPR: nodes {summary['nodes']} edges {summary['edges']}")
    assert summary["nodes"]["Section"] == 99
    assert summary["weakly_connected"] is True


def test_curated_concepts_attach_to_their_sections(
    pdpa: tuple[Law, LawGraph], tmp_path: Path
) -> None:
    law, graph = pdpa
    _edge(graph, RelType.ABOUT, _s("30"), f"{PDPA}:concept:right-access")
    bare = build_graph(law, CorpusIndex.from_laws([law]), curated_dir=tmp_path)
    assert not [n for n in bare.nodes if n.label is NodeLabel.CONCEPT]
    assert graph_summary(bare)["weakly_connected"] is True
