"""The offline embedder's sparse terms and weights, its dense model, and BGE-M3's guard
against hub downloads. Runs offline: the USE weights ship inside the installed package."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from services.core import english_model
from services.core.embedding import (
    BgeM3Embedder,
    OfflineEmbedder,
    document_sparse,
    lexical_tokens,
    query_sparse,
    sparse_token_id,
)
from services.core.english_model import EnglishModel
from services.core.errors import EmbedderUnavailable


def test_sparse_token_ids_are_the_same_in_another_process():
    code = "from services.core.embedding import sparse_token_id; print(sparse_token_id('โทษ'))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert int(out) == sparse_token_id("โทษ")
    assert 0 <= sparse_token_id("โทษ") < 2**31


def test_thai_digits_and_arabic_digits_give_the_same_terms():
    assert lexical_tokens("มาตรา ๒๖ วรรคหนึ่ง") == lexical_tokens("มาตรา 26 วรรคหนึ่ง")


def test_english_terms_are_lowercased_and_stopwords_dropped():
    assert lexical_tokens("The Data Controller SHALL notify") == ["data", "controller", "notify"]


def test_statute_verbs_are_kept_as_terms():
    # PyThaiNLP's stopword list would drop these; statutes turn on them.
    assert {"เก็บ", "เปิดเผย", "ใช้"} <= set(lexical_tokens("เก็บ ใช้ หรือเปิดเผยข้อมูล"))


def test_prefixed_thai_compound_also_yields_the_bare_word():
    terms = lexical_tokens("ถ้าทำผิดมีโทษอะไร")
    assert {"มีโทษ", "โทษ", "ทำผิด", "ผิด"} <= set(terms)
    assert "ข้อ" not in lexical_tokens("ข้อมูลสุขภาพ")  # no split of a non-compositional word


@pytest.mark.parametrize(
    "text", ["มาตรา ๒๖", "ม. 26", "Section 26", "s.26", "section 26 paragraph one"]
)
def test_section_citations_yield_one_section_term(text):
    assert "§26" in lexical_tokens(text)


def test_section_marker_inside_a_word_is_not_a_citation():
    assert "§5" not in lexical_tokens("ids. 5 and was. 5")


def test_query_weights_are_one_per_distinct_term():
    vector = query_sparse("ข้อมูล ข้อมูล สุขภาพ")
    assert len(vector.indices) == 2
    assert set(vector.values) == {1.0}


def test_document_term_frequency_saturates():
    once = document_sparse("สุขภาพ " + "พนักงาน " * 9)
    many = document_sparse("สุขภาพ " * 9 + "พนักงาน")
    weight = dict(zip(many.indices, many.values, strict=True))[sparse_token_id("สุขภาพ")]
    single = dict(zip(once.indices, once.values, strict=True))[sparse_token_id("สุขภาพ")]
    assert single < weight < 2.2 * single  # BM25 k1=1.2: nine mentions are not nine times one


def test_longer_document_weighs_the_same_term_less():
    short = document_sparse("โทษ ปรับ")
    long = document_sparse("โทษ " + "ถ้อยคำ " * 300)
    term = sparse_token_id("โทษ")
    assert (
        dict(zip(long.indices, long.values, strict=True))[term]
        < dict(zip(short.indices, short.values, strict=True))[term]
    )


def test_sparse_indices_are_sorted_and_unique():
    vector = document_sparse("ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนมาตรา ๒๖ ต้องระวางโทษปรับ")
    assert list(vector.indices) == sorted(set(vector.indices))


class _RecordingModel:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def documents(self, texts):
        self.seen.extend(("document", t) for t in texts)
        return np.ones((len(texts), 7), dtype=np.float32)

    def queries(self, texts):
        self.seen.extend(("query", t) for t in texts)
        return np.ones((len(texts), 7), dtype=np.float32)


def test_dense_size_comes_from_the_model():
    assert OfflineEmbedder(model_factory=_RecordingModel).dense_size == 7


def test_dense_model_reads_the_head_of_a_long_text_and_sparse_reads_all_of_it():
    model = _RecordingModel()
    embedder = OfflineEmbedder(max_dense_chars=100, model_factory=lambda: model)
    text = "ข้อความ " * 200 + "สหภาพแรงงาน"
    [embedding] = embedder.embed_documents([text])
    assert model.seen == [("document", text[:100])]
    assert sparse_token_id("สหภาพแรงงาน") in embedding.sparse.indices


def test_questions_and_documents_reach_the_dense_model_as_such():
    model = _RecordingModel()
    embedder = OfflineEmbedder(model_factory=lambda: model)
    embedder.embed_query("ถ้าทำผิดมีโทษอะไร")
    embedder.embed_documents(["ต้องระวางโทษจำคุก"])
    assert model.seen == [("query", "ถ้าทำผิดมีโทษอะไร"), ("document", "ต้องระวางโทษจำคุก")]


def test_queries_embedded_together_take_one_model_call_and_keep_their_order():
    calls: list[list[str]] = []

    class Model(_RecordingModel):
        def queries(self, texts):
            calls.append(list(texts))
            return np.array([[float(len(t)), 1.0] for t in texts], dtype=np.float32)

    embedder = OfflineEmbedder(model_factory=Model)
    texts = ["โทษ", "ข้อมูลสุขภาพ", "consent"]
    together = embedder.embed_queries(texts)
    assert calls == [texts]
    assert [e.dense[0] for e in together] == [3.0, 12.0, 7.0]
    assert [e.sparse for e in together] == [embedder.embed_query(t).sparse for t in texts]
    assert embedder.embed_queries([]) == []


def test_an_unknown_dense_model_is_refused_by_name():
    with pytest.raises(ValueError, match="'bert'"):
        OfflineEmbedder(dense_model="bert")


@pytest.mark.parametrize(("dense_model", "size"), [("e5", 384), ("use", 512)])
def test_offline_embedder_separates_thai_topics(dense_model, size):
    embedder = OfflineEmbedder(dense_model=dense_model)
    assert embedder.name == f"offline-{dense_model}"
    assert embedder.dense_size == size
    health, fine = embedder.embed_documents(
        [
            "ห้ามมิให้เก็บรวบรวมข้อมูลสุขภาพ ความพิการ ข้อมูลพันธุกรรม โดยไม่ได้รับความยินยอม",
            "ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท",
        ]
    )
    query = embedder.embed_query("บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม")
    q = np.asarray(query.dense)
    assert q @ np.asarray(health.dense) > q @ np.asarray(fine.dense)
    assert abs(np.linalg.norm(q) - 1.0) < 1e-3


def test_bge_m3_without_a_local_directory_is_unavailable_rather_than_downloaded(tmp_path):
    with pytest.raises(EmbedderUnavailable, match="not found"):
        BgeM3Embedder(tmp_path / "no-such-model")


def test_the_english_model_names_a_missing_jar_and_fetches_only_its_own_path(tmp_path):
    missing = tmp_path / "no-such.jar"
    with pytest.raises(EmbedderUnavailable, match="no-such.jar"):
        EnglishModel(missing).query("Can I withdraw my consent?")
    with pytest.raises(EmbedderUnavailable, match="only the default path"):
        english_model.fetch(missing)
