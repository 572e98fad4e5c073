"""Retrieval over fakes behind the ports: seeding, the walk, ranking, caps, modes."""

from __future__ import annotations

import pytest

from services.core.errors import InvalidQuery, NotFound
from services.core.ports import VectorHit
from services.core.retrieval import laws, search, section_refs
from services.core.retrieval import vectors as vector_lists
from services.core.retrieval.models import Law
from services.core.retrieval.rankers import part_definitions, scope_sections
from services.core.settings import Settings
from tests.unit.retrieval_fakes import FakeEnglishModel, V, mini_pdpa

LAW = "th-pdpa-2562"
QUESTION_TH = "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าทำผิดมีโทษอะไร"


@pytest.fixture
def stores():
    return mini_pdpa()


@pytest.fixture(autouse=True)
def _fresh_caches():
    # Retrieval keeps what it read per law version; the fakes reuse one version per test.
    laws.LAW_NAMES.clear()
    part_definitions.PART_DEFINITIONS.clear()
    scope_sections.SCOPE_SECTIONS.clear()
    yield
    laws.LAW_NAMES.clear()
    part_definitions.PART_DEFINITIONS.clear()
    scope_sections.SCOPE_SECTIONS.clear()


def run(stores, question, settings=None, **kwargs):
    graph, vectors, embedder = stores
    return search(
        question, graph=graph, vectors=vectors, embedder=embedder,
        settings=settings or Settings(), **kwargs,
    )  # fmt: skip


def keys(result):
    return [s.key for s in result.sections]


def test_penalty_question_reaches_penalty_sections_through_the_graph(stores):
    result = run(stores, QUESTION_TH)
    found = keys(result)
    for number in ("26", "84", "79"):
        assert f"{LAW}:s:{number}" in found
    by_key = {s.key: s for s in result.sections}
    s84 = by_key[f"{LAW}:s:84"]
    assert s84.reached == "[hop1][PENALIZES] มาตรา ๘๔"
    assert s84.path == "มาตรา ๒๖ <-[PENALIZES]- มาตรา ๘๔"
    s79 = by_key[f"{LAW}:s:79"]
    assert s79.hops >= 1 and s79.path.endswith("<-[PENALIZES]- มาตรา ๗๙")
    assert result.intents == ["penalty"]
    assert result.index_versions == {LAW: V}


def test_every_section_carries_law_key_label_text_score_and_path(stores):
    for item in run(stores, QUESTION_TH).sections:
        assert item.law == LAW and item.key.startswith(f"{LAW}:s:")
        assert item.label.startswith("มาตรา") and item.text
        assert item.score > 0 and item.reached and item.path


def test_penalty_intent_ranks_penalty_sections_above_plain_citations(stores):
    result = run(stores, "เก็บข้อมูลสุขภาพ มีโทษอะไร")
    found = keys(result)
    assert found.index(f"{LAW}:s:84") < found.index(f"{LAW}:s:27") or (f"{LAW}:s:27" not in found)


def test_one_embed_call_one_published_read_one_walk_and_one_detail_read(stores):
    graph, _, embedder = stores
    run(stores, QUESTION_TH)  # the first search of a law version also reads its definitions
    assert graph.calls == [
        "retrieval_laws", "retrieval_walk", "retrieval_part_definitions", "retrieval_nodes"
    ]  # fmt: skip
    graph.calls.clear()
    embedder.calls = 0
    run(stores, "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม")
    assert embedder.calls == 1
    assert graph.calls == ["retrieval_laws", "retrieval_walk", "retrieval_nodes"]
    embedder.calls = 0
    run(stores, QUESTION_TH)
    assert embedder.calls == 1  # its conduct too (`stages.conduct_text`), in the same call


def test_vector_only_modes_do_not_walk(stores):
    graph, _, _ = stores
    run(stores, QUESTION_TH, mode="hybrid")
    assert graph.calls == ["retrieval_laws", "retrieval_nodes"]


