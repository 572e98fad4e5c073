"""Both vector adapters against real embedded stores in temp dirs: qdrant-edge shards and
qdrant-client local mode (the stand-in for a Qdrant server). Same behaviour from both."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from qdrant_client import QdrantClient

from ingest.graph import Edge, LawGraph, Node, NodeLabel, RelType
from ingest.models import Division, Law, Section
from services.core.embedding import OfflineEmbedder
from services.core.errors import VectorsUnavailable
from services.core.indexing import drop_other_versions, index_law
from services.core.ports import Embedding, SparseVector, VectorIndex, VectorPoint, point_id
from services.core.profiles import chunk_documents, profile_documents
from services.core.vector_index import EdgeVectorIndex, QdrantVectorIndex

LAW = "th-pdpa-2562"
S24, S26, S84 = f"{LAW}:s:24", f"{LAW}:s:26", f"{LAW}:s:84"
CH2, CH7 = f"{LAW}:ch:2", f"{LAW}:ch:7"


def _law() -> tuple[Law, LawGraph]:
    law = Law(
        id=LAW,
        title="พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒",
        language="th",
        jurisdiction="TH",
        source="test",
        short_name="PDPA",
        divisions=[
            Division("chapter", CH2, "2", "หมวด ๒", "การคุ้มครองข้อมูลส่วนบุคคล"),
            Division("chapter", CH7, "7", "หมวด ๗", "บทกำหนดโทษ"),
        ],
        sections=[
            Section(
                S24,
                "24",
                "มาตรา ๒๔",
                "ห้ามมิให้ผู้ควบคุมข้อมูลส่วนบุคคลทำการเก็บรวบรวมข้อมูลส่วนบุคคลโดยไม่ได้รับ"
                "ความยินยอมจากเจ้าของข้อมูลส่วนบุคคล เว้นแต่ เพื่อการศึกษาวิจัยหรือสถิติ",
                chapter_key=CH2,
            ),
            Section(
                S26,
                "26",
                "มาตรา ๒๖",
                "ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคลเกี่ยวกับเชื้อชาติ ความคิดเห็นทางการเมือง "
                "ข้อมูลสุขภาพ ความพิการ ข้อมูลพันธุกรรม โดยไม่ได้รับความยินยอมโดยชัดแจ้ง",
                chapter_key=CH2,
            ),
            Section(
                S84,
                "84",
                "มาตรา ๘๔",
                "ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนมาตรา ๒๖ วรรคหนึ่งหรือวรรคสาม "
                "ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท",
                chapter_key=CH7,
            ),
        ],
    )
    sec = NodeLabel.SECTION
    nodes = [Node(NodeLabel.LAW, LAW, {"title": law.title})] + [
        Node(sec, s.key, {"label": s.label}) for s in law.sections
    ]
    edges = [
        Edge(RelType.NEXT, sec, S24, sec, S26),
        Edge(RelType.REFERENCES, sec, S84, sec, S26, {"paragraphs": [1, 3]}),
        Edge(RelType.PENALIZES, sec, S84, sec, S26, {"kind": "administrative"}),
    ]
    return law, LawGraph(law_id=LAW, nodes=nodes, edges=edges)


@pytest.fixture(scope="module")
def embedder() -> OfflineEmbedder:
    return OfflineEmbedder()


@pytest.fixture(params=["edge", "client-local"])
def index(request, tmp_path) -> Iterator[VectorIndex]:
    if request.param == "edge":
        vectors: VectorIndex = EdgeVectorIndex(tmp_path / "vectors", prefix="t")
    else:
        vectors = QdrantVectorIndex(QdrantClient(path=str(tmp_path / "qdrant")), prefix="t")
    yield vectors
    vectors.close()


def _point(
    key: str, law: str, kind: str, dense: list[float], terms: dict[int, float]
) -> VectorPoint:
    return VectorPoint(
        key=key,
        embedding=Embedding(
            dense=tuple(dense),
            sparse=SparseVector(tuple(sorted(terms)), tuple(terms[i] for i in sorted(terms))),
        ),
        payload={"law": law, "version": "v1", "law_version": f"{law}@v1", "kind": kind},
    )


def _query(dense: list[float], terms: dict[int, float]) -> Embedding:
    return Embedding(
        dense=tuple(dense),
        sparse=SparseVector(tuple(sorted(terms)), tuple(terms[i] for i in sorted(terms))),
    )


@pytest.fixture
def toy(index) -> VectorIndex:
    index.ensure_collections(3, sparse_idf=True)
    index.upsert(
        "chunks",
        [
            _point("a:s:1", "a", "section", [1, 0, 0], {10: 1.0}),
            _point("a:def:x", "a", "definition", [0.9, 0.1, 0], {11: 1.0}),
            _point("b:s:1", "b", "section", [0, 1, 0], {10: 1.0, 12: 1.0}),
            _point("b:s:2", "b", "section", [0, 0, 1], {13: 1.0}),
        ],
    )
    return index


def test_indexing_a_law_fills_both_collections(index, embedder):
    law, graph = _law()
    counts = index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    assert counts == {
        "chunks": len(chunk_documents(law, "v1")),
        "profiles": len(profile_documents(law, graph, "v1")),
    }
    assert counts == {"chunks": 3, "profiles": 6}  # 4 nodes + REFERENCES + PENALIZES


def test_reindexing_the_same_version_replaces_points_never_duplicates(index, embedder):
    law, graph = _law()
    first = index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    second = index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    assert first == second
    assert index.count("profiles") == first["profiles"]


def test_reindexing_drops_profiles_whose_edge_vanished(index, embedder):
    law, graph = _law()
    index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    graph.edges = [e for e in graph.edges if e.type is not RelType.REFERENCES]
    counts = index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    assert counts["profiles"] == 5
    assert index.count("profiles", LAW) == 5


def test_new_version_is_hidden_until_published_then_the_old_one_goes(index, embedder):
    law, graph = _law()
    index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    index_law(law, graph, vectors=index, embedder=embedder, version="v2")
    assert index.count("chunks", LAW) == 6
    assert index.count("chunks", LAW, version="v2") == 3

    query = embedder.embed_query("ข้อมูลสุขภาพ")
    hits = index.hybrid_search("chunks", query, limit=10, exclude_law_versions=[f"{LAW}@v2"])
    assert {h.payload["version"] for h in hits} == {"v1"}
    hits = index.hybrid_search("chunks", query, limit=10, law_versions=[f"{LAW}@v2"])
    assert {h.payload["version"] for h in hits} == {"v2"}

    drop_other_versions(LAW, vectors=index, keep_versions=["v2"])
    assert index.count("chunks", LAW) == 3
    assert index.count("profiles", LAW, version="v1") == 0


def test_health_data_question_finds_section_26_and_its_penalty_edge(index, embedder):
    law, graph = _law()
    index_law(law, graph, vectors=index, embedder=embedder, version="v1")
    query = embedder.embed_query("บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าทำผิดมีโทษอะไร")
    chunks = index.hybrid_search("chunks", query, limit=3)
    assert chunks[0].key == S26
    assert chunks[0].payload["label"] == "มาตรา ๒๖"
    profiles = index.hybrid_search("profiles", query, limit=3)
    assert f"{S84}-PENALIZES->{S26}" in [h.key for h in profiles]


def test_filters_on_law_and_kind(toy):
    query = _query([1, 0, 0], {10: 1.0})
    assert {h.key for h in toy.hybrid_search("chunks", query, limit=10, laws=["b"])} == {
        "b:s:1",
        "b:s:2",
    }
    assert [h.key for h in toy.hybrid_search("chunks", query, limit=10, kinds=["definition"])] == [
        "a:def:x"
    ]
    assert toy.hybrid_search("chunks", query, limit=10, laws=[]) == []


def test_dense_and_sparse_modes_rank_by_their_own_vector(toy):
    query = _query([0, 0, 1], {12: 1.0})
    assert toy.hybrid_search("chunks", query, limit=1, mode="dense")[0].key == "b:s:2"
    sparse = toy.hybrid_search("chunks", query, limit=10, mode="sparse")
    assert [h.key for h in sparse] == ["b:s:1"]  # only points sharing a term
    assert toy.hybrid_search("chunks", _query([0, 0, 1], {}), limit=5, mode="sparse") == []


def test_hybrid_puts_a_point_high_in_both_lists_first(toy):
    hits = toy.hybrid_search("chunks", _query([0.1, 1, 0], {10: 1.0, 12: 1.0}), limit=4)
    assert hits[0].key == "b:s:1"
    assert len(hits) == 4


def test_equal_scores_come_in_key_order(index):
    # Points with the same vectors score the same; the store's own order among them is
    # not fixed between processes, the adapters' is.
    index.ensure_collections(3, sparse_idf=True)
    keys = [f"a:s:{n}" for n in (7, 3, 9, 1, 5, 8, 2, 6, 4)]
    index.upsert("chunks", [_point(k, "a", "section", [1, 0, 0], {10: 1.0}) for k in keys])
    query = _query([1, 0, 0], {10: 1.0})
    for mode in ("dense", "sparse"):
        hits = index.hybrid_search("chunks", query, limit=9, mode=mode)
        assert [h.key for h in hits] == sorted(keys), mode
    # Fused, the same points get the ranks of the two lists, hence distinct scores; equal
    # fused scores still come in key order.
    hits = index.hybrid_search("chunks", query, limit=9)
    assert hits == sorted(hits, key=lambda h: (-h.score, h.key))


@pytest.mark.parametrize("adapter", ["edge", "client-local"])
def test_the_dense_weight_decides_between_the_lists(tmp_path, adapter):
    """One hit per list (prefetch 1 deep): d tops the dense list, s the sparse one, so equal
    weights tie them. Qdrant's weighted RRF divides a rank by its list's weight, so the
    lighter list's top hit comes second."""
    first = {}
    for weight in (0.5, 2.0):
        if adapter == "edge":
            index: VectorIndex = EdgeVectorIndex(
                tmp_path / f"e{weight}", prefetch_limit=1, dense_weight=weight
            )
        else:
            client = QdrantClient(path=str(tmp_path / f"q{weight}"))
            index = QdrantVectorIndex(client, prefetch_limit=1, dense_weight=weight)
        index.ensure_collections(3, sparse_idf=True)
        index.upsert(
            "chunks",
            [
                _point("d", "a", "section", [1, 0, 0], {20: 1.0}),
                _point("s", "a", "section", [0, 0, 1], {10: 1.0}),
            ],
        )
        hits = index.hybrid_search("chunks", _query([1, 0, 0], {10: 1.0}), limit=1)
        first[weight] = hits[0].key
        index.close()
    assert first == {0.5: "s", 2.0: "d"}


