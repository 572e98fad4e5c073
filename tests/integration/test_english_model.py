"""The offline embedder's English model for real (the `english_model` fixture: bge-small-en-v1.5
read from the jar `lexgraph stack build` fetches from the Maven registry), and its paragraphs
in the embedded qdrant-edge index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ingest.graph import LawGraph
from ingest.models import Law, Section
from services.core.embedding import OfflineEmbedder
from services.core.english_model import EnglishModel
from services.core.indexing import drop_other_versions, index_law
from services.core.ports import Embedding, SparseVector
from services.core.vector_index import EdgeVectorIndex

pytestmark = pytest.mark.integration

CONSENT = (
    "3. The data subject shall have the right to withdraw his or her consent at any time. "
    "The withdrawal of consent shall not affect the lawfulness of processing based on "
    "consent before its withdrawal."
)
BREACH = (
    "1. In the case of a personal data breach, the controller shall without undue delay "
    "and, where feasible, not later than 72 hours after having become aware of it, notify "
    "the personal data breach to the supervisory authority."
)


def _law(law_id: str, language: str, sections: dict[str, str]) -> Law:
    return Law(
        id=law_id,
        title=f"{law_id} Act",
        language=language,
        jurisdiction="EU" if language == "en" else "TH",
        source="test",
        sections=[
            Section(f"{law_id}:s:{n}", n, f"Article {n}", text, order=i)
            for i, (n, text) in enumerate(sections.items())
        ],
    )


def test_a_client_s_words_find_the_paragraph_they_describe(english_model: EnglishModel) -> None:
    consent, breach = (np.asarray(v) for v in english_model.documents([CONSENT, BREACH]))
    assert len(consent) == english_model.size == 384
    take_back = np.asarray(
        english_model.query("I agreed to let a shop use my history. Can I take that back?")
    )
    hacked = np.asarray(
        english_model.query("Hackers got into our customer database. Who must we tell?")
    )
    assert take_back @ consent > take_back @ breach
    assert hacked @ breach > hacked @ consent
    assert abs(np.linalg.norm(take_back) - 1.0) < 1e-3


def test_an_english_law_s_paragraphs_are_indexed_once_per_version(
    english_model: EnglishModel, tmp_path: Path
) -> None:
    english = _law("eu-test", "en", {"7": f"Intro line.\n{CONSENT}", "33": BREACH})
    thai = _law("th-test", "th", {"1": "พระราชบัญญัตินี้เรียกว่า พระราชบัญญัติทดสอบ"})
    embedder = OfflineEmbedder(english=english_model)
    vectors = EdgeVectorIndex(tmp_path / "vectors")
    try:
        for law in (english, thai):
            graph = LawGraph(law_id=law.id, nodes=[], edges=[], unresolved=[])
            counts = index_law(law, graph, vectors=vectors, embedder=embedder, version="v1")
            assert counts["chunks"] == len(law.sections)
            assert counts.get("english", 0) == (3 if law.language == "en" else 0)
        again = index_law(
            english,
            LawGraph(law_id=english.id, nodes=[], edges=[], unresolved=[]),
            vectors=vectors,
            embedder=embedder,
            version="v1",
        )
        assert again["english"] == 3  # the same points rewritten, none added

        question = Embedding(
            english_model.query("Can I take back my consent?"), SparseVector((), ())
        )
        hits = vectors.hybrid_search("english", question, limit=3, mode="dense")
        assert hits[0].payload["section"] == "eu-test:s:7"
        assert hits[0].payload["kind"] == "paragraph"

        drop_other_versions(english.id, vectors=vectors, keep_versions=["v2"])
        assert vectors.count("english", english.id) == 0
    finally:
        vectors.close()