def test_unpublished_law_is_invisible_even_when_its_points_match(stores):
    result = run(stores, "ข้อมูลสุขภาพของพนักงานบริษัท")
    assert all(s.law == LAW for s in [*result.sections, *result.nodes])


def test_explicit_citation_seeds_the_walk(stores):
    result = run(stores, "มาตรา ๒๖ มีโทษอะไร")
    assert result.seeds[0].key == f"{LAW}:s:26" and result.seeds[0].source == "citation"
    assert f"{LAW}:s:84" in keys(result)
    assert result.citations == ["มาตรา 26"]


def test_english_citation_forms_seed_too(stores):
    result = run(stores, "What is the penalty under s.26?")
    assert result.seeds[0].key == f"{LAW}:s:26"


def test_a_cited_clause_stands_for_the_sections_it_cites(stores):
    graph, _, _ = stores
    graph.link("REFERENCES", f"{LAW}:s:31", f"{LAW}:s:30", from_paragraphs=[1], from_clauses=["1"])
    graph.link("REFERENCES", f"{LAW}:s:31", f"{LAW}:s:24", from_paragraphs=[1], from_clauses=["2"])
    # an inserted clause "(๑/๑)": its own citations, not those of "(๑)"
    graph.link(
        "REFERENCES", f"{LAW}:s:31", f"{LAW}:s:27", from_paragraphs=[1], from_clauses=["1/1"]
    )
    result = run(stores, "มาตรา ๓๑ (๑/๑) หมายถึงอะไร")
    assert [s.key for s in result.seeds if s.source == "clause"] == [f"{LAW}:s:27"]
    result = run(stores, "มาตรา ๓๑ (๑) หมายถึงอะไร")
    named = {s.key: (s.source, s.hops) for s in result.seeds if s.source in ("citation", "clause")}
    assert named == {f"{LAW}:s:31": ("citation", 2), f"{LAW}:s:30": ("clause", 1)}
    ranked = keys(result)
    assert ranked[0] == f"{LAW}:s:31"  # the section the question names comes first
    assert "citation" in result.sections[ranked.index(f"{LAW}:s:30")].sources
    # "section 31(2)": a paragraph in EU style, a clause in Thai drafting; either matches
    result = run(stores, "What does section 31(2) refer to?")
    assert [s.key for s in result.seeds if s.source == "clause"] == [f"{LAW}:s:24"]
    # without a clause, the section's citations stay ordinary neighbours
    result = run(stores, "มาตรา ๓๑ หมายถึงอะไร")
    assert [s.key for s in result.seeds if s.source in ("citation", "clause")] == [f"{LAW}:s:31"]
    assert "citation" not in result.sections[keys(result).index(f"{LAW}:s:30")].sources


def test_two_hops_reach_a_penalty_through_a_citing_section(stores):
    result = run(
        stores,
        "มาตรา ๒๖ มีโทษอะไร",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
    )
    s79 = next(s for s in result.sections if s.key == f"{LAW}:s:79")
    assert s79.hops == 2
    assert s79.path == "มาตรา ๒๖ <-[REFERENCES]- มาตรา ๒๗ <-[PENALIZES]- มาตรา ๗๙"


def test_max_hops_one_stops_before_the_second_hop(stores):
    result = run(
        stores,
        "มาตรา ๒๖ มีโทษอะไร",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
        max_hops=1,
    )
    assert all(s.hops <= 1 for s in [*result.sections, *result.nodes])
    assert f"{LAW}:s:79" not in [s.key for s in result.sections if s.hops]


def test_hierarchy_edges_are_not_walked(stores):
    result = run(stores, "มาตรา ๒๖")
    assert all("NEXT" not in s.path and "CONTAINS" not in s.path for s in result.sections)