def test_plain_rrf_for_servers_before_1_16_fuses_the_same_way(tmp_path):
    index = QdrantVectorIndex(QdrantClient(path=str(tmp_path / "q")), prefix="t", rrf_k=None)
    index.ensure_collections(3, sparse_idf=True)
    index.upsert(
        "chunks",
        [
            _point("a:s:1", "a", "section", [1, 0, 0], {10: 1.0}),
            _point("b:s:1", "b", "section", [0, 1, 0], {10: 1.0, 12: 1.0}),
        ],
    )
    hits = index.hybrid_search("chunks", _query([0.1, 1, 0], {10: 1.0, 12: 1.0}), limit=2)
    assert [h.key for h in hits] == ["b:s:1", "a:s:1"]
    index.close()


def test_unknown_mode_or_collection_is_refused(toy):
    with pytest.raises(ValueError, match="mode"):
        toy.hybrid_search("chunks", _query([1, 0, 0], {}), limit=1, mode="bm25")
    with pytest.raises(ValueError, match="collection"):
        toy.count("sections")


def test_search_before_any_collection_exists_finds_nothing(index):
    assert index.hybrid_search("chunks", _query([1, 0, 0], {1: 1.0}), limit=5) == []
    assert index.count("profiles") == 0


def test_the_english_collection_is_made_only_with_its_own_size(index):
    index.ensure_collections(3, sparse_idf=True)
    question = Embedding((0.0, 1.0), SparseVector((), ()))
    assert index.hybrid_search("english", question, limit=5, mode="dense") == []  # not made
    index.ensure_collections(3, sparse_idf=True, english_size=2)
    payload = {"law": "a", "version": "v1", "law_version": "a@v1", "kind": "paragraph"}
    index.upsert(
        "english",
        [
            VectorPoint("a:s:1#p1", question, payload | {"section": "a:s:1"}),
            VectorPoint("a:s:2#p1", _query([1, 0], {}), payload | {"section": "a:s:2"}),
        ],
    )
    hits = index.hybrid_search("english", question, limit=5, mode="dense")
    assert [h.payload["section"] for h in hits] == ["a:s:1", "a:s:2"]
    assert index.count("chunks") == 0  # the other collections keep their own points
    with pytest.raises(VectorsUnavailable, match="re-index"):
        index.ensure_collections(3, sparse_idf=True, english_size=4)


