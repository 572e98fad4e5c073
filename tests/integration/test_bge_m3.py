"""BgeM3Embedder runs FlagEmbedding's real loading and encoding code, offline, on a tiny
BGE-M3-shaped model built here (../shared/DESIGN.md recipe): a sentencepiece model trained
in-process wrapped as XLMRobertaTokenizer, a 2-layer XLM-R with hidden size 32, and the
colbert_linear.pt / sparse_linear.pt heads BGE-M3 ships beside its weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from services.core.embedding import BgeM3Embedder
from services.core.indexing import index_law
from services.core.vector_index import EdgeVectorIndex

pytest.importorskip("FlagEmbedding", reason="needs the optional 'bge' extra")
torch = pytest.importorskip("torch")

HIDDEN = 32
MAX_LENGTH = 128
CORPUS = [
    "ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคลเกี่ยวกับข้อมูลสุขภาพ ความพิการ ข้อมูลพันธุกรรม",
    "โดยไม่ได้รับความยินยอมโดยชัดแจ้งจากเจ้าของข้อมูลส่วนบุคคล เว้นแต่",
    "ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนมาตรา ๒๖ วรรคหนึ่งหรือวรรคสาม",
    "ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท หรือจำคุกไม่เกินหกเดือน",
    "A data controller who violates Section 26 shall be liable to an administrative fine.",
    "Health data of employees may not be collected without explicit consent, except for",
    "the purposes of preventive or occupational medicine and labour protection.",
]


@pytest.fixture(scope="module")
def tiny_bge_m3(tmp_path_factory) -> Path:
    import sentencepiece as spm
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer

    folder = tmp_path_factory.mktemp("tiny-bge-m3")
    # XLM-R's layout: <unk>=0 <s>=1 </s>=2 in sentencepiece; the tokenizer shifts by one.
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(CORPUS * 40),
        model_prefix=str(folder / "sentencepiece.bpe"),
        vocab_size=300,
        hard_vocab_limit=False,
        model_type="unigram",
        character_coverage=1.0,
        minloglevel=2,
    )
    tokenizer = XLMRobertaTokenizer(vocab_file=str(folder / "sentencepiece.bpe.model"))
    tokenizer.save_pretrained(folder)
    config = XLMRobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=HIDDEN,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=MAX_LENGTH + 2,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    torch.manual_seed(0)
    XLMRobertaModel(config).save_pretrained(folder)
    torch.save(torch.nn.Linear(HIDDEN, HIDDEN).state_dict(), folder / "colbert_linear.pt")
    torch.save(torch.nn.Linear(HIDDEN, 1).state_dict(), folder / "sparse_linear.pt")
    return folder


@pytest.fixture(scope="module")
def bge(tiny_bge_m3) -> BgeM3Embedder:
    return BgeM3Embedder(tiny_bge_m3, max_length=MAX_LENGTH, devices="cpu")


def test_dense_size_comes_from_the_model(bge):
    assert bge.dense_size == HIDDEN
    assert bge.sparse_idf is False  # lexical weights are final, no IDF modifier


def test_documents_get_unit_dense_vectors_and_tokenizer_id_sparse_weights(bge, tiny_bge_m3):
    from transformers import AutoTokenizer

    vocab = len(AutoTokenizer.from_pretrained(tiny_bge_m3))
    embeddings = bge.embed_documents(CORPUS[:3])
    assert len(embeddings) == 3
    for embedding in embeddings:
        assert len(embedding.dense) == HIDDEN
        assert abs(np.linalg.norm(embedding.dense) - 1.0) < 1e-4
        assert embedding.sparse.indices
        assert all(0 <= i < vocab for i in embedding.sparse.indices)
        assert all(v > 0 for v in embedding.sparse.values)
        assert list(embedding.sparse.indices) == sorted(set(embedding.sparse.indices))


def test_query_and_document_share_token_ids_for_shared_words(bge):
    query = bge.embed_query("ข้อมูลสุขภาพ")
    document = bge.embed_documents([CORPUS[0]])[0]
    assert set(query.sparse.indices) & set(document.sparse.indices)


def test_queries_embedded_together_are_each_as_embedded_alone(bge):
    texts = ["ข้อมูลสุขภาพ", "ถ้าทำผิดมีโทษอะไร นายจ้างเก็บข้อมูลสุขภาพของลูกจ้าง"]
    together = bge.embed_queries(texts)
    for text, embedding in zip(texts, together, strict=True):
        alone = bge.embed_query(text)
        assert np.allclose(embedding.dense, alone.dense, atol=1e-5)
        assert embedding.sparse.indices == alone.sparse.indices


def test_a_law_indexes_into_the_edge_store_with_bge_m3(bge, tmp_path):
    from tests.integration.test_vector_index import S26, _law

    law, graph = _law()
    vectors = EdgeVectorIndex(tmp_path / "vectors")
    try:
        counts = index_law(law, graph, vectors=vectors, embedder=bge, version="v1")
        assert counts == {"chunks": 3, "profiles": 6}
        hits = vectors.hybrid_search("chunks", bge.embed_query("มาตรา ๒๖"), limit=3)
        assert S26 in [h.key for h in hits]
    finally:
        vectors.close()