def test_exception_intent_brings_the_exemption_node(stores):
    result = run(stores, "เก็บข้อมูลสุขภาพ เว้นแต่ กรณีใด")
    assert "exception" in result.intents
    assert any(n.kind == "exemption" for n in result.nodes)


def test_top_k_and_full_text_caps(stores):
    settings = Settings(retrieval={"select": {"max_full_sections": 1}})
    result = run(stores, QUESTION_TH, settings=settings, top_k=3)
    assert len(result.sections) == 3
    assert result.sections[0].full_text


def test_expanded_cap_limits_graph_only_nodes(stores):
    result = run(stores, "มาตรา ๒๖", settings=Settings(retrieval={"select": {"max_expanded": 1}}))
    graph_only = [i for i in [*result.sections, *result.nodes] if i.sources == ("graph",)]
    assert len(graph_only) <= 1


def test_hub_fanout_cap_keeps_best_children_per_parent(stores):
    result = run(
        stores,
        "มาตรา ๒๗",
        settings=Settings(
            retrieval={"walk": {"hub_fanout_cap": 1}, "seeds": {"max_seeds": 0, "per_list": 0}}
        ),
    )
    # s.27 has three hop-1 neighbours (24, 26, 79); with the cap only one is walked per parent
    hop1 = [i for i in [*result.sections, *result.nodes] if i.hops == 1 and i.seed == f"{LAW}:s:27"]
    assert len(hop1) == 1


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_vector_only_modes_skip_the_walk_and_still_list_sections(stores, mode):
    result = run(stores, QUESTION_TH, mode=mode)
    assert result.sections and all(s.hops == 0 for s in result.sections)
    assert result.seeds == []
    _, vectors, _ = stores
    expected = {"bm25": "sparse", "dense": "dense", "hybrid": "hybrid"}[mode]
    assert all(m == expected for _, m in vectors.calls)


def test_section_refs_give_law_and_number_in_rank_order(stores):
    refs = section_refs(run(stores, QUESTION_TH))
    assert (LAW, "26") in refs


def test_laws_filter_restricts_and_unknown_law_is_not_found(stores):
    assert run(stores, QUESTION_TH, laws=[LAW]).sections
    with pytest.raises(NotFound):
        run(stores, QUESTION_TH, laws=["no-such-law"])
    with pytest.raises(NotFound):
        run(stores, QUESTION_TH, laws=["th-health-2550"])  # pending only: not visible


def test_jurisdictions_filter_restricts_and_one_without_laws_is_not_found(stores):
    assert keys(run(stores, QUESTION_TH, jurisdictions=["th"])) == keys(run(stores, QUESTION_TH))
    with pytest.raises(NotFound, match="no published law of jurisdiction: EU"):
        run(stores, QUESTION_TH, jurisdictions=["EU"])
    with pytest.raises(NotFound, match="unknown law"):
        run(stores, QUESTION_TH, laws=["no-such-law"], jurisdictions=["TH"])