def test_another_embedder_size_is_refused(toy):
    with pytest.raises(VectorsUnavailable, match="re-index"):
        toy.ensure_collections(5, sparse_idf=True)
    with pytest.raises(VectorsUnavailable, match="re-index"):
        toy.ensure_collections(3, sparse_idf=False)


def test_point_id_is_uuid5_of_the_uid_and_stored_as_such(tmp_path):
    client = QdrantClient(path=str(tmp_path / "q"))
    index = QdrantVectorIndex(client, prefix="t")
    index.ensure_collections(3)
    index.upsert("chunks", [_point("a:s:1", "a", "section", [1, 0, 0], {1: 1.0})])
    expected = str(uuid.uuid5(uuid.NAMESPACE_URL, "lexgraph:a:s:1@v1"))
    assert point_id("a:s:1@v1") == expected
    [record] = client.retrieve("t_chunks", [expected], with_payload=True)
    assert record.payload["key"] == "a:s:1"
    index.close()


def test_edge_store_keeps_points_across_reopen(tmp_path):
    first = EdgeVectorIndex(tmp_path / "v")
    first.ensure_collections(3)
    first.upsert("chunks", [_point("a:s:1", "a", "section", [1, 0, 0], {1: 1.0})])
    first.close()
    again = EdgeVectorIndex(tmp_path / "v")
    assert again.count("chunks", "a") == 1
    assert again.hybrid_search("chunks", _query([1, 0, 0], {1: 1.0}), limit=1)[0].key == "a:s:1"
    again.close()