def test_caller_scope_is_the_laws_of_both_lists():
    catalogue = {
        law.id: law
        for law in (
            Law("th-a", "v1", None, jurisdiction="TH"),
            Law("th-b", "v1", None, jurisdiction="TH"),
            Law("th-draft", None, "v2", jurisdiction="TH"),  # pending only: not searched
            Law("eu-gdpr", "v1", None, jurisdiction="EU"),
            Law("sg-pdpa", "v1", None, jurisdiction="SG"),
        )
    }
    assert laws.caller_scope(catalogue, None, None) is None
    assert laws.caller_scope(catalogue, None, ("TH",)) == ["th-a", "th-b"]
    assert laws.caller_scope(catalogue, None, ("EU", "SG")) == ["eu-gdpr", "sg-pdpa"]
    assert laws.caller_scope(catalogue, ["eu-gdpr", "th-b"], ("TH",)) == ["th-b"]
    with pytest.raises(NotFound, match="none of the laws asked for"):
        laws.caller_scope(catalogue, ["eu-gdpr"], ("TH",))
    with pytest.raises(NotFound, match="JP"):
        laws.caller_scope(catalogue, None, ("TH", "JP"))


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"jurisdictions": ["T1"]}, "jurisdictions"),
        ({"jurisdictions": ["THAI"]}, "jurisdictions"),
        ({"jurisdictions": "TH"}, "jurisdictions"),
        ({"question": ""}, "query"),
        ({"question": "   \x00\x07  "}, "query"),
        ({"question": "ก" * 100_000}, "query"),
        ({"top_k": 0}, "top_k"),
        ({"top_k": 10_000}, "top_k"),
        ({"max_hops": 3}, "max_hops"),
        ({"mode": "magic"}, "mode"),
    ],
)
def test_bad_input_is_an_invalid_query_naming_the_field(stores, kwargs, field):
    question = kwargs.pop("question", QUESTION_TH)
    with pytest.raises(InvalidQuery) as err:
        run(stores, question, **kwargs)
    assert err.value.field == field


def test_cypher_fragments_are_just_text(stores):
    result = run(stores, "MATCH (n) DETACH DELETE n // มาตรา 26 }) RETURN 1")
    graph, _, _ = stores
    assert graph.nodes  # nothing deleted: user text only ever travels as parameters
    assert result.query.startswith("MATCH")


def test_penal_section_reached_by_a_plain_citation_counts_as_a_penalty(stores):
    graph, _, _ = stores
    graph.add("Section", f"{LAW}:s:80", V, number="80", label="มาตรา ๘๐", text="โทษ")
    graph.link("REFERENCES", f"{LAW}:s:80", f"{LAW}:s:26")  # cites 26 ...
    graph.link("PENALIZES", f"{LAW}:s:80", f"{LAW}:s:24")  # ... but punishes a breach of 24
    graph.add("Section", f"{LAW}:s:40", V, number="40", label="มาตรา ๔๐", text="หน้าที่")
    graph.link("REFERENCES", f"{LAW}:s:40", f"{LAW}:s:26")
    result = run(
        stores,
        "มาตรา ๒๖ มีโทษอะไร",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
    )
    found = keys(result)
    assert found.index(f"{LAW}:s:80") < found.index(f"{LAW}:s:40")
    plain = run(
        stores, "มาตรา ๒๖", settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}})
    )
    by_key = {s.key: s.score for s in plain.sections}
    assert by_key[f"{LAW}:s:80"] == pytest.approx(by_key[f"{LAW}:s:40"])


def test_a_definition_is_crossed_only_towards_its_defining_section(stores):
    graph, _, _ = stores
    graph.link("USES_TERM", f"{LAW}:s:30", f"{LAW}:def:ข้อมูลส่วนบุคคล")
    result = run(
        stores,
        "มาตรา ๒๖ หมายความว่า",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
    )
    walked = {i.key: i for i in [*result.sections, *result.nodes] if i.hops}
    assert walked[f"{LAW}:s:6"].path.endswith("<-[DEFINES]- มาตรา ๖")
    assert f"{LAW}:s:30" not in walked  # not through the term both sections use


def test_a_bare_section_number_means_the_law_the_question_names(stores):
    graph, _, _ = stores
    laws.LAW_NAMES.clear()  # names are kept per law version; the fakes reuse versions
    graph.add_law("eu-gdpr", "eeee00000000", title="General Data Protection Regulation",
                  short_name="GDPR")  # fmt: skip
    graph.add("Section", "eu-gdpr:s:26", "eeee00000000", number="26", label="Article 26", text="x")
    named = run(
        stores,
        "มาตรา 26 ของ PDPA มีโทษอะไร",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
    )
    assert [s.key for s in named.seeds] == [f"{LAW}:s:26"]
    gdpr = run(
        stores,
        "What does Article 26 GDPR say?",
        settings=Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}}),
    )
    assert [s.key for s in gdpr.seeds] == ["eu-gdpr:s:26"]
    assert graph.calls.count("retrieval_law_names") == 1  # then kept for these versions
    assert named.seeds[0].certain and gdpr.seeds[0].certain
    assert keys(named)[0] == f"{LAW}:s:26"  # a section the question names comes first
    # Named by number only: the law is a guess from the vector hits, so it is not put first
    bare = run(stores, "มาตรา ๒๖ ข้อมูลสุขภาพ มีโทษอะไร")
    cited = [s for s in bare.seeds if s.source == "citation"]
    assert cited and not any(s.certain for s in cited)


def test_a_name_two_laws_share_means_the_one_of_the_jurisdiction_the_question_names(stores):
    graph, _, _ = stores
    graph.nodes[LAW].props["jurisdiction"] = "TH"
    graph.add_law("sg-pdpa-2012", "5555aaaa0000", title="Personal Data Protection Act 2012",
                  short_name="PDPA", jurisdiction="SG")  # fmt: skip
    graph.add("Section", "sg-pdpa-2012:s:26", "5555aaaa0000", number="26", label="Section 26",
              text="x")  # fmt: skip
    settings = Settings(retrieval={"seeds": {"max_seeds": 0, "per_list": 0}})
    thai = run(stores, "What does section 26 of the Thai PDPA say?", settings=settings)
    assert [s.key for s in thai.seeds] == [f"{LAW}:s:26"] and thai.seeds[0].certain
    singapore = run(stores, "What does section 26 of Singapore's PDPA say?", settings=settings)
    assert [s.key for s in singapore.seeds] == ["sg-pdpa-2012:s:26"]
    # a place named elsewhere ("a Singapore company") does not take the name from the one
    # that qualifies it
    applies = run(stores, "Does section 26 of the Thai PDPA bind a Singapore company?",
                  settings=settings)  # fmt: skip
    assert [s.key for s in applies.seeds] == [f"{LAW}:s:26"]
    # no place named: the name still means both laws, and the section number is uncertain
    either = run(stores, "What does section 26 of the PDPA say?", settings=settings)
    assert {s.key for s in either.seeds} == {f"{LAW}:s:26", "sg-pdpa-2012:s:26"}
    # the route says which law the place pointed to
    routes = {r["law"]: r["features"] for r in thai.laws}
    assert routes[LAW]["place"] == 1.0 and "place" not in routes.get("sg-pdpa-2012", {})


def test_penalty_section_follows_the_section_it_punishes(stores):
    found = keys(run(stores, QUESTION_TH))
    assert found.index(f"{LAW}:s:84") == found.index(f"{LAW}:s:26") + 1


def test_graph_mode_keeps_the_order_of_the_strongest_vector_hits(stores):
    question = "เก็บข้อมูลสุขภาพของพนักงาน"  # no intent: the walk only adds context
    flat = keys(run(stores, question, mode="hybrid"))
    graph = keys(run(stores, question))
    assert graph[:3] == flat[:3]
    assert set(flat) <= set(graph)  # nothing the flat search found is pushed out


def test_anchors_below_the_seeds_are_walked_one_hop_only(stores):
    result = run(
        stores, QUESTION_TH, settings=Settings(retrieval={"seeds": {"max_seeds": 1, "per_list": 0}})
    )
    assert result.seeds[0].hops == 2
    anchors = result.seeds[1:]
    assert anchors and all(s.hops == 1 for s in anchors)
    assert len(anchors) <= 4  # four anchors per seed
    walked_from_anchors = [
        i for i in [*result.sections, *result.nodes]
        if i.seed in {s.key for s in anchors} and i.hops > 1
    ]  # fmt: skip
    assert walked_from_anchors == []