def test_second_owner_of_an_edge_store_gets_a_clear_error(tmp_path):
    owner = EdgeVectorIndex(tmp_path / "v")
    owner.ensure_collections(3)
    with pytest.raises(VectorsUnavailable, match="another process holds"):
        EdgeVectorIndex(tmp_path / "v")
    owner.close()


def test_optimizing_keeps_the_same_answers(toy):
    from services.core.indexing import optimize_vectors

    query = _query([0.1, 1, 0], {10: 1.0, 12: 1.0})
    before = [h.key for h in toy.hybrid_search("chunks", query, limit=4)]
    optimize_vectors(toy)
    assert [h.key for h in toy.hybrid_search("chunks", query, limit=4)] == before
    assert toy.count("chunks") == 4


def _passage(key: str, tenant: str, scopes: list[str], dense: list[float]) -> VectorPoint:
    return VectorPoint(
        key=key,
        embedding=_query(dense, {20: 1.0}),
        payload={
            "kind": "passage",
            "document": key.split(":p:")[0],
            "tenant": tenant,
            "scopes": scopes,
            "version": "v1",
        },  # fmt: skip
    )


@pytest.mark.parametrize("mode", ["hybrid", "dense", "sparse"])
def test_where_filters_inside_the_query_by_payload_lists(index, mode):
    """A scope filter applies before the limit: the caller's passages are found even when
    other tenants' passages rank above all of them; a list-valued payload (scopes)
    matches when any element is allowed."""
    index.ensure_collections(3, sparse_idf=True)
    others = [_passage(f"doc-b{i}:p:0", "firm-b", ["@tenant"], [1, 0, 0]) for i in range(30)]
    mine = [
        _passage("doc-a1:p:0", "firm-a", ["m1", "team"], [0.5, 0.5, 0]),
        _passage("doc-a2:p:0", "firm-a", ["m2"], [0.4, 0.6, 0]),
        _passage("doc-a3:p:0", "firm-a", ["@tenant"], [0.3, 0.7, 0]),
    ]
    index.upsert("passages", others + mine)
    query = _query([1, 0, 0], {20: 1.0})
    where = {"tenant": ["firm-a"], "scopes": ["@tenant", "team"]}
    hits = index.hybrid_search("passages", query, limit=2, mode=mode, where=where)
    assert {h.key for h in hits} <= {"doc-a1:p:0", "doc-a3:p:0"} and len(hits) == 2
    assert index.hybrid_search("passages", query, limit=5, mode=mode,
                               where={"tenant": ["firm-a"], "scopes": []}) == []  # fmt: skip
    assert index.count_where("passages", {"tenant": ["firm-a"]}) == 3
    index.delete_where("passages", {"document": ["doc-a1", "doc-a2"]})
    assert index.count_where("passages", {"tenant": ["firm-a"]}) == 1
    assert index.count("passages") == 31
    assert index.count("chunks") == 0  # statutes untouched