def test_each_lists_first_sections_are_seeds_one_rank_step_below_the_fused_ones(stores):
    settings = Settings(retrieval={"seeds": {"max_seeds": 1, "per_list": 2}})
    result = run(stores, QUESTION_TH, settings=settings, top_k=20, explain=True)
    walked = {s.key: s for s in result.seeds if s.hops == 2}
    firsts = {
        s.key
        for s in result.sections
        if any(
            s.explanation["ranks"].get(name, 2) < 2 for name in ("chunks", "lexical", "profiles")
        )
    }
    assert firsts and firsts <= walked.keys()
    # the fused best at 1.0, every list seed one rank step below it
    assert len(walked) > 1
    assert sorted(s.score for s in walked.values()) == [0.9] * (len(walked) - 1) + [1.0]
    alone = run(
        stores, QUESTION_TH, settings=Settings(retrieval={"seeds": {"max_seeds": 1, "per_list": 0}})
    )
    assert [s.hops for s in alone.seeds].count(2) == 1


def test_a_penalty_questions_conduct_is_searched_by_meaning_for_seeds(stores):
    _, vectors, embedder = stores
    embedded: list[str] = []
    embed = embedder.embed_queries
    embedder.embed_queries = lambda texts: embedded.extend(texts) or embed(texts)
    result = run(stores, QUESTION_TH)  # "ถ้าทำผิดมีโทษอะไร": a penalty question
    assert ("chunks", "dense") in vectors.calls
    assert any("ข้อมูลสุขภาพ" in text and "โทษ" not in text for text in embedded)
    conduct = next(text for text in embedded if "โทษ" not in text)
    first = {h.key for h in vectors.hybrid_search("chunks", embed([conduct])[0], limit=6)}
    assert first & {s.key for s in result.seeds if s.hops == 2}

    for question, settings in [
        ("บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม", None),  # asks for no penalty
        (QUESTION_TH, Settings(retrieval={"disabled": ["conduct_seeds"]})),
    ]:
        vectors.calls.clear()
        run(stores, question, settings=settings)
        assert ("chunks", "dense") not in vectors.calls


def add_rival_law(stores, text, chunk_text, **law):
    """The GDPR beside the PDPA, with more sections than the deep chunk list holds, each
    chunk a closer match to the question than any PDPA section."""
    graph, vectors, _ = stores
    gdpr, version = "eu-gdpr", "eeee00000000"
    graph.add_law(gdpr, version, title="General Data Protection Regulation", **law)
    for number in range(25):
        key = f"{gdpr}:s:{number}"
        graph.add("Section", key, version, number=str(number), label=f"Article {number}", text=text)
        vectors.add("chunks", key, chunk_text, law=gdpr, version=version,
                    law_version=f"{gdpr}@{version}", kind="section")  # fmt: skip
    return gdpr


def test_a_law_the_question_names_gets_a_chunk_list_of_its_own(stores):
    laws.LAW_NAMES.clear()  # names are kept per law version; the fakes reuse versions
    words = "เก็บข้อมูลสุขภาพของพนักงาน"
    alone = run(stores, f"{words} ตาม PDPA")
    assert not any("named_law" in s.sources for s in alone.sections)  # one law: no new list

    gdpr = add_rival_law(stores, words, f"{words} ข้อมูล สุขภาพ พนักงาน เก็บ", short_name="GDPR")
    assert {s.law for s in run(stores, words).sections} == {gdpr}

    named = run(stores, f"{words} ตาม PDPA")
    pdpa = [s for s in named.sections if s.law == LAW]
    assert f"{LAW}:s:26" in {s.key for s in pdpa}
    assert all("named_law" in s.sources for s in pdpa if "graph" not in s.sources)


def test_the_laws_of_a_jurisdiction_the_question_names_get_a_chunk_list_of_their_own(stores):
    _, vectors, _ = stores
    words = "employee health data collected"
    alone = run(stores, f"{words} by a Thai company")
    assert not any("placed" in s.sources for s in alone.sections)  # one law: no new list

    add_rival_law(stores, words, f"{words} {words}", jurisdiction="EU")
    vectors.add("chunks", f"{LAW}:s:26", f"{words} ข้อมูลสุขภาพ", law=LAW, version=V,
                law_version=f"{LAW}@{V}", kind="section")  # fmt: skip
    assert not any("placed" in s.sources for s in run(stores, words).sections)  # no place named

    placed = run(stores, f"{words} by a Thai company")
    assert f"{LAW}:s:26" in {s.key for s in placed.sections if "placed" in s.sources}
    unplaced = run(stores, f"{words} by a Thai company",
                   settings=Settings(retrieval={"disabled": ["placed_list"]}))  # fmt: skip
    assert not any("placed" in s.sources for s in unplaced.sections)


def test_what_a_long_question_asks_gets_a_lexical_chunk_list_in_graph_mode(stores):
    _, vectors, _ = stores
    facts = "พนักงานคนหนึ่งลาออกไปเมื่อปีที่แล้ว บริษัทยังเก็บแฟ้มประวัติไว้ในตู้ที่สำนักงาน " * 6
    question = f"{facts} อยากทราบว่าเก็บข้อมูลสุขภาพแล้วมีโทษอะไร"
    # list seeds search the chunks' lexical list too: off, so that the asking list is alone
    settings = Settings(retrieval={"disabled": ["list_seeds"]})
    result = run(stores, question, settings=settings)
    assert ("chunks", "sparse") in vectors.calls
    asked = [s for s in result.sections if "asking" in s.sources]
    assert f"{LAW}:s:26" in {s.key for s in asked}

    vectors.calls.clear()
    flat = run(stores, question, mode="hybrid")  # the flat modes stay one list per collection
    assert ("chunks", "sparse") not in vectors.calls
    assert not any("asking" in s.sources for s in flat.sections)
    vectors.calls.clear()
    run(stores, "อยากทราบว่าเก็บข้อมูลสุขภาพแล้วมีโทษอะไร", settings=settings)  # short: all asks
    assert ("chunks", "sparse") not in vectors.calls


def test_the_definitions_of_the_part_an_answer_lies_in_come_last(stores):
    graph, _, _ = stores
    term = f"{LAW}:def:ข้อมูลสุขภาพ"
    graph.add("Section", f"{LAW}:s:25", V, number="25", label="มาตรา ๒๕",
              text="ในหมวดนี้ ข้อมูลสุขภาพ หมายความว่า ข้อมูลเกี่ยวกับการรักษาพยาบาล")  # fmt: skip
    graph.add("Definition", term, V, term="ข้อมูลสุขภาพ", text="ข้อมูลเกี่ยวกับการรักษาพยาบาล")
    graph.link("DEFINES", f"{LAW}:s:25", term)
    for number in ("26", "27", "84"):
        graph.link("USES_TERM", f"{LAW}:s:{number}", term)
    result = run(stores, QUESTION_TH, top_k=4)
    last = result.sections[-1]
    assert [s.key for s in result.sections].count(f"{LAW}:s:25") == 1
    assert last.key == f"{LAW}:s:25"
    assert last.reached == "[hop2][DEFINES] มาตรา ๒๕"
    assert last.path.endswith("-[USES_TERM]-> ข้อมูลสุขภาพ <-[DEFINES]- มาตรา ๒๕")
    assert f"{LAW}:s:25" not in keys(run(stores, QUESTION_TH, top_k=4, mode="hybrid"))


def test_definitions_that_hold_in_the_whole_law_are_not_added(stores):
    graph, _, _ = stores
    term = f"{LAW}:def:ข้อมูลส่วนบุคคล"  # s.6: "ในพระราชบัญญัตินี้ ข้อมูลส่วนบุคคล หมายความว่า"
    for number in ("24", "27", "84"):
        graph.link("USES_TERM", f"{LAW}:s:{number}", term)
    assert f"{LAW}:s:6" not in keys(run(stores, QUESTION_TH, top_k=4))


def _with_english_law(stores):
    """The GDPR beside the Thai PDPA, its articles' paragraphs in the English model's
    collection, and an embedder that has an English model."""
    graph, vectors, embedder = stores
    graph.nodes[LAW].props["language"] = "th"
    gdpr, version = "eu-gdpr", "eeee00000000"
    graph.add_law(gdpr, version, title="General Data Protection Regulation", language="en")
    articles = {
        "7": ["Conditions for consent", "The data subject shall have the right to withdraw "
              "his or her consent at any time."],
        "17": ["Right to erasure", "The data subject shall have the right to obtain the "
               "erasure of personal data without undue delay."],
    }  # fmt: skip
    for number, paragraphs in articles.items():
        key = f"{gdpr}:s:{number}"
        text = " ".join(paragraphs)
        graph.add("Section", key, version, number=number, label=f"Article {number}", text=text)
        vectors.add("chunks", key, text, law=gdpr, version=version,
                    law_version=f"{gdpr}@{version}", kind="section")  # fmt: skip
        for n, paragraph in enumerate(paragraphs, 1):
            vectors.add_english(f"{key}#p{n}", paragraph, law=gdpr, version=version,
                                law_version=f"{gdpr}@{version}", kind="paragraph",
                                section=key)  # fmt: skip
    embedder.english = FakeEnglishModel()
    return gdpr


def test_an_english_question_searches_the_english_laws_paragraphs_by_the_english_model(stores):
    graph, vectors, embedder = stores
    gdpr = _with_english_law(stores)
    question = "Can I withdraw my consent at any time?"
    result = run(stores, question)
    assert ("english", "dense") in vectors.calls
    assert embedder.english.queries == [question]  # its own words, no glossary terms
    found = {s.key: s for s in result.sections}
    assert "english" in found[f"{gdpr}:s:7"].sources  # by its best paragraph

    for settings, kwargs in [
        (Settings(retrieval={"disabled": ["english_list"]}), {}),
        (None, {"mode": "hybrid"}),  # the flat modes: one list per collection
        (None, {"laws": [LAW]}),  # no English-language law searched: not even embedded
    ]:
        vectors.calls.clear()
        embedder.english.queries.clear()
        run(stores, question, settings=settings, **kwargs)
        assert ("english", "dense") not in vectors.calls
        assert embedder.english.queries == []

    vectors.calls.clear()
    run(stores, QUESTION_TH)  # a Thai question
    assert ("english", "dense") not in vectors.calls


def test_routing_weighs_the_laws_without_the_english_list(stores):
    """The English list searches the English laws only: routing reads the same evidence
    with it as without it."""
    graph, vectors, embedder = stores
    gdpr = _with_english_law(stores)
    question = "Can I withdraw my consent at any time?"

    def routes(settings=None):
        return {
            route["law"]: route["features"]
            for route in run(stores, question, settings=settings).laws
        }

    with_list = routes()
    assert ("english", "dense") in vectors.calls and gdpr in with_list
    assert with_list == routes(Settings(retrieval={"disabled": ["english_list"]}))


def test_a_section_s_paragraphs_count_once_at_the_best_one():
    def paragraph(key, score):
        return VectorHit(key, score, {"kind": "paragraph", "section": key.split("#")[0]})

    found = [paragraph("a:s:1#p2", 0.9), paragraph("a:s:2#p1", 0.8), paragraph("a:s:1#p1", 0.7)]
    assert [h.key for h in vector_lists.best_paragraphs(found)] == ["a:s:1#p2", "a:s:2#p1"]
    assert vector_lists.hit_keys(found[0]) == ["a:s:1"]
    assert vector_lists.hit_kinds({"english": found}) == {"a:s:1": "section", "a:s:2": "section"}
